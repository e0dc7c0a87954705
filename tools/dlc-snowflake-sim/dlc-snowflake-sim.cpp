//===- dlc-snowflake-sim.cpp - run a Snowflake binary image ---------------===//
//
// Runs a binary image on the simulator (lib/Simulator/Snowflake) and
// prints what it counted. DRAM contents go in and out as raw little-endian
// 16-bit files (fp16, or fixed point with --operand-fraction-bits):
//
//   dlc-snowflake-sim prog.bin --load 8192=input.f16 --dump 16384:1000=out.f16
//
//===----------------------------------------------------------------------===//

#include "dlc/Simulator/Snowflake/Simulator.h"
#include "dlc/Target/Snowflake/ISA.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace dlc::snowflake;

static cl::opt<std::string> imagePath(cl::Positional, cl::Required,
                                      cl::desc("<binary image>"));
static cl::list<std::string>
    loads("load", cl::desc("ADDR=FILE: put FILE's 16-bit elements in DRAM at "
                           "element ADDR before the run"));
static cl::list<std::string>
    dumps("dump", cl::desc("ADDR:COUNT=FILE: write COUNT 16-bit elements of "
                           "DRAM from element ADDR to FILE after the run"));
static cl::opt<uint64_t>
    budget("instruction-budget",
           cl::desc("stop with an error after this many instructions"),
           cl::init(MachineConfig().instructionBudget));
static cl::opt<int64_t> dramElements("dram-elements",
                                     cl::desc("DRAM size in 16-bit elements"),
                                     cl::init(MachineConfig().dramElements));

static cl::opt<unsigned> operandFractionBits(
    "operand-fraction-bits",
    cl::desc("the machine's operands: 0 for fp16 (the default), 1..15 for "
             "fixed point with that many fraction bits (8: Q8.8)"),
    cl::init(0));

static int fail(const Twine &message) {
  WithColor::error(errs(), "dlc-snowflake-sim") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Snowflake simulator\n");
  auto image = MemoryBuffer::getFile(imagePath, /*IsText=*/false);
  if (!image)
    return fail(imagePath + ": " + image.getError().message());
  Expected<Program> program = readImage(
      ArrayRef(reinterpret_cast<const uint8_t *>((*image)->getBufferStart()),
               (*image)->getBufferSize()));
  if (!program)
    return fail(toString(program.takeError()));
  if (operandFractionBits > OperandFormat::kMaxFractionBits)
    return fail(formatv("--operand-fraction-bits {0}: at most {1}",
                        operandFractionBits, OperandFormat::kMaxFractionBits));
  MachineConfig config;
  config.operands.fractionBits = operandFractionBits;
  config.instructionBudget = budget;
  config.dramElements = dramElements;
  Simulator simulator(config);
  if (Error error = simulator.load(*program))
    return fail(toString(std::move(error)));
  MutableArrayRef<uint16_t> dram = simulator.getDram();
  for (StringRef spec : loads) {
    auto [address, path] = spec.split('=');
    uint64_t base;
    if (address.getAsInteger(0, base) || path.empty())
      return fail("--load " + spec + ": expected ADDR=FILE");
    auto file = MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!file)
      return fail(path + ": " + file.getError().message());
    size_t bytes = (*file)->getBufferSize();
    if (bytes % 2 || base + bytes / 2 > dram.size())
      return fail(formatv("--load {0}: {1} bytes do not fit DRAM as 16-bit "
                          "elements from {2}",
                          spec, bytes, base));
    std::memcpy(dram.data() + base, (*file)->getBufferStart(), bytes);
  }
  if (Error error = simulator.run())
    return fail(toString(std::move(error)));
  for (StringRef spec : dumps) {
    auto [range, path] = spec.split('=');
    auto [address, count] = range.split(':');
    uint64_t base, elements;
    if (address.getAsInteger(0, base) || count.getAsInteger(0, elements) ||
        path.empty() || base + elements > dram.size())
      return fail("--dump " + spec + ": expected ADDR:COUNT=FILE inside DRAM");
    std::error_code ec;
    raw_fd_ostream out(path, ec, sys::fs::OF_None);
    if (ec)
      return fail(path + ": " + ec.message());
    out.write(reinterpret_cast<const char *>(dram.data() + base), elements * 2);
  }

  const SimulationStats &total = simulator.getTotal();
  double seconds = total.cycles / config.clockHz;
  double peak = kComputeUnits * kVMACsPerUnit * kLanes;
  outs() << formatv("halted after {0} instructions: {1:f0} cycles, {2:f3} us "
                    "at {3:f0} MHz\n",
                    total.instructions, total.cycles, seconds * 1e6,
                    config.clockHz / 1e6);
  outs() << formatv(
      "MACs {0}, utilization {1:f4} of {2:f0} per cycle\n", total.macs,
      total.cycles ? total.macs / (total.cycles * peak) : 0, peak);
  outs() << formatv("stalls: sync {0:f0}, full queues {1:f0}, branches {2:f0} "
                    "cycles\n",
                    total.syncStallCycles, total.queueStallCycles,
                    total.branchPenaltyCycles);
  outs() << formatv("DRAM: {0} bytes read, {1} written ({2:f3} GB/s)\n",
                    total.dramReadBytes, total.dramWriteBytes,
                    seconds ? (total.dramReadBytes + total.dramWriteBytes) /
                                  seconds / 1e9
                            : 0);
  auto occupancy = [&](unsigned unit) {
    return total.cycles ? 100 * total.unitBusyCycles[unit] / total.cycles : 0;
  };
  for (unsigned u = 0; u < kLoadStoreUnits; ++u)
    outs() << formatv("LSU {0}: {1} bytes, busy {2:f0} cycles ({3:f1}%)\n", u,
                      total.lsuBytes[u], total.unitBusyCycles[u], occupancy(u));
  for (unsigned c = 0; c < kComputeUnits; ++c)
    outs() << formatv("CU {0}: MAC busy {1:f0} cycles ({2:f1}%), MAX busy "
                      "{3:f0} cycles ({4:f1}%)\n",
                      c, total.unitBusyCycles[kLoadStoreUnits + c],
                      occupancy(kLoadStoreUnits + c),
                      total.unitBusyCycles[kLoadStoreUnits + kComputeUnits + c],
                      occupancy(kLoadStoreUnits + kComputeUnits + c));
  return 0;
}
