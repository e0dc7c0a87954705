//===- ONNXImporter.h - ONNX models to the dlc dialect ----------*- C++ -*-===//
#ifndef DLC_IMPORT_ONNX_ONNXIMPORTER_H
#define DLC_IMPORT_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace dlc {

struct ONNXImportOptions {
  /// Report every unsupported node of the model instead of stopping at the
  /// first one.
  bool listAllUnsupported = false;
  /// Name of the entry function.
  std::string entryName = "main";
};

/// Imports an ONNX model given as the bytes of a binary .onnx file or as
/// ONNX's text syntax (detected from the content). `sourceName` names the
/// input in diagnostics. Returns null after emitting diagnostics on error.
///
/// The model is checked (onnx::checker) and shape-inferred (strict) first.
/// The result is a module named after the graph with one function,
/// `options.entryName`, whose arguments are the graph inputs that are not
/// initializers and whose arguments and results carry `dlc.name` (the ONNX
/// value names). Ops are in the dlc dialect, located at the ONNX node names
/// (`<OpType>_<index>` for unnamed nodes). Initializers and Constant tensors
/// of more than 16 elements become `dense_resource` blobs that take over the
/// protobuf's raw_data without copying it. Element types: f32, f64, f16,
/// int8..int64, uint8..uint64 (ui8..ui64, unsigned MLIR integers), bool
/// (i1). Opsets 7 to 17 of the default domain.
mlir::OwningOpRef<mlir::ModuleOp>
importONNX(llvm::StringRef buffer, llvm::StringRef sourceName,
           mlir::MLIRContext *context, const ONNXImportOptions &options = {});

/// Reads and imports the file at `path`.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXFile(llvm::StringRef path, mlir::MLIRContext *context,
               const ONNXImportOptions &options = {});

/// Registers `--import-onnx` with dlc-translate.
void registerONNXImportTranslation();

} // namespace dlc

#endif // DLC_IMPORT_ONNX_ONNXIMPORTER_H
