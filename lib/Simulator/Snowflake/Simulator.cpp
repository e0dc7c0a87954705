//===- Simulator.cpp - Snowflake, functionally and cycle-approximately ----===//
//
// The rules are those of docs/Targets/Snowflake.md ("Simulator"). Every
// instruction takes effect when the control core issues it (program
// order); its timing is that of the unit that runs it. The two agree
// because a program-order-later access to a buffer range that an earlier,
// still unfinished instruction of another unit writes (or reads, for a
// write) is an error: on the hardware nothing orders them but `sync`.
//
//===----------------------------------------------------------------------===//

#include "dlc/Simulator/Snowflake/Simulator.h"

#include "dlc/Target/Snowflake/ISA.h"
#include "dlc/Target/Snowflake/NumberFormat.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>

using namespace llvm;
using namespace dlc::snowflake;

namespace {

/// Where an access lands: maps of CU c (c), weights of vMAC v of CU c
/// (kComputeUnits + c * kVMACsPerUnit + v), DRAM (kDramBuffer).
constexpr int kDramBuffer = kComputeUnits * (1 + kVMACsPerUnit);

struct Access {
  int buffer;
  /// The elements touched lie in [lo, hi): all of them, or, for a transfer
  /// of several rows, `rows` runs of `run` elements `stride` apart from lo.
  int64_t lo, hi;
  bool write;
  int64_t rows = 1, stride = 0, run = 0;
};

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// Whether two accesses share an element. Runs with one stride are
/// compared exactly (channel slices of the same pixels do not overlap);
/// rows with different strides, by their bounding ranges.
bool overlaps(const Access &a, const Access &b) {
  if (a.buffer != b.buffer || a.hi <= b.lo || b.hi <= a.lo)
    return false;
  if (a.rows == 1 && b.rows == 1)
    return true;
  int64_t stride = a.rows > 1 ? a.stride : b.stride;
  if ((a.rows > 1 && b.rows > 1 && a.stride != b.stride) || stride <= 0)
    return true;
  int64_t runA = a.rows > 1 ? a.run : a.hi - a.lo;
  int64_t runB = b.rows > 1 ? b.run : b.hi - b.lo;
  // Row r1 of a meets row r2 of b iff d - runA < (r1 - r2) stride < d + runB.
  int64_t d = b.lo - a.lo;
  int64_t kMin = floorDiv(d - runA, stride) + 1;
  int64_t kMax = -floorDiv(-(d + runB), stride) - 1;
  return std::max(kMin, -(b.rows - 1)) <= std::min(kMax, a.rows - 1);
}

struct InFlight {
  Access access;
  double start, end;
  uint64_t pc;
};

struct Timeline {
  double busyUntil = 0;
  std::deque<double> starts;
};

/// One unit's share of an instruction: its number, its cycles and the
/// buffer ranges it touches.
struct UnitWork {
  unsigned unit;
  double cycles;
  SmallVector<Access, 5> accesses;
};

const float *getHalfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits)
      values[bits] = halfToFloat(bits);
    return values;
  }();
  return table.data();
}

/// The vector units' arithmetic on fp16 operands: fp32 accumulators, each
/// product and sum rounded to fp32, results rounded to the nearest half.
struct HalfArithmetic {
  using Accumulator = float;
  const float *half = getHalfTable();

  using Operand = float;
  Operand operand(uint16_t bits) const { return half[bits]; }
  Accumulator bias(uint16_t w) const { return half[w]; }
  void mac(Accumulator &acc, Operand x, uint16_t w) const {
    acc += x * half[w];
  }
  uint16_t writeBack(Accumulator acc, bool relu) const {
    return floatToHalf(relu && acc < 0 ? 0.0f : acc);
  }
  uint16_t add(uint16_t a, uint16_t b, bool relu) const {
    float z = half[a] + half[b];
    return floatToHalf(relu && z < 0 ? 0.0f : z);
  }
  uint16_t max(uint16_t a, uint16_t b, bool relu) const {
    float x = half[a], y = half[b];
    float z = std::isnan(x) || x > y ? x : y;
    return floatToHalf(relu && z < 0 ? 0.0f : z);
  }
};

/// The vector units' arithmetic on fixed-point operands with f fraction
/// bits: 32-bit two's-complement accumulators with 2f fraction bits that
/// wrap around; the write-back rounds halves up and saturates to 16 bits,
/// `vadd` saturates.
struct FixedArithmetic {
  using Accumulator = uint32_t;
  unsigned fractionBits;

  using Operand = int32_t;
  static int32_t value(uint16_t bits) { return static_cast<int16_t>(bits); }
  Operand operand(uint16_t bits) const { return value(bits); }
  static uint16_t saturate(int64_t v) {
    return static_cast<uint16_t>(
        static_cast<int16_t>(std::clamp<int64_t>(v, -32768, 32767)));
  }
  Accumulator bias(uint16_t w) const {
    return static_cast<uint32_t>(value(w) * (int32_t(1) << fractionBits));
  }
  void mac(Accumulator &acc, Operand x, uint16_t w) const {
    acc += static_cast<uint32_t>(x * value(w));
  }
  uint16_t writeBack(Accumulator acc, bool relu) const {
    int64_t y = static_cast<int32_t>(acc);
    if (relu && y < 0)
      y = 0;
    // Halves round up: floor((y + 2^(f-1)) / 2^f).
    int64_t scaled = y + (int64_t(1) << (fractionBits - 1));
    return saturate(
        scaled >= 0
            ? scaled >> fractionBits
            : -((-scaled + (int64_t(1) << fractionBits) - 1) >> fractionBits));
  }
  uint16_t add(uint16_t a, uint16_t b, bool relu) const {
    int64_t z = int64_t(value(a)) + value(b);
    return saturate(relu && z < 0 ? 0 : z);
  }
  uint16_t max(uint16_t a, uint16_t b, bool relu) const {
    int32_t z = std::max(value(a), value(b));
    return saturate(relu && z < 0 ? 0 : z);
  }
};

constexpr unsigned kUnits = kLoadStoreUnits + 2 * kComputeUnits;
unsigned macUnit(unsigned cu) { return kLoadStoreUnits + cu; }
unsigned maxUnit(unsigned cu) { return kLoadStoreUnits + kComputeUnits + cu; }

} // namespace

struct Simulator::State {
  MachineConfig config;
  std::vector<Instruction> text;
  std::unique_ptr<uint16_t, decltype(&std::free)> dram{nullptr, &std::free};
  std::vector<std::vector<uint16_t>> buffers;
  /// A CU's 64 accumulators, fp32 or fixed point (MachineConfig::operands).
  std::vector<float> halfAccumulators;
  std::vector<uint32_t> fixedAccumulators;
  uint32_t registers[kNumRegisters] = {};
  struct TransferShape {
    int64_t rows = 1, dramStride = 0, bufferStride = 0;
  } shapes[kLoadStoreUnits];
  Timeline timelines[kUnits];
  double dramBusyUntil = 0;
  std::vector<InFlight> inFlight;
  double now = 0;
  SimulationStats total;
  std::vector<SimulationStats> regions;
  std::vector<uint32_t> regionOfPc;

  explicit State(const MachineConfig &config) : config(config) {
    for (unsigned cu = 0; cu < kComputeUnits; ++cu)
      buffers.emplace_back(config.mapsBufferElements);
    for (unsigned w = 0; w < kComputeUnits * kVMACsPerUnit; ++w)
      buffers.emplace_back(config.weightsBufferElements);
    if (config.operands.isFixedPoint())
      fixedAccumulators.resize(kComputeUnits * kVMACsPerUnit * kLanes);
    else
      halfAccumulators.resize(kComputeUnits * kVMACsPerUnit * kLanes);
    dram.reset(static_cast<uint16_t *>(
        std::calloc(config.dramElements, sizeof(uint16_t))));
    regions.resize(1);
  }

  int64_t bufferSize(int buffer) const {
    return buffer == kDramBuffer ? config.dramElements
                                 : static_cast<int64_t>(buffers[buffer].size());
  }
  uint16_t *bufferData(int buffer) {
    return buffer == kDramBuffer ? dram.get() : buffers[buffer].data();
  }
  std::string bufferName(int buffer) const {
    if (buffer == kDramBuffer)
      return "DRAM";
    if (buffer < static_cast<int>(kComputeUnits))
      return formatv("maps of CU {0}", buffer).str();
    int w = buffer - kComputeUnits;
    return formatv("weights of vMAC {0} of CU {1}", w % kVMACsPerUnit,
                   w / kVMACsPerUnit)
        .str();
  }

  template <typename Fn> void account(uint64_t pc, Fn &&fn) {
    fn(total);
    fn(regions[pc < regionOfPc.size() ? regionOfPc[pc] : 0]);
  }

  Error error(uint64_t pc, const Twine &message) const {
    if (pc >= text.size())
      return createStringError(formatv("pc {0}: {1}", pc, message.str()).str());
    return createStringError(
        formatv("pc {0} ({1}): {2}", pc, text[pc].info->mnemonic, message.str())
            .str());
  }

  uint32_t reg(unsigned r) const { return r ? registers[r] : 0; }
  void setReg(unsigned r, uint32_t value) {
    if (r)
      registers[r] = value;
  }

  /// Checks that [lo, hi) of `buffer` is inside it.
  Error checkRange(uint64_t pc, const Access &access) const {
    if (access.lo < 0 || access.hi > bufferSize(access.buffer) ||
        access.hi <= access.lo)
      return error(pc, formatv("elements {0}..{1} of {2} are outside its {3} "
                               "elements (or empty)",
                               access.lo, access.hi, bufferName(access.buffer),
                               bufferSize(access.buffer)));
    return Error::success();
  }

  /// Issues one instruction to `work`'s units: waits for room in their
  /// queues, checks its accesses against what is still in flight, records
  /// them, and advances the units' timelines.
  Error issue(uint64_t pc, ArrayRef<UnitWork> work, double dramBytes = 0) {
    for (const UnitWork &w : work)
      for (const Access &access : w.accesses)
        if (Error e = checkRange(pc, access))
          return e;
    double ready = now;
    for (const UnitWork &w : work) {
      std::deque<double> &starts = timelines[w.unit].starts;
      while (!starts.empty() && starts.front() <= now)
        starts.pop_front();
      if (starts.size() >= static_cast<size_t>(config.unitQueueDepth))
        ready = std::max(ready, starts[starts.size() - config.unitQueueDepth]);
    }
    account(pc, [&](SimulationStats &s) { s.queueStallCycles += ready - now; });
    now = ready;
    llvm::erase_if(inFlight, [&](const InFlight &f) { return f.end <= now; });
    for (const UnitWork &w : work) {
      Timeline &timeline = timelines[w.unit];
      double start = std::max(now, timeline.busyUntil);
      double end = start + w.cycles;
      if (dramBytes > 0) {
        double dramCycles =
            dramBytes / (config.dramBytesPerSecond / config.clockHz);
        double dramStart = std::max(start, dramBusyUntil);
        dramBusyUntil = dramStart + dramCycles;
        end = std::max(dramBusyUntil, start + w.cycles) +
              config.dramLatencyCycles;
      }
      for (const Access &access : w.accesses) {
        for (const InFlight &f : inFlight) {
          if (!(f.access.write || access.write) || start >= f.end ||
              !overlaps(f.access, access))
            continue;
          return error(pc, formatv("{0} elements {1}..{2} of {3} at cycle "
                                   "{4:f0}, which pc {5} {6} until cycle "
                                   "{7:f0}: a sync is missing",
                                   access.write ? "writes" : "reads", access.lo,
                                   access.hi, bufferName(access.buffer), start,
                                   f.pc, f.access.write ? "writes" : "reads",
                                   f.end));
        }
      }
      for (const Access &access : w.accesses)
        inFlight.push_back({access, start, end, pc});
      timeline.busyUntil = end;
      timeline.starts.push_back(start);
      account(pc, [&](SimulationStats &s) {
        s.unitBusyCycles[w.unit] += end - start;
      });
    }
    return Error::success();
  }

  Error execute(uint64_t &pc, bool &halted);
  Error executeVector(uint64_t pc, const Instruction &inst);
  /// The effect of vector instruction `inst` (of trace length `length`) in
  /// CU `cu`, in `arithmetic`.
  template <typename Arithmetic>
  void applyVector(const Arithmetic &arithmetic,
                   typename Arithmetic::Accumulator *acc, unsigned cu,
                   const Instruction &inst, int64_t length);
  Error executeTransfer(uint64_t pc, const Instruction &inst);
};

Error Simulator::State::execute(uint64_t &pc, bool &halted) {
  const Instruction &inst = text[pc];
  auto op = [&](StringRef field) { return inst.get(field); };
  double before = now;
  uint64_t next = pc + 1;
  double issueCycles = 1;
  switch (inst.info->opcode) {
  case Opcode::Halt: {
    double end = now;
    for (const Timeline &timeline : timelines)
      end = std::max(end, timeline.busyUntil);
    account(pc, [&](SimulationStats &s) { s.syncStallCycles += end - now; });
    now = end;
    halted = true;
    break;
  }
  case Opcode::Add:
    setReg(op("rd"), reg(op("rs1")) + reg(op("rs2")));
    break;
  case Opcode::Sub:
    setReg(op("rd"), reg(op("rs1")) - reg(op("rs2")));
    break;
  case Opcode::Mul:
    setReg(op("rd"), reg(op("rs1")) * reg(op("rs2")));
    break;
  case Opcode::AddI:
    setReg(op("rd"), reg(op("rs1")) + static_cast<uint32_t>(op("imm")));
    break;
  case Opcode::MovI:
    setReg(op("rd"), static_cast<uint32_t>(op("imm")));
    break;
  case Opcode::MovHi:
    setReg(op("rd"),
           (static_cast<uint32_t>(op("imm")) << 16) | (reg(op("rd")) & 0xffff));
    break;
  case Opcode::Beq:
  case Opcode::Bne:
  case Opcode::Blt:
  case Opcode::Bge:
  case Opcode::Jmp: {
    bool taken = true;
    if (inst.info->opcode != Opcode::Jmp) {
      int32_t a = reg(op("rs1")), b = reg(op("rs2"));
      Opcode code = inst.info->opcode;
      taken = code == Opcode::Beq   ? a == b
              : code == Opcode::Bne ? a != b
              : code == Opcode::Blt ? a < b
                                    : a >= b;
    }
    if (taken) {
      int64_t target = static_cast<int64_t>(pc) + op("target");
      if (target < 0 || target >= static_cast<int64_t>(text.size()))
        return error(pc, formatv("branch to {0}, outside the {1} "
                                 "instructions",
                                 target, text.size()));
      next = target;
      issueCycles += config.branchPenaltyCycles;
      account(pc, [&](SimulationStats &s) {
        s.branchPenaltyCycles += config.branchPenaltyCycles;
      });
    }
    break;
  }
  case Opcode::Sync: {
    double end = now;
    uint64_t mask = op("units");
    for (unsigned unit = 0; unit < kUnits; ++unit)
      if (mask & (uint64_t(1) << unit))
        end = std::max(end, timelines[unit].busyUntil);
    account(pc, [&](SimulationStats &s) { s.syncStallCycles += end - now; });
    now = end;
    break;
  }
  case Opcode::LsConfig: {
    unsigned unit = op("unit");
    if (Error e = issue(pc, {UnitWork{unit, 1, {}}}))
      return e;
    shapes[unit] = {reg(op("rrows")), reg(op("rdstride")), reg(op("rbstride"))};
    if (shapes[unit].rows < 1)
      return error(pc, "a transfer needs at least one row");
    break;
  }
  case Opcode::Load:
  case Opcode::Store:
    if (Error e = executeTransfer(pc, inst))
      return e;
    break;
  default:
    if (Error e = executeVector(pc, inst))
      return e;
    break;
  }
  now += issueCycles;
  account(pc, [&](SimulationStats &s) {
    s.cycles += now - before;
    ++s.instructions;
  });
  pc = next;
  return Error::success();
}

Error Simulator::State::executeTransfer(uint64_t pc, const Instruction &inst) {
  unsigned unit = inst.get("unit");
  unsigned buffer = inst.get("buffer");
  bool isLoad = inst.info->opcode == Opcode::Load;
  const TransferShape &shape = shapes[unit];
  int64_t length = reg(inst.get("rl"));
  int64_t bufferBase = reg(inst.get("rbuf"));
  int64_t dramBase = reg(inst.get("rdram"));
  SmallVector<int> targets;
  if (buffer < kComputeUnits)
    targets.push_back(buffer);
  else if (isLoad && buffer == kAllMapsBuffer)
    for (unsigned cu = 0; cu < kComputeUnits; ++cu)
      targets.push_back(cu);
  else if (isLoad && buffer >= kAllWeightsBuffer &&
           buffer < kAllWeightsBuffer + kVMACsPerUnit)
    for (unsigned cu = 0; cu < kComputeUnits; ++cu)
      targets.push_back(kComputeUnits + cu * kVMACsPerUnit +
                        (buffer - kAllWeightsBuffer));
  else if (isLoad && buffer >= kFirstWeightsBuffer &&
           buffer < kFirstWeightsBuffer + kComputeUnits * kVMACsPerUnit)
    targets.push_back(kComputeUnits + buffer - kFirstWeightsBuffer);
  else
    return error(pc, formatv("buffer {0} cannot be {1}", buffer,
                             isLoad ? "loaded" : "stored from"));
  if (length < 1)
    return error(pc, "a transfer of length 0");
  auto extent = [&](int64_t base, int64_t stride) {
    return base + (shape.rows - 1) * stride + length;
  };
  uint64_t bytes = static_cast<uint64_t>(shape.rows) * length * 2;
  // Each row is its own burst of whole port-wide beats: a row of 2 bytes
  // occupies the port and the DRAM bus as long as a row of 8.
  double beatBytes = config.portBytesPerCycle;
  double busBytes = shape.rows * std::ceil(length * 2 / beatBytes) * beatBytes;
  UnitWork work{unit, busBytes / beatBytes, {}};
  work.accesses.push_back({kDramBuffer, dramBase,
                           extent(dramBase, shape.dramStride), !isLoad,
                           shape.rows, shape.dramStride, length});
  for (int target : targets)
    work.accesses.push_back({target, bufferBase,
                             extent(bufferBase, shape.bufferStride), isLoad,
                             shape.rows, shape.bufferStride, length});
  if (Error e = issue(pc, work, busBytes))
    return e;
  uint16_t *dramData = dram.get();
  for (int target : targets) {
    uint16_t *data = bufferData(target);
    for (int64_t r = 0; r < shape.rows; ++r) {
      uint16_t *onChip = data + bufferBase + r * shape.bufferStride;
      uint16_t *offChip = dramData + dramBase + r * shape.dramStride;
      if (isLoad)
        std::memcpy(onChip, offChip, length * 2);
      else
        std::memcpy(offChip, onChip, length * 2);
    }
  }
  account(pc, [&](SimulationStats &s) {
    s.lsuBytes[unit] += bytes;
    (isLoad ? s.dramReadBytes : s.dramWriteBytes) += bytes;
  });
  return Error::success();
}

Error Simulator::State::executeVector(uint64_t pc, const Instruction &inst) {
  uint64_t cuMask = inst.get("cus");
  SmallVector<unsigned> cus;
  for (unsigned cu = 0; cu < kComputeUnits; ++cu)
    if (cuMask & (1u << cu))
      cus.push_back(cu);
  if (cus.empty())
    return error(pc, "an empty CU mask");
  Opcode code = inst.info->opcode;
  auto lengthOf = [&](StringRef field) -> int64_t {
    return reg(inst.get(field));
  };
  SmallVector<UnitWork, 4> work;
  int64_t length = 0;
  // The unit's occupancy, by the instruction's cost in ISA.def.
  auto cycles = [&]() -> double {
    switch (inst.info->cost) {
    case CostKind::Fixed1:
      return 1;
    case CostKind::TraceLength:
      return length;
    case CostKind::WriteBack:
    case CostKind::VectorLength:
      return (length + kLanes - 1) / kLanes;
    case CostKind::Accumulators:
      return 2 * kVMACsPerUnit * kLanes / kLanes;
    default:
      llvm_unreachable("not a vector unit's cost");
    }
  };
  constexpr int64_t kSavedElements = 2 * kVMACsPerUnit * kLanes;
  switch (code) {
  case Opcode::VSave:
  case Opcode::VRestore: {
    bool save = code == Opcode::VSave;
    int64_t base = lengthOf(save ? "rd" : "rs");
    for (unsigned cu : cus)
      work.push_back(UnitWork{
          macUnit(cu),
          cycles(),
          {{static_cast<int>(cu), base, base + kSavedElements, save}}});
    break;
  }
  case Opcode::VClear:
  case Opcode::VBias:
    for (unsigned cu : cus) {
      UnitWork &w = work.emplace_back(UnitWork{macUnit(cu), cycles(), {}});
      if (code != Opcode::VBias)
        continue;
      int64_t row = lengthOf("rw");
      if (row % kLanes)
        return error(pc, formatv("weights address {0} is not a multiple of "
                                 "{1}",
                                 row, kLanes));
      for (unsigned v = 0; v < kVMACsPerUnit; ++v)
        w.accesses.push_back(
            {static_cast<int>(kComputeUnits + cu * kVMACsPerUnit + v), row,
             row + kLanes, false});
    }
    break;
  case Opcode::VMac: {
    length = lengthOf("rl");
    int64_t maps = lengthOf("rm"), row = lengthOf("rw");
    if (length < 1)
      return error(pc, "a trace of length 0");
    if (row % kLanes)
      return error(pc, formatv("weights address {0} is not a multiple of {1}",
                               row, kLanes));
    for (unsigned cu : cus) {
      UnitWork &w = work.emplace_back(UnitWork{macUnit(cu), cycles(), {}});
      w.accesses.push_back({static_cast<int>(cu), maps, maps + length, false});
      for (unsigned v = 0; v < kVMACsPerUnit; ++v)
        w.accesses.push_back(
            {static_cast<int>(kComputeUnits + cu * kVMACsPerUnit + v), row,
             row + length * kLanes, false});
    }
    break;
  }
  case Opcode::VWriteBack: {
    length = lengthOf("rn");
    if (length < 1 || length > kVMACsPerUnit * kLanes)
      return error(pc, formatv("writes back {0} channels, not 1..{1}", length,
                               kVMACsPerUnit * kLanes));
    int64_t dst = lengthOf("rd");
    for (unsigned cu : cus)
      work.push_back(
          UnitWork{macUnit(cu),
                   cycles(),
                   {{static_cast<int>(cu), dst, dst + length, true}}});
    break;
  }
  default: {
    length = lengthOf("rl");
    if (length < 1)
      return error(pc, "a trace of length 0");
    int64_t dst = lengthOf("rd");
    for (unsigned cu : cus) {
      UnitWork &w = work.emplace_back(
          UnitWork{maxUnit(cu),
                   cycles(),
                   {{static_cast<int>(cu), dst, dst + length, true}}});
      if (code == Opcode::VMax || code == Opcode::VAdd) {
        for (StringRef source : {"rs1", "rs2"}) {
          int64_t src = lengthOf(source);
          w.accesses.push_back(
              {static_cast<int>(cu), src, src + length, false});
        }
      } else if (code == Opcode::VMove) {
        int64_t src = lengthOf("rs");
        if (src < dst + length && dst < src + length)
          return error(pc, "the source and destination overlap");
        w.accesses.push_back({static_cast<int>(cu), src, src + length, false});
      }
    }
    break;
  }
  }
  if (Error e = issue(pc, work))
    return e;

  // The effect, in every CU of the mask.
  constexpr int64_t kAccumulators = kVMACsPerUnit * kLanes;
  for (unsigned cu : cus) {
    if (config.operands.isFixedPoint())
      applyVector(FixedArithmetic{config.operands.fractionBits},
                  &fixedAccumulators[cu * kAccumulators], cu, inst, length);
    else
      applyVector(HalfArithmetic(), &halfAccumulators[cu * kAccumulators], cu,
                  inst, length);
  }
  if (code == Opcode::VMac)
    account(pc, [&](SimulationStats &s) {
      s.macs +=
          static_cast<uint64_t>(length) * kVMACsPerUnit * kLanes * cus.size();
    });
  return Error::success();
}

template <typename Arithmetic>
void Simulator::State::applyVector(const Arithmetic &arithmetic,
                                   typename Arithmetic::Accumulator *acc,
                                   unsigned cu, const Instruction &inst,
                                   int64_t length) {
  using Accumulator = typename Arithmetic::Accumulator;
  static_assert(sizeof(Accumulator) == 4, "vsave writes two elements each");
  constexpr int64_t kAccumulators = kVMACsPerUnit * kLanes;
  uint16_t *maps = buffers[cu].data();
  auto weights = [&](unsigned v) {
    return buffers[kComputeUnits + cu * kVMACsPerUnit + v].data();
  };
  auto at = [&](StringRef field) { return maps + reg(inst.get(field)); };
  switch (inst.info->opcode) {
  case Opcode::VClear:
    std::fill(acc, acc + kAccumulators, Accumulator(0));
    break;
  case Opcode::VSave:
    std::memcpy(at("rd"), acc, kAccumulators * sizeof(Accumulator));
    break;
  case Opcode::VRestore:
    std::memcpy(acc, at("rs"), kAccumulators * sizeof(Accumulator));
    break;
  case Opcode::VBias:
    for (unsigned v = 0; v < kVMACsPerUnit; ++v)
      for (unsigned l = 0; l < kLanes; ++l)
        acc[v * kLanes + l] =
            arithmetic.bias(weights(v)[reg(inst.get("rw")) + l]);
    break;
  case Opcode::VMac: {
    const uint16_t *trace = at("rm");
    for (unsigned v = 0; v < kVMACsPerUnit; ++v) {
      Accumulator *lanes = acc + v * kLanes;
      const uint16_t *rows = weights(v) + reg(inst.get("rw"));
      for (int64_t i = 0; i < length; ++i) {
        typename Arithmetic::Operand x = arithmetic.operand(trace[i]);
        const uint16_t *row = rows + i * kLanes;
        for (unsigned l = 0; l < kLanes; ++l)
          arithmetic.mac(lanes[l], x, row[l]);
      }
    }
    break;
  }
  case Opcode::VWriteBack: {
    uint16_t *dst = at("rd");
    bool relu = inst.get("relu");
    for (int64_t c = 0; c < length; ++c)
      dst[c] = arithmetic.writeBack(acc[c], relu);
    break;
  }
  case Opcode::VMax:
  case Opcode::VAdd: {
    uint16_t *dst = at("rd");
    const uint16_t *a = at("rs1");
    const uint16_t *b = at("rs2");
    bool relu = inst.get("relu");
    bool isAdd = inst.info->opcode == Opcode::VAdd;
    for (int64_t i = 0; i < length; ++i)
      dst[i] = isAdd ? arithmetic.add(a[i], b[i], relu)
                     : arithmetic.max(a[i], b[i], relu);
    break;
  }
  case Opcode::VMove:
    std::memcpy(at("rd"), at("rs"), length * 2);
    break;
  case Opcode::VFill:
    std::fill(at("rd"), at("rd") + length,
              static_cast<uint16_t>(reg(inst.get("rv")) & 0xffff));
    break;
  default:
    llvm_unreachable("not a vector instruction");
  }
}

Simulator::Simulator(const MachineConfig &config)
    : state(std::make_unique<State>(config)) {}

Simulator::~Simulator() = default;

Error Simulator::load(const Program &program) {
  state->text.clear();
  for (auto [pc, word] : llvm::enumerate(program.text)) {
    Expected<Instruction> inst = decode(word);
    if (!inst)
      return createStringError(
          formatv("pc {0}: {1}", pc, toString(inst.takeError())).str());
    state->text.push_back(std::move(*inst));
  }
  uint64_t elements = program.data.size() / 2;
  if (program.dataAddress + elements >
      static_cast<uint64_t>(state->config.dramElements))
    return createStringError(
        formatv("the data section (elements {0}..{1}) does not fit the "
                "{2}-element DRAM",
                program.dataAddress, program.dataAddress + elements,
                state->config.dramElements)
            .str());
  if (!program.data.empty())
    std::memcpy(state->dram.get() + program.dataAddress, program.data.data(),
                program.data.size());
  return Error::success();
}

void Simulator::setRegions(std::vector<uint32_t> regionOfPc,
                           unsigned numRegions) {
  state->regionOfPc = std::move(regionOfPc);
  state->regions.assign(std::max(1u, numRegions), SimulationStats());
}

MutableArrayRef<uint16_t> Simulator::getDram() {
  return {state->dram.get(), static_cast<size_t>(state->config.dramElements)};
}

Error Simulator::run() {
  for (SimulationStats *stats : {&state->total}) {
    stats->unitBusyCycles.assign(kUnits, 0);
    stats->lsuBytes.assign(kLoadStoreUnits, 0);
  }
  for (SimulationStats &stats : state->regions) {
    stats.unitBusyCycles.assign(kUnits, 0);
    stats.lsuBytes.assign(kLoadStoreUnits, 0);
  }
  uint64_t pc = 0;
  bool halted = false;
  for (uint64_t executed = 0; !halted; ++executed) {
    if (pc >= state->text.size())
      return state->error(pc, "ran past the last instruction without a halt");
    if (executed >= state->config.instructionBudget)
      return state->error(pc, formatv("still running after {0} instructions",
                                      state->config.instructionBudget));
    if (Error e = state->execute(pc, halted))
      return e;
  }
  return Error::success();
}

const SimulationStats &Simulator::getTotal() const { return state->total; }

ArrayRef<SimulationStats> Simulator::getRegions() const {
  return state->regions;
}

const MachineConfig &Simulator::getConfig() const { return state->config; }
