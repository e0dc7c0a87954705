//===- inferentia-sim.cpp - fuzz the inferentia trace loader and simulator ===//
//
// Inputs are traces (trace.jsonl). Checked traces run on the simulator with
// zero weights of the size the header declares, and zero inputs.
//
//===----------------------------------------------------------------------===//

#include "dlc/Simulator/Inferentia/Simulator.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace dlc::inferentia;

/// Bounds what one input may allocate (DRAM, weights), so that large but
/// legal machines do not exceed the fuzzer's memory limit.
static constexpr int64_t kMaxDramBytes = int64_t(256) << 20;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<Trace> trace =
      readTrace(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!trace) {
    llvm::consumeError(trace.takeError());
    return 0;
  }
  if (trace->header.dramBytes > kMaxDramBytes ||
      trace->header.weightsBytes > kMaxDramBytes)
    return 0;
  Simulator simulator(std::move(*trace));
  std::vector<uint8_t> weights(simulator.getTrace().header.weightsBytes);
  if (llvm::Error error = simulator.loadWeights(weights)) {
    llvm::consumeError(std::move(error));
    return 0;
  }
  llvm::consumeError(simulator.run());
  return 0;
}
