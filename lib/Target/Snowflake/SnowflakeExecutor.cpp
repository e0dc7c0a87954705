//===- SnowflakeExecutor.cpp - the simulator as the target's executor -----===//
//
// Runs the binary image on lib/Simulator/Snowflake: the inputs go into DRAM
// in the machine's operand format (fp16 or fixed point) through the
// placement the compiler recorded, the outputs come
// back the same way, and every figure of the report is what the simulator
// counted in the program counters of each layer.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Snowflake/SnowflakeExecutor.h"

#include "dlc/Simulator/Snowflake/Simulator.h"
#include "dlc/Target/Snowflake/ISA.h"
#include "dlc/Target/Snowflake/NumberFormat.h"
#include "dlc/Target/Snowflake/Program.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

namespace {

/// A tensor's placement, as the manifest records it.
struct Placement {
  std::string name;
  int64_t address = 0;
  std::vector<int64_t> shape, strides;

  int64_t getNumElements() const { return ShapedType::getNumElements(shape); }
  /// The DRAM element of row-major element `index`.
  int64_t getAddress(int64_t index) const {
    int64_t at = address;
    for (size_t d = shape.size(); d-- > 0;) {
      at += (index % shape[d]) * strides[d];
      index /= shape[d];
    }
    return at;
  }
};

llvm::Expected<std::vector<Placement>>
readPlacements(const llvm::json::Object &extra, StringRef key) {
  std::vector<Placement> placements;
  const llvm::json::Array *array = extra.getArray(key);
  if (!array)
    return llvm::createStringError("the manifest has no '%s'",
                                   key.str().c_str());
  for (const llvm::json::Value &value : *array) {
    const llvm::json::Object *object = value.getAsObject();
    const llvm::json::Array *shape =
        object ? object->getArray("shape") : nullptr;
    const llvm::json::Array *strides =
        object ? object->getArray("strides") : nullptr;
    auto address = object ? object->getInteger("address") : std::nullopt;
    if (!shape || !strides || !address || shape->size() != strides->size())
      return llvm::createStringError(
          "the manifest's '%s' needs name, address, shape and strides",
          key.str().c_str());
    Placement &p = placements.emplace_back();
    p.name = object->getString("name").value_or("").str();
    p.address = *address;
    for (const llvm::json::Value &d : *shape)
      p.shape.push_back(d.getAsInteger().value_or(0));
    for (const llvm::json::Value &s : *strides)
      p.strides.push_back(s.getAsInteger().value_or(0));
  }
  return placements;
}

MachineConfig toMachineConfig(const SnowflakeHardware &hw) {
  MachineConfig config;
  config.clockHz = hw.clockHz;
  config.mapsBufferElements = hw.mapsBufferElements;
  config.weightsBufferElements = hw.weightsBufferElements;
  config.portBytesPerCycle = hw.portBytesPerCycle;
  config.dramBytesPerSecond = hw.dramBytesPerSecond;
  config.dramLatencyCycles = hw.dramLatencyCycles;
  config.branchPenaltyCycles = hw.branchPenaltyCycles;
  config.unitQueueDepth = hw.unitQueueDepth;
  config.dramElements = hw.dramElements;
  config.operands = hw.getOperandFormat();
  return config;
}

class SnowflakeExecutable : public Executable {
public:
  SnowflakeExecutable(Program program, const ArtifactManifest &manifest,
                      const SnowflakeHardware &hardware,
                      std::unique_ptr<Executable> armTail)
      : program(std::move(program)), manifest(manifest), hardware(hardware),
        armTail(std::move(armTail)) {}

  llvm::Error init() {
    auto inputs = readPlacements(manifest.extra, "inputs");
    if (!inputs)
      return inputs.takeError();
    auto outputs = readPlacements(manifest.extra, "outputs");
    if (!outputs)
      return outputs.takeError();
    this->inputs = std::move(*inputs);
    this->outputs = std::move(*outputs);
    // The program's outputs are the model's, or what the ARM starts from.
    const std::vector<TensorSpec> &outputSpecs =
        armTail ? armTail->getSignature().inputs : manifest.signature.outputs;
    if (this->inputs.size() != manifest.signature.inputs.size() ||
        this->outputs.size() != outputSpecs.size())
      return llvm::createStringError(
          "the manifest places %zu inputs and %zu outputs for a signature of "
          "%zu and %zu",
          this->inputs.size(), this->outputs.size(),
          manifest.signature.inputs.size(), outputSpecs.size());
    for (auto [placed, spec] :
         llvm::zip(this->inputs, manifest.signature.inputs))
      if (placed.getNumElements() != ShapedType::getNumElements(spec.shape))
        return llvm::createStringError(
            "input '%s' is placed with %lld "
            "elements for %lld",
            spec.name.c_str(), (long long)placed.getNumElements(),
            (long long)ShapedType::getNumElements(spec.shape));
    for (auto [placed, spec] : llvm::zip(this->outputs, outputSpecs))
      if (placed.getNumElements() != ShapedType::getNumElements(spec.shape))
        return llvm::createStringError(
            "output '%s' is placed with %lld "
            "elements for %lld",
            spec.name.c_str(), (long long)placed.getNumElements(),
            (long long)ShapedType::getNumElements(spec.shape));
    // Each layer's program counters.
    layerOfPc.assign(program.text.size(), 0);
    const llvm::json::Array *layers = manifest.extra.getArray("layers");
    if (!layers)
      return llvm::createStringError("the manifest has no 'layers'");
    numLayers = layers->size();
    std::fill(layerOfPc.begin(), layerOfPc.end(), numLayers);
    for (auto [index, value] : llvm::enumerate(*layers)) {
      const llvm::json::Object *layer = value.getAsObject();
      auto first = layer ? layer->getInteger("first_pc") : std::nullopt;
      auto end = layer ? layer->getInteger("end_pc") : std::nullopt;
      if (!first || !end || *first < 0 || *end < *first ||
          *end > static_cast<int64_t>(program.text.size()))
        return llvm::createStringError(
            "layer %zu of the manifest has no program counters inside the "
            "%zu instructions",
            index, program.text.size());
      for (int64_t pc = *first; pc < *end; ++pc)
        layerOfPc[pc] = index;
    }
    return llvm::Error::success();
  }

  const EntrySignature &getSignature() const override {
    return manifest.signature;
  }

  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> args) override {
    const EntrySignature &signature = manifest.signature;
    if (llvm::Error error = signature.checkInputs(args))
      return std::move(error);
    simulator = std::make_unique<Simulator>(toMachineConfig(hardware));
    if (llvm::Error error = simulator->load(program))
      return std::move(error);
    simulator->setRegions(layerOfPc, numLayers + 1);
    llvm::MutableArrayRef<uint16_t> dram = simulator->getDram();
    OperandFormat format = hardware.getOperandFormat();
    for (auto [input, placed] : llvm::zip(args, inputs))
      for (int64_t i = 0, e = input.getNumElements(); i < e; ++i) {
        int64_t at = placed.getAddress(i);
        if (at < 0 || at >= static_cast<int64_t>(dram.size()))
          return llvm::createStringError("input '%s' is placed outside DRAM",
                                         placed.name.c_str());
        dram[at] = format.encode(static_cast<float>(input.getAsDouble(i)));
      }
    if (llvm::Error error = simulator->run())
      return llvm::createStringError("the Snowflake simulator stopped: %s",
                                     llvm::toString(std::move(error)).c_str());
    std::vector<Tensor> results;
    const std::vector<TensorSpec> &outputSpecs =
        armTail ? armTail->getSignature().inputs : signature.outputs;
    for (auto [spec, placed] : llvm::zip(outputSpecs, outputs)) {
      Tensor &tensor = results.emplace_back(spec.kind, spec.shape);
      for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
        int64_t at = placed.getAddress(i);
        if (at < 0 || at >= static_cast<int64_t>(dram.size()))
          return llvm::createStringError("output '%s' is placed outside DRAM",
                                         placed.name.c_str());
        tensor.setFromDouble(i, format.decode(dram[at]));
      }
    }
    if (armTail)
      return armTail->run(results);
    return results;
  }

  llvm::Expected<TargetReport> getReport() const override {
    if (!simulator)
      return llvm::createStringError("the model has not run yet");
    TargetReport report;
    report.target = "snowflake";
    report.model = manifest.model;
    report.source = "simulated";
    report.clockHz = hardware.clockHz;
    report.peakMacsPerCycle = SnowflakeHardware::getMACsPerCycle();
    report.peakDramBytesPerSecond = hardware.dramBytesPerSecond;
    if (auto compulsory = manifest.extra.getInteger("compulsory_dram_bytes"))
      report.compulsoryDramBytes = *compulsory;
    if (const llvm::json::Object *hw = manifest.extra.getObject("hardware"))
      report.hardware = *hw;
    ArrayRef<SimulationStats> regions = simulator->getRegions();
    const llvm::json::Array *layers = manifest.extra.getArray("layers");
    for (auto [index, value] : llvm::enumerate(*layers)) {
      const llvm::json::Object *layer = value.getAsObject();
      LayerFigures &figures = report.layers.emplace_back();
      figures.name = layer->getString("name").value_or("").str();
      figures.op = layer->getString("op").value_or("").str();
      if (const llvm::json::Array *fused = layer->getArray("fused"))
        for (const llvm::json::Value &name : *fused)
          figures.fused.push_back(name.getAsString().value_or("").str());
      figures.macs = layer->getInteger("macs").value_or(0);
      const SimulationStats &stats = regions[index];
      figures.cycles = stats.cycles;
      figures.dramReadBytes = stats.dramReadBytes;
      figures.dramWriteBytes = stats.dramWriteBytes;
      addCounters(stats, figures.extra);
      if (auto order = layer->getString("loop_order"))
        figures.extra["loop_order"] = order->str();
      if (auto schedule = layer->getString("schedule"))
        figures.extra["schedule"] = schedule->str();
    }
    // The ARM's layers are not timed (docs/Targets/Snowflake.md).
    if (const llvm::json::Array *arm = manifest.extra.getArray("arm_layers"))
      for (const llvm::json::Value &value : *arm) {
        const llvm::json::Object *layer = value.getAsObject();
        LayerFigures &figures = report.layers.emplace_back();
        figures.name = layer->getString("name").value_or("").str();
        figures.op = layer->getString("op").value_or("").str();
        figures.extra["unit"] = "arm";
        figures.extra["timed"] = false;
      }
    // What runs outside every layer (the final halt's wait) is part of the
    // total.
    report.measuredCycles = simulator->getTotal().cycles;
    addCounters(simulator->getTotal(), report.summaryExtra);
    return report;
  }

private:
  static void addCounters(const SimulationStats &stats,
                          llvm::json::Object &out) {
    out["hardware_macs"] = static_cast<int64_t>(stats.macs);
    out["instructions"] = static_cast<int64_t>(stats.instructions);
    out["sync_stall_cycles"] = stats.syncStallCycles;
    out["queue_stall_cycles"] = stats.queueStallCycles;
    out["branch_penalty_cycles"] = stats.branchPenaltyCycles;
    llvm::json::Array lsuBytes, lsuBusy, macBusy, maxBusy;
    for (unsigned u = 0; u < kLoadStoreUnits; ++u) {
      lsuBytes.push_back(static_cast<int64_t>(stats.lsuBytes[u]));
      lsuBusy.push_back(stats.unitBusyCycles[u]);
    }
    for (unsigned c = 0; c < kComputeUnits; ++c) {
      macBusy.push_back(stats.unitBusyCycles[kLoadStoreUnits + c]);
      maxBusy.push_back(
          stats.unitBusyCycles[kLoadStoreUnits + kComputeUnits + c]);
    }
    out["lsu_bytes"] = std::move(lsuBytes);
    out["lsu_busy_cycles"] = std::move(lsuBusy);
    out["mac_busy_cycles"] = std::move(macBusy);
    out["max_busy_cycles"] = std::move(maxBusy);
  }

  Program program;
  ArtifactManifest manifest;
  SnowflakeHardware hardware;
  std::vector<Placement> inputs, outputs;
  std::vector<uint32_t> layerOfPc;
  unsigned numLayers = 0;
  std::unique_ptr<Simulator> simulator;
  std::unique_ptr<Executable> armTail;
};

} // namespace

FailureOr<std::unique_ptr<Executable>> dlc::snowflake::loadSnowflakeImage(
    Location loc, ArrayRef<uint8_t> image, const ArtifactManifest &manifest,
    const SnowflakeHardware &hardware, std::unique_ptr<Executable> armTail) {
  llvm::Expected<Program> program = readImage(image);
  if (!program)
    return emitError(loc) << llvm::toString(program.takeError());
  auto executable = std::make_unique<SnowflakeExecutable>(
      std::move(*program), manifest, hardware, std::move(armTail));
  if (llvm::Error error = executable->init())
    return emitError(loc) << llvm::toString(std::move(error));
  return std::unique_ptr<Executable>(std::move(executable));
}
