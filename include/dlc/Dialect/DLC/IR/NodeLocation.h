//===- NodeLocation.h - ONNX nodes in MLIR locations ------------*- C++ -*-===//
//
// The importer gives every op the location of the ONNX node it comes from:
//
//   loc("conv1"("Conv"(fused<{domain = "ai.onnx", opset = 13 : i64}>
//                            ["model.onnx":0:0])))
//
// the node's name, inside it the op type, inside that the operator set and
// the model file. Lowered ops keep the location, so reports, fallback
// messages and diagnostics name the node at every stage. This file builds
// and reads such locations and prints diagnostics located at them as
//
//   model.onnx: node 'conv1' (Conv, ai.onnx opset 13): error: ...
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_DLC_IR_NODELOCATION_H
#define DLC_DIALECT_DLC_IR_NODELOCATION_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <optional>
#include <string>

namespace dlc {

/// What the importer records about an ONNX node in its location.
struct ONNXNodeLocation {
  std::string model;  // the model file as given
  std::string name;   // the node's name, or "<OpType>_<index>"
  std::string opType; // "Conv"
  std::string domain; // "ai.onnx" for the default domain
  int64_t opset = 0;  // the version of `domain` the model imports
};

/// The location of an ONNX node (see the file comment).
mlir::Location getLocation(mlir::MLIRContext *context,
                           const ONNXNodeLocation &node);

/// The ONNX node a location carries, if it carries one in the form above.
std::optional<ONNXNodeLocation> findONNXNodeLocation(mlir::Location loc);

/// The ONNX node name a location carries: the first NameLoc in it (the
/// importer names each op after its node; lowered loops keep the location),
/// or empty.
std::string getNodeName(mlir::Location loc);

/// The ONNX op type (`Conv`, `Gemm`, ...) the importer records inside the
/// node's NameLoc, or empty.
std::string getNodeOpType(mlir::Location loc);

/// The ONNX node `op` comes from: the first NameLoc of its location, else
/// `file:line:col`, else the printed location (the names diagnostics,
/// reports and `dlc.eliminated_copies` use).
std::string getNodeName(mlir::Operation *op);
/// The same for a location (a diagnostic's).
std::string getNodeNameOrPosition(mlir::Location loc);

/// A diagnostic handler for the tools (dlc, dlc-translate, dlc-opt): prints
/// a diagnostic located at an ONNX node as
/// `model.onnx: node 'conv1' (Conv, ai.onnx opset 13): error: message`, one
/// located at a whole file (line 0, the importer's model-level errors) as
/// `model.onnx: error: message`, each followed by its notes, and leaves
/// every other diagnostic to the next handler (MLIR's source manager one).
/// Not for `-verify-diagnostics`, which must see every diagnostic.
mlir::DiagnosticEngine::HandlerTy
makeONNXNodeDiagnosticHandler(llvm::raw_ostream &os);

} // namespace dlc

#endif // DLC_DIALECT_DLC_IR_NODELOCATION_H
