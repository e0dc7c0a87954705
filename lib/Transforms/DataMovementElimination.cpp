//===- DataMovementElimination.cpp - read through pure copy nests ---------===//
//
// A buffer written only by pure copy nests (and a fill before them) holds
// nothing its readers could not read from the copies' sources: the access
// analysis composes each read with the inverse of the copies' stores and
// their loads, and the pieces of that function become the new loads. The
// legality checks are per buffer and all-or-nothing, so a kept buffer is
// left exactly as it was, with one remark per copy nest saying why.
//
//===----------------------------------------------------------------------===//

#include "dlc/Analysis/AccessAnalysis.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "LocalMemory.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <memory>

namespace dlc {
#define GEN_PASS_DEF_DATAMOVEMENTELIMINATION
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

//===----------------------------------------------------------------------===//
// IR helpers
//===----------------------------------------------------------------------===//

/// Views the access analysis resolves to the buffer they view.
static bool isResolvedView(Operation *op) {
  return isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::CastOp>(op);
}

/// The buffer `memref` is a view of, through any view op (for aliasing).
static Value getAliasRoot(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// The op of the function body that is or contains `op`.
static Operation *getTopLevelOp(Operation *op, Block &body) {
  while (op && op->getBlock() != &body)
    op = op->getParentOp();
  return op;
}

static std::string describeNest(Operation *op) {
  return "the nest of " + getNodeName(op);
}

/// Whether `op` (or anything nested in it) may write or free `root` (a
/// buffer, through any view of it). Ops without declared effects write
/// everything. On true, `writer` is the op.
static bool mayWrite(Operation *op, Value root, Operation *&writer) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(nested)) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &instance : instances) {
        if (!isa<MemoryEffects::Write, MemoryEffects::Free>(
                instance.getEffect()))
          continue;
        Value value = instance.getValue();
        if (!value || getAliasRoot(value) == root) {
          writer = nested;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    }
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    writer = nested;
    return WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

static bool isLoad(Operation *op) {
  return isa<affine::AffineLoadOp, memref::LoadOp>(op);
}

static Value getStoredValue(Operation *store) {
  if (auto affineStore = dyn_cast<affine::AffineStoreOp>(store))
    return affineStore.getValueToStore();
  return cast<memref::StoreOp>(store).getValueToStore();
}

/// A nest whose only write is one store of a value it loaded (or selected
/// among loads with affine.if): a copy, whether or not the analysis can
/// describe it. Such nests get a remark when they stay.
static bool isCopyLike(affine::AffineForOp nest) {
  Operation *store = nullptr;
  bool otherEffects = false;
  nest.walk([&](Operation *op) {
    if (isa<affine::AffineStoreOp, memref::StoreOp>(op)) {
      otherEffects |= store != nullptr;
      store = op;
    } else if (!isLoad(op) &&
               !isa<affine::AffineForOp, affine::AffineIfOp,
                    affine::AffineYieldOp>(op) &&
               !isMemoryEffectFree(op)) {
      otherEffects = true;
    }
  });
  if (!store || otherEffects)
    return false;
  Operation *def = getStoredValue(store).getDefiningOp();
  return def && nest->isAncestor(def) &&
         (isLoad(def) || isa<affine::AffineIfOp>(def));
}

//===----------------------------------------------------------------------===//
// Constant-index gathers
//===----------------------------------------------------------------------===//

namespace {

/// Evaluates the index computations of a nest for given loop index values,
/// reading constant tables (constant memref.global) by value.
class IndexEvaluator {
public:
  IndexEvaluator(Operation *nest, SymbolTableCollection &symbols)
      : nest(nest), symbols(symbols) {}

  DenseMap<Value, int64_t> loopValues;
  FailureOr<int64_t> evaluate(Value value);

private:
  FailureOr<int64_t> readTable(Value memref, ArrayRef<int64_t> indices);

  Operation *nest;
  SymbolTableCollection &symbols;
};

} // namespace

FailureOr<int64_t> IndexEvaluator::readTable(Value memref,
                                             ArrayRef<int64_t> indices) {
  auto getGlobal = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return failure();
  auto global = symbols.lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global || !global.getConstant())
    return failure();
  auto table = dyn_cast_or_null<DenseIntElementsAttr>(
      global.getInitialValue().value_or(Attribute()));
  if (!table)
    return failure();
  ArrayRef<int64_t> shape = table.getType().getShape();
  if (shape.size() != indices.size())
    return failure();
  int64_t linear = 0;
  for (auto [index, size] : llvm::zip(indices, shape)) {
    if (index < 0 || index >= size)
      return failure();
    linear = linear * size + index;
  }
  if (table.isSplat())
    return table.getSplatValue<APInt>().getSExtValue();
  return (*(table.value_begin<APInt>() + linear)).getSExtValue();
}

FailureOr<int64_t> IndexEvaluator::evaluate(Value value) {
  auto loop = loopValues.find(value);
  if (loop != loopValues.end())
    return loop->second;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  Operation *def = value.getDefiningOp();
  if (!def || !nest->isAncestor(def))
    return failure();
  auto operand = [&](unsigned index) {
    return evaluate(def->getOperand(index));
  };
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
    return operand(0);
  // The results of `map` at the evaluated `mapOperands`.
  auto evaluateMap =
      [&](AffineMap map,
          ValueRange mapOperands) -> FailureOr<SmallVector<int64_t>> {
    SmallVector<Attribute> operands;
    for (Value mapOperand : mapOperands) {
      FailureOr<int64_t> evaluated = evaluate(mapOperand);
      if (failed(evaluated))
        return failure();
      operands.push_back(
          IntegerAttr::get(IndexType::get(def->getContext()), *evaluated));
    }
    SmallVector<Attribute> results;
    if (failed(map.constantFold(operands, results)))
      return failure();
    SmallVector<int64_t> values;
    for (Attribute result : results) {
      auto integer = dyn_cast<IntegerAttr>(result);
      if (!integer)
        return failure();
      values.push_back(integer.getInt());
    }
    return values;
  };
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    FailureOr<SmallVector<int64_t>> results =
        evaluateMap(apply.getAffineMap(), apply.getMapOperands());
    if (failed(results) || results->size() != 1)
      return failure();
    return results->front();
  }
  if (isa<affine::AffineLoadOp, memref::LoadOp>(def)) {
    SmallVector<int64_t> indices;
    Value memref;
    if (auto load = dyn_cast<affine::AffineLoadOp>(def)) {
      memref = load.getMemRef();
      FailureOr<SmallVector<int64_t>> results =
          evaluateMap(load.getAffineMap(), load.getMapOperands());
      if (failed(results))
        return failure();
      indices = std::move(*results);
    } else {
      auto memrefLoad = cast<memref::LoadOp>(def);
      memref = memrefLoad.getMemRef();
      for (Value index : memrefLoad.getIndices()) {
        FailureOr<int64_t> evaluated = evaluate(index);
        if (failed(evaluated))
          return failure();
        indices.push_back(*evaluated);
      }
    }
    return readTable(memref, indices);
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MinSIOp,
          arith::MaxSIOp>(def)) {
    FailureOr<int64_t> lhs = operand(0), rhs = operand(1);
    if (failed(lhs) || failed(rhs))
      return failure();
    if (isa<arith::AddIOp>(def))
      return *lhs + *rhs;
    if (isa<arith::SubIOp>(def))
      return *lhs - *rhs;
    if (isa<arith::MulIOp>(def))
      return *lhs * *rhs;
    if (isa<arith::MinSIOp>(def))
      return std::min(*lhs, *rhs);
    return std::max(*lhs, *rhs);
  }
  if (auto compare = dyn_cast<arith::CmpIOp>(def)) {
    FailureOr<int64_t> lhs = operand(0), rhs = operand(1);
    if (failed(lhs) || failed(rhs))
      return failure();
    switch (compare.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return *lhs == *rhs;
    case arith::CmpIPredicate::ne:
      return *lhs != *rhs;
    case arith::CmpIPredicate::slt:
      return *lhs < *rhs;
    case arith::CmpIPredicate::sle:
      return *lhs <= *rhs;
    case arith::CmpIPredicate::sgt:
      return *lhs > *rhs;
    case arith::CmpIPredicate::sge:
      return *lhs >= *rhs;
    default:
      return failure();
    }
  }
  if (isa<arith::SelectOp>(def)) {
    FailureOr<int64_t> condition = operand(0);
    if (failed(condition))
      return failure();
    return operand(*condition ? 1 : 2);
  }
  return failure();
}

/// Loop indices that `value`'s computation inside `nest` depends on.
static void collectLoopDependences(Value value, Operation *nest,
                                   llvm::SetVector<Value> &loops) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(current)) {
      if (affine::getForInductionVarOwner(argument) &&
          nest->isAncestor(argument.getOwner()->getParentOp()))
        loops.insert(current);
      continue;
    }
    Operation *def = current.getDefiningOp();
    if (nest->isAncestor(def))
      llvm::append_range(worklist, def->getOperands());
  }
}

/// Whether an index computation reads memory (a gather's index table).
static bool readsMemory(Value value, Operation *nest) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    Operation *def = current.getDefiningOp();
    if (!def || !nest->isAncestor(def))
      continue;
    if (isLoad(def))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// Most loop iterations evaluated to fit one gather index.
static constexpr int64_t kMaxEvaluatedPoints = 1 << 16;

/// Rewrites `load` (a memref.load whose indices are read from constant
/// tables) as an affine.load when every index is an affine function of the
/// loop indices on all iterations. The ONNX Gather lowering reads its index
/// table, wraps negative indices and clamps: with a constant table that is
/// an arithmetic sequence, all of that is an affine function.
static LogicalResult
makeConstantIndexLoadAffine(memref::LoadOp load, affine::AffineForOp nest,
                            SymbolTableCollection &tables) {
  SmallVector<affine::AffineForOp> enclosing;
  for (Operation *parent = load->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<affine::AffineForOp>(parent))
      enclosing.insert(enclosing.begin(), loop);
    if (parent == nest.getOperation())
      break;
  }
  SmallVector<Value> ivs;
  for (affine::AffineForOp loop : enclosing)
    ivs.push_back(loop.getInductionVar());
  MLIRContext *context = load.getContext();
  SmallVector<AffineExpr> exprs;
  IndexEvaluator evaluator(nest, tables);
  for (Value index : load.getIndices()) {
    llvm::SetVector<Value> loops;
    collectLoopDependences(index, nest, loops);
    // Each dependence: its loop's lower bound, step and trip count.
    struct Range {
      Value iv;
      unsigned dim;
      int64_t lower, step, trips;
    };
    SmallVector<Range> ranges;
    int64_t points = 1;
    for (Value iv : loops) {
      affine::AffineForOp loop = affine::getForInductionVarOwner(iv);
      if (!loop.hasConstantBounds())
        return failure();
      int64_t lower = loop.getConstantLowerBound();
      int64_t step = loop.getStepAsInt();
      int64_t span = loop.getConstantUpperBound() - lower;
      int64_t trips = span <= 0 ? 0 : (span + step - 1) / step;
      if (trips == 0)
        return failure();
      points *= trips;
      if (points > kMaxEvaluatedPoints)
        return failure();
      unsigned dim = llvm::find(ivs, iv) - ivs.begin();
      ranges.push_back({iv, dim, lower, step, trips});
    }
    auto evaluateAt = [&](ArrayRef<int64_t> trip) -> FailureOr<int64_t> {
      for (auto [range, t] : llvm::zip(ranges, trip))
        evaluator.loopValues[range.iv] = range.lower + t * range.step;
      return evaluator.evaluate(index);
    };
    // index = base + sum of coefficient * (iv - lower), fitted from the
    // first two iterations of each loop, then checked on all of them.
    SmallVector<int64_t> trip(ranges.size(), 0);
    FailureOr<int64_t> base = evaluateAt(trip);
    if (failed(base))
      return failure();
    SmallVector<int64_t> coefficients;
    for (unsigned k = 0; k < ranges.size(); ++k) {
      if (ranges[k].trips == 1) {
        coefficients.push_back(0);
        continue;
      }
      trip[k] = 1;
      FailureOr<int64_t> next = evaluateAt(trip);
      trip[k] = 0;
      if (failed(next) || (*next - *base) % ranges[k].step != 0)
        return failure();
      coefficients.push_back((*next - *base) / ranges[k].step);
    }
    for (int64_t point = 0; point < points; ++point) {
      int64_t rest = point, expected = *base;
      for (unsigned k = 0; k < ranges.size(); ++k) {
        trip[k] = rest % ranges[k].trips;
        rest /= ranges[k].trips;
        expected += coefficients[k] * trip[k] * ranges[k].step;
      }
      FailureOr<int64_t> actual = evaluateAt(trip);
      if (failed(actual) || *actual != expected)
        return failure();
    }
    AffineExpr expr = getAffineConstantExpr(*base, context);
    for (auto [range, coefficient] : llvm::zip(ranges, coefficients))
      expr = expr +
             (getAffineDimExpr(range.dim, context) - range.lower) * coefficient;
    exprs.push_back(expr);
  }
  OpBuilder builder(load);
  auto affineLoad = affine::AffineLoadOp::create(
      builder, load.getLoc(), load.getMemRef(),
      AffineMap::get(ivs.size(), 0, exprs, context), ivs);
  load.getResult().replaceAllUsesWith(affineLoad.getResult());
  load.erase();
  return success();
}

/// Makes the constant-index gathers among the function's copy nests affine
/// (so they are pure copies); returns how many loads were rewritten.
static unsigned makeConstantIndexGathersAffine(func::FuncOp function) {
  SymbolTableCollection tables;
  unsigned rewritten = 0;
  for (Operation &op : function.getBody().front()) {
    auto nest = dyn_cast<affine::AffineForOp>(op);
    if (!nest || !isCopyLike(nest))
      continue;
    SmallVector<memref::LoadOp> loads;
    nest.walk([&](memref::LoadOp load) {
      if (llvm::any_of(load.getIndices(),
                       [&](Value index) { return readsMemory(index, nest); }))
        loads.push_back(load);
    });
    bool changed = false;
    for (memref::LoadOp load : loads)
      if (succeeded(makeConstantIndexLoadAffine(load, nest, tables))) {
        ++rewritten;
        changed = true;
      }
    if (!changed)
      continue;
    // The index computations (and the table loads) are dead now.
    IRRewriter rewriter(function.getContext());
    (void)runRegionDCE(rewriter, nest->getRegions());
  }
  return rewritten;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// One branch of a rewritten read: a load of `source` at `map` where
/// `condition` holds (null: everywhere else), or the fill value when
/// `source` is null.
struct ReadBranch {
  Value source;
  IntegerSet condition;
  AffineMap map;
};

/// A read of the eliminated buffer and what replaces it.
struct ReadRewrite {
  Operation *load;
  /// The reader's enclosing loop indices, then the symbols of the pieces.
  SmallVector<Value> operands;
  SmallVector<ReadBranch> branches;
};

/// Everything needed to eliminate one buffer.
struct BufferPlan {
  Value buffer;
  /// Pure copy nests writing the buffer, in program order, with the number
  /// of elements each copies.
  SmallVector<std::pair<affine::AffineForOp, int64_t>> copies;
  /// The memref each copy loads (its source or a view of it).
  SmallVector<Value> copyInputs;
  affine::AffineForOp fill;
  TypedAttr fillValue;
  Value fillScalar;
  SmallVector<Operation *> readerNests;
  SmallVector<ReadRewrite> reads;
  SmallVector<Operation *> views, deallocs;
};

struct DataMovementEliminationPass
    : dlc::impl::DataMovementEliminationBase<DataMovementEliminationPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  NestAnalysis &getNest(affine::AffineForOp nest);
  void forget(Operation *nest) { state->nests.erase(nest); }
  /// The plan for eliminating `buffer`, or why it stays.
  FailureOr<BufferPlan> plan(Value buffer, std::string &reason);
  LogicalResult planReads(BufferPlan &plan, ArrayRef<CopyNest> copies,
                          std::string &reason);
  /// Rewrites the reads and erases the buffer; `records` gets one
  /// dictionary per erased copy, keyed by its position in the function.
  void apply(BufferPlan &plan,
             SmallVectorImpl<std::pair<unsigned, Attribute>> &records);
  void keep(affine::AffineForOp nest, const std::string &reason);

  /// What one function's run knows (the pass itself must stay copyable).
  struct FunctionState {
    explicit FunctionState(func::FuncOp function)
        : function(function), context(function) {}
    func::FuncOp function;
    AnalysisContext context;
    /// Analyses of the nests looked at so far; relations belong to the
    /// context, so this is declared (and destroyed) after it.
    DenseMap<Operation *, std::unique_ptr<NestAnalysis>> nests;
    DenseSet<Operation *> erased;
    /// Program order of the top-level ops as the run started.
    DenseMap<Operation *, unsigned> position;
    /// Copies kept, with their position and reason.
    SmallVector<std::tuple<unsigned, Operation *, std::string>> kept;
    struct {
      int64_t copiesRemoved = 0, copiesKept = 0, fillsRemoved = 0,
              elementCopiesRemoved = 0, bytesRemoved = 0, readsRewritten = 0;
    } totals;
  };
  FunctionState *state = nullptr;
};

} // namespace

NestAnalysis &DataMovementEliminationPass::getNest(affine::AffineForOp nest) {
  std::unique_ptr<NestAnalysis> &analysis = state->nests[nest];
  if (!analysis)
    analysis = std::make_unique<NestAnalysis>(state->context, nest);
  return *analysis;
}

void DataMovementEliminationPass::keep(affine::AffineForOp nest,
                                       const std::string &reason) {
  // Emitted at the end, in program order (copies are visited last first).
  state->kept.push_back({state->position.lookup(nest), nest, reason});
  ++state->totals.copiesKept;
}

/// The constant `nest` stores to every element of `buffer` when that is all
/// it does (the fill of a pad).
static TypedAttr getFillValue(const NestAnalysis &nest, Value buffer,
                              Value &scalar) {
  if (!nest.isAffine() || nest.getAccesses().size() != 1)
    return {};
  const AccessRelation &store = nest.getAccesses().front();
  if (!store.isWrite || store.rootMemref != buffer)
    return {};
  scalar = getStoredValue(store.op);
  TypedAttr value;
  if (!matchPattern(scalar, m_Constant(&value)))
    return {};
  auto type = cast<MemRefType>(buffer.getType());
  std::optional<Footprint> footprint = nest.getFootprint(buffer);
  if (!type.hasStaticShape() || !footprint ||
      footprint->elements != type.getNumElements())
    return {};
  return value;
}

FailureOr<BufferPlan> DataMovementEliminationPass::plan(Value buffer,
                                                        std::string &reason) {
  Block &body = state->function.getBody().front();
  if (isa<BlockArgument>(buffer)) {
    reason = "it writes a function argument (an output)";
    return failure();
  }
  Operation *alloc = buffer.getDefiningOp();
  if (!isa<memref::AllocOp, memref::AllocaOp>(alloc) ||
      alloc->getBlock() != &body) {
    reason = "it writes a buffer that is not a local allocation";
    return failure();
  }
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || !getElementBytes(type.getElementType())) {
    reason = "its buffer has a dynamic shape or an unsized element type";
    return failure();
  }

  BufferPlan plan;
  plan.buffer = buffer;
  // Every use, through views: nests, views the analysis resolves, deallocs.
  llvm::SetVector<Operation *> touchedNests;
  DenseMap<Operation *, SmallVector<Operation *>> accessesByNest;
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value memref = worklist.pop_back_val();
    for (Operation *user : memref.getUsers()) {
      if (isResolvedView(user)) {
        plan.views.push_back(user);
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (isa<ViewLikeOpInterface>(user)) {
        reason = "its buffer is viewed through '" +
                 user->getName().getStringRef().str() + "'";
        return failure();
      }
      if (isa<memref::DeallocOp>(user) && user->getBlock() == &body) {
        plan.deallocs.push_back(user);
        continue;
      }
      Operation *top = getTopLevelOp(user, body);
      if (!isa_and_nonnull<affine::AffineForOp>(top)) {
        reason = "its buffer is used by '" +
                 user->getName().getStringRef().str() + "'";
        return failure();
      }
      touchedNests.insert(top);
      accessesByNest[top].push_back(user);
    }
  }
  SmallVector<Operation *> orderedNests(touchedNests.begin(),
                                        touchedNests.end());
  llvm::sort(orderedNests,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  SmallVector<CopyNest> copies;
  for (Operation *op : orderedNests) {
    auto loop = cast<affine::AffineForOp>(op);
    NestAnalysis &nest = getNest(loop);
    bool reads = false, writes = false;
    for (Operation *user : accessesByNest[op]) {
      const auto *access =
          llvm::find_if(nest.getAccesses(), [&](const AccessRelation &access) {
            return access.op == user;
          });
      if (access == nest.getAccesses().end()) {
        const auto *nonAffine = llvm::find_if(
            nest.getNonAffineAccesses(),
            [&](const NonAffineAccess &access) { return access.op == user; });
        reason = "its buffer is accessed by " + describeNest(op) +
                 (nonAffine != nest.getNonAffineAccesses().end()
                      ? " without an affine access: " + nonAffine->reason
                      : " in a way the analysis does not model");
        return failure();
      }
      if (access->rootMemref != buffer) {
        reason = "its buffer is accessed by " + describeNest(op) +
                 " through a view the analysis does not resolve";
        return failure();
      }
      (access->isWrite ? writes : reads) = true;
    }
    if (reads && writes) {
      reason = "its buffer is updated in place by " + describeNest(op) +
               " (read and written there, e.g. an accumulator the copy "
               "initialises)";
      return failure();
    }
    if (reads) {
      plan.readerNests.push_back(op);
      continue;
    }
    std::optional<CopyNest> copy = nest.getPureCopy();
    if (copy && copy->store->rootMemref == buffer) {
      if (!plan.readerNests.empty()) {
        reason = "its buffer is read by " +
                 describeNest(plan.readerNests.front()) + " before a copy";
        return failure();
      }
      std::optional<int64_t> elements = copy->store->domain.countPoints();
      plan.copies.push_back({loop, elements.value_or(0)});
      plan.copyInputs.push_back(copy->load->memref);
      copies.push_back(*copy);
      continue;
    }
    Value scalar;
    TypedAttr fillValue = getFillValue(nest, buffer, scalar);
    if (fillValue && !plan.fill && plan.copies.empty() &&
        plan.readerNests.empty()) {
      plan.fill = loop;
      plan.fillValue = fillValue;
      plan.fillScalar = scalar;
      continue;
    }
    reason = "its buffer is also written by " + describeNest(op);
    return failure();
  }
  if (plan.copies.empty()) {
    reason = "no copy nest writes its buffer";
    return failure();
  }

  // The sources must hold the copied values until the last reader (a
  // buffer nothing reads is simply dead).
  Operation *last =
      plan.readerNests.empty() ? nullptr : plan.readerNests.back();
  for (auto [loop, copy] : llvm::zip(plan.copies, copies)) {
    if (!last)
      break;
    Value source = copy.load->rootMemref;
    Operation *def = source.getDefiningOp();
    if (def && def->getBlock() != &body) {
      reason = "its source is not a buffer of the function body";
      return failure();
    }
    for (Operation *op = loop.first->getNextNode(); op;
         op = op->getNextNode()) {
      Operation *writer = nullptr;
      if (mayWrite(op, source, writer)) {
        reason = "its source is written by '" +
                 writer->getName().getStringRef().str() + "' in " +
                 (isa<affine::AffineForOp>(op) ? describeNest(op)
                                               : "the function body") +
                 " before the last reader";
        return failure();
      }
      if (op == last)
        break;
    }
  }
  if (failed(planReads(plan, copies, reason)))
    return failure();
  return plan;
}

LogicalResult DataMovementEliminationPass::planReads(BufferPlan &plan,
                                                     ArrayRef<CopyNest> copies,
                                                     std::string &reason) {
  Block &body = state->function.getBody().front();
  for (Operation *op : plan.readerNests) {
    NestAnalysis &nest = getNest(cast<affine::AffineForOp>(op));
    for (const AccessRelation &reader : nest.getAccesses()) {
      if (reader.isWrite || reader.rootMemref != plan.buffer)
        continue;
      FailureOr<SmallVector<ReadThroughCopies>> reads =
          composeThroughCopies(reader, copies);
      if (failed(reads)) {
        reason = "a copy's store is not injective or two copies write the "
                 "same element";
        return failure();
      }
      ReadRewrite rewrite;
      rewrite.load = reader.op;
      for (unsigned loop : reader.enclosingLoops)
        rewrite.operands.push_back(
            affine::AffineForOp(nest.getLoops()[loop].loop).getInductionVar());
      unsigned numDims = rewrite.operands.size();
      // Pieces of different sources number their symbols separately: they
      // are renumbered into one list, and the maps and sets rebuilt once
      // its size is known.
      SmallVector<std::string> symbols;
      struct PendingBranch {
        Value source;
        SmallVector<AffineExpr> results, constraints;
        SmallVector<bool> isEquality;
        bool hasCondition;
      };
      SmallVector<PendingBranch> pending;
      PresburgerPointSet covered;
      for (const ReadThroughCopies &read : *reads) {
        if (read.relation.isEmpty())
          continue;
        covered = covered.unite(read.relation.domain());
        FailureOr<PiecewiseAffineMap> pieces =
            read.relation.toAffinePieces(&getContext(), reader.domain);
        if (failed(pieces)) {
          reason = "a read through the copies (in " + describeNest(op) +
                   ") is not a quasi-affine function";
          return failure();
        }
        SmallVector<AffineExpr> dimReplacements, symbolReplacements;
        for (unsigned dim = 0; dim < numDims; ++dim)
          dimReplacements.push_back(getAffineDimExpr(dim, &getContext()));
        for (const std::string &name : pieces->symbols) {
          auto *it = llvm::find(symbols, name);
          if (it == symbols.end()) {
            symbols.push_back(name);
            it = symbols.end() - 1;
          }
          symbolReplacements.push_back(
              getAffineSymbolExpr(it - symbols.begin(), &getContext()));
        }
        auto renumber = [&](AffineExpr expr) {
          return expr.replaceDimsAndSymbols(dimReplacements,
                                            symbolReplacements);
        };
        for (const AffinePiece &piece : pieces->pieces) {
          PendingBranch branch{
              read.source, {}, {}, {}, piece.condition != IntegerSet()};
          branch.results =
              llvm::map_to_vector(piece.map.getResults(), renumber);
          if (branch.hasCondition) {
            branch.constraints =
                llvm::map_to_vector(piece.condition.getConstraints(), renumber);
            llvm::append_range(branch.isEquality, piece.condition.getEqFlags());
          }
          pending.push_back(std::move(branch));
        }
      }
      for (PendingBranch &branch : pending) {
        ReadBranch final{branch.source, IntegerSet(),
                         AffineMap::get(numDims, symbols.size(), branch.results,
                                        &getContext())};
        if (branch.hasCondition)
          final.condition = IntegerSet::get(
              numDims, symbols.size(), branch.constraints, branch.isEquality);
        rewrite.branches.push_back(final);
      }
      PresburgerPointSet uncovered =
          covered.isNull() ? reader.domain : reader.domain.subtract(covered);
      if (!uncovered.isEmpty()) {
        if (!plan.fill) {
          reason = describeNest(op) + " reads elements no copy writes";
          return failure();
        }
        rewrite.branches.push_back({Value(), IntegerSet(), AffineMap()});
      }
      if (rewrite.branches.size() > maxPieces) {
        reason = "a read in " + describeNest(op) + " needs " +
                 std::to_string(rewrite.branches.size()) +
                 " pieces (max-pieces is " + std::to_string(maxPieces) + ")";
        return failure();
      }
      // Sources and symbols must be available at the reader: function
      // arguments or values of the body defined before its nest.
      auto availableAt = [&](Value value) {
        Operation *def = value.getDefiningOp();
        if (!def)
          return cast<BlockArgument>(value).getOwner() == &body;
        return def->getBlock() == &body && def->isBeforeInBlock(op);
      };
      for (const std::string &name : symbols) {
        Value value = state->context.lookupName(name);
        if (!value || !availableAt(value) || !affine::isValidSymbol(value)) {
          reason = "a read through the copies depends on '" + name +
                   "', which is not a symbol at the reader";
          return failure();
        }
        rewrite.operands.push_back(value);
      }
      for (const ReadBranch &branch : rewrite.branches)
        if (branch.source && !availableAt(branch.source)) {
          reason = "a source is not available at " + describeNest(op);
          return failure();
        }
      // The branch without a condition (there is at most one when all
      // pieces are disjoint) is the final else.
      std::stable_partition(rewrite.branches.begin(), rewrite.branches.end(),
                            [](const ReadBranch &branch) {
                              return branch.condition != IntegerSet() &&
                                     branch.source;
                            });
      plan.reads.push_back(std::move(rewrite));
    }
  }
  return success();
}

/// Builds the value `branches` select: one load, or an affine.if chain.
static Value buildRead(OpBuilder &builder, Location loc, Type type,
                       ArrayRef<ReadBranch> branches, ValueRange operands,
                       Value fill) {
  auto emit = [&](OpBuilder &b, const ReadBranch &branch) -> Value {
    if (!branch.source)
      return fill;
    return affine::AffineLoadOp::create(b, loc, branch.source, branch.map,
                                        operands);
  };
  if (branches.size() == 1 || branches.front().condition == IntegerSet())
    return emit(builder, branches.front());
  auto guard = affine::AffineIfOp::create(builder, loc, TypeRange{type},
                                          branches.front().condition, operands,
                                          /*withElseRegion=*/true);
  OpBuilder thenBuilder = OpBuilder::atBlockEnd(guard.getThenBlock());
  affine::AffineYieldOp::create(thenBuilder, loc,
                                emit(thenBuilder, branches.front()));
  OpBuilder elseBuilder = OpBuilder::atBlockEnd(guard.getElseBlock());
  affine::AffineYieldOp::create(
      elseBuilder, loc,
      buildRead(elseBuilder, loc, type, branches.drop_front(), operands, fill));
  return guard.getResult(0);
}

void DataMovementEliminationPass::apply(
    BufferPlan &plan,
    SmallVectorImpl<std::pair<unsigned, Attribute>> &records) {
  Block &body = state->function.getBody().front();
  // The pad value, where every reader sees it.
  Value fill;
  if (plan.fill) {
    Operation *def = plan.fillScalar.getDefiningOp();
    if (def && def->getBlock() == &body) {
      fill = plan.fillScalar;
    } else {
      OpBuilder builder = OpBuilder::atBlockBegin(&body);
      fill = arith::ConstantOp::create(builder, plan.fill.getLoc(),
                                       plan.fillValue);
    }
  }
  for (ReadRewrite &read : plan.reads) {
    OpBuilder builder(read.load);
    Value value = buildRead(builder, read.load->getLoc(),
                            read.load->getResult(0).getType(), read.branches,
                            read.operands, fill);
    read.load->getResult(0).replaceAllUsesWith(value);
    read.load->erase();
    ++state->totals.readsRewritten;
  }
  for (Operation *reader : plan.readerNests)
    forget(reader);

  auto type = cast<MemRefType>(plan.buffer.getType());
  int64_t bytes =
      type.getNumElements() * *getElementBytes(type.getElementType());
  MLIRContext *ctx = &getContext();
  for (auto [copy, elements] : plan.copies) {
    records.emplace_back(
        state->position.lookup(copy),
        DictionaryAttr::get(
            ctx, {NamedAttribute(StringAttr::get(ctx, "op"),
                                 StringAttr::get(ctx, getNodeName(copy))),
                  NamedAttribute(
                      StringAttr::get(ctx, "elements"),
                      IntegerAttr::get(IntegerType::get(ctx, 64), elements)),
                  NamedAttribute(
                      StringAttr::get(ctx, "bytes"),
                      IntegerAttr::get(IntegerType::get(ctx, 64), bytes))}));
    ++state->totals.copiesRemoved;
    state->totals.elementCopiesRemoved += elements;
    forget(copy);
    state->erased.insert(copy);
    copy.erase();
  }
  if (plan.fill) {
    ++state->totals.fillsRemoved;
    forget(plan.fill);
    state->erased.insert(plan.fill);
    plan.fill.erase();
  }
  state->totals.bytesRemoved += bytes;
  auto eraseTopLevel = [&](Operation *op) {
    state->erased.insert(op);
    op->erase();
  };
  for (Operation *dealloc : plan.deallocs)
    eraseTopLevel(dealloc);
  // Views of views come later in the block: erase from the last.
  llvm::sort(plan.views,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *view : plan.views)
    if (view->use_empty())
      eraseTopLevel(view);
  if (plan.buffer.use_empty())
    eraseTopLevel(plan.buffer.getDefiningOp());
  // Views of the sources only the copies used.
  for (Value input : plan.copyInputs) {
    while (Operation *view = input.getDefiningOp()) {
      if (!isResolvedView(view) || !input.use_empty() ||
          view->getBlock() != &body)
        break;
      input = view->getOperand(0);
      eraseTopLevel(view);
    }
  }
}

void DataMovementEliminationPass::runOnOperation() {
  func::FuncOp function = getOperation();
  if (function.getBody().empty())
    return;
  unsigned gathersMadeAffine = makeConstantIndexGathersAffine(function);

  FunctionState functionState(function);
  state = &functionState;
  Block &body = function.getBody().front();
  SmallVector<Operation *> topLevel =
      llvm::map_to_vector(body, [](Operation &op) { return &op; });
  DenseMap<Value, std::string> keptBuffers;
  SmallVector<std::pair<unsigned, Attribute>> records;
  for (auto [index, op] : llvm::enumerate(topLevel))
    state->position[op] = index;
  // Last copy first: a copy reading a concatenation or a pad would become
  // a piecewise copy (an affine.if of loads) if that buffer went first,
  // and piecewise copies are not pure copies; the other way round, its
  // readers read the concatenation or pad, which then goes with them.
  for (Operation *op : llvm::reverse(topLevel)) {
    if (state->erased.contains(op))
      continue;
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (!loop || !isCopyLike(loop))
      continue;
    NestAnalysis &nest = getNest(loop);
    std::optional<CopyNest> copy = nest.getPureCopy();
    if (!copy) {
      keep(loop,
           nest.isAffine()
               ? "not a pure copy (it selects among loads, or copies "
                 "within one buffer)"
               : "not affine: " + nest.getNonAffineAccesses().front().reason);
      continue;
    }
    Value buffer = copy->store->rootMemref;
    auto kept = keptBuffers.find(buffer);
    if (kept != keptBuffers.end()) {
      keep(loop, kept->second);
      continue;
    }
    std::string reason;
    FailureOr<BufferPlan> bufferPlan = plan(buffer, reason);
    if (failed(bufferPlan)) {
      keptBuffers[buffer] = reason;
      keep(loop, reason);
      continue;
    }
    apply(*bufferPlan, records);
  }
  llvm::sort(functionState.kept, [](const auto &a, const auto &b) {
    return std::get<0>(a) < std::get<0>(b);
  });
  for (auto &[position, nest, reason] : functionState.kept)
    nest->emitRemark("copy kept: ") << reason;
  auto totals = functionState.totals;
  state = nullptr;

  numCopiesRemoved += totals.copiesRemoved;
  numCopiesKept += totals.copiesKept;
  numFillsRemoved += totals.fillsRemoved;
  // One load-store pair per copy nest.
  numPairsRemoved += totals.copiesRemoved;
  numElementCopiesRemoved += totals.elementCopiesRemoved;
  numBytesRemoved += totals.bytesRemoved;
  numReadsRewritten += totals.readsRewritten;
  numGathersMadeAffine += gathersMadeAffine;
  if (summary)
    function.emitRemark("data-movement elimination: removed ")
        << totals.copiesRemoved << " of "
        << totals.copiesRemoved + totals.copiesKept << " copy nests ("
        << totals.copiesRemoved << " load-store pairs, "
        << totals.elementCopiesRemoved << " element copies) and "
        << totals.fillsRemoved << " fill nests, " << totals.bytesRemoved
        << " bytes of intermediate buffers; " << totals.readsRewritten
        << " reads rewritten, " << gathersMadeAffine << " gathers made affine";

  if (records.empty())
    return;
  SmallVector<Attribute> all;
  if (auto existing = function->getAttrOfType<ArrayAttr>(
          DLCDialect::EliminatedCopiesAttrHelper::getNameStr()))
    llvm::append_range(all, existing.getValue());
  // In program order, whatever order the copies went in.
  llvm::sort(records, llvm::less_first());
  for (auto &record : records)
    all.push_back(record.second);
  function->setAttr(DLCDialect::EliminatedCopiesAttrHelper::getNameStr(),
                    ArrayAttr::get(&getContext(), all));
}
