//===- InferentiaTarget.cpp - a NeuronCore-like accelerator ---------------===//
//
// The target: its hardware description (the machine's parameters as the
// `target` dictionary of #dlc.hardware, the partitions as the shared
// passes' banks), its pipeline (the shared affine passes: data-movement
// elimination and bank layout, then dlc-inferentia-lower), the artifacts
// (trace.jsonl, its listing trace.lst, weights.bin, the manifest), the
// compiler's predicted report and the simulator as executor; and the
// emitters as dlc-translate translations.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Inferentia/IR/InferentiaOps.h"
#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Support/WriteFile.h"
#include "dlc/Target/Inferentia/InferentiaEmission.h"
#include "dlc/Target/Inferentia/InferentiaExecutor.h"
#include "dlc/Target/Inferentia/Machine.h"
#include "dlc/Target/Inferentia/Passes.h"
#include "dlc/Target/Inferentia/Trace.h"
#include "dlc/Target/Target.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;

namespace {

constexpr StringLiteral kTraceFileName = "trace.jsonl";
constexpr StringLiteral kListingFileName = "trace.lst";

HardwareAttr getHardware(MLIRContext *context, const Machine &machine) {
  context->loadDialect<DLCDialect>();
  // The shared passes see the state buffer: its partitions are their banks.
  // The machine itself is the target dictionary (Machine.h).
  return HardwareAttr::get(
      context,
      /*localMemoryBytes=*/machine.partitions * machine.sbufPartitionBytes,
      /*localMemorySpace=*/1, /*banks=*/machine.partitions,
      /*doubleBuffering=*/false, /*dmaBlockOverheadBytes=*/0,
      /*processingUnits=*/1, /*broadcastReads=*/false,
      /*stridedReadCopies=*/false, getTargetDictionary(context, machine));
}

/// An override's value as dlc-attach-hardware reads it back: integers
/// beyond 32 bits only with a K or M suffix.
std::string formatParameter(int64_t value) {
  if (value > INT32_MAX && value % (int64_t(1) << 20) == 0)
    return std::to_string(value >> 20) + "M";
  if (value > INT32_MAX && value % 1024 == 0)
    return std::to_string(value >> 10) + "K";
  return std::to_string(value);
}
std::string formatParameter(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
  return text;
}

/// The overrides dlc-attach-hardware applies for the user's `--hw`
/// `overrides`: `preset=NAME` stands for every parameter of that machine
/// (Machine::getPreset; later entries still override it), and the shared
/// fields the machine decides (banks, local_memory_bytes) follow its
/// partitions unless the user sets them. A preset that names no machine
/// goes to `unknownPreset`.
std::string expandOverrides(StringRef overrides, std::string &unknownPreset) {
  SmallVector<StringRef> entries;
  overrides.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string expanded;
  auto add = [&](const Twine &entry) {
    if (!expanded.empty())
      expanded += ",";
    expanded += entry.str();
  };
  bool setsBanks = false, setsLocalMemory = false;
  for (StringRef entry : entries) {
    StringRef name = entry.split('=').first.trim();
    StringRef value = entry.split('=').second.trim();
    std::optional<Machine> preset;
    if (name == "preset") {
      preset = Machine::getPreset(value);
      if (!preset) {
        unknownPreset = value.str();
        continue;
      }
    }
    if (!preset) {
      setsBanks |= name == "banks";
      setsLocalMemory |= name == "local_memory_bytes";
      add(entry.trim());
      continue;
    }
#define INFERENTIA_PRESET(member, type, parameter, value)                      \
  add(Twine(parameter) + "=" + formatParameter(preset->member));
    INFERENTIA_PARAMETERS(INFERENTIA_PRESET)
#undef INFERENTIA_PRESET
  }
  if (setsBanks && setsLocalMemory)
    return expanded;
  // The machine the overrides describe; errors are dlc-attach-hardware's to
  // report.
  MLIRContext context;
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  HardwareAttr defaults = getHardware(&context, Machine());
  FailureOr<HardwareAttr> hardware = HardwareAttr::applyOverrides(
      defaults, expanded, [&] { return emitError(UnknownLoc::get(&context)); });
  if (failed(hardware))
    return expanded;
  HardwareAttr derived = getHardware(&context, getMachine(*hardware));
  if (!setsBanks && derived.getBanks() != hardware->getBanks())
    add("banks=" + formatParameter(derived.getBanks()));
  if (!setsLocalMemory &&
      derived.getLocalMemoryBytes() != hardware->getLocalMemoryBytes())
    add("local_memory_bytes=" + formatParameter(derived.getLocalMemoryBytes()));
  return expanded;
}

/// Reports a `--hw preset=NAME` that names no machine when the pipeline
/// runs, as dlc-attach-hardware reports the other overrides' errors
/// (building a pipeline cannot fail with a diagnostic).
class UnknownPresetPass
    : public PassWrapper<UnknownPresetPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UnknownPresetPass)
  explicit UnknownPresetPass(std::string name) : name(std::move(name)) {}
  StringRef getArgument() const override {
    return "dlc-inferentia-unknown-preset";
  }
  StringRef getDescription() const override {
    return "Reports a hardware preset that names no machine";
  }
  void runOnOperation() override {
    getOperation().emitError()
        << "hardware override 'preset=" << name
        << "': no such machine (presets: "
        << llvm::join(Machine::getPresetNames(), ", ") << ")";
    signalPassFailure();
  }

private:
  std::string name;
};

/// Every input, weight and output moved once: the bytes of the program's
/// DRAM tensors but its scratch.
int64_t getCompulsoryDramBytes(ProgramOp program) {
  int64_t bytes = 0;
  for (auto tensor : program.getBody().front().getOps<DramTensorOp>())
    if (tensor.getRole() != "scratch")
      bytes += tensor.getBuffer().getType().getPartitionBytes();
  return bytes;
}

/// The manifest's records: the signature, the hardware, the files and the
/// compulsory traffic (the trace's header has the weights' extent only).
LogicalResult addRecords(ModuleOp module, ProgramOp program,
                         ArtifactManifest &manifest) {
  FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
  if (failed(signature))
    return failure();
  manifest.signature = *signature;
  HardwareAttr hardware = HardwareAttr::lookup(module);
  manifest.hardware.clear();
  llvm::raw_string_ostream os(manifest.hardware);
  Attribute(hardware).print(os);
  manifest.extra["hardware"] = hardwareToJSON(hardware);
  manifest.extra["trace"] = kTraceFileName;
  manifest.extra["listing"] = kListingFileName;
  manifest.extra["weights"] = kWeightsFileName;
  manifest.extra["compulsory_dram_bytes"] = getCompulsoryDramBytes(program);
  return success();
}

/// The trace as `dlc compile` writes it, read back: what `dlc run` of a
/// compiled directory would load.
FailureOr<Trace> roundTrip(ProgramOp program, const Trace &trace) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeTrace(trace, os);
  llvm::Expected<Trace> read = readTrace(text);
  if (!read)
    return program.emitOpError("emits a trace it cannot read back: ")
           << llvm::toString(read.takeError());
  return std::move(*read);
}

class InferentiaTarget : public Target {
public:
  StringRef getName() const override { return "inferentia"; }
  StringRef getDescription() const override {
    return "a NeuronCore-like accelerator (128-partition state buffer, PSUM, "
           "tensor/vector/scalar engines, 16 DMA queues): an instruction "
           "trace and its listing, run on dlc's simulator (no hardware)";
  }

  // fp32 throughout, like the host, unless the tensor engine multiplies
  // bf16 operands (8 significant bits): then a 16-bit format's tolerance.
  std::optional<std::string>
  getUnsupportedReason(Operation *op) const override {
    if (std::optional<std::string> type = findRejectedType(op, [](Type type) {
          auto tensor = dyn_cast<RankedTensorType>(type);
          return tensor && tensor.getElementType().isF32();
        }))
      return "a tensor of type " + *type +
             ": the engines compute on float32 tensors only";
    return std::nullopt;
  }

  Tolerance getDefaultTolerance(HardwareAttr hardware) const override {
    if (getMachine(hardware).bf16Matmul)
      return {2e-2, 2e-2};
    return {1e-3, 1e-5};
  }

  HardwareAttr getDefaultHardware(MLIRContext *context) const override {
    return getHardware(context, Machine());
  }

  void addHardwarePasses(OpPassManager &pm,
                         const PipelineOptions &options) const override {
    PipelineOptions attach;
    std::string unknownPreset;
    attach.hardware = expandOverrides(options.hardware, unknownPreset);
    if (!unknownPreset.empty())
      pm.addPass(std::make_unique<UnknownPresetPass>(unknownPreset));
    addAttachHardware(pm, attach);
  }

  void buildPipeline(OpPassManager &pm,
                     const PipelineOptions &options) const override {
    addHardwarePasses(pm, options);
    pm.addPass(createRecordEntrySignature());
    buildDLCToAffinePipeline(pm);
    if (options.eliminateCopies)
      pm.addNestedPass<func::FuncOp>(createDataMovementElimination());
    AssignBankLayoutOptions banks;
    banks.mode = options.layoutMode;
    pm.addNestedPass<func::FuncOp>(createAssignBankLayout(banks));
    pm.addPass(createLowerToInferentia());
  }

  LogicalResult serialize(ModuleOp module, StringRef outputDir,
                          ArtifactManifest manifest,
                          const ModelCost &) const override {
    FailureOr<ProgramOp> program = getProgram(module);
    if (failed(program))
      return failure();
    FailureOr<EmittedTrace> emitted = emitTrace(*program);
    if (failed(emitted) || failed(addRecords(module, *program, manifest)))
      return failure();
    auto write = [&](StringRef name,
                     function_ref<llvm::Error(raw_ostream &)> fn) {
      return writeArtifact(module, outputDir, name, fn);
    };
    if (failed(write(kTraceFileName,
                     [&](raw_ostream &os) {
                       writeTrace(emitted->trace, os);
                       return llvm::Error::success();
                     })) ||
        failed(write(kListingFileName,
                     [&](raw_ostream &os) {
                       writeListing(emitted->trace, emitted->nodes, os);
                       return llvm::Error::success();
                     })) ||
        failed(write(kWeightsFileName, [&](raw_ostream &os) {
          os.write(reinterpret_cast<const char *>(emitted->weights.data()),
                   emitted->weights.size());
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
    Machine machine = getMachine(*program);
    TargetReport report;
    report.target = "inferentia";
    report.source = "predicted";
    report.hardware = hardwareToJSON(HardwareAttr::lookup(module));
    report.clockHz = machine.tensorClockHz;
    report.peakMacsPerCycle =
        static_cast<double>(machine.getPeakMacsPerCycle());
    report.compulsoryDramBytes = getCompulsoryDramBytes(*program);
    report.peakDramBytesPerSecond =
        std::min(machine.getDramBytesPerSecondPerCore(),
                 static_cast<double>(machine.dmaQueues) *
                     machine.dmaQueueBytesPerSecond);
    ArrayAttr layers = program->getLayers();
    // What the instruction stream says without running it: the copies and
    // instructions of each layer (the trace has no loops).
    std::vector<CopyFigures> layerCopies(layers.size());
    std::vector<int64_t> layerInstructions(layers.size(), 0);
    CopyFigures copies;
    int64_t instructions = 0;
    for (Operation &op : program->getBody().front()) {
      if (isa<DramTensorOp, AllocOp>(op))
        continue;
      FailureOr<Instruction> inst =
          toInstruction(&op, [](Operation *) -> int64_t { return 0; });
      if (failed(inst))
        return failure();
      ++instructions;
      copies.add(*inst);
      if (inst->layer >= 0 &&
          inst->layer < static_cast<int64_t>(layers.size())) {
        ++layerInstructions[inst->layer];
        layerCopies[inst->layer].add(*inst);
      }
    }
    for (auto [index, attr] : llvm::enumerate(layers)) {
      auto layer = cast<LayerAttr>(attr);
      LayerFigures &figures = report.layers.emplace_back();
      figures.name = layer.getName().str();
      figures.op = layer.getOp().str();
      for (Attribute name : layer.getFused())
        if (auto fused = dyn_cast<StringAttr>(name))
          figures.fused.push_back(fused.str());
      figures.macs = layer.getMacs();
      figures.cycles = static_cast<double>(layer.getPredictedCycles());
      figures.dramReadBytes = layer.getDramReadBytes();
      figures.dramWriteBytes = layer.getDramWriteBytes();
      figures.extra["instructions"] = layerInstructions[index];
      layerCopies[index].addTo(figures.extra);
    }
    llvm::json::Object &summary = report.summaryExtra;
    summary["instructions"] = instructions;
    copies.addTo(summary);
    summary["load_store_pairs_removed"] =
        program->getLoadStorePairsRemovedAttr().getInt();
    summary["load_store_pairs_total"] =
        program->getLoadStorePairsTotalAttr().getInt();
    summary["intermediate_bytes_removed"] =
        program->getIntermediateBytesRemovedAttr().getInt();
    summary["intermediate_bytes_total"] =
        program->getIntermediateBytesTotalAttr().getInt();
    summary["layout_mode"] = program->getLayoutMode();
    return report;
  }

  FailureOr<std::unique_ptr<Executable>>
  load(ModuleOp module, const ModelCost &) const override {
    FailureOr<ProgramOp> program = getProgram(module);
    if (failed(program))
      return failure();
    FailureOr<EmittedTrace> emitted = emitTrace(*program);
    ArtifactManifest manifest;
    manifest.target = "inferentia";
    if (failed(emitted) || failed(addRecords(module, *program, manifest)))
      return failure();
    // The executor loads the same text `dlc compile` writes.
    FailureOr<Trace> trace = roundTrip(*program, emitted->trace);
    if (failed(trace))
      return failure();
    return loadInferentiaTrace(module.getLoc(), std::move(*trace),
                               std::move(emitted->weights), manifest);
  }

  FailureOr<std::unique_ptr<Executable>>
  loadArtifacts(StringRef dir, const ArtifactManifest &manifest,
                MLIRContext *context) const override {
    Location loc = FileLineColLoc::get(context, dir, 0, 0);
    if (failed(parseManifestHardware(manifest, loc)))
      return failure();
    SmallString<256> tracePath(dir);
    llvm::sys::path::append(
        tracePath, manifest.extra.getString("trace").value_or(kTraceFileName));
    Location traceLoc = FileLineColLoc::get(context, tracePath, 0, 0);
    auto traceFile = llvm::MemoryBuffer::getFile(tracePath, /*IsText=*/true);
    if (!traceFile)
      return emitError(traceLoc) << "cannot read " << tracePath << ": "
                                 << traceFile.getError().message();
    llvm::Expected<Trace> trace = readTrace((*traceFile)->getBuffer());
    // The reader's errors start with the line they are on.
    if (!trace)
      return emitError(traceLoc) << llvm::toString(trace.takeError());
    // The header names its weights file, next to the trace.
    std::vector<uint8_t> weights;
    SmallString<256> weightsPath(dir);
    llvm::sys::path::append(weightsPath, trace->header.weightsFile);
    if (trace->header.weightsBytes > 0 || !trace->header.weightsFile.empty()) {
      auto file = llvm::MemoryBuffer::getFile(weightsPath, /*IsText=*/false);
      if (!file)
        return emitError(traceLoc) << "cannot read " << weightsPath << ": "
                                   << file.getError().message();
      StringRef bytes = (*file)->getBuffer();
      weights.assign(bytes.begin(), bytes.end());
    }
    return loadInferentiaTrace(traceLoc, std::move(*trace), std::move(weights),
                               manifest);
  }
};

} // namespace

namespace dlc {

void registerInferentiaTargetDialects(DialectRegistry &registry) {
  registry.insert<InferentiaDialect>();
}

void registerInferentiaTarget() {
  registerTarget(std::make_unique<InferentiaTarget>());
  registerDLCInferentiaPasses();
  registerInferentiaEmissionTranslations();
}

} // namespace dlc
