//===- Trace.cpp - the inferentia instruction trace -----------------------===//
//
// The trace's names, its JSON-lines writer and reader, and the legality
// rules of instructions. The format: docs/Targets/InferentiaTrace.md; the
// rules and their sources: docs/Targets/Inferentia.md.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Inferentia/Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace llvm;
using namespace dlc::inferentia;
namespace inf = dlc::inferentia;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

StringRef inf::getName(Memory memory) {
  switch (memory) {
  case Memory::Dram:
    return "dram";
  case Memory::Sbuf:
    return "sbuf";
  case Memory::Psum:
    return "psum";
  }
  llvm_unreachable("unknown memory");
}

StringRef inf::getName(DataType type) {
  switch (type) {
  case DataType::F32:
    return "f32";
  case DataType::BF16:
    return "bf16";
  }
  llvm_unreachable("unknown data type");
}

StringRef inf::getName(Engine engine) {
  switch (engine) {
  case Engine::Tensor:
    return "tensor";
  case Engine::Vector:
    return "vector";
  case Engine::Scalar:
    return "scalar";
  case Engine::GpSimd:
    return "gpsimd";
  case Engine::Dma:
    return "dma";
  }
  llvm_unreachable("unknown engine");
}

StringRef inf::getName(Opcode opcode) {
  switch (opcode) {
  case Opcode::DmaCopy:
    return "dma_copy";
  case Opcode::Matmul:
    return "matmul";
  case Opcode::Transpose:
    return "transpose";
  case Opcode::Activation:
    return "activation";
  case Opcode::TensorTensor:
    return "tensor_tensor";
  case Opcode::TensorScalar:
    return "tensor_scalar";
  case Opcode::TensorReduce:
    return "tensor_reduce";
  case Opcode::TensorCopy:
    return "tensor_copy";
  case Opcode::Memset:
    return "memset";
  case Opcode::Select:
    return "select";
  }
  llvm_unreachable("unknown opcode");
}

StringRef inf::getName(AluOp op) {
  switch (op) {
  case AluOp::Bypass:
    return "bypass";
  case AluOp::Add:
    return "add";
  case AluOp::Subtract:
    return "subtract";
  case AluOp::Multiply:
    return "multiply";
  case AluOp::Divide:
    return "divide";
  case AluOp::Max:
    return "max";
  case AluOp::Min:
    return "min";
  case AluOp::IsEqual:
    return "is_equal";
  case AluOp::NotEqual:
    return "not_equal";
  case AluOp::IsGt:
    return "is_gt";
  case AluOp::IsGe:
    return "is_ge";
  case AluOp::IsLt:
    return "is_lt";
  case AluOp::IsLe:
    return "is_le";
  }
  llvm_unreachable("unknown ALU operation");
}

StringRef inf::getName(ActivationFunction function) {
  using F = ActivationFunction;
  switch (function) {
  case F::Identity:
    return "identity";
  case F::Relu:
    return "relu";
  case F::Exp:
    return "exp";
  case F::Log:
    return "log";
  case F::Tanh:
    return "tanh";
  case F::Sigmoid:
    return "sigmoid";
  case F::Sqrt:
    return "sqrt";
  case F::Rsqrt:
    return "rsqrt";
  case F::Reciprocal:
    return "reciprocal";
  case F::Square:
    return "square";
  case F::Abs:
    return "abs";
  case F::Neg:
    return "neg";
  case F::Erf:
    return "erf";
  }
  llvm_unreachable("unknown activation function");
}

StringRef inf::getName(Cause cause) {
  switch (cause) {
  case Cause::None:
    return "none";
  case Cause::Load:
    return "load";
  case Cause::Store:
    return "store";
  case Cause::Spill:
    return "spill";
  case Cause::Relayout:
    return "relayout";
  }
  llvm_unreachable("unknown cause");
}

namespace {
template <typename E> ArrayRef<E> enumerators();
template <> ArrayRef<Memory> enumerators() {
  static const Memory all[] = {Memory::Dram, Memory::Sbuf, Memory::Psum};
  return all;
}
template <> ArrayRef<DataType> enumerators() {
  static const DataType all[] = {DataType::F32, DataType::BF16};
  return all;
}
template <> ArrayRef<Engine> enumerators() {
  static const Engine all[] = {Engine::Tensor, Engine::Vector, Engine::Scalar,
                               Engine::GpSimd, Engine::Dma};
  return all;
}
template <> ArrayRef<Opcode> enumerators() {
  static const Opcode all[] = {Opcode::DmaCopy,      Opcode::Matmul,
                               Opcode::Transpose,    Opcode::Activation,
                               Opcode::TensorTensor, Opcode::TensorScalar,
                               Opcode::TensorReduce, Opcode::TensorCopy,
                               Opcode::Memset,       Opcode::Select};
  return all;
}
template <> ArrayRef<AluOp> enumerators() {
  static const AluOp all[] = {AluOp::Bypass,   AluOp::Add,     AluOp::Subtract,
                              AluOp::Multiply, AluOp::Divide,  AluOp::Max,
                              AluOp::Min,      AluOp::IsEqual, AluOp::NotEqual,
                              AluOp::IsGt,     AluOp::IsGe,    AluOp::IsLt,
                              AluOp::IsLe};
  return all;
}
template <> ArrayRef<ActivationFunction> enumerators() {
  using F = ActivationFunction;
  static const F all[] = {F::Identity,   F::Relu,    F::Exp,  F::Log,
                          F::Tanh,       F::Sigmoid, F::Sqrt, F::Rsqrt,
                          F::Reciprocal, F::Square,  F::Abs,  F::Neg,
                          F::Erf};
  return all;
}
template <> ArrayRef<Cause> enumerators() {
  static const Cause all[] = {Cause::None, Cause::Load, Cause::Store,
                              Cause::Spill, Cause::Relayout};
  return all;
}
} // namespace

template <typename E> std::optional<E> inf::parseEnum(StringRef name) {
  for (E e : enumerators<E>())
    if (getName(e) == name)
      return e;
  return std::nullopt;
}

template <typename E> std::string inf::getNames() {
  std::string names;
  for (E e : enumerators<E>()) {
    if (!names.empty())
      names += ", ";
    names += getName(e);
  }
  return names;
}

#define INFERENTIA_INSTANTIATE(E)                                              \
  template std::optional<E> inf::parseEnum<E>(StringRef);                      \
  template std::string inf::getNames<E>();
INFERENTIA_INSTANTIATE(Memory)
INFERENTIA_INSTANTIATE(DataType)
INFERENTIA_INSTANTIATE(Engine)
INFERENTIA_INSTANTIATE(Opcode)
INFERENTIA_INSTANTIATE(AluOp)
INFERENTIA_INSTANTIATE(ActivationFunction)
INFERENTIA_INSTANTIATE(Cause)
#undef INFERENTIA_INSTANTIATE

Engine inf::getDefaultEngine(Opcode opcode) {
  switch (opcode) {
  case Opcode::DmaCopy:
    return Engine::Dma;
  case Opcode::Matmul:
  case Opcode::Transpose:
    return Engine::Tensor;
  case Opcode::Activation:
    return Engine::Scalar;
  default:
    return Engine::Vector;
  }
}

bool inf::canRun(Engine engine, Opcode opcode) {
  switch (opcode) {
  case Opcode::DmaCopy:
    return engine == Engine::Dma;
  case Opcode::Matmul:
  case Opcode::Transpose:
    return engine == Engine::Tensor;
  case Opcode::Activation:
    return engine == Engine::Scalar;
  case Opcode::TensorTensor:
  case Opcode::Memset:
  case Opcode::Select:
    return engine == Engine::Vector || engine == Engine::GpSimd;
  case Opcode::TensorScalar:
  case Opcode::TensorCopy:
    return engine == Engine::Vector || engine == Engine::Scalar ||
           engine == Engine::GpSimd;
  case Opcode::TensorReduce:
    return engine == Engine::Vector;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Access patterns
//===----------------------------------------------------------------------===//

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r))
    return kInt64Max;
  return r;
}

/// The element offsets one partition's pattern spans, [lo, hi] (in
/// elements, from the first element), without overflow.
std::pair<__int128, __int128> elementSpan(const AccessPattern &ap) {
  __int128 lo = 0, hi = 0;
  for (auto [stride, size] : ap.dims) {
    __int128 span = static_cast<__int128>(stride) * (size - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

StringRef memoryTitle(Memory memory) {
  switch (memory) {
  case Memory::Dram:
    return "DRAM";
  case Memory::Sbuf:
    return "SBUF";
  case Memory::Psum:
    return "PSUM";
  }
  return "?";
}

StringRef engineTitle(Engine engine) {
  switch (engine) {
  case Engine::Tensor:
    return "the tensor engine";
  case Engine::Vector:
    return "the vector engine";
  case Engine::Scalar:
    return "the scalar engine";
  case Engine::GpSimd:
    return "the GpSimd engine";
  case Engine::Dma:
    return "DMA";
  }
  return "?";
}

/// The most elements one pattern may hold (per partition and in all):
/// keeps every count and byte offset within int64.
constexpr int64_t kMaxElements = int64_t(1) << 32;
/// DRAM patterns are DMA descriptors' element lists, not bound by the
/// engines' max_free_dims.
constexpr size_t kMaxDramDims = 8;
/// A compute engine streams at most this many elements per partition from
/// SBUF (NKI architecture guide: "up to 64K elements for SBUF").
constexpr int64_t kMaxSbufFreeElements = 65536;

} // namespace

int64_t AccessPattern::getFreeElements() const {
  int64_t n = 1;
  for (auto [stride, size] : dims)
    n = saturatingMul(n, size);
  return n;
}

int64_t AccessPattern::getElements() const {
  return saturatingMul(partitions, getFreeElements());
}

std::pair<int64_t, int64_t> AccessPattern::getByteExtent() const {
  auto [lo, hi] = elementSpan(*this);
  __int128 bytes = getElementBytes();
  auto clamp = [](__int128 v) {
    return static_cast<int64_t>(std::clamp<__int128>(
        v, std::numeric_limits<int64_t>::min(), kInt64Max));
  };
  return {clamp(lo * bytes), clamp((hi + 1) * bytes)};
}

std::string inf::checkAccessPattern(const Machine &machine,
                                    const AccessPattern &ap, Engine engine) {
  if (ap.partitions < 1)
    return formatv("{0} partitions: expected at least 1", ap.partitions).str();
  for (auto [i, dim] : enumerate(ap.dims))
    if (dim.second < 1)
      return formatv("dims[{0}]: size {1} must be positive", i, dim.second)
          .str();
  bool dram = ap.memory == Memory::Dram;
  if (dram) {
    if (ap.startPartition != 0)
      return formatv("a DRAM pattern starts at partition 0 (it has no "
                     "partitions of its own), not {0}",
                     ap.startPartition)
          .str();
    if (ap.dims.size() > kMaxDramDims)
      return formatv("{0} free dims: a DRAM pattern has at most {1}",
                     ap.dims.size(), kMaxDramDims)
          .str();
  } else {
    if (ap.partitionStride != 0)
      return "partition_stride applies to DRAM patterns only";
    if (static_cast<int64_t>(ap.dims.size()) > machine.maxFreeDims)
      return formatv("{0} free dims exceed max_free_dims ({1})", ap.dims.size(),
                     machine.maxFreeDims)
          .str();
    if (engine == Engine::Dma) {
      if (ap.partitions > machine.partitions || ap.startPartition < 0 ||
          ap.startPartition > machine.partitions - ap.partitions)
        return formatv("partitions {0}..{1} are outside the {2} partitions",
                       ap.startPartition, ap.startPartition + ap.partitions - 1,
                       machine.partitions)
            .str();
    } else if (std::string why = checkPartitionRange(machine, ap.startPartition,
                                                     ap.partitions);
               !why.empty()) {
      return why;
    }
  }
  int64_t free = ap.getFreeElements();
  if (free > kMaxElements || ap.getElements() > kMaxElements)
    return formatv("{0} partitions of {1} elements: at most 2^32 elements",
                   ap.partitions, free)
        .str();
  int64_t bytes = ap.getElementBytes();
  if (ap.address < 0 || ap.address % bytes)
    return formatv("address {0} must be a non-negative multiple of the "
                   "element size ({1} bytes)",
                   ap.address, bytes)
        .str();
  auto [loElement, hiElement] = elementSpan(ap);
  __int128 lo = ap.address + loElement * bytes;
  __int128 hi = ap.address + (hiElement + 1) * bytes;
  if (dram) {
    __int128 spread =
        static_cast<__int128>(ap.partitions - 1) * ap.partitionStride * bytes;
    (spread < 0 ? lo : hi) += spread;
    if (lo < 0 || hi > machine.dramBytes)
      return formatv("bytes {0}..{1} are outside DRAM ({2} bytes)",
                     static_cast<int64_t>(std::max<__int128>(lo, -kInt64Max)),
                     static_cast<int64_t>(std::min<__int128>(hi, kInt64Max)) -
                         1,
                     machine.dramBytes)
          .str();
  } else {
    int64_t limit = ap.memory == Memory::Sbuf ? machine.sbufPartitionBytes
                                              : machine.psumPartitionBytes;
    if (lo < 0 || hi > limit)
      return formatv("bytes {0}..{1} of each partition are outside {2}'s "
                     "{3} bytes per partition",
                     static_cast<int64_t>(std::max<__int128>(lo, -kInt64Max)),
                     static_cast<int64_t>(std::min<__int128>(hi, kInt64Max)) -
                         1,
                     memoryTitle(ap.memory), limit)
          .str();
    bool compute = engine == Engine::Vector || engine == Engine::Scalar ||
                   engine == Engine::GpSimd;
    int64_t maxFree = ap.memory == Memory::Sbuf
                          ? kMaxSbufFreeElements
                          : machine.psumPartitionBytes / 4;
    if (compute && free > maxFree)
      return formatv("{0} elements per partition: a compute engine streams "
                     "at most {1} from {2}",
                     free, maxFree, memoryTitle(ap.memory))
          .str();
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

namespace {

std::string operandName(int64_t src) {
  return src < 0 ? std::string("dst") : formatv("srcs[{0}]", src).str();
}

/// How many srcs an opcode takes.
std::pair<size_t, size_t> getSrcCount(Opcode opcode) {
  switch (opcode) {
  case Opcode::Memset:
    return {0, 0};
  case Opcode::Matmul:
  case Opcode::TensorTensor:
    return {2, 2};
  case Opcode::Select:
    return {3, 3};
  case Opcode::Activation:
    return {1, 2};
  case Opcode::TensorScalar:
    return {1, 3};
  default:
    return {1, 1};
  }
}

bool isCopy(Opcode opcode) {
  return opcode == Opcode::DmaCopy || opcode == Opcode::TensorCopy ||
         opcode == Opcode::Transpose;
}

std::string describeShape(const AccessPattern &ap) {
  return formatv("{0} partitions x {1} elements", ap.partitions,
                 ap.getFreeElements())
      .str();
}

/// Empty when `operand` (`index`, -1 for dst) may live in its memory for
/// an instruction on `engine`.
std::string checkMemory(const Instruction &ins, int64_t index,
                        const AccessPattern &operand) {
  Memory memory = operand.memory;
  bool write = index < 0;
  std::string name = operandName(index);
  switch (ins.engine) {
  case Engine::Dma:
    if (memory == Memory::Psum)
      return name + ": DMA moves between DRAM and SBUF, not PSUM";
    return "";
  case Engine::Tensor:
    if (write && memory != Memory::Psum)
      return name + ": the tensor engine writes PSUM";
    if (!write && memory != Memory::Sbuf)
      return name + ": the tensor engine reads SBUF";
    return "";
  case Engine::GpSimd:
    if (memory != Memory::Sbuf)
      return formatv("{0}: the GpSimd engine accesses SBUF only, not {1}", name,
                     memoryTitle(memory))
          .str();
    return "";
  case Engine::Vector:
  case Engine::Scalar:
    if (memory == Memory::Dram)
      return formatv("{0}: {1} accesses SBUF and PSUM, not DRAM", name,
                     engineTitle(ins.engine))
          .str();
    return "";
  }
  return "";
}

/// Empty when `src` has `dst`'s partitions and free elements (an
/// elementwise operand) or, with `scalar`, dst's partitions and one
/// element (a per-partition operand).
std::string checkSameShape(const Instruction &ins, int64_t index, bool scalar) {
  const AccessPattern &src = ins.srcs[index];
  int64_t expected = scalar ? 1 : ins.dst.getFreeElements();
  if (src.partitions != ins.dst.partitions || src.getFreeElements() != expected)
    return formatv("{0} has {1}, dst {2}: {3}", operandName(index),
                   describeShape(src), describeShape(ins.dst),
                   scalar ? "a per-partition operand has dst's partitions "
                            "and one element"
                          : "an elementwise operand has dst's partitions and "
                            "free elements")
        .str();
  return "";
}

/// Empty when the fp32 result `dst` of a tensor-engine instruction lies in
/// one PSUM bank.
std::string checkPsumBank(const Machine &machine, const AccessPattern &dst) {
  auto [lo, hi] = dst.getByteExtent();
  int64_t first = dst.address + lo, last = dst.address + hi - 1;
  if (first / machine.psumBankBytes != last / machine.psumBankBytes)
    return formatv("dst: bytes {0}..{1} of each partition cross a PSUM bank "
                   "boundary (banks of {2} bytes): the tensor engine writes "
                   "one bank",
                   first, last, machine.psumBankBytes)
        .str();
  return "";
}

} // namespace

std::string inf::checkInstruction(const Machine &machine,
                                  const Instruction &ins, int64_t index) {
  for (int64_t dep : ins.deps)
    if (dep < 0 || dep >= index)
      return formatv("deps: {0} is not an instruction before this one ({1})",
                     dep, index)
          .str();
  if (!canRun(ins.engine, ins.opcode)) {
    std::string engines;
    for (Engine e : enumerators<Engine>())
      if (canRun(e, ins.opcode))
        engines += (engines.empty() ? "" : " or ") + getName(e).str();
    return formatv("engine '{0}' cannot run {1} (it runs on {2})",
                   getName(ins.engine), getName(ins.opcode), engines)
        .str();
  }
  if (ins.opcode == Opcode::DmaCopy &&
      (ins.queue < 0 || ins.queue >= machine.dmaQueues))
    return formatv("queue {0}: expected 0 to {1}", ins.queue,
                   machine.dmaQueues - 1)
        .str();
  auto [minSrcs, maxSrcs] = getSrcCount(ins.opcode);
  if (ins.srcs.size() < minSrcs || ins.srcs.size() > maxSrcs)
    return formatv("{0} takes {1} srcs, not {2}", getName(ins.opcode),
                   minSrcs == maxSrcs
                       ? std::to_string(minSrcs)
                       : formatv("{0} to {1}", minSrcs, maxSrcs).str(),
                   ins.srcs.size())
        .str();
  if (ins.cause != Cause::None && !isCopy(ins.opcode))
    return formatv("cause '{0}': only copies (dma_copy, tensor_copy, "
                   "transpose) have a cause",
                   getName(ins.cause))
        .str();

  if (std::string why = checkMemory(ins, -1, ins.dst); !why.empty())
    return why;
  for (auto [i, src] : enumerate(ins.srcs))
    if (std::string why = checkMemory(ins, i, src); !why.empty())
      return why;
  if (ins.opcode == Opcode::TensorTensor &&
      ins.srcs[0].memory == Memory::Psum && ins.srcs[1].memory == Memory::Psum)
    return "srcs[0] and srcs[1] are both in PSUM: tensor_tensor reads at most "
           "one operand from PSUM";

  // The tensor engine's limits come first: they explain what the access
  // patterns' checks would only call out of range.
  if (ins.opcode == Opcode::Matmul) {
    const AccessPattern &stationary = ins.srcs[0], &moving = ins.srcs[1];
    if (stationary.partitions != moving.partitions)
      return formatv("srcs[0] (stationary) has {0} partitions and srcs[1] "
                     "(moving) {1}: both hold the contraction dimension K",
                     stationary.partitions, moving.partitions)
          .str();
    int64_t k = stationary.partitions, m = stationary.getFreeElements(),
            n = moving.getFreeElements();
    if (k > machine.partitions)
      return formatv("K = {0} (the partitions of srcs[0] and srcs[1]) exceeds "
                     "the {1} partitions",
                     k, machine.partitions)
          .str();
    if (m > machine.stationaryFreeMax)
      return formatv("M = {0} (the free elements of srcs[0], stationary) "
                     "exceeds stationary_free_max ({1})",
                     m, machine.stationaryFreeMax)
          .str();
    if (n > machine.movingFreeMax)
      return formatv("N = {0} (the free elements of srcs[1], moving) exceeds "
                     "moving_free_max ({1})",
                     n, machine.movingFreeMax)
          .str();
    if (ins.dst.partitions != m || ins.dst.getFreeElements() != n)
      return formatv("dst has {0}, expected M = {1} partitions x N = {2} "
                     "elements",
                     describeShape(ins.dst), m, n)
          .str();
  }
  if (ins.opcode == Opcode::Transpose) {
    const AccessPattern &src = ins.srcs[0];
    int64_t p = src.partitions, f = src.getFreeElements();
    if (f > std::min(machine.partitions, machine.stationaryFreeMax))
      return formatv("srcs[0] has {0} free elements: a transpose's result "
                     "has one partition per source element, at most {1}",
                     f, std::min(machine.partitions, machine.stationaryFreeMax))
          .str();
    if (p > machine.movingFreeMax)
      return formatv("srcs[0] has {0} partitions, more than moving_free_max "
                     "({1}) (the identity it is multiplied by)",
                     p, machine.movingFreeMax)
          .str();
    if (ins.dst.partitions != f || ins.dst.getFreeElements() != p)
      return formatv("dst has {0}, expected {1} partitions x {2} elements "
                     "(srcs[0] transposed)",
                     describeShape(ins.dst), f, p)
          .str();
  }
  if ((ins.opcode == Opcode::Matmul || ins.opcode == Opcode::Transpose) &&
      ins.dst.type != DataType::F32)
    return "dst: the tensor engine writes fp32";

  if (std::string why = checkAccessPattern(machine, ins.dst, ins.engine);
      !why.empty())
    return "dst: " + why;
  for (auto [i, src] : enumerate(ins.srcs))
    if (std::string why = checkAccessPattern(machine, src, ins.engine);
        !why.empty())
      return operandName(i) + ": " + why;

  switch (ins.opcode) {
  case Opcode::DmaCopy:
    if (ins.srcs[0].getElements() != ins.dst.getElements())
      return formatv("srcs[0] has {0} elements and dst {1}: a copy moves "
                     "element i to element i",
                     ins.srcs[0].getElements(), ins.dst.getElements())
          .str();
    break;
  case Opcode::Matmul:
  case Opcode::Transpose:
    if (std::string why = checkPsumBank(machine, ins.dst); !why.empty())
      return why;
    break;
  case Opcode::Activation:
    if (std::string why = checkSameShape(ins, 0, false); !why.empty())
      return why;
    if (ins.srcs.size() > 1)
      if (std::string why = checkSameShape(ins, 1, true); !why.empty())
        return why;
    if (!std::isfinite(ins.scale))
      return "scale must be finite";
    break;
  case Opcode::TensorTensor:
    if (ins.alu0 == AluOp::Bypass)
      return "alu0: tensor_tensor needs an operation, not bypass";
    for (int64_t i : {0, 1})
      if (std::string why = checkSameShape(ins, i, false); !why.empty())
        return why;
    break;
  case Opcode::Select:
    for (int64_t i : {0, 1, 2})
      if (std::string why = checkSameShape(ins, i, false); !why.empty())
        return why;
    break;
  case Opcode::TensorScalar:
    if (ins.alu0 == AluOp::Bypass)
      return "alu0: tensor_scalar needs an operation, not bypass";
    if (ins.srcs.size() == 3 && ins.alu1 == AluOp::Bypass)
      return "srcs[2] is the operand of alu1, which is bypass";
    if (std::string why = checkSameShape(ins, 0, false); !why.empty())
      return why;
    for (size_t i = 1; i < ins.srcs.size(); ++i)
      if (std::string why = checkSameShape(ins, i, true); !why.empty())
        return why;
    break;
  case Opcode::TensorReduce: {
    const AccessPattern &src = ins.srcs[0];
    if (ins.alu0 != AluOp::Add && ins.alu0 != AluOp::Multiply &&
        ins.alu0 != AluOp::Max && ins.alu0 != AluOp::Min)
      return formatv("alu0 '{0}': a reduction is add, multiply, max or min",
                     getName(ins.alu0))
          .str();
    if (ins.reduceDims < 1 ||
        ins.reduceDims > static_cast<int64_t>(src.dims.size()))
      return formatv("reduce_dims {0}: srcs[0] has {1} free dims",
                     ins.reduceDims, src.dims.size())
          .str();
    int64_t outer = 1;
    for (size_t d = 0; d + ins.reduceDims < src.dims.size(); ++d)
      outer *= src.dims[d].second;
    if (ins.dst.partitions != src.partitions ||
        ins.dst.getFreeElements() != outer)
      return formatv("dst has {0}, expected {1} partitions x {2} elements "
                     "(srcs[0] without its {3} innermost free dims)",
                     describeShape(ins.dst), src.partitions, outer,
                     ins.reduceDims)
          .str();
    break;
  }
  case Opcode::TensorCopy:
    if (std::string why = checkSameShape(ins, 0, false); !why.empty())
      return why;
    break;
  case Opcode::Memset:
    break;
  }
  return "";
}

std::string inf::checkTraceInstruction(const Trace &trace, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(trace.instructions.size()))
    return formatv("no instruction {0}", index).str();
  const Instruction &ins = trace.instructions[index];
  int64_t layers = trace.header.layers.size();
  if (ins.layer < -1 || ins.layer >= layers)
    return formatv("layer {0}: the header has {1} layers (or -1 for none)",
                   ins.layer, layers)
        .str();
  // DRAM accesses stay within the bytes the program says it uses.
  Machine machine = trace.header.machine;
  machine.dramBytes = std::min(machine.dramBytes, trace.header.dramBytes);
  return checkInstruction(machine, ins, index);
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

std::string inf::formatShortest(float v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  // Of the forms that read back exactly, the shortest (30, not 3e+01).
  std::string best;
  for (int digits = 1; digits <= 9; ++digits) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits,
                  static_cast<double>(v));
    if (std::strtof(buffer, nullptr) == v &&
        (best.empty() || std::strlen(buffer) < best.size()))
      best = buffer;
  }
  return best;
}

namespace {

/// `v` as JSON: JSON has no infinities or NaN, which are the strings
/// "inf", "-inf", "nan".
std::string formatFloat(float v) {
  if (std::isnan(v) || std::isinf(v))
    return "\"" + formatShortest(v) + "\"";
  return formatShortest(v);
}

std::string formatDouble(double v) {
  if (!std::isfinite(v))
    return std::isnan(v) ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\"");
  std::string best;
  for (int digits = 1; digits <= 17; ++digits) {
    char buffer[40];
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, v);
    if (std::strtod(buffer, nullptr) == v &&
        (best.empty() || std::strlen(buffer) < best.size()))
      best = buffer;
  }
  return best;
}

void writeRaw(json::OStream &j, StringRef key, const std::string &raw) {
  j.attributeBegin(key);
  j.rawValue(raw);
  j.attributeEnd();
}

void writeParameter(json::OStream &j, StringRef key, int64_t v) {
  j.attribute(key, v);
}
void writeParameter(json::OStream &j, StringRef key, double v) {
  writeRaw(j, key, formatDouble(v));
}

void writePattern(json::OStream &j, const AccessPattern &ap) {
  j.object([&] {
    j.attribute("mem", getName(ap.memory));
    if (ap.type != DataType::F32)
      j.attribute("type", getName(ap.type));
    if (ap.memory != Memory::Dram || ap.startPartition != 0)
      j.attribute("start", ap.startPartition);
    j.attribute("partitions", ap.partitions);
    if (ap.memory == Memory::Dram || ap.partitionStride != 0)
      j.attribute("partition_stride", ap.partitionStride);
    j.attribute("addr", ap.address);
    j.attributeArray("dims", [&] {
      for (auto [stride, size] : ap.dims)
        j.array([&] {
          j.value(stride);
          j.value(size);
        });
    });
  });
}

void writeInstruction(json::OStream &j, const Instruction &ins) {
  j.object([&] {
    j.attribute("op", getName(ins.opcode));
    j.attribute("engine", getName(ins.engine));
    if (ins.opcode == Opcode::DmaCopy)
      j.attribute("queue", ins.queue);
    if (!ins.deps.empty())
      j.attributeArray("deps", [&] {
        for (int64_t dep : ins.deps)
          j.value(dep);
      });
    if (ins.layer != -1)
      j.attribute("layer", ins.layer);
    if (ins.cause != Cause::None)
      j.attribute("cause", getName(ins.cause));
    switch (ins.opcode) {
    case Opcode::Matmul:
      j.attribute("accumulate", ins.accumulate);
      break;
    case Opcode::Activation:
      j.attribute("function", getName(ins.function));
      writeRaw(j, "scale", formatFloat(ins.scale));
      writeRaw(j, "imm0", formatFloat(ins.imm0));
      break;
    case Opcode::TensorTensor:
      j.attribute("alu0", getName(ins.alu0));
      break;
    case Opcode::TensorScalar:
      j.attribute("alu0", getName(ins.alu0));
      j.attribute("alu1", getName(ins.alu1));
      writeRaw(j, "imm0", formatFloat(ins.imm0));
      writeRaw(j, "imm1", formatFloat(ins.imm1));
      break;
    case Opcode::TensorReduce:
      j.attribute("alu0", getName(ins.alu0));
      j.attribute("reduce_dims", ins.reduceDims);
      break;
    case Opcode::Memset:
      writeRaw(j, "imm0", formatFloat(ins.imm0));
      break;
    default:
      break;
    }
    j.attributeBegin("dst");
    writePattern(j, ins.dst);
    j.attributeEnd();
    if (!ins.srcs.empty())
      j.attributeArray("srcs", [&] {
        for (const AccessPattern &src : ins.srcs)
          writePattern(j, src);
      });
  });
}

void writeTensors(json::OStream &j, StringRef key,
                  ArrayRef<TraceTensor> tensors) {
  j.attributeArray(key, [&] {
    for (const TraceTensor &t : tensors)
      j.object([&] {
        j.attribute("name", t.name);
        j.attribute("address", t.address);
        j.attributeArray("shape", [&] {
          for (int64_t d : t.shape)
            j.value(d);
        });
        j.attribute("type", getName(t.type));
      });
  });
}

} // namespace

void inf::writeTrace(const Trace &trace, raw_ostream &os) {
  const TraceHeader &h = trace.header;
  {
    json::OStream j(os);
    j.object([&] {
      j.attribute("format", kTraceFormat);
      j.attribute("version", kTraceVersion);
      j.attributeObject("machine", [&] {
#define INFERENTIA_WRITE(member, type, name, value)                            \
  writeParameter(j, name, h.machine.member);
        INFERENTIA_PARAMETERS(INFERENTIA_WRITE)
#undef INFERENTIA_WRITE
      });
      j.attribute("dram_bytes", h.dramBytes);
      writeTensors(j, "inputs", h.inputs);
      writeTensors(j, "outputs", h.outputs);
      j.attribute("weights_file", h.weightsFile);
      j.attribute("weights_address", h.weightsAddress);
      j.attribute("weights_bytes", h.weightsBytes);
      j.attributeArray("layers", [&] {
        for (const TraceLayer &layer : h.layers)
          j.object([&] {
            j.attribute("name", layer.name);
            j.attribute("op", layer.op);
            j.attributeArray("fused", [&] {
              for (const std::string &f : layer.fused)
                j.value(f);
            });
            j.attribute("macs", layer.macs);
          });
      });
      j.attribute("load_store_pairs_removed", h.loadStorePairsRemoved);
      j.attribute("load_store_pairs_total", h.loadStorePairsTotal);
      j.attribute("intermediate_bytes_removed", h.intermediateBytesRemoved);
      j.attribute("intermediate_bytes_total", h.intermediateBytesTotal);
      j.attribute("layout_mode", h.layoutMode);
    });
  }
  os << '\n';
  for (const Instruction &ins : trace.instructions) {
    {
      json::OStream j(os);
      writeInstruction(j, ins);
    }
    os << '\n';
  }
}

json::Object inf::toJSON(const Instruction &instruction) {
  std::string text;
  {
    raw_string_ostream os(text);
    json::OStream j(os);
    writeInstruction(j, instruction);
  }
  // The writer's own output: always one valid object.
  Expected<json::Value> value = json::parse(text);
  if (!value) {
    consumeError(value.takeError());
    return json::Object();
  }
  return std::move(*value->getAsObject());
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {

/// The fields of one JSON object at `path` on `line`, read with errors
/// that name both.
class Fields {
public:
  Fields(const json::Object &object, int64_t line, std::string path)
      : object(object), line(line), path(std::move(path)) {}

  std::string at(StringRef key) const {
    return path.empty() ? key.str() : path + "." + key.str();
  }
  Error error(const Twine &field, const Twine &message) const {
    return createStringError(
        formatv("line {0}: {1}: {2}", line, field.str(), message.str()).str());
  }
  Error error(const Twine &message) const {
    return createStringError(
        path.empty()
            ? formatv("line {0}: {1}", line, message.str()).str()
            : formatv("line {0}: {1}: {2}", line, path, message.str()).str());
  }

  /// Every field must be one of `allowed`.
  Error allowOnly(ArrayRef<StringRef> allowed, const Twine &what) const {
    for (const auto &entry : object)
      if (!is_contained(allowed, StringRef(entry.first)))
        return error(at(entry.first),
                     formatv("unknown field of {0} (expected one of: {1})",
                             what.str(), join(allowed, ", ")));
    return Error::success();
  }

  const json::Value *get(StringRef key) const { return object.get(key); }

  Error missing(StringRef key) const { return error(at(key), "missing"); }

  Error integer(StringRef key, int64_t &out, bool required = false) const {
    const json::Value *v = get(key);
    if (!v)
      return required ? missing(key) : Error::success();
    std::optional<int64_t> i = v->getAsInteger();
    if (!i)
      return error(at(key), "expected an integer");
    out = *i;
    return Error::success();
  }

  Error boolean(StringRef key, bool &out) const {
    const json::Value *v = get(key);
    if (!v)
      return Error::success();
    std::optional<bool> b = v->getAsBoolean();
    if (!b)
      return error(at(key), "expected true or false");
    out = *b;
    return Error::success();
  }

  Error number(StringRef key, float &out) const {
    const json::Value *v = get(key);
    if (!v)
      return Error::success();
    if (std::optional<double> d = v->getAsNumber()) {
      out = static_cast<float>(*d);
      return Error::success();
    }
    std::optional<StringRef> s = v->getAsString();
    if (s && (*s == "inf" || *s == "-inf" || *s == "nan")) {
      out = *s == "nan"   ? std::numeric_limits<float>::quiet_NaN()
            : *s == "inf" ? std::numeric_limits<float>::infinity()
                          : -std::numeric_limits<float>::infinity();
      return Error::success();
    }
    return error(at(key), "expected a number (or \"inf\", \"-inf\", \"nan\")");
  }

  Error string(StringRef key, std::string &out, bool required = false) const {
    const json::Value *v = get(key);
    if (!v)
      return required ? missing(key) : Error::success();
    std::optional<StringRef> s = v->getAsString();
    if (!s)
      return error(at(key), "expected a string");
    out = s->str();
    return Error::success();
  }

  template <typename E>
  Error enumeration(StringRef key, E &out, StringRef what,
                    bool required = false) const {
    const json::Value *v = get(key);
    if (!v)
      return required ? missing(key) : Error::success();
    std::optional<StringRef> s = v->getAsString();
    if (!s)
      return error(at(key), formatv("expected a string naming {0}", what));
    std::optional<E> e = parseEnum<E>(*s);
    if (!e)
      return error(at(key), formatv("unknown {0} '{1}' (expected one of: {2})",
                                    what, *s, getNames<E>()));
    out = *e;
    return Error::success();
  }

  Error array(StringRef key, const json::Array *&out,
              bool required = false) const {
    out = nullptr;
    const json::Value *v = get(key);
    if (!v)
      return required ? missing(key) : Error::success();
    out = v->getAsArray();
    if (!out)
      return error(at(key), "expected an array");
    return Error::success();
  }

  Error integers(StringRef key, std::vector<int64_t> &out) const {
    const json::Array *a;
    if (Error e = array(key, a))
      return e;
    if (!a)
      return Error::success();
    for (auto [i, v] : enumerate(*a)) {
      std::optional<int64_t> n = v.getAsInteger();
      if (!n)
        return error(formatv("{0}[{1}]", at(key), i), "expected an integer");
      out.push_back(*n);
    }
    return Error::success();
  }

  Error strings(StringRef key, std::vector<std::string> &out) const {
    const json::Array *a;
    if (Error e = array(key, a))
      return e;
    if (!a)
      return Error::success();
    for (auto [i, v] : enumerate(*a)) {
      std::optional<StringRef> s = v.getAsString();
      if (!s)
        return error(formatv("{0}[{1}]", at(key), i), "expected a string");
      out.push_back(s->str());
    }
    return Error::success();
  }

  const json::Object &object;
  int64_t line;
  std::string path;
};

Error objectAt(const json::Value &value, int64_t line, const Twine &path,
               const json::Object *&out) {
  out = value.getAsObject();
  if (!out)
    return createStringError(
        formatv("line {0}: {1}: expected an object", line, path.str()).str());
  return Error::success();
}

Error readPattern(const json::Value &value, int64_t line, const Twine &path,
                  AccessPattern &ap) {
  const json::Object *object;
  if (Error e = objectAt(value, line, path, object))
    return e;
  Fields f(*object, line, path.str());
  if (Error e = f.allowOnly({"mem", "type", "start", "partitions",
                             "partition_stride", "addr", "dims"},
                            "an access pattern"))
    return e;
  if (Error e = f.enumeration(StringLiteral("mem"), ap.memory, "memory",
                              /*required=*/true))
    return e;
  if (Error e = f.enumeration(StringLiteral("type"), ap.type, "data type"))
    return e;
  if (Error e = f.integer("start", ap.startPartition))
    return e;
  if (Error e = f.integer("partitions", ap.partitions))
    return e;
  if (Error e = f.integer("partition_stride", ap.partitionStride))
    return e;
  if (Error e = f.integer("addr", ap.address, /*required=*/true))
    return e;
  const json::Array *dims;
  if (Error e = f.array("dims", dims))
    return e;
  if (dims)
    for (auto [i, dim] : enumerate(*dims)) {
      const json::Array *pair = dim.getAsArray();
      std::optional<int64_t> stride, size;
      if (pair && pair->size() == 2) {
        stride = (*pair)[0].getAsInteger();
        size = (*pair)[1].getAsInteger();
      }
      if (!stride || !size)
        return f.error(formatv("{0}[{1}]", f.at("dims"), i),
                       "expected [stride, size] (two integers)");
      ap.dims.emplace_back(*stride, *size);
    }
  return Error::success();
}

/// The fields an instruction of `opcode` may have.
SmallVector<StringRef> getInstructionFields(Opcode opcode) {
  SmallVector<StringRef> fields = {"op",    "engine", "deps",
                                   "layer", "dst",    "srcs"};
  switch (opcode) {
  case Opcode::DmaCopy:
    fields.append({"queue", "cause"});
    break;
  case Opcode::Matmul:
    fields.push_back("accumulate");
    break;
  case Opcode::Transpose:
  case Opcode::TensorCopy:
    fields.push_back("cause");
    break;
  case Opcode::Activation:
    fields.append({"function", "scale", "imm0"});
    break;
  case Opcode::TensorTensor:
    fields.push_back("alu0");
    break;
  case Opcode::TensorScalar:
    fields.append({"alu0", "alu1", "imm0", "imm1"});
    break;
  case Opcode::TensorReduce:
    fields.append({"alu0", "reduce_dims"});
    break;
  case Opcode::Memset:
    fields.push_back("imm0");
    break;
  case Opcode::Select:
    break;
  }
  return fields;
}

Error readInstruction(const json::Object &object, int64_t line,
                      Instruction &ins) {
  Fields f(object, line, "");
  if (Error e = f.enumeration(StringLiteral("op"), ins.opcode, "opcode",
                              /*required=*/true))
    return e;
  if (Error e = f.allowOnly(getInstructionFields(ins.opcode),
                            formatv("a {0} instruction", getName(ins.opcode))))
    return e;
  ins.engine = getDefaultEngine(ins.opcode);
  if (Error e = f.enumeration(StringLiteral("engine"), ins.engine, "engine"))
    return e;
  if (Error e = f.integer("queue", ins.queue))
    return e;
  if (Error e = f.integers("deps", ins.deps))
    return e;
  if (Error e = f.integer("layer", ins.layer))
    return e;
  if (Error e = f.enumeration(StringLiteral("cause"), ins.cause, "cause"))
    return e;
  if (Error e = f.boolean("accumulate", ins.accumulate))
    return e;
  if (Error e = f.enumeration(StringLiteral("function"), ins.function,
                              "activation function"))
    return e;
  if (Error e = f.number("scale", ins.scale))
    return e;
  if (Error e = f.number("imm0", ins.imm0))
    return e;
  if (Error e = f.number("imm1", ins.imm1))
    return e;
  if (Error e = f.enumeration(StringLiteral("alu0"), ins.alu0, "ALU operation"))
    return e;
  if (Error e = f.enumeration(StringLiteral("alu1"), ins.alu1, "ALU operation"))
    return e;
  if (Error e = f.integer("reduce_dims", ins.reduceDims))
    return e;
  const json::Value *dst = f.get("dst");
  if (!dst)
    return f.missing("dst");
  if (Error e = readPattern(*dst, line, "dst", ins.dst))
    return e;
  const json::Array *srcs;
  if (Error e = f.array("srcs", srcs))
    return e;
  if (srcs)
    for (auto [i, src] : enumerate(*srcs)) {
      ins.srcs.emplace_back();
      if (Error e =
              readPattern(src, line, formatv("srcs[{0}]", i), ins.srcs.back()))
        return e;
    }
  return Error::success();
}

Error readTensors(const Fields &header, StringRef key,
                  std::vector<TraceTensor> &out) {
  const json::Array *tensors;
  if (Error e = header.array(key, tensors))
    return e;
  if (!tensors)
    return Error::success();
  StringSet<> names;
  for (auto [i, value] : enumerate(*tensors)) {
    std::string path = formatv("{0}[{1}]", key, i).str();
    const json::Object *object;
    if (Error e = objectAt(value, header.line, path, object))
      return e;
    Fields f(*object, header.line, path);
    if (Error e = f.allowOnly({"name", "address", "shape", "type"}, "a tensor"))
      return e;
    TraceTensor t;
    if (Error e = f.string("name", t.name, /*required=*/true))
      return e;
    if (Error e = f.integer("address", t.address, /*required=*/true))
      return e;
    if (Error e = f.integers("shape", t.shape))
      return e;
    if (Error e = f.enumeration(StringLiteral("type"), t.type, "data type"))
      return e;
    if (t.name.empty() || !names.insert(t.name).second)
      return f.error(
          f.at("name"),
          formatv("'{0}' is empty or not unique among {1}", t.name, key));
    out.push_back(std::move(t));
  }
  return Error::success();
}

/// Empty when `bytes` bytes from `address` lie in the `dramBytes` bytes
/// of the program's DRAM.
std::string checkDramRange(int64_t address, int64_t bytes, int64_t dramBytes) {
  if (address < 0 || bytes < 0 || address > dramBytes ||
      bytes > dramBytes - address)
    return formatv("{0} bytes at address {1} do not fit the trace's "
                   "dram_bytes ({2})",
                   bytes, address, dramBytes)
        .str();
  return "";
}

Error readHeader(const json::Object &object, TraceHeader &h) {
  Fields f(object, 1, "");
  if (Error e =
          f.allowOnly({"format", "version", "machine", "dram_bytes", "inputs",
                       "outputs", "weights_file", "weights_address",
                       "weights_bytes", "layers", "load_store_pairs_removed",
                       "load_store_pairs_total", "intermediate_bytes_removed",
                       "intermediate_bytes_total", "layout_mode"},
                      "the header"))
    return e;
  std::string format;
  if (Error e = f.string("format", format, /*required=*/true))
    return e;
  if (format != kTraceFormat)
    return f.error("format",
                   formatv("'{0}' is not '{1}'", format, kTraceFormat));
  int64_t version = 0;
  if (Error e = f.integer("version", version, /*required=*/true))
    return e;
  if (version != kTraceVersion)
    return f.error("version", formatv("{0} is not {1}, the version this reader "
                                      "knows",
                                      version, kTraceVersion));
  const json::Value *machine = f.get("machine");
  if (!machine)
    return f.missing("machine");
  const json::Object *machineObject;
  if (Error e = objectAt(*machine, 1, "machine", machineObject))
    return e;
  if (Error e = h.machine.readJSON(*machineObject))
    return f.error("machine", toString(std::move(e)));
  if (Error e = h.machine.verify())
    return f.error("machine", toString(std::move(e)));
  if (Error e = f.integer("dram_bytes", h.dramBytes))
    return e;
  if (h.dramBytes < 0 || h.dramBytes > h.machine.dramBytes)
    return f.error("dram_bytes",
                   formatv("{0}: expected 0 to the machine's dram_bytes ({1})",
                           h.dramBytes, h.machine.dramBytes));
  if (Error e = readTensors(f, "inputs", h.inputs))
    return e;
  if (Error e = readTensors(f, "outputs", h.outputs))
    return e;
  for (auto [key, tensors] :
       {std::pair<StringRef, std::vector<TraceTensor> *>{"inputs", &h.inputs},
        {"outputs", &h.outputs}})
    for (auto [i, t] : enumerate(*tensors)) {
      int64_t elements = 1;
      for (auto [d, size] : enumerate(t.shape)) {
        if (size < 1)
          return f.error(formatv("{0}[{1}].shape[{2}]", key, i, d),
                         formatv("{0} must be positive", size));
        elements = saturatingMul(elements, size);
      }
      int64_t bytes = saturatingMul(elements, t.type == DataType::F32 ? 4 : 2);
      if (t.address % (t.type == DataType::F32 ? 4 : 2))
        return f.error(
            formatv("{0}[{1}].address", key, i),
            formatv("{0} is not a multiple of the element size", t.address));
      if (std::string why = checkDramRange(t.address, bytes, h.dramBytes);
          !why.empty())
        return f.error(formatv("{0}[{1}]", key, i), why);
    }
  if (Error e = f.string("weights_file", h.weightsFile))
    return e;
  if (Error e = f.integer("weights_address", h.weightsAddress))
    return e;
  if (Error e = f.integer("weights_bytes", h.weightsBytes))
    return e;
  if (std::string why =
          checkDramRange(h.weightsAddress, h.weightsBytes, h.dramBytes);
      !why.empty())
    return f.error("weights_bytes", "the weights' " + why);
  const json::Array *layers;
  if (Error e = f.array("layers", layers))
    return e;
  if (layers)
    for (auto [i, value] : enumerate(*layers)) {
      std::string path = formatv("layers[{0}]", i).str();
      const json::Object *layerObject;
      if (Error e = objectAt(value, 1, path, layerObject))
        return e;
      Fields lf(*layerObject, 1, path);
      if (Error e = lf.allowOnly({"name", "op", "fused", "macs"}, "a layer"))
        return e;
      TraceLayer layer;
      if (Error e = lf.string("name", layer.name, /*required=*/true))
        return e;
      if (Error e = lf.string("op", layer.op))
        return e;
      if (Error e = lf.strings("fused", layer.fused))
        return e;
      if (Error e = lf.integer("macs", layer.macs))
        return e;
      if (layer.macs < 0)
        return lf.error(lf.at("macs"), "must not be negative");
      h.layers.push_back(std::move(layer));
    }
  for (auto [key, member] :
       {std::pair<StringRef, int64_t *>{"load_store_pairs_removed",
                                        &h.loadStorePairsRemoved},
        {"load_store_pairs_total", &h.loadStorePairsTotal},
        {"intermediate_bytes_removed", &h.intermediateBytesRemoved},
        {"intermediate_bytes_total", &h.intermediateBytesTotal}}) {
    if (Error e = f.integer(key, *member))
      return e;
    if (*member < 0)
      return f.error(key, "must not be negative");
  }
  if (Error e = f.string("layout_mode", h.layoutMode))
    return e;
  if (!h.layoutMode.empty() && h.layoutMode != "global" &&
      h.layoutMode != "local")
    return f.error("layout_mode", formatv("'{0}' is neither 'global' nor "
                                          "'local'",
                                          h.layoutMode));
  return Error::success();
}

Error parseLine(StringRef text, int64_t line, json::Value &out) {
  Expected<json::Value> value = json::parse(text);
  if (!value)
    return createStringError(formatv("line {0}: invalid JSON: {1}", line,
                                     toString(value.takeError()))
                                 .str());
  out = std::move(*value);
  return Error::success();
}

} // namespace

Expected<Trace> inf::readTrace(StringRef text) {
  Trace trace;
  // Trailing newlines (and whitespace) end the file; no line may be blank
  // before them, so instruction i stays on line i + 2.
  text = text.rtrim();
  if (text.empty())
    return createStringError("line 1: empty trace: expected the header");
  int64_t line = 0;
  while (!text.empty() || line == 0) {
    auto [current, rest] = text.split('\n');
    text = rest;
    ++line;
    current = current.rtrim("\r");
    if (current.trim().empty())
      return createStringError(
          formatv("line {0}: blank line (one instruction per line)", line)
              .str());
    json::Value value(nullptr);
    if (Error e = parseLine(current, line, value))
      return std::move(e);
    const json::Object *object;
    if (Error e =
            objectAt(value, line, line == 1 ? "header" : "instruction", object))
      return std::move(e);
    if (line == 1) {
      if (Error e = readHeader(*object, trace.header))
        return std::move(e);
      continue;
    }
    Instruction ins;
    if (Error e = readInstruction(*object, line, ins))
      return std::move(e);
    int64_t index = trace.instructions.size();
    trace.instructions.push_back(std::move(ins));
    if (std::string why = checkTraceInstruction(trace, index); !why.empty())
      return createStringError(
          formatv("line {0}: instruction {1}: {2}", line, index, why).str());
  }
  return trace;
}
