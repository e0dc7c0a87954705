//===- dlc-translate.cpp - importers and emitters -------------------------===//

#include "dlc/InitAll.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  dlc::registerAllTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "dlc translation tool: ONNX import and target emitters\n"));
}
