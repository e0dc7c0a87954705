//===- ONNXInputBinding.cpp - fold run-time attribute inputs --------------===//

#include "dlc/Support/ONNXInputBinding.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

#include "onnx/onnx_pb.h"

using namespace dlc;

/// Static operands per op type: what the ONNX operator specification says
/// fixes a shape or was an attribute in older opsets. This is ONNX's
/// definition, independent of what dlc supports.
static llvm::ArrayRef<int> getStaticOperandIndices(llvm::StringRef opType) {
  static const llvm::StringMap<std::vector<int>> table = {
      {"Reshape", {1}},
      {"Expand", {1}},
      {"Tile", {1}},
      {"Squeeze", {1}},
      {"Unsqueeze", {1}},
      {"Split", {1}},
      {"Slice", {1, 2, 3, 4}},
      {"Pad", {1, 2, 3}},
      {"Clip", {1, 2}},
      {"Dropout", {1, 2}},
      {"ReduceSum", {1}},
      {"ReduceMean", {1}},
      {"ReduceMax", {1}},
      {"ReduceMin", {1}},
      {"ReduceProd", {1}},
      {"ReduceL1", {1}},
      {"ReduceL2", {1}},
      {"ReduceLogSum", {1}},
      {"ReduceLogSumExp", {1}},
      {"ReduceSumSquare", {1}},
      {"ConstantOfShape", {0}},
      {"CumSum", {1}},
      {"Range", {0, 1, 2}},
      {"OneHot", {1}},
      {"TopK", {1}},
      {"Resize", {1, 2, 3}},
      {"Upsample", {1}},
      {"MaxUnpool", {2}},
      {"HannWindow", {0}},
      {"HammingWindow", {0}},
      {"BlackmanWindow", {0}},
  };
  auto it = table.find(opType);
  if (it == table.end())
    return {};
  return it->second;
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static llvm::Expected<onnx::ModelProto> parseModel(llvm::StringRef bytes,
                                                   llvm::StringRef sourceName) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return makeError(sourceName + ": not a valid ONNX model");
  return model;
}

llvm::Expected<std::vector<ONNXGraphInput>>
dlc::getONNXGraphInputs(llvm::StringRef modelBytes, llvm::StringRef sourceName,
                        CompiledOperandsFn compiledOperands) {
  llvm::Expected<onnx::ModelProto> model = parseModel(modelBytes, sourceName);
  if (!model)
    return model.takeError();
  const onnx::GraphProto &graph = model->graph();

  llvm::StringSet<> staticOperands, compiled;
  llvm::StringMap<const onnx::NodeProto *> producers;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &output : node.output())
      producers[output] = &node;
  // A static operand computed from graph inputs (a window's length cast to
  // Range's limit) makes those inputs static too; Shape and Size read only
  // their input's (static) shape, not its values.
  std::function<void(const std::string &)> markStatic =
      [&](const std::string &name) {
        if (!staticOperands.insert(name).second)
          return;
        const onnx::NodeProto *producer = producers.lookup(name);
        if (!producer || producer->op_type() == "Shape" ||
            producer->op_type() == "Size")
          return;
        for (const std::string &input : producer->input())
          if (!input.empty())
            markStatic(input);
      };
  for (const onnx::NodeProto &node : graph.node()) {
    for (int index : getStaticOperandIndices(node.op_type()))
      if (index < node.input_size() && !node.input(index).empty())
        markStatic(node.input(index));
    if (compiledOperands)
      for (int index : compiledOperands(node.op_type()))
        if (index < node.input_size() && !node.input(index).empty())
          compiled.insert(node.input(index));
  }
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &initializer : graph.initializer())
    initializers.insert(initializer.name());

  std::vector<ONNXGraphInput> inputs;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.contains(input.name()))
      continue;
    bool byTarget = !staticOperands.contains(input.name()) &&
                    compiled.contains(input.name());
    inputs.push_back({input.name(),
                      staticOperands.contains(input.name()) || byTarget,
                      byTarget});
  }
  return inputs;
}

llvm::Expected<std::string> dlc::bindONNXGraphInputs(
    llvm::StringRef modelBytes, llvm::StringRef sourceName,
    llvm::ArrayRef<std::pair<std::string, Tensor>> values) {
  llvm::Expected<onnx::ModelProto> model = parseModel(modelBytes, sourceName);
  if (!model)
    return model.takeError();
  onnx::GraphProto *graph = model->mutable_graph();
  for (const auto &[name, tensor] : values) {
    auto *inputs = graph->mutable_input();
    auto it = std::find_if(inputs->begin(), inputs->end(),
                           [&](const onnx::ValueInfoProto &input) {
                             return input.name() == name;
                           });
    if (it == inputs->end())
      return makeError(sourceName + ": no graph input named '" + name + "'");
    // Before IR version 4 every initializer is also a graph input (with the
    // initializer as its default); from 4 on the input goes.
    if (model->ir_version() >= 4)
      inputs->erase(it);
    if (!graph->add_initializer()->ParseFromString(
            serializeTensorProto(tensor, name)))
      return makeError("cannot convert the value of '" + name + "'");
  }
  return model->SerializeAsString();
}
