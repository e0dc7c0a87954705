//===- Simulator.h - the Snowflake simulator -----------------*- C++ -*-===//
//
// Executes a Snowflake binary image, functionally (16-bit storage in fp16
// or fixed point, 32-bit accumulation, exactly as docs/Targets/Snowflake.md
// says) and
// cycle-approximately (the control core's issue, each unit's occupancy, the
// load/store units' ports and the shared DRAM bandwidth, the stalls of
// sync and of full unit queues). It stands in for the hardware: its rules
// are those of the docs, and it shares no code with the compiler's
// performance model. A program that would compute garbage on the hardware
// (a unit reading a buffer range another unit is still writing, because a
// sync is missing) is an error, never a lucky pass.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_SIMULATOR_SNOWFLAKE_SIMULATOR_H
#define DLC_SIMULATOR_SNOWFLAKE_SIMULATOR_H

#include "dlc/Target/Snowflake/NumberFormat.h"
#include "dlc/Target/Snowflake/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace dlc::snowflake {

/// The machine's numbers (defaults and sources in docs/Targets/Snowflake.md).
struct MachineConfig {
  double clockHz = 250e6;
  int64_t mapsBufferElements = 65536;
  int64_t weightsBufferElements = 16384;
  double portBytesPerCycle = 8;
  double dramBytesPerSecond = 4.2e9;
  double dramLatencyCycles = 64;
  int64_t branchPenaltyCycles = 2;
  /// Instructions a unit holds before it starts them; the control core
  /// stalls on a full queue.
  int64_t unitQueueDepth = 4;
  /// DRAM size in 16-bit elements.
  int64_t dramElements = int64_t(1) << 27;
  /// What the 16-bit operands are (fp16 by default, Q8.8 with 8 fraction
  /// bits); the accumulators are fp32 or 32-bit fixed point with twice the
  /// fraction bits.
  OperandFormat operands;
  /// A program still running after this many instructions is an error.
  uint64_t instructionBudget = uint64_t(1) << 36;
};

/// What happened, in total or for one region of the program (the
/// instructions the compiler made for one ONNX node).
struct SimulationStats {
  /// Control-core cycles spent issuing, branching and stalling.
  double cycles = 0;
  uint64_t instructions = 0;
  /// Multiply-accumulates the vMACs performed (every lane of every trace).
  uint64_t macs = 0;
  double syncStallCycles = 0;
  double queueStallCycles = 0;
  double branchPenaltyCycles = 0;
  uint64_t dramReadBytes = 0;
  uint64_t dramWriteBytes = 0;
  /// Busy cycles per unit: LSU 0-3, then MAC of CU 0-3, then MAX of CU 0-3.
  std::vector<double> unitBusyCycles;
  /// Bytes each load/store unit moved.
  std::vector<uint64_t> lsuBytes;
};

class Simulator {
public:
  explicit Simulator(const MachineConfig &config);
  ~Simulator();

  /// Checks the program and places its data section in DRAM.
  llvm::Error load(const Program &program);
  /// Attributes each instruction to a region (`regionOfPc[pc]` <
  /// `numRegions`); without this, everything is region 0.
  void setRegions(std::vector<uint32_t> regionOfPc, unsigned numRegions);

  /// DRAM, for inputs before `run` and outputs after.
  llvm::MutableArrayRef<uint16_t> getDram();

  /// Runs to `halt`; an error names the program counter and what is wrong.
  llvm::Error run();

  const SimulationStats &getTotal() const;
  llvm::ArrayRef<SimulationStats> getRegions() const;
  const MachineConfig &getConfig() const;

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace dlc::snowflake

#endif // DLC_SIMULATOR_SNOWFLAKE_SIMULATOR_H
