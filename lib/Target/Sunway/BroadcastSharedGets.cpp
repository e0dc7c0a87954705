//===- BroadcastSharedGets.cpp - one read of what every CPE loads ---------===//
//
// See the pass description in include/dlc/Target/Sunway/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Target/Sunway/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IntegerSet.h"

namespace dlc::sunway {
#define GEN_PASS_DEF_BROADCASTSHAREDGETS
#include "dlc/Target/Sunway/Passes.h.inc"
} // namespace dlc::sunway

using namespace mlir;
using namespace dlc;
using namespace dlc::sunway;

namespace {

/// The values of a kernel that differ between CPEs: the id, row and
/// column, the distributed loop's IV, and what is computed from them
/// (including the IVs of loops whose bounds are).
llvm::DenseSet<Value> getVaryingValues(LaunchOp launch,
                                       affine::AffineForOp distributed) {
  llvm::DenseSet<Value> varying = {launch.getCpeId(), launch.getRow(),
                                   launch.getCol()};
  if (distributed)
    varying.insert(distributed.getInductionVar());
  bool changed = true;
  while (changed) {
    changed = false;
    launch.walk([&](Operation *op) {
      bool depends = llvm::any_of(op->getOperands(),
                                  [&](Value v) { return varying.contains(v); });
      if (!depends)
        return;
      for (Value result : op->getResults())
        changed |= varying.insert(result).second;
      if (auto loop = dyn_cast<affine::AffineForOp>(op))
        changed |= varying.insert(loop.getInductionVar()).second;
      if (auto loop = dyn_cast<scf::ForOp>(op))
        changed |= varying.insert(loop.getInductionVar()).second;
    });
  }
  return varying;
}

/// The counted issue AssignLDM writes before a get: the load, increment
/// and store of the tag's issued count. Returns the first of them.
Operation *matchCountedIssue(DMAGetOp get) {
  auto store = dyn_cast_or_null<memref::StoreOp>(get->getPrevNode());
  if (!store)
    return nullptr;
  auto add = store.getValue().getDefiningOp<arith::AddIOp>();
  auto issued = add ? add.getLhs().getDefiningOp<memref::LoadOp>() : nullptr;
  if (!add || !issued || store->getPrevNode() != add ||
      add->getPrevNode() != issued)
    return nullptr;
  return issued;
}

/// `memref` as one dimension (its layout is the identity).
Value flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.front().push_back(d);
  return memref::CollapseShapeOp::create(b, loc, memref, all);
}

/// Σ indices[d] * stride[d] for an identity-layout memref.
Value linearize(OpBuilder &b, Location loc, MemRefType type,
                ValueRange indices) {
  MLIRContext *context = b.getContext();
  AffineExpr linear = getAffineConstantExpr(0, context);
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    linear = linear + getAffineDimExpr(d, context) * stride;
    stride *= type.getDimSize(d);
  }
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(type.getRank(), 0, linear), indices);
}

/// The rows of a clipped transfer as GenerateTransfers writes them: loops
/// holding nothing but, per row, a guard that its clipped length is
/// positive around the counted issue and the get (one wait for all rows
/// follows the loops, or, for a prefetch, comes at the next step).
struct RowGroup {
  DMAGetOp get;
  Operation *issue;
  affine::AffineForOp root;
};

std::optional<RowGroup> matchRowGroup(DMAGetOp get,
                                      affine::AffineForOp distributed) {
  auto guard = dyn_cast<scf::IfOp>(get->getParentOp());
  Operation *issue = matchCountedIssue(get);
  if (!guard || !issue || guard.getNumResults() ||
      !guard.getElseRegion().empty() || &guard.thenBlock()->front() != issue ||
      guard.thenBlock()->getOperations().size() != 5)
    return std::nullopt;
  // The outermost loop around whose body is only this transfer's rows.
  auto onlyRows = [&](affine::AffineForOp loop) {
    WalkResult walk = loop.getBody()->walk([&](Operation *op) {
      if (auto other = dyn_cast<DMAGetOp>(op); other && other != get)
        return WalkResult::interrupt();
      return isa<affine::AffineForOp, affine::AffineApplyOp,
                 affine::AffineMinOp, affine::AffineMaxOp,
                 affine::AffineYieldOp, arith::CmpIOp, arith::AddIOp, scf::IfOp,
                 scf::YieldOp, memref::LoadOp, memref::StoreOp, DMAGetOp>(op)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    });
    return !walk.wasInterrupted();
  };
  // At most the transfer's own loops (one per dimension of the source:
  // the clipped ranges of the leading dimensions and the row start), each
  // moving the destination: a loop around them would refill the same LDM
  // rows, which issuers on different CPEs could complete in any order.
  int64_t depth = cast<MemRefType>(get.getSrc().getType()).getRank();
  affine::AffineForOp root;
  for (auto loop = guard->getParentOfType<affine::AffineForOp>();
       loop && loop != distributed && depth > 0 && onlyRows(loop);
       loop = loop->getParentOfType<affine::AffineForOp>(), --depth)
    root = loop;
  if (!root)
    return std::nullopt;
  return RowGroup{get, issue, root};
}

struct BroadcastSharedGetsPass
    : dlc::sunway::impl::BroadcastSharedGetsBase<BroadcastSharedGetsPass> {
  void runOnOperation() override {
    // A module without a machine description is for the SW26010 defaults.
    HardwareAttr hardware = HardwareAttr::lookup(getOperation());
    if (hardware && !hardware.getBroadcastReads())
      return;
    SunwayHardware hw = SunwayHardware::get(hardware);
    getOperation().walk([&](LaunchOp launch) { rewrite(launch, hw); });
  }

  void rewrite(LaunchOp launch, const SunwayHardware &hw) {
    affine::AffineForOp distributed;
    int64_t found = 0;
    launch.walk([&](affine::AffineForOp loop) {
      if (loop->hasAttr(DLCDialect::DistributedAttrHelper::getNameStr())) {
        distributed = loop;
        ++found;
      }
    });
    if (found > 1)
      return;
    // Every CPE runs as many iterations of the distributed loop, so every
    // CPE reaches each barrier as often (without one, the kernel runs on
    // one CPE).
    if (!distributed)
      return;
    auto info = distributed->getAttrOfType<DictionaryAttr>(
        DLCDialect::DistributedAttrHelper::getNameStr());
    auto trips = info ? info.getAs<IntegerAttr>("trips") : IntegerAttr();
    if (!trips || trips.getInt() % hw.cpes != 0)
      return;
    llvm::DenseSet<Value> varying = getVaryingValues(launch, distributed);
    auto isVarying = [&](ValueRange values) {
      return llvm::any_of(values, [&](Value v) { return varying.contains(v); });
    };
    // Every CPE executes `op` as often (no loop or guard around it varies).
    auto isUniform = [&](Operation *op) {
      for (Operation *parent = op->getParentOp(); parent != launch;
           parent = parent->getParentOp()) {
        if (parent == distributed.getOperation())
          continue;
        if (!isa<affine::AffineForOp, affine::AffineIfOp, scf::IfOp,
                 scf::ForOp>(parent) ||
            isVarying(parent->getOperands()))
          return false;
      }
      return true;
    };
    DenseMap<Value, SmallVector<WaitReplyOp>> waits;
    launch.walk(
        [&](WaitReplyOp wait) { waits[wait.getReply()].push_back(wait); });

    SmallVector<std::pair<DMAGetOp, Operation *>> candidates;
    SmallVector<RowGroup> rowGroups;
    launch.walk([&](DMAGetOp get) {
      if (get.getMode() != DMAMode::pe || get.getElementBytes() != 4 ||
          isVarying(get->getOperands()))
        return;
      if (get.getBlockElements() &&
          (!getConstantIntValue(get.getBlockElements()) ||
           !getConstantIntValue(get.getStrideElements())))
        return;
      auto src = cast<MemRefType>(get.getSrc().getType());
      auto dst = cast<MemRefType>(get.getDst().getType());
      if (!src.getLayout().isIdentity() || !src.hasStaticShape() ||
          !get.getDst().getDefiningOp<LDMAllocOp>() ||
          !dst.getLayout().isIdentity())
        return;
      // Every CPE issues it at the same place, and reaches every wait on
      // its reply word (where a barrier goes).
      if (!isUniform(get) || !llvm::all_of(waits[get.getReply()], isUniform))
        return;
      if (!getConstantIntValue(get.getElements())) {
        if (std::optional<RowGroup> rows = matchRowGroup(get, distributed))
          rowGroups.push_back(*rows);
        return;
      }
      if (Operation *issue = matchCountedIssue(get))
        candidates.push_back({get, issue});
    });
    llvm::SmallPtrSet<Value, 4> replies;
    for (auto [get, issue] : candidates) {
      replies.insert(get.getReply());
      split(get, issue, launch, hw);
    }
    for (RowGroup &rows : rowGroups) {
      replies.insert(rows.get.getReply());
      distributeRows(rows, launch, hw);
    }
    // After a wait on a broadcast's reply word, each CPE has its own
    // pieces; the barrier makes it everyone's (and, with double
    // buffering, tells the next prefetch that the slot it refills has
    // been read by all).
    launch.walk([&](WaitReplyOp wait) {
      if (replies.contains(wait.getReply())) {
        OpBuilder b(wait->getContext());
        b.setInsertionPointAfter(wait);
        BarrierOp::create(b, wait.getLoc(), Scope::array);
      }
    });
  }

  /// The rows of a clipped transfer go round-robin to the CPEs (row r of
  /// the source to CPE r mod 64), each a broadcast, after a barrier (every
  /// CPE is done with the buffer's previous contents); each CPE's wait
  /// covers its own rows, and the barrier after every wait on a
  /// broadcast's reply word makes them everyone's.
  void distributeRows(RowGroup &rows, LaunchOp launch,
                      const SunwayHardware &hw) {
    DMAGetOp get = rows.get;
    Location loc = get.getLoc();
    MLIRContext *context = get.getContext();
    OpBuilder b(rows.root);
    BarrierOp::create(b, loc, Scope::array);

    OpBuilder inner(rows.issue);
    auto srcType = cast<MemRefType>(get.getSrc().getType());
    Value linear = linearize(inner, loc, srcType, get.getSrcIndices());
    int64_t width = srcType.getShape().back();
    AffineExpr row = getAffineDimExpr(0, context).floorDiv(width);
    auto owner = affine::AffineIfOp::create(
        inner, loc,
        IntegerSet::get(
            1, 1, {(row - getAffineSymbolExpr(0, context)) % hw.cpes}, {true}),
        ValueRange{linear, launch.getCpeId()}, /*withElseRegion=*/false);
    for (Operation *op = rows.issue; op != get.getOperation();) {
      Operation *next = op->getNextNode();
      op->moveBefore(owner.getThenBlock()->getTerminator());
      op = next;
    }
    OpBuilder then(owner.getThenBlock()->getTerminator());
    DMAGetOp::create(then, loc, DMAMode::bcast, get.getSrc(),
                     get.getSrcIndices(), get.getDst(), get.getDstIndices(),
                     get.getElements(), get.getBlockElements(),
                     get.getStrideElements(), get.getReply(),
                     get.getReplyIndex());
    get.erase();
  }

  /// CPE k issues the k-th 64th of the get (by blocks when it has them)
  /// as a broadcast, after a barrier: every CPE is done with the buffer's
  /// previous contents.
  void split(DMAGetOp get, Operation *issue, LaunchOp launch,
             const SunwayHardware &hw) {
    Location loc = get.getLoc();
    MLIRContext *context = get.getContext();
    OpBuilder b(issue);
    BarrierOp::create(b, loc, Scope::array);

    int64_t elements = *getConstantIntValue(get.getElements());
    int64_t unitElements = 1, unitStride = 1, units = elements;
    // By whole blocks when there are several (a piece must be whole
    // blocks); one block is contiguous, split like any contiguous run.
    Value block = get.getBlockElements(), stride = get.getStrideElements();
    if (block && *getConstantIntValue(block) != elements) {
      unitElements = *getConstantIntValue(block);
      unitStride = *getConstantIntValue(stride);
      units = elements / unitElements;
    } else {
      block = stride = Value();
    }
    int64_t cpes = hw.cpes;
    AffineExpr id = getAffineSymbolExpr(0, context);
    AffineExpr start = (id * units).floorDiv(cpes);
    AffineExpr end = ((id + 1) * units).floorDiv(cpes);
    Value cpe = launch.getCpeId();
    auto has = affine::AffineIfOp::create(
        b, loc, IntegerSet::get(0, 1, {end - start - 1}, {false}),
        ValueRange{cpe}, /*withElseRegion=*/false);
    OpBuilder then = OpBuilder::atBlockBegin(has.getThenBlock());
    // The issue's count moves in with the get: only issuers wait.
    for (Operation *op = issue; op != get.getOperation();) {
      Operation *next = op->getNextNode();
      op->moveBefore(has.getThenBlock()->getTerminator());
      op = next;
    }
    then.setInsertionPoint(has.getThenBlock()->getTerminator());
    auto srcType = cast<MemRefType>(get.getSrc().getType());
    auto dstType = cast<MemRefType>(get.getDst().getType());
    Value src = flatten(then, loc, get.getSrc());
    Value dst = flatten(then, loc, get.getDst());
    Value srcBase = linearize(then, loc, srcType, get.getSrcIndices());
    Value dstBase = linearize(then, loc, dstType, get.getDstIndices());
    AffineExpr base = getAffineDimExpr(0, context);
    auto apply = [&](AffineExpr expr, ValueRange dims) -> Value {
      return affine::AffineApplyOp::create(
          then, loc, AffineMap::get(dims.size(), 1, expr), [&] {
            SmallVector<Value> operands(dims);
            operands.push_back(cpe);
            return operands;
          }());
    };
    Value srcStart = apply(base + start * unitStride, {srcBase});
    Value dstStart = apply(base + start * unitElements, {dstBase});
    Value count = apply((end - start) * unitElements, {});
    DMAGetOp::create(then, loc, DMAMode::bcast, src, ValueRange{srcStart}, dst,
                     ValueRange{dstStart}, count, block, stride, get.getReply(),
                     get.getReplyIndex());
    get.erase();
  }
};

} // namespace
