//===- Run.cpp - dlc run: compile or load, then execute
//--------------------===//

#include "dlc/Driver/Run.h"

#include "dlc/Driver/Compile.h"
#include "dlc/Driver/Conformance.h"
#include "dlc/Driver/Fallback.h"
#include "dlc/Driver/ModelLoading.h"
#include "dlc/Support/ArtifactManifest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <chrono>

using namespace mlir;
using namespace dlc;
using namespace dlc::driver;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

LogicalResult writeTensor(const Tensor &tensor, llvm::StringRef name,
                          llvm::StringRef dir, llvm::StringRef fileName) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    reportError() << "cannot create " << dir << ": " << ec.message() << "\n";
    return failure();
  }
  SmallString<256> path(dir);
  llvm::sys::path::append(path, fileName);
  if (llvm::Error err = writeTensorProtoFile(tensor, name, path)) {
    reportError() << llvm::toString(std::move(err)) << "\n";
    return failure();
  }
  return success();
}

/// A bare model: seeded random inputs, output summaries.
int runOnRandomInputs(CompiledModel &model, const DriverOptions &options,
                      Timing &timing) {
  const EntrySignature &signature = model.signature;
  std::vector<Tensor> inputs;
  for (auto [index, spec] : llvm::enumerate(signature.inputs))
    inputs.push_back(makeRandomTensor(spec.kind, spec.shape,
                                      options.seed * 0x9E3779B97F4A7C15ull +
                                          static_cast<uint64_t>(index)));
  FailureOr<std::vector<Tensor>> outputs = execute(model, inputs, timing);
  if (failed(outputs))
    return 1;
  for (auto [index, output] : llvm::enumerate(*outputs))
    printOutput("", signature.outputs[index].name, output,
                options.printOutputs);
  const std::string &dir = options.writeOutputsDir;
  if (!dir.empty() &&
      (failed(writeTensors(inputs, signature.inputs, dir, "input_")) ||
       failed(writeTensors(*outputs, signature.outputs, dir, "output_"))))
    return 1;
  timing.print(llvm::outs());
  return 0;
}

} // namespace

void Timing::print(llvm::raw_ostream &os) const {
  os << llvm::formatv("time: import {0:f3} s, compile {1:f3} s, run {2:f3} s\n",
                      importSeconds, compileSeconds, runSeconds);
}

FailureOr<CompiledModel>
dlc::driver::compileForRun(const Target &target, llvm::StringRef modelPath,
                           std::optional<llvm::StringRef> onnxBytes,
                           const DriverOptions &options, MLIRContext &context,
                           llvm::SourceMgr &sourceMgr, Timing &timing) {
  Clock::time_point start = Clock::now();
  ONNXImportOptions importOptions;
  importOptions.listAllUnsupported = options.listUnsupported;
  OwningOpRef<ModuleOp> module =
      onnxBytes ? importONNX(*onnxBytes, modelPath, &context, importOptions)
                : loadModel(modelPath, &context, sourceMgr, importOptions);
  if (!module)
    return failure();
  timing.importSeconds += secondsSince(start);

  FailureOr<EntrySignature> signature = getModelSignature(*module);
  if (failed(signature))
    return failure();

  start = Clock::now();
  FailureOr<CompiledModule> compiled = compileWithFallback(
      target, std::move(module), options, "", &llvm::outs());
  if (failed(compiled))
    return failure();
  FailureOr<std::unique_ptr<Executable>> executable =
      loadCompiledModule(target, *compiled, *signature);
  if (failed(executable))
    return failure();
  timing.compileSeconds += secondsSince(start);
  return CompiledModel{&target, std::move(*signature), std::move(*executable)};
}

FailureOr<CompiledModel> dlc::driver::loadCompiled(llvm::StringRef dir,
                                                   const DriverOptions &options,
                                                   MLIRContext &context,
                                                   Timing &timing) {
  Clock::time_point start = Clock::now();
  llvm::Expected<ArtifactManifest> manifest = readArtifactManifest(dir);
  if (!manifest) {
    reportError() << llvm::toString(manifest.takeError()) << "\n";
    return failure();
  }
  if (options.targetGiven && options.target != manifest->target) {
    reportError() << dir << " was compiled for '" << manifest->target
                  << "', not for '" << options.target << "'\n";
    return failure();
  }
  const Target *target = getTargetOrError(manifest->target);
  if (!target)
    return failure();
  FailureOr<std::unique_ptr<Executable>> executable =
      loadArtifactsWithFallback(*target, dir, *manifest, context);
  if (failed(executable))
    return failure();
  timing.compileSeconds += secondsSince(start);
  return CompiledModel{target, manifest->signature, std::move(*executable)};
}

FailureOr<std::vector<Tensor>>
dlc::driver::execute(CompiledModel &model, llvm::ArrayRef<Tensor> inputs,
                     Timing &timing) {
  Clock::time_point start = Clock::now();
  llvm::Expected<std::vector<Tensor>> outputs = model.executable->run(inputs);
  timing.runSeconds += secondsSince(start);
  if (!outputs) {
    reportError() << llvm::toString(outputs.takeError()) << "\n";
    return failure();
  }
  return std::move(*outputs);
}

LogicalResult dlc::driver::writeTensors(llvm::ArrayRef<Tensor> tensors,
                                        llvm::ArrayRef<TensorSpec> specs,
                                        llvm::StringRef dir,
                                        llvm::StringRef prefix) {
  for (auto [index, tensor] : llvm::enumerate(tensors))
    if (failed(writeTensor(tensor, specs[index].name, dir,
                           (prefix + llvm::Twine(index) + ".pb").str())))
      return failure();
  return success();
}

void dlc::driver::printOutput(llvm::StringRef prefix, llvm::StringRef name,
                              const Tensor &tensor, bool printValues) {
  llvm::outs() << prefix << "output '" << name
               << "': " << summarizeTensor(tensor) << "\n";
  if (!printValues)
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

LogicalResult dlc::driver::writeRunReport(const CompiledModel &model,
                                          llvm::StringRef input,
                                          const DriverOptions &options) {
  if (options.reportPath.empty())
    return success();
  llvm::Expected<TargetReport> report = model.executable->getReport();
  if (!report) {
    reportError() << llvm::toString(report.takeError()) << "\n";
    return failure();
  }
  report->model = input.str();
  return writeReport(*report, options.reportPath);
}

int dlc::driver::runModel(llvm::StringRef input, const DriverOptions &options,
                          MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  Timing timing;
  FailureOr<CompiledModel> model = failure();
  llvm::StringRef how = "";
  if (!llvm::sys::fs::is_directory(input)) {
    const Target *target = getTargetOrError(options.target);
    if (!target)
      return 1;
    model = compileForRun(*target, input, std::nullopt, options, context,
                          sourceMgr, timing);
  } else if (isCompiledDirectory(input)) {
    model = loadCompiled(input, options, context, timing);
    how = " (compiled artifacts)";
  } else {
    const Target *target = getTargetOrError(options.target);
    if (!target)
      return 1;
    return runTestDirectory(*target, input, options, context, sourceMgr);
  }
  if (failed(model))
    return 1;
  llvm::outs() << "dlc run " << input << " --target "
               << model->target->getName() << how << "\n";
  if (int status = runOnRandomInputs(*model, options, timing))
    return status;
  return failed(writeRunReport(*model, input, options)) ? 1 : 0;
}
