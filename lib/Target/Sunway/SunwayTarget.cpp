//===- SunwayTarget.cpp - one SW26010 core group --------------------------===//

#include "dlc/Target/Sunway/SunwayTarget.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Dialect/Sunway/IR/SunwayOps.h"
#include "dlc/Target/Sunway/Passes.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace dlc;

/// LDM a kernel keeps for its reply words and transfer counts beyond the
/// tiles the shared passes size (a few dozen words in practice).
static constexpr int64_t kReplyReserveBytes = 512;

HardwareAttr sunway::getDefaultHardware(MLIRContext *context) {
  context->loadDialect<DLCDialect>();
  sunway::SunwayHardware hw;
  return HardwareAttr::get(
      context,
      /*localMemoryBytes=*/hw.getBufferBytes() - kReplyReserveBytes,
      /*localMemorySpace=*/1, /*banks=*/1,
      /*doubleBuffering=*/true,
      /*dmaBlockOverheadBytes=*/470, hw.toTargetDictionary(context));
}

void sunway::buildSunwayPipeline(OpPassManager &pm,
                                 const PipelineOptions &options) {
  AttachHardwareOptions attach;
  attach.hardware.clear();
  llvm::raw_string_ostream os(attach.hardware);
  MLIRContext context;
  Attribute(getDefaultHardware(&context)).print(os);
  attach.overrides = options.hardware;
  pm.addPass(createAttachHardware(attach));
  pm.addPass(createRecordEntrySignature());
  buildDLCToAffinePipeline(pm);
  MemoryPipelineHooks hooks;
  hooks.beforeDoubleBuffering = [](OpPassManager &nested) {
    nested.addNestedPass<func::FuncOp>(sunway::createOutlineKernels());
  };
  buildDLCMemoryPipeline(pm, options, hooks);
  pm.addNestedPass<func::FuncOp>(sunway::createAssignLDM());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::registerSunwayTargetDialects(DialectRegistry &registry) {
  registry.insert<sunway::SunwayDialect>();
}

void dlc::registerSunwayTarget() {
  sunway::registerDLCSunwayPasses();
  PassPipelineRegistration<PipelineOptions>(
      "dlc-sunway-pipeline",
      "dlc -> affine with the shared memory passes -> sunway dialect "
      "(kernels on the 64 CPEs, LDM, athread DMA)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        sunway::buildSunwayPipeline(pm, options);
      });
}
