//===- dlc.cpp - the dlc compiler driver ----------------------------------===//
//
//   dlc compile MODEL --target T -o DIR
//   dlc run MODEL_OR_TESTDIR --target T [--rtol X] [--atol Y] [--seed N]
//                                       [--write-outputs DIR]
//   dlc targets
//
// MODEL is a binary .onnx file, ONNX's text syntax (.onnxtxt) or a .mlir
// file in the dlc dialect. The driver only talks to the Target interface, so
// every target gets the same commands.
//
// The command is the first argument and every option is parsed by one
// llvm::cl parser: that keeps MLIR's own options (--mlir-print-ir-after-all,
// --mlir-timing, ...) working after the command, which llvm::cl's
// subcommands would not allow. Options that do not belong to the chosen
// command are rejected by hand.
//
//===----------------------------------------------------------------------===//

#include "dlc/Import/ONNX/ONNXImporter.h"
#include "dlc/InitAll.h"
#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Support/ArtifactManifest.h"
#include "dlc/Support/CostReport.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Support/ONNXInputBinding.h"
#include "dlc/Support/TargetReport.h"
#include "dlc/Support/Tensor.h"
#include "dlc/Target/Target.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace dlc;
using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory dlcCategory("dlc options");

cl::list<std::string> positionalArgs(cl::Positional, cl::desc("COMMAND INPUT"),
                                     cl::cat(dlcCategory));

cl::opt<std::string>
    targetName("target", cl::init("host"),
               cl::desc("Target to compile for and run on (see `dlc "
                        "targets`; default: host)"),
               cl::value_desc("name"), cl::cat(dlcCategory));

cl::opt<std::string> outputDir("o",
                               cl::desc("compile: directory for the artifacts "
                                        "(created if missing)"),
                               cl::value_desc("dir"), cl::cat(dlcCategory));

cl::opt<std::string> hardwareOverrides(
    "hw",
    cl::desc("Overrides of the target's hardware description, comma-separated "
             "name=value entries (local_memory_bytes=64K,banks=4; see "
             "`#dlc.hardware` in the user guide)"),
    cl::value_desc("entries"), cl::cat(dlcCategory));

cl::opt<LoopOrder> loopOrderOption(
    "loop-order", cl::init(LoopOrder::Auto),
    cl::desc("Order of the tile loops of nests that read maps and kernels"),
    getLoopOrderValues(), cl::cat(dlcCategory));

cl::opt<BankLayoutMode> layoutModeOption(
    "layout-mode", cl::init(BankLayoutMode::Global),
    cl::desc("How bank layouts are chosen for a banked local memory"),
    getBankLayoutModeValues(), cl::cat(dlcCategory));

cl::opt<bool> printRemarks(
    "remarks",
    cl::desc("Print the passes' remarks (copies kept, buffers left in global "
             "memory, ...)"),
    cl::cat(dlcCategory));

cl::opt<double> rtolOption("rtol",
                           cl::desc("run: relative tolerance (default: the "
                                    "target's)"),
                           cl::cat(dlcCategory));
cl::opt<double> atolOption("atol",
                           cl::desc("run: absolute tolerance (default: the "
                                    "target's)"),
                           cl::cat(dlcCategory));

cl::opt<uint64_t> seedOption("seed", cl::init(0),
                             cl::desc("run: seed of the random inputs of a "
                                      "bare model"),
                             cl::cat(dlcCategory));

cl::opt<std::string>
    writeOutputsDir("write-outputs",
                    cl::desc("run: write the outputs (and, for a bare model, "
                             "the random inputs) as TensorProto .pb files "
                             "into this directory"),
                    cl::value_desc("dir"), cl::cat(dlcCategory));

cl::opt<std::string> runReportPath(
    "report",
    cl::desc("run: write what the target's executor counted in the last run "
             "(the report schema of the user guide) to this file"),
    cl::value_desc("file"), cl::cat(dlcCategory));

cl::opt<bool> printOutputs(
    "print-outputs",
    cl::desc("run: print every output (a summary and its first values)"),
    cl::cat(dlcCategory));

cl::opt<bool> bindStaticInputsOption(
    "bind-static-inputs", cl::init(true),
    cl::desc("run: on a test directory, compile the graph inputs that fix a "
             "shape or an attribute (Reshape's shape, Slice's starts, ...) as "
             "constants holding each data set's values (default: on)"),
    cl::cat(dlcCategory));

cl::opt<bool> listUnsupported(
    "list-unsupported",
    cl::desc("Report every unsupported ONNX node at once, not just the first"),
    cl::cat(dlcCategory));

constexpr llvm::StringLiteral kUsage =
    "dlc: the dlc deep-learning compiler driver\n\n"
    "  dlc compile MODEL [--target T] -o DIR\n"
    "      import MODEL, write DIR/model.dlc.mlir, run the target's "
    "pipeline,\n"
    "      write the target's artifacts, DIR/report.json and\n"
    "      DIR/memory_report.json (transfers per node; --hw to describe the\n"
    "      machine's local memory)\n"
    "  dlc run MODEL_OR_DIR [--target T] [--rtol X] [--atol Y] "
    "[--seed N]\n"
    "          [--write-outputs DIR] [--print-outputs] [--report FILE]\n"
    "      compile and execute; on an ONNX backend-test directory "
    "(model.onnx,\n"
    "      test_data_set_*/input_*.pb, output_*.pb) compare every output and\n"
    "      exit non-zero on a mismatch, on a bare model run random inputs; on\n"
    "      a directory written by `dlc compile`, load its artifacts instead\n"
    "      of compiling; --report writes what the executor counted\n"
    "  dlc targets\n"
    "      list the targets\n\n"
    "MODEL: .onnx, ONNX text syntax (.onnxtxt), or .mlir in the dlc dialect\n"
    "(a test directory may hold model.onnxtxt or model.mlir instead).\n"
    "MLIR's options apply too (--mlir-print-ir-after-all, --mlir-timing, ...;\n"
    "see --help-hidden).\n";

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dlc");
}

/// Rejects the options given that `command` does not take.
LogicalResult checkOptionsFor(llvm::StringRef command) {
  struct Restricted {
    llvm::StringRef name;
    bool given;
    bool allowed;
  };
  bool isCompile = command == "compile", isRun = command == "run";
  Restricted options[] = {
      {"-o", outputDir.getNumOccurrences() > 0, isCompile},
      {"--rtol", rtolOption.getNumOccurrences() > 0, isRun},
      {"--atol", atolOption.getNumOccurrences() > 0, isRun},
      {"--seed", seedOption.getNumOccurrences() > 0, isRun},
      {"--write-outputs", writeOutputsDir.getNumOccurrences() > 0, isRun},
      {"--print-outputs", printOutputs.getNumOccurrences() > 0, isRun},
      {"--report", runReportPath.getNumOccurrences() > 0, isRun},
      {"--bind-static-inputs", bindStaticInputsOption.getNumOccurrences() > 0,
       isRun},
  };
  for (const Restricted &option : options) {
    if (option.given && !option.allowed) {
      error() << option.name << " does not apply to `dlc " << command << "`\n";
      return failure();
    }
  }
  return success();
}

/// Everything dlc's pipelines may need, upstream dialects included (the
/// bufferization and LLVM-conversion interfaces come with the extensions).
void registerDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  dlc::registerAllDialects(registry);
}

/// Imports or parses the model at `path`, by its extension.
OwningOpRef<ModuleOp> loadModel(llvm::StringRef path, MLIRContext *context,
                                llvm::SourceMgr &sourceMgr) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".onnx" || extension == ".onnxtxt") {
    ONNXImportOptions options;
    options.listAllUnsupported = listUnsupported;
    return importONNXFile(path, context, options);
  }
  if (extension == ".mlir") {
    std::string errorMessage;
    auto file = openInputFile(path, &errorMessage);
    if (!file) {
      error() << errorMessage << "\n";
      return nullptr;
    }
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    return parseSourceFile<ModuleOp>(sourceMgr, context);
  }
  error() << "cannot tell the format of '" << path
          << "': expected a .onnx, .onnxtxt or .mlir file\n";
  return nullptr;
}

/// The target named by --target, or an error listing the known ones.
const Target *getTarget() {
  if (const Target *target = lookupTarget(targetName))
    return target;
  error() << "unknown target '" << targetName << "'; known targets: "
          << llvm::join(getRegisteredTargetNames(), ", ") << "\n";
  return nullptr;
}

/// Runs `target`'s pipeline; MLIR's pass-manager options (IR printing,
/// timing, ...) apply.
LogicalResult runPipeline(const Target &target, ModuleOp module,
                          llvm::StringRef memoryReport = "") {
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  // Reports per-pass times on --mlir-timing when it goes out of scope.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timingScope = timingManager.getRootScope();
  pm.enableTiming(timingScope);
  PipelineOptions options;
  options.hardware = hardwareOverrides;
  options.loopOrder = loopOrderOption;
  options.layoutMode = layoutModeOption;
  options.memoryReport = memoryReport.str();
  target.buildPipeline(pm, options);
  return pm.run(module);
}

LogicalResult writeFile(llvm::StringRef path,
                        llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error() << "cannot write " << path << ": " << ec.message() << "\n";
    return failure();
  }
  write(os);
  os.close();
  if (os.has_error()) {
    error() << "cannot write " << path << ": " << os.error().message() << "\n";
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// dlc compile
//===----------------------------------------------------------------------===//

/// Writes `report` as JSON to `path`.
LogicalResult writeReport(const TargetReport &report, llvm::StringRef path) {
  return writeFile(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", llvm::json::Value(report.toJSON())) << "\n";
  });
}

/// The tensor-level signature of the imported model's entry.
FailureOr<EntrySignature> getModelSignature(ModuleOp module) {
  func::FuncOp entry = getEntryFunction(module);
  if (!entry)
    return module->emitError("no entry function: expected @main or exactly "
                             "one function with a body");
  return getEntrySignature(entry);
}

/// The report is computed on the cleaned-up dlc IR (Identity, Dropout and
/// BatchNorm-into-Conv folded away) that every target's pipeline starts from.
FailureOr<ModelCost> computeCleanedUpCost(ModuleOp module) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  buildDLCCleanupPipeline(pm);
  if (failed(pm.run(*clone)))
    return failure();
  return computeModelCost(*clone);
}

int compileModel(llvm::StringRef modelPath, MLIRContext &context,
                 llvm::SourceMgr &sourceMgr) {
  if (outputDir.empty()) {
    error() << "`dlc compile` needs an output directory (-o DIR)\n";
    return 1;
  }
  const Target *target = getTarget();
  if (!target)
    return 1;
  OwningOpRef<ModuleOp> module = loadModel(modelPath, &context, sourceMgr);
  if (!module)
    return 1;
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    error() << "cannot create " << outputDir << ": " << ec.message() << "\n";
    return 1;
  }

  SmallString<256> dlcPath(outputDir), reportPath(outputDir),
      memoryReportPath(outputDir);
  llvm::sys::path::append(dlcPath, "model.dlc.mlir");
  llvm::sys::path::append(reportPath, "report.json");
  llvm::sys::path::append(memoryReportPath, "memory_report.json");
  if (failed(writeFile(dlcPath, [&](llvm::raw_ostream &os) {
        module->print(os, OpPrintingFlags().enableDebugInfo());
      })))
    return 1;

  FailureOr<ModelCost> cost = computeCleanedUpCost(*module);
  if (failed(cost))
    return 1;
  FailureOr<EntrySignature> signature = getModelSignature(*module);
  if (failed(signature))
    return 1;
  if (failed(runPipeline(*target, *module, memoryReportPath)))
    return 1;
  FailureOr<TargetReport> report = target->predictReport(*module, *cost);
  if (failed(report))
    return 1;
  report->model = modelPath.str();
  if (failed(writeReport(*report, reportPath)))
    return 1;
  ArtifactManifest manifest;
  manifest.target = target->getName().str();
  manifest.model = modelPath.str();
  manifest.signature = *signature;
  if (failed(target->serialize(*module, outputDir, std::move(manifest), *cost)))
    return 1;
  llvm::outs() << "compiled " << modelPath << " for " << target->getName()
               << " into " << outputDir << " (" << cost->ops.size() << " ops, "
               << cost->totalMacs << " MACs)\n";
  return 0;
}

//===----------------------------------------------------------------------===//
// dlc run
//===----------------------------------------------------------------------===//

/// Reads `prefix`0.pb, `prefix`1.pb, ... from `dir` until one is missing;
/// `names` receives the tensor names stored in the files.
FailureOr<std::vector<Tensor>>
readNumberedTensors(llvm::StringRef dir, llvm::StringRef prefix,
                    std::vector<std::string> &names) {
  std::vector<Tensor> tensors;
  for (unsigned index = 0;; ++index) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, (prefix + llvm::Twine(index) + ".pb").str());
    if (!llvm::sys::fs::exists(path))
      return tensors;
    std::string name;
    llvm::Expected<Tensor> tensor = readTensorProtoFile(path, &name);
    if (!tensor) {
      error() << llvm::toString(tensor.takeError()) << "\n";
      return failure();
    }
    tensors.push_back(std::move(*tensor));
    names.push_back(std::move(name));
  }
}

/// Puts tensors read from files into the order of `specs`: by the names
/// stored in the files when they all name a distinct entry of `specs`,
/// otherwise by position. `what` ("inputs") names them in errors.
FailureOr<std::vector<Tensor>>
orderLikeSignature(std::vector<Tensor> tensors,
                   llvm::ArrayRef<std::string> names,
                   llvm::ArrayRef<TensorSpec> specs, llvm::StringRef dataSet,
                   llvm::StringRef what) {
  if (tensors.size() != specs.size()) {
    error() << dataSet << ": the model has " << specs.size() << " " << what
            << ", the data set " << tensors.size() << "\n";
    return failure();
  }
  std::map<std::string, size_t> specIndex;
  for (auto [index, spec] : llvm::enumerate(specs))
    specIndex[spec.name] = index;
  // Decide before moving any tensor: the file order is the fallback.
  std::vector<size_t> positions;
  std::vector<bool> filled(tensors.size(), false);
  for (const std::string &name : names) {
    auto it = specIndex.find(name);
    if (it == specIndex.end() || filled[it->second])
      return tensors; // Names do not identify them: keep the file order.
    filled[it->second] = true;
    positions.push_back(it->second);
  }
  std::vector<Tensor> ordered(tensors.size());
  for (auto [index, position] : llvm::enumerate(positions))
    ordered[position] = std::move(tensors[index]);
  return ordered;
}

/// Prints a summary of `tensor` and, with --print-outputs, its first values.
void printOutput(llvm::StringRef prefix, llvm::StringRef name,
                 const Tensor &tensor) {
  llvm::outs() << prefix << "output '" << name
               << "': " << summarizeTensor(tensor) << "\n";
  if (!printOutputs)
    return;
  constexpr int64_t kMaxPrinted = 16;
  int64_t count = std::min(tensor.getNumElements(), kMaxPrinted);
  llvm::outs() << "  [";
  for (int64_t i = 0; i < count; ++i)
    llvm::outs() << (i ? ", " : "")
                 << llvm::format("%g", tensor.getAsDouble(i));
  if (count < tensor.getNumElements())
    llvm::outs() << ", ... (" << tensor.getNumElements() << " values)";
  llvm::outs() << "]\n";
}

std::string formatError(double value) {
  return llvm::formatv("{0:e3}", value).str();
}

/// Compares one output and prints one line; returns whether it matched.
bool checkOutput(llvm::StringRef dataSet, const TensorSpec &spec,
                 const Tensor &got, const Tensor &want, Tolerance tolerance) {
  llvm::outs() << dataSet << ": output '" << spec.name << "' "
               << want.getTypeString() << ": ";
  TensorComparison comparison =
      compareTensors(got, want, tolerance.rtol, tolerance.atol);
  if (comparison.typeMismatch) {
    llvm::outs() << "MISMATCH: got " << got.getTypeString() << "\n";
    return false;
  }
  llvm::outs() << "max abs error " << formatError(comparison.maxAbsError)
               << ", max rel error " << formatError(comparison.maxRelError);
  if (comparison.isMatch()) {
    llvm::outs() << ": ok\n";
    return true;
  }
  llvm::outs() << ": MISMATCH: " << comparison.numMismatches << " of "
               << want.getNumElements()
               << " elements outside |got - want| <= atol + rtol * |want|; "
                  "first at index "
               << comparison.firstMismatchIndex
               << llvm::format(": got %g, want %g\n",
                               comparison.firstMismatchGot,
                               comparison.firstMismatchWant);
  return false;
}

LogicalResult writeTensor(const Tensor &tensor, llvm::StringRef name,
                          llvm::StringRef dir, llvm::StringRef fileName) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error() << "cannot create " << dir << ": " << ec.message() << "\n";
    return failure();
  }
  SmallString<256> path(dir);
  llvm::sys::path::append(path, fileName);
  if (llvm::Error err = writeTensorProtoFile(tensor, name, path)) {
    error() << llvm::toString(std::move(err)) << "\n";
    return failure();
  }
  return success();
}

LogicalResult writeTensors(llvm::ArrayRef<Tensor> tensors,
                           llvm::ArrayRef<TensorSpec> specs,
                           llvm::StringRef dir, llvm::StringRef prefix) {
  for (auto [index, tensor] : llvm::enumerate(tensors))
    if (failed(writeTensor(tensor, specs[index].name, dir,
                           (prefix + llvm::Twine(index) + ".pb").str())))
      return failure();
  return success();
}

/// The test_data_set_* subdirectories of `dir`, sorted.
std::vector<std::string> findDataSets(llvm::StringRef dir) {
  std::vector<std::string> dataSets;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.starts_with("test_data_set_") &&
        llvm::sys::fs::is_directory(it->path()))
      dataSets.push_back(it->path());
  }
  llvm::sort(dataSets);
  return dataSets;
}

/// The model of a backend-test directory: model.onnx as ONNX writes them,
/// or model.onnxtxt / model.mlir for hand-written tests.
FailureOr<std::string> findModelInTestDir(llvm::StringRef dir) {
  for (llvm::StringRef name : {"model.onnx", "model.onnxtxt", "model.mlir"}) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  error() << dir << " has no model.onnx (nor model.onnxtxt, model.mlir)\n";
  return failure();
}

/// A model compiled for a target's executor.
struct CompiledModel {
  EntrySignature signature;
  std::unique_ptr<Executable> executable;
};

struct Timing {
  double importSeconds = 0, compileSeconds = 0, runSeconds = 0;

  void print() const {
    llvm::outs() << llvm::formatv(
        "time: import {0:f3} s, compile {1:f3} s, run {2:f3} s\n",
        importSeconds, compileSeconds, runSeconds);
  }
};

/// Imports `modelPath` (or, if given, the ONNX model `onnxBytes` that stands
/// for it), runs `target`'s pipeline and loads the result.
FailureOr<CompiledModel>
compileForRun(const Target &target, llvm::StringRef modelPath,
              std::optional<llvm::StringRef> onnxBytes, MLIRContext &context,
              llvm::SourceMgr &sourceMgr, Timing &timing) {
  Clock::time_point start = Clock::now();
  OwningOpRef<ModuleOp> module;
  if (onnxBytes) {
    ONNXImportOptions options;
    options.listAllUnsupported = listUnsupported;
    module = importONNX(*onnxBytes, modelPath, &context, options);
  } else {
    module = loadModel(modelPath, &context, sourceMgr);
  }
  if (!module)
    return failure();
  timing.importSeconds += secondsSince(start);

  FailureOr<EntrySignature> signature = getModelSignature(*module);
  if (failed(signature))
    return failure();

  start = Clock::now();
  FailureOr<ModelCost> cost = computeCleanedUpCost(*module);
  if (failed(cost) || failed(runPipeline(target, *module)))
    return failure();
  FailureOr<std::unique_ptr<Executable>> executable =
      target.load(*module, *cost);
  if (failed(executable))
    return failure();
  timing.compileSeconds += secondsSince(start);
  return CompiledModel{std::move(*signature), std::move(*executable)};
}

FailureOr<std::vector<Tensor>>
execute(CompiledModel &model, llvm::ArrayRef<Tensor> inputs, Timing &timing) {
  Clock::time_point start = Clock::now();
  llvm::Expected<std::vector<Tensor>> outputs = model.executable->run(inputs);
  timing.runSeconds += secondsSince(start);
  if (!outputs) {
    error() << llvm::toString(outputs.takeError()) << "\n";
    return failure();
  }
  return std::move(*outputs);
}

/// A directory written by `dlc compile`: its target loads the artifacts.
FailureOr<CompiledModel> loadCompiled(llvm::StringRef dir, MLIRContext &context,
                                      Timing &timing) {
  Clock::time_point start = Clock::now();
  llvm::Expected<ArtifactManifest> manifest = readArtifactManifest(dir);
  if (!manifest) {
    error() << llvm::toString(manifest.takeError()) << "\n";
    return failure();
  }
  if (targetName.getNumOccurrences() && targetName != manifest->target) {
    error() << dir << " was compiled for '" << manifest->target
            << "', not for '" << targetName << "'\n";
    return failure();
  }
  targetName = manifest->target;
  const Target *target = getTarget();
  if (!target)
    return failure();
  FailureOr<std::unique_ptr<Executable>> executable =
      target->loadArtifacts(dir, *manifest, &context);
  if (failed(executable))
    return failure();
  timing.compileSeconds += secondsSince(start);
  return CompiledModel{manifest->signature, std::move(*executable)};
}

/// With --report, writes what the executor counted in the last run.
int writeRunReport(const CompiledModel &model, llvm::StringRef input) {
  if (runReportPath.empty())
    return 0;
  llvm::Expected<TargetReport> report = model.executable->getReport();
  if (!report) {
    error() << llvm::toString(report.takeError()) << "\n";
    return 1;
  }
  report->model = input.str();
  return failed(writeReport(*report, runReportPath)) ? 1 : 0;
}

/// A bare model: seeded random inputs, output summaries.
int runOnRandomInputs(CompiledModel &model, Timing &timing) {
  const EntrySignature &signature = model.signature;
  std::vector<Tensor> inputs;
  for (auto [index, spec] : llvm::enumerate(signature.inputs))
    inputs.push_back(makeRandomTensor(spec.kind, spec.shape,
                                      seedOption * 0x9E3779B97F4A7C15ull +
                                          static_cast<uint64_t>(index)));
  FailureOr<std::vector<Tensor>> outputs = execute(model, inputs, timing);
  if (failed(outputs))
    return 1;
  for (auto [index, output] : llvm::enumerate(*outputs))
    printOutput("", signature.outputs[index].name, output);
  if (!writeOutputsDir.empty() &&
      (failed(
           writeTensors(inputs, signature.inputs, writeOutputsDir, "input_")) ||
       failed(writeTensors(*outputs, signature.outputs, writeOutputsDir,
                           "output_"))))
    return 1;
  timing.print();
  return 0;
}

/// One test_data_set_* directory, read.
struct DataSet {
  std::string name;
  std::vector<Tensor> inputs, expected;
  std::vector<std::string> inputNames, expectedNames;
};

FailureOr<std::vector<DataSet>> readDataSets(llvm::StringRef dir) {
  std::vector<DataSet> dataSets;
  for (const std::string &path : findDataSets(dir)) {
    DataSet &dataSet = dataSets.emplace_back();
    dataSet.name = llvm::sys::path::filename(path).str();
    FailureOr<std::vector<Tensor>> inputs =
        readNumberedTensors(path, "input_", dataSet.inputNames);
    FailureOr<std::vector<Tensor>> expected =
        readNumberedTensors(path, "output_", dataSet.expectedNames);
    if (failed(inputs) || failed(expected))
      return failure();
    dataSet.inputs = std::move(*inputs);
    dataSet.expected = std::move(*expected);
  }
  if (dataSets.empty()) {
    error() << dir << " has no test_data_set_* directory\n";
    return failure();
  }
  return dataSets;
}

/// The model specialised to `dataSet` (see ONNXInputBinding.h): the graph
/// inputs that feed static operands (shapes, axes, pads, ...) become
/// initializers holding the data set's values and leave `dataSet.inputs`.
FailureOr<std::string>
bindStaticInputs(llvm::StringRef modelBytes, llvm::StringRef modelPath,
                 llvm::ArrayRef<ONNXGraphInput> graphInputs, DataSet &dataSet) {
  if (graphInputs.size() != dataSet.inputs.size()) {
    error() << dataSet.name << ": the model has " << graphInputs.size()
            << " graph inputs, the data set " << dataSet.inputs.size() << "\n";
    return failure();
  }
  // input_<i>.pb is the i-th graph input.
  std::vector<std::pair<std::string, Tensor>> bound;
  std::vector<Tensor> remaining;
  std::vector<std::string> remainingNames;
  for (auto [index, graphInput] : llvm::enumerate(graphInputs)) {
    if (graphInput.feedsStaticOperand) {
      llvm::outs() << dataSet.name << ": input '" << graphInput.name
                   << "' fixes a shape or attribute: compiled as a constant "
                      "(the data set's value)\n";
      bound.emplace_back(graphInput.name, std::move(dataSet.inputs[index]));
    } else {
      remaining.push_back(std::move(dataSet.inputs[index]));
      remainingNames.push_back(graphInput.name);
    }
  }
  dataSet.inputs = std::move(remaining);
  dataSet.inputNames = std::move(remainingNames);
  llvm::Expected<std::string> specialized =
      bindONNXGraphInputs(modelBytes, modelPath, bound);
  if (!specialized) {
    error() << llvm::toString(specialized.takeError()) << "\n";
    return failure();
  }
  return std::move(*specialized);
}

/// Runs one data set and compares its outputs; counts outputs and
/// mismatches.
LogicalResult checkDataSet(CompiledModel &model, DataSet &dataSet,
                           Tolerance tolerance, Timing &timing,
                           unsigned &numOutputs, unsigned &numMismatches) {
  const EntrySignature &signature = model.signature;
  FailureOr<std::vector<Tensor>> inputs =
      orderLikeSignature(std::move(dataSet.inputs), dataSet.inputNames,
                         signature.inputs, dataSet.name, "inputs");
  FailureOr<std::vector<Tensor>> expected =
      orderLikeSignature(std::move(dataSet.expected), dataSet.expectedNames,
                         signature.outputs, dataSet.name, "outputs");
  if (failed(inputs) || failed(expected))
    return failure();
  FailureOr<std::vector<Tensor>> outputs = execute(model, *inputs, timing);
  if (failed(outputs))
    return failure();
  for (auto [index, output] : llvm::enumerate(*outputs)) {
    if (printOutputs)
      printOutput(dataSet.name + ": ", signature.outputs[index].name, output);
    ++numOutputs;
    if (!checkOutput(dataSet.name, signature.outputs[index], output,
                     (*expected)[index], tolerance))
      ++numMismatches;
  }
  if (!writeOutputsDir.empty()) {
    SmallString<256> dir(writeOutputsDir);
    llvm::sys::path::append(dir, dataSet.name);
    if (failed(writeTensors(*outputs, signature.outputs, dir, "output_")))
      return failure();
  }
  return success();
}

int runModel(llvm::StringRef input, MLIRContext &context,
             llvm::SourceMgr &sourceMgr) {
  const Target *target = getTarget();
  if (!target)
    return 1;
  Tolerance tolerance = target->getDefaultTolerance();
  if (rtolOption.getNumOccurrences())
    tolerance.rtol = rtolOption;
  if (atolOption.getNumOccurrences())
    tolerance.atol = atolOption;
  Timing timing;

  if (!llvm::sys::fs::is_directory(input)) {
    FailureOr<CompiledModel> model =
        compileForRun(*target, input, std::nullopt, context, sourceMgr, timing);
    if (failed(model))
      return 1;
    llvm::outs() << "dlc run " << input << " --target " << target->getName()
                 << "\n";
    int status = runOnRandomInputs(*model, timing);
    return status ? status : writeRunReport(*model, input);
  }

  if (isCompiledDirectory(input)) {
    FailureOr<CompiledModel> model = loadCompiled(input, context, timing);
    if (failed(model))
      return 1;
    llvm::outs() << "dlc run " << input << " --target " << targetName
                 << " (compiled artifacts)\n";
    int status = runOnRandomInputs(*model, timing);
    return status ? status : writeRunReport(*model, input);
  }

  FailureOr<std::string> modelPath = findModelInTestDir(input);
  if (failed(modelPath))
    return 1;

  // Static inputs make each data set its own model; otherwise the model is
  // compiled once, first, so that its diagnostics come before any about the
  // data.
  std::unique_ptr<llvm::MemoryBuffer> onnxModel;
  std::vector<ONNXGraphInput> graphInputs;
  if (llvm::sys::path::extension(*modelPath) == ".onnx" &&
      bindStaticInputsOption) {
    auto buffer = llvm::MemoryBuffer::getFile(*modelPath, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      error() << "cannot read " << *modelPath << ": "
              << buffer.getError().message() << "\n";
      return 1;
    }
    llvm::Expected<std::vector<ONNXGraphInput>> inputs =
        getONNXGraphInputs((*buffer)->getBuffer(), *modelPath);
    if (!inputs) {
      error() << llvm::toString(inputs.takeError()) << "\n";
      return 1;
    }
    if (llvm::any_of(*inputs, [](const ONNXGraphInput &graphInput) {
          return graphInput.feedsStaticOperand;
        })) {
      onnxModel = std::move(*buffer);
      graphInputs = std::move(*inputs);
    }
  }
  std::optional<CompiledModel> shared;
  if (!onnxModel) {
    FailureOr<CompiledModel> compiled = compileForRun(
        *target, *modelPath, std::nullopt, context, sourceMgr, timing);
    if (failed(compiled))
      return 1;
    shared = std::move(*compiled);
  }

  FailureOr<std::vector<DataSet>> dataSets = readDataSets(input);
  if (failed(dataSets))
    return 1;
  llvm::outs() << "dlc run " << input << " --target " << target->getName()
               << llvm::format(" (rtol %g, atol %g)\n", tolerance.rtol,
                               tolerance.atol);
  unsigned numOutputs = 0, numMismatches = 0;
  std::optional<CompiledModel> specialized_last;
  for (DataSet &dataSet : *dataSets) {
    std::optional<CompiledModel> specialized;
    if (onnxModel) {
      FailureOr<std::string> bytes = bindStaticInputs(
          onnxModel->getBuffer(), *modelPath, graphInputs, dataSet);
      if (failed(bytes))
        return 1;
      FailureOr<CompiledModel> compiled =
          compileForRun(*target, *modelPath, llvm::StringRef(*bytes), context,
                        sourceMgr, timing);
      if (failed(compiled))
        return 1;
      specialized = std::move(*compiled);
    }
    if (failed(checkDataSet(specialized ? *specialized : *shared, dataSet,
                            tolerance, timing, numOutputs, numMismatches)))
      return 1;
    if (specialized)
      specialized_last = std::move(specialized);
  }
  timing.print();
  if (int status =
          writeRunReport(specialized_last ? *specialized_last : *shared, input))
    return status;
  if (numMismatches) {
    llvm::outs() << "FAILED: " << numMismatches << " of " << numOutputs
                 << " outputs mismatch\n";
    return 1;
  }
  llvm::outs() << "PASSED: " << numOutputs << " outputs in " << dataSets->size()
               << " data sets\n";
  return 0;
}

int listTargets() {
  for (llvm::StringRef name : getRegisteredTargetNames())
    llvm::outs() << name << ": " << lookupTarget(name)->getDescription()
                 << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // `--mlir-print-ir-after=<pass>` and friends take the names of passes
  // registered before the pass manager's options are.
  mlir::registerAllPasses();
  dlc::registerAllPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(dlcCategory);
  cl::ParseCommandLineOptions(argc, argv, kUsage);

  if (positionalArgs.empty()) {
    llvm::errs() << kUsage;
    return 1;
  }
  llvm::StringRef command = positionalArgs[0];
  if (command != "compile" && command != "run" && command != "targets") {
    error() << "unknown command '" << command
            << "'; expected compile, run or targets (see dlc --help)\n";
    return 1;
  }
  if (failed(checkOptionsFor(command)))
    return 1;
  if (command == "targets")
    return listTargets();
  if (positionalArgs.size() != 2) {
    error() << "`dlc " << command << "` takes exactly one input\n";
    return 1;
  }

  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnosticHandler(sourceMgr, &context);
  // Passes explain their choices in remarks (a copy kept, a buffer left in
  // global memory); they are for dlc-opt users unless asked for.
  ScopedDiagnosticHandler remarkFilter(&context, [](Diagnostic &diagnostic) {
    return success(diagnostic.getSeverity() == DiagnosticSeverity::Remark &&
                   !printRemarks);
  });

  if (command == "compile")
    return compileModel(positionalArgs[1], context, sourceMgr);
  return runModel(positionalArgs[1], context, sourceMgr);
}
