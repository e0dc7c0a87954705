//===- HostPipeline.cpp - dlc to LLVM for the host ------------------------===//

#include "dlc/Target/Host/HostPipeline.h"

#include "dlc/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void dlc::buildDLCCleanupPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::buildDLCToAffinePipeline(OpPassManager &pm) {
  buildDLCCleanupPipeline(pm);
  pm.addPass(dlc::createConvertDLCToLinalg());
  pm.addPass(createCanonicalizerPass());

  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Results become out-parameters so that every target's executor passes
  // the output buffers in, and nothing the caller must free escapes.
  pm.addPass(bufferization::createBufferResultsToOutParamsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToAffineLoopsPass());
  pm.addNestedPass<func::FuncOp>(affine::createAffineScalarReplacementPass());
  pm.addPass(createCanonicalizerPass());
}

void dlc::buildHostPipeline(OpPassManager &pm) {
  buildDLCToAffinePipeline(pm);
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
