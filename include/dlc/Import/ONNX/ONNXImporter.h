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
