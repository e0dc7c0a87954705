//===- Trace.h - the inferentia instruction trace ---------------*- C++ -*-===//
//
// What `dlc compile --target inferentia` writes as DIR/trace.jsonl and the
// simulator executes: JSON lines, a header object first, then one
// instruction per line, in issue order. docs/Targets/InferentiaTrace.md is
// the format's reference; this header is its data model, its reader and
// its writer, and the legality rules every instruction obeys (shared by
// the dialect's verifiers and the simulator, which rejects what breaks
// them: the rules of the machine, not a cost model).
//
// Units: SBUF and PSUM addresses are byte offsets within a partition;
// DRAM addresses are byte offsets from DRAM's start. Strides and sizes of
// access patterns count elements of the pattern's data type; addresses are
// multiples of the element's size.
//
// Line numbers: the header is line 1 and instruction i is line i + 2 (no
// blank lines; a final newline is allowed), so an error can name both.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_INFERENTIA_TRACE_H
#define DLC_TARGET_INFERENTIA_TRACE_H

#include "dlc/Target/Inferentia/Machine.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace dlc::inferentia {

inline constexpr llvm::StringLiteral kTraceFormat = "dlc-inferentia-trace";
inline constexpr int64_t kTraceVersion = 1;

enum class Memory { Dram, Sbuf, Psum };
enum class DataType { F32, BF16 };
/// The engines; DMA transfers run on numbered queues.
enum class Engine { Tensor, Vector, Scalar, GpSimd, Dma };
enum class Opcode {
  /// dst = src between any two memories (DRAM, SBUF); on a DMA queue.
  DmaCopy,
  /// dst (PSUM) = or += srcs[0]^T x srcs[1]: stationary [K partitions, M
  /// free], moving [K partitions, N free], dst [M partitions, N free].
  Matmul,
  /// dst (PSUM) [F partitions, P free] = srcs[0] [P partitions, F free]^T,
  /// on the tensor engine (a matmul with the identity).
  Transpose,
  /// dst = function(srcs[0] * scale + bias), bias per partition (srcs[1],
  /// [P, 1]) or `imm0`; scalar engine.
  Activation,
  /// dst = srcs[0] alu0 srcs[1], elementwise.
  TensorTensor,
  /// dst = (srcs[0] alu0 s0) alu1 s1; s0 is srcs[1] ([P, 1], per partition)
  /// when present, else imm0; s1 is srcs[2] when present, else imm1
  /// (`alu1` Bypass: no second operation).
  TensorScalar,
  /// dst [P, outer free dims] = srcs[0] reduced with alu0 over its
  /// innermost `reduceDims` free dimensions.
  TensorReduce,
  /// dst = srcs[0] (same partitions), on a compute engine.
  TensorCopy,
  /// dst = imm0.
  Memset,
  /// dst = srcs[1] where srcs[0] is not 0, else srcs[2] (NKI's
  /// nl.where), elementwise.
  Select,
};
/// Comparisons give 1.0 where they hold and 0.0 elsewhere (NKI's
/// nl.equal, nl.greater, ... as ALU operations).
enum class AluOp {
  Bypass,
  Add,
  Subtract,
  Multiply,
  Divide,
  Max,
  Min,
  IsEqual,
  NotEqual,
  IsGt,
  IsGe,
  IsLt,
  IsLe
};
enum class ActivationFunction {
  Identity,
  Relu,
  Exp,
  Log,
  Tanh,
  Sigmoid,
  Sqrt,
  Rsqrt,
  Reciprocal,
  Square,
  Abs,
  Neg,
  /// The Gauss error function (NKI's nl.erf), as GELU needs.
  Erf
};
/// Why a copy moves data (the report's `onchip_copies`/`offchip_copies`
/// by cause). Compute instructions have None.
enum class Cause { None, Load, Store, Spill, Relayout };

/// A contiguous range of partitions with the same free-dimension pattern
/// in each. For DRAM, partition p starts `partitionStride` elements after
/// partition p-1 (a DRAM access has no partitions of its own: this is how
/// its elements line up with the SBUF side's).
struct AccessPattern {
  Memory memory = Memory::Sbuf;
  DataType type = DataType::F32;
  int64_t startPartition = 0;
  int64_t partitions = 1;
  /// DRAM only, in elements.
  int64_t partitionStride = 0;
  /// Bytes: within each partition (SBUF, PSUM) or from DRAM's start.
  int64_t address = 0;
  /// [stride, size] per free dimension, outermost first (elements).
  std::vector<std::pair<int64_t, int64_t>> dims;

  /// Elements per partition (1 without free dims; saturates at INT64_MAX).
  int64_t getFreeElements() const;
  /// Elements in all partitions (saturates at INT64_MAX).
  int64_t getElements() const;
  int64_t getElementBytes() const { return type == DataType::F32 ? 4 : 2; }
  /// Bytes one partition's elements span, from the lowest to one past the
  /// highest (negative strides included), as offsets from `address`. For
  /// a pattern checkAccessPattern accepts (others may overflow).
  std::pair<int64_t, int64_t> getByteExtent() const;
};

struct Instruction {
  Opcode opcode = Opcode::TensorCopy;
  Engine engine = Engine::Vector;
  /// DMA queue (DmaCopy only).
  int64_t queue = 0;
  /// Earlier instructions (indices into the trace) this one waits for.
  std::vector<int64_t> deps;
  /// Index into the header's layers, or -1.
  int64_t layer = -1;
  Cause cause = Cause::None;
  AccessPattern dst;
  std::vector<AccessPattern> srcs;
  AluOp alu0 = AluOp::Bypass, alu1 = AluOp::Bypass;
  float imm0 = 0, imm1 = 0;
  ActivationFunction function = ActivationFunction::Identity;
  float scale = 1;
  /// Matmul: add to dst instead of overwriting it.
  bool accumulate = false;
  /// TensorReduce: how many innermost free dims of srcs[0] are reduced.
  int64_t reduceDims = 1;
};

/// A tensor of the model's interface in DRAM (row-major, dense).
struct TraceTensor {
  std::string name;
  int64_t address = 0;
  std::vector<int64_t> shape;
  DataType type = DataType::F32;
};

/// One ONNX node (with what was fused into it).
struct TraceLayer {
  std::string name, op;
  std::vector<std::string> fused;
  int64_t macs = 0;
};

struct TraceHeader {
  Machine machine;
  std::vector<TraceTensor> inputs, outputs;
  std::vector<TraceLayer> layers;
  /// The weights file (next to the trace) and where it goes in DRAM.
  std::string weightsFile;
  int64_t weightsAddress = 0, weightsBytes = 0;
  /// DRAM bytes the program uses, from 0.
  int64_t dramBytes = 0;
  /// Counted by the compiler's data-movement elimination (report fields
  /// `load_store_pairs_removed`, `load_store_pairs_total`,
  /// `intermediate_bytes_removed`, `intermediate_bytes_total`).
  int64_t loadStorePairsRemoved = 0, loadStorePairsTotal = 0;
  int64_t intermediateBytesRemoved = 0, intermediateBytesTotal = 0;
  /// "global" or "local".
  std::string layoutMode;
};

struct Trace {
  TraceHeader header;
  std::vector<Instruction> instructions;
};

llvm::StringRef getName(Memory memory);
llvm::StringRef getName(DataType type);
llvm::StringRef getName(Engine engine);
llvm::StringRef getName(Opcode opcode);
llvm::StringRef getName(AluOp op);
llvm::StringRef getName(ActivationFunction function);
llvm::StringRef getName(Cause cause);
/// The enumerator of `E` (one of the enums above) whose getName is `name`.
template <typename E> std::optional<E> parseEnum(llvm::StringRef name);
/// Every name of `E`'s enumerators, comma-separated (for messages).
template <typename E> std::string getNames();
/// The default engine of an opcode (Transpose and Matmul: tensor; DmaCopy:
/// DMA; Activation: scalar; the others: vector, unless the trace says).
Engine getDefaultEngine(Opcode opcode);
/// Whether `engine` can run `opcode`: DmaCopy on DMA; Matmul and Transpose
/// on the tensor engine; Activation on the scalar engine; TensorTensor on
/// vector or GpSimd; TensorScalar and TensorCopy on vector, scalar or
/// GpSimd; TensorReduce on vector; Memset on vector or GpSimd (the NKI ISA's
/// engines for its instructions).
bool canRun(Engine engine, Opcode opcode);

/// The shortest decimal form of `v` that reads back as `v` ("nan", "inf"
/// and "-inf" for those), as the trace and the tools print numbers.
std::string formatShortest(float v);

/// Writes the header line and one line per instruction.
void writeTrace(const Trace &trace, llvm::raw_ostream &os);
/// One instruction as its JSON line's object.
llvm::json::Object toJSON(const Instruction &instruction);
/// Reads a trace; an error names the line (1-based), the field and what
/// is wrong. It checks the format (fields, kinds, names, unknown fields),
/// the header (machine.verify, tensors and weights within dram_bytes) and,
/// with the header's machine, every instruction's legality
/// (checkInstruction, its layer, its DRAM accesses within dram_bytes).
llvm::Expected<Trace> readTrace(llvm::StringRef text);
/// The checks readTrace makes of instruction `index` of `trace` (the
/// simulator repeats them, since a trace may be built in memory); empty
/// when legal.
std::string checkTraceInstruction(const Trace &trace, int64_t index);

/// Empty when `ap` is legal on `machine` for an instruction on `engine`
/// (partition range, and the start rule on a compute engine; at most
/// max_free_dims free dims for SBUF/PSUM; sizes positive; aligned; within
/// the memory's bytes; DRAM patterns start at partition 0 and only they
/// have a partition stride; a compute engine's operand holds at most 64 Ki
/// elements per partition in SBUF and psum_partition_bytes / 4 in PSUM),
/// else why not.
std::string checkAccessPattern(const Machine &machine, const AccessPattern &ap,
                               Engine engine = Engine::Vector);
/// Empty when `instruction` (at `index`, so its deps must be earlier) is
/// legal: the engines that can run its opcode, operand counts, memories,
/// types and shapes of its opcode, the tensor engine's limits (K <=
/// partitions, M <= stationary_free_max, N <= moving_free_max, the fp32
/// result within one PSUM bank), every access pattern legal, engine-lane
/// rules (compute engines keep partitions: srcs and dst of the same
/// partition count; a compute engine reads SBUF or PSUM and writes SBUF or
/// PSUM; GpSimd has no PSUM access; tensor_tensor reads at most one
/// operand from PSUM), a cause only on copies. Else why not, naming the
/// operand ("dst", "srcs[1]").
std::string checkInstruction(const Machine &machine,
                             const Instruction &instruction, int64_t index);

} // namespace dlc::inferentia

#endif // DLC_TARGET_INFERENTIA_TRACE_H
