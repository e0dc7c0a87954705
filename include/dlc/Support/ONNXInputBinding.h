//===- ONNXInputBinding.h - fold run-time attribute inputs ------*- C++ -*-===//
//
// Some ONNX operands fix a result shape or used to be attributes before an
// opset turned them into inputs (Reshape's shape, Slice's starts/ends/axes/
// steps, Squeeze's axes, Pad's pads, Expand's shape, Tile's repeats, Clip's
// bounds, ...): "static operands". A model may feed them from graph inputs,
// i.e. at run time, but dlc compiles for static shapes and needs them
// constant. When the
// values are known, as in an ONNX backend-test data set, the model can be
// specialised: those graph inputs become initializers holding the values.
// These helpers work on serialized ModelProtos, so the importer is not
// involved.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_ONNXINPUTBINDING_H
#define DLC_SUPPORT_ONNXINPUTBINDING_H

#include "dlc/Support/Tensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace dlc {

struct ONNXGraphInput {
  std::string name;
  /// The input feeds a static operand (see the file comment) of some node of
  /// the main graph.
  bool feedsStaticOperand = false;
  /// ... and that because the target compiles the operand into its program
  /// (a weights-stationary accelerator's weights), not because it fixes a
  /// shape.
  bool compiledByTarget = false;
};

/// The operands of an ONNX op type a target compiles into its program
/// (Target::getCompiledOperands).
using CompiledOperandsFn =
    llvm::function_ref<llvm::ArrayRef<int>(llvm::StringRef opType)>;

/// The graph inputs of a serialized ModelProto that are not initializers,
/// in order (the order of input_<i>.pb in backend-test data sets).
llvm::Expected<std::vector<ONNXGraphInput>>
getONNXGraphInputs(llvm::StringRef modelBytes, llvm::StringRef sourceName,
                   CompiledOperandsFn compiledOperands = nullptr);

/// Returns the serialized model with each named graph input turned into an
/// initializer holding its tensor.
llvm::Expected<std::string>
bindONNXGraphInputs(llvm::StringRef modelBytes, llvm::StringRef sourceName,
                    llvm::ArrayRef<std::pair<std::string, Tensor>> values);

} // namespace dlc

#endif // DLC_SUPPORT_ONNXINPUTBINDING_H
