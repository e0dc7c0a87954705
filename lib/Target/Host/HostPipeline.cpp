//===- HostPipeline.cpp - dlc to LLVM for the host ------------------------===//
//
// The host's own tail after the shared dlc -> affine pipeline (see
// dlc/Pipelines/Pipelines.h): affine -> LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Host/HostPipeline.h"

#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Target/Host/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"

using namespace mlir;

void dlc::host::buildHostPipeline(OpPassManager &pm,
                                  const PipelineOptions &options) {
  buildDLCToAffinePipeline(pm);
  buildDLCMemoryPipeline(pm, options);
  pm.addPass(host::createLowerLocalMemory());
  // The lowered code does not check what malloc returns.
  pm.addPass(host::createCheckHostMemory());
  // Multi-dimensional constants would become one LLVM constant per
  // innermost row (minutes of JIT time for ResNet-50's 1x1 kernels).
  pm.addPass(host::createFlattenMemRefGlobals());
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
