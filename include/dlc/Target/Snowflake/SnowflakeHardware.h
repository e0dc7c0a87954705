//===- SnowflakeHardware.h - one Snowflake, in numbers ----------*- C++ -*-===//
//
// The sizes, rates and latencies of the Snowflake target in one place:
// every one is a parameter of the module's `#dlc.hardware` (its `target`
// dictionary), so `--hw maps_buffer_elements=32768` describes a variant;
// the defaults and their sources are in docs/Targets/Snowflake.md. The
// organisation the ISA's encodings fix (4 CUs of 4 vMACs of 16 lanes, 4
// load/store units, 32 registers) is in ISA.h, not here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SNOWFLAKE_SNOWFLAKEHARDWARE_H
#define DLC_TARGET_SNOWFLAKE_SNOWFLAKEHARDWARE_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Target/Snowflake/NumberFormat.h"

namespace dlc::snowflake {

// SNOWFLAKE_PARAMETER(member, type, "name", default)
#define SNOWFLAKE_PARAMETERS(P)                                                \
  P(clockHz, double, "clock_hz", 250e6)                                        \
  P(mapsBufferElements, int64_t, "maps_buffer_elements", 65536)                \
  P(weightsBufferElements, int64_t, "weights_buffer_elements", 16384)          \
  P(portBytesPerCycle, int64_t, "port_bytes_per_cycle", 8)                     \
  P(dramBytesPerSecond, double, "dram_bytes_per_second", 4.2e9)                \
  P(dramLatencyCycles, int64_t, "dram_latency_cycles", 64)                     \
  P(branchPenaltyCycles, int64_t, "branch_penalty_cycles", 2)                  \
  P(unitQueueDepth, int64_t, "unit_queue_depth", 4)                            \
  P(dramElements, int64_t, "dram_elements", int64_t(1) << 27)                  \
  P(operandFractionBits, int64_t, "operand_fraction_bits", 0)

struct SnowflakeHardware {
#define SNOWFLAKE_MEMBER(member, type, name, value) type member = value;
  SNOWFLAKE_PARAMETERS(SNOWFLAKE_MEMBER)
#undef SNOWFLAKE_MEMBER

  /// The defaults (no `--hw`).
  SnowflakeHardware() = default;
  /// The description in force for `op`'s module: the defaults, overridden
  /// by its `#dlc.hardware` target parameters.
  static SnowflakeHardware get(mlir::Operation *op);
  static SnowflakeHardware get(HardwareAttr hardware);
  /// The target dictionary of #dlc.hardware with every parameter.
  mlir::DictionaryAttr toTargetDictionary(mlir::MLIRContext *context) const;
  /// Checks the parameters (sizes and rates positive, buffers within the
  /// encodings' reach).
  mlir::LogicalResult
  verify(llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const;

  /// MACs per cycle (4 CUs x 4 vMACs x 16 lanes).
  static int64_t getMACsPerCycle();
  /// How the buffers hold operands: fp16 (operand_fraction_bits 0) or
  /// fixed point with that many fraction bits (8: Q8.8).
  OperandFormat getOperandFormat() const {
    return {static_cast<unsigned>(operandFractionBits)};
  }
  /// DRAM bytes per clock cycle.
  double getDramBytesPerCycle() const { return dramBytesPerSecond / clockHz; }
};

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_SNOWFLAKEHARDWARE_H
