//===- SnowflakeTarget.cpp - the Snowflake CNN accelerator ----------------===//
//
// The target: its hardware description, its pipeline (dlc -> one
// snowflake.program with registers), the artifacts (program.bin,
// program.s, the manifest), the compiler's predicted report and the
// simulator as executor; and the translations of the ISA (assembler,
// disassembler, reference) and of the dialect (binary, listing).
//
//===----------------------------------------------------------------------===//

#include "Layers.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.h"
#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Support/WriteFile.h"
#include "dlc/Target/Snowflake/ISA.h"
#include "dlc/Target/Snowflake/Passes.h"
#include "dlc/Target/Snowflake/Program.h"
#include "dlc/Target/Snowflake/SnowflakeEmission.h"
#include "dlc/Target/Snowflake/SnowflakeExecutor.h"
#include "dlc/Target/Snowflake/SnowflakeHardware.h"
#include "dlc/Target/Target.h"
#include "dlc/Transforms/Passes.h"

#include "dlc/Support/CostReport.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

namespace {

HardwareAttr getSnowflakeDefaultHardware(MLIRContext *context) {
  context->loadDialect<DLCDialect>();
  SnowflakeHardware hw;
  // The shared fields describe the machine for the reports; the Snowflake
  // pipeline plans its buffers itself (docs/Targets/Snowflake.md).
  return HardwareAttr::get(
      context, /*localMemoryBytes=*/hw.mapsBufferElements * 2,
      /*localMemorySpace=*/1, /*banks=*/1, /*doubleBuffering=*/true,
      /*dmaBlockOverheadBytes=*/0, /*processingUnits=*/kComputeUnits,
      /*broadcastReads=*/true, /*stridedReadCopies=*/false,
      hw.toTargetDictionary(context));
}

/// The manifest's records of a program: where its tensors are, its layers
/// with their program counters, the compulsory traffic.
LogicalResult addRecords(ModuleOp module, ProgramOp program,
                         const EmittedProgram &emitted,
                         ArtifactManifest &manifest) {
  FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
  if (failed(signature))
    return failure();
  manifest.signature = *signature;
  HardwareAttr hardware = HardwareAttr::lookup(module);
  llvm::raw_string_ostream os(manifest.hardware);
  Attribute(hardware).print(os);
  manifest.extra["hardware"] = hardwareToJSON(hardware);
  auto placements = [](ArrayAttr tensors) {
    llvm::json::Array array;
    for (auto tensor : tensors.getAsRange<DramTensorAttr>()) {
      llvm::json::Array shape, strides;
      for (int64_t d : tensor.getShape())
        shape.push_back(d);
      for (int64_t s : tensor.getStrides())
        strides.push_back(s);
      array.push_back(llvm::json::Object{{"name", tensor.getName().getValue()},
                                         {"address", tensor.getAddress()},
                                         {"shape", std::move(shape)},
                                         {"strides", std::move(strides)}});
    }
    return array;
  };
  manifest.extra["inputs"] = placements(program.getInputs());
  manifest.extra["outputs"] = placements(program.getOutputs());
  int64_t compulsory = static_cast<int64_t>(emitted.program.data.size());
  for (const TensorSpec &spec : signature->inputs)
    compulsory += 2 * ShapedType::getNumElements(spec.shape);
  for (const TensorSpec &spec : signature->outputs)
    compulsory += 2 * ShapedType::getNumElements(spec.shape);
  manifest.extra["compulsory_dram_bytes"] = compulsory;
  llvm::json::Array layers;
  size_t pc = 0;
  for (auto [index, attr] : llvm::enumerate(program.getLayers())) {
    auto layer = cast<LayerAttr>(attr);
    // Layers are emitted one after the other: each is one run of pcs.
    while (pc < emitted.layerOfPc.size() && emitted.layerOfPc[pc] < index)
      ++pc;
    size_t first = pc;
    while (pc < emitted.layerOfPc.size() && emitted.layerOfPc[pc] == index)
      ++pc;
    llvm::json::Array fused;
    for (Attribute name : layer.getFused())
      fused.push_back(cast<StringAttr>(name).getValue());
    layers.push_back(
        llvm::json::Object{{"name", layer.getName().getValue()},
                           {"op", layer.getOp().getValue()},
                           {"fused", std::move(fused)},
                           {"macs", layer.getMacs()},
                           {"hardware_macs", layer.getHardwareMacs()},
                           {"loop_order", layer.getLoopOrder().getValue()},
                           {"schedule", layer.getSchedule().getValue()},
                           {"predicted_cycles", layer.getPredictedCycles()},
                           {"first_pc", static_cast<int64_t>(first)},
                           {"end_pc", static_cast<int64_t>(pc)}});
  }
  manifest.extra["layers"] = std::move(layers);
  if (auto tail = module.lookupSymbol<func::FuncOp>(kArmTailFunction)) {
    llvm::json::Array arm;
    tail.walk([&](Operation *op) {
      if (op->getDialect() ==
              op->getContext()->getLoadedDialect<DLCDialect>() &&
          !isa<ConstantOp>(op))
        arm.push_back(llvm::json::Object{{"name", getNodeName(op)},
                                         {"op", getNodeOpType(op->getLoc())}});
    });
    manifest.extra["arm_layers"] = std::move(arm);
    manifest.extra["arm_tail"] = "arm_tail.mlir";
  }
  return success();
}

/// The ARM's function of `module` as a model of its own (`main`), or null.
OwningOpRef<ModuleOp> extractArmTail(ModuleOp module) {
  auto tail = module.lookupSymbol<func::FuncOp>(kArmTailFunction);
  if (!tail)
    return {};
  OwningOpRef<ModuleOp> model = ModuleOp::create(module.getLoc());
  func::FuncOp main = tail.clone();
  main.setSymName("main");
  model->push_back(main);
  return model;
}

/// What the ARM runs, compiled by the host target (the ARM's time is not
/// modelled; docs/Targets/Snowflake.md).
FailureOr<std::unique_ptr<Executable>> compileArmTail(ModuleOp tail) {
  const Target *host = lookupTarget("host");
  if (!host)
    return tail.emitError("snowflake: the ARM's share of the model needs "
                          "the host target");
  ModelCost cost = computeModelCost(tail);
  PassManager pm(tail.getContext());
  host->buildPipeline(pm, PipelineOptions());
  if (failed(pm.run(tail)))
    return failure();
  return host->load(tail, cost);
}

FailureOr<std::unique_ptr<Executable>> compileArmTailOf(ModuleOp module) {
  OwningOpRef<ModuleOp> tail = extractArmTail(module);
  if (!tail)
    return std::unique_ptr<Executable>();
  return compileArmTail(*tail);
}

std::vector<uint8_t> imageBytes(const Program &program) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  writeImage(program, os);
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

class SnowflakeTarget : public Target {
public:
  StringRef getName() const override { return "snowflake"; }
  StringRef getDescription() const override {
    return "the Snowflake CNN accelerator (4 CUs x 4 vMACs x 16 MACs at 250 "
           "MHz, 4 load/store units, fp16 or Q8.8 operands): a binary image "
           "and "
           "its listing, "
           "run on dlc's cycle-approximate simulator";
  }
  // The weights of the layers the vMACs compute live in the data section.
  ArrayRef<int> getCompiledOperands(StringRef opType) const override {
    static const int convOperands[] = {1, 2}, matmulOperands[] = {1};
    if (opType == "Conv" || opType == "Gemm")
      return convOperands;
    if (opType == "MatMul")
      return matmulOperands;
    return {};
  }

  // 16-bit storage: see docs/Targets/Snowflake.md ("Tolerance").
  std::optional<std::string>
  getUnsupportedReason(Operation *op) const override {
    if (std::optional<std::string> type = findRejectedType(op, [](Type type) {
          auto tensor = dyn_cast<RankedTensorType>(type);
          return tensor && tensor.getElementType().isF32() &&
                 tensor.getRank() >= 1 && tensor.getRank() <= 4;
        }))
      return "a tensor of type " + *type +
             ": the accelerator computes on float32 tensors of rank 1 to 4";
    // The partitioning asks about constants only when the model returns
    // them; the accelerator writes only what its layers compute.
    if (isa<ConstantOp>(op))
      return std::string("a constant output of the model: the accelerator "
                         "writes only what its layers compute");
    if (!snowflake::hasLayerFor(op))
      return "'" + op->getName().getStringRef().str() +
             "' has no layer on the accelerator";
    return std::nullopt;
  }

  Tolerance getDefaultTolerance(HardwareAttr hardware) const override {
    OperandFormat format = SnowflakeHardware::get(hardware).getOperandFormat();
    if (!format.isFixedPoint())
      return {2e-2, 2e-2};
    // Every stored value is off by up to half a step; a layer's sum adds
    // those of its inputs, so allow 16 steps (1/16 in Q8.8).
    return {2e-2, std::ldexp(16.0, -static_cast<int>(format.fractionBits))};
  }

  HardwareAttr getDefaultHardware(MLIRContext *context) const override {
    return getSnowflakeDefaultHardware(context);
  }

  void buildPipeline(OpPassManager &pm,
                     const PipelineOptions &options) const override {
    addAttachHardware(pm, options);
    pm.addPass(createRecordEntrySignature());
    buildDLCCleanupPipeline(pm);
    LowerLayersOptions lower;
    lower.loopOrder = options.loopOrder;
    lower.balanceLoads = options.balanceLoads;
    pm.addPass(createLowerLayers(lower));
    pm.addNestedPass<ProgramOp>(createAllocateRegisters());
  }

  LogicalResult serialize(ModuleOp module, StringRef outputDir,
                          ArtifactManifest manifest,
                          const ModelCost &) const override {
    FailureOr<ProgramOp> program = getProgram(module);
    if (failed(program))
      return failure();
    FailureOr<EmittedProgram> emitted = emitProgram(*program);
    if (failed(emitted) ||
        failed(addRecords(module, *program, *emitted, manifest)))
      return failure();
    auto write = [&](StringRef name,
                     function_ref<llvm::Error(raw_ostream &)> fn) {
      return writeArtifact(module, outputDir, name, fn);
    };
    if (failed(write("program.bin",
                     [&](raw_ostream &os) {
                       writeImage(emitted->program, os);
                       return llvm::Error::success();
                     })) ||
        failed(write("program.s", [&](raw_ostream &os) {
          return disassemble(emitted->program, os, emitted->comments,
                             /*withData=*/false);
        })))
      return failure();
    if (OwningOpRef<ModuleOp> tail = extractArmTail(module))
      if (failed(write("arm_tail.mlir", [&](raw_ostream &os) {
            tail->print(os, OpPrintingFlags().enableDebugInfo());
            return llvm::Error::success();
          })))
        return failure();
    if (llvm::Error error = writeArtifactManifest(outputDir, manifest))
      return module.emitError() << llvm::toString(std::move(error));
    return success();
  }

  FailureOr<TargetReport> predictReport(ModuleOp module,
                                        const ModelCost &) const override {
    FailureOr<ProgramOp> program = getProgram(module);
    if (failed(program))
      return failure();
    SnowflakeHardware hw = SnowflakeHardware::get(module);
    TargetReport report;
    report.target = "snowflake";
    report.source = "predicted";
    report.hardware = hardwareToJSON(HardwareAttr::lookup(module));
    report.clockHz = hw.clockHz;
    report.peakMacsPerCycle = SnowflakeHardware::getMACsPerCycle();
    report.peakDramBytesPerSecond = hw.dramBytesPerSecond;
    for (Attribute attr : program->getLayers()) {
      auto layer = cast<LayerAttr>(attr);
      LayerFigures &figures = report.layers.emplace_back();
      figures.name = layer.getName().getValue();
      figures.op = layer.getOp().getValue();
      for (Attribute name : layer.getFused())
        figures.fused.push_back(cast<StringAttr>(name).getValue().str());
      figures.macs = layer.getMacs();
      figures.cycles = layer.getPredictedCycles();
      figures.dramReadBytes = layer.getDramReadBytes();
      figures.dramWriteBytes = layer.getDramWriteBytes();
      figures.extra["hardware_macs"] = layer.getHardwareMacs();
      figures.extra["loop_order"] = layer.getLoopOrder().getValue();
      figures.extra["schedule"] = layer.getSchedule().getValue();
    }
    return report;
  }

  FailureOr<std::unique_ptr<Executable>>
  load(ModuleOp module, const ModelCost &) const override {
    FailureOr<ProgramOp> program = getProgram(module);
    if (failed(program))
      return failure();
    FailureOr<EmittedProgram> emitted = emitProgram(*program);
    ArtifactManifest manifest;
    manifest.target = "snowflake";
    if (failed(emitted) ||
        failed(addRecords(module, *program, *emitted, manifest)))
      return failure();
    FailureOr<std::unique_ptr<Executable>> tail = compileArmTailOf(module);
    if (failed(tail))
      return failure();
    // The executor loads the same bytes `dlc compile` writes.
    return loadSnowflakeImage(module.getLoc(), imageBytes(emitted->program),
                              manifest, SnowflakeHardware::get(module),
                              std::move(*tail));
  }

  FailureOr<std::unique_ptr<Executable>>
  loadArtifacts(StringRef dir, const ArtifactManifest &manifest,
                MLIRContext *context) const override {
    Location loc = FileLineColLoc::get(context, dir, 0, 0);
    FailureOr<HardwareAttr> hardware = parseManifestHardware(manifest, loc);
    if (failed(hardware))
      return failure();
    SmallString<256> path(dir);
    llvm::sys::path::append(path, "program.bin");
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!file)
      return emitError(loc)
             << "cannot read " << path << ": " << file.getError().message();
    StringRef bytes = (*file)->getBuffer();
    std::unique_ptr<Executable> tail;
    if (auto name = manifest.extra.getString("arm_tail")) {
      SmallString<256> tailPath(dir);
      llvm::sys::path::append(tailPath, *name);
      context->loadDialect<func::FuncDialect>();
      OwningOpRef<ModuleOp> model =
          parseSourceFile<ModuleOp>(tailPath, context);
      if (!model)
        return failure();
      FailureOr<std::unique_ptr<Executable>> compiled = compileArmTail(*model);
      if (failed(compiled))
        return failure();
      tail = std::move(*compiled);
    }
    return loadSnowflakeImage(
        FileLineColLoc::get(context, path, 0, 0),
        ArrayRef(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()),
        manifest, SnowflakeHardware::get(*hardware), std::move(tail));
  }
};

} // namespace

namespace dlc {

void registerSnowflakeTargetDialects(DialectRegistry &registry) {
  registry.insert<SnowflakeDialect>();
}

void registerSnowflakeTarget() {
  registerTarget(std::make_unique<SnowflakeTarget>());
  registerDLCSnowflakePasses();
  registerSnowflakeEmissionTranslations();
  TranslateRegistration assembleTranslation(
      "snowflake-assemble", "Snowflake assembly text to a binary image",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &output,
         MLIRContext *) -> LogicalResult {
        Program program;
        if (failed(assemble(*sourceMgr, program)))
          return failure();
        writeImage(program, output);
        return success();
      });
  TranslateRegistration disassembleTranslation(
      "snowflake-disassemble", "A Snowflake binary image to assembly text",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &output,
         MLIRContext *context) -> LogicalResult {
        StringRef bytes =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())->getBuffer();
        llvm::Expected<Program> program = readImage(ArrayRef(
            reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
        llvm::Error error =
            program ? disassemble(*program, output) : program.takeError();
        if (error)
          return emitError(UnknownLoc::get(context))
                 << llvm::toString(std::move(error));
        return success();
      });
  TranslateRegistration referenceTranslation(
      "snowflake-isa-reference",
      "The Snowflake ISA reference (docs/Targets/SnowflakeISA.md); the input "
      "is ignored",
      [](const std::shared_ptr<llvm::SourceMgr> &, raw_ostream &output,
         MLIRContext *context) -> LogicalResult {
        if (llvm::Error error = printISAReference(output))
          return emitError(UnknownLoc::get(context))
                 << llvm::toString(std::move(error));
        return success();
      });
}

} // namespace dlc
