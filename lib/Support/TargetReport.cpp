//===- TargetReport.cpp - the one report schema of every target -----------===//

#include "dlc/Support/TargetReport.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"

using namespace mlir;
using namespace dlc;

namespace {

/// The schema's common figures of `macs` in `cycles`.
void addFigures(llvm::json::Object &object, int64_t macs, double cycles,
                double clockHz, double peakMacsPerCycle, int64_t readBytes,
                int64_t writeBytes) {
  object["macs"] = macs;
  object["cycles"] = cycles;
  object["clock_hz"] = clockHz;
  object["seconds"] = cycles / clockHz;
  object["mac_utilization"] =
      cycles > 0 ? static_cast<double>(macs) / (cycles * peakMacsPerCycle)
                 : 0.0;
  object["dram_read_bytes"] = readBytes;
  object["dram_write_bytes"] = writeBytes;
}

llvm::json::Value attributeToJSON(Attribute value) {
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return integer.getType().isInteger(1)
               ? llvm::json::Value(integer.getValue().getBoolValue())
               : llvm::json::Value(integer.getInt());
  if (auto real = dyn_cast<FloatAttr>(value))
    return real.getValueAsDouble();
  if (auto flag = dyn_cast<BoolAttr>(value))
    return flag.getValue();
  if (auto array = dyn_cast<ArrayAttr>(value)) {
    llvm::json::Array elements;
    for (Attribute element : array)
      elements.push_back(attributeToJSON(element));
    return elements;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

} // namespace

llvm::json::Object TargetReport::toJSON() const {
  llvm::json::Array layerArray;
  int64_t macs = 0, readBytes = 0, writeBytes = 0;
  double cycles = 0;
  for (const LayerFigures &layer : layers) {
    llvm::json::Object object = llvm::json::Object(layer.extra);
    object["name"] = layer.name;
    object["op"] = layer.op;
    llvm::json::Array fused;
    for (const std::string &name : layer.fused)
      fused.push_back(name);
    object["fused"] = std::move(fused);
    addFigures(object, layer.macs, layer.cycles, clockHz, peakMacsPerCycle,
               layer.dramReadBytes, layer.dramWriteBytes);
    layerArray.push_back(std::move(object));
    macs += layer.macs;
    cycles += layer.cycles;
    readBytes += layer.dramReadBytes;
    writeBytes += layer.dramWriteBytes;
  }
  if (measuredCycles)
    cycles = *measuredCycles;
  llvm::json::Object summary = llvm::json::Object(summaryExtra);
  addFigures(summary, macs, cycles, clockHz, peakMacsPerCycle, readBytes,
             writeBytes);
  summary["compulsory_dram_bytes"] = compulsoryDramBytes;
  summary["frames_per_second"] = cycles > 0 ? clockHz / cycles : 0.0;
  summary["layers"] = static_cast<int64_t>(layers.size());
  summary["peak_macs_per_cycle"] = peakMacsPerCycle;
  summary["peak_dram_bytes_per_second"] = peakDramBytesPerSecond;
  return llvm::json::Object{{"target", target},
                            {"model", model},
                            {"source", source},
                            {"hardware", llvm::json::Object(hardware)},
                            {"summary", std::move(summary)},
                            {"layers", std::move(layerArray)}};
}

llvm::json::Object dlc::hardwareToJSON(HardwareAttr hardware) {
  llvm::json::Object object;
  if (!hardware)
    return object;
  object["local_memory_bytes"] = hardware.getLocalMemoryBytes();
  object["local_memory_space"] = hardware.getLocalMemorySpace();
  object["banks"] = hardware.getBanks();
  object["double_buffering"] = hardware.getDoubleBuffering();
  object["dma_block_overhead_bytes"] = hardware.getDmaBlockOverheadBytes();
  object["processing_units"] = hardware.getProcessingUnits();
  object["broadcast_reads"] = hardware.getBroadcastReads();
  object["strided_read_copies"] = hardware.getStridedReadCopies();
  if (DictionaryAttr target = hardware.getTarget())
    for (NamedAttribute entry : target)
      object[entry.getName().getValue()] = attributeToJSON(entry.getValue());
  return object;
}
