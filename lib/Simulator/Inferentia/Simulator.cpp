//===- Simulator.cpp - one NeuronCore, functionally and in time -----------===//
//
// The rules are those of docs/Targets/Inferentia.md ("Simulator"). Every
// instruction takes effect in trace order; its timing is that of its
// engine or DMA queue. The two agree because an access to bytes that an
// instruction on another engine or queue wrote (or, for a write, read or
// wrote) is an error unless a path of dependencies orders the two: vector
// clocks over the lanes (4 compute engines, then the DMA queues) answer
// "is there such a path", and a shadow of every 2- or 4-byte unit of SBUF,
// PSUM and DRAM holds its last writer and its unordered readers.
//
//===----------------------------------------------------------------------===//

#include "dlc/Simulator/Inferentia/Simulator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace llvm;
using namespace dlc::inferentia;

namespace {

/// Lanes 0-3 are the compute engines (Engine's order), lane 4 + q DMA
/// queue q.
constexpr unsigned kComputeLanes = 4;

/// The largest SBUF or PSUM (all partitions) the simulator holds.
constexpr int64_t kMaxOnChipBytes = int64_t(1) << 32;
/// The most elements one access pattern may have here (its element
/// offsets and values are materialized); a real transfer is far smaller.
constexpr int64_t kMaxSimulatedElements = int64_t(1) << 26;

/// One shadow unit: its last writer and its readers since, as instruction
/// index + 1 (0: none). A reader with kReaderSet set is an index into the
/// simulator's reader sets (several readers on lanes no dependency orders).
struct ShadowUnit {
  uint32_t writer = 0, reader = 0;
};
constexpr uint32_t kReaderSet = 0x80000000u;

/// Memory from calloc: zero pages cost nothing until touched, so DRAM and
/// its shadow take what a trace uses, not what it declares.
template <typename T> struct ZeroedArray {
  T *data = nullptr;
  int64_t size = 0;
  ZeroedArray() = default;
  ZeroedArray(const ZeroedArray &) = delete;
  ZeroedArray &operator=(const ZeroedArray &) = delete;
  ~ZeroedArray() { std::free(data); }
  bool allocate(int64_t n) {
    std::free(data);
    data = nullptr;
    size = 0;
    if (n <= 0)
      return true;
    data = static_cast<T *>(std::calloc(static_cast<size_t>(n), sizeof(T)));
    if (!data)
      return false;
    size = n;
    return true;
  }
};

/// One of SBUF, PSUM, DRAM: its bytes (SBUF and PSUM partition-major, as
/// in the device's address map) and their shadow.
struct Space {
  Memory memory = Memory::Sbuf;
  int64_t partitionBytes = 0;
  ZeroedArray<uint8_t> bytes;
  ZeroedArray<ShadowUnit> shadow;
};

/// Where each element of an access pattern lies: byte `base[p] + free[f]`
/// of its space, partition-major, then the free dims outermost first.
struct Layout {
  Space *space = nullptr;
  DataType type = DataType::F32;
  int64_t elementBytes = 4;
  std::vector<int64_t> base, free;
  int64_t getElements() const {
    return static_cast<int64_t>(base.size() * free.size());
  }
};

float bf16ToFloat(uint16_t bits) {
  uint32_t word = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &word, 4);
  return f;
}

/// Rounds to the nearest bf16, ties to even; NaN stays a (quiet) NaN.
uint16_t floatToBf16(float f) {
  uint32_t word;
  std::memcpy(&word, &f, 4);
  if ((word & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((word >> 16) | 0x40);
  word += 0x7fffu + ((word >> 16) & 1);
  return static_cast<uint16_t>(word >> 16);
}

float roundToBf16(float f) { return bf16ToFloat(floatToBf16(f)); }

/// Maximum and minimum propagate NaN (IEEE 754-2019 maximum/minimum).
float maxOf(float a, float b) { return a > b || std::isnan(a) ? a : b; }
float minOf(float a, float b) { return a < b || std::isnan(a) ? a : b; }

template <typename Fn> void forAlu(AluOp op, Fn &&fn) {
  switch (op) {
  case AluOp::Bypass:
    return fn([](float a, float) { return a; });
  case AluOp::Add:
    return fn([](float a, float b) { return a + b; });
  case AluOp::Subtract:
    return fn([](float a, float b) { return a - b; });
  case AluOp::Multiply:
    return fn([](float a, float b) { return a * b; });
  case AluOp::Divide:
    return fn([](float a, float b) { return a / b; });
  case AluOp::Max:
    return fn(maxOf);
  case AluOp::Min:
    return fn(minOf);
  case AluOp::IsEqual:
    return fn([](float a, float b) { return a == b ? 1.0f : 0.0f; });
  case AluOp::NotEqual:
    return fn([](float a, float b) { return a != b ? 1.0f : 0.0f; });
  case AluOp::IsGt:
    return fn([](float a, float b) { return a > b ? 1.0f : 0.0f; });
  case AluOp::IsGe:
    return fn([](float a, float b) { return a >= b ? 1.0f : 0.0f; });
  case AluOp::IsLt:
    return fn([](float a, float b) { return a < b ? 1.0f : 0.0f; });
  case AluOp::IsLe:
    return fn([](float a, float b) { return a <= b ? 1.0f : 0.0f; });
  }
}

/// a[i] = a[i] op b, for every i < n.
void applyScalar(AluOp op, float *a, float b, int64_t n) {
  forAlu(op, [&](auto f) {
    for (int64_t i = 0; i < n; ++i)
      a[i] = f(a[i], b);
  });
}

/// a[i] = a[i] op b[i].
void applyVector(AluOp op, float *a, const float *b, int64_t n) {
  forAlu(op, [&](auto f) {
    for (int64_t i = 0; i < n; ++i)
      a[i] = f(a[i], b[i]);
  });
}

void applyFunction(ActivationFunction function, float *a, int64_t n) {
  using F = ActivationFunction;
  auto map = [&](auto f) {
    for (int64_t i = 0; i < n; ++i)
      a[i] = f(a[i]);
  };
  switch (function) {
  case F::Identity:
    return;
  case F::Relu:
    return map([](float x) { return x > 0 || std::isnan(x) ? x : 0.0f; });
  case F::Exp:
    return map([](float x) { return std::exp(x); });
  case F::Log:
    return map([](float x) { return std::log(x); });
  case F::Tanh:
    return map([](float x) { return std::tanh(x); });
  case F::Sigmoid:
    return map([](float x) { return 1.0f / (1.0f + std::exp(-x)); });
  case F::Sqrt:
    return map([](float x) { return std::sqrt(x); });
  case F::Rsqrt:
    return map([](float x) { return 1.0f / std::sqrt(x); });
  case F::Reciprocal:
    return map([](float x) { return 1.0f / x; });
  case F::Square:
    return map([](float x) { return x * x; });
  case F::Abs:
    return map([](float x) { return std::fabs(x); });
  case F::Neg:
    return map([](float x) { return -x; });
  case F::Erf:
    return map([](float x) { return std::erf(x); });
  }
}

/// Whether the innermost free dim that moves (size > 1) of an SBUF or
/// PSUM pattern steps more than 16 bytes.
bool hasWideStride(const AccessPattern &ap) {
  if (ap.memory == Memory::Dram)
    return false;
  for (auto it = ap.dims.rbegin(); it != ap.dims.rend(); ++it)
    if (it->second > 1)
      return std::abs(it->first) * ap.getElementBytes() > 16;
  return false;
}

bool isComputeEngine(Engine engine) {
  return engine == Engine::Vector || engine == Engine::Scalar ||
         engine == Engine::GpSimd;
}

} // namespace

struct Simulator::State {
  Trace trace;
  const Machine &machine = trace.header.machine;
  bool prepared = false, ran = false;
  /// Why prepare failed, if it did (repeated to every later call).
  std::string prepareFailure;

  Space sbuf, psum, dram;
  /// log2 of the shadow unit's bytes: 1 when the trace has bf16 accesses,
  /// else 2.
  unsigned unitShift = 2;

  unsigned lanes = kComputeLanes;
  /// Per instruction: its lane, its position on the lane (from 1), when it
  /// finishes, and its vector clock's row in `clocks` (-1: not kept, no
  /// instruction depends on it).
  std::vector<uint16_t> laneOf;
  std::vector<uint32_t> seqOf;
  std::vector<double> finish;
  std::vector<int32_t> clockRow;
  std::vector<uint32_t> clocks;
  /// The vector clock of each lane's last instruction, and the current
  /// instruction's.
  std::vector<uint32_t> laneClocks, clock;
  std::vector<SmallVector<uint32_t, 4>> readerSets;

  /// When each lane can start its next instruction; the shared SBUF port
  /// of the vector and GpSimd engines and PSUM port of the vector and
  /// scalar engines; DRAM's bandwidth.
  std::vector<double> laneFree;
  double sbufPortFree = 0, psumPortFree = 0, dramFree = 0;

  SimulationStats total;
  std::vector<SimulationStats> layers;
  std::vector<bool> layerSeen;
  bool totalSeen = false;
  double latency = 0;

  /// Reused by every instruction (no allocation per instruction).
  Layout dstLayout;
  Layout srcLayouts[3];
  std::vector<float> a, b, c, s0, s1;
  std::vector<int64_t> scratch;

  explicit State(Trace t) : trace(std::move(t)) {
    sbuf.memory = Memory::Sbuf;
    psum.memory = Memory::Psum;
    dram.memory = Memory::Dram;
  }

  /// Prepared, and `count` bytes from `address` within DRAM: what
  /// writeDram and readDram may touch.
  Error checkDramRange(int64_t address, size_t count) {
    if (Error e = prepare())
      return e;
    int64_t size = dram.bytes.size;
    if (address < 0 || address > size ||
        static_cast<int64_t>(count) > size - address)
      return createStringError(
          formatv("{0} bytes at DRAM address {1} do not fit the trace's "
                  "dram_bytes ({2})",
                  count, address, size)
              .str());
    return Error::success();
  }
  Error prepare();
  Error allocate();
  Error execute(int64_t index);

  std::string where(int64_t index) const {
    const Instruction &ins = trace.instructions[index];
    if (ins.layer >= 0 &&
        ins.layer < static_cast<int64_t>(trace.header.layers.size()))
      return formatv("instruction {0} (line {1}, layer '{2}')", index,
                     index + 2, trace.header.layers[ins.layer].name)
          .str();
    return formatv("instruction {0} (line {1})", index, index + 2).str();
  }
  Error error(int64_t index, const Twine &message) const {
    return createStringError(where(index) + ": " + message.str());
  }

  Space &spaceOf(Memory memory) {
    return memory == Memory::Sbuf ? sbuf : memory == Memory::Psum ? psum : dram;
  }

  void layout(const AccessPattern &ap, Layout &out);
  void gather(const Layout &l, float *out) const;
  void scatter(const Layout &l, const float *in);

  unsigned laneOfInstruction(const Instruction &ins) const {
    return ins.opcode == Opcode::DmaCopy
               ? kComputeLanes + static_cast<unsigned>(ins.queue)
               : static_cast<unsigned>(ins.engine);
  }
  /// Whether earlier instruction `j` happens before the current one (on
  /// `lane`, with vector clock `clock`).
  bool ordered(uint32_t j, unsigned lane) const {
    return laneOf[j] == lane || seqOf[j] <= clock[laneOf[j]];
  }
  std::string describeUnit(const Space &s, int64_t unit) const;
  std::string describeLane(uint32_t j) const;
  Error race(int64_t index, const Space &s, int64_t unit, bool write,
             uint32_t other, bool otherWrites) const;
  /// Records the reads of `l` by instruction `index`; `ready` grows to the
  /// finish of same-lane writers of what it reads.
  Error scanReads(int64_t index, unsigned lane, const Layout &l, double &ready);
  Error scanWrites(int64_t index, unsigned lane, const Layout &l);
  uint32_t addReader(uint32_t state, uint32_t self, unsigned lane);

  template <typename Fn>
  void account(int64_t layer, double start, double end, Fn &&fn);
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

Error Simulator::State::prepare() {
  if (!prepared) {
    prepared = true;
    if (Error e = allocate())
      prepareFailure = toString(std::move(e));
  }
  if (!prepareFailure.empty())
    return createStringError(prepareFailure);
  return Error::success();
}

Error Simulator::State::allocate() {
  const TraceHeader &h = trace.header;
  if (Error e = machine.verify())
    return createStringError("machine: " + toString(std::move(e)));
  if (h.dramBytes < 0 || h.dramBytes > machine.dramBytes)
    return createStringError(
        formatv("dram_bytes {0}: expected 0 to the machine's {1}", h.dramBytes,
                machine.dramBytes)
            .str());
  for (Space *s : {&sbuf, &psum}) {
    s->partitionBytes =
        s == &sbuf ? machine.sbufPartitionBytes : machine.psumPartitionBytes;
    int64_t bytes = machine.partitions * s->partitionBytes;
    if (bytes > kMaxOnChipBytes)
      return createStringError(
          formatv("{0} of {1} bytes: the simulator holds at most 2^32",
                  s == &sbuf ? "SBUF" : "PSUM", bytes)
              .str());
    if (!s->bytes.allocate(bytes))
      return createStringError(formatv("cannot allocate {0} bytes of {1}",
                                       bytes, s == &sbuf ? "SBUF" : "PSUM")
                                   .str());
  }
  if (!dram.bytes.allocate(h.dramBytes))
    return createStringError(
        formatv("cannot allocate the trace's {0} bytes of DRAM", h.dramBytes)
            .str());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

void Simulator::State::layout(const AccessPattern &ap, Layout &out) {
  out.space = &spaceOf(ap.memory);
  out.type = ap.type;
  out.elementBytes = ap.getElementBytes();
  // The free offsets, outermost dim first: each dim repeats what the outer
  // ones gave for each of its positions.
  std::vector<int64_t> &free = out.free;
  free.assign(1, ap.address);
  for (auto [stride, size] : ap.dims) {
    scratch.swap(free);
    free.clear();
    int64_t step = stride * out.elementBytes;
    for (int64_t outer : scratch)
      for (int64_t i = 0; i < size; ++i)
        free.push_back(outer + i * step);
  }
  out.base.resize(ap.partitions);
  for (int64_t p = 0; p < ap.partitions; ++p)
    out.base[p] = ap.memory == Memory::Dram
                      ? p * ap.partitionStride * out.elementBytes
                      : (ap.startPartition + p) * out.space->partitionBytes;
}

void Simulator::State::gather(const Layout &l, float *out) const {
  const uint8_t *data = l.space->bytes.data;
  size_t k = 0;
  if (l.type == DataType::F32) {
    for (int64_t base : l.base)
      for (int64_t offset : l.free)
        std::memcpy(&out[k++], data + base + offset, 4);
    return;
  }
  for (int64_t base : l.base)
    for (int64_t offset : l.free) {
      uint16_t bits;
      std::memcpy(&bits, data + base + offset, 2);
      out[k++] = bf16ToFloat(bits);
    }
}

void Simulator::State::scatter(const Layout &l, const float *in) {
  uint8_t *data = l.space->bytes.data;
  size_t k = 0;
  if (l.type == DataType::F32) {
    for (int64_t base : l.base)
      for (int64_t offset : l.free)
        std::memcpy(data + base + offset, &in[k++], 4);
    return;
  }
  for (int64_t base : l.base)
    for (int64_t offset : l.free) {
      uint16_t bits = floatToBf16(in[k++]);
      std::memcpy(data + base + offset, &bits, 2);
    }
}

//===----------------------------------------------------------------------===//
// Races
//===----------------------------------------------------------------------===//

std::string Simulator::State::describeUnit(const Space &s, int64_t unit) const {
  int64_t byte = unit << unitShift, last = byte + (int64_t(1) << unitShift) - 1;
  if (s.memory == Memory::Dram)
    return formatv("DRAM bytes {0}..{1}", byte, last).str();
  return formatv("{0} partition {1} bytes {2}..{3}",
                 s.memory == Memory::Sbuf ? "SBUF" : "PSUM",
                 byte / s.partitionBytes, byte % s.partitionBytes,
                 last % s.partitionBytes)
      .str();
}

std::string Simulator::State::describeLane(uint32_t j) const {
  unsigned lane = laneOf[j];
  if (lane >= kComputeLanes)
    return formatv("DMA queue {0}", lane - kComputeLanes).str();
  return formatv("the {0} engine", getName(static_cast<Engine>(lane))).str();
}

Error Simulator::State::race(int64_t index, const Space &s, int64_t unit,
                             bool write, uint32_t other,
                             bool otherWrites) const {
  return error(index,
               formatv("{0} {1}, which instruction {2} (line {3}, on {4}) {5}, "
                       "and no path of dependencies orders instruction {2} "
                       "before instruction {6}: a race",
                       write ? "writes" : "reads", describeUnit(s, unit), other,
                       other + 2, describeLane(other),
                       otherWrites ? "writes" : "reads", index));
}

uint32_t Simulator::State::addReader(uint32_t state, uint32_t self,
                                     unsigned lane) {
  uint32_t tag = self + 1;
  if (state == 0 || state == tag)
    return tag;
  if (!(state & kReaderSet)) {
    if (ordered(state - 1, lane))
      return tag;
    readerSets.push_back({state - 1, self});
    return kReaderSet | static_cast<uint32_t>(readerSets.size() - 1);
  }
  // Readers ordered before this one are covered by it: a write must be
  // ordered after this read anyway.
  SmallVector<uint32_t, 4> kept;
  for (uint32_t r : readerSets[state & ~kReaderSet])
    if (!ordered(r, lane))
      kept.push_back(r);
  if (kept.empty())
    return tag;
  kept.push_back(self);
  readerSets.push_back(std::move(kept));
  return kReaderSet | static_cast<uint32_t>(readerSets.size() - 1);
}

Error Simulator::State::scanReads(int64_t index, unsigned lane, const Layout &l,
                                  double &ready) {
  ShadowUnit *shadow = l.space->shadow.data;
  uint32_t self = static_cast<uint32_t>(index);
  int64_t units = l.elementBytes >> unitShift;
  // Neighbouring units mostly share their writer and readers: each
  // distinct one is checked once per operand.
  uint32_t lastWriter = 0, lastIn = 0, lastOut = self + 1;
  for (int64_t base : l.base)
    for (int64_t offset : l.free) {
      int64_t first = (base + offset) >> unitShift;
      for (int64_t u = first; u < first + units; ++u) {
        ShadowUnit &s = shadow[u];
        if (s.writer != lastWriter) {
          lastWriter = s.writer;
          // A same-lane writer is ordered, but its result takes until it
          // finishes; another lane's must be ordered by dependencies.
          if (uint32_t w = lastWriter - 1; lastWriter && laneOf[w] == lane)
            ready = std::max(ready, finish[w]);
          else if (lastWriter && seqOf[w] > clock[laneOf[w]])
            return race(index, *l.space, u, false, w, true);
        }
        if (s.reader != lastIn) {
          lastIn = s.reader;
          lastOut = addReader(lastIn, self, lane);
        }
        s.reader = lastOut;
      }
    }
  return Error::success();
}

Error Simulator::State::scanWrites(int64_t index, unsigned lane,
                                   const Layout &l) {
  ShadowUnit *shadow = l.space->shadow.data;
  uint32_t self = static_cast<uint32_t>(index), tag = self + 1;
  int64_t units = l.elementBytes >> unitShift;
  uint32_t lastWriter = tag, lastReader = 0;
  for (int64_t base : l.base)
    for (int64_t offset : l.free) {
      int64_t first = (base + offset) >> unitShift;
      for (int64_t u = first; u < first + units; ++u) {
        ShadowUnit &s = shadow[u];
        if (s.writer != lastWriter && s.writer != 0) {
          lastWriter = s.writer;
          if (!ordered(lastWriter - 1, lane))
            return race(index, *l.space, u, true, lastWriter - 1, true);
        }
        if (s.reader != lastReader && s.reader != 0) {
          lastReader = s.reader;
          if (!(lastReader & kReaderSet)) {
            if (lastReader != tag && !ordered(lastReader - 1, lane))
              return race(index, *l.space, u, true, lastReader - 1, false);
          } else {
            for (uint32_t r : readerSets[lastReader & ~kReaderSet])
              if (r != self && !ordered(r, lane))
                return race(index, *l.space, u, true, r, false);
          }
        }
        s.writer = tag;
        s.reader = 0;
      }
    }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

template <typename Fn>
void Simulator::State::account(int64_t layer, double start, double end,
                               Fn &&fn) {
  auto update = [&](SimulationStats &s, bool &seen) {
    if (!seen) {
      s.startSeconds = start;
      s.endSeconds = end;
      seen = true;
    }
    s.startSeconds = std::min(s.startSeconds, start);
    s.endSeconds = std::max(s.endSeconds, end);
    ++s.instructions;
    fn(s);
  };
  update(total, totalSeen);
  if (layer >= 0) {
    bool seen = layerSeen[layer];
    update(layers[layer], seen);
    layerSeen[layer] = seen;
  }
}

Error Simulator::State::execute(int64_t index) {
  const Instruction &ins = trace.instructions[index];
  if (std::string why = checkTraceInstruction(trace, index); !why.empty())
    return error(index, why);
  unsigned lane = laneOfInstruction(ins);

  // The vector clock: the lane's previous instruction and every dep.
  std::copy_n(&laneClocks[lane * lanes], lanes, clock.begin());
  for (int64_t dep : ins.deps) {
    const uint32_t *row = &clocks[static_cast<size_t>(clockRow[dep]) * lanes];
    for (unsigned l = 0; l < lanes; ++l)
      clock[l] = std::max(clock[l], row[l]);
  }
  ++clock[lane];
  std::copy(clock.begin(), clock.end(), &laneClocks[lane * lanes]);
  laneOf[index] = static_cast<uint16_t>(lane);
  seqOf[index] = clock[lane];
  if (clockRow[index] >= 0)
    std::copy(clock.begin(), clock.end(),
              &clocks[static_cast<size_t>(clockRow[index]) * lanes]);

  for (auto [i, ap] : enumerate(
           concat<const AccessPattern>(ArrayRef(ins.dst), ArrayRef(ins.srcs))))
    if (ap.getElements() > kMaxSimulatedElements)
      return error(index, formatv("{0} has {1} elements: the simulator runs "
                                  "at most 2^26 per access pattern",
                                  i ? formatv("srcs[{0}]", i - 1).str()
                                    : std::string("dst"),
                                  ap.getElements()));
  layout(ins.dst, dstLayout);
  size_t srcCount = ins.srcs.size();
  for (size_t i = 0; i < srcCount; ++i)
    layout(ins.srcs[i], srcLayouts[i]);

  double ready = laneFree[lane];
  for (size_t i = 0; i < srcCount; ++i)
    if (Error e = scanReads(index, lane, srcLayouts[i], ready))
      return e;
  // An accumulating matmul reads what it adds to.
  if (ins.opcode == Opcode::Matmul && ins.accumulate)
    if (Error e = scanReads(index, lane, dstLayout, ready))
      return e;
  if (Error e = scanWrites(index, lane, dstLayout))
    return e;
  for (int64_t dep : ins.deps)
    ready = std::max(ready, finish[dep]);

  // The effect and the cost (in cycles of the engine, or seconds for DMA).
  int64_t partitions = ins.dst.partitions;
  int64_t n = ins.dst.getFreeElements();
  int64_t minCycles = machine.engineMinCycles;
  double cycles = 0;
  uint64_t macs = 0;
  auto fill = [&](std::vector<float> &v, const Layout &l) {
    v.resize(l.getElements());
    gather(l, v.data());
  };
  switch (ins.opcode) {
  case Opcode::DmaCopy:
    fill(a, srcLayouts[0]);
    scatter(dstLayout, a.data());
    break;
  case Opcode::Matmul:
  case Opcode::Transpose: {
    const AccessPattern &stationary = ins.srcs[0];
    int64_t k = stationary.partitions, m = stationary.getFreeElements();
    bool bf16 = machine.bf16Matmul;
    bool fp32 =
        !bf16 &&
        (stationary.type == DataType::F32 ||
         (ins.opcode == Opcode::Matmul && ins.srcs[1].type == DataType::F32));
    fill(a, srcLayouts[0]);
    if (bf16)
      for (float &x : a)
        x = roundToBf16(x);
    if (ins.opcode == Opcode::Transpose) {
      // A matmul of the source (stationary, K = P partitions, M = F) with
      // the identity (moving, N = P).
      c.resize(k * m);
      for (int64_t p = 0; p < k; ++p)
        for (int64_t f = 0; f < m; ++f)
          c[f * k + p] = a[p * m + f];
      cycles = std::max(std::min(machine.matmulMinCycles, m), k);
    } else {
      fill(b, srcLayouts[1]);
      if (bf16)
        for (float &x : b)
          x = roundToBf16(x);
      int64_t cols = ins.srcs[1].getFreeElements();
      c.assign(m * cols, 0.0f);
      // Each output sums its products in order of k, in fp32 (four rows
      // of k per pass only save loads and stores: the order is kept).
      int64_t kk = 0;
      for (; kk + 4 <= k; kk += 4)
        for (int64_t mm = 0; mm < m; ++mm) {
          float s0 = a[kk * m + mm], s1 = a[(kk + 1) * m + mm],
                s2 = a[(kk + 2) * m + mm], s3 = a[(kk + 3) * m + mm];
          float *row = &c[mm * cols];
          const float *b0 = &b[kk * cols], *b1 = b0 + cols, *b2 = b1 + cols,
                      *b3 = b2 + cols;
          for (int64_t nn = 0; nn < cols; ++nn) {
            float v = row[nn];
            v += s0 * b0[nn];
            v += s1 * b1[nn];
            v += s2 * b2[nn];
            v += s3 * b3[nn];
            row[nn] = v;
          }
        }
      for (; kk < k; ++kk)
        for (int64_t mm = 0; mm < m; ++mm) {
          float s = a[kk * m + mm];
          float *row = &c[mm * cols];
          const float *moving = &b[kk * cols];
          for (int64_t nn = 0; nn < cols; ++nn)
            row[nn] += s * moving[nn];
        }
      if (ins.accumulate) {
        fill(s0, dstLayout);
        for (size_t i = 0; i < c.size(); ++i)
          c[i] = s0[i] + c[i];
      }
      cycles = std::max(std::min(machine.matmulMinCycles, m), cols);
      macs = static_cast<uint64_t>(k) * m * cols;
    }
    if (fp32)
      cycles *= machine.fp32MatmulFactor;
    scatter(dstLayout, c.data());
    break;
  }
  case Opcode::Activation: {
    fill(a, srcLayouts[0]);
    if (ins.srcs.size() > 1)
      fill(s0, srcLayouts[1]);
    for (int64_t p = 0; p < partitions; ++p) {
      float *row = &a[p * n];
      applyScalar(AluOp::Multiply, row, ins.scale, n);
      applyScalar(AluOp::Add, row, ins.srcs.size() > 1 ? s0[p] : ins.imm0, n);
      applyFunction(ins.function, row, n);
    }
    scatter(dstLayout, a.data());
    cycles = n;
    break;
  }
  case Opcode::TensorTensor: {
    fill(a, srcLayouts[0]);
    fill(b, srcLayouts[1]);
    applyVector(ins.alu0, a.data(), b.data(), a.size());
    scatter(dstLayout, a.data());
    // One stream per SBUF input: one input in PSUM streams at N per cycle
    // (the PSUM one alongside), two SBUF inputs at 2N, except the bf16
    // add/multiply/subtract of contiguous inputs.
    bool onePsum = (ins.srcs[0].memory == Memory::Psum) !=
                   (ins.srcs[1].memory == Memory::Psum);
    auto contiguous = [](const AccessPattern &ap) {
      int64_t expected = 1;
      for (auto it = ap.dims.rbegin(); it != ap.dims.rend(); ++it) {
        if (it->second > 1 && it->first != expected)
          return false;
        expected *= it->second;
      }
      return true;
    };
    bool fastBf16 = ins.srcs[0].type == DataType::BF16 &&
                    ins.srcs[1].type == DataType::BF16 &&
                    ins.dst.type == DataType::BF16 &&
                    (ins.alu0 == AluOp::Add || ins.alu0 == AluOp::Multiply ||
                     ins.alu0 == AluOp::Subtract) &&
                    contiguous(ins.srcs[0]) && contiguous(ins.srcs[1]);
    cycles = onePsum || fastBf16 ? n : 2 * n;
    break;
  }
  case Opcode::TensorScalar: {
    fill(a, srcLayouts[0]);
    if (ins.srcs.size() > 1)
      fill(s0, srcLayouts[1]);
    if (ins.srcs.size() > 2)
      fill(s1, srcLayouts[2]);
    for (int64_t p = 0; p < partitions; ++p) {
      float *row = &a[p * n];
      applyScalar(ins.alu0, row, ins.srcs.size() > 1 ? s0[p] : ins.imm0, n);
      if (ins.alu1 != AluOp::Bypass)
        applyScalar(ins.alu1, row, ins.srcs.size() > 2 ? s1[p] : ins.imm1, n);
    }
    scatter(dstLayout, a.data());
    cycles = n;
    break;
  }
  case Opcode::TensorReduce: {
    const AccessPattern &src = ins.srcs[0];
    fill(a, srcLayouts[0]);
    int64_t inner = 1;
    for (size_t d = src.dims.size() - ins.reduceDims; d < src.dims.size(); ++d)
      inner *= src.dims[d].second;
    c.resize(partitions * n);
    forAlu(ins.alu0, [&](auto f) {
      for (int64_t o = 0; o < partitions * n; ++o) {
        const float *group = &a[o * inner];
        float acc = group[0];
        for (int64_t i = 1; i < inner; ++i)
          acc = f(acc, group[i]);
        c[o] = acc;
      }
    });
    scatter(dstLayout, c.data());
    int64_t streamed = src.getFreeElements();
    bool halved = src.type == DataType::BF16 &&
                  ins.dst.type == DataType::BF16 &&
                  (ins.alu0 == AluOp::Add || ins.alu0 == AluOp::Max);
    cycles = halved ? (streamed + 1) / 2 : streamed;
    break;
  }
  case Opcode::TensorCopy:
    fill(a, srcLayouts[0]);
    scatter(dstLayout, a.data());
    cycles = n;
    break;
  case Opcode::Memset:
    a.assign(partitions * n, ins.imm0);
    scatter(dstLayout, a.data());
    cycles = ins.imm0 == 0 && ins.dst.type == DataType::BF16 ? (n + 1) / 2 : n;
    break;
  case Opcode::Select:
    fill(a, srcLayouts[0]);
    fill(b, srcLayouts[1]);
    fill(c, srcLayouts[2]);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = a[i] != 0.0f ? b[i] : c[i];
    scatter(dstLayout, a.data());
    // Three input streams ([choice]: tensor_tensor's rule, one stream per
    // input).
    cycles = 3 * n;
    break;
  }

  // An SBUF/PSUM access whose innermost free stride exceeds 16 bytes gets
  // half its interface's bandwidth: streaming takes twice as long. Small
  // instructions cost the engine's minimum initiation interval.
  if (ins.engine != Engine::Dma) {
    bool wide = hasWideStride(ins.dst);
    for (const AccessPattern &src : ins.srcs)
      wide |= hasWideStride(src);
    if (wide)
      cycles *= 2;
    if (isComputeEngine(ins.engine))
      cycles = std::max<double>(cycles, minCycles);
  }

  // Time: the lane's turn, the deps, the same-lane writers of what it
  // reads, and the shared ports and DRAM.
  bool touchesSbuf = ins.dst.memory == Memory::Sbuf,
       touchesPsum = ins.dst.memory == Memory::Psum;
  for (const AccessPattern &src : ins.srcs) {
    touchesSbuf |= src.memory == Memory::Sbuf;
    touchesPsum |= src.memory == Memory::Psum;
  }
  bool sbufPort = touchesSbuf && (ins.engine == Engine::Vector ||
                                  ins.engine == Engine::GpSimd);
  bool psumPort = touchesPsum && (ins.engine == Engine::Vector ||
                                  ins.engine == Engine::Scalar);
  if (sbufPort)
    ready = std::max(ready, sbufPortFree);
  if (psumPort)
    ready = std::max(ready, psumPortFree);
  double start = ready, busy, end;
  uint64_t dramRead = 0, dramWrite = 0;
  if (ins.opcode == Opcode::DmaCopy) {
    const Layout &src = srcLayouts[0];
    int64_t elements = src.getElements();
    // Runs: stretches of elements contiguous on both sides (in the
    // device's address map, where SBUF is partition-major).
    int64_t runs = 0;
    {
      size_t sp = 0, sf = 0, dp = 0, df = 0;
      int64_t prevSrc = 0, prevDst = 0;
      for (int64_t i = 0; i < elements; ++i) {
        int64_t so = src.base[sp] + src.free[sf];
        int64_t dO = dstLayout.base[dp] + dstLayout.free[df];
        if (i == 0 || so != prevSrc + src.elementBytes ||
            dO != prevDst + dstLayout.elementBytes)
          ++runs;
        prevSrc = so;
        prevDst = dO;
        if (++sf == src.free.size()) {
          sf = 0;
          ++sp;
        }
        if (++df == dstLayout.free.size()) {
          df = 0;
          ++dp;
        }
      }
    }
    double moved = static_cast<double>(elements) *
                   std::max(src.elementBytes, dstLayout.elementBytes);
    double runOverhead = static_cast<double>(runs) *
                         (static_cast<double>(machine.dmaEfficientBytes) / 4);
    double queueEnd = start + machine.dmaFixedSeconds +
                      (moved + runOverhead) / machine.dmaQueueBytesPerSecond;
    if (ins.srcs[0].memory == Memory::Dram)
      dramRead = static_cast<uint64_t>(elements) * src.elementBytes;
    if (ins.dst.memory == Memory::Dram)
      dramWrite = static_cast<uint64_t>(elements) * dstLayout.elementBytes;
    end = queueEnd;
    if (dramRead + dramWrite) {
      // DRAM serves the core's transfers one after another at its share
      // of the bandwidth: never faster than the bytes allow.
      double dramStart = std::max(start, dramFree);
      dramFree = dramStart + static_cast<double>(dramRead + dramWrite) /
                                 machine.getDramBytesPerSecondPerCore();
      end = std::max(end, dramFree);
    }
    busy = end - start;
    laneFree[lane] = end;
  } else {
    double clockHz = ins.engine == Engine::Tensor   ? machine.tensorClockHz
                     : ins.engine == Engine::Vector ? machine.vectorClockHz
                     : ins.engine == Engine::Scalar ? machine.scalarClockHz
                                                    : machine.gpsimdClockHz;
    busy = cycles / clockHz;
    laneFree[lane] = start + busy;
    // A compute engine's result is there once its SBUF/PSUM access
    // overhead has passed too; the engine itself moves on (pipelined).
    end = start + busy +
          (isComputeEngine(ins.engine) ? machine.engineAccessCycles / clockHz
                                       : 0);
    if (sbufPort)
      sbufPortFree = start + busy;
    if (psumPort)
      psumPortFree = start + busy;
  }
  finish[index] = end;
  latency = std::max(latency, end);

  uint64_t copyBytes =
      static_cast<uint64_t>(ins.dst.getElements()) * ins.dst.getElementBytes();
  account(ins.layer, start, end, [&](SimulationStats &s) {
    EngineStats &engine = s.engines[static_cast<size_t>(ins.engine)];
    engine.busySeconds += busy;
    ++engine.instructions;
    s.macs += macs;
    if (ins.engine == Engine::Tensor)
      s.tensorCycles += cycles;
    s.dramReadBytes += dramRead;
    s.dramWriteBytes += dramWrite;
    size_t cause = static_cast<size_t>(ins.cause);
    if (ins.opcode == Opcode::DmaCopy) {
      CopyCounts &copies =
          dramRead + dramWrite ? s.offchipCopies[cause] : s.onchipCopies[cause];
      ++copies.count;
      copies.bytes += copyBytes;
    } else if (ins.cause != Cause::None) {
      ++s.onchipCopies[cause].count;
      s.onchipCopies[cause].bytes += copyBytes;
    }
  });
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Simulator
//===----------------------------------------------------------------------===//

Simulator::Simulator(Trace trace)
    : state(std::make_unique<State>(std::move(trace))) {
  state->layers.resize(state->trace.header.layers.size());
  state->layerSeen.assign(state->layers.size(), false);
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator &&) = default;
Simulator &Simulator::operator=(Simulator &&) = default;

const Trace &Simulator::getTrace() const { return state->trace; }

Error Simulator::writeDram(int64_t address, ArrayRef<uint8_t> bytes) {
  if (Error e = state->checkDramRange(address, bytes.size()))
    return e;
  if (!bytes.empty())
    std::memcpy(state->dram.bytes.data + address, bytes.data(), bytes.size());
  return Error::success();
}

Error Simulator::readDram(int64_t address,
                          MutableArrayRef<uint8_t> bytes) const {
  if (Error e = state->checkDramRange(address, bytes.size()))
    return e;
  if (!bytes.empty())
    std::memcpy(bytes.data(), state->dram.bytes.data + address, bytes.size());
  return Error::success();
}

Error Simulator::loadWeights(ArrayRef<uint8_t> bytes) {
  const TraceHeader &h = state->trace.header;
  if (static_cast<int64_t>(bytes.size()) != h.weightsBytes)
    return createStringError(
        formatv("the weights are {0} bytes, the trace's weights_bytes {1}",
                bytes.size(), h.weightsBytes)
            .str());
  return writeDram(h.weightsAddress, bytes);
}

namespace {
Expected<int64_t> getTensorElements(const TraceTensor &tensor) {
  int64_t n = 1;
  for (int64_t d : tensor.shape)
    if (d < 1 || __builtin_mul_overflow(n, d, &n))
      return createStringError(
          formatv("tensor '{0}': its shape is not a list of positive sizes",
                  tensor.name)
              .str());
  return n;
}
} // namespace

Error Simulator::writeTensor(const TraceTensor &tensor,
                             ArrayRef<float> values) {
  Expected<int64_t> n = getTensorElements(tensor);
  if (!n)
    return n.takeError();
  if (static_cast<int64_t>(values.size()) != *n)
    return createStringError(formatv("tensor '{0}' has {1} elements, not {2}",
                                     tensor.name, *n, values.size())
                                 .str());
  std::vector<uint8_t> bytes;
  if (tensor.type == DataType::F32) {
    bytes.resize(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
  } else {
    bytes.resize(values.size() * 2);
    for (auto [i, v] : enumerate(values)) {
      uint16_t bits = floatToBf16(v);
      std::memcpy(&bytes[2 * i], &bits, 2);
    }
  }
  return writeDram(tensor.address, bytes);
}

Expected<std::vector<float>>
Simulator::readTensor(const TraceTensor &tensor) const {
  Expected<int64_t> n = getTensorElements(tensor);
  if (!n)
    return n.takeError();
  int64_t elementBytes = tensor.type == DataType::F32 ? 4 : 2;
  if (*n > (int64_t(1) << 40) / elementBytes)
    return createStringError(
        formatv("tensor '{0}' is too large", tensor.name).str());
  std::vector<uint8_t> bytes(*n * elementBytes);
  if (Error e = readDram(tensor.address, bytes))
    return std::move(e);
  std::vector<float> values(*n);
  for (int64_t i = 0; i < *n; ++i) {
    if (tensor.type == DataType::F32) {
      std::memcpy(&values[i], &bytes[4 * i], 4);
    } else {
      uint16_t bits;
      std::memcpy(&bits, &bytes[2 * i], 2);
      values[i] = bf16ToFloat(bits);
    }
  }
  return values;
}

Error Simulator::run() {
  State &s = *state;
  if (Error e = s.prepare())
    return e;
  if (s.ran)
    return createStringError("the trace has already run");
  s.ran = true;
  const std::vector<Instruction> &instructions = s.trace.instructions;
  int64_t count = instructions.size();
  if (count >= int64_t(kReaderSet) - 1)
    return createStringError(
        formatv("{0} instructions: the simulator runs at most 2^31 - 2", count)
            .str());

  // The shadow's unit: 2 bytes when some access is bf16 (two bf16
  // elements of one word may belong to different writers), else 4.
  s.unitShift = 2;
  for (const Instruction &ins : instructions) {
    bool bf16 = ins.dst.type == DataType::BF16;
    for (const AccessPattern &src : ins.srcs)
      bf16 |= src.type == DataType::BF16;
    if (bf16) {
      s.unitShift = 1;
      break;
    }
  }
  for (Space *space : {&s.sbuf, &s.psum, &s.dram})
    if (!space->shadow.allocate(space->bytes.size >> s.unitShift))
      return createStringError("cannot allocate the simulator's shadow of "
                               "the memories");

  s.lanes = kComputeLanes + static_cast<unsigned>(s.machine.dmaQueues);
  s.laneOf.assign(count, 0);
  s.seqOf.assign(count, 0);
  s.finish.assign(count, 0);
  s.clockRow.assign(count, -1);
  // Only the clocks of instructions something depends on are kept.
  int32_t rows = 0;
  for (const Instruction &ins : instructions)
    for (int64_t dep : ins.deps)
      if (dep >= 0 && dep < count && s.clockRow[dep] < 0)
        s.clockRow[dep] = rows++;
  s.clocks.assign(static_cast<size_t>(rows) * s.lanes, 0);
  s.laneClocks.assign(static_cast<size_t>(s.lanes) * s.lanes, 0);
  s.clock.assign(s.lanes, 0);
  s.laneFree.assign(s.lanes, 0);

  for (int64_t i = 0; i < count; ++i)
    if (Error e = s.execute(i))
      return e;
  return Error::success();
}

const SimulationStats &Simulator::getTotal() const { return state->total; }

ArrayRef<SimulationStats> Simulator::getLayers() const { return state->layers; }

double Simulator::getLatencySeconds() const { return state->latency; }
