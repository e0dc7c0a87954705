//===- EntrySignature.cpp - inputs and outputs of a model's entry ---------===//

#include "dlc/Support/EntrySignature.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace dlc;
using namespace mlir;

func::FuncOp dlc::getEntryFunction(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp only;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (only)
      return nullptr;
    only = func;
  }
  return only;
}

/// Fills `spec` from argument or result `index`; `role` is "input" or
/// "output". Unnamed ones are called "input_0", ... like ONNX's test files.
static LogicalResult getTensorSpec(Location loc, Type type,
                                   DictionaryAttr attrs, llvm::StringRef role,
                                   unsigned index, TensorSpec &spec) {
  std::string what = (role + " " + llvm::Twine(index)).str();
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return emitError(loc) << what << " has type " << type
                          << "; only statically shaped tensors can be passed";
  std::optional<ElementKind> kind =
      getElementKindFromType(tensorType.getElementType());
  if (!kind)
    return emitError(loc) << what << " has unsupported element type "
                          << tensorType.getElementType();
  spec.kind = *kind;
  spec.shape.assign(tensorType.getShape().begin(), tensorType.getShape().end());
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>(kONNXNameAttr))
      spec.name = name.str();
  if (spec.name.empty())
    spec.name = (role + "_" + llvm::Twine(index)).str();
  return success();
}

static DictionaryAttr getAttrsAt(ArrayAttr attrs, unsigned index) {
  if (!attrs || index >= attrs.size())
    return nullptr;
  return dyn_cast<DictionaryAttr>(attrs[index]);
}

FailureOr<EntrySignature>
dlc::getEntrySignature(Location loc, StringRef functionName, FunctionType type,
                       ArrayAttr argAttrs, ArrayAttr resultAttrs) {
  EntrySignature signature;
  signature.functionName = functionName.str();
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    TensorSpec &spec = signature.inputs.emplace_back();
    if (failed(getTensorSpec(loc, input, getAttrsAt(argAttrs, index), "input",
                             index, spec)))
      return failure();
  }
  for (auto [index, result] : llvm::enumerate(type.getResults())) {
    TensorSpec &spec = signature.outputs.emplace_back();
    if (failed(getTensorSpec(loc, result, getAttrsAt(resultAttrs, index),
                             "output", index, spec)))
      return failure();
  }
  return signature;
}

FailureOr<EntrySignature> dlc::getEntrySignature(func::FuncOp func) {
  return getEntrySignature(func.getLoc(), func.getSymName(),
                           func.getFunctionType(), func.getArgAttrsAttr(),
                           func.getResAttrsAttr());
}
