//===- ONNXImporterImpl.h - shared state of the ONNX importer ---*- C++ -*-===//
//
// The importer is split in two: ONNXImporter.cpp walks the model (tensors,
// graph inputs and outputs, node dispatch) and ONNXOpImporters.cpp maps each
// ONNX operator to dlc ops through the NodeImporter interface below.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_IMPORT_ONNX_ONNXIMPORTERIMPL_H
#define DLC_LIB_IMPORT_ONNX_ONNXIMPORTERIMPL_H

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

#include <optional>

namespace dlc {
namespace onnx_import {

class NodeImporter;

/// Maps one ONNX operator (of the default domain) to dlc ops.
using OpImportFn = mlir::LogicalResult (*)(NodeImporter &);

/// The importer of every supported operator of the default domain, by ONNX
/// op type; null for unsupported ones.
OpImportFn lookupOpImporter(llvm::StringRef opType);

/// The MLIR element type of an ONNX TensorProto.DataType, or null when dlc
/// does not support it. Unsigned ONNX types become unsigned integers (ui8...)
/// so that the folders and the lowering keep their semantics; bool becomes
/// i1.
mlir::Type convertONNXElementType(int32_t onnxType, mlir::MLIRContext *ctx);

/// Converts a TensorProto (an initializer or a Constant's value) to an
/// elements attribute. Large raw_data tensors are moved, not copied, into a
/// dense_resource blob, which is why `tensor` is not const. Emits an error at
/// `loc` naming `what` and returns null on malformed tensors.
mlir::ElementsAttr convertTensorProto(onnx::TensorProto &tensor,
                                      llvm::StringRef what, mlir::Location loc);

/// Reads an integer elements attribute (dense or dense_resource) into int64
/// values (ui64 values above INT64_MAX wrap); nothing if `attr` is not an
/// integer tensor.
std::optional<llvm::SmallVector<int64_t>>
readIntegerElements(mlir::ElementsAttr attr);

/// Reads a float or integer elements attribute into doubles.
std::optional<llvm::SmallVector<double>>
readNumericElements(mlir::ElementsAttr attr);

/// Context handed to an operator importer: the node's inputs, attributes and
/// outputs, and a builder that checks every op it creates.
class NodeImporter {
public:
  /// `lookupValue` returns the value of an ONNX name, null if it is not
  /// defined, or failure after reporting a broken initializer.
  using LookupFn =
      llvm::function_ref<mlir::FailureOr<mlir::Value>(llvm::StringRef)>;

  /// `declaredType` returns the static type the model (or ONNX shape
  /// inference) gives a value name, null when it gives none.
  using DeclaredTypeFn =
      llvm::function_ref<mlir::RankedTensorType(llvm::StringRef)>;

  NodeImporter(const onnx::NodeProto &node, int64_t opset, mlir::Location loc,
               mlir::OpBuilder &builder, LookupFn lookupValue,
               DeclaredTypeFn declaredType)
      : node(node), opset(opset), loc(loc), builder(builder),
        lookupValue(lookupValue), declaredType(declaredType) {}

  const onnx::NodeProto &getNode() const { return node; }
  llvm::StringRef getOpType() const { return node.op_type(); }
  /// Opset version of the default domain.
  int64_t getOpset() const { return opset; }
  mlir::Location getLoc() const { return loc; }
  mlir::OpBuilder &getBuilder() { return builder; }
  mlir::MLIRContext *getContext() { return builder.getContext(); }

  /// Errors are reported on the node's location; the import driver attaches
  /// the node's name and op type as a note.
  mlir::InFlightDiagnostic emitError() { return mlir::emitError(loc); }

  //===--------------------------------------------------------------------===//
  // Inputs
  //===--------------------------------------------------------------------===//

  unsigned getNumInputs() const { return node.input_size(); }
  /// Whether optional input `index` is given (present and not "").
  bool hasInput(unsigned index) const {
    return index < static_cast<unsigned>(node.input_size()) &&
           !node.input(index).empty();
  }
  /// Input `index`; emits an error and returns null if it is missing.
  mlir::Value getInput(unsigned index);
  /// Input `index`, or null if the optional input is absent.
  /// Input 1 of a legacy (opset < 7) `broadcast = 1` node, reshaped so
  /// that numpy broadcasting means what `axis` meant.
  mlir::Value getLegacyBroadcastOperand(mlir::Value operand);
  mlir::Value getOptionalInput(unsigned index) {
    return hasInput(index) ? getInput(index) : mlir::Value();
  }
  /// All given inputs in order; failure if one is missing.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> getInputs();
  static mlir::RankedTensorType getType(mlir::Value value) {
    return llvm::cast<mlir::RankedTensorType>(value.getType());
  }

  /// The values of input `index`, which must be a constant integer tensor
  /// after folding (shape inputs: Reshape's shape, Slice's starts, ...).
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getConstantIntsInput(unsigned index);
  /// The value of optional scalar input `index` (Clip's bounds, Pad's
  /// constant_value, ...); nothing if absent, failure if not constant.
  mlir::FailureOr<std::optional<double>> getConstantScalarInput(unsigned index);

  //===--------------------------------------------------------------------===//
  // Attributes (the ONNX checker has verified their types)
  //===--------------------------------------------------------------------===//

  const onnx::AttributeProto *getAttr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return getAttr(name); }
  int64_t getIntAttr(llvm::StringRef name, int64_t defaultValue) const;
  float getFloatAttr(llvm::StringRef name, float defaultValue) const;
  std::string getStringAttr(llvm::StringRef name,
                            llvm::StringRef defaultValue) const;
  std::optional<llvm::SmallVector<int64_t>>
  getIntsAttr(llvm::StringRef name) const;

  //===--------------------------------------------------------------------===//
  // Outputs
  //===--------------------------------------------------------------------===//

  unsigned getNumOutputs() const { return node.output_size(); }
  /// The static type the model declares for output `index` (what an op
  /// whose result shape depends on run-time values, such as Resize with
  /// run-time scales, must produce); null when it declares none.
  mlir::RankedTensorType getDeclaredOutputType(unsigned index) const {
    return hasOutput(index) ? declaredType(node.output(index))
                            : mlir::RankedTensorType();
  }
  /// Whether optional output `index` is requested (present and not "").
  bool hasOutput(unsigned index) const {
    return index < static_cast<unsigned>(node.output_size()) &&
           !node.output(index).empty();
  }
  void setResult(unsigned index, mlir::Value value) {
    if (results.size() <= index)
      results.resize(index + 1);
    results[index] = value;
  }
  llvm::ArrayRef<mlir::Value> getResults() const { return results; }

  //===--------------------------------------------------------------------===//
  // Building ops
  //===--------------------------------------------------------------------===//

  /// Creates `OpTy` with `operands` and (inherent) `attrs`, then folds it.
  /// The result type is `resultType`, or inferred with the op's
  /// `inferReturnTypes` when null, so that a bad model yields a diagnostic on
  /// the node instead of an assertion in the builder. The op is verified
  /// before folding. Returns the (possibly folded) single result.
  template <typename OpTy>
  mlir::FailureOr<mlir::Value>
  create(mlir::Type resultType, mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return create<OpTy>(resultType ? mlir::TypeRange(resultType)
                                   : mlir::TypeRange(),
                        operands, attrs);
  }
  /// The same with every result type given (ops with several results);
  /// the first result is returned.
  template <typename OpTy>
  mlir::FailureOr<mlir::Value>
  create(mlir::TypeRange givenTypes, mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    mlir::MLIRContext *ctx = getContext();
    mlir::DictionaryAttr dict = mlir::DictionaryAttr::get(ctx, attrs);
    // Defaults first, so that attributes left out keep their defaults
    // (inferReturnTypes reads them).
    typename OpTy::Properties properties;
    OpTy::populateDefaultProperties(
        mlir::OperationName(OpTy::getOperationName(), ctx), properties);
    if (mlir::failed(OpTy::setPropertiesFromAttr(properties, dict,
                                                 [&] { return emitError(); })))
      return mlir::failure();
    llvm::SmallVector<mlir::Type, 1> resultTypes(givenTypes);
    if (resultTypes.empty()) {
      if constexpr (OpTy::template hasTrait<
                        mlir::OpTrait::InferTypeOpAdaptor>()) {
        typename OpTy::Adaptor adaptor(operands, dict, properties);
        if (mlir::failed(
                OpTy::inferReturnTypes(ctx, loc, adaptor, resultTypes)))
          return mlir::failure();
      } else {
        return emitError() << "internal error: " << OpTy::getOperationName()
                           << " needs an explicit result type";
      }
    }
    mlir::OperationState state(loc, OpTy::getOperationName(), operands,
                               resultTypes, {});
    state.useProperties(properties);
    return verifyAndFold(builder.create(state));
  }
  template <typename OpTy>
  mlir::FailureOr<mlir::Value>
  create(mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return create<OpTy>(mlir::Type(), operands, attrs);
  }

  /// A dlc.constant of `value`.
  mlir::Value createConstant(mlir::ElementsAttr value);
  /// A dlc.reshape of `input` to `shape` (no-op if already that shape).
  mlir::FailureOr<mlir::Value> createReshape(mlir::Value input,
                                             llvm::ArrayRef<int64_t> shape);

  /// Normalises a possibly negative `axis` into [0, rank); emits an error
  /// naming `what` if it is out of range.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                         llvm::StringRef what = "axis");
  /// Normalises a list of axes; also rejects duplicates. Sorted if `sort`.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  normalizeAxes(llvm::ArrayRef<int64_t> axes, int64_t rank, bool sort,
                llvm::StringRef what = "axes");

private:
  mlir::FailureOr<mlir::Value> verifyAndFold(mlir::Operation *op);

  const onnx::NodeProto &node;
  int64_t opset;
  mlir::Location loc;
  mlir::OpBuilder &builder;
  LookupFn lookupValue;
  DeclaredTypeFn declaredType;
  llvm::SmallVector<mlir::Value> results;
};

} // namespace onnx_import
} // namespace dlc

#endif // DLC_LIB_IMPORT_ONNX_ONNXIMPORTERIMPL_H
