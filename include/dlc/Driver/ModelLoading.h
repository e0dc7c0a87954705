//===- ModelLoading.h - models in, by format ---------------------*- C++
//-*-===//
#ifndef DLC_DRIVER_MODELLOADING_H
#define DLC_DRIVER_MODELLOADING_H

#include "dlc/Import/ONNX/ONNXImporter.h"
#include "dlc/Support/CostReport.h"
#include "dlc/Support/EntrySignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/SourceMgr.h"

namespace dlc::driver {

/// Everything dlc's pipelines may need, upstream dialects included (the
/// bufferization and LLVM-conversion interfaces come with the extensions).
void registerDriverDialects(mlir::DialectRegistry &registry);

/// Imports or parses the model at `path` by its extension: binary ONNX
/// (.onnx), ONNX text syntax (.onnxtxt) or the dlc dialect (.mlir, whose
/// buffer `sourceMgr` keeps for diagnostics). Null after a diagnostic.
mlir::OwningOpRef<mlir::ModuleOp> loadModel(llvm::StringRef path,
                                            mlir::MLIRContext *context,
                                            llvm::SourceMgr &sourceMgr,
                                            const ONNXImportOptions &options);

/// The model of an ONNX backend-test directory: model.onnx as ONNX writes
/// them, or model.onnxtxt / model.mlir for hand-written tests.
mlir::FailureOr<std::string> findModelInTestDir(llvm::StringRef dir);

/// The tensor-level signature of the imported model's entry.
mlir::FailureOr<EntrySignature> getModelSignature(mlir::ModuleOp module);

/// The cost of the cleaned-up dlc IR (Identity, Dropout and BatchNorm into
/// Conv folded away) that every target's pipeline starts from; `module`
/// itself is left as it is.
mlir::FailureOr<ModelCost> computeCleanedUpCost(mlir::ModuleOp module);

} // namespace dlc::driver

#endif // DLC_DRIVER_MODELLOADING_H
