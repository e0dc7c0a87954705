//===- Machine.h - one NeuronCore, in numbers -------------------*- C++ -*-===//
//
// The sizes, rates and costs of the inferentia target in one place. The
// compiler reads them from the module's `#dlc.hardware` (its `target`
// dictionary, so `--hw sbuf_partition_bytes=98304` describes a variant),
// the trace records them in its header, and the simulator runs with them.
// This is the machine's definition, not a cost model: the compiler's cost
// model (lib/Target/Inferentia) and the simulator's rules
// (lib/Simulator/Inferentia) are separate code that read these numbers.
// Defaults and their public sources: docs/Targets/Inferentia.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_INFERENTIA_MACHINE_H
#define DLC_TARGET_INFERENTIA_MACHINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dlc::inferentia {

// INFERENTIA_PARAMETER(member, type, "name", default). Units: sizes in
// bytes (per partition where the name says so), clocks in Hz, costs in
// cycles of the engine that pays them, DMA and DRAM rates in bytes per
// second, the DMA fixed cost in seconds. `dram_bytes` and
// `dram_bytes_per_second` are the device's, shared by `cores_sharing_dram`
// cores (each gets an equal share of the bandwidth).
#define INFERENTIA_PARAMETERS(P)                                               \
  P(partitions, int64_t, "partitions", 128)                                    \
  P(sbufPartitionBytes, int64_t, "sbuf_partition_bytes", 196608)               \
  P(psumPartitionBytes, int64_t, "psum_partition_bytes", 16384)                \
  P(psumBankBytes, int64_t, "psum_bank_bytes", 2048)                           \
  P(stationaryFreeMax, int64_t, "stationary_free_max", 128)                    \
  P(movingFreeMax, int64_t, "moving_free_max", 512)                            \
  P(maxFreeDims, int64_t, "max_free_dims", 4)                                  \
  P(tensorClockHz, double, "tensor_clock_hz", 2.8e9)                           \
  P(vectorClockHz, double, "vector_clock_hz", 1.12e9)                          \
  P(scalarClockHz, double, "scalar_clock_hz", 1.4e9)                           \
  P(gpsimdClockHz, double, "gpsimd_clock_hz", 1.4e9)                           \
  P(matmulMinCycles, int64_t, "matmul_min_cycles", 64)                         \
  P(fp32MatmulFactor, int64_t, "fp32_matmul_factor", 4)                        \
  P(bf16Matmul, int64_t, "bf16_matmul", 0)                                     \
  P(engineMinCycles, int64_t, "engine_min_cycles", 64)                         \
  P(engineAccessCycles, int64_t, "engine_access_cycles", 60)                   \
  P(dmaQueues, int64_t, "dma_queues", 16)                                      \
  P(dmaQueueBytesPerSecond, double, "dma_queue_bytes_per_second", 27.2e9)      \
  P(dmaFixedSeconds, double, "dma_fixed_seconds", 1.3e-6)                      \
  P(dmaEfficientBytes, int64_t, "dma_efficient_bytes", 2048)                   \
  P(dramBytesPerSecond, double, "dram_bytes_per_second", 820e9)                \
  P(dramBytes, int64_t, "dram_bytes", int64_t(32) << 30)                       \
  P(coresSharingDram, int64_t, "cores_sharing_dram", 2)

/// The machine a trace runs on.
struct Machine {
#define INFERENTIA_MEMBER(member, type, name, value) type member = value;
  INFERENTIA_PARAMETERS(INFERENTIA_MEMBER)
#undef INFERENTIA_MEMBER

  /// The default machine: one NeuronCore of the public partition model.
  Machine() = default;
  /// A named preset: "neuroncore-v2" (the default) or "inf1" (Inferentia
  /// 1's published chip figures, one of its 4 cores); null otherwise.
  static std::optional<Machine> getPreset(llvm::StringRef name);
  /// The names getPreset knows.
  static llvm::ArrayRef<llvm::StringLiteral> getPresetNames();

  /// Every parameter, by name.
  llvm::json::Object toJSON() const;
  /// Reads the parameters `object` holds (others keep their values); a
  /// field of the wrong kind or an unknown field is an error naming it.
  /// Integer parameters take JSON integers, the others any number.
  llvm::Error readJSON(const llvm::json::Object &object);
  /// Checks the parameters against each other (sizes positive, a PSUM bank
  /// divides a partition, the start-partition rule's quarters exist, the
  /// tensor engine's result fits a PSUM bank and its rows the partitions);
  /// the error names the parameter.
  llvm::Error verify() const;

  int64_t getPsumBanks() const { return psumPartitionBytes / psumBankBytes; }
  /// fp32 elements one PSUM bank holds per partition.
  int64_t getPsumBankElements() const { return psumBankBytes / 4; }
  /// MACs per tensor-engine cycle at peak (rows x columns of the array).
  int64_t getPeakMacsPerCycle() const { return partitions * stationaryFreeMax; }
  /// The share of the DRAM bandwidth this core gets.
  double getDramBytesPerSecondPerCore() const {
    return dramBytesPerSecond / static_cast<double>(coresSharingDram);
  }
};

/// The start-partition rule: an access of `count` partitions may start at
/// `start` when it stays within the machine and starts at a multiple of
/// the quarter it needs (with 128 partitions: 65-128 partitions start at 0;
/// 33-64 at 0 or 64; 1-32 at 0, 32, 64 or 96). An empty string when legal,
/// else why not.
std::string checkPartitionRange(const Machine &machine, int64_t start,
                                int64_t count);

} // namespace dlc::inferentia

#endif // DLC_TARGET_INFERENTIA_MACHINE_H
