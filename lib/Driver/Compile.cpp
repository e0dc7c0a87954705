//===- Compile.cpp - dlc compile: a model to a directory of artifacts
//------===//

#include "dlc/Driver/Compile.h"

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

  FailureOr<ModelCost> cost = computeCleanedUpCost(*module);
  if (failed(cost))
    return failure();
  FailureOr<EntrySignature> signature = getModelSignature(*module);
  if (failed(signature))
    return failure();
  if (failed(runTargetPipeline(*target, *module, options,
                               inOutput(ArtifactLayout::kMemoryReport))))
    return failure();
  FailureOr<TargetReport> report = target->predictReport(*module, *cost);
  if (failed(report))
    return failure();
  report->model = modelPath.str();
  if (failed(writeReport(*report, inOutput(ArtifactLayout::kReport))))
    return failure();
  ArtifactManifest manifest;
  manifest.target = target->getName().str();
  manifest.model = modelPath.str();
  manifest.signature = *signature;
  if (failed(target->serialize(*module, outputDir, std::move(manifest), *cost)))
    return failure();
  llvm::outs() << "compiled " << modelPath << " for " << target->getName()
               << " into " << outputDir << " (" << cost->ops.size() << " ops, "
               << cost->totalMacs << " MACs)\n";
  return success();
}
