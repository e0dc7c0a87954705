//===- Compile.h - dlc compile: a model to a directory of artifacts -*- C++
//-*-===//
#ifndef DLC_DRIVER_COMPILE_H
#define DLC_DRIVER_COMPILE_H

#include "dlc/Driver/DriverOptions.h"
#include "dlc/Support/TargetReport.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/SourceMgr.h"

namespace dlc::driver {

/// The files `dlc compile` writes next to the target's own artifacts
/// (whose list is dlc-artifacts.json, see ArtifactManifest.h).
struct ArtifactLayout {
  static constexpr llvm::StringLiteral kImportedModel = "model.dlc.mlir";
  static constexpr llvm::StringLiteral kReport = "report.json";
  static constexpr llvm::StringLiteral kMemoryReport = "memory_report.json";
  /// A partitioned model's entry: the calls of its segments and the
  /// transfers (Fallback.h); each segment's artifacts are in its directory.
  static constexpr llvm::StringLiteral kPartition = "partition.mlir";
};

/// Runs `target`'s pipeline on `module` with the pipeline options of
/// `options` (and a memory report into `memoryReport` if not empty);
/// MLIR's pass-manager command-line options (IR printing, --mlir-timing,
/// ...) apply when registered.
mlir::LogicalResult runTargetPipeline(const Target &target,
                                      mlir::ModuleOp module,
                                      const DriverOptions &options,
                                      llvm::StringRef memoryReport = "");

/// Writes a text file, or reports why it cannot.
mlir::LogicalResult
writeFile(llvm::StringRef path,
          llvm::function_ref<void(llvm::raw_ostream &)> write);

/// Writes `report` as JSON (the report schema of the user guide).
mlir::LogicalResult writeReport(const TargetReport &report,
                                llvm::StringRef path);

/// dlc compile: imports `modelPath`, writes the imported IR, the predicted
/// report and the memory report into `outputDir` (created if missing) and
/// has the target serialize its artifacts there.
mlir::LogicalResult compileModel(llvm::StringRef modelPath,
                                 llvm::StringRef outputDir,
                                 const DriverOptions &options,
                                 mlir::MLIRContext &context,
                                 llvm::SourceMgr &sourceMgr);

} // namespace dlc::driver

#endif // DLC_DRIVER_COMPILE_H
