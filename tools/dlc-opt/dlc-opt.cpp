//===- dlc-opt.cpp - mlir-opt with dlc's dialects, passes and pipelines ---===//
//
// MlirOptMain, with one addition: diagnostics at an imported ONNX node name
// the model and the node (dlc/Dialect/DLC/IR/NodeLocation.h), as in dlc and
// dlc-translate. MlirOptMain makes its context per input chunk, so the
// handler is installed where the pass pipeline is set up, after MLIR's
// own handler and before any pass runs.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/NodeLocation.h"
#include "dlc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  dlc::registerAllPasses();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  dlc::registerAllDialects(registry);

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "dlc optimizer: dlc's dialects, passes and pipelines\n",
      registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // -verify-diagnostics must see every diagnostic, so it keeps MLIR's form.
  if (!config.shouldVerifyDiagnostics()) {
    MlirOptMainConfig fromCommandLine = config;
    config.setPassPipelineSetupFn([fromCommandLine](PassManager &pm) {
      pm.getContext()->getDiagEngine().registerHandler(
          dlc::makeONNXNodeDiagnosticHandler(llvm::errs()));
      return fromCommandLine.setupPassPipeline(pm);
    });
  }
  // What MlirOptMain(argc, argv, ...) does after parsing its options.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
