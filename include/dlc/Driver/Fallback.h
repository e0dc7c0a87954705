//===- Fallback.h - compiling a model a target runs only in part -*- C++
//-*-===//
//
// Host fallback in the driver: the target's pipeline is the judge of what it
// runs. A model is partitioned (dlc-partition-for-target) with what the
// target says it cannot run on the host, every segment goes through its own
// target's pipeline, and when an accelerator's pipeline rejects an op, that
// op falls back with the pipeline's diagnostic as its reason and the model
// is partitioned again: until every segment compiles, or an error is not
// one an op's fallback can cure.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_FALLBACK_H
#define DLC_DRIVER_FALLBACK_H

#include "dlc/Driver/DriverOptions.h"
#include "dlc/Target/Partition.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace dlc::driver {

/// A segment after its target's pipeline.
struct CompiledSegment {
  const Target *target = nullptr;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ModelCost cost;
  EntrySignature signature;
};

/// A model after its target's pipeline: `module` lowered, or, when anything
/// fell back, `module` the partitioned dlc module (the entry's calls and
/// transfers) and `segments` its segments lowered.
struct CompiledModule {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ModelCost cost;
  std::vector<CompiledSegment> segments;

  bool isPartitioned() const { return !segments.empty(); }
};

/// Runs `target`'s pipeline on the imported `module`, with host fallback
/// unless options.noFallback. With `memoryReportDir`, the memory reports go
/// there (memory_report.json, or one per segment directory). Prints the
/// nodes that fell back and why to `log` when given.
mlir::FailureOr<CompiledModule> compileWithFallback(
    const Target &target, mlir::OwningOpRef<mlir::ModuleOp> module,
    const DriverOptions &options, llvm::StringRef memoryReportDir = "",
    llvm::raw_ostream *log = nullptr);

/// The directory of segment `index` in the artifacts of `dlc compile`.
std::string getSegmentDirectory(llvm::StringRef dir, size_t index,
                                llvm::StringRef target);

/// Loads a compiled module for execution: the target's executable, or the
/// partitioned one over each segment's.
mlir::FailureOr<std::unique_ptr<Executable>>
loadCompiledModule(const Target &target, CompiledModule &compiled,
                   const EntrySignature &signature);

/// Loads the artifacts `dlc compile` wrote into `dir`: the target's own,
/// or, for a partitioned model, each segment's by its target.
mlir::FailureOr<std::unique_ptr<Executable>>
loadArtifactsWithFallback(const Target &target, llvm::StringRef dir,
                          const ArtifactManifest &manifest,
                          mlir::MLIRContext &context);

} // namespace dlc::driver

#endif // DLC_DRIVER_FALLBACK_H
