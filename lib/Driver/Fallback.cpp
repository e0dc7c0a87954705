//===- Fallback.cpp - compiling a model a target runs only in part --------===//

#include "dlc/Driver/Fallback.h"

#include "dlc/Driver/Compile.h"
#include "dlc/Driver/ModelLoading.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::driver;

namespace {

/// The errors of a pipeline run, kept instead of printed.
struct CapturedErrors {
  std::vector<std::pair<Location, std::string>> errors;

  /// Prints them after all, when no fallback can cure them.
  void emit() const {
    for (const auto &[loc, message] : errors)
      emitError(loc) << message;
  }
};

LogicalResult runCapturingErrors(const Target &target, ModuleOp module,
                                 const DriverOptions &options,
                                 llvm::StringRef memoryReport,
                                 CapturedErrors &captured) {
  // Remarks and warnings pass on to the driver's handlers.
  ScopedDiagnosticHandler handler(
      module.getContext(), [&](Diagnostic &diagnostic) {
        if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
          return failure();
        captured.errors.push_back({diagnostic.getLocation(), diagnostic.str()});
        return success();
      });
  return runTargetPipeline(target, module, options, memoryReport);
}

/// Lets the op of `module`'s entry that the first error names fall back,
/// with the error as the reason, or every op of `candidates` (the node names
/// of the segment that failed) when it names none of them. False when no op
/// is newly marked. Errors of the machine description are found before
/// (checkHardware): they are not the nodes' to cure.
bool markFallback(ModuleOp module, const Target &target,
                  const CapturedErrors &captured,
                  const llvm::StringSet<> &candidates) {
  if (captured.errors.empty())
    return false;
  auto [loc, message] = captured.errors.front();
  std::string named = getNodeNameOrPosition(loc);
  // The reason without what the report says next to it anyway: the
  // target's name and the node's.
  llvm::StringRef reason = message;
  reason.consume_front((target.getName() + ": ").str());
  reason.consume_front("node ");
  if (reason.starts_with("'" + named + "' (")) {
    size_t end = reason.find("): ");
    if (end != llvm::StringRef::npos)
      reason = reason.drop_front(end + 3);
  }
  MLIRContext *context = module.getContext();
  DLCDialect::FallbackAttrHelper fallback(context);
  auto mark = [&](llvm::function_ref<bool(llvm::StringRef)> selects) {
    bool marked = false;
    Block &body = getEntryFunction(module).getBody().front();
    for (Operation &op : body.without_terminator()) {
      // Constants are copied into the segments that use them, except those
      // the model returns, which a segment must compute.
      bool returned = llvm::any_of(op.getUsers(), [&](Operation *user) {
        return user == body.getTerminator();
      });
      if ((op.hasTrait<OpTrait::ConstantLike>() && !returned) ||
          fallback.isAttrPresent(&op))
        continue;
      std::string name = getNodeName(&op);
      if (!candidates.contains(name) || !selects(name))
        continue;
      fallback.setAttr(&op, StringAttr::get(context, reason));
      marked = true;
    }
    return marked;
  };
  // An error about none of the segment's nodes (an op the lowering made
  // without a node's location): the whole segment.
  return mark([&](llvm::StringRef name) { return name == named; }) ||
         (!candidates.contains(named) &&
          mark([](llvm::StringRef) { return true; }));
}

/// The machine description the options give (--hw) is valid for the
/// target: a wrong one is the user's error, not a node's to fall back.
LogicalResult checkHardware(const Target &target, ModuleOp module,
                            const DriverOptions &options) {
  OwningOpRef<ModuleOp> probe = ModuleOp::create(module.getLoc());
  PassManager pm(module.getContext());
  PipelineOptions pipelineOptions;
  pipelineOptions.hardware = options.hardware;
  target.addHardwarePasses(pm, pipelineOptions);
  if (failed(pm.run(*probe)))
    return failure();
  return target.verifyHardware(HardwareAttr::lookup(*probe),
                               [&] { return emitError(module.getLoc()); });
}

llvm::StringSet<> getNodeNames(ModuleOp module) {
  llvm::StringSet<> names;
  module.walk([&](Operation *op) {
    if (op->getDialect() && isa<DLCDialect>(op->getDialect()))
      names.insert(getNodeName(op));
  });
  return names;
}

std::string inDirectory(llvm::StringRef dir, llvm::StringRef name) {
  if (dir.empty())
    return "";
  SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

void printFallback(ModuleOp partitioned, llvm::raw_ostream &os) {
  FailureOr<PartitionPlan> plan = PartitionPlan::build(partitioned);
  if (failed(plan))
    return;
  for (const FallbackNode &node : plan->fallbackNodes)
    os << "fallback: node '" << node.name << "'"
       << (node.opType.empty() ? "" : " (" + node.opType + ")")
       << (node.partly ? " runs partly on the host: " : " runs on the host: ")
       << node.reason << "\n";
  int64_t hostSegments = llvm::count(plan->segmentTargets, kFallbackTargetName);
  os << llvm::formatv(
      "fallback: {0} node(s) on the host in {1} of {2} segments; {3} "
      "transfers ({4} bytes to {5}, {6} bytes to the host)\n",
      plan->fallbackNodes.size(), hostSegments, plan->segmentTargets.size(),
      plan->transfers, plan->hostToTargetBytes, plan->target,
      plan->targetToHostBytes);
}

} // namespace

std::string dlc::driver::getSegmentDirectory(llvm::StringRef dir, size_t index,
                                             llvm::StringRef target) {
  return inDirectory(dir, llvm::formatv("segment{0}-{1}", index, target).str());
}

FailureOr<CompiledModule> dlc::driver::compileWithFallback(
    const Target &target, OwningOpRef<ModuleOp> module,
    const DriverOptions &options, llvm::StringRef memoryReportDir,
    llvm::raw_ostream *log) {
  ArtifactLayout layout;
  CompiledModule result;
  FailureOr<ModelCost> cost = computeCleanedUpCost(*module);
  if (failed(cost))
    return failure();
  result.cost = std::move(*cost);
  std::string memoryReport = inDirectory(memoryReportDir, layout.kMemoryReport);
  if (options.noFallback || target.getName() == kFallbackTargetName) {
    if (failed(runTargetPipeline(target, *module, options, memoryReport)))
      return failure();
    result.module = std::move(module);
    return result;
  }

  // Partitioned as the pipelines will see it: Identity and Dropout gone,
  // BatchNormalization folded into its convolution.
  PassManager cleanup(module->getContext());
  buildDLCCleanupPipeline(cleanup);
  if (failed(cleanup.run(*module)))
    return failure();
  if (failed(checkHardware(target, *module, options)))
    return failure();
  // The host's segments run on the host's machine, not on the one the
  // options describe.
  DriverOptions hostOptions = options;
  hostOptions.hardware.clear();
  while (true) {
    OwningOpRef<ModuleOp> attempt = module->clone();
    FailureOr<bool> partitioned = partitionForTarget(*attempt, target);
    if (failed(partitioned))
      return failure();
    CapturedErrors captured;
    if (!*partitioned) {
      if (succeeded(runCapturingErrors(target, *attempt, options, memoryReport,
                                       captured))) {
        result.module = std::move(attempt);
        return result;
      }
      if (!markFallback(*module, target, captured, getNodeNames(*module))) {
        captured.emit();
        return failure();
      }
      continue;
    }

    std::vector<CompiledSegment> segments;
    std::vector<std::string> directories;
    bool retry = false;
    for (auto [index, function] : llvm::enumerate(getSegments(*attempt))) {
      CompiledSegment segment;
      segment.target = lookupTarget(getSegmentTarget(function));
      if (!segment.target)
        return function.emitError("a segment for an unknown target");
      segment.module = extractSegment(*attempt, function);
      // The pipeline lowers the ops away; the names are needed after it.
      llvm::StringSet<> nodeNames = getNodeNames(*segment.module);
      FailureOr<ModelCost> segmentCost = computeCleanedUpCost(*segment.module);
      FailureOr<EntrySignature> signature = getModelSignature(*segment.module);
      if (failed(segmentCost) || failed(signature))
        return failure();
      segment.cost = std::move(*segmentCost);
      segment.signature = std::move(*signature);
      std::string directory = getSegmentDirectory(memoryReportDir, index,
                                                  segment.target->getName());
      if (!directory.empty()) {
        if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
          reportError() << "cannot create " << directory << ": " << ec.message()
                        << "\n";
          return failure();
        }
        directories.push_back(directory);
      }
      std::string segmentReport = inDirectory(directory, layout.kMemoryReport);
      if (segment.target->getName() == kFallbackTargetName) {
        if (failed(runTargetPipeline(*segment.target, *segment.module,
                                     hostOptions, segmentReport)))
          return failure();
      } else if (failed(runCapturingErrors(*segment.target, *segment.module,
                                           options, segmentReport, captured))) {
        if (!markFallback(*module, target, captured, nodeNames)) {
          captured.emit();
          return failure();
        }
        retry = true;
        break;
      }
      segments.push_back(std::move(segment));
    }
    if (retry) {
      // The next attempt's segments differ; none of these stay.
      for (const std::string &directory : directories)
        llvm::sys::fs::remove_directories(directory);
      continue;
    }
    if (log)
      printFallback(*attempt, *log);
    result.module = std::move(attempt);
    result.segments = std::move(segments);
    return result;
  }
}

FailureOr<std::unique_ptr<Executable>>
dlc::driver::loadCompiledModule(const Target &target, CompiledModule &compiled,
                                const EntrySignature &signature) {
  if (!compiled.isPartitioned())
    return target.load(*compiled.module, compiled.cost);
  FailureOr<PartitionPlan> plan = PartitionPlan::build(*compiled.module);
  if (failed(plan))
    return failure();
  std::vector<std::unique_ptr<Executable>> executables;
  for (CompiledSegment &segment : compiled.segments) {
    FailureOr<std::unique_ptr<Executable>> executable =
        segment.target->load(*segment.module, segment.cost);
    if (failed(executable))
      return failure();
    executables.push_back(std::move(*executable));
  }
  return makePartitionedExecutable(std::move(*plan), signature,
                                   std::move(executables));
}

FailureOr<std::unique_ptr<Executable>> dlc::driver::loadArtifactsWithFallback(
    const Target &target, llvm::StringRef dir, const ArtifactManifest &manifest,
    MLIRContext &context) {
  const llvm::json::Object *partition = manifest.extra.getObject("partition");
  if (!partition)
    return target.loadArtifacts(dir, manifest, &context);
  std::optional<llvm::StringRef> planName = partition->getString("plan");
  const llvm::json::Array *segments = partition->getArray("segments");
  if (!planName || !segments) {
    reportError() << dir
                  << ": the manifest's partition needs 'plan' and 'segments'\n";
    return failure();
  }
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      inDirectory(dir, *planName), sourceMgr, ParserConfig(&context));
  if (!module)
    return failure();
  FailureOr<PartitionPlan> plan = PartitionPlan::build(*module);
  if (failed(plan))
    return failure();
  if (plan->segmentTargets.size() != segments->size()) {
    reportError() << dir << ": the plan calls " << plan->segmentTargets.size()
                  << " segments, the manifest lists " << segments->size()
                  << "\n";
    return failure();
  }
  std::vector<std::unique_ptr<Executable>> executables;
  for (auto [record, side] : llvm::zip(*segments, plan->segmentTargets)) {
    const llvm::json::Object *object = record.getAsObject();
    std::optional<llvm::StringRef> directory =
        object ? object->getString("directory") : std::nullopt;
    if (!directory) {
      reportError() << dir << ": a segment of the manifest has no directory\n";
      return failure();
    }
    std::string segmentDir = inDirectory(dir, *directory);
    llvm::Expected<ArtifactManifest> segmentManifest =
        readArtifactManifest(segmentDir);
    if (!segmentManifest) {
      reportError() << llvm::toString(segmentManifest.takeError()) << "\n";
      return failure();
    }
    if (segmentManifest->target != side) {
      reportError() << segmentDir << " holds a segment for '"
                    << segmentManifest->target << "', the plan one for '"
                    << side << "'\n";
      return failure();
    }
    const Target *segmentTarget = getTargetOrError(side);
    if (!segmentTarget)
      return failure();
    FailureOr<std::unique_ptr<Executable>> executable =
        segmentTarget->loadArtifacts(segmentDir, *segmentManifest, &context);
    if (failed(executable))
      return failure();
    executables.push_back(std::move(*executable));
  }
  return makePartitionedExecutable(std::move(*plan), manifest.signature,
                                   std::move(executables));
}
