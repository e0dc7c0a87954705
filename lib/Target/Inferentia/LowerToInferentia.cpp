//===- LowerToInferentia.cpp - affine nests to NeuronCore instructions ----===//
//
// dlc-inferentia-lower: the entry function's top-level affine nests, after
// the shared data-movement elimination and bank layout, become one
// inferentia.program. See Passes.td for what each kind of nest becomes;
// AccessPatterns.h for how an affine access becomes an access pattern.
//
// The lowering works on boxes of loop values: one instruction covers a box
// whose partition loop spans at most one partition tile and whose free
// loops span the instruction's free pattern; every loop outside those is
// fixed. Where an operand's pattern is not linear on a box (a partition
// tile or a view's floordiv changes inside it) the box is split there.
//
//===----------------------------------------------------------------------===//

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

namespace dlc::inferentia {
#define GEN_PASS_DEF_LOWERTOINFERENTIA
#include "dlc/Target/Inferentia/Passes.h.inc"
} // namespace dlc::inferentia

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;

namespace {

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

Region getRegion(Value buffer, AccessPatternAttr ap) {
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

int64_t getAluIdentityless() { return 0; }

/// The ALU operation of an arith op, if it has one.
std::optional<AluOp> getAlu(Operation *op) {
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

std::optional<ActivationFunction> getFunction(Operation *op) {
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

bool isCommutative(AluOp op) {
  return op == AluOp::Add || op == AluOp::Multiply || op == AluOp::Max ||
         op == AluOp::Min || op == AluOp::IsEqual || op == AluOp::NotEqual;
}

/// The comparison with its operands swapped (c < x is x > c).
std::optional<AluOp> getMirrored(AluOp op) {
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
std::optional<double> getIdentity(AluOp op) {
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

double applyAlu(AluOp op, double a, double b) {
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
  void loadRoot(Root &root);
  void storeRoot(Root &root);

  // Nests.
  LogicalResult lowerNest(Nest &nest);
  LogicalResult lowerElementwise(Nest &nest, const Box &box);
  LogicalResult lowerReduction(Nest &nest, int accumulator, int value,
                               AluOp combine);
  /// False when the tensor engine cannot compute the nest.
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
                             const ElementLocation &toLocation,
                             std::optional<unsigned> toLoop, Value from,
                             const ElementLocation &fromLocation);
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
  int64_t dramEnd = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

LogicalResult Lowering::collectRoots() {
  FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
  if (failed(signature))
    return failure();
  Block &body = func.getBody().front();
  unsigned numInputs = signature->inputs.size();
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return func.emitError("inferentia: the entry's arguments must be "
                            "statically shaped memrefs");
    Root &root = roots[arg];
    root.value = arg;
    root.type = type;
    root.role = arg.getArgNumber() < numInputs ? Role::Input : Role::Output;
    // The model's names, which the executor binds tensors by.
    unsigned number = arg.getArgNumber();
    if (number < numInputs)
      root.name = signature->inputs[number].name;
    else if (number - numInputs < signature->outputs.size())
      root.name = signature->outputs[number - numInputs].name;
    if (root.name.empty())
      root.name = (root.role == Role::Input ? "input" : "output") +
                  std::to_string(arg.getArgNumber());
  }
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      Root &root = roots[alloc.getResult()];
      root.value = alloc.getResult();
      root.type = alloc.getType();
      root.name = "buffer" + std::to_string(roots.size());
    } else if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (!global || !global.getConstant() || !global.getInitialValue())
        return get.emitError("inferentia: only constant globals with a "
                             "value are supported");
      Root &root = roots[get.getResult()];
      root.value = get.getResult();
      root.type = get.getType();
      root.role = Role::Weights;
      root.name = get.getName().str();
      root.weights = cast<ElementsAttr>(*global.getInitialValue());
    }
  }
  for (auto &[value, root] : roots) {
    if (!root.type.hasStaticShape() || !root.type.getElementType().isF32())
      return (isa<BlockArgument>(value) ? func.getOperation()
                                        : value.getDefiningOp())
                 ->emitError("inferentia: tensor '")
             << root.name << "' of type " << root.type
             << ": the engines compute on static float32 tensors only";
  }
  return success();
}

FailureOr<Access> Lowering::resolve(Operation *user, Value memref,
                                    ArrayRef<AffineExpr> indices) {
  SmallVector<AffineExpr> index(indices);
  while (!roots.count(memref)) {
    Operation *def = memref.getDefiningOp();
    if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(def)) {
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      SmallVector<AffineExpr> source;
      for (ReassociationIndices group : expand.getReassociationIndices()) {
        AffineExpr linear = getAffineConstantExpr(0, context);
        for (int64_t d : group)
          linear = linear * shape[d] + index[d];
        source.push_back(linear);
      }
      index = source;
      memref = expand.getSrc();
      continue;
    }
    if (auto collapse = dyn_cast_or_null<memref::CollapseShapeOp>(def)) {
      ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
      SmallVector<AffineExpr> source;
      for (auto [j, group] :
           llvm::enumerate(collapse.getReassociationIndices())) {
        int64_t inner = 1;
        for (int64_t d : group)
          inner *= shape[d];
        for (auto [k, d] : llvm::enumerate(group)) {
          inner /= shape[d];
          AffineExpr e = index[j].floorDiv(inner);
          source.push_back(k == 0 ? e : e % shape[d]);
        }
      }
      index = source;
      memref = collapse.getSrc();
      continue;
    }
    if (auto subview = dyn_cast_or_null<memref::SubViewOp>(def)) {
      if (!subview.hasZeroOffset() && false)
        break;
      ArrayRef<int64_t> offsets = subview.getStaticOffsets();
      ArrayRef<int64_t> strides = subview.getStaticStrides();
      if (ShapedType::isDynamicShape(offsets) ||
          ShapedType::isDynamicShape(strides) ||
          subview.getSourceType().getRank() != subview.getType().getRank())
        return user->emitError("inferentia: a dynamic or rank-reducing "
                               "subview is not supported");
      SmallVector<AffineExpr> source;
      for (auto [i, e] : llvm::enumerate(index))
        source.push_back(e * strides[i] + offsets[i]);
      index = source;
      memref = subview.getSource();
      continue;
    }
    return user->emitError("inferentia: cannot follow the view ")
           << (def ? def->getName().getStringRef() : StringRef("argument"))
           << " to a buffer";
  }
  Access access;
  access.root = memref;
  access.indices = index;
  return access;
}

FailureOr<SmallVector<Piece>>
Lowering::parsePieces(Nest &nest, Value value,
                      SmallVector<std::pair<IntegerSet, bool>> conditions) {
  auto loopIndex = [&](Value v) -> std::optional<unsigned> {
    for (auto [i, loop] : llvm::enumerate(nest.loops))
      if (loop.getInductionVar() == v)
        return i;
    return std::nullopt;
  };
  // Loop dims in the nest's numbering for an affine op's map operands.
  auto dimsOf = [&](Operation *user,
                    ValueRange operands) -> FailureOr<SmallVector<AffineExpr>> {
    SmallVector<AffineExpr> dims;
    for (Value operand : operands) {
      std::optional<unsigned> i = loopIndex(operand);
      if (!i)
        return user->emitError("inferentia: an index that is not a loop of "
                               "the nest");
      dims.push_back(getAffineDimExpr(*i, context));
    }
    return dims;
  };
  SmallVector<Piece> pieces;
  if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
    auto attr = dyn_cast<FloatAttr>(constant.getValue());
    if (!attr)
      return constant.emitError("inferentia: a non-float constant");
    Piece &piece = pieces.emplace_back();
    piece.conditions = conditions;
    piece.constant = attr.getValueAsDouble();
    return pieces;
  }
  if (auto load = value.getDefiningOp<affine::AffineLoadOp>()) {
    FailureOr<SmallVector<AffineExpr>> dims =
        dimsOf(load, load.getMapOperands());
    if (failed(dims))
      return failure();
    SmallVector<AffineExpr> indices;
    for (AffineExpr e : load.getAffineMap().getResults())
      indices.push_back(e.replaceDimsAndSymbols(*dims, {}));
    FailureOr<Access> access = resolve(load, load.getMemRef(), indices);
    if (failed(access))
      return failure();
    Piece &piece = pieces.emplace_back();
    piece.conditions = conditions;
    piece.access = *access;
    return pieces;
  }
  if (auto ifOp = value.getDefiningOp<affine::AffineIfOp>()) {
    FailureOr<SmallVector<AffineExpr>> dims = dimsOf(ifOp, ifOp.getOperands());
    if (failed(dims))
      return failure();
    IntegerSet set = ifOp.getIntegerSet().replaceDimsAndSymbols(
        *dims, {}, nest.getNumLoops(), 0);
    unsigned resultIndex = cast<OpResult>(value).getResultNumber();
    for (bool holds : {true, false}) {
      Block *block = holds ? ifOp.getThenBlock() : ifOp.getElseBlock();
      if (!block)
        return ifOp.emitError("inferentia: an affine.if without else");
      Value yielded = block->getTerminator()->getOperand(resultIndex);
      auto inner = conditions;
      inner.emplace_back(set, holds);
      FailureOr<SmallVector<Piece>> sub = parsePieces(nest, yielded, inner);
      if (failed(sub))
        return failure();
      pieces.append(sub->begin(), sub->end());
    }
    return pieces;
  }
  Operation *def = value.getDefiningOp();
  return (def ? def : nest.root)->emitError("inferentia: a value read through ")
         << (def ? def->getName().getStringRef() : StringRef("an argument"))
         << " is not supported";
}

FailureOr<int> Lowering::parseValue(Nest &nest, Value value) {
  // Values are numbered in body order; operands before their users.
  for (auto [i, v] : llvm::enumerate(nest.values))
    if (v.op && v.op->getNumResults() && v.op->getResult(0) == value)
      return static_cast<int>(i);
  Operation *def = value.getDefiningOp();
  BodyValue parsed;
  if (def && isa<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<FloatAttr>(cast<arith::ConstantOp>(def).getValue());
    if (!attr)
      return def->emitError("inferentia: a non-float constant");
    parsed.kind = BodyValue::Kind::Constant;
    parsed.constant = attr.getValueAsDouble();
    parsed.op = def;
  } else if (def && isa<affine::AffineLoadOp, affine::AffineIfOp>(def)) {
    FailureOr<SmallVector<Piece>> pieces = parsePieces(nest, value, {});
    if (failed(pieces))
      return failure();
    parsed.kind = BodyValue::Kind::Read;
    parsed.pieces = *pieces;
    parsed.op = def;
  } else if (def && def->getNumResults() == 1 &&
             (getAlu(def) || getFunction(def) ||
              isa<math::Log1pOp, math::PowFOp, arith::SelectOp>(def))) {
    parsed.kind = BodyValue::Kind::Op;
    parsed.op = def;
    for (Value operand : def->getOperands()) {
      FailureOr<int> index = parseValue(nest, operand);
      if (failed(index))
        return failure();
      parsed.operands.push_back(*index);
    }
  } else {
    return (def ? def : nest.root)->emitError()
           << "inferentia: node '" << getNodeName(nest.root->getLoc()) << "' ("
           << getNodeOpType(nest.root->getLoc()) << "): "
           << (def ? def->getName().getStringRef() : StringRef("argument"))
           << " has no engine instruction";
  }
  nest.values.push_back(parsed);
  return static_cast<int>(nest.values.size() - 1);
}

LogicalResult Lowering::parseNest(Operation *root, Nest &nest) {
  nest.root = root;
  nest.description = getNestDescription(root);
  nest.relayout = root->hasAttr("dlc.relayout");
  auto loop = dyn_cast<affine::AffineForOp>(root);
  while (loop) {
    if (!loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
        loop.getStepAsInt() != 1)
      return emitNestError(nest) << "loops must run from 0 with step 1";
    nest.loops.push_back(loop);
    nest.trips.push_back(loop.getConstantUpperBound());
    Block *body = loop.getBody();
    auto inner = body->getOps<affine::AffineForOp>();
    if (inner.empty())
      break;
    if (std::next(inner.begin()) != inner.end() ||
        &body->front() != *inner.begin() || body->getOperations().size() != 2)
      return emitNestError(nest) << "the nest is not perfectly nested";
    loop = *inner.begin();
  }
  affine::AffineStoreOp store = dyn_cast<affine::AffineStoreOp>(root);
  if (!nest.loops.empty()) {
    for (Operation &op : *nest.loops.back().getBody()) {
      if (auto s = dyn_cast<affine::AffineStoreOp>(op)) {
        if (store)
          return emitNestError(nest) << "a nest with two stores";
        store = s;
      }
    }
  }
  if (!store)
    return emitNestError(nest) << "a nest without a store";
  SmallVector<AffineExpr> dims;
  for (Value operand : store.getMapOperands()) {
    auto *it = llvm::find_if(nest.loops, [&](affine::AffineForOp l) {
      return l.getInductionVar() == operand;
    });
    if (it == nest.loops.end())
      return emitNestError(nest) << "a store index that is not a loop";
    dims.push_back(getAffineDimExpr(it - nest.loops.begin(), context));
  }
  SmallVector<AffineExpr> indices;
  for (AffineExpr e : store.getAffineMap().getResults())
    indices.push_back(e.replaceDimsAndSymbols(dims, {}));
  FailureOr<Access> access = resolve(store, store.getMemRef(), indices);
  if (failed(access))
    return failure();
  nest.store = *access;
  FailureOr<int> stored = parseValue(nest, store.getValueToStore());
  if (failed(stored))
    return failure();
  nest.stored = *stored;
  return success();
}

LogicalResult Lowering::assignMappings() {
  for (auto &[value, root] : roots) {
    int64_t dim = -1;
    IntegerAttr attr;
    if (auto arg = dyn_cast<BlockArgument>(value))
      attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                "dlc.bank_dim");
    else
      attr = value.getDefiningOp()->getAttrOfType<IntegerAttr>("dlc.bank_dim");
    ArrayRef<int64_t> shape = root.type.getShape();
    if (attr)
      dim = attr.getInt();
    else if (!shape.empty()) {
      // Unbanked buffers (too small for the shared pass): the outermost
      // largest dimension, as the local default.
      dim = 0;
      for (int64_t d = 1; d < static_cast<int64_t>(shape.size()); ++d)
        if (std::min(shape[d], machine.partitions) >
            std::min(shape[dim], machine.partitions))
          dim = d;
    }
    SmallVector<int64_t> mappingShape(shape);
    if (mappingShape.empty())
      mappingShape.push_back(1), dim = 0;
    int64_t tile =
        dim < 0 ? 1 : std::min(mappingShape[dim], machine.partitions);
    // Parts read at an offset along the partition dimension (a gate's
    // second half, channel 1 of 2) start at partition 0 when the tile
    // divides the offset: the engines work lane by lane, and a part at
    // partition 64 would have to move before it meets one at 0.
    if (dim >= 0 && static_cast<size_t>(dim) < shape.size())
      for (int64_t offset : getPartitionOffsets(value, dim))
        tile = std::gcd(tile, offset);
    root.mapping = MappingAttr::get(context, mappingShape, dim, tile);
    root.layout = Layout::get(root.mapping);
  }
  // An elementwise nest keeps its operands' lanes together: a tensor it
  // reads on the partitions it writes gets the same tile, to a fixed point
  // (a gate read in halves makes the sum that produces it halved too).
  auto tileOf = [&](Value root) { return roots[root].layout.partitionTile; };
  auto setTile = [&](Value root, int64_t tile) {
    Root &r = roots[root];
    r.mapping = MappingAttr::get(context, r.mapping.getShape(),
                                 r.mapping.getPartitionDim(), tile);
    r.layout = Layout::get(r.mapping);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Nest &nest : nests) {
      if (nest.description &&
          (nest.description->kind == NestClass::Convolution ||
           nest.description->kind == NestClass::Contraction))
        continue;
      Value written = nest.store.root;
      int64_t wDim = roots[written].layout.partitionDim;
      if (wDim < 0 || static_cast<size_t>(wDim) >= nest.store.indices.size())
        continue;
      AffineExpr wIndex = nest.store.indices[wDim];
      for (const BodyValue &v : nest.values)
        for (const Piece &p : v.pieces) {
          if (!p.access || p.access->root == written)
            continue;
          int64_t rDim = roots[p.access->root].layout.partitionDim;
          if (rDim < 0 ||
              static_cast<size_t>(rDim) >= p.access->indices.size() ||
              p.access->indices[rDim] != wIndex)
            continue;
          int64_t tile = std::gcd(tileOf(written), tileOf(p.access->root));
          for (Value root : {written, p.access->root})
            if (tileOf(root) != tile) {
              setTile(root, tile);
              changed = true;
            }
        }
    }
  }
  return success();
}

SmallVector<int64_t> Lowering::getPartitionOffsets(Value root, int64_t dim) {
  // Reads whose index along `dim` is one loop plus a constant.
  SmallVector<int64_t> offsets;
  for (const Nest &nest : nests)
    for (const BodyValue &v : nest.values)
      for (const Piece &p : v.pieces) {
        if (!p.access || p.access->root != root ||
            static_cast<int64_t>(p.access->indices.size()) <= dim)
          continue;
        AffineExpr index = p.access->indices[dim];
        auto sum = dyn_cast<AffineBinaryOpExpr>(index);
        if (!sum || sum.getKind() != AffineExprKind::Add)
          continue;
        auto loop = dyn_cast<AffineDimExpr>(sum.getLHS());
        auto offset = dyn_cast<AffineConstantExpr>(sum.getRHS());
        if (loop && offset && offset.getValue() > 0)
          offsets.push_back(offset.getValue());
      }
  return offsets;
}

void Lowering::stripMine(Nest &nest, unsigned loop, int64_t factor) {
  unsigned n = nest.getNumLoops();
  SmallVector<AffineExpr> replacement;
  for (unsigned i = 0; i < n; ++i)
    replacement.push_back(i == loop ? getAffineDimExpr(i, context) * factor +
                                          getAffineDimExpr(n, context)
                                    : getAffineDimExpr(i, context));
  auto rewrite = [&](Access &access) {
    for (AffineExpr &e : access.indices)
      e = e.replaceDimsAndSymbols(replacement, {});
  };
  rewrite(nest.store);
  for (BodyValue &value : nest.values)
    for (Piece &piece : value.pieces) {
      if (piece.access)
        rewrite(*piece.access);
      for (auto &[set, holds] : piece.conditions)
        set = set.replaceDimsAndSymbols(replacement, {}, n + 1, 0);
    }
  nest.trips[loop] /= factor;
  nest.trips.push_back(factor);
}

bool Lowering::tryPacking(Nest &nest, int product, unsigned mLoop,
                          ArrayRef<bool> inStore,
                          const DenseMap<Value, int> &readers) {
  SmallVector<unsigned> reductions;
  for (unsigned l = 0; l < nest.getNumLoops(); ++l)
    if (!inStore[l])
      reductions.push_back(l);
  for (int operand : nest.values[product].operands) {
    const BodyValue &read = nest.values[operand];
    if (read.kind != BodyValue::Kind::Read || read.pieces.size() != 1 ||
        !read.pieces[0].access)
      continue;
    const Access &access = *read.pieces[0].access;
    Root &weights = roots[access.root];
    if (weights.role != Role::Weights || readers.lookup(access.root) != 1 ||
        static_cast<int64_t>(access.indices.size()) != weights.type.getRank())
      continue;
    // Every dimension of the weights a loop of its own: the output's and
    // the reduction loops, each once.
    std::optional<int64_t> outputDim;
    SmallVector<std::pair<unsigned, int64_t>> reductionDims;
    bool plain = true;
    for (auto [d, index] : llvm::enumerate(access.indices)) {
      auto dim = dyn_cast<AffineDimExpr>(index);
      if (!dim)
        plain = false;
      else if (dim.getPosition() == mLoop)
        outputDim = d;
      else if (!inStore[dim.getPosition()])
        reductionDims.emplace_back(dim.getPosition(), d);
      else
        plain = false;
    }
    if (!plain || !outputDim || reductionDims.size() != reductions.size() ||
        reductions.size() < 2)
      return false;
    // The contraction loop (the outermost reduction loop: the channels)
    // is short.
    llvm::sort(reductionDims);
    int64_t channels = nest.trips[reductionDims.front().first];
    if (channels * 4 > machine.partitions)
      return false;
    int64_t inner = 1, total = 1;
    for (auto [loop, d] : ArrayRef(reductionDims).drop_front())
      inner *= nest.trips[loop];
    for (auto [loop, d] : reductionDims)
      total *= nest.trips[loop];
    if (inner > machine.partitions || total <= channels)
      return false;
    int64_t chunk = std::min(nest.trips[reductionDims.front().first],
                             machine.partitions / inner) *
                    inner;
    SmallVector<int64_t> permutation;
    Nest::Packing packing;
    for (auto [loop, d] : reductionDims) {
      permutation.push_back(d);
      packing.loops.push_back(loop);
    }
    permutation.push_back(*outputDim);
    packing.chunkPartitions = chunk;
    int64_t outputs = weights.type.getDimSize(*outputDim);
    weights.mapping = MappingAttr::get(context, {total, outputs}, 0, chunk);
    weights.layout = Layout::get(weights.mapping);
    weights.layout.permutation = permutation;
    nest.packing = packing;
    return true;
  }
  return false;
}

/// Whether `access` is the identity over the first `rank` loops of `nest`
/// (the whole output, in order).
static bool isIdentityAccess(const Nest &nest, const Access &access,
                             ArrayRef<int64_t> shape) {
  if (access.indices.size() != shape.size() ||
      nest.getNumLoops() < shape.size())
    return false;
  for (auto [d, index] : llvm::enumerate(access.indices)) {
    auto dim = dyn_cast<AffineDimExpr>(index);
    if (!dim || dim.getPosition() != d || nest.trips[d] != shape[d])
      return false;
  }
  return true;
}

void Lowering::planEvacuations() {
  auto readers = [&](Value root, size_t except1, size_t except2) {
    for (auto [j, other] : llvm::enumerate(nests))
      if (j != except1 && j != except2)
        for (const BodyValue &v : other.values)
          for (const Piece &p : v.pieces)
            if (p.access && p.access->root == root)
              return true;
    return false;
  };
  for (size_t i = 1; i < nests.size(); ++i) {
    Nest &nest = nests[i];
    Nest &init = nests[i - 1];
    const BodyValue &stored = nest.values[nest.stored];
    if (!nest.description ||
        (nest.description->kind != NestClass::Convolution &&
         nest.description->kind != NestClass::Contraction) ||
        stored.kind != BodyValue::Kind::Op || !isa<arith::AddFOp>(stored.op))
      continue;
    Value out = nest.store.root;
    ArrayRef<int64_t> shape = roots[out].type.getShape();
    if (roots[out].role != Role::Intermediate ||
        !isIdentityAccess(nest, nest.store, shape) || init.store.root != out ||
        !isIdentityAccess(init, init.store, shape) || init.fused)
      continue;
    // The first value: a read of something else, or a constant.
    const BodyValue &first = init.values[init.stored];
    std::optional<Piece> value;
    if (first.kind == BodyValue::Kind::Constant) {
      value = Piece();
      value->constant = first.constant;
    } else if (first.kind == BodyValue::Kind::Read &&
               first.pieces.size() == 1 && first.pieces[0].access &&
               first.pieces[0].access->root != out) {
      value = first.pieces[0];
    }
    if (!value)
      continue;
    // The ReLU after it: max(out, 0) of the whole output, and nothing else
    // reads the output.
    if (i + 1 >= nests.size() || readers(out, i, i + 1))
      continue;
    Nest &relu = nests[i + 1];
    const BodyValue &r = relu.values[relu.stored];
    bool isRelu = r.kind == BodyValue::Kind::Op &&
                  isa<arith::MaximumFOp, arith::MaxNumFOp>(r.op);
    if (isRelu) {
      int a = r.operands[0], b = r.operands[1];
      auto isZero = [&](int v) {
        return relu.values[v].kind == BodyValue::Kind::Constant &&
               relu.values[v].constant == 0;
      };
      auto isOut = [&](int v) {
        const BodyValue &read = relu.values[v];
        return read.kind == BodyValue::Kind::Read && read.pieces.size() == 1 &&
               read.pieces[0].access && read.pieces[0].access->root == out &&
               isIdentityAccess(relu, *read.pieces[0].access, shape);
      };
      isRelu = (isZero(a) && isOut(b)) || (isZero(b) && isOut(a));
    }
    // The ReLU's result lies across the partitions as the output does.
    auto bankDim = [&](Value root) -> std::optional<int64_t> {
      IntegerAttr attr;
      if (auto arg = dyn_cast<BlockArgument>(root))
        attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                  "dlc.bank_dim");
      else
        attr = root.getDefiningOp()->getAttrOfType<IntegerAttr>("dlc.bank_dim");
      if (!attr)
        return std::nullopt;
      return attr.getInt();
    };
    if (!isRelu || !isIdentityAccess(relu, relu.store, shape) ||
        roots[relu.store.root].type.getShape() != shape ||
        bankDim(relu.store.root) != bankDim(out))
      continue;
    nest.initialValue = value;
    nest.evacuateTo = relu.store;
    init.fused = true;
    relu.fused = true;
  }
}

Operand Lowering::evacuationTarget(Nest &nest, const Box &box, unsigned mLoop,
                                   ArrayRef<unsigned> order,
                                   const LoopPattern &out) {
  int64_t m = box.getSize(mLoop);
  if (!nest.evacuateTo)
    return {roots[nest.store.root].sbuf,
            toAp(BoxOperand{Value(), out}, m, box, order)};
  const Access &to = *nest.evacuateTo;
  PatternOrSplit pattern = getLoopPattern(locate(to, roots[to.root].layout),
                                          nest.getNumLoops(), box, mLoop);
  // The ReLU's result has the output's shape and, in every mode, its
  // layout (the ReLU is a flexible nest between them); a box within one
  // partition tile of one is within one of the other.
  return {roots[to.root].sbuf,
          toAp(BoxOperand{Value(), *pattern.pattern}, m, box, order)};
}

void Lowering::emitEvacuation(Nest &nest, const Box &box, unsigned mLoop,
                              Operand dst, Operand psum,
                              ArrayRef<unsigned> order) {
  int64_t m = box.getSize(mLoop);
  if (!nest.initialValue) {
    emit(TensorTensorOp::getOperationName(), dst, {dst, psum},
         {builder.getNamedAttr("alu0",
                               builder.getStringAttr(getName(AluOp::Add)))},
         Engine::Vector);
    return;
  }
  // function(psum + bias) on the scalar engine, the bias one value per
  // partition (or an immediate).
  SmallVector<Operand> srcs{psum};
  SmallVector<NamedAttribute> attrs{builder.getNamedAttr(
      "function", builder.getStringAttr(getName(
                      nest.evacuateTo ? ActivationFunction::Relu
                                      : ActivationFunction::Identity)))};
  const Piece &value = *nest.initialValue;
  std::optional<LoopPattern> bias;
  if (value.access) {
    Box point = box;
    for (unsigned l : order)
      point = point.fix(l, box.lo[l]);
    PatternOrSplit pattern =
        getLoopPattern(locate(*value.access, roots[value.access->root].layout),
                       nest.getNumLoops(), point, mLoop);
    // A first value that varies along the free loops is not a bias.
    bool perPartition = pattern.pattern.has_value();
    if (perPartition) {
      PatternOrSplit whole = getLoopPattern(
          locate(*value.access, roots[value.access->root].layout),
          nest.getNumLoops(), box, mLoop);
      perPartition = whole.pattern && llvm::all_of(order, [&](unsigned l) {
                       return whole.pattern->freeStrides[l] == 0;
                     });
    }
    if (!perPartition) {
      // Materialise the first value, then add.
      Operand first = dst;
      PatternOrSplit full = getLoopPattern(
          locate(*value.access, roots[value.access->root].layout),
          nest.getNumLoops(), box, mLoop);
      Operand src{roots[value.access->root].sbuf,
                  toAp(BoxOperand{Value(), *full.pattern}, m, box, order)};
      emit(TensorTensorOp::getOperationName(), dst, {psum, src},
           {builder.getNamedAttr("alu0",
                                 builder.getStringAttr(getName(AluOp::Add)))},
           Engine::Vector);
      if (nest.evacuateTo)
        emit(TensorScalarOp::getOperationName(), dst, {first},
             {builder.getNamedAttr("alu0",
                                   builder.getStringAttr(getName(AluOp::Max))),
              builder.getNamedAttr(
                  "alu1", builder.getStringAttr(getName(AluOp::Bypass)))},
             Engine::Vector);
      return;
    }
    srcs.push_back({roots[value.access->root].sbuf,
                    getAp(pattern.pattern->partitionStart, m, 0,
                          pattern.pattern->freeOffset, {})});
  } else {
    attrs.push_back(
        builder.getNamedAttr("imm0", builder.getF32FloatAttr(value.constant)));
  }
  emit(ActivationOp::getOperationName(), dst, srcs, attrs, Engine::Scalar);
}

void Lowering::planContractions() {
  // How many nests read each buffer: weights read by one nest only are
  // laid out for it.
  DenseMap<Value, int> readers;
  for (Nest &nest : nests) {
    llvm::SmallPtrSet<Value, 8> seen;
    for (const BodyValue &v : nest.values)
      for (const Piece &p : v.pieces)
        if (p.access && seen.insert(p.access->root).second)
          ++readers[p.access->root];
  }
  for (Nest &nest : nests) {
    // out = out + a * b, as lowerNest recognises it.
    const BodyValue &stored = nest.values[nest.stored];
    if (stored.kind != BodyValue::Kind::Op || !isa<arith::AddFOp>(stored.op))
      continue;
    int product = -1;
    for (int operand : stored.operands)
      if (nest.values[operand].kind == BodyValue::Kind::Op &&
          isa<arith::MulFOp>(nest.values[operand].op))
        product = operand;
    std::optional<unsigned> mLoop = getPartitionLoop(nest, nest.store);
    if (product < 0 || !mLoop)
      continue;
    SmallVector<bool> inStore(nest.getNumLoops(), false);
    for (AffineExpr e : nest.store.indices)
      e.walk([&](AffineExpr d) {
        if (auto dim = dyn_cast<AffineDimExpr>(d))
          inStore[dim.getPosition()] = true;
      });
    auto singleAccess = [&](int value) -> const Access * {
      const BodyValue &read = nest.values[value];
      if (read.kind != BodyValue::Kind::Read || read.pieces.size() != 1 ||
          !read.pieces[0].access)
        return nullptr;
      return &*read.pieces[0].access;
    };
    // A contraction loop that reaches the moving operand's partitions in
    // groups, (k + c) floordiv q (a flattened activation).
    std::optional<std::pair<unsigned, int64_t>> grouped;
    for (int operand : nest.values[product].operands) {
      const Access *access = singleAccess(operand);
      if (!access)
        continue;
      locate(*access, roots[access->root].layout)
          .partition.walk([&](AffineExpr e) {
            auto div = dyn_cast<AffineBinaryOpExpr>(e);
            if (!div || div.getKind() != AffineExprKind::FloorDiv)
              return;
            auto q = dyn_cast<AffineConstantExpr>(div.getRHS());
            AffineExpr lhs = div.getLHS();
            if (auto sum = dyn_cast<AffineBinaryOpExpr>(lhs))
              if (sum.getKind() == AffineExprKind::Add &&
                  isa<AffineConstantExpr>(sum.getRHS()))
                lhs = sum.getLHS();
            auto dim = dyn_cast<AffineDimExpr>(lhs);
            if (q && dim && q.getValue() > 1 && !inStore[dim.getPosition()] &&
                nest.trips[dim.getPosition()] % q.getValue() == 0 &&
                nest.trips[dim.getPosition()] > q.getValue())
              grouped = {dim.getPosition(), q.getValue()};
          });
    }
    // Few channels and some kernel taps: pack the taps with the channels
    // across the partitions (the first layer's 3 channels would use 3 of
    // the array's 128 rows), when the weights are read by this nest only
    // and hold exactly its output and reduction dimensions.
    if (!grouped && tryPacking(nest, product, *mLoop, inStore, readers))
      continue;
    // The stationary weights: the contraction dimension across the
    // partitions (in the moving operand's groups), the output's
    // dimension innermost, so that a matmul's stationary operand is one
    // run per partition.
    for (int operand : nest.values[product].operands) {
      const Access *access = singleAccess(operand);
      if (!access || readers[access->root] != 1)
        continue;
      Root &weights = roots[access->root];
      if (weights.role != Role::Weights ||
          static_cast<int64_t>(access->indices.size()) !=
              weights.type.getRank())
        continue;
      std::optional<int64_t> outputDim, contractionDim;
      for (auto [d, index] : llvm::enumerate(access->indices)) {
        auto dim = dyn_cast<AffineDimExpr>(index);
        if (dim && dim.getPosition() == *mLoop)
          outputDim = d;
        if (dim && static_cast<int64_t>(d) == weights.layout.partitionDim &&
            !inStore[dim.getPosition()])
          contractionDim = d;
      }
      if (!outputDim || !contractionDim)
        continue;
      SmallVector<int64_t> permutation{*contractionDim};
      for (int64_t d = 0; d < weights.type.getRank(); ++d)
        if (d != *contractionDim && d != *outputDim)
          permutation.push_back(d);
      permutation.push_back(*outputDim);
      SmallVector<int64_t> shape;
      for (int64_t d : permutation)
        shape.push_back(weights.type.getDimSize(d));
      auto index = dyn_cast<AffineDimExpr>(access->indices[*contractionDim]);
      if (grouped && index.getPosition() == grouped->first) {
        shape[0] /= grouped->second;
        shape.insert(shape.begin() + 1, grouped->second);
      }
      weights.mapping = MappingAttr::get(
          context, shape, 0, std::min(shape[0], machine.partitions));
      weights.layout = Layout::get(weights.mapping);
      weights.layout.permutation = permutation;
    }
    if (grouped)
      stripMine(nest, grouped->first, grouped->second);
  }
}

LogicalResult Lowering::allocate() {
  // Scratch at the top of every partition: the rotating slots, and the
  // staging slots when a tensor lives in DRAM; below, the buffers' homes,
  // first fit over their live ranges.
  int64_t capacity =
      machine.sbufPartitionBytes - kSlots * kSlotElements * kElementBytes -
      512 - (staging ? kStagingSlots * kStagingElements * kElementBytes : 0);
  struct Interval {
    int64_t begin, end, last;
  };
  std::vector<Interval> live;
  SmallVector<Root *> order;
  for (auto &[value, root] : roots) {
    if (root.first < 0)
      continue;
    bool loaded = root.role == Role::Weights || root.role == Role::Input;
    root.loadAt =
        loaded ? std::max<int64_t>(0, root.first - kPrefetchNests) : root.first;
    order.push_back(&root);
  }
  llvm::stable_sort(order,
                    [](Root *a, Root *b) { return a->loadAt < b->loadAt; });
  // First fit among the buffers live from `from` on.
  auto place = [&](int64_t from, int64_t size) {
    int64_t at = 0;
    SmallVector<Interval> overlapping;
    for (const Interval &i : live)
      if (i.last >= from)
        overlapping.push_back(i);
    llvm::sort(overlapping, [](const Interval &a, const Interval &b) {
      return a.begin < b.begin;
    });
    for (const Interval &i : overlapping) {
      if (at + size <= i.begin)
        break;
      at = std::max(at, i.end);
    }
    return at;
  };
  for (Root *root : order) {
    int64_t size = llvm::alignTo(root->getPartitionBytes(), 64);
    int64_t at = place(root->loadAt, size);
    if (at + size > capacity && root->loadAt < root->first) {
      // No room that early: load it just before its first use.
      root->loadAt = root->first;
      at = place(root->loadAt, size);
    }
    if (at + size > capacity) {
      // It stays in DRAM. Model inputs and outputs can only when their
      // mapping's order is their row-major order (nothing outside the
      // partition dimension but size-1 dimensions).
      bool rowMajor = llvm::all_of(
          ArrayRef<int64_t>(root->layout.shape)
              .take_front(std::max<int64_t>(root->layout.partitionDim, 0)),
          [](int64_t d) { return d == 1; });
      if ((root->role == Role::Input || root->role == Role::Output) &&
          !rowMajor) {
        Operation *where = nests[root->first].root;
        return where->emitError()
               << "inferentia: node '" << getNodeName(where->getLoc()) << "' ("
               << getNodeOpType(where->getLoc()) << "): " << root->name
               << " needs " << size
               << " bytes per partition of SBUF, more than the "
               << capacity - at
               << " left, and cannot be read from DRAM in "
                  "its layout";
      }
      root->inDram = true;
      continue;
    }
    root->sbufAddress = at;
    live.push_back({at, at + size, root->last});
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

AccessPatternAttr Lowering::getAp(int64_t start, int64_t partitions,
                                  int64_t partitionStride, int64_t offset,
                                  ArrayRef<std::pair<int64_t, int64_t>> dims) {
  SmallVector<int64_t> strides, sizes;
  for (auto [stride, size] : dims) {
    if (size == 1)
      continue;
    // An inner dimension that continues the outer one's run merges into it:
    // the elements come in the same order.
    if (!sizes.empty() && strides.back() == stride * size) {
      strides.back() = stride;
      sizes.back() *= size;
      continue;
    }
    strides.push_back(stride);
    sizes.push_back(size);
  }
  if (strides.empty()) {
    strides.push_back(1);
    sizes.push_back(1);
  }
  return AccessPatternAttr::get(context, start, partitions, partitionStride,
                                offset, strides, sizes);
}

AccessPatternAttr Lowering::toAp(const BoxOperand &operand, int64_t partitions,
                                 const Box &box, ArrayRef<unsigned> order) {
  SmallVector<std::pair<int64_t, int64_t>> dims;
  for (unsigned l : order)
    dims.emplace_back(operand.pattern.freeStrides[l], box.getSize(l));
  return getAp(operand.pattern.partitionStart, partitions, 0,
               operand.pattern.freeOffset, dims);
}

Value Lowering::emit(StringRef opName, Operand dst, ArrayRef<Operand> srcs,
                     ArrayRef<NamedAttribute> attrs, Engine engine,
                     std::optional<Cause> cause) {
  // Operands that live in DRAM in their mapping's order: a DMA reads or
  // writes them in place; a compute engine works on a staged copy.
  auto inDram = [&](const Operand &o) { return dramHomes.count(o.buffer); };
  auto toDram = [&](const Operand &o) {
    auto mapping = cast<BufferType>(o.buffer.getType()).getMapping();
    int64_t free = mapping.getFreeElements();
    return Operand{o.buffer, AccessPatternAttr::get(
                                 context, 0, o.ap.getPartitions(), free,
                                 o.ap.getStart() * free + o.ap.getOffset(),
                                 o.ap.getStrides(), o.ap.getSizes())};
  };
  if (engine == Engine::Dma && (inDram(dst) || llvm::any_of(srcs, inDram))) {
    // Off chip: why the DRAM tensor moves (a load of an input or weights,
    // a store of an output, a spill), whatever the on-chip side is for.
    std::optional<Cause> offChip = cause;
    SmallVector<Operand> sources;
    for (const Operand &src : srcs) {
      if (inDram(src))
        offChip = dramHomes.lookup(src.buffer);
      sources.push_back(inDram(src) ? toDram(src) : src);
    }
    if (inDram(dst))
      offChip = dramHomes.lookup(dst.buffer);
    return emitRaw(opName, inDram(dst) ? toDram(dst) : dst, sources, attrs,
                   engine, offChip);
  }
  if (engine != Engine::Dma && (inDram(dst) || llvm::any_of(srcs, inDram))) {
    SmallVector<Operand> sources;
    for (const Operand &src : srcs) {
      if (!inDram(src)) {
        sources.push_back(src);
        continue;
      }
      Operand staged =
          realign(src, src.ap.getStart(), /*copy=*/false,
                  /*small=*/src.ap.getFreeElements() <= kStagingElements);
      emitRaw(DmaCopyOp::getOperationName(), staged, {toDram(src)}, {},
              Engine::Dma, dramHomes.lookup(src.buffer));
      sources.push_back(staged);
    }
    if (!inDram(dst))
      return emit(opName, dst, sources, attrs, engine, cause);
    Operand result = realign(dst, dst.ap.getStart(), /*copy=*/false);
    Value token = emit(opName, result, sources, attrs, engine, cause);
    emitRaw(DmaCopyOp::getOperationName(), toDram(dst), {result}, {},
            Engine::Dma, dramHomes.lookup(dst.buffer));
    return token;
  }
  // Compute engines work lane by lane: every operand on the same
  // partitions, starting where the engines can start. Operands elsewhere
  // move there by DMA first; a destination elsewhere gets the result by
  // DMA after.
  if (engine != Engine::Dma) {
    bool lanes = opName != MatmulOp::getOperationName() &&
                 opName != inferentia::TransposeOp::getOperationName();
    auto legal = [&](const Operand &o) {
      return checkPartitionRange(machine, o.ap.getStart(), o.ap.getPartitions())
          .empty();
    };
    SmallVector<Operand> sources(srcs);
    bool moved = false;
    if (lanes) {
      if (!legal(dst)) {
        Operand result = realign(dst, 0, /*copy=*/false);
        for (Operand &src : sources)
          if (src.ap.getPartitions() == dst.ap.getPartitions())
            src = src.ap.getStart() == 0 ? src : realign(src, 0);
        Value token = emit(opName, result, sources, attrs, engine, cause);
        emitDma(dst, result, Cause::Relayout);
        return token;
      }
      for (Operand &src : sources)
        if (src.ap.getStart() != dst.ap.getStart() &&
            src.ap.getPartitions() == dst.ap.getPartitions())
          src = realign(src, dst.ap.getStart()), moved = true;
    } else {
      // The contraction's operands share their partitions.
      int64_t start = sources[0].ap.getStart();
      if (!legal(sources[0]))
        start = 0;
      for (Operand &src : sources)
        if (src.ap.getStart() != start || !legal(src))
          src = realign(src, start), moved = true;
    }
    if (moved)
      return emit(opName, dst, sources, attrs, engine, cause);
  }
  return emitRaw(opName, dst, srcs, attrs, engine, cause);
}

Value Lowering::emitRaw(StringRef opName, Operand dst, ArrayRef<Operand> srcs,
                        ArrayRef<NamedAttribute> attrs, Engine engine,
                        std::optional<Cause> cause) {
  int lane = static_cast<int>(engine);
  int64_t queue = 0;
  if (engine == Engine::Dma) {
    queue = nextQueue++ % machine.dmaQueues;
    lane = 8 + static_cast<int>(queue);
  }
  llvm::SetVector<Value> deps;
  Region dstRegion = getRegion(dst.buffer, dst.ap);
  tracker.collect(dst.buffer, dstRegion, /*write=*/true, lane, deps);
  SmallVector<Region> srcRegions;
  for (const Operand &src : srcs) {
    srcRegions.push_back(getRegion(src.buffer, src.ap));
    tracker.collect(src.buffer, srcRegions.back(), /*write=*/false, lane, deps);
  }
  OperationState state(currentLoc ? *currentLoc : builder.getUnknownLoc(),
                       opName);
  state.addOperands(dst.buffer);
  SmallVector<Attribute> srcAps;
  for (const Operand &src : srcs) {
    state.addOperands(src.buffer);
    srcAps.push_back(src.ap);
  }
  state.addOperands(deps.getArrayRef());
  state.addAttribute("dst_ap", dst.ap);
  state.addAttribute("src_aps", builder.getArrayAttr(srcAps));
  state.addAttribute("engine", builder.getStringAttr(getName(engine)));
  state.addAttribute("layer", builder.getI64IntegerAttr(currentLayer));
  state.addAttribute(
      "operandSegmentSizes",
      builder.getDenseI32ArrayAttr({1, static_cast<int32_t>(srcs.size()),
                                    static_cast<int32_t>(deps.size())}));
  if (engine == Engine::Dma)
    state.addAttribute("queue", builder.getI64IntegerAttr(queue));
  if (cause)
    state.addAttribute("cause", builder.getStringAttr(getName(*cause)));
  for (NamedAttribute attr : attrs)
    state.addAttribute(attr.getName(), attr.getValue());
  state.addTypes(TokenType::get(context));
  Operation *op = builder.create(state);
  Value token = op->getResult(0);
  for (auto [src, region] : llvm::zip(srcs, srcRegions))
    tracker.record(src.buffer, region, /*write=*/false, lane, token);
  tracker.record(dst.buffer, dstRegion, /*write=*/true, lane, token);
  // The compiler's account of DRAM traffic per layer.
  if (currentLayer >= 0) {
    auto bytesOf = [&](const Operand &o) {
      auto type = cast<BufferType>(o.buffer.getType());
      return o.ap.getPartitions() * o.ap.getFreeElements() *
             type.getElementBytes();
    };
    if (cast<BufferType>(dst.buffer.getType()).getMemory() == "dram")
      layerWrites[currentLayer] += bytesOf(dst);
    for (const Operand &src : srcs)
      if (cast<BufferType>(src.buffer.getType()).getMemory() == "dram")
        layerReads[currentLayer] += bytesOf(src);
    layerBusy[currentLayer]
             [lane < 8 ? lane : 8 + (lane - 8) % machine.dmaQueues] +=
        estimateSeconds(opName, dst, srcs, engine);
  }
  return token;
}

double Lowering::estimateSeconds(StringRef opName, const Operand &dst,
                                 ArrayRef<Operand> srcs, Engine engine) const {
  // The compiler's own estimate (not the simulator's rules): what the
  // public NKI cost figures give per instruction, without waits.
  int64_t n = dst.ap.getFreeElements();
  switch (engine) {
  case Engine::Tensor: {
    int64_t m = srcs[0].ap.getFreeElements();
    int64_t moving = srcs[1].ap.getFreeElements();
    double cycles = std::max(std::min(machine.matmulMinCycles, m), moving);
    if (!machine.bf16Matmul)
      cycles *= machine.fp32MatmulFactor;
    return cycles / machine.tensorClockHz;
  }
  case Engine::Dma: {
    auto type = cast<BufferType>(dst.buffer.getType());
    double bytes = static_cast<double>(dst.ap.getPartitions()) *
                   dst.ap.getFreeElements() * type.getElementBytes();
    return machine.dmaFixedSeconds + bytes / machine.dmaQueueBytesPerSecond;
  }
  default: {
    double cycles = std::max<int64_t>(machine.engineMinCycles, n);
    if (opName == TensorTensorOp::getOperationName())
      cycles = 2.0 * n;
    else if (opName == TensorReduceOp::getOperationName())
      cycles = std::max<int64_t>(machine.engineMinCycles,
                                 srcs[0].ap.getFreeElements());
    double clock = engine == Engine::Scalar   ? machine.scalarClockHz
                   : engine == Engine::GpSimd ? machine.gpsimdClockHz
                                              : machine.vectorClockHz;
    return cycles / clock;
  }
  }
}

Value Lowering::emitDma(Operand dst, Operand src, Cause cause) {
  return emit(DmaCopyOp::getOperationName(), dst, {src}, {}, Engine::Dma,
              cause);
}

void Lowering::loadRoot(Root &root) {
  const Layout &layout = root.layout;
  int64_t free = layout.getFreeElements();
  if (root.role == Role::Weights) {
    // Weights lie in DRAM as the SBUF image: one run per partition.
    emitSplitDma(
        {root.sbuf, getAp(0, layout.getPartitions(), 0, 0, {{1, free}})},
        {root.dram, getAp(0, layout.getPartitions(), free, 0, {{1, free}})},
        Cause::Load);
    return;
  }
  // Inputs are row-major in DRAM: per partition tile, the partition
  // dimension steps partitions, the dimensions outside it one stride and
  // those inside it one contiguous run.
  ArrayRef<int64_t> shape = layout.shape;
  int64_t pd = layout.partitionDim;
  int64_t inner = 1, outer = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    (d < pd ? outer : (d > pd ? inner : inner)) *= d == pd ? 1 : shape[d];
  int64_t pdSize = shape[pd];
  int64_t tileStride = layout.getTileStride();
  for (int64_t t = 0; t * layout.partitionTile < pdSize; ++t) {
    int64_t count =
        std::min(layout.partitionTile, pdSize - t * layout.partitionTile);
    SmallVector<std::pair<int64_t, int64_t>> dramDims;
    if (outer > 1)
      dramDims.emplace_back(pdSize * inner, outer);
    dramDims.emplace_back(1, inner);
    Operand sbuf{root.sbuf,
                 getAp(0, count, 0, t * tileStride, {{1, tileStride}})};
    Operand dram{root.dram, getAp(0, count, inner,
                                  t * layout.partitionTile * inner, dramDims)};
    if (root.role == Role::Output)
      emitSplitDma(dram, sbuf, Cause::Store);
    else
      emitSplitDma(sbuf, dram, Cause::Load);
  }
}

void Lowering::storeRoot(Root &root) { loadRoot(root); }

void Lowering::emitSplitDma(Operand dst, Operand src, Cause cause) {
  // Large transfers spread over the queues by partitions, each piece still
  // large enough that its fixed cost does not matter (kSplitBytes).
  constexpr int64_t kSplitBytes = 64 * 1024;
  int64_t partitions = dst.ap.getPartitions();
  int64_t bytes = partitions * dst.ap.getFreeElements() * kElementBytes;
  int64_t pieces = std::clamp<int64_t>(bytes / kSplitBytes, 1,
                                       std::min(machine.dmaQueues, partitions));
  int64_t per = llvm::divideCeil(partitions, pieces);
  auto part = [&](const Operand &o, int64_t first, int64_t count) {
    bool dram = cast<BufferType>(o.buffer.getType()).getMemory() == "dram";
    return Operand{
        o.buffer,
        AccessPatternAttr::get(
            context, dram ? 0 : o.ap.getStart() + first, count,
            o.ap.getPartitionStride(),
            o.ap.getOffset() + (dram ? first * o.ap.getPartitionStride() : 0),
            o.ap.getStrides(), o.ap.getSizes())};
  };
  for (int64_t first = 0; first < partitions; first += per) {
    int64_t count = std::min(per, partitions - first);
    emitDma(part(dst, first, count), part(src, first, count), cause);
  }
}

//===----------------------------------------------------------------------===//
// Nests
//===----------------------------------------------------------------------===//

std::optional<unsigned> Lowering::getPartitionLoop(Nest &nest,
                                                   const Access &access) {
  ElementLocation location = locate(access, roots[access.root].layout);
  std::optional<unsigned> found;
  location.partition.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      if (nest.trips[dim.getPosition()] > 1)
        found = dim.getPosition();
  });
  return found;
}

static SmallVector<Box> subtract(const Box &box, const Box &inner);

/// The x of a body value computing 1 / (1 + exp(-x)) (how Sigmoid lowers).
static std::optional<int> matchSigmoid(const Nest &nest, int index) {
  auto constantOne = [&](int i) {
    const BodyValue &v = nest.values[i];
    return v.kind == BodyValue::Kind::Constant && v.constant == 1.0;
  };
  auto opOf = [&](int i) -> const BodyValue * {
    const BodyValue &v = nest.values[i];
    return v.kind == BodyValue::Kind::Op ? &v : nullptr;
  };
  const BodyValue *div = opOf(index);
  if (!div || !isa<arith::DivFOp>(div->op) || !constantOne(div->operands[0]))
    return std::nullopt;
  const BodyValue *sum = opOf(div->operands[1]);
  if (!sum || !isa<arith::AddFOp>(sum->op))
    return std::nullopt;
  int e = constantOne(sum->operands[0])   ? sum->operands[1]
          : constantOne(sum->operands[1]) ? sum->operands[0]
                                          : -1;
  const BodyValue *exp = e < 0 ? nullptr : opOf(e);
  if (!exp || !isa<math::ExpOp>(exp->op))
    return std::nullopt;
  const BodyValue *neg = opOf(exp->operands[0]);
  if (!neg || !isa<arith::NegFOp>(neg->op))
    return std::nullopt;
  return neg->operands[0];
}

LogicalResult Lowering::forEachPiece(
    Nest &nest, const Box &box, ArrayRef<int> reads,
    function_ref<LogicalResult(const Box &, ArrayRef<int>)> body) {
  SmallVector<int> chosen(reads.size(), 0);
  std::function<LogicalResult(const Box &, unsigned)> visit =
      [&](const Box &current, unsigned i) -> LogicalResult {
    if (current.isEmpty())
      return success();
    if (i == reads.size())
      return body(current, chosen);
    const BodyValue &value = nest.values[reads[i]];
    for (auto [p, piece] : llvm::enumerate(value.pieces)) {
      // Where the piece's conditions hold: boxes (a condition that does not
      // hold leaves the slabs around the box where it does).
      SmallVector<Box> regions{current};
      for (auto [set, holds] : piece.conditions) {
        SmallVector<Box> next;
        for (const Box &region : regions) {
          std::optional<Box> inside = clip(region, set);
          if (!inside) {
            // The condition couples two varying loops: fix one.
            std::optional<unsigned> loop = findCoupledLoop(region, set);
            if (!loop)
              return emitNestError(nest)
                     << "a read condition that couples loops";
            for (int64_t v = current.lo[*loop]; v < current.hi[*loop]; ++v)
              if (failed(visit(current.fix(*loop, v), i)))
                return failure();
            return success();
          }
          if (holds) {
            if (!inside->isEmpty())
              next.push_back(*inside);
            continue;
          }
          for (const Box &slab : subtract(region, *inside))
            next.push_back(slab);
        }
        regions = std::move(next);
      }
      chosen[i] = p;
      for (const Box &region : regions)
        if (failed(visit(region, i + 1)))
          return failure();
    }
    return success();
  };
  return visit(box, 0);
}

FailureOr<std::variant<BoxOperand, Split>>
Lowering::getReadOperand(Nest &nest, const Access &access, const Box &box,
                         std::optional<unsigned> partitionLoop,
                         ArrayRef<unsigned> order) {
  Root &root = roots[access.root];
  ElementLocation location = locate(access, root.layout);
  PatternOrSplit result =
      getLoopPattern(location, nest.getNumLoops(), box, partitionLoop);
  if (result.split)
    return std::variant<BoxOperand, Split>(*result.split);
  if (result.pattern)
    return std::variant<BoxOperand, Split>(
        BoxOperand{root.sbuf, *result.pattern});
  // The elements lie across the partitions otherwise: a slot gets them in
  // the instruction's layout, by DMA.
  BoxOperand slot{nextSlot(), getSlotPattern(box, partitionLoop, order)};
  if (failed(emitRelayout(nest, box, slot.buffer,
                          getSlotLocation(box, partitionLoop, order),
                          partitionLoop, root.sbuf, location)))
    return failure();
  return std::variant<BoxOperand, Split>(slot);
}

/// `box` without `inner` (a sub-box of it), as disjoint boxes.
static SmallVector<Box> subtract(const Box &box, const Box &inner) {
  SmallVector<Box> slabs;
  if (inner.isEmpty())
    return {box};
  Box rest = box;
  for (unsigned l = 0; l < box.lo.size(); ++l) {
    if (inner.lo[l] > rest.lo[l])
      slabs.push_back(rest.restrict(l, rest.lo[l], inner.lo[l]));
    if (inner.hi[l] < rest.hi[l])
      slabs.push_back(rest.restrict(l, inner.hi[l], rest.hi[l]));
    rest = rest.restrict(l, inner.lo[l], inner.hi[l]);
  }
  return slabs;
}

/// The varying loops of `box` other than `partitionLoop`, outermost first.
static SmallVector<unsigned>
getFreeOrder(const Box &box, std::optional<unsigned> partitionLoop) {
  SmallVector<unsigned> order;
  for (unsigned l = 0; l < box.lo.size(); ++l)
    if (box.getSize(l) > 1 && (!partitionLoop || l != *partitionLoop))
      order.push_back(l);
  return order;
}

/// Splits `box` into boxes whose free loops (all but `keep`) hold at most
/// `limit` elements, fixing or chunking outer loops.
static SmallVector<Box> tileFree(const Box &box, ArrayRef<unsigned> order,
                                 int64_t limit) {
  SmallVector<Box> boxes{box};
  int64_t inner = 1;
  for (unsigned l : llvm::reverse(order)) {
    int64_t size = box.getSize(l);
    if (inner * size <= limit) {
      inner *= size;
      continue;
    }
    int64_t chunk = std::max<int64_t>(1, limit / inner);
    inner *= chunk;
    SmallVector<Box> next;
    for (const Box &b : boxes)
      for (int64_t v = b.lo[l]; v < b.hi[l]; v += chunk)
        next.push_back(b.restrict(l, v, v + chunk));
    boxes = std::move(next);
    limit = 0; // every outer loop is fixed
  }
  return boxes;
}

LogicalResult Lowering::emitBody(Nest &nest, const Box &box,
                                 ArrayRef<int> reads, ArrayRef<int> chosen,
                                 std::optional<unsigned> partitionLoop,
                                 ArrayRef<unsigned> order, int target,
                                 std::optional<BoxOperand> dst, bool &split,
                                 Split &where, std::optional<Operand> &result) {
  int64_t partitions = partitionLoop ? box.getSize(*partitionLoop) : 1;
  int64_t freeElements = 1;
  for (unsigned l : order)
    freeElements *= box.getSize(l);
  // Each value: an operand, or an immediate.
  DenseMap<int, Operand> operands;
  DenseMap<int, double> immediates;
  auto slotOperand = [&]() {
    SmallVector<std::pair<int64_t, int64_t>> dims;
    int64_t stride = 1;
    SmallVector<std::pair<int64_t, int64_t>> reversed;
    for (unsigned l : llvm::reverse(order)) {
      reversed.emplace_back(stride, box.getSize(l));
      stride *= box.getSize(l);
    }
    dims.assign(reversed.rbegin(), reversed.rend());
    return Operand{nextSlot(), getAp(0, partitions, 0, 0, dims)};
  };
  std::function<LogicalResult(int)> compute = [&](int index) -> LogicalResult {
    if (operands.count(index) || immediates.count(index))
      return success();
    const BodyValue &value = nest.values[index];
    bool isTarget = index == target;
    if (value.kind == BodyValue::Kind::Constant) {
      immediates[index] = value.constant;
    } else if (value.kind == BodyValue::Kind::Read) {
      unsigned readIndex = llvm::find(reads, index) - reads.begin();
      const Piece &piece = value.pieces[chosen[readIndex]];
      if (!piece.access) {
        immediates[index] = piece.constant;
      } else {
        FailureOr<std::variant<BoxOperand, Split>> operand =
            getReadOperand(nest, *piece.access, box, partitionLoop, order);
        if (failed(operand))
          return failure();
        if (auto *s = std::get_if<Split>(&*operand)) {
          split = true;
          where = *s;
          return success();
        }
        BoxOperand &boxOperand = std::get<BoxOperand>(*operand);
        if (partitions > 1 && !boxOperand.pattern.partitionLoop) {
          // The same elements for every partition: the tensor engine
          // broadcasts them (a column of ones times the row), at most one
          // PSUM bank at a time.
          if (freeElements > machine.getPsumBankElements()) {
            split = true;
            unsigned loop = order.front();
            where = {loop, box.lo[loop] +
                               std::max<int64_t>(1, box.getSize(loop) / 2)};
            return success();
          }
          Operand row{boxOperand.buffer, toAp(boxOperand, 1, box, order)};
          if (!checkPartitionRange(machine, row.ap.getStart(), 1).empty())
            row = realign(row);
          Operand column{ones,
                         getAp(row.ap.getStart(), 1, 0, 0, {{1, partitions}})};
          SmallVector<std::pair<int64_t, int64_t>> dims;
          int64_t stride = 1;
          for (unsigned l : llvm::reverse(order)) {
            dims.insert(dims.begin(), {stride, box.getSize(l)});
            stride *= box.getSize(l);
          }
          Operand broadcast{nextPsum(), getAp(0, partitions, 0, 0, dims)};
          emit(MatmulOp::getOperationName(), broadcast, {column, row}, {},
               Engine::Tensor);
          operands[index] = broadcast;
        } else {
          operands[index] = Operand{boxOperand.buffer,
                                    toAp(boxOperand, partitions, box, order)};
        }
      }
    } else if (std::optional<int> x = matchSigmoid(nest, index)) {
      // 1 / (1 + exp(-x)): one instruction of the scalar engine.
      if (failed(compute(*x)))
        return failure();
      if (split)
        return success();
      if (immediates.count(*x))
        return emitNestError(nest) << "a function of constants";
      Operand out =
          isTarget && dst
              ? Operand{dst->buffer, toAp(*dst, partitions, box, order)}
              : slotOperand();
      emit(ActivationOp::getOperationName(), out, {operands[*x]},
           {builder.getNamedAttr(
               "function",
               builder.getStringAttr(getName(ActivationFunction::Sigmoid)))},
           Engine::Scalar);
      operands[index] = out;
      if (isTarget)
        result = out;
      return success();
    } else {
      for (int operand : value.operands) {
        if (failed(compute(operand)))
          return failure();
        if (split)
          return success();
      }
    }
    if (value.kind != BodyValue::Kind::Op) {
      if (isTarget && dst) {
        Operand out{dst->buffer, toAp(*dst, partitions, box, order)};
        if (immediates.count(index)) {
          emit(MemsetOp::getOperationName(), out, {},
               {builder.getNamedAttr(
                   "imm0", builder.getF32FloatAttr(immediates[index]))},
               Engine::Vector);
        } else {
          // A copy the elimination kept (or the bank layout inserted)
          // moves data into another arrangement: an on-chip copy.
          bool copy =
              nest.relayout ||
              (nest.description && nest.description->kind == NestClass::Copy);
          emit(TensorCopyOp::getOperationName(), out, {operands[index]}, {},
               Engine::Vector, copy ? Cause::Relayout : Cause::None);
        }
        result = out;
      }
      return success();
    }
    Operand out = isTarget && dst
                      ? Operand{dst->buffer, toAp(*dst, partitions, box, order)}
                      : slotOperand();
    Operation *op = value.op;
    auto activation = [&](Operand to, Operand from, ActivationFunction f) {
      emit(
          ActivationOp::getOperationName(), to, {from},
          {builder.getNamedAttr("function", builder.getStringAttr(getName(f)))},
          Engine::Scalar);
    };
    auto scalarOp = [&](Operand to, Operand from, AluOp alu0, double imm0) {
      emit(TensorScalarOp::getOperationName(), to, {from},
           {builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu0))),
            builder.getNamedAttr("alu1",
                                 builder.getStringAttr(getName(AluOp::Bypass))),
            builder.getNamedAttr("imm0", builder.getF32FloatAttr(imm0)),
            builder.getNamedAttr("imm1", builder.getF32FloatAttr(0))},
           Engine::Vector);
    };
    // A function of a constant: the constant in a slot first (ALU
    // operations fold constants themselves, below).
    if (!getAlu(op) && !isa<arith::SelectOp>(op))
      for (int o : value.operands)
        if (immediates.count(o) && !operands.count(o)) {
          Operand filled = slotOperand();
          emit(MemsetOp::getOperationName(), filled, {},
               {builder.getNamedAttr("imm0",
                                     builder.getF32FloatAttr(immediates[o]))},
               Engine::Vector);
          operands[o] = filled;
        }
    if (isa<arith::SelectOp>(op)) {
      int c = value.operands[0], a = value.operands[1], b = value.operands[2];
      if (immediates.count(c)) {
        // A constant predicate picks one side.
        int picked = immediates[c] != 0 ? a : b;
        if (immediates.count(picked)) {
          immediates[index] = immediates[picked];
          if (isTarget && dst) {
            emit(MemsetOp::getOperationName(), out, {},
                 {builder.getNamedAttr(
                     "imm0", builder.getF32FloatAttr(immediates[index]))},
                 Engine::Vector);
            result = out;
          }
          return success();
        }
        emit(TensorCopyOp::getOperationName(), out, {operands[picked]}, {},
             Engine::Vector, Cause::None);
      } else {
        // Constant sides are filled into slots first.
        auto side = [&](int i) {
          if (!immediates.count(i))
            return operands[i];
          Operand filled = slotOperand();
          emit(MemsetOp::getOperationName(), filled, {},
               {builder.getNamedAttr("imm0",
                                     builder.getF32FloatAttr(immediates[i]))},
               Engine::Vector);
          return filled;
        };
        Operand onTrue = side(a), onFalse = side(b);
        emit(SelectOp::getOperationName(), out, {operands[c], onTrue, onFalse},
             {}, Engine::Vector);
      }
    } else if (isa<math::Log1pOp>(op)) {
      // log(1 + x): the sum, then the logarithm.
      Operand sum = slotOperand();
      scalarOp(sum, operands[value.operands[0]], AluOp::Add, 1.0);
      activation(out, sum, ActivationFunction::Log);
    } else if (isa<math::PowFOp>(op)) {
      int a = value.operands[0], b = value.operands[1];
      std::optional<double> exponent;
      if (immediates.count(b))
        exponent = immediates[b];
      using F = ActivationFunction;
      if (exponent == 2.0) {
        activation(out, operands[a], F::Square);
      } else if (exponent == 0.5) {
        activation(out, operands[a], F::Sqrt);
      } else if (exponent == -0.5) {
        activation(out, operands[a], F::Rsqrt);
      } else if (exponent == -1.0) {
        activation(out, operands[a], F::Reciprocal);
      } else if (exponent == 1.0) {
        emit(TensorCopyOp::getOperationName(), out, {operands[a]}, {},
             Engine::Vector, Cause::None);
      } else {
        // exp(b * log(a)), for a positive base as the engines compute it.
        Operand logarithm = slotOperand();
        activation(logarithm, operands[a], F::Log);
        Operand product = slotOperand();
        if (exponent)
          scalarOp(product, logarithm, AluOp::Multiply, *exponent);
        else
          emit(TensorTensorOp::getOperationName(), product,
               {logarithm, operands[b]},
               {builder.getNamedAttr(
                   "alu0", builder.getStringAttr(getName(AluOp::Multiply)))},
               Engine::Vector);
        activation(out, product, F::Exp);
      }
    } else if (std::optional<ActivationFunction> function = getFunction(op)) {
      activation(out, operands[value.operands[0]], *function);
    } else {
      AluOp alu = *getAlu(op);
      int a = value.operands[0], b = value.operands[1];
      bool aImm = immediates.count(a), bImm = immediates.count(b);
      if (aImm && bImm) {
        immediates[index] = applyAlu(alu, immediates[a], immediates[b]);
        if (isTarget && dst) {
          emit(MemsetOp::getOperationName(), out, {},
               {builder.getNamedAttr(
                   "imm0", builder.getF32FloatAttr(immediates[index]))},
               Engine::Vector);
          result = out;
        }
        return success();
      }
      auto scalar = [&](Operand src, AluOp alu0, double imm0, AluOp alu1,
                        double imm1) {
        emit(
            TensorScalarOp::getOperationName(), out, {src},
            {builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu0))),
             builder.getNamedAttr("alu1", builder.getStringAttr(getName(alu1))),
             builder.getNamedAttr("imm0", builder.getF32FloatAttr(imm0)),
             builder.getNamedAttr("imm1", builder.getF32FloatAttr(imm1))},
            Engine::Vector);
      };
      if (bImm) {
        scalar(operands[a], alu, immediates[b], AluOp::Bypass, 0);
      } else if (aImm) {
        if (isCommutative(alu)) {
          scalar(operands[b], alu, immediates[a], AluOp::Bypass, 0);
        } else if (std::optional<AluOp> mirrored = getMirrored(alu)) {
          scalar(operands[b], *mirrored, immediates[a], AluOp::Bypass, 0);
        } else if (alu == AluOp::Subtract) {
          scalar(operands[b], AluOp::Multiply, -1, AluOp::Add, immediates[a]);
        } else {
          // c / x: the reciprocal, then the product.
          Operand reciprocal = slotOperand();
          emit(ActivationOp::getOperationName(), reciprocal, {operands[b]},
               {builder.getNamedAttr(
                   "function", builder.getStringAttr(
                                   getName(ActivationFunction::Reciprocal)))},
               Engine::Scalar);
          scalar(reciprocal, AluOp::Multiply, immediates[a], AluOp::Bypass, 0);
        }
      } else {
        emit(
            TensorTensorOp::getOperationName(), out, {operands[a], operands[b]},
            {builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu)))},
            Engine::Vector);
      }
    }
    operands[index] = out;
    if (isTarget)
      result = out;
    return success();
  };
  if (failed(compute(target)))
    return failure();
  if (!split && !result) {
    // The target is a plain operand or a constant, and no destination was
    // given: the operand, or a slot holding the constant.
    if (operands.count(target)) {
      result = operands[target];
    } else if (immediates.count(target)) {
      result = slotOperand();
      emit(MemsetOp::getOperationName(), *result, {},
           {builder.getNamedAttr("imm0",
                                 builder.getF32FloatAttr(immediates[target]))},
           Engine::Vector);
    }
  }
  (void)freeElements;
  return success();
}

LogicalResult Lowering::lowerElementwise(Nest &nest, const Box &full) {
  std::optional<unsigned> partitionLoop = getPartitionLoop(nest, nest.store);
  SmallVector<int> reads;
  for (auto [i, v] : llvm::enumerate(nest.values))
    if (v.kind == BodyValue::Kind::Read)
      reads.push_back(i);
  SmallVector<unsigned> order = getFreeOrder(full, partitionLoop);
  std::function<LogicalResult(const Box &)> onBox =
      [&](const Box &box) -> LogicalResult {
    return forEachPiece(
        nest, box, reads,
        [&](const Box &sub, ArrayRef<int> chosen) -> LogicalResult {
          std::function<LogicalResult(const Box &)> attempt =
              [&](const Box &b) -> LogicalResult {
            PatternOrSplit out = getLoopPattern(
                locate(nest.store, roots[nest.store.root].layout),
                nest.getNumLoops(), b, partitionLoop);
            if (out.split) {
              return success(succeeded(attempt(b.restrict(out.split->loop,
                                                          b.lo[out.split->loop],
                                                          out.split->value))) &&
                             succeeded(attempt(
                                 b.restrict(out.split->loop, out.split->value,
                                            b.hi[out.split->loop]))));
            }
            if (!out.pattern)
              return emitNestError(nest) << "writing: " << out.why;
            if (partitionLoop && b.getSize(*partitionLoop) > 1 &&
                !out.pattern->partitionLoop)
              return emitNestError(nest) << "writing: partitions do not follow "
                                            "the partition loop";
            BoxOperand dst{roots[nest.store.root].sbuf, *out.pattern};
            SmallVector<unsigned> boxOrder = getFreeOrder(b, partitionLoop);
            // A copy whose source lies across the partitions differently:
            // a relayout by DMA.
            const BodyValue &stored = nest.values[nest.stored];
            if (stored.kind == BodyValue::Kind::Read) {
              unsigned r = llvm::find(reads, nest.stored) - reads.begin();
              const Piece &piece = stored.pieces[chosen[r]];
              if (piece.access) {
                PatternOrSplit src = getLoopPattern(
                    locate(*piece.access, roots[piece.access->root].layout),
                    nest.getNumLoops(), b, partitionLoop);
                if (src.split)
                  return success(succeeded(attempt(b.restrict(
                                     src.split->loop, b.lo[src.split->loop],
                                     src.split->value))) &&
                                 succeeded(attempt(b.restrict(
                                     src.split->loop, src.split->value,
                                     b.hi[src.split->loop]))));
                if (!src.pattern)
                  return emitRelayout(
                      nest, b, roots[nest.store.root].sbuf,
                      locate(nest.store, roots[nest.store.root].layout),
                      partitionLoop, roots[piece.access->root].sbuf,
                      locate(*piece.access, roots[piece.access->root].layout));
              }
            }
            bool split = false;
            Split where{0, 0};
            std::optional<Operand> result;
            if (failed(emitBody(nest, b, reads, chosen, partitionLoop, boxOrder,
                                nest.stored, dst, split, where, result)))
              return failure();
            if (split)
              return success(succeeded(attempt(b.restrict(
                                 where.loop, b.lo[where.loop], where.value))) &&
                             succeeded(attempt(b.restrict(
                                 where.loop, where.value, b.hi[where.loop]))));
            return success();
          };
          return attempt(sub);
        });
  };
  for (const Box &box : tileFree(full, order, kSlotElements))
    if (failed(onBox(box)))
      return failure();
  return success();
}

LogicalResult Lowering::lowerReduction(Nest &nest, int accumulator, int value,
                                       AluOp combine) {
  std::optional<unsigned> partitionLoop = getPartitionLoop(nest, nest.store);
  Box full = nest.getFullBox();
  SmallVector<bool> inStore(nest.getNumLoops(), false);
  for (AffineExpr e : nest.store.indices)
    e.walk([&](AffineExpr d) {
      if (auto dim = dyn_cast<AffineDimExpr>(d))
        inStore[dim.getPosition()] = true;
    });
  if (partitionLoop && !inStore[*partitionLoop])
    return emitNestError(nest) << "the partition loop is a reduction loop";
  // Free loops: the kept ones first, the reduced ones innermost.
  auto orderOf = [&](const Box &box) {
    SmallVector<unsigned> kept, reduced;
    for (unsigned l : getFreeOrder(box, partitionLoop))
      (inStore[l] ? kept : reduced).push_back(l);
    return std::make_pair(kept, reduced);
  };
  auto [fullKept, fullReduced] = orderOf(full);
  SmallVector<unsigned> fullOrder(fullKept);
  fullOrder.append(fullReduced.begin(), fullReduced.end());
  SmallVector<int> reads;
  for (auto [i, v] : llvm::enumerate(nest.values))
    if (v.kind == BodyValue::Kind::Read && static_cast<int>(i) != accumulator)
      reads.push_back(i);
  double identity = *getIdentity(combine);
  auto aluAttr = [&](AluOp alu) {
    return builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu)));
  };
  std::function<LogicalResult(const Box &, ArrayRef<int>)> attempt =
      [&](const Box &b, ArrayRef<int> chosen) -> LogicalResult {
    auto again = [&](Split where) {
      return success(
          succeeded(attempt(
              b.restrict(where.loop, b.lo[where.loop], where.value), chosen)) &&
          succeeded(attempt(
              b.restrict(where.loop, where.value, b.hi[where.loop]), chosen)));
    };
    // A padding that is the combination's identity adds nothing.
    const BodyValue &v = nest.values[value];
    if (v.kind == BodyValue::Kind::Read) {
      unsigned r = llvm::find(reads, value) - reads.begin();
      const Piece &piece = v.pieces[chosen[r]];
      if (!piece.access && piece.constant == identity)
        return success();
    }
    PatternOrSplit out =
        getLoopPattern(locate(nest.store, roots[nest.store.root].layout),
                       nest.getNumLoops(), b, partitionLoop);
    if (out.split)
      return again(*out.split);
    if (!out.pattern)
      return emitNestError(nest) << "writing: " << out.why;
    auto [kept, reduced] = orderOf(b);
    SmallVector<unsigned> order(kept);
    order.append(reduced.begin(), reduced.end());
    int64_t partitions = partitionLoop ? b.getSize(*partitionLoop) : 1;
    bool split = false;
    Split where{0, 0};
    std::optional<Operand> operand;
    if (failed(emitBody(nest, b, reads, chosen, partitionLoop, order, value,
                        std::nullopt, split, where, operand)))
      return failure();
    if (split)
      return again(where);
    if (!operand)
      return emitNestError(nest) << "a reduction of a constant";
    Operand dst{roots[nest.store.root].sbuf,
                toAp(BoxOperand{roots[nest.store.root].sbuf, *out.pattern},
                     partitions, b, kept)};
    if (!reduced.empty()) {
      // Reduce the innermost dimensions into a slot, then combine.
      int64_t keptElements = 1, reducedElements = 1;
      for (unsigned l : kept)
        keptElements *= b.getSize(l);
      for (unsigned l : reduced)
        reducedElements *= b.getSize(l);
      // The source with its kept and reduced dimensions merged apart: the
      // reduction counts the innermost dimensions. A computed value lies
      // in its slot kept-major; a read has its own pattern.
      SmallVector<std::pair<int64_t, int64_t>> keptDims, reducedDims;
      int64_t start = operand->ap.getStart(), offset = operand->ap.getOffset();
      if (v.kind == BodyValue::Kind::Read &&
          !llvm::is_contained(slots, operand->buffer)) {
        unsigned r = llvm::find(reads, value) - reads.begin();
        FailureOr<std::variant<BoxOperand, Split>> read = getReadOperand(
            nest, *v.pieces[chosen[r]].access, b, partitionLoop, order);
        if (failed(read))
          return failure();
        const LoopPattern &pattern = std::get<BoxOperand>(*read).pattern;
        for (unsigned l : kept)
          keptDims.emplace_back(pattern.freeStrides[l], b.getSize(l));
        for (unsigned l : reduced)
          reducedDims.emplace_back(pattern.freeStrides[l], b.getSize(l));
      } else {
        keptDims.emplace_back(reducedElements, keptElements);
        reducedDims.emplace_back(1, reducedElements);
      }
      AccessPatternAttr kAp = getAp(0, 1, 0, 0, keptDims);
      AccessPatternAttr rAp = getAp(0, 1, 0, 0, reducedDims);
      SmallVector<int64_t> allStrides, allSizes;
      if (keptElements > 1) {
        allStrides.assign(kAp.getStrides().begin(), kAp.getStrides().end());
        allSizes.assign(kAp.getSizes().begin(), kAp.getSizes().end());
      }
      allStrides.append(rAp.getStrides().begin(), rAp.getStrides().end());
      allSizes.append(rAp.getSizes().begin(), rAp.getSizes().end());
      Operand src{operand->buffer,
                  AccessPatternAttr::get(context, start,
                                         operand->ap.getPartitions(), 0, offset,
                                         allStrides, allSizes)};
      Operand partial{nextSlot(),
                      getAp(0, partitions, 0, 0, {{1, keptElements}})};
      emit(TensorReduceOp::getOperationName(), partial, {src},
           {aluAttr(combine),
            builder.getNamedAttr("reduce_dims", builder.getI64IntegerAttr(
                                                    rAp.getSizes().size()))},
           Engine::Vector);
      operand = partial;
    }
    emit(TensorTensorOp::getOperationName(), dst, {dst, *operand},
         {aluAttr(combine)}, Engine::Vector);
    return success();
  };
  for (const Box &box : tileFree(full, fullOrder, kSlotElements))
    if (failed(forEachPiece(nest, box, reads, attempt)))
      return failure();
  return success();
}

FailureOr<bool> Lowering::lowerContraction(Nest &nest, int lhs, int rhs) {
  std::optional<unsigned> mLoop = getPartitionLoop(nest, nest.store);
  if (!mLoop)
    return false;
  const BodyValue &a = nest.values[lhs], &b = nest.values[rhs];
  if (a.kind != BodyValue::Kind::Read || b.kind != BodyValue::Kind::Read)
    return false;
  auto mentions = [&](const BodyValue &v, unsigned loop) {
    bool found = false;
    for (const Piece &p : v.pieces)
      if (p.access)
        for (AffineExpr e : p.access->indices)
          e.walk([&](AffineExpr d) {
            if (auto dim = dyn_cast<AffineDimExpr>(d))
              found |= dim.getPosition() == loop;
          });
    return found;
  };
  // The stationary operand (weights) moves with the output's partitions,
  // the moving one (activations) does not.
  bool aHasM = mentions(a, *mLoop), bHasM = mentions(b, *mLoop);
  if (aHasM == bHasM)
    return false;
  int stationaryIndex = aHasM ? lhs : rhs, movingIndex = aHasM ? rhs : lhs;
  const BodyValue &stationary = nest.values[stationaryIndex];
  const BodyValue &moving = nest.values[movingIndex];
  if (stationary.pieces.size() != 1 || !stationary.pieces[0].access)
    return false;
  for (const Piece &p : moving.pieces)
    if (!p.access && p.constant != 0)
      return false;
  const Access &weights = *stationary.pieces[0].access;
  const Access *activations = nullptr;
  for (const Piece &p : moving.pieces)
    if (p.access)
      activations = &*p.access;
  if (!activations)
    return false;
  // The contraction loop: a reduction loop both operands' partitions
  // follow.
  SmallVector<bool> inStore(nest.getNumLoops(), false);
  for (AffineExpr e : nest.store.indices)
    e.walk([&](AffineExpr d) {
      if (auto dim = dyn_cast<AffineDimExpr>(d))
        inStore[dim.getPosition()] = true;
    });
  auto partitionDims = [&](const Access &access) {
    SmallVector<bool> dims(nest.getNumLoops(), false);
    locate(access, roots[access.root].layout).partition.walk([&](AffineExpr d) {
      if (auto dim = dyn_cast<AffineDimExpr>(d))
        dims[dim.getPosition()] = true;
    });
    return dims;
  };
  SmallVector<bool> wParts = partitionDims(weights),
                    xParts = partitionDims(*activations);
  std::optional<unsigned> kLoop;
  for (unsigned l = 0; l < nest.getNumLoops(); ++l)
    if (!inStore[l] && wParts[l] && xParts[l] && nest.trips[l] > 1) {
      kLoop = l;
      break;
    }
  if (!kLoop && !nest.packing)
    return false;
  // Moving free loops: output loops the activations follow.
  SmallVector<unsigned> nLoops;
  for (unsigned l = 0; l < nest.getNumLoops(); ++l)
    if (inStore[l] && l != *mLoop && mentions(moving, l) &&
        !mentions(stationary, l) && (nest.packing || !xParts[l]) &&
        nest.trips[l] > 1)
      nLoops.push_back(l);

  Box full = nest.getFullBox();
  // Output boxes: every loop but M and N fixed, M in chunks of the
  // stationary free size, N within one PSUM bank.
  SmallVector<Box> outBoxes{full};
  for (unsigned l = 0; l < nest.getNumLoops(); ++l) {
    if (l == *mLoop || llvm::is_contained(nLoops, l) || !inStore[l])
      continue;
    SmallVector<Box> next;
    for (const Box &box : outBoxes)
      for (int64_t v = box.lo[l]; v < box.hi[l]; ++v)
        next.push_back(box.fix(l, v));
    outBoxes = std::move(next);
  }
  {
    SmallVector<Box> next;
    for (const Box &box : outBoxes)
      for (int64_t v = 0; v < box.hi[*mLoop]; v += machine.stationaryFreeMax)
        for (const Box &n : tileFree(
                 box.restrict(*mLoop, v, v + machine.stationaryFreeMax), nLoops,
                 std::min(machine.movingFreeMax,
                          machine.getPsumBankElements())))
          next.push_back(n);
    outBoxes = std::move(next);
  }
  SmallVector<int> reads{movingIndex};
  auto aluAdd =
      builder.getNamedAttr("alu0", builder.getStringAttr(getName(AluOp::Add)));
  if (nest.packing)
    return lowerPackedContraction(nest, outBoxes, *mLoop, nLoops, inStore,
                                  weights, movingIndex);
  std::function<LogicalResult(const Box &)> lowerOut =
      [&](const Box &outBox) -> LogicalResult {
    // The output's pattern must keep to one partition tile.
    SmallVector<unsigned> outOrder;
    for (unsigned l : nLoops)
      if (outBox.getSize(l) > 1)
        outOrder.push_back(l);
    Box outOnly = outBox;
    for (unsigned l = 0; l < nest.getNumLoops(); ++l)
      if (!inStore[l])
        outOnly = outOnly.fix(l, 0);
    PatternOrSplit out =
        getLoopPattern(locate(nest.store, roots[nest.store.root].layout),
                       nest.getNumLoops(), outOnly, mLoop);
    if (out.split)
      return success(
          succeeded(lowerOut(outBox.restrict(out.split->loop,
                                             outBox.lo[out.split->loop],
                                             out.split->value))) &&
          succeeded(lowerOut(outBox.restrict(out.split->loop, out.split->value,
                                             outBox.hi[out.split->loop]))));
    if (!out.pattern)
      return emitNestError(nest) << "writing: " << out.why;
    int64_t m = outBox.getSize(*mLoop);
    // PSUM: the box's N loops row-major.
    Value psum = nextPsum();
    SmallVector<int64_t> psumStride(nest.getNumLoops(), 0);
    int64_t stride = 1;
    for (unsigned l : llvm::reverse(outOrder)) {
      psumStride[l] = stride;
      stride *= outBox.getSize(l);
    }
    struct Matmul {
      Operand stationary, moving, dst;
      bool full;
    };
    SmallVector<Matmul> matmuls;
    // Every value of the other reduction loops; K whole (split by tiles).
    SmallVector<Box> redBoxes{outBox};
    for (unsigned l = 0; l < nest.getNumLoops(); ++l) {
      if (inStore[l] || l == *kLoop)
        continue;
      SmallVector<Box> next;
      for (const Box &box : redBoxes)
        for (int64_t v = box.lo[l]; v < box.hi[l]; ++v)
          next.push_back(box.fix(l, v));
      redBoxes = std::move(next);
    }
    std::function<LogicalResult(const Box &, ArrayRef<int>)> plan =
        [&](const Box &b, ArrayRef<int> chosen) -> LogicalResult {
      const Piece &piece = moving.pieces[chosen[0]];
      if (!piece.access)
        return success();
      auto again = [&](Split where) {
        return success(succeeded(plan(b.restrict(where.loop, b.lo[where.loop],
                                                 where.value),
                                      chosen)) &&
                       succeeded(plan(b.restrict(where.loop, where.value,
                                                 b.hi[where.loop]),
                                      chosen)));
      };
      // K across the partitions in chunks the tensor engine takes.
      if (b.getSize(*kLoop) > machine.partitions)
        return again({*kLoop, b.lo[*kLoop] + machine.partitions});
      Box wBox = b;
      for (unsigned l : nLoops)
        wBox = wBox.fix(l, b.lo[l]);
      PatternOrSplit w =
          getLoopPattern(locate(weights, roots[weights.root].layout),
                         nest.getNumLoops(), wBox, kLoop);
      if (w.split)
        return again(*w.split);
      Box xBox = b.fix(*mLoop, b.lo[*mLoop]);
      PatternOrSplit x = getLoopPattern(
          locate(*piece.access, roots[piece.access->root].layout),
          nest.getNumLoops(), xBox, kLoop);
      if (x.split)
        return again(*x.split);
      int64_t k = b.getSize(*kLoop);
      SmallVector<unsigned> order;
      for (unsigned l : nLoops)
        if (b.getSize(l) > 1)
          order.push_back(l);
      // Operands whose elements lie across the partitions otherwise reach
      // a slot in the matmul's layout by DMA.
      Value wBuffer = roots[weights.root].sbuf;
      if (!w.pattern) {
        SmallVector<unsigned> mOrder{*mLoop};
        wBuffer = nextSlot();
        if (failed(emitRelayout(nest, wBox, wBuffer,
                                getSlotLocation(wBox, kLoop, mOrder), kLoop,
                                roots[weights.root].sbuf,
                                locate(weights, roots[weights.root].layout))))
          return failure();
        w.pattern = getSlotPattern(wBox, kLoop, mOrder);
      }
      Value xBuffer = roots[piece.access->root].sbuf;
      if (!x.pattern) {
        xBuffer = nextSlot();
        if (failed(emitRelayout(
                nest, xBox, xBuffer, getSlotLocation(xBox, kLoop, order), kLoop,
                roots[piece.access->root].sbuf,
                locate(*piece.access, roots[piece.access->root].layout))))
          return failure();
        x.pattern = getSlotPattern(xBox, kLoop, order);
      }
      Matmul mm;
      mm.stationary = {wBuffer, getAp(w.pattern->partitionStart, k, 0,
                                      w.pattern->freeOffset,
                                      {{w.pattern->freeStrides[*mLoop], m}})};
      mm.moving = {xBuffer, toAp(BoxOperand{Value(), *x.pattern}, k, b, order)};
      SmallVector<std::pair<int64_t, int64_t>> dstDims;
      int64_t offset = 0;
      for (unsigned l : outOrder) {
        offset += (b.lo[l] - outBox.lo[l]) * psumStride[l];
        if (b.getSize(l) > 1)
          dstDims.emplace_back(psumStride[l], b.getSize(l));
      }
      mm.dst = {psum, getAp(0, m, 0, offset, dstDims)};
      mm.full = llvm::all_of(outOrder, [&](unsigned l) {
        return b.lo[l] == outBox.lo[l] && b.hi[l] == outBox.hi[l];
      });
      // Operands that start at a partition the engines cannot start at
      // move to partition 0 first.
      for (Operand *operand : {&mm.stationary, &mm.moving})
        if (!checkPartitionRange(machine, operand->ap.getStart(), k).empty())
          *operand = realign(*operand);
      matmuls.push_back(mm);
      return success();
    };
    for (const Box &box : redBoxes)
      if (failed(forEachPiece(nest, box, reads, plan)))
        return failure();
    Operand whole{psum, getAp(0, m, 0, 0, {{1, stride}})};
    auto firstFull =
        llvm::find_if(matmuls, [](const Matmul &mm) { return mm.full; });
    if (firstFull != matmuls.end())
      std::rotate(matmuls.begin(), firstFull, firstFull + 1);
    else
      emit(MemsetOp::getOperationName(), whole, {},
           {builder.getNamedAttr("imm0", builder.getF32FloatAttr(0))},
           Engine::Vector);
    for (auto [i, mm] : llvm::enumerate(matmuls)) {
      SmallVector<NamedAttribute> attrs;
      if (i > 0 || !mm.full)
        attrs.push_back(
            builder.getNamedAttr("accumulate", builder.getUnitAttr()));
      emit(MatmulOp::getOperationName(), mm.dst, {mm.stationary, mm.moving},
           attrs, Engine::Tensor);
    }
    // The output's first value (bias or zeros) plus the sums.
    emitEvacuation(
        nest, outOnly, *mLoop,
        evacuationTarget(nest, outOnly, *mLoop, outOrder, *out.pattern), whole,
        outOrder);
    (void)aluAdd;
    return success();
  };
  for (const Box &box : outBoxes)
    if (failed(lowerOut(box)))
      return failure();
  return true;
}

ElementLocation Lowering::getSlotLocation(const Box &box,
                                          std::optional<unsigned> partitionLoop,
                                          ArrayRef<unsigned> order) {
  ElementLocation location{getAffineConstantExpr(0, context),
                           getAffineConstantExpr(0, context)};
  if (partitionLoop)
    location.partition =
        getAffineDimExpr(*partitionLoop, context) - box.lo[*partitionLoop];
  int64_t stride = 1;
  for (unsigned l : llvm::reverse(order)) {
    location.free =
        location.free + (getAffineDimExpr(l, context) - box.lo[l]) * stride;
    stride *= box.getSize(l);
  }
  return location;
}

LoopPattern Lowering::getSlotPattern(const Box &box,
                                     std::optional<unsigned> partitionLoop,
                                     ArrayRef<unsigned> order) {
  LoopPattern pattern;
  pattern.partitionLoop = partitionLoop;
  pattern.freeStrides.assign(box.lo.size(), 0);
  int64_t stride = 1;
  for (unsigned l : llvm::reverse(order)) {
    pattern.freeStrides[l] = stride;
    stride *= box.getSize(l);
  }
  return pattern;
}

/// The one access of a read that is zero elsewhere (a padded read), or
/// null.
static const Access *getPaddedAccess(const BodyValue &read) {
  const Access *access = nullptr;
  for (const Piece &p : read.pieces) {
    if (p.access) {
      if (access)
        return nullptr;
      access = &*p.access;
    } else if (p.constant != 0) {
      return nullptr;
    }
  }
  return access;
}

std::optional<int64_t> Lowering::getGatherStep(Nest &nest,
                                               const BodyValue &moving,
                                               const Box &chunk,
                                               ArrayRef<unsigned> order) {
  const Access *access = getPaddedAccess(moving);
  if (!access || order.empty())
    return std::nullopt;
  unsigned w = order.back();
  std::optional<int64_t> step;
  for (AffineExpr index : access->indices) {
    auto form = linearize(index, nest.getNumLoops(), chunk);
    auto *linear = std::get_if<LinearForm>(&form);
    if (!linear)
      return std::nullopt;
    if (linear->coefficients[w] == 0)
      continue;
    if (step || linear->coefficients[w] < 1)
      return std::nullopt;
    step = linear->coefficients[w];
  }
  return step;
}

std::optional<SmallVector<int64_t>>
Lowering::gatherRows(Nest &nest, const BodyValue &moving, const Box &chunk,
                     ArrayRef<unsigned> packed, ArrayRef<unsigned> order,
                     Value slot, int64_t partitions) {
  const Access *access = getPaddedAccess(moving);
  if (!access || order.empty())
    return std::nullopt;
  // The innermost output loop steps one dimension of the source by s.
  unsigned w = order.back();
  unsigned n = nest.getNumLoops();
  std::optional<int64_t> stepOf = getGatherStep(nest, moving, chunk, order);
  if (!stepOf)
    return std::nullopt;
  int64_t step = *stepOf;
  std::optional<unsigned> steppedDim;
  for (auto [d, index] : llvm::enumerate(access->indices)) {
    auto form = linearize(index, n, chunk);
    if (auto *linear = std::get_if<LinearForm>(&form))
      if (linear->coefficients[w] != 0)
        steppedDim = d;
  }
  ArrayRef<int64_t> shape = cast<MemRefType>(access->root.getType()).getShape();
  // Dense rows: a new loop x walks the stepped dimension one by one over
  // the window's whole extent; the matmul reads every s-th element.
  AffineExpr x = getAffineDimExpr(n, context);
  SmallVector<AffineExpr> replacement;
  for (unsigned l = 0; l < n; ++l)
    replacement.push_back(l == w ? getAffineConstantExpr(0, context)
                                 : getAffineDimExpr(l, context));
  Access dense{access->root, {}};
  for (auto [d, index] : llvm::enumerate(access->indices)) {
    AffineExpr e = index.replaceDimsAndSymbols(replacement, {});
    dense.indices.push_back(d == *steppedDim ? e + x : e);
  }
  int64_t extent = step * (chunk.getSize(w) - 1) + 1;
  Box box = chunk.fix(w, chunk.lo[w]);
  box.lo.push_back(step * chunk.lo[w]);
  box.hi.push_back(step * chunk.lo[w] + extent);
  // The slot: partitions as the packed loops, rows of `extent` elements.
  ElementLocation location{getAffineConstantExpr(0, context),
                           getAffineConstantExpr(0, context)};
  int64_t stride = 1;
  for (unsigned l : llvm::reverse(packed)) {
    location.partition = location.partition +
                         (getAffineDimExpr(l, context) - box.lo[l]) * stride;
    stride *= box.getSize(l);
  }
  SmallVector<std::pair<int64_t, int64_t>> dims;
  location.free = x - box.lo[n];
  stride = extent;
  dims.emplace_back(step, chunk.getSize(w));
  for (unsigned l : llvm::reverse(order.drop_back())) {
    location.free =
        location.free + (getAffineDimExpr(l, context) - box.lo[l]) * stride;
    dims.insert(dims.begin(), {stride, box.getSize(l)});
    stride *= box.getSize(l);
  }
  if (stride > kSlotElements)
    return std::nullopt;
  emit(MemsetOp::getOperationName(),
       {slot, getAp(0, partitions, 0, 0, {{1, stride}})}, {},
       {builder.getNamedAttr("imm0", builder.getF32FloatAttr(0))},
       Engine::Vector);
  // Each channel and tap: the rows inside the source, one DMA.
  SmallVector<AffineExpr> bounds;
  for (auto [index, size] : llvm::zip(dense.indices, shape)) {
    bounds.push_back(index);
    bounds.push_back(size - 1 - index);
  }
  IntegerSet inside = IntegerSet::get(n + 1, 0, bounds,
                                      SmallVector<bool>(bounds.size(), false));
  Root &root = roots[access->root];
  ElementLocation from = locate(dense, root.layout);
  std::function<LogicalResult(const Box &, unsigned)> each =
      [&](const Box &b, unsigned i) -> LogicalResult {
    if (i < packed.size()) {
      for (int64_t v = b.lo[packed[i]]; v < b.hi[packed[i]]; ++v)
        if (failed(each(b.fix(packed[i], v), i + 1)))
          return failure();
      return success();
    }
    std::optional<Box> clipped = clip(b, inside);
    if (!clipped)
      return emitNestError(nest) << "gathering rows: a bound couples loops";
    if (clipped->isEmpty())
      return success();
    return emitRelayout(nest, *clipped, slot, location, std::nullopt, root.sbuf,
                        from);
  };
  if (failed(each(box, 0)))
    return std::nullopt;
  // The slot's stride of each output loop, `order`'s order.
  SmallVector<int64_t> strides;
  for (auto [stride, size] : dims)
    strides.push_back(stride);
  return strides;
}

FailureOr<bool>
Lowering::lowerPackedContraction(Nest &nest, ArrayRef<Box> outBoxes,
                                 unsigned mLoop, ArrayRef<unsigned> nLoops,
                                 ArrayRef<bool> inStore, const Access &weights,
                                 int movingIndex) {
  const Nest::Packing &packing = *nest.packing;
  const BodyValue &moving = nest.values[movingIndex];
  bool padded =
      llvm::any_of(moving.pieces, [](const Piece &p) { return !p.access; });
  unsigned outer = packing.loops.front();
  int64_t inner = 1;
  for (unsigned l : ArrayRef(packing.loops).drop_front())
    inner *= nest.trips[l];
  int64_t valuesPerChunk = packing.chunkPartitions / inner;
  Root &w = roots[weights.root];
  int64_t tileStride = w.layout.getTileStride();
  SmallVector<int> reads{movingIndex};
  auto orderOf = [&](const Box &box) {
    SmallVector<unsigned> order;
    for (unsigned l : nLoops)
      if (box.getSize(l) > 1)
        order.push_back(l);
    return order;
  };
  // Consecutive output boxes that differ in their outermost output loop
  // alone share one gather when their rows fit a slot: fewer, longer DMAs.
  auto slotElements = [&](const Box &box) -> std::optional<int64_t> {
    SmallVector<unsigned> order = orderOf(box);
    std::optional<int64_t> step = getGatherStep(nest, moving, box, order);
    if (!step)
      return std::nullopt;
    int64_t elements = *step * (box.getSize(order.back()) - 1) + 1;
    for (unsigned l : ArrayRef(order).drop_back())
      elements *= box.getSize(l);
    return elements;
  };
  for (size_t first = 0; first < outBoxes.size();) {
    Box merged = outBoxes[first];
    size_t last = first + 1;
    SmallVector<unsigned> firstOrder = orderOf(merged);
    if (!firstOrder.empty() && slotElements(merged)) {
      unsigned outerLoop = firstOrder.front();
      while (last < outBoxes.size()) {
        const Box &next = outBoxes[last];
        bool adjacent = next.lo[outerLoop] == merged.hi[outerLoop];
        for (unsigned l = 0; l < nest.getNumLoops() && adjacent; ++l)
          if (l != outerLoop &&
              (next.lo[l] != merged.lo[l] || next.hi[l] != merged.hi[l]))
            adjacent = false;
        Box grown = merged;
        grown.hi[outerLoop] = next.hi[outerLoop];
        std::optional<int64_t> elements = slotElements(grown);
        if (!adjacent || !elements || *elements > kSlotElements)
          break;
        merged = grown;
        ++last;
      }
    }
    ArrayRef<Box> group = outBoxes.slice(first, last - first);
    first = last;
    SmallVector<unsigned> mergedOrder = orderOf(merged);
    int64_t m = merged.getSize(mLoop);
    // Each output box: its PSUM bank and its output pattern.
    struct Part {
      Box box, outOnly;
      SmallVector<unsigned> order;
      LoopPattern out;
      Operand psum;
      int64_t n = 1;
    };
    SmallVector<Part, 4> parts;
    for (const Box &outBox : group) {
      Part &part = parts.emplace_back();
      part.box = outBox;
      part.order = orderOf(outBox);
      part.outOnly = outBox;
      for (unsigned l = 0; l < nest.getNumLoops(); ++l)
        if (!inStore[l])
          part.outOnly = part.outOnly.fix(l, 0);
      PatternOrSplit out =
          getLoopPattern(locate(nest.store, roots[nest.store.root].layout),
                         nest.getNumLoops(), part.outOnly, mLoop);
      if (!out.pattern)
        return emitNestError(nest)
               << "writing: " << (out.split ? "a split output" : out.why);
      part.out = *out.pattern;
      for (unsigned l : part.order)
        part.n *= outBox.getSize(l);
      part.psum = Operand{nextPsum(), getAp(0, m, 0, 0, {{1, part.n}})};
    }
    int64_t chunkIndex = 0;
    for (int64_t v = 0; v < nest.trips[outer];
         v += valuesPerChunk, ++chunkIndex) {
      int64_t values = std::min(valuesPerChunk, nest.trips[outer] - v);
      int64_t partitions = values * inner;
      Operand stationary{
          w.sbuf, getAp(0, partitions, 0,
                        chunkIndex * tileStride + merged.lo[mLoop], {{1, m}})};
      SmallVector<NamedAttribute> attrs;
      if (chunkIndex > 0)
        attrs.push_back(
            builder.getNamedAttr("accumulate", builder.getUnitAttr()));
      Value slot = nextSlot();
      Box mergedChunk =
          merged.restrict(outer, v, v + values).fix(mLoop, merged.lo[mLoop]);
      if (std::optional<SmallVector<int64_t>> strides =
              gatherRows(nest, moving, mergedChunk, packing.loops, mergedOrder,
                         slot, partitions)) {
        // Each box reads its rows of the gathered slot.
        for (Part &part : parts) {
          SmallVector<std::pair<int64_t, int64_t>> dims;
          int64_t offset = 0;
          for (auto [i, l] : llvm::enumerate(mergedOrder)) {
            offset += (part.box.lo[l] - merged.lo[l]) * (*strides)[i];
            dims.emplace_back((*strides)[i], part.box.getSize(l));
          }
          emit(MatmulOp::getOperationName(), part.psum,
               {stationary, {slot, getAp(0, partitions, 0, offset, dims)}},
               attrs, Engine::Tensor);
        }
        continue;
      }
      // Element by element (the group is one box then).
      Part &part = parts.front();
      Box chunk = part.box.restrict(outer, v, v + values)
                      .fix(mLoop, part.box.lo[mLoop]);
      ElementLocation slotLocation{getAffineConstantExpr(0, context),
                                   getAffineConstantExpr(0, context)};
      int64_t stride = 1;
      for (unsigned l : llvm::reverse(packing.loops)) {
        slotLocation.partition =
            slotLocation.partition +
            (getAffineDimExpr(l, context) - chunk.lo[l]) * stride;
        stride *= chunk.getSize(l);
      }
      stride = 1;
      for (unsigned l : llvm::reverse(part.order)) {
        slotLocation.free =
            slotLocation.free +
            (getAffineDimExpr(l, context) - chunk.lo[l]) * stride;
        stride *= chunk.getSize(l);
      }
      if (padded)
        emit(MemsetOp::getOperationName(),
             {slot, getAp(0, partitions, 0, 0, {{1, part.n}})}, {},
             {builder.getNamedAttr("imm0", builder.getF32FloatAttr(0))},
             Engine::Vector);
      if (failed(forEachPiece(
              nest, chunk, reads,
              [&](const Box &b, ArrayRef<int> chosen) -> LogicalResult {
                const Piece &piece = moving.pieces[chosen[0]];
                if (!piece.access)
                  return success();
                return emitRelayout(
                    nest, b, slot, slotLocation, std::nullopt,
                    roots[piece.access->root].sbuf,
                    locate(*piece.access, roots[piece.access->root].layout));
              })))
        return failure();
      emit(MatmulOp::getOperationName(), part.psum,
           {stationary, {slot, getAp(0, partitions, 0, 0, {{1, part.n}})}},
           attrs, Engine::Tensor);
    }
    for (Part &part : parts)
      emitEvacuation(
          nest, part.outOnly, mLoop,
          evacuationTarget(nest, part.outOnly, mLoop, part.order, part.out),
          part.psum, part.order);
  }
  return true;
}

LogicalResult Lowering::emitRelayout(Nest &nest, const Box &box, Value to,
                                     const ElementLocation &toLocation,
                                     std::optional<unsigned> toLoop, Value from,
                                     const ElementLocation &fromLocation) {
  unsigned numLoops = box.lo.size();
  auto partitionLoopOf = [&](const ElementLocation &location,
                             const Box &b) -> std::optional<unsigned> {
    std::optional<unsigned> found;
    location.partition.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (b.getSize(dim.getPosition()) > 1)
          found = dim.getPosition();
    });
    return found;
  };
  std::function<LogicalResult(const Box &)> copy =
      [&](const Box &b) -> LogicalResult {
    // The partitions of each side may follow one loop per DMA: fix the
    // others.
    for (const ElementLocation *location : {&toLocation, &fromLocation}) {
      SmallVector<unsigned> varying;
      location->partition.walk([&](AffineExpr e) {
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          if (b.getSize(dim.getPosition()) > 1 &&
              !llvm::is_contained(varying, dim.getPosition()))
            varying.push_back(dim.getPosition());
      });
      if (varying.size() > 1) {
        unsigned fixed = *llvm::min_element(varying);
        for (int64_t v = b.lo[fixed]; v < b.hi[fixed]; ++v)
          if (failed(copy(b.fix(fixed, v))))
            return failure();
        return success();
      }
    }
    std::optional<unsigned> toP = partitionLoopOf(toLocation, b);
    std::optional<unsigned> fromP = partitionLoopOf(fromLocation, b);
    // Partitions that follow one loop on both sides: one DMA.
    std::optional<unsigned> shared =
        toP && fromP && *toP == *fromP ? toP : std::nullopt;
    // Otherwise one DMA per partition of the side with fewer partitions;
    // the other side spans its own partitions in it.
    if (!shared && toP && fromP) {
      unsigned outer = b.getSize(*toP) <= b.getSize(*fromP) ? *toP : *fromP;
      for (int64_t v = b.lo[outer]; v < b.hi[outer]; ++v)
        if (failed(copy(b.fix(outer, v))))
          return failure();
      return success();
    }
    std::optional<unsigned> spanning = shared ? shared : toP ? toP : fromP;
    PatternOrSplit dst = getLoopPattern(
        toLocation, numLoops, b, shared || toP ? spanning : std::nullopt);
    PatternOrSplit src = getLoopPattern(
        fromLocation, numLoops, b, shared || fromP ? spanning : std::nullopt);
    for (PatternOrSplit *p : {&src, &dst})
      if (p->split)
        return success(
            succeeded(copy(b.restrict(p->split->loop, b.lo[p->split->loop],
                                      p->split->value))) &&
            succeeded(copy(b.restrict(p->split->loop, p->split->value,
                                      b.hi[p->split->loop]))));
    if (!src.pattern || !dst.pattern) {
      // The partitions follow a loop at different paces on the two sides
      // (a strided window): one DMA per value of it.
      if (spanning) {
        for (int64_t v = b.lo[*spanning]; v < b.hi[*spanning]; ++v)
          if (failed(copy(b.fix(*spanning, v))))
            return failure();
        return success();
      }
      return emitNestError(nest) << "relayout: " << src.why << dst.why;
    }
    // The spanning loop first on the side without partitions, so that the
    // elements pair up in partition-major order.
    SmallVector<unsigned> order;
    if (spanning && !shared)
      order.push_back(*spanning);
    for (unsigned l : getFreeOrder(b, spanning))
      order.push_back(l);
    SmallVector<std::pair<int64_t, int64_t>> dstDims, srcDims;
    for (unsigned l : order) {
      bool acrossDst = spanning && l == *spanning && (shared || toP);
      bool acrossSrc = spanning && l == *spanning && (shared || fromP);
      if (!acrossDst)
        dstDims.emplace_back(dst.pattern->freeStrides[l], b.getSize(l));
      if (!acrossSrc)
        srcDims.emplace_back(src.pattern->freeStrides[l], b.getSize(l));
    }
    int64_t spanned = spanning ? b.getSize(*spanning) : 1;
    emitDma(
        {to, getAp(dst.pattern->partitionStart, shared || toP ? spanned : 1, 0,
                   dst.pattern->freeOffset, dstDims)},
        {from, getAp(src.pattern->partitionStart, shared || fromP ? spanned : 1,
                     0, src.pattern->freeOffset, srcDims)},
        Cause::Relayout);
    return success();
  };
  (void)toLoop;
  return copy(box);
}

Operand Lowering::realign(Operand operand, int64_t start, bool copy,
                          bool small) {
  // The same dimensions, dense: instructions that count dimensions
  // (tensor_reduce) read the slot as they would have read the operand.
  ArrayRef<int64_t> sizes = operand.ap.getSizes();
  SmallVector<int64_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * sizes[d];
  Value buffer = small && !stagingSlots.empty()
                     ? stagingSlots[nextStagingIndex++ % stagingSlots.size()]
                     : nextSlot();
  Operand slot{buffer, AccessPatternAttr::get(context, start,
                                              operand.ap.getPartitions(), 0, 0,
                                              strides, sizes)};
  if (copy)
    emitDma(slot, operand, Cause::Relayout);
  return slot;
}

LogicalResult Lowering::lowerNest(Nest &nest) {
  // An accumulation: the store's value combines the stored element with
  // another value (reductions, contractions, poolings).
  const BodyValue &stored = nest.values[nest.stored];
  if (stored.kind == BodyValue::Kind::Op && stored.operands.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      int acc = stored.operands[side], other = stored.operands[1 - side];
      const BodyValue &accValue = nest.values[acc];
      if (accValue.kind != BodyValue::Kind::Read ||
          accValue.pieces.size() != 1 || !accValue.pieces[0].access)
        continue;
      const Access &read = *accValue.pieces[0].access;
      if (read.root != nest.store.root || read.indices != nest.store.indices)
        continue;
      std::optional<AluOp> alu = getAlu(stored.op);
      if (!alu || !getIdentity(*alu) || (side == 1 && !isCommutative(*alu)))
        return emitNestError(nest)
               << "an accumulation by " << stored.op->getName();
      const BodyValue &otherValue = nest.values[other];
      if (*alu == AluOp::Add && otherValue.kind == BodyValue::Kind::Op &&
          isa<arith::MulFOp>(otherValue.op)) {
        FailureOr<bool> done = lowerContraction(nest, otherValue.operands[0],
                                                otherValue.operands[1]);
        if (failed(done))
          return failure();
        if (*done)
          return success();
      }
      return lowerReduction(nest, acc, other, *alu);
    }
  }
  return lowerElementwise(nest, nest.getFullBox());
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

LogicalResult Lowering::run() {
  if (llvm::Error error = machine.verify())
    return module.emitError("inferentia: ") << llvm::toString(std::move(error));
  if (failed(collectRoots()))
    return failure();
  Block &body = func.getBody().front();
  for (Operation &op : body) {
    if (isa<affine::AffineForOp, affine::AffineStoreOp>(op)) {
      Nest &nest = nests.emplace_back();
      if (failed(parseNest(&op, nest)))
        return failure();
      continue;
    }
    if (isa<memref::AllocOp, memref::DeallocOp, memref::GetGlobalOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::SubViewOp,
            arith::ConstantOp, affine::AffineLoadOp, func::ReturnOp>(op))
      continue;
    // Computations of rank-0 results, part of the store's nest.
    if (op.getNumResults() == 1 &&
        (getAlu(&op) || getFunction(&op) ||
         isa<math::Log1pOp, math::PowFOp, arith::SelectOp>(op)))
      continue;
    return op.emitError("inferentia: ")
           << op.getName() << " outside a loop nest is not supported";
  }
  planEvacuations();
  // Live ranges and layers.
  for (auto [i, nest] : llvm::enumerate(nests)) {
    auto use = [&](Value root, bool write) {
      Root &r = roots[root];
      if (r.first < 0)
        r.first = i;
      r.last = i;
      if (write)
        r.lastWrite = i;
    };
    // A contraction whose evacuation writes the ReLU's result never
    // needs its own output buffer.
    Value skipped = nest.evacuateTo ? nest.store.root : Value();
    if (!nest.fused) {
      if (nest.evacuateTo)
        use(nest.evacuateTo->root, true);
      else
        use(nest.store.root, true);
      for (const BodyValue &v : nest.values)
        for (const Piece &p : v.pieces)
          if (p.access && p.access->root != skipped)
            use(p.access->root, false);
      if (nest.initialValue && nest.initialValue->access)
        use(nest.initialValue->access->root, false);
    }
    std::string name = getNodeName(nest.root->getLoc());
    std::string opType = getNodeOpType(nest.root->getLoc());
    if (nest.fused && i > 0 && nests[i - 1].evacuateTo) {
      // The ReLU computed by the contraction before it.
      nest.layer = nests[i - 1].layer;
      layerFused[nest.layer].push_back(name);
      continue;
    }
    auto *it = llvm::find_if(layerNames,
                             [&](const auto &l) { return l.first == name; });
    nest.layer = it - layerNames.begin();
    if (it == layerNames.end()) {
      layerFused.emplace_back();
      layerNames.emplace_back(name, opType);
      layerMacs.push_back(0);
      layerReads.push_back(0);
      layerWrites.push_back(0);
      layerCycles.push_back(0);
      layerBusy.emplace_back();
    }
    if (nest.description &&
        (nest.description->kind == NestClass::Convolution ||
         nest.description->kind == NestClass::Contraction)) {
      int64_t macs = 1;
      for (int64_t t : nest.trips)
        macs *= t;
      layerMacs[nest.layer] += macs;
    }
  }
  for (auto &[value, root] : roots)
    if (root.role == Role::Output && root.lastWrite < 0)
      return func.emitError("inferentia: output '")
             << root.name << "' is never written";
  if (failed(assignMappings()))
    return failure();
  planContractions();
  // Weights that stay in DRAM are staged matmul by matmul through small
  // slots, which take room from the homes: place them again with that room
  // set aside.
  if (failed(allocate()))
    return failure();
  if (llvm::any_of(roots, [](const auto &entry) {
        return entry.second.inDram && entry.second.role == Role::Weights;
      })) {
    staging = true;
    for (auto &[value, root] : roots)
      root.inDram = false;
  }
  if (staging && failed(allocate()))
    return failure();

  // The program.
  builder.setInsertionPoint(func);
  program =
      builder.create<ProgramOp>(func.getLoc(), func.getSymName(),
                                builder.getArrayAttr({}), "global", 0, 0, 0, 0);
  program.getBody().emplaceBlock();
  builder.setInsertionPointToStart(&program.getBody().front());
  auto f32 = builder.getF32Type();
  // DRAM: inputs, outputs, then weights (the weights file).
  int64_t address = 0;
  for (Role role : {Role::Input, Role::Output, Role::Weights}) {
    for (auto &[value, root] : roots) {
      if (root.role != role || (role == Role::Weights && root.first < 0))
        continue;
      int64_t elements =
          root.role == Role::Weights
              ? root.layout.getPartitions() * root.layout.getFreeElements()
              : root.type.getNumElements();
      MappingAttr mapping =
          root.role == Role::Weights || root.inDram
              ? root.mapping
              : MappingAttr::get(context, root.mapping.getShape(), -1, 1);
      auto type = BufferType::get(context, "dram", 1, elements, f32, mapping);
      ElementsAttr image;
      if (root.role == Role::Weights) {
        std::string bytes;
        if (failed(appendConstantBytes(root.weights, bytes)))
          return value.getDefiningOp()->emitError(
              "inferentia: cannot read the weights' values");
        const float *data = reinterpret_cast<const float *>(bytes.data());
        std::vector<float> sbufImage(elements, 0.0f);
        int64_t free = root.layout.getFreeElements();
        // Element e (row-major in the tensor) at its place in the mapping:
        // the tensor's index, permuted, linearised, then the mapping's
        // shape's index.
        ArrayRef<int64_t> shape = root.type.getShape();
        SmallVector<int64_t> order(shape.size());
        for (size_t i = 0; i < shape.size(); ++i)
          order[i] = root.layout.permutation.empty()
                         ? static_cast<int64_t>(i)
                         : root.layout.permutation[i];
        SmallVector<int64_t> index(shape.size(), 0),
            mapped(root.layout.shape.size(), 0);
        for (int64_t e = 0; e < root.type.getNumElements(); ++e) {
          int64_t linear = 0;
          for (int64_t d : order)
            linear = linear * shape[d] + index[d];
          for (size_t j = root.layout.shape.size(); j-- > 0;) {
            mapped[j] = linear % root.layout.shape[j];
            linear /= root.layout.shape[j];
          }
          auto [p, f] = root.mapping.locate(mapped);
          sbufImage[p * free + f] = data[e];
          for (int64_t d = shape.size() - 1; d >= 0; --d) {
            if (++index[d] < shape[d])
              break;
            index[d] = 0;
          }
        }
        image = DenseElementsAttr::get(RankedTensorType::get({elements}, f32),
                                       ArrayRef(sbufImage));
      }
      StringRef roleName = role == Role::Input    ? "input"
                           : role == Role::Output ? "output"
                                                  : "weights";
      auto tensor =
          builder.create<DramTensorOp>(func.getLoc(), type, root.name, roleName,
                                       address, image ? image : ElementsAttr());
      root.dram = tensor.getBuffer();
      address += llvm::alignTo(elements * kElementBytes, 64);
    }
  }
  // Spilled intermediates: scratch DRAM in their mapping's order.
  for (auto &[value, root] : roots) {
    if (!root.inDram || root.role != Role::Intermediate)
      continue;
    int64_t elements =
        root.layout.getPartitions() * root.layout.getFreeElements();
    auto type =
        BufferType::get(context, "dram", 1, elements, f32, root.mapping);
    root.dram = builder.create<DramTensorOp>(
        func.getLoc(), type, root.name, "scratch", address, ElementsAttr());
    address += llvm::alignTo(elements * kElementBytes, 64);
  }
  dramEnd = address;
  // SBUF: the homes, the scratch slots and the PSUM banks.
  for (auto &[value, root] : roots) {
    if (root.first < 0)
      continue;
    if (root.inDram) {
      root.sbuf = root.dram;
      dramHomes[root.sbuf] = root.role == Role::Intermediate ? Cause::Spill
                             : root.role == Role::Output     ? Cause::Store
                                                             : Cause::Load;
      continue;
    }
    auto type =
        BufferType::get(context, "sbuf", root.layout.getPartitions(),
                        root.layout.getFreeElements(), f32, root.mapping);
    root.sbuf = builder.create<AllocOp>(func.getLoc(), type, root.sbufAddress);
  }
  int64_t slotBase =
      machine.sbufPartitionBytes - kSlots * kSlotElements * kElementBytes;
  for (int64_t s = 0; s < kSlots; ++s) {
    auto mapping = MappingAttr::get(
        context, {machine.partitions, kSlotElements}, 0, machine.partitions);
    auto type = BufferType::get(context, "sbuf", machine.partitions,
                                kSlotElements, f32, mapping);
    slots.push_back(builder.create<AllocOp>(
        func.getLoc(), type, slotBase + s * kSlotElements * kElementBytes));
  }
  for (int64_t b = 0; b < machine.getPsumBanks(); ++b) {
    int64_t elements = machine.getPsumBankElements();
    auto mapping = MappingAttr::get(context, {machine.partitions, elements}, 0,
                                    machine.partitions);
    auto type = BufferType::get(context, "psum", machine.partitions, elements,
                                f32, mapping);
    psumBanks.push_back(builder.create<AllocOp>(func.getLoc(), type,
                                                b * machine.psumBankBytes));
  }

  // Ones in every partition, for broadcasts across partitions.
  {
    auto mapping =
        MappingAttr::get(context, {machine.partitions, machine.partitions}, 0,
                         machine.partitions);
    auto type = BufferType::get(context, "sbuf", machine.partitions,
                                machine.partitions, f32, mapping);
    ones = builder.create<AllocOp>(func.getLoc(), type, slotBase - 512);
    auto stagingMapping = MappingAttr::get(
        context, {machine.partitions, kStagingElements}, 0, machine.partitions);
    auto stagingType = BufferType::get(context, "sbuf", machine.partitions,
                                       kStagingElements, f32, stagingMapping);
    for (int64_t i = 0; staging && i < kStagingSlots; ++i)
      stagingSlots.push_back(builder.create<AllocOp>(
          func.getLoc(), stagingType,
          slotBase - 512 - (i + 1) * kStagingElements * kElementBytes));
    emit(MemsetOp::getOperationName(),
         {ones, getAp(0, machine.partitions, 0, 0, {{1, machine.partitions}})},
         {}, {builder.getNamedAttr("imm0", builder.getF32FloatAttr(1))},
         Engine::Vector);
  }

  // The instructions.
  for (auto [i, nest] : llvm::enumerate(nests)) {
    currentLayer = nest.layer;
    currentLoc = nest.root->getLoc();
    for (auto &[value, root] : roots)
      if (root.loadAt == static_cast<int64_t>(i) && !root.inDram &&
          (root.role == Role::Input || root.role == Role::Weights)) {
        // A load ahead of time belongs to the layer that uses it.
        currentLayer = nests[root.first].layer;
        loadRoot(root);
        currentLayer = nest.layer;
      }
    if (nest.fused)
      continue;
    if (failed(lowerNest(nest)))
      return failure();
    for (auto &[value, root] : roots)
      if (root.role == Role::Output && !root.inDram &&
          root.lastWrite == static_cast<int64_t>(i))
        storeRoot(root);
  }

  // The header: layers and the elimination's counts.
  for (auto [cycles, busy] : llvm::zip(layerCycles, layerBusy)) {
    double seconds = 0;
    for (auto [lane, s] : busy)
      seconds = std::max(seconds, s);
    cycles = static_cast<int64_t>(std::ceil(seconds * machine.tensorClockHz));
  }
  SmallVector<Attribute> layers;
  for (auto [i, names] : llvm::enumerate(layerNames))
    layers.push_back(LayerAttr::get(
        context, builder.getStringAttr(names.first),
        builder.getStringAttr(names.second),
        builder.getStrArrayAttr(
            SmallVector<StringRef>(layerFused[i].begin(), layerFused[i].end())),
        layerMacs[i], layerCycles[i], layerReads[i], layerWrites[i]));
  program.setLayersAttr(builder.getArrayAttr(layers));
  if (auto banks = func->getAttrOfType<DictionaryAttr>("dlc.bank_layout"))
    if (auto mode = banks.getAs<StringAttr>("mode"))
      program.setLayoutMode(mode.getValue());
  int64_t removed = 0, removedBytes = 0, kept = 0, keptBytes = 0;
  if (auto eliminated = func->getAttrOfType<ArrayAttr>("dlc.eliminated_copies"))
    for (auto copy : eliminated.getAsRange<DictionaryAttr>()) {
      ++removed;
      if (auto bytes = copy.getAs<IntegerAttr>("bytes"))
        removedBytes += bytes.getInt();
    }
  for (Nest &nest : nests)
    if (nest.description && nest.description->kind == NestClass::Copy &&
        !nest.relayout) {
      ++kept;
      keptBytes += roots[nest.store.root].type.getNumElements() * kElementBytes;
    }
  program.setLoadStorePairsRemoved(removed);
  program.setLoadStorePairsTotal(removed + kept);
  program.setIntermediateBytesRemoved(removedBytes);
  int64_t intermediates = 0;
  for (auto &[value, root] : roots)
    if (root.role == Role::Intermediate)
      intermediates += root.type.getNumElements() * kElementBytes;
  program.setIntermediateBytesTotal(removedBytes + intermediates);
  (void)keptBytes;

  // The function and its globals are now the program.
  llvm::SetVector<Operation *> globals;
  for (auto &[value, root] : roots)
    if (auto get = value.getDefiningOp<memref::GetGlobalOp>())
      if (Operation *global =
              SymbolTable::lookupNearestSymbolFrom(get, get.getNameAttr()))
        globals.insert(global);
  func.erase();
  // Constants that became immediates leave their globals unused too.
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
  (void)globals;
  return success();
}

namespace {
struct LowerToInferentiaPass
    : public dlc::inferentia::impl::LowerToInferentiaBase<
          LowerToInferentiaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = getEntryFunction(module);
    if (!func) {
      module.emitError("inferentia: the module has no entry function");
      return signalPassFailure();
    }
    Lowering lowering(module, func);
    if (failed(lowering.run()))
      signalPassFailure();
  }
};
} // namespace
