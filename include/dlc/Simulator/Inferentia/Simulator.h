//===- Simulator.h - the inferentia simulator ------------------*- C++ -*-===//
//
// Executes an inferentia instruction trace (Trace.h) on one NeuronCore,
// functionally (fp32 arithmetic, bf16 storage where an access pattern says
// so, fp32 accumulation in PSUM) and in time (each compute engine and each
// DMA queue runs its instructions in trace order; an instruction starts
// when its engine or queue is free and its dependencies have finished;
// costs from the public NKI figures, docs/Targets/Inferentia.md). It
// stands in for the hardware: its rules are those of the docs and it
// shares no code with the compiler's cost model. A trace that would
// compute garbage on the hardware (an engine touching bytes another
// engine or queue writes, or reads for a write, with no path of
// dependencies between the two) is an error naming both instructions,
// never a lucky pass.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_SIMULATOR_INFERENTIA_SIMULATOR_H
#define DLC_SIMULATOR_INFERENTIA_SIMULATOR_H

#include "dlc/Target/Inferentia/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace dlc::inferentia {

struct EngineStats {
  /// Seconds the engine (for Engine::Dma: every queue, summed) was
  /// occupied by instructions.
  double busySeconds = 0;
  uint64_t instructions = 0;
};

struct CopyCounts {
  uint64_t count = 0, bytes = 0;
};

/// What happened, in total or for one layer (the instructions whose
/// `layer` is its index).
struct SimulationStats {
  /// The span of the instructions counted: the first start and the last
  /// finish (0 and 0 when there are none).
  double startSeconds = 0, endSeconds = 0;
  uint64_t instructions = 0;
  /// K * M * N of each matmul (transposes are data movement, not MACs).
  uint64_t macs = 0;
  /// Tensor-engine busy cycles (matmuls and transposes).
  double tensorCycles = 0;
  uint64_t dramReadBytes = 0, dramWriteBytes = 0;
  /// Indexed by Engine.
  std::array<EngineStats, 5> engines;
  /// Indexed by Cause. On-chip: TensorCopy and Transpose with a cause, and
  /// DmaCopy from SBUF to SBUF; off-chip: DmaCopy to or from DRAM. Bytes
  /// are those written.
  std::array<CopyCounts, 5> onchipCopies, offchipCopies;

  double getSeconds() const { return endSeconds - startSeconds; }
};

class Simulator {
public:
  /// Takes the trace to run (readTrace checks it; run checks every
  /// instruction again, so an unchecked trace is an error, never a crash).
  explicit Simulator(Trace trace);
  ~Simulator();
  Simulator(Simulator &&);
  Simulator &operator=(Simulator &&);

  const Trace &getTrace() const;

  /// Places the weights file's bytes at the header's weights_address.
  llvm::Error loadWeights(llvm::ArrayRef<uint8_t> bytes);
  /// DRAM (the header's dram_bytes, zero at first), before or after `run`.
  llvm::Error writeDram(int64_t address, llvm::ArrayRef<uint8_t> bytes);
  llvm::Error readDram(int64_t address,
                       llvm::MutableArrayRef<uint8_t> bytes) const;
  /// A tensor of the header, as float32 values in row-major order
  /// (converted to and from its type, bf16 rounding to nearest even).
  llvm::Error writeTensor(const TraceTensor &tensor,
                          llvm::ArrayRef<float> values);
  llvm::Expected<std::vector<float>>
  readTensor(const TraceTensor &tensor) const;

  /// Runs every instruction once. Errors name the instruction, as
  /// "instruction N (line L, layer 'name'): ...", with L its line in the
  /// trace file (N + 2).
  llvm::Error run();

  const SimulationStats &getTotal() const;
  /// One per header layer.
  llvm::ArrayRef<SimulationStats> getLayers() const;
  /// When the last instruction finishes.
  double getLatencySeconds() const;

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace dlc::inferentia

#endif // DLC_SIMULATOR_INFERENTIA_SIMULATOR_H
