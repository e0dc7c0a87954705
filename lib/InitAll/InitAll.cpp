//===- InitAll.cpp - register everything dlc provides ---------------------===//

#include "dlc/InitAll.h"

#include "dlc/Analysis/Passes.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Import/ONNX/ONNXImporter.h"
#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Target/Target.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void dlc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<dlc::DLCDialect>();
  dlc::registerBuiltinTargetDialects(registry);
}

void dlc::registerAllPasses() {
  dlc::registerDLCAnalysisPasses();
  dlc::registerDLCConversionPasses();
  dlc::registerDLCTransformsPasses();
  dlc::registerDLCPipelines();
  dlc::registerTargetPipelines();
}

void dlc::registerAllTranslations() {
  dlc::registerONNXImportTranslation();
  // Each target registers its emitters with itself.
  (void)dlc::getRegisteredTargetNames();
}
