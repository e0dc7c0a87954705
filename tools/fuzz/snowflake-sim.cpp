//===- snowflake-sim.cpp - fuzz the Snowflake image loader and simulator -===//
//
// Inputs are binary images (program.bin). The instruction budget and DRAM
// are small so that one input runs in milliseconds; running out of either
// is an error like any other.
//
//===----------------------------------------------------------------------===//

#include "dlc/Simulator/Snowflake/Simulator.h"

#include <cstddef>
#include <cstdint>

using namespace dlc::snowflake;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<Program> program = readImage(llvm::ArrayRef(data, size));
  if (!program) {
    llvm::consumeError(program.takeError());
    return 0;
  }
  MachineConfig config;
  config.instructionBudget = 20000;
  config.dramElements = int64_t(1) << 20;
  // Exercise the fixed-point operands too, chosen by the image's size.
  if (size & 1)
    config.operands.fractionBits = 8;
  Simulator simulator(config);
  if (llvm::Error error = simulator.load(*program)) {
    llvm::consumeError(std::move(error));
    return 0;
  }
  llvm::consumeError(simulator.run());
  return 0;
}
