//===- ModelLoading.cpp - models in, by format
//-----------------------------===//

#include "dlc/Driver/ModelLoading.h"

#include "dlc/Driver/DriverOptions.h"
#include "dlc/InitAll.h"
#include "dlc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::driver;

void dlc::driver::registerDriverDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  dlc::registerAllDialects(registry);
}

OwningOpRef<ModuleOp> dlc::driver::loadModel(llvm::StringRef path,
                                             MLIRContext *context,
                                             llvm::SourceMgr &sourceMgr,
                                             const ONNXImportOptions &options) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".onnx" || extension == ".onnxtxt")
    return importONNXFile(path, context, options);
  if (extension == ".mlir") {
    std::string errorMessage;
    auto file = openInputFile(path, &errorMessage);
    if (!file) {
      reportError() << errorMessage << "\n";
      return nullptr;
    }
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    return parseSourceFile<ModuleOp>(sourceMgr, context);
  }
  reportError() << "cannot tell the format of '" << path
                << "': expected a .onnx, .onnxtxt or .mlir file\n";
  return nullptr;
}

FailureOr<std::string> dlc::driver::findModelInTestDir(llvm::StringRef dir) {
  for (llvm::StringRef name : {"model.onnx", "model.onnxtxt", "model.mlir"}) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  reportError() << dir
                << " has no model.onnx (nor model.onnxtxt, model.mlir)\n";
  return failure();
}

FailureOr<EntrySignature> dlc::driver::getModelSignature(ModuleOp module) {
  func::FuncOp entry = getEntryFunction(module);
  if (!entry)
    return module->emitError("no entry function: expected @main or exactly "
                             "one function with a body");
  return getEntrySignature(entry);
}

FailureOr<ModelCost> dlc::driver::computeCleanedUpCost(ModuleOp module) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  buildDLCCleanupPipeline(pm);
  if (failed(pm.run(*clone)))
    return failure();
  return computeModelCost(*clone);
}
