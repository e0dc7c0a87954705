//===- Pipelines.cpp - the pass pipelines every target starts from --------===//
//
// The entry ABI after bufferization is `@main(inputs..., outputs...)` on
// identity-layout memrefs: results become out-parameters written in place,
// so nothing the caller must free escapes and every executor passes the
// output buffers in.
//
//===----------------------------------------------------------------------===//

#include "dlc/Pipelines/Pipelines.h"

#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassRegistry.h"
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

  // Every nest records the linalg op it computes (dlc.nest).
  pm.addNestedPass<func::FuncOp>(dlc::createConvertLinalgToAffineNests());
  pm.addNestedPass<func::FuncOp>(affine::createAffineScalarReplacementPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::buildDLCMemoryPipeline(OpPassManager &pm,
                                 const PipelineOptions &options,
                                 const MemoryPipelineHooks &hooks) {
  if (options.eliminateCopies)
    pm.addNestedPass<func::FuncOp>(createDataMovementElimination());
  AssignBankLayoutOptions banks;
  banks.mode = options.layoutMode;
  pm.addNestedPass<func::FuncOp>(createAssignBankLayout(banks));
  TileForLocalMemoryOptions tiling;
  tiling.loopOrder = options.loopOrder;
  pm.addNestedPass<func::FuncOp>(createTileForLocalMemory(tiling));
  pm.addNestedPass<func::FuncOp>(createGenerateTransfers());
  if (hooks.beforeDoubleBuffering)
    hooks.beforeDoubleBuffering(pm);
  pm.addNestedPass<func::FuncOp>(createDoubleBuffer());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createVerifyLocalMemory());
  if (!options.memoryReport.empty()) {
    MemoryReportOptions report;
    report.output = options.memoryReport;
    pm.addPass(createMemoryReport(report));
  }
}

void dlc::registerDLCPipelines() {
  PassPipelineRegistration<>(
      "dlc-to-affine-pipeline",
      "dlc -> linalg -> bufferized -> affine loops (what the shared memory "
      "passes start from)",
      [](OpPassManager &pm) { buildDLCToAffinePipeline(pm); });
}
