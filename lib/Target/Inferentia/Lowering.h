//===- Lowering.h - the state of dlc-inferentia-lower -----------*- C++ -*-===//
//
// The lowering of the entry function's affine nests to one
// inferentia.program (Passes.td, LowerToInferentia), shared by the files
// that implement it: LowerToInferentia.cpp (reading the function, mappings,
// SBUF placement, the program), LowerInstructions.cpp (emitting an
// instruction: staging, lanes, dependencies, DMAs), LowerElementwise.cpp
// (elementwise bodies, reductions, relayouts) and LowerContractions.cpp
// (the tensor engine: matmuls, packing, gathers, PSUM evacuation).
//
// The lowering works on boxes of loop values: one instruction covers a box
// whose partition loop spans at most one partition tile and whose free
// loops span the instruction's free pattern; every loop outside those is
// fixed. Where an operand's pattern is not linear on a box (a partition
// tile or a view's floordiv changes inside it) the box is split there.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TARGET_INFERENTIA_LOWERING_H
#define DLC_LIB_TARGET_INFERENTIA_LOWERING_H

#include "AccessPatterns.h"

#include "dlc/Conversion/NestDescription.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Support/ConstantData.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Inferentia/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <map>
#include <numeric>

namespace dlc::inferentia::detail {

using namespace mlir;

/// fp32 elements per partition of one scratch slot (intermediate values of
/// elementwise bodies and reductions), and how many slots rotate.
constexpr int64_t kSlotElements = 2048;
constexpr int64_t kSlots = 6;
/// Small slots (a stationary operand's 128 columns) for operands staged
/// from DRAM: enough of them that the DMA queues keep loading while the
/// tensor engine works ([choice]: 16, one per queue).
constexpr int64_t kStagingSlots = 16;
constexpr int64_t kStagingElements = 128;
constexpr int64_t kElementBytes = 4;
/// How many nests ahead of their first use weights and inputs load when
/// SBUF has room for them that early ([choice]: enough to hide a layer's
/// weights behind the layers before it).
constexpr int64_t kPrefetchNests = 4;
/// Instructions a program may have ([choice]: 11 times ResNet-50's 5.7 k):
/// a nest that needs more (a pooling window of hundreds of taps over
/// padding, split tap by tap) is refused, which makes its node fall back,
/// instead of compiling for minutes.
constexpr int64_t kMaxInstructions = 1 << 16;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

enum class Role { Input, Output, Weights, Intermediate };

/// A buffer of the function (argument, global or allocation) and its homes.
struct Root {
  Value value;
  MemRefType type;
  std::string name;
  Role role = Role::Intermediate;
  MappingAttr mapping;
  Layout layout;
  /// Nest indices of the first and last use and the last write.
  int64_t first = -1, last = -1, lastWrite = -1;
  /// Where a loaded buffer (weights, inputs) is loaded: some nests before
  /// its first use when SBUF has room, so that the load overlaps them.
  int64_t loadAt = -1;
  /// The SBUF home and, for inputs, outputs and weights, the DRAM tensor.
  Value sbuf, dram;
  int64_t sbufAddress = 0;
  /// Too big for SBUF beside the others: it lives in DRAM in its mapping's
  /// order (partition after partition), and instructions stage the parts
  /// they touch (`sbuf` is then that DRAM tensor).
  bool inDram = false;
  /// An input or output in DRAM whose mapping's order is not its row-major
  /// order: it lives in scratch DRAM in the mapping's order (`sbuf`), and
  /// the whole tensor moves between that and the row-major tensor (`dram`)
  /// before its first use or after its last write.
  bool relaidInDram = false;
  ElementsAttr weights;
  int64_t getPartitionBytes() const {
    return layout.getFreeElements() * kElementBytes;
  }
};

/// One way a body value may be read: where its conditions (sets over the
/// loops that hold, or, `false`, do not) are met, an access or a constant.
struct Piece {
  SmallVector<std::pair<IntegerSet, bool>> conditions;
  std::optional<Access> access;
  double constant = 0;
};

/// A value of a nest's innermost body.
struct BodyValue {
  enum class Kind { Read, Constant, Op } kind = Kind::Op;
  SmallVector<Piece> pieces;
  double constant = 0;
  Operation *op = nullptr;
  SmallVector<int> operands;
};

/// A perfectly nested loop band with constant bounds and its body.
struct Nest {
  /// The outermost loop, or a store outside any loop (rank-0 results).
  Operation *root = nullptr;
  SmallVector<affine::AffineForOp> loops;
  SmallVector<int64_t> trips;
  SmallVector<BodyValue> values;
  /// The store: its access and the value stored.
  Access store;
  int stored = -1;
  std::optional<NestDescription> description;
  int64_t layer = -1;
  /// A contraction whose contraction loop is short (few input channels):
  /// its reduction loops all go across the partitions together (kernel
  /// taps packed with channels), in chunks of `chunkPartitions`.
  struct Packing {
    SmallVector<unsigned> loops;
    int64_t chunkPartitions = 0;
  };
  std::optional<Packing> packing;
  /// Computed by a neighbouring contraction's PSUM evacuation (its output's
  /// first value, or the ReLU after it): emits nothing itself.
  bool fused = false;
  /// A contraction's evacuation applies the first value its output had
  /// (a per-partition bias read or a constant) with the scalar engine,
  /// and with `evacuateTo` also the ReLU after it, writing the ReLU's
  /// result there.
  std::optional<Piece> initialValue;
  std::optional<Access> evacuateTo;
  bool relayout = false;

  unsigned getNumLoops() const { return trips.size(); }
  Box getFullBox() const {
    Box box;
    box.lo.assign(trips.size(), 0);
    box.hi.assign(trips.begin(), trips.end());
    return box;
  }
};

/// An operand of an instruction: a buffer and its access pattern.
struct Operand {
  Value buffer;
  AccessPatternAttr ap;
};

/// An operand on a box before it becomes an access pattern: the buffer,
/// its loop pattern, and which element type/size the buffer has.
struct BoxOperand {
  Value buffer;
  LoopPattern pattern;
};

//===----------------------------------------------------------------------===//
// Dependencies between engines and queues
//===----------------------------------------------------------------------===//

/// The partitions and bytes an operand touches.
struct Region {
  int memory = 0;
  int64_t p0 = 0, p1 = 0, lo = 0, hi = 0;
  bool overlaps(const Region &o) const {
    return p0 < o.p1 && o.p0 < p1 && lo < o.hi && o.lo < hi;
  }
  bool contains(const Region &o) const {
    return p0 <= o.p0 && o.p1 <= p1 && lo <= o.lo && o.hi <= hi;
  }
};

inline Region getRegion(Value buffer, AccessPatternAttr ap) {
  auto type = cast<BufferType>(buffer.getType());
  int64_t bytes = type.getElementBytes();
  int64_t lo = ap.getOffset(), hi = ap.getOffset();
  for (auto [stride, size] : llvm::zip(ap.getStrides(), ap.getSizes())) {
    if (stride > 0)
      hi += stride * (size - 1);
    else
      lo += stride * (size - 1);
  }
  Region region;
  if (type.getMemory() == "dram") {
    int64_t step = ap.getPartitionStride() * (ap.getPartitions() - 1);
    (step > 0 ? hi : lo) += step;
    region.p0 = 0;
    region.p1 = 1;
  } else {
    region.p0 = ap.getStart();
    region.p1 = ap.getStart() + ap.getPartitions();
  }
  // Buffers share memory over time: regions are absolute.
  int64_t base = 0;
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    base = alloc.getAddress();
  else if (auto tensor = buffer.getDefiningOp<DramTensorOp>())
    base = tensor.getAddress();
  region.lo = base + lo * bytes;
  region.hi = base + (hi + 1) * bytes;
  region.memory = type.getMemory() == "dram"   ? 0
                  : type.getMemory() == "sbuf" ? 1
                                               : 2;
  return region;
}

/// Orders every instruction after the earlier ones of other engines and
/// queues whose bytes it touches in a conflicting way (a write on either
/// side); instructions of one engine or queue run in order anyway.
class DependencyTracker {
public:
  void collect(Value buffer, const Region &region, bool write, int lane,
               llvm::SetVector<Value> &deps) const {
    for (const Record &r : records[region.memory])
      if ((write || r.write) && r.lane != lane && r.region.overlaps(region))
        deps.insert(r.token);
  }
  void record(Value buffer, const Region &region, bool write, int lane,
              Value token) {
    std::vector<Record> &list = records[region.memory];
    // A write orders everything it covers (directly or by its deps); a
    // later access of the same lane covers an earlier one of its kind.
    llvm::erase_if(list, [&](const Record &r) {
      return region.contains(r.region) &&
             (write || (r.lane == lane && !r.write));
    });
    list.push_back({token, lane, region, write});
  }

private:
  struct Record {
    Value token;
    int lane;
    Region region;
    bool write;
  };
  /// Per memory (DRAM, SBUF, PSUM).
  std::vector<Record> records[3];
};

//===----------------------------------------------------------------------===//
// The lowering
//===----------------------------------------------------------------------===//

/// The ALU operation of an arith op, if it has one.
inline std::optional<AluOp> getAlu(Operation *op) {
  if (isa<arith::AddFOp>(op))
    return AluOp::Add;
  if (isa<arith::SubFOp>(op))
    return AluOp::Subtract;
  if (isa<arith::MulFOp>(op))
    return AluOp::Multiply;
  if (isa<arith::DivFOp>(op))
    return AluOp::Divide;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return AluOp::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return AluOp::Min;
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    switch (cmp.getPredicate()) {
    case P::OEQ:
    case P::UEQ:
      return AluOp::IsEqual;
    case P::ONE:
    case P::UNE:
      return AluOp::NotEqual;
    case P::OGT:
    case P::UGT:
      return AluOp::IsGt;
    case P::OGE:
    case P::UGE:
      return AluOp::IsGe;
    case P::OLT:
    case P::ULT:
      return AluOp::IsLt;
    case P::OLE:
    case P::ULE:
      return AluOp::IsLe;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

inline std::optional<ActivationFunction> getFunction(Operation *op) {
  using F = ActivationFunction;
  if (isa<math::ExpOp>(op))
    return F::Exp;
  if (isa<math::LogOp>(op))
    return F::Log;
  if (isa<math::TanhOp>(op))
    return F::Tanh;
  if (isa<math::SqrtOp>(op))
    return F::Sqrt;
  if (isa<math::RsqrtOp>(op))
    return F::Rsqrt;
  if (isa<math::AbsFOp>(op))
    return F::Abs;
  if (isa<arith::NegFOp>(op))
    return F::Neg;
  if (isa<math::ErfOp>(op))
    return F::Erf;
  return std::nullopt;
}

inline bool isCommutative(AluOp op) {
  return op == AluOp::Add || op == AluOp::Multiply || op == AluOp::Max ||
         op == AluOp::Min || op == AluOp::IsEqual || op == AluOp::NotEqual;
}

/// The comparison with its operands swapped (c < x is x > c).
inline std::optional<AluOp> getMirrored(AluOp op) {
  switch (op) {
  case AluOp::IsGt:
    return AluOp::IsLt;
  case AluOp::IsGe:
    return AluOp::IsLe;
  case AluOp::IsLt:
    return AluOp::IsGt;
  case AluOp::IsLe:
    return AluOp::IsGe;
  default:
    return std::nullopt;
  }
}

/// The value `combine(x, identity)` leaves x unchanged with.
inline std::optional<double> getIdentity(AluOp op) {
  switch (op) {
  case AluOp::Add:
    return 0.0;
  case AluOp::Multiply:
    return 1.0;
  case AluOp::Max:
    return -std::numeric_limits<double>::infinity();
  case AluOp::Min:
    return std::numeric_limits<double>::infinity();
  default:
    return std::nullopt;
  }
}

inline double applyAlu(AluOp op, double a, double b) {
  switch (op) {
  case AluOp::Add:
    return a + b;
  case AluOp::Subtract:
    return a - b;
  case AluOp::Multiply:
    return a * b;
  case AluOp::Divide:
    return a / b;
  case AluOp::Max:
    return std::max(a, b);
  case AluOp::Min:
    return std::min(a, b);
  case AluOp::Bypass:
    return a;
  case AluOp::IsEqual:
    return a == b;
  case AluOp::NotEqual:
    return a != b;
  case AluOp::IsGt:
    return a > b;
  case AluOp::IsGe:
    return a >= b;
  case AluOp::IsLt:
    return a < b;
  case AluOp::IsLe:
    return a <= b;
  }
  return a;
}

class Lowering {
public:
  Lowering(ModuleOp module, func::FuncOp func)
      : module(module), func(func), context(module.getContext()),
        machine(getMachine(module.getOperation())), builder(context) {}

  LogicalResult run();

private:
  // Analysis of the function.
  LogicalResult collectRoots();
  FailureOr<Access> resolve(Operation *user, Value memref,
                            ArrayRef<AffineExpr> indices);
  LogicalResult parseNest(Operation *root, Nest &nest);
  FailureOr<SmallVector<Piece>>
  parsePieces(Nest &nest, Value value,
              SmallVector<std::pair<IntegerSet, bool>> conditions);
  FailureOr<int> parseValue(Nest &nest, Value value);
  LogicalResult assignMappings();
  /// The positive constant offsets along dimension `dim` at which nests
  /// read `root` (index = loop + offset).
  SmallVector<int64_t> getPartitionOffsets(Value root, int64_t dim);
  /// Shapes contractions for the tensor engine before buffers are placed:
  /// a contraction loop whose elements reach the partitions in groups (a
  /// flattened activation, k = 36 * c + r) is split into the loop the
  /// partitions follow and the loop within a group, and weights read
  /// through such a loop get the mapping of their reshaped view.
  void planContractions();
  /// Fuses into each contraction's PSUM evacuation the nest before it that
  /// sets its output's first value (a bias or a constant) and the ReLU
  /// after it (Nest::initialValue, Nest::evacuateTo), as NKI kernels do
  /// with one activation instruction reading PSUM.
  void planEvacuations();
  /// The evacuation of `psum` into the output pattern `dst` of a
  /// contraction over `box` (output loops; `m` partitions).
  void emitEvacuation(Nest &nest, const Box &box, unsigned mLoop, Operand dst,
                      Operand psum, ArrayRef<unsigned> order);
  /// Where a contraction's output box goes: its output, or the fused
  /// ReLU's result (`out` is the output's pattern).
  Operand evacuationTarget(Nest &nest, const Box &box, unsigned mLoop,
                           ArrayRef<unsigned> order, const LoopPattern &out);
  /// Replaces loop `loop` of `nest` by `loop * factor + inner`, with
  /// `inner` a new innermost loop of `factor` iterations.
  void stripMine(Nest &nest, unsigned loop, int64_t factor);
  /// Packs `nest`'s reduction loops across the partitions when its
  /// contraction loop is short (Nest::Packing); lays out the weights for it.
  bool tryPacking(Nest &nest, int product, unsigned mLoop,
                  ArrayRef<bool> inStore, const DenseMap<Value, int> &readers);
  LogicalResult allocate();

  // Emission.
  Value emit(StringRef opName, Operand dst, ArrayRef<Operand> srcs,
             ArrayRef<NamedAttribute> attrs, Engine engine,
             std::optional<Cause> cause = std::nullopt);
  /// `emit` without legalisation: the operands are where the instruction
  /// can take them.
  Value emitRaw(StringRef opName, Operand dst, ArrayRef<Operand> srcs,
                ArrayRef<NamedAttribute> attrs, Engine engine,
                std::optional<Cause> cause);
  Value emitDma(Operand dst, Operand src, Cause cause);
  /// A DMA between DRAM and SBUF in pieces of partitions on several queues.
  void emitSplitDma(Operand dst, Operand src, Cause cause);
  AccessPatternAttr getAp(int64_t start, int64_t partitions,
                          int64_t partitionStride, int64_t offset,
                          ArrayRef<std::pair<int64_t, int64_t>> dims);
  /// The access pattern of `operand` on `box` with the free loops `order`
  /// (varying loops of the box, outermost first in the pattern).
  AccessPatternAttr toAp(const BoxOperand &operand, int64_t partitions,
                         const Box &box, ArrayRef<unsigned> order);
  /// Moves a whole input or weights tensor from DRAM into its SBUF home,
  /// or an output from its home to DRAM, in pieces over the queues.
  void transferRoot(Root &root);

  // Nests.
  LogicalResult lowerNest(Nest &nest);
  LogicalResult lowerElementwise(Nest &nest, const Box &box);
  LogicalResult lowerReduction(Nest &nest, int accumulator, int value,
                               AluOp combine);
  /// False when the tensor engine cannot compute the nest.
  /// What makes an accumulation of `lhs * rhs` a tensor-engine
  /// contraction: the output's partition loop M, the stationary (weights)
  /// and moving (activations) operands, the contraction loop K both follow
  /// on their partitions.
  struct ContractionMatch {
    unsigned mLoop;
    int stationaryIndex, movingIndex;
    const Access *weights;
    std::optional<unsigned> kLoop;
    SmallVector<bool> inStore, xParts;
  };
  /// The match, or nothing when the tensor engine cannot take the nest
  /// (it is then lowered as a reduction). Needs the mappings and plans.
  std::optional<ContractionMatch> matchContraction(Nest &nest, int lhs,
                                                   int rhs);
  FailureOr<bool> lowerContraction(Nest &nest, int lhs, int rhs);
  /// The moving operand of a packed contraction's chunk gathered into
  /// `slot` in whole rows (runs a DMA moves at full rate) that the matmul
  /// steps through, when the innermost output loop steps one source
  /// dimension: the slot's stride of each loop of `order`; nullopt
  /// otherwise (the caller gathers element by element).
  /// How far apart the gathered rows' elements are (the stride of the
  /// innermost output loop in the one source dimension it steps), when a
  /// packed contraction's moving operand can be gathered in rows.
  std::optional<int64_t> getGatherStep(Nest &nest, const BodyValue &moving,
                                       const Box &chunk,
                                       ArrayRef<unsigned> order);
  std::optional<SmallVector<int64_t>>
  gatherRows(Nest &nest, const BodyValue &moving, const Box &chunk,
             ArrayRef<unsigned> packed, ArrayRef<unsigned> order, Value slot,
             int64_t partitions);
  /// The matmuls of a packed contraction (Nest::Packing): per output box and
  /// chunk of the packed loops, the moving operand is gathered into a slot
  /// by DMA (one partition per channel and tap), the weights lie packed.
  FailureOr<bool>
  lowerPackedContraction(Nest &nest, ArrayRef<Box> outBoxes, unsigned mLoop,
                         ArrayRef<unsigned> nLoops, ArrayRef<bool> inStore,
                         const Access &weights, int movingIndex);
  /// The copy nest `nest` on `box` from `source`, whose partitions follow
  /// other loops than the destination's: DMAs, one per destination
  /// partition.
  LogicalResult emitRelayout(Nest &nest, const Box &box, Value to,
                             const ElementLocation &toLocation, Value from,
                             const ElementLocation &fromLocation);
  /// The relayout of `box` (the destination's partitions follow `toLoop`,
  /// the source's `fromLoop`) as tensor-engine transposes through PSUM and
  /// evacuations, one per value of the box's other loops, when the
  /// compiler's estimate finds that cheaper than DMAs; false (nothing
  /// emitted) otherwise.
  bool tryTransposeRelayout(const Box &box, unsigned toLoop, unsigned fromLoop,
                            Value to, const ElementLocation &toLocation,
                            Value from, const ElementLocation &fromLocation);
  /// A slot holding `operand`'s elements from partition `start` on, filled
  /// by DMA when `copy`.
  Operand realign(Operand operand, int64_t start = 0, bool copy = true,
                  bool small = false);
  /// Calls `body` with each sub-box of `box` on which every read of
  /// `reads` is one piece (`chosen[i]` its piece).
  LogicalResult
  forEachPiece(Nest &nest, const Box &box, ArrayRef<int> reads,
               function_ref<LogicalResult(const Box &, ArrayRef<int>)> body);
  /// The operand a read piece gives on `box`, or where to split.
  FailureOr<std::variant<BoxOperand, Split>>
  getReadOperand(Nest &nest, const Access &access, const Box &box,
                 std::optional<unsigned> partitionLoop,
                 ArrayRef<unsigned> order);
  /// A slot's elements on `box`: partitions follow `partitionLoop` from 0,
  /// the free loops `order` lie row-major.
  ElementLocation getSlotLocation(const Box &box,
                                  std::optional<unsigned> partitionLoop,
                                  ArrayRef<unsigned> order);
  LoopPattern getSlotPattern(const Box &box,
                             std::optional<unsigned> partitionLoop,
                             ArrayRef<unsigned> order);
  /// Elementwise body values on one box whose reads are resolved.
  LogicalResult emitBody(Nest &nest, const Box &box, ArrayRef<int> reads,
                         ArrayRef<int> chosen,
                         std::optional<unsigned> partitionLoop,
                         ArrayRef<unsigned> order, int target,
                         std::optional<BoxOperand> dst, bool &split,
                         Split &where, std::optional<Operand> &result);
  std::optional<unsigned> getPartitionLoop(Nest &nest, const Access &access);
  Value nextSlot() { return slots[nextSlotIndex++ % slots.size()]; }
  Value nextPsum() { return psumBanks[nextPsumIndex++ % psumBanks.size()]; }
  InFlightDiagnostic emitNestError(Nest &nest) {
    return nest.root->emitError()
           << "inferentia: node '" << getNodeName(nest.root->getLoc()) << "' ("
           << getNodeOpType(nest.root->getLoc()) << "): ";
  }

  ModuleOp module;
  func::FuncOp func;
  MLIRContext *context;
  Machine machine;
  OpBuilder builder;
  ProgramOp program;
  llvm::MapVector<Value, Root> roots;
  std::vector<Nest> nests;
  DependencyTracker tracker;
  SmallVector<Value> slots, psumBanks;
  Value ones;
  /// DRAM tensors that stand for SBUF homes, and why they are moved.
  DenseMap<Value, Cause> dramHomes;
  size_t nextSlotIndex = 0, nextPsumIndex = 0, nextStagingIndex = 0;
  /// Whether SBUF keeps room for the staging slots.
  bool staging = false;
  SmallVector<Value> stagingSlots;
  int64_t nextQueue = 0;
  /// Instructions emitted so far (kMaxInstructions), and the last one's
  /// token.
  int64_t numInstructions = 0;
  Value lastToken;
  int64_t currentLayer = -1;
  /// The ONNX node the instructions being emitted compute.
  std::optional<mlir::Location> currentLoc;
  SmallVector<std::pair<std::string, std::string>> layerNames;
  SmallVector<int64_t> layerMacs, layerReads, layerWrites, layerCycles;
  SmallVector<SmallVector<std::string>> layerFused;
  /// Each layer's estimated busy seconds per engine (0-3) and DMA queue
  /// (8 + queue): its predicted time is the busiest one's.
  SmallVector<std::map<int, double>> layerBusy;
  double estimateSeconds(StringRef opName, const Operand &dst,
                         ArrayRef<Operand> srcs, Engine engine) const;
  double estimateDmaSeconds(int64_t bytes) const;
  int64_t dramEnd = 0;
};

/// `box` without `inner` (a sub-box of it), as disjoint boxes.
SmallVector<Box> subtract(const Box &box, const Box &inner);
/// The varying loops of `box` other than `partitionLoop`, outermost first.
SmallVector<unsigned> getFreeOrder(const Box &box,
                                   std::optional<unsigned> partitionLoop);
/// Splits `box` into boxes whose free loops (all but `keep`) hold at most
/// `limit` elements, fixing or chunking outer loops.
SmallVector<Box> tileFree(const Box &box, ArrayRef<unsigned> order,
                          int64_t limit);

} // namespace dlc::inferentia::detail

#endif // DLC_LIB_TARGET_INFERENTIA_LOWERING_H
