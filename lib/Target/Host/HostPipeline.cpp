//===- HostPipeline.cpp - dlc to LLVM for the host ------------------------===//
//
// The pass pipelines every target starts from (cleanup, dlc -> affine) and
// the host's own tail (affine -> LLVM dialect). The entry ABI after
// bufferization is `@main(inputs..., outputs...)` on identity-layout
// memrefs: results become out-parameters written in place, so nothing the
// caller must free escapes and every executor passes the output buffers in.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Host/HostPipeline.h"

#include "dlc/Conversion/Passes.h"
#include "dlc/Target/Host/Passes.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void dlc::buildDLCCleanupPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::buildDLCToAffinePipeline(OpPassManager &pm) {
  buildDLCCleanupPipeline(pm);
  pm.addPass(dlc::createConvertDLCToLinalg());
  // Folds the reshapes and fills the lowering introduces.
  pm.addPass(createCanonicalizerPass());

  // Every result needs a buffer of its own to become an out-parameter.
  pm.addPass(dlc::createCopyRepeatedResults());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Results become out-parameters (of the public entry too); a result
  // computed into a buffer of its own is computed into the out-parameter
  // instead of being copied there.
  bufferization::BufferResultsToOutParamsPassOptions outParamsOptions;
  outParamsOptions.hoistStaticAllocs = true;
  outParamsOptions.modifyPublicFunctions = true;
  pm.addPass(
      bufferization::createBufferResultsToOutParamsPass(outParamsOptions));
  // Copies (pads, concatenations, returned constants) become linalg.copy so
  // they lower to affine loops like everything else.
  pm.addPass(dlc::createMemRefCopyToLinalg());
  pm.addPass(createCanonicalizerPass());
  // Frees every intermediate buffer before the entry returns.
  bufferization::buildBufferDeallocationPipeline(pm);

  pm.addNestedPass<func::FuncOp>(createConvertLinalgToAffineLoopsPass());
  pm.addNestedPass<func::FuncOp>(affine::createAffineScalarReplacementPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::buildHostPipeline(OpPassManager &pm) {
  buildDLCToAffinePipeline(pm);
  // The lowered code does not check what malloc returns.
  pm.addPass(dlc::createCheckHostMemory());
  // Multi-dimensional constants would become one LLVM constant per
  // innermost row (minutes of JIT time for ResNet-50's 1x1 kernels).
  pm.addPass(dlc::createFlattenMemRefGlobals());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Subviews and reshapes become explicit offset/stride arithmetic, which
  // comes back as affine.apply: lower it once more.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Math ops with an LLVM intrinsic use it; the others (erf, and log1p,
  // which the LLVM lowering would only approximate as log(1 + x)) call libm.
  ConvertMathToLLVMPassOptions mathOptions;
  mathOptions.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathOptions));
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
