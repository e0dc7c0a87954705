//===- Machine.cpp - one NeuronCore, in numbers ---------------------------===//
//
// The presets, the JSON form and the consistency checks of the machine's
// parameters. Where each default comes from: docs/Targets/Inferentia.md.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Inferentia/Machine.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace dlc::inferentia;

std::optional<Machine> Machine::getPreset(StringRef name) {
  if (name == "neuroncore-v2")
    return Machine();
  if (name == "inf1") {
    // Inferentia 1: four NeuronCore-v1 share 8 GiB of DRAM at 50 GiB/s and
    // deliver 64 fp16 TFLOPS, 16 per core. The array's shape is not
    // published: we keep 128 x 128 and derive the clock that gives
    // 16 TFLOPS (2 flops per MAC). NeuronCore-v2's vector and scalar
    // engines are published as 10x and 3x faster than v1's, so v1's clocks
    // are v2's divided by those factors (same 128 lanes). v1 has no GpSimd
    // engine; it gets the vector engine's clock. Its tensor engine takes
    // fp16/bf16 inputs only, hence bf16 matmuls.
    Machine m;
    m.tensorClockHz = 16e12 / (2.0 * m.partitions * m.stationaryFreeMax);
    m.vectorClockHz = 1.12e9 / 10;
    m.scalarClockHz = 1.4e9 / 3;
    m.gpsimdClockHz = m.vectorClockHz;
    m.bf16Matmul = 1;
    m.dramBytes = int64_t(8) << 30;
    m.dramBytesPerSecond = 50.0 * (int64_t(1) << 30);
    m.coresSharingDram = 4;
    return m;
  }
  return std::nullopt;
}

ArrayRef<StringLiteral> Machine::getPresetNames() {
  static constexpr StringLiteral names[] = {"neuroncore-v2", "inf1"};
  return names;
}

json::Object Machine::toJSON() const {
  json::Object object;
#define INFERENTIA_FIELD(member, type, name, value) object[name] = member;
  INFERENTIA_PARAMETERS(INFERENTIA_FIELD)
#undef INFERENTIA_FIELD
  return object;
}

namespace {

Error readParameter(const json::Value &value, StringRef name, int64_t &out) {
  std::optional<int64_t> v = value.getAsInteger();
  if (!v)
    return createStringError(
        formatv("hardware parameter '{0}': expected an integer", name).str());
  out = *v;
  return Error::success();
}

Error readParameter(const json::Value &value, StringRef name, double &out) {
  std::optional<double> v = value.getAsNumber();
  if (!v)
    return createStringError(
        formatv("hardware parameter '{0}': expected a number", name).str());
  out = *v;
  return Error::success();
}

} // namespace

Error Machine::readJSON(const json::Object &object) {
  for (const auto &[key, value] : object) {
    StringRef name = key;
    bool known = false;
#define INFERENTIA_READ(member, type, paramName, defaultValue)                 \
  if (name == paramName) {                                                     \
    known = true;                                                              \
    if (Error e = readParameter(value, name, member))                          \
      return e;                                                                \
  }
    INFERENTIA_PARAMETERS(INFERENTIA_READ)
#undef INFERENTIA_READ
    if (!known)
      return createStringError(
          formatv("unknown hardware parameter '{0}'", name).str());
  }
  return Error::success();
}

Error Machine::verify() const {
  auto fail = [](StringRef name, const Twine &why) {
    return createStringError(
        formatv("hardware parameter '{0}': {1}", name, why.str()).str());
  };
  auto positive = [&](StringRef name, int64_t v) -> Error {
    if (v <= 0)
      return fail(name, formatv("{0} must be positive", v));
    return Error::success();
  };
  auto rate = [&](StringRef name, double v) -> Error {
    if (!std::isfinite(v) || v <= 0)
      return fail(name, formatv("{0} must be a positive finite number", v));
    return Error::success();
  };
  for (auto [name, v] :
       {std::pair<StringRef, int64_t>{"partitions", partitions},
        {"sbuf_partition_bytes", sbufPartitionBytes},
        {"psum_partition_bytes", psumPartitionBytes},
        {"psum_bank_bytes", psumBankBytes},
        {"stationary_free_max", stationaryFreeMax},
        {"moving_free_max", movingFreeMax},
        {"max_free_dims", maxFreeDims},
        {"matmul_min_cycles", matmulMinCycles},
        {"fp32_matmul_factor", fp32MatmulFactor},
        {"dma_queues", dmaQueues},
        {"dram_bytes", dramBytes},
        {"cores_sharing_dram", coresSharingDram}})
    if (Error e = positive(name, v))
      return e;
  for (auto [name, v] :
       {std::pair<StringRef, double>{"tensor_clock_hz", tensorClockHz},
        {"vector_clock_hz", vectorClockHz},
        {"scalar_clock_hz", scalarClockHz},
        {"gpsimd_clock_hz", gpsimdClockHz},
        {"dma_queue_bytes_per_second", dmaQueueBytesPerSecond},
        {"dram_bytes_per_second", dramBytesPerSecond}})
    if (Error e = rate(name, v))
      return e;
  // Bounds that keep every derived size and count in range (and the
  // simulator's per-lane state small); no real core comes near them.
  if (partitions % 4)
    return fail("partitions",
                formatv("{0} must be a multiple of 4 (the start-partition "
                        "rule works in quarters)",
                        partitions));
  if (partitions > 4096)
    return fail("partitions", formatv("{0} exceeds 4096", partitions));
  if (sbufPartitionBytes % 4 || sbufPartitionBytes > (int64_t(1) << 32))
    return fail("sbuf_partition_bytes",
                formatv("{0} must be a multiple of 4 and at most 2^32",
                        sbufPartitionBytes));
  if (psumBankBytes % 4)
    return fail(
        "psum_bank_bytes",
        formatv("{0} must be a multiple of 4 (fp32 elements)", psumBankBytes));
  if (psumPartitionBytes % psumBankBytes ||
      psumPartitionBytes > (int64_t(1) << 32))
    return fail("psum_bank_bytes",
                formatv("{0} must divide psum_partition_bytes ({1}, at most "
                        "2^32)",
                        psumBankBytes, psumPartitionBytes));
  if (stationaryFreeMax > partitions)
    return fail("stationary_free_max",
                formatv("{0} exceeds partitions ({1}): a matmul's result has "
                        "one partition per stationary column",
                        stationaryFreeMax, partitions));
  if (movingFreeMax > getPsumBankElements())
    return fail("moving_free_max",
                formatv("{0} exceeds the {1} fp32 elements of a PSUM bank "
                        "(psum_bank_bytes / 4): a matmul writes one bank",
                        movingFreeMax, getPsumBankElements()));
  if (maxFreeDims > 16)
    return fail("max_free_dims", formatv("{0} exceeds 16", maxFreeDims));
  if (fp32MatmulFactor > 1024)
    return fail("fp32_matmul_factor",
                formatv("{0} exceeds 1024", fp32MatmulFactor));
  if (bf16Matmul != 0 && bf16Matmul != 1)
    return fail("bf16_matmul", formatv("{0} must be 0 or 1", bf16Matmul));
  if (engineMinCycles < 0 || engineAccessCycles < 0)
    return fail(engineMinCycles < 0 ? "engine_min_cycles"
                                    : "engine_access_cycles",
                "must not be negative");
  if (dmaQueues > 256)
    return fail("dma_queues", formatv("{0} exceeds 256", dmaQueues));
  if (!std::isfinite(dmaFixedSeconds) || dmaFixedSeconds < 0)
    return fail("dma_fixed_seconds",
                formatv("{0} must be a finite number >= 0", dmaFixedSeconds));
  if (dmaEfficientBytes < 0)
    return fail("dma_efficient_bytes",
                formatv("{0} must not be negative", dmaEfficientBytes));
  if (coresSharingDram > 1024)
    return fail("cores_sharing_dram",
                formatv("{0} exceeds 1024", coresSharingDram));
  return Error::success();
}

std::string dlc::inferentia::checkPartitionRange(const Machine &machine,
                                                 int64_t start, int64_t count) {
  if (count < 1 || count > machine.partitions)
    return formatv("{0} partitions: expected 1 to {1}", count,
                   machine.partitions)
        .str();
  if (start < 0 || start > machine.partitions - count)
    return formatv("partitions {0}..{1} are outside the {2} partitions", start,
                   start + count - 1, machine.partitions)
        .str();
  // An access may start where a group of the size it needs starts: a
  // quarter, a half or the whole (with 128 partitions: multiples of 32 for
  // 1-32 partitions, of 64 for 33-64, 0 for 65-128).
  int64_t quarter = machine.partitions / 4;
  int64_t group = count <= quarter       ? quarter
                  : count <= 2 * quarter ? 2 * quarter
                                         : machine.partitions;
  if (start % group)
    return formatv("partitions {0}..{1} start at {0}: an access of {2} to {3} "
                   "partitions must start at a multiple of {4}",
                   start, start + count - 1,
                   group == quarter ? 1 : group / 2 + 1, group,
                   group == machine.partitions ? machine.partitions : group)
        .str();
  return "";
}
