//===- InferentiaExecutor.cpp - the simulator as the target's executor ----===//
//
// Runs a trace on lib/Simulator/Inferentia: the inputs go into DRAM where
// the trace's header places them (in their element type, f32 or bf16), the
// weights file where the header says, and the outputs come back the same
// way. Every figure of the report is what the simulator counted; layers
// overlap in time (the engines and queues run in parallel), so a layer's
// cycles are its span and the model's are the whole run's.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Inferentia/InferentiaExecutor.h"

#include "dlc/Simulator/Inferentia/Simulator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

void CopyFigures::add(const Instruction &instruction) {
  bool dram = instruction.dst.memory == Memory::Dram ||
              llvm::any_of(instruction.srcs, [](const AccessPattern &ap) {
                return ap.memory == Memory::Dram;
              });
  CopyCount *counts = nullptr;
  if (instruction.opcode == Opcode::DmaCopy)
    counts = dram ? offchip : onchip;
  else if ((instruction.opcode == Opcode::TensorCopy ||
            instruction.opcode == Opcode::Transpose) &&
           instruction.cause != Cause::None)
    counts = onchip;
  if (!counts)
    return;
  CopyCount &count = counts[static_cast<int>(instruction.cause)];
  ++count.count;
  count.bytes += instruction.dst.partitions *
                 instruction.dst.getFreeElements() *
                 instruction.dst.getElementBytes();
}

void CopyFigures::addTo(llvm::json::Object &object) const {
  auto add = [&](StringRef kind, const CopyCount *counts) {
    int64_t count = 0, bytes = 0;
    llvm::json::Object countByCause, bytesByCause;
    for (int cause = 0; cause < 5; ++cause) {
      StringRef name = getName(static_cast<Cause>(cause));
      count += counts[cause].count;
      bytes += counts[cause].bytes;
      countByCause[name] = counts[cause].count;
      bytesByCause[name] = counts[cause].bytes;
    }
    object[(kind + "_copies").str()] = count;
    object[(kind + "_copy_bytes").str()] = bytes;
    object[(kind + "_copies_by_cause").str()] = std::move(countByCause);
    object[(kind + "_copy_bytes_by_cause").str()] = std::move(bytesByCause);
  };
  add("onchip", onchip);
  add("offchip", offchip);
}

//===----------------------------------------------------------------------===//
// The executable
//===----------------------------------------------------------------------===//

namespace {

int64_t getNumElements(const TraceTensor &tensor) {
  int64_t n = 1;
  for (int64_t d : tensor.shape)
    n *= d;
  return n;
}

int64_t getBytes(const TraceTensor &tensor) {
  return getNumElements(tensor) * (tensor.type == DataType::F32 ? 4 : 2);
}

/// For every spec, the index of its tensor among `tensors`: the one of the
/// same name, else (when no name matches and the counts agree) the one in
/// the same position.
llvm::Expected<std::vector<size_t>> bindTensors(StringRef what,
                                                ArrayRef<TensorSpec> specs,
                                                ArrayRef<TraceTensor> tensors) {
  std::vector<size_t> bound;
  for (auto [index, spec] : llvm::enumerate(specs)) {
    auto named = llvm::find_if(tensors, [&](const TraceTensor &tensor) {
      return tensor.name == spec.name;
    });
    size_t at = named - tensors.begin();
    if (named == tensors.end()) {
      if (tensors.size() != specs.size())
        return llvm::createStringError(
            llvm::formatv(
                "the model's {0} '{1}' is not among the trace's {2} {0}s", what,
                spec.name, tensors.size())
                .str());
      at = index;
    }
    const TraceTensor &tensor = tensors[at];
    if (getNumElements(tensor) != ShapedType::getNumElements(spec.shape))
      return llvm::createStringError(
          llvm::formatv("the model's {0} '{1}' ({2}) is the trace's '{3}' with "
                        "{4} elements",
                        what, spec.name, spec.getTypeString(), tensor.name,
                        getNumElements(tensor))
              .str());
    bound.push_back(at);
  }
  return bound;
}

class InferentiaExecutable : public Executable {
public:
  InferentiaExecutable(Trace trace, std::vector<uint8_t> weights,
                       const ArtifactManifest &manifest)
      : trace(std::move(trace)), weights(std::move(weights)),
        manifest(manifest) {}

  llvm::Error init() {
    const TraceHeader &header = trace.header;
    if (static_cast<int64_t>(weights.size()) != header.weightsBytes)
      return llvm::createStringError(
          llvm::formatv("the weights file '{0}' has {1} bytes; the trace's "
                        "header says {2}",
                        header.weightsFile, weights.size(), header.weightsBytes)
              .str());
    auto inputs =
        bindTensors("input", manifest.signature.inputs, header.inputs);
    if (!inputs)
      return inputs.takeError();
    auto outputs =
        bindTensors("output", manifest.signature.outputs, header.outputs);
    if (!outputs)
      return outputs.takeError();
    inputOf = std::move(*inputs);
    outputOf = std::move(*outputs);
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
    simulator.reset();
    auto sim = std::make_unique<Simulator>(trace);
    if (llvm::Error error = sim->loadWeights(weights))
      return std::move(error);
    for (auto [input, at] : llvm::zip_equal(args, inputOf)) {
      std::vector<float> values(input.getNumElements());
      for (size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(input.getAsDouble(i));
      if (llvm::Error error = sim->writeTensor(trace.header.inputs[at], values))
        return std::move(error);
    }
    if (llvm::Error error = sim->run())
      return llvm::createStringError("the inferentia simulator stopped: %s",
                                     llvm::toString(std::move(error)).c_str());
    std::vector<Tensor> results;
    for (auto [spec, at] : llvm::zip_equal(signature.outputs, outputOf)) {
      llvm::Expected<std::vector<float>> values =
          sim->readTensor(trace.header.outputs[at]);
      if (!values)
        return values.takeError();
      Tensor &tensor = results.emplace_back(spec.kind, spec.shape);
      for (size_t i = 0; i < values->size(); ++i)
        tensor.setFromDouble(i, (*values)[i]);
    }
    simulator = std::move(sim);
    return results;
  }

  llvm::Expected<TargetReport> getReport() const override {
    if (!simulator)
      return llvm::createStringError("the model has not run yet");
    const TraceHeader &header = trace.header;
    const Machine &machine = header.machine;
    TargetReport report;
    report.target = "inferentia";
    report.model = manifest.model;
    report.source = "simulated";
    if (const llvm::json::Object *hardware =
            manifest.extra.getObject("hardware"))
      report.hardware = *hardware;
    else
      report.hardware = machine.toJSON();
    report.clockHz = machine.tensorClockHz;
    report.peakMacsPerCycle =
        static_cast<double>(machine.getPeakMacsPerCycle());
    report.peakDramBytesPerSecond =
        std::min(machine.getDramBytesPerSecondPerCore(),
                 static_cast<double>(machine.dmaQueues) *
                     machine.dmaQueueBytesPerSecond);
    // The compiler's count; the header knows the weights' extent only.
    if (auto compulsory = manifest.extra.getInteger("compulsory_dram_bytes")) {
      report.compulsoryDramBytes = *compulsory;
    } else {
      report.compulsoryDramBytes = header.weightsBytes;
      for (const TraceTensor &tensor : header.inputs)
        report.compulsoryDramBytes += getBytes(tensor);
      for (const TraceTensor &tensor : header.outputs)
        report.compulsoryDramBytes += getBytes(tensor);
    }

    ArrayRef<SimulationStats> layers = simulator->getLayers();
    for (auto [layer, stats] : llvm::zip(header.layers, layers)) {
      LayerFigures &figures = report.layers.emplace_back();
      figures.name = layer.name;
      figures.op = layer.op;
      figures.fused = layer.fused;
      figures.macs = layer.macs;
      figures.cycles = stats.getSeconds() * machine.tensorClockHz;
      figures.dramReadBytes = static_cast<int64_t>(stats.dramReadBytes);
      figures.dramWriteBytes = static_cast<int64_t>(stats.dramWriteBytes);
      addCounters(stats, stats.getSeconds(), figures.extra);
      figures.extra["start_seconds"] = stats.startSeconds;
      figures.extra["end_seconds"] = stats.endSeconds;
    }
    // The layers overlap: the model takes as long as the whole run, which
    // also covers instructions of no layer.
    double latency = simulator->getLatencySeconds();
    report.measuredCycles = latency * machine.tensorClockHz;
    llvm::json::Object &summary = report.summaryExtra;
    addCounters(simulator->getTotal(), latency, summary);
    summary["latency_seconds"] = latency;
    summary["load_store_pairs_removed"] = header.loadStorePairsRemoved;
    summary["load_store_pairs_total"] = header.loadStorePairsTotal;
    summary["intermediate_bytes_removed"] = header.intermediateBytesRemoved;
    summary["intermediate_bytes_total"] = header.intermediateBytesTotal;
    summary["layout_mode"] = header.layoutMode;
    return report;
  }

private:
  /// The simulator's counts of `stats`, over `span` seconds.
  void addCounters(const SimulationStats &stats, double span,
                   llvm::json::Object &out) const {
    const Machine &machine = trace.header.machine;
    out["hardware_macs"] = static_cast<int64_t>(stats.macs);
    out["instructions"] = static_cast<int64_t>(stats.instructions);
    out["tensor_cycles"] = stats.tensorCycles;
    double peakMacs = span * machine.tensorClockHz *
                      static_cast<double>(machine.getPeakMacsPerCycle());
    out["tensor_engine_utilization"] =
        peakMacs > 0 ? static_cast<double>(stats.macs) / peakMacs : 0.0;
    llvm::json::Object engines;
    for (int e = 0; e < 5; ++e) {
      auto engine = static_cast<Engine>(e);
      const EngineStats &busy = stats.engines[e];
      // The DMA's busy time sums its queues: its utilisation is theirs on
      // average.
      double capacity =
          span * (engine == Engine::Dma ? static_cast<double>(machine.dmaQueues)
                                        : 1.0);
      engines[getName(engine)] = llvm::json::Object{
          {"busy_seconds", busy.busySeconds},
          {"instructions", static_cast<int64_t>(busy.instructions)},
          {"utilization", capacity > 0 ? busy.busySeconds / capacity : 0.0}};
    }
    out["engines"] = std::move(engines);
    CopyFigures copies;
    for (int cause = 0; cause < 5; ++cause) {
      copies.onchip[cause] = {
          static_cast<int64_t>(stats.onchipCopies[cause].count),
          static_cast<int64_t>(stats.onchipCopies[cause].bytes)};
      copies.offchip[cause] = {
          static_cast<int64_t>(stats.offchipCopies[cause].count),
          static_cast<int64_t>(stats.offchipCopies[cause].bytes)};
    }
    copies.addTo(out);
  }

  Trace trace;
  std::vector<uint8_t> weights;
  ArtifactManifest manifest;
  /// For each input and output of the signature, its tensor in the header.
  std::vector<size_t> inputOf, outputOf;
  /// The simulator of the last run (for its report).
  std::unique_ptr<Simulator> simulator;
};

} // namespace

FailureOr<std::unique_ptr<Executable>>
dlc::inferentia::loadInferentiaTrace(Location loc, Trace trace,
                                     std::vector<uint8_t> weights,
                                     const ArtifactManifest &manifest) {
  auto executable = std::make_unique<InferentiaExecutable>(
      std::move(trace), std::move(weights), manifest);
  if (llvm::Error error = executable->init())
    return emitError(loc) << llvm::toString(std::move(error));
  return std::unique_ptr<Executable>(std::move(executable));
}
