//===- EntrySignature.h - inputs and outputs of a model's entry -*- C++ -*-===//
//
// What the driver and the executors need to know about the entry function of
// an imported model: its name and, for every input and output, the ONNX
// name (the `dlc.name` argument/result attribute set by the importer), the
// element kind and the static shape.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_ENTRYSIGNATURE_H
#define DLC_SUPPORT_ENTRYSIGNATURE_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Support/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace dlc {

/// The attribute the importer puts on the entry function's arguments and
/// results: the ONNX graph input/output name.
inline constexpr llvm::StringLiteral kONNXNameAttr =
    DLCDialect::NameAttrHelper::getNameStr();

/// The module attribute in which `dlc-record-entry-signature` records the
/// entry's tensor-level signature for the executors: {function = "main",
/// type = (...) -> (...), arg_attrs = [...], res_attrs = [...]}.
inline constexpr llvm::StringLiteral kEntryAttr =
    DLCDialect::EntryAttrHelper::getNameStr();

struct TensorSpec {
  std::string name;
  /// Signless integers have a signed kind, unsigned ones (the importer's
  /// type for ONNX's unsigned types) an unsigned kind.
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;

  /// Whether a tensor of `otherKind` and `otherShape` can be passed here (or
  /// compared with what comes out of here).
  bool accepts(ElementKind otherKind,
               llvm::ArrayRef<int64_t> otherShape) const {
    return llvm::ArrayRef<int64_t>(shape) == otherShape && otherKind == kind;
  }

  std::string getTypeString() const { return formatTensorType(kind, shape); }
};

struct EntrySignature {
  std::string functionName;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;

  /// Success when `args` are the inputs (their number, kinds and shapes),
  /// else an error saying which is not: every executor's first check.
  llvm::Error checkInputs(llvm::ArrayRef<Tensor> args) const;
};

/// The host's physical memory in bytes (UINT64_MAX if unknown).
uint64_t getPhysicalMemoryBytes();

/// Fails with "<what> of type T needs N bytes, more than ..." at `loc` if a
/// buffer of the static `type` cannot fit in the host's memory (or its size
/// does not fit in 64 bits), so that it is refused instead of aborting the
/// allocation or wrapping around. Dynamic shapes and other element types
/// than integers, floats and index pass.
mlir::LogicalResult checkFitsInMemory(mlir::Location loc,
                                      const llvm::Twine &what,
                                      mlir::ShapedType type);

/// The entry function of a module: `main` if it has a body, otherwise the only
/// function with a body; null if there is none (no diagnostic).
mlir::func::FuncOp getEntryFunction(mlir::ModuleOp module);

/// The signature of a function on statically shaped tensors. Emits an error
/// at `loc` (naming the input or output) for any other argument or result
/// type.
mlir::FailureOr<EntrySignature> getEntrySignature(mlir::Location loc,
                                                  llvm::StringRef functionName,
                                                  mlir::FunctionType type,
                                                  mlir::ArrayAttr argAttrs,
                                                  mlir::ArrayAttr resultAttrs);
mlir::FailureOr<EntrySignature> getEntrySignature(mlir::func::FuncOp func);

/// The signature `dlc-record-entry-signature` recorded on `module`, or an
/// error on the module when it has none (it did not go through a target
/// pipeline).
mlir::FailureOr<EntrySignature>
getRecordedEntrySignature(mlir::ModuleOp module);

} // namespace dlc

#endif // DLC_SUPPORT_ENTRYSIGNATURE_H
