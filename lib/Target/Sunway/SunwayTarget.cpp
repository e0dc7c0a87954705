//===- SunwayTarget.cpp - one SW26010 core group --------------------------===//

#include "dlc/Target/Sunway/SunwayTarget.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Dialect/Sunway/IR/SunwayOps.h"
#include "dlc/Target/Sunway/Passes.h"
#include "dlc/Target/Sunway/SunwayEmission.h"
#include "dlc/Target/Sunway/SunwayExecutor.h"
#include "dlc/Target/Sunway/SunwayModel.h"
#include "dlc/Target/Target.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

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
      /*dmaBlockOverheadBytes=*/470, /*processingUnits=*/hw.cpes,
      /*broadcastReads=*/true, /*stridedReadCopies=*/hw.vectorLanes > 1,
      hw.toTargetDictionary(context));
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
  // The broadcast rewrite matches the counted issues in their canonical
  // form.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(sunway::createBroadcastSharedGets());
  pm.addNestedPass<func::FuncOp>(sunway::createVectorizeKernels());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

namespace {

/// The manifest's Sunway records: the hardware in force, the layers (ONNX
/// nodes with their MACs, where they run and their kernels) and the
/// compulsory traffic.
LogicalResult addRecords(ModuleOp module, const ModelCost &cost,
                         ArtifactManifest &manifest) {
  FailureOr<sunway::WeightsLayout> weights = sunway::layOutWeights(module);
  FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
  if (failed(weights) || failed(signature))
    return failure();
  manifest.signature = *signature;
  HardwareAttr hardware = HardwareAttr::lookup(module);
  llvm::raw_string_ostream os(manifest.hardware);
  Attribute(hardware).print(os);
  manifest.extra["hardware"] = hardwareToJSON(hardware);
  manifest.extra["compulsory_dram_bytes"] =
      sunway::getCompulsoryBytes(*signature, weights->bytes);
  llvm::json::Array layers;
  for (const sunway::SunwayLayer &layer :
       sunway::getSunwayLayers(module, cost)) {
    llvm::json::Array kernels;
    for (const std::string &kernel : layer.kernels)
      kernels.push_back(kernel);
    layers.push_back(llvm::json::Object{{"name", layer.name},
                                        {"op", layer.op},
                                        {"macs", layer.macs},
                                        {"unit", layer.unit},
                                        {"placement", layer.placements},
                                        {"ldm_bytes", layer.ldmBytes},
                                        {"kernels", std::move(kernels)}});
  }
  manifest.extra["layers"] = std::move(layers);
  return success();
}

class SunwayTarget : public Target {
public:
  StringRef getName() const override { return "sunway"; }
  StringRef getDescription() const override {
    return "one SW26010 core group (MPE + 64 CPEs, 64 KiB LDM each, DMA): "
           "athread C, run on dlc's athread emulation with an SW26010 "
           "performance model";
  }
  // Tiles change the float32 summation order; see docs/Targets/Sunway.md.
  std::optional<std::string>
  getUnsupportedReason(Operation *op) const override {
    if (std::optional<std::string> type = findRejectedType(
            op, [](Type type) { return !getElementTypeOrSelf(type).isF16(); }))
      return "a tensor of type " + *type +
             ": the Sunway target has no half "
             "type";
    return std::nullopt;
  }

  LogicalResult
  verifyHardware(HardwareAttr hardware,
                 function_ref<InFlightDiagnostic()> emitError) const override {
    return sunway::SunwayHardware::get(hardware).verify(emitError);
  }

  Tolerance getDefaultTolerance(HardwareAttr) const override {
    return {1e-3, 1e-4};
  }

  HardwareAttr getDefaultHardware(MLIRContext *context) const override {
    return sunway::getDefaultHardware(context);
  }

  void buildPipeline(OpPassManager &pm,
                     const PipelineOptions &options) const override {
    sunway::buildSunwayPipeline(pm, options);
  }

  LogicalResult serialize(ModuleOp module, StringRef outputDir,
                          ArtifactManifest manifest,
                          const ModelCost &cost) const override {
    if (failed(addRecords(module, cost, manifest)) ||
        failed(sunway::writeSunwayArtifacts(module, outputDir)))
      return failure();
    if (llvm::Error error = writeArtifactManifest(outputDir, manifest))
      return module.emitError() << llvm::toString(std::move(error));
    return success();
  }

  FailureOr<TargetReport> predictReport(ModuleOp module,
                                        const ModelCost &cost) const override {
    return sunway::predictSunwayReport(module, cost);
  }

  FailureOr<std::unique_ptr<Executable>>
  load(ModuleOp module, const ModelCost &cost) const override {
    ArtifactManifest manifest;
    manifest.target = "sunway";
    if (failed(addRecords(module, cost, manifest)))
      return failure();
    // The executor runs what `dlc compile` writes: the same files, in a
    // directory of their own.
    SmallString<256> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("dlc-sunway-artifacts", dir))
      return module.emitError() << "cannot create a directory for the "
                                   "artifacts: "
                                << ec.message();
    if (failed(sunway::writeSunwayArtifacts(module, dir))) {
      (void)llvm::sys::fs::remove_directories(dir);
      return failure();
    }
    return sunway::loadSunwayArtifacts(module.getLoc(), dir, manifest,
                                       sunway::SunwayHardware::get(module),
                                       /*ownsDir=*/true);
  }

  FailureOr<std::unique_ptr<Executable>>
  loadArtifacts(StringRef dir, const ArtifactManifest &manifest,
                MLIRContext *context) const override {
    Location loc = FileLineColLoc::get(context, dir, 0, 0);
    FailureOr<HardwareAttr> hardware = parseManifestHardware(manifest, loc);
    if (failed(hardware))
      return failure();
    return sunway::loadSunwayArtifacts(loc, dir, manifest,
                                       sunway::SunwayHardware::get(*hardware),
                                       /*ownsDir=*/false);
  }
};

} // namespace

void dlc::registerSunwayTargetDialects(DialectRegistry &registry) {
  registry.insert<sunway::SunwayDialect>();
}

void dlc::registerSunwayTarget() {
  registerTarget(std::make_unique<SunwayTarget>());
  sunway::registerDLCSunwayPasses();
  sunway::registerSunwayTranslations();
}
