//===- Conformance.cpp - checking a target on ONNX backend tests
//-----------===//

#include "dlc/Driver/Conformance.h"

#include "dlc/Driver/ModelLoading.h"
#include "dlc/Driver/Run.h"
#include "dlc/Support/ONNXInputBinding.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace mlir;
using namespace dlc;
using namespace dlc::driver;

namespace {

/// One test_data_set_* directory, read.
struct DataSet {
  std::string name;
  std::vector<Tensor> inputs, expected;
  std::vector<std::string> inputNames, expectedNames;
};

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
      reportError() << llvm::toString(tensor.takeError()) << "\n";
      return failure();
    }
    tensors.push_back(std::move(*tensor));
    names.push_back(std::move(name));
  }
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
    reportError() << dir << " has no test_data_set_* directory\n";
    return failure();
  }
  return dataSets;
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
    reportError() << dataSet << ": the model has " << specs.size() << " "
                  << what << ", the data set " << tensors.size() << "\n";
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

/// The model specialised to `dataSet` (see ONNXInputBinding.h): the graph
/// inputs that feed static operands (shapes, axes, pads, ...) become
/// initializers holding the data set's values and leave `dataSet.inputs`.
FailureOr<std::string>
bindStaticInputs(llvm::StringRef modelBytes, llvm::StringRef modelPath,
                 llvm::ArrayRef<ONNXGraphInput> graphInputs, DataSet &dataSet) {
  if (graphInputs.size() != dataSet.inputs.size()) {
    reportError() << dataSet.name << ": the model has " << graphInputs.size()
                  << " graph inputs, the data set " << dataSet.inputs.size()
                  << "\n";
    return failure();
  }
  // input_<i>.pb is the i-th graph input.
  std::vector<std::pair<std::string, Tensor>> bound;
  std::vector<Tensor> remaining;
  std::vector<std::string> remainingNames;
  for (auto [index, graphInput] : llvm::enumerate(graphInputs)) {
    if (graphInput.feedsStaticOperand) {
      llvm::outs() << dataSet.name << ": input '" << graphInput.name
                   << (graphInput.compiledByTarget
                           ? "' is compiled into the target's program: "
                           : "' fixes a shape or attribute: ")
                   << "compiled as a constant (the data set's value)\n";
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
    reportError() << llvm::toString(specialized.takeError()) << "\n";
    return failure();
  }
  return std::move(*specialized);
}

/// Runs one data set and compares its outputs; counts outputs and
/// mismatches.
LogicalResult checkDataSet(CompiledModel &model, DataSet &dataSet,
                           Tolerance tolerance, const DriverOptions &options,
                           Timing &timing, unsigned &numOutputs,
                           unsigned &numMismatches) {
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
    if (options.printOutputs)
      printOutput(dataSet.name + ": ", signature.outputs[index].name, output,
                  /*printValues=*/true);
    ++numOutputs;
    if (!checkOutput(dataSet.name, signature.outputs[index], output,
                     (*expected)[index], tolerance))
      ++numMismatches;
  }
  if (!options.writeOutputsDir.empty()) {
    SmallString<256> dir(options.writeOutputsDir);
    llvm::sys::path::append(dir, dataSet.name);
    if (failed(writeTensors(*outputs, signature.outputs, dir, "output_")))
      return failure();
  }
  return success();
}

/// The ONNX model, when some graph input fixes a shape or an attribute
/// (each data set is then its own model), with those inputs; nothing when
/// the model compiles once.
FailureOr<
    std::pair<std::unique_ptr<llvm::MemoryBuffer>, std::vector<ONNXGraphInput>>>
readModelWithStaticInputs(const Target &target, llvm::StringRef modelPath) {
  auto buffer = llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    reportError() << "cannot read " << modelPath << ": "
                  << buffer.getError().message() << "\n";
    return failure();
  }
  llvm::Expected<std::vector<ONNXGraphInput>> inputs = getONNXGraphInputs(
      (*buffer)->getBuffer(), modelPath, [&](llvm::StringRef opType) {
        return target.getCompiledOperands(opType);
      });
  if (!inputs) {
    reportError() << llvm::toString(inputs.takeError()) << "\n";
    return failure();
  }
  std::pair<std::unique_ptr<llvm::MemoryBuffer>, std::vector<ONNXGraphInput>>
      result;
  if (llvm::any_of(*inputs, [](const ONNXGraphInput &graphInput) {
        return graphInput.feedsStaticOperand;
      }))
    result = {std::move(*buffer), std::move(*inputs)};
  return result;
}

} // namespace

int dlc::driver::runTestDirectory(const Target &target, llvm::StringRef dir,
                                  const DriverOptions &options,
                                  MLIRContext &context,
                                  llvm::SourceMgr &sourceMgr) {
  // The machine the model compiles for decides the default (its number
  // formats); a bad `--hw` is reported once, by the compile that follows.
  context.loadDialect<DLCDialect>();
  FailureOr<HardwareAttr> hardware = failure();
  {
    mlir::ScopedDiagnosticHandler silence(
        &context, [](mlir::Diagnostic &) { return success(); });
    hardware = HardwareAttr::applyOverrides(
        target.getDefaultHardware(&context), options.hardware,
        [&] { return mlir::emitError(mlir::UnknownLoc::get(&context)); });
  }
  Tolerance tolerance = target.getDefaultTolerance(
      succeeded(hardware) ? *hardware : target.getDefaultHardware(&context));
  if (options.rtol)
    tolerance.rtol = *options.rtol;
  if (options.atol)
    tolerance.atol = *options.atol;
  Timing timing;

  FailureOr<std::string> modelPath = findModelInTestDir(dir);
  if (failed(modelPath))
    return 1;

  // Static inputs make each data set its own model; otherwise the model is
  // compiled once, first, so that its diagnostics come before any about the
  // data.
  std::unique_ptr<llvm::MemoryBuffer> onnxModel;
  std::vector<ONNXGraphInput> graphInputs;
  if (llvm::sys::path::extension(*modelPath) == ".onnx" &&
      options.bindStaticInputs) {
    auto model = readModelWithStaticInputs(target, *modelPath);
    if (failed(model))
      return 1;
    onnxModel = std::move(model->first);
    graphInputs = std::move(model->second);
  }
  std::optional<CompiledModel> shared;
  if (!onnxModel) {
    FailureOr<CompiledModel> compiled = compileForRun(
        target, *modelPath, std::nullopt, options, context, sourceMgr, timing);
    if (failed(compiled))
      return 1;
    shared = std::move(*compiled);
  }

  FailureOr<std::vector<DataSet>> dataSets = readDataSets(dir);
  if (failed(dataSets))
    return 1;
  llvm::outs() << "dlc run " << dir << " --target " << target.getName()
               << llvm::format(" (rtol %g, atol %g)\n", tolerance.rtol,
                               tolerance.atol);
  unsigned numOutputs = 0, numMismatches = 0;
  // The report is of the last run: with specialised models, of the last
  // data set's.
  std::optional<CompiledModel> lastSpecialized;
  for (DataSet &dataSet : *dataSets) {
    std::optional<CompiledModel> specialized;
    if (onnxModel) {
      FailureOr<std::string> bytes = bindStaticInputs(
          onnxModel->getBuffer(), *modelPath, graphInputs, dataSet);
      if (failed(bytes))
        return 1;
      FailureOr<CompiledModel> compiled =
          compileForRun(target, *modelPath, llvm::StringRef(*bytes), options,
                        context, sourceMgr, timing);
      if (failed(compiled))
        return 1;
      specialized = std::move(*compiled);
    }
    if (failed(checkDataSet(specialized ? *specialized : *shared, dataSet,
                            tolerance, options, timing, numOutputs,
                            numMismatches)))
      return 1;
    if (specialized)
      lastSpecialized = std::move(specialized);
  }
  timing.print(llvm::outs());
  if (failed(writeRunReport(lastSpecialized ? *lastSpecialized : *shared, dir,
                            options)))
    return 1;
  if (numMismatches) {
    llvm::outs() << "FAILED: " << numMismatches << " of " << numOutputs
                 << " outputs mismatch\n";
    return 1;
  }
  llvm::outs() << "PASSED: " << numOutputs << " outputs in " << dataSets->size()
               << " data sets\n";
  return 0;
}
