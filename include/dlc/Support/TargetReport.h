//===- TargetReport.h - the one report schema of every target ---*- C++ -*-===//
//
// `dlc compile` writes the compiler's prediction as DIR/report.json and
// `dlc run --report FILE` what the executor counted, both in this schema
// (ARCHITECTURE.md, "One report schema"; the user guide documents it):
//
//   {"target", "model", "source": "predicted" | "simulated" | "measured",
//    "hardware": {every field of the hardware description in force},
//    "summary": {"macs", "cycles", "clock_hz", "seconds", "mac_utilization",
//                "dram_read_bytes", "dram_write_bytes",
//                "compulsory_dram_bytes", "frames_per_second",
//                "peak_macs_per_cycle", "peak_dram_bytes_per_second", ...},
//    "layers": [{"name", "op", "fused", "macs", "cycles", "clock_hz",
//                "seconds", "mac_utilization", "dram_read_bytes",
//                "dram_write_bytes", ...}, ...]}
//
// mac_utilization is macs / (cycles x MACs per cycle at peak). Targets add
// their own fields to a layer or the summary (`extra`) without renaming
// these.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_TARGETREPORT_H
#define DLC_SUPPORT_TARGETREPORT_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace dlc {

struct LayerFigures {
  /// The ONNX node and its op type (`Conv`, `Gemm`, ...).
  std::string name, op;
  /// Nodes fused into this layer.
  std::vector<std::string> fused;
  int64_t macs = 0;
  double cycles = 0;
  int64_t dramReadBytes = 0, dramWriteBytes = 0;
  /// The target's own fields.
  llvm::json::Object extra;
};

struct TargetReport {
  std::string target, model, source;
  llvm::json::Object hardware;
  double clockHz = 1;
  /// MACs per cycle at the machine's peak (for mac_utilization) and its
  /// best DRAM bandwidth (0 when the target has no model of it): the
  /// physical bounds no layer may beat.
  double peakMacsPerCycle = 1;
  double peakDramBytesPerSecond = 0;
  /// Every input, weight and output moved once.
  int64_t compulsoryDramBytes = 0;
  std::vector<LayerFigures> layers;
  llvm::json::Object summaryExtra;
  /// The summary's cycles when they were measured as a whole rather than
  /// summed over the layers.
  std::optional<double> measuredCycles;

  /// The report with the summary summed over the layers.
  llvm::json::Object toJSON() const;
};

/// Every field of `hardware`, the target's parameters included, as JSON.
llvm::json::Object hardwareToJSON(HardwareAttr hardware);

} // namespace dlc

#endif // DLC_SUPPORT_TARGETREPORT_H
