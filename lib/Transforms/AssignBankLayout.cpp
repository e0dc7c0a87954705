//===- AssignBankLayout.cpp - which dimension goes across banks ----------===//
//
// Every global buffer gets one layout (its banked dimension) for the whole
// function; a nest that wants another one gets a relayout copy. Which loops
// index which dimensions comes from the access relations of NestAnalysis, so
// the pass sees loops and buffers, not the ops they came from.
//
//===----------------------------------------------------------------------===//

#include "dlc/Analysis/AccessAnalysis.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

namespace dlc {
#define GEN_PASS_DEF_ASSIGNBANKLAYOUT
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

static constexpr llvm::StringLiteral kBankDimAttr =
    DLCDialect::BankDimAttrHelper::getNameStr();
static constexpr llvm::StringLiteral kRelayoutAttr =
    DLCDialect::RelayoutAttrHelper::getNameStr();
static constexpr llvm::StringLiteral kSummaryAttr =
    DLCDialect::BankLayoutAttrHelper::getNameStr();

namespace {

/// What one top-level nest does with one buffer (all its accesses to it).
struct BufferUse {
  Value buffer;
  bool reads = false;
  bool writes = false;
  /// Per dimension of the buffer, the loops indexing it (sorted, unique).
  SmallVector<SmallVector<unsigned>> dimLoops;
  /// The dimension a contraction nest needs across banks, if any.
  std::optional<int64_t> requirement;
  bool readOnly() const { return reads && !writes; }
};

struct Nest {
  affine::AffineForOp root;
  std::unique_ptr<NestAnalysis> analysis;
  /// Not affine: its accesses are unknown, it gets no layout decisions.
  bool opaque = false;
  bool contraction = false;
  /// Buffers in first-access order.
  SmallVector<BufferUse> uses;
  /// Loops indexing a written buffer, outermost first: the loops a
  /// flexible nest can run partition-parallel along.
  SmallVector<unsigned> parallelLoops;
  /// Global mode: the loop a flexible nest runs partition-parallel along.
  std::optional<unsigned> partitionLoop;
};

/// A global buffer that can be banked.
struct Buffer {
  MemRefType type;
  std::optional<int64_t> layout;
};

/// Outermost first: loops are in pre-order, so on one path a smaller index
/// is an outer loop; across siblings the depth decides.
static SmallVector<unsigned> sortOutermostFirst(const NestAnalysis &analysis,
                                                SmallVector<unsigned> loops) {
  ArrayRef<LoopInfo> info = analysis.getLoops();
  llvm::sort(loops, [&](unsigned a, unsigned b) {
    return std::make_pair(info[a].depth, a) < std::make_pair(info[b].depth, b);
  });
  loops.erase(llvm::unique(loops), loops.end());
  return loops;
}

static bool indexes(const BufferUse &use, unsigned loop) {
  return llvm::any_of(use.dimLoops, [&](ArrayRef<unsigned> loops) {
    return llvm::is_contained(loops, loop);
  });
}

/// The outermost dimension of `use`'s buffer that `loop` indexes.
static std::optional<int64_t> outermostDimIndexedBy(const BufferUse &use,
                                                    unsigned loop) {
  for (auto [dim, loops] : llvm::enumerate(use.dimLoops))
    if (llvm::is_contained(loops, loop))
      return dim;
  return std::nullopt;
}

/// The only dimension of `use`'s buffer that `loop` indexes, if exactly one
/// does: the dimension that is partition-parallel with the loop.
static std::optional<int64_t> onlyDimIndexedBy(const BufferUse &use,
                                               unsigned loop) {
  std::optional<int64_t> found;
  for (auto [dim, loops] : llvm::enumerate(use.dimLoops)) {
    if (!llvm::is_contained(loops, loop))
      continue;
    if (found)
      return std::nullopt;
    found = dim;
  }
  return found;
}

static int64_t getElementBytes(MemRefType type) {
  return dlc::getElementBytes(type.getElementType()).value_or(0);
}

/// `dlc.bank_dim` of a buffer: on its defining op, or in the arguments'
/// attributes of the function for an argument.
static void setBankDim(func::FuncOp func, Value buffer, int64_t dim) {
  auto attr = IntegerAttr::get(IntegerType::get(func.getContext(), 64), dim);
  if (auto argument = dyn_cast<BlockArgument>(buffer))
    func.setArgAttr(argument.getArgNumber(), kBankDimAttr, attr);
  else
    buffer.getDefiningOp()->setAttr(kBankDimAttr, attr);
}

/// A copy of all of `from` into `to` (same shape) as a top-level nest.
static affine::AffineForOp buildCopyNest(OpBuilder &builder, Location loc,
                                         Value from, Value to) {
  OpBuilder::InsertionGuard guard(builder);
  auto type = cast<MemRefType>(from.getType());
  SmallVector<Value> indices;
  affine::AffineForOp outermost;
  for (int64_t size : type.getShape()) {
    auto loop = affine::AffineForOp::create(builder, loc, 0, size);
    if (!outermost)
      outermost = loop;
    indices.push_back(loop.getInductionVar());
    builder.setInsertionPointToStart(loop.getBody());
  }
  Value value = affine::AffineLoadOp::create(builder, loc, from, indices);
  affine::AffineStoreOp::create(builder, loc, value, to, indices);
  outermost->setAttr(kRelayoutAttr, builder.getUnitAttr());
  return outermost;
}

/// The layout decisions and relayout copies of one function.
class BankLayoutAssigner {
public:
  BankLayoutAssigner(BankLayoutMode mode, int64_t banks)
      : mode(mode), banks(banks) {}

  /// Assigns the layouts, records them and inserts the relayout copies.
  /// The nests' relations belong to `context`, which outlives them.
  void run(func::FuncOp func, AnalysisContext &context);
  int64_t getRelayouts() const { return relayouts; }
  int64_t getRelayoutBytes() const { return relayoutBytes; }

private:
  /// Collects the top-level nests and the bankable buffers.
  void analyse(func::FuncOp func, AnalysisContext &context);
  void classify(Nest &nest);
  /// The layout of `buffer` that uses the most banks, among the
  /// dimensions not `excluded`.
  int64_t getDefaultLayout(Value buffer, ArrayRef<bool> excluded = {}) const;
  void assignLocal();
  void assignGlobal();
  /// Sets the layout of an unset buffer and queues it for propagation.
  void setLayout(Value buffer, int64_t dim, SmallVectorImpl<Value> &queue);
  void propagate(SmallVectorImpl<Value> &queue);
  /// Gives flexible `nest` its partition loop from its buffers' layouts
  /// (written buffers first); false when none tells one.
  bool choosePartitionLoop(Nest &nest);
  /// The layout `nest` wants for `use`'s buffer, if it cares.
  std::optional<int64_t> getWanted(const Nest &nest,
                                   const BufferUse &use) const;
  /// Inserts the relayout copies, counting them and their bytes.
  void insertRelayouts(func::FuncOp func);
  /// Makes `nest` access `replacement` wherever it accessed `buffer`.
  void redirect(Nest &nest, Value buffer, Value replacement);

  BankLayoutMode mode;
  int64_t banks;
  SmallVector<Nest> nests;
  /// Bankable buffers in first-seen order.
  llvm::MapVector<Value, Buffer> buffers;
  /// Nests (indices into `nests`) using each buffer, in program order.
  DenseMap<Value, SmallVector<unsigned>> usersOf;
  int64_t relayouts = 0;
  int64_t relayoutBytes = 0;
};

} // namespace

int64_t BankLayoutAssigner::getDefaultLayout(Value buffer,
                                             ArrayRef<bool> excluded) const {
  // The dimension that spreads over the most banks (the outermost of
  // those): a buffer with fewer elements than banks still uses as many as
  // it can.
  ArrayRef<int64_t> shape = buffers.lookup(buffer).type.getShape();
  std::optional<int64_t> best;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (dim < excluded.size() && excluded[dim])
      continue;
    if (!best || std::min(size, banks) > std::min(shape[*best], banks))
      best = dim;
  }
  return best.value_or(0);
}

void BankLayoutAssigner::analyse(func::FuncOp func, AnalysisContext &context) {
  auto isBankable = [&](Value root) {
    auto type = dyn_cast<MemRefType>(root.getType());
    if (!type || type.getRank() == 0 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || getElementBytes(type) == 0)
      return false;
    // Defined in the function body, outside the nests: a copy before a
    // nest can read it.
    Block *body = &func.getBody().front();
    if (auto argument = dyn_cast<BlockArgument>(root))
      return argument.getOwner() == body;
    Operation *def = root.getDefiningOp();
    if (def->getBlock() != body)
      return false;
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return !alloc.getType().getMemorySpace();
    return isa<memref::GetGlobalOp>(def);
  };
  for (auto loop : func.getBody().front().getOps<affine::AffineForOp>()) {
    Nest &nest = nests.emplace_back();
    nest.root = loop;
    nest.analysis = std::make_unique<NestAnalysis>(context, loop);
    if (!nest.analysis->isAffine()) {
      nest.opaque = true;
      continue;
    }
    for (const AccessRelation &access : nest.analysis->getAccesses()) {
      auto *use = llvm::find_if(nest.uses, [&](const BufferUse &use) {
        return use.buffer == access.rootMemref;
      });
      if (use == nest.uses.end()) {
        use = &nest.uses.emplace_back();
        use->buffer = access.rootMemref;
        use->dimLoops.resize(
            cast<MemRefType>(access.rootMemref.getType()).getRank());
      }
      (access.isWrite ? use->writes : use->reads) = true;
      for (auto [dim, loops] :
           llvm::enumerate(nest.analysis->getIndexingLoops(access)))
        llvm::append_range(use->dimLoops[dim], loops);
    }
    for (BufferUse &use : nest.uses)
      for (SmallVector<unsigned> &loops : use.dimLoops)
        loops = sortOutermostFirst(*nest.analysis, std::move(loops));
    classify(nest);
    for (BufferUse &use : nest.uses) {
      if (!isBankable(use.buffer))
        continue;
      buffers.insert(
          {use.buffer, Buffer{cast<MemRefType>(use.buffer.getType()), {}}});
      usersOf[use.buffer].push_back(nests.size() - 1);
    }
  }
  // Buffers no analysed nest touches keep the default layout.
  auto addUnused = [&](Value root) {
    if (isBankable(root))
      buffers.insert({root, Buffer{cast<MemRefType>(root.getType()), {}}});
  };
  for (BlockArgument argument : func.getArguments())
    addUnused(argument);
  for (Operation &op : func.getBody().front())
    if (isa<memref::AllocOp, memref::GetGlobalOp>(op))
      addUnused(op.getResult(0));
}

void BankLayoutAssigner::classify(Nest &nest) {
  SmallVector<unsigned> writtenLoops;
  for (const BufferUse &use : nest.uses)
    if (use.writes)
      for (ArrayRef<unsigned> loops : use.dimLoops)
        llvm::append_range(writtenLoops, loops);
  nest.parallelLoops = sortOutermostFirst(*nest.analysis, writtenLoops);

  SmallVector<unsigned> allLoops =
      llvm::to_vector(llvm::seq<unsigned>(nest.analysis->getLoops().size()));
  for (unsigned loop : sortOutermostFirst(*nest.analysis, allLoops)) {
    if (llvm::is_contained(nest.parallelLoops, loop))
      continue;
    SmallVector<BufferUse *> contracted;
    for (BufferUse &use : nest.uses)
      if (use.readOnly() && indexes(use, loop))
        contracted.push_back(&use);
    if (contracted.size() < 2)
      continue;
    // The outermost reduction loop over two read buffers: a contraction.
    nest.contraction = true;
    for (BufferUse *use : contracted)
      use->requirement = outermostDimIndexedBy(*use, loop);
    const BufferUse &input = *contracted[0], &weights = *contracted[1];
    for (unsigned outputLoop : nest.parallelLoops) {
      if (!indexes(weights, outputLoop) || indexes(input, outputLoop))
        continue;
      for (BufferUse &use : nest.uses)
        if (use.writes)
          use.requirement = outermostDimIndexedBy(use, outputLoop);
      break;
    }
    return;
  }
}

std::optional<int64_t>
BankLayoutAssigner::getWanted(const Nest &nest, const BufferUse &use) const {
  if (nest.opaque || !buffers.contains(use.buffer))
    return std::nullopt;
  if (nest.contraction)
    return use.requirement;
  // Local mode: a flexible nest reads in the default layout and writes in
  // the layout of the buffer (the default, unless it initialises a
  // contraction's accumulator): conversions happen at the readers.
  // A flexible nest works partition-parallel: a dimension that a loop it
  // reduces over indexes cannot go across banks.
  SmallVector<bool> reduced(use.dimLoops.size(), false);
  for (auto [dim, loops] : llvm::enumerate(use.dimLoops))
    for (unsigned loop : loops)
      if (!llvm::is_contained(nest.parallelLoops, loop))
        reduced[dim] = true;
  if (mode == BankLayoutMode::Local)
    return use.reads && !use.writes
               ? std::optional(getDefaultLayout(use.buffer, reduced))
               : std::nullopt;
  if (!nest.partitionLoop) {
    // No loop across the banks: a dimension no loop indexes.
    for (auto [dim, loops] : llvm::enumerate(use.dimLoops))
      if (loops.empty())
        return dim;
    return std::nullopt;
  }
  return onlyDimIndexedBy(use, *nest.partitionLoop);
}

void BankLayoutAssigner::assignLocal() {
  for (auto &[value, buffer] : buffers) {
    // The layout its writers produce (a contraction's wins), else the one
    // its first reader wants.
    std::optional<int64_t> contracted, read;
    bool written = false;
    for (unsigned index : usersOf.lookup(value)) {
      const Nest &nest = nests[index];
      const BufferUse *use = llvm::find_if(
          nest.uses, [&](const BufferUse &use) { return use.buffer == value; });
      written |= use->writes;
      if (use->writes && nest.contraction && use->requirement)
        contracted = use->requirement;
      else if (!use->writes && !read)
        read = getWanted(nest, *use);
    }
    buffer.layout = contracted         ? *contracted
                    : !written && read ? *read
                                       : getDefaultLayout(value);
  }
}

void BankLayoutAssigner::setLayout(Value buffer, int64_t dim,
                                   SmallVectorImpl<Value> &queue) {
  auto it = buffers.find(buffer);
  if (it == buffers.end() || it->second.layout)
    return;
  it->second.layout = dim;
  queue.push_back(buffer);
}

bool BankLayoutAssigner::choosePartitionLoop(Nest &nest) {
  for (bool written : {true, false}) {
    for (const BufferUse &use : nest.uses) {
      if (use.writes != written || !buffers.contains(use.buffer))
        continue;
      std::optional<int64_t> layout = buffers.lookup(use.buffer).layout;
      if (!layout)
        continue;
      for (unsigned loop : use.dimLoops[*layout]) {
        if (llvm::is_contained(nest.parallelLoops, loop)) {
          nest.partitionLoop = loop;
          return true;
        }
      }
    }
  }
  return false;
}

void BankLayoutAssigner::propagate(SmallVectorImpl<Value> &queue) {
  while (!queue.empty()) {
    Value buffer = queue.pop_back_val();
    for (unsigned index : usersOf.lookup(buffer)) {
      Nest &nest = nests[index];
      if (nest.contraction || nest.partitionLoop || !choosePartitionLoop(nest))
        continue;
      for (const BufferUse &use : nest.uses)
        if (std::optional<int64_t> dim = getWanted(nest, use))
          setLayout(use.buffer, *dim, queue);
    }
  }
}

void BankLayoutAssigner::assignGlobal() {
  // Contraction requirements are the seeds: what the contractions write
  // first, then what they read; the first requirement of a buffer wins.
  SmallVector<Value> queue;
  for (bool written : {true, false})
    for (const Nest &nest : nests)
      if (nest.contraction)
        for (const BufferUse &use : nest.uses)
          if (use.writes == written && use.requirement)
            setLayout(use.buffer, *use.requirement, queue);
  propagate(queue);
  // Flexible nests no requirement reached: the default layout of their
  // first written buffer decides, and propagates in turn.
  for (Nest &nest : nests) {
    if (nest.opaque || nest.contraction || nest.partitionLoop)
      continue;
    if (!choosePartitionLoop(nest)) {
      for (bool written : {true, false}) {
        for (const BufferUse &use : nest.uses) {
          if (nest.partitionLoop || use.writes != written ||
              !buffers.contains(use.buffer))
            continue;
          std::optional<int64_t> layout = buffers.lookup(use.buffer).layout;
          int64_t dim = layout ? *layout : getDefaultLayout(use.buffer);
          for (unsigned loop : use.dimLoops[dim])
            if (!nest.partitionLoop &&
                llvm::is_contained(nest.parallelLoops, loop))
              nest.partitionLoop = loop;
        }
      }
      if (!nest.partitionLoop && !nest.parallelLoops.empty())
        nest.partitionLoop = nest.parallelLoops.front();
    }
    for (const BufferUse &use : nest.uses)
      if (std::optional<int64_t> dim = getWanted(nest, use))
        setLayout(use.buffer, *dim, queue);
    propagate(queue);
  }
  for (auto &[value, buffer] : buffers)
    if (!buffer.layout)
      buffer.layout = getDefaultLayout(value);
}

void BankLayoutAssigner::redirect(Nest &nest, Value buffer, Value replacement) {
  OpBuilder builder(nest.root);
  IRMapping views;
  views.map(buffer, replacement);
  for (const AccessRelation &access : nest.analysis->getAccesses()) {
    if (access.rootMemref != buffer)
      continue;
    // The views from the root to the accessed memref, rebuilt on the
    // replacement (same type, so the views keep their types).
    SmallVector<Operation *> chain;
    for (Value view = access.memref; view != buffer;
         view = view.getDefiningOp()->getOperand(0))
      chain.push_back(view.getDefiningOp());
    for (Operation *view : llvm::reverse(chain)) {
      if (views.contains(view->getResult(0)))
        continue;
      if (nest.root->isAncestor(view))
        builder.setInsertionPointAfter(view);
      else
        builder.setInsertionPoint(nest.root);
      builder.clone(*view, views);
    }
    access.op->replaceUsesOfWith(access.memref, views.lookup(access.memref));
  }
}

void BankLayoutAssigner::insertRelayouts(func::FuncOp func) {
  struct Copy {
    Value buffer;
    /// The op after which the copy is freed.
    Operation *lastUse;
  };
  SmallVector<Copy> copies;
  // Global mode: copies readers share, per (buffer, layout), until the
  // buffer is written again.
  DenseMap<std::pair<Value, int64_t>, unsigned> shared;
  auto isHarmless = [](Operation *op) {
    return isa<memref::AllocOp, memref::DeallocOp, memref::GetGlobalOp,
               ViewLikeOpInterface>(op) ||
           isMemoryEffectFree(op);
  };

  OpBuilder builder(func.getContext());
  auto makeCopy = [&](Value from, Value to, Location loc) -> Operation * {
    auto type = cast<MemRefType>(from.getType());
    ++relayouts;
    relayoutBytes += type.getNumElements() * getElementBytes(type);
    return buildCopyNest(builder, loc, from, to);
  };
  auto newBuffer = [&](Value like, int64_t dim, Location loc) {
    auto alloc =
        memref::AllocOp::create(builder, loc, cast<MemRefType>(like.getType()));
    alloc->setAttr(kBankDimAttr, builder.getI64IntegerAttr(dim));
    return alloc.getResult();
  };

  unsigned nestIndex = 0;
  for (Operation &op :
       llvm::make_early_inc_range(func.getBody().front().getOperations())) {
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (!loop || nestIndex >= nests.size() || nests[nestIndex].root != loop) {
      if (!isHarmless(&op))
        shared.clear();
      continue;
    }
    Nest &nest = nests[nestIndex++];
    if (nest.opaque) {
      shared.clear();
      continue;
    }
    Location loc = nest.root.getLoc();
    Operation *after = nest.root;
    for (const BufferUse &use : nest.uses) {
      std::optional<int64_t> wanted = getWanted(nest, use);
      std::optional<int64_t> layout = buffers.lookup(use.buffer).layout;
      if (!wanted || !layout || *wanted == *layout)
        continue;
      builder.setInsertionPoint(nest.root);
      if (!use.writes) {
        auto key = std::make_pair(use.buffer, *wanted);
        auto it = shared.find(key);
        if (mode == BankLayoutMode::Global && it != shared.end()) {
          copies[it->second].lastUse = nest.root;
          redirect(nest, use.buffer, copies[it->second].buffer);
          continue;
        }
        Value copy = newBuffer(use.buffer, *wanted, loc);
        makeCopy(use.buffer, copy, loc);
        redirect(nest, use.buffer, copy);
        shared[key] = copies.size();
        copies.push_back({copy, nest.root});
        continue;
      }
      // The nest writes the buffer in its own layout into a new buffer,
      // copied back after it. The new buffer starts as a copy when the nest
      // reads it or leaves part of it as it was.
      Value copy = newBuffer(use.buffer, *wanted, loc);
      std::optional<Footprint> footprint =
          nest.analysis->getFootprint(use.buffer);
      auto type = cast<MemRefType>(use.buffer.getType());
      if (use.reads || !footprint ||
          footprint->elements != type.getNumElements())
        makeCopy(use.buffer, copy, loc);
      redirect(nest, use.buffer, copy);
      builder.setInsertionPointAfter(after);
      after = makeCopy(copy, use.buffer, loc);
      copies.push_back({copy, after});
    }
    for (const BufferUse &use : nest.uses)
      if (use.writes)
        for (int64_t dim = 0, e = use.dimLoops.size(); dim < e; ++dim)
          shared.erase({use.buffer, dim});
  }
  for (const Copy &copy : copies) {
    builder.setInsertionPointAfter(copy.lastUse);
    memref::DeallocOp::create(builder, copy.lastUse->getLoc(), copy.buffer);
  }
}

void BankLayoutAssigner::run(func::FuncOp func, AnalysisContext &context) {
  analyse(func, context);
  if (mode == BankLayoutMode::Local)
    assignLocal();
  else
    assignGlobal();
  for (auto &[value, buffer] : buffers)
    setBankDim(func, value, *buffer.layout);
  insertRelayouts(func);
}

namespace {
struct AssignBankLayoutPass
    : public dlc::impl::AssignBankLayoutBase<AssignBankLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(func);
    if (func.isExternal() || !hardware || !hardware.hasLocalMemory() ||
        hardware.getBanks() <= 1)
      return;
    AnalysisContext context(func);
    BankLayoutAssigner assigner(mode, hardware.getBanks());
    assigner.run(func, context);

    numRelayouts += assigner.getRelayouts();
    numRelayoutBytes += assigner.getRelayoutBytes();
    Builder builder(&getContext());
    StringRef modeName = mode == BankLayoutMode::Local ? "local" : "global";
    func->setAttr(
        kSummaryAttr,
        builder.getDictionaryAttr({
            builder.getNamedAttr("mode", builder.getStringAttr(modeName)),
            builder.getNamedAttr("relayouts", builder.getI64IntegerAttr(
                                                  assigner.getRelayouts())),
            builder.getNamedAttr(
                "relayout_bytes",
                builder.getI64IntegerAttr(assigner.getRelayoutBytes())),
        }));
  }
};
} // namespace
