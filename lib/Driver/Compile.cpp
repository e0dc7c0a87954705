//===- Compile.cpp - dlc compile: a model to a directory of artifacts
//------===//

#include "dlc/Driver/Compile.h"

#include "dlc/Driver/Fallback.h"
#include "dlc/Driver/ModelLoading.h"
#include "dlc/Support/ArtifactManifest.h"
#include "dlc/Support/WriteFile.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::driver;

LogicalResult dlc::driver::runTargetPipeline(const Target &target,
                                             ModuleOp module,
                                             const DriverOptions &options,
                                             llvm::StringRef memoryReport) {
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  // Reports per-pass times on --mlir-timing when it goes out of scope.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timingScope = timingManager.getRootScope();
  pm.enableTiming(timingScope);
  PipelineOptions pipelineOptions;
  pipelineOptions.hardware = options.hardware;
  pipelineOptions.loopOrder = options.loopOrder;
  pipelineOptions.layoutMode = options.layoutMode;
  pipelineOptions.balanceLoads = options.balanceLoads;
  pipelineOptions.eliminateCopies = options.eliminateCopies;
  pipelineOptions.memoryReport = memoryReport.str();
  target.buildPipeline(pm, pipelineOptions);
  return pm.run(module);
}

LogicalResult
dlc::driver::writeFile(llvm::StringRef path,
                       llvm::function_ref<void(llvm::raw_ostream &)> write) {
  if (llvm::Error error = dlc::writeFile(path, [&](llvm::raw_ostream &os) {
        write(os);
        return llvm::Error::success();
      })) {
    reportError() << llvm::toString(std::move(error)) << "\n";
    return failure();
  }
  return success();
}

LogicalResult dlc::driver::writeReport(const TargetReport &report,
                                       llvm::StringRef path) {
  return writeFile(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", llvm::json::Value(report.toJSON())) << "\n";
  });
}

/// The artifacts of a model its target runs whole: the target's own, the
/// predicted report, the manifest.
static LogicalResult serializeWhole(const Target &target,
                                    CompiledModule &compiled,
                                    llvm::StringRef outputDir,
                                    ArtifactManifest manifest) {
  FailureOr<TargetReport> report =
      target.predictReport(*compiled.module, compiled.cost);
  if (failed(report))
    return failure();
  report->model = manifest.model;
  SmallString<256> reportPath(outputDir);
  llvm::sys::path::append(reportPath, ArtifactLayout::kReport);
  if (failed(writeReport(*report, reportPath)))
    return failure();
  return target.serialize(*compiled.module, outputDir, std::move(manifest),
                          compiled.cost);
}

/// The artifacts of a partitioned model: the partitioned entry as
/// partition.mlir, each segment's artifacts in its own directory (written
/// by its own target), one merged predicted report and a manifest that
/// lists the segments.
static LogicalResult serializePartitioned(CompiledModule &compiled,
                                          llvm::StringRef outputDir,
                                          ArtifactManifest manifest) {
  FailureOr<PartitionPlan> plan = PartitionPlan::build(*compiled.module);
  if (failed(plan))
    return failure();
  auto inOutput = [&](llvm::StringRef name) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  if (failed(writeFile(
          inOutput(ArtifactLayout::kPartition), [&](llvm::raw_ostream &os) {
            compiled.module->print(os, OpPrintingFlags().enableDebugInfo());
          })))
    return failure();
  std::vector<TargetReport> reports;
  llvm::json::Array segments;
  for (auto [index, segment] : llvm::enumerate(compiled.segments)) {
    llvm::StringRef name = segment.target->getName();
    std::string directory = getSegmentDirectory(outputDir, index, name);
    FailureOr<TargetReport> report =
        segment.target->predictReport(*segment.module, segment.cost);
    if (failed(report))
      return failure();
    reports.push_back(std::move(*report));
    ArtifactManifest segmentManifest;
    segmentManifest.target = name.str();
    segmentManifest.model = manifest.model;
    segmentManifest.signature = segment.signature;
    if (failed(segment.target->serialize(*segment.module, directory,
                                         std::move(segmentManifest),
                                         segment.cost)))
      return failure();
    segments.push_back(llvm::json::Object{
        {"target", name.str()},
        {"directory", llvm::sys::path::filename(directory).str()}});
  }
  TargetReport report = mergeSegmentReports(*plan, reports);
  report.model = manifest.model;
  if (failed(writeReport(report, inOutput(ArtifactLayout::kReport))))
    return failure();
  manifest.extra["partition"] = llvm::json::Object{
      {"plan", ArtifactLayout::kPartition}, {"segments", std::move(segments)}};
  if (llvm::Error error = writeArtifactManifest(outputDir, manifest)) {
    reportError() << llvm::toString(std::move(error)) << "\n";
    return failure();
  }
  return success();
}

LogicalResult dlc::driver::compileModel(llvm::StringRef modelPath,
                                        llvm::StringRef outputDir,
                                        const DriverOptions &options,
                                        MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  const Target *target = getTargetOrError(options.target);
  if (!target)
    return failure();
  ONNXImportOptions importOptions;
  importOptions.listAllUnsupported = options.listUnsupported;
  OwningOpRef<ModuleOp> module =
      loadModel(modelPath, &context, sourceMgr, importOptions);
  if (!module)
    return failure();
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    reportError() << "cannot create " << outputDir << ": " << ec.message()
                  << "\n";
    return failure();
  }
  auto inOutput = [&](llvm::StringRef name) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  if (failed(writeFile(inOutput(ArtifactLayout::kImportedModel),
                       [&](llvm::raw_ostream &os) {
                         module->print(os, OpPrintingFlags().enableDebugInfo());
                       })))
    return failure();

  FailureOr<EntrySignature> signature = getModelSignature(*module);
  if (failed(signature))
    return failure();
  FailureOr<CompiledModule> compiled = compileWithFallback(
      *target, std::move(module), options, outputDir, &llvm::outs());
  if (failed(compiled))
    return failure();
  ArtifactManifest manifest;
  manifest.target = target->getName().str();
  manifest.model = modelPath.str();
  manifest.signature = *signature;
  if (failed(
          compiled->isPartitioned()
              ? serializePartitioned(*compiled, outputDir, std::move(manifest))
              : serializeWhole(*target, *compiled, outputDir,
                               std::move(manifest))))
    return failure();
  const ModelCost *cost = &compiled->cost;
  llvm::outs() << "compiled " << modelPath << " for " << target->getName()
               << " into " << outputDir << " (" << cost->ops.size() << " ops, "
               << cost->totalMacs << " MACs)\n";
  return success();
}
