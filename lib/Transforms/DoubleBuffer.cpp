//===- DoubleBuffer.cpp - overlap the next tile's transfer with compute ---===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "LocalMemory.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace dlc {
#define GEN_PASS_DEF_DOUBLEBUFFER
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace mlir::affine;
using namespace dlc;

namespace {

constexpr StringLiteral kTransfersAttr =
    DLCDialect::TransfersAttrHelper::getNameStr();

/// `map` with one more dimension, the placement loop's IV, and the buffer
/// half `(iv floordiv step) mod 2` as a new first result: consecutive
/// iterations alternate whatever the lower bound (which a target may have
/// made depend on the processing unit running the loop).
AffineMap addHalfIndex(AffineMap map, AffineForOp loop) {
  MLIRContext *context = map.getContext();
  unsigned numDims = map.getNumDims();
  AffineExpr iv = getAffineDimExpr(numDims, context);
  AffineExpr half = iv.floorDiv(loop.getStepAsInt()) % 2;
  SmallVector<AffineExpr> results{half};
  for (AffineExpr result : map.getResults())
    results.push_back(result.shiftSymbols(map.getNumSymbols(), 1, numDims));
  return AffineMap::get(numDims + 1, map.getNumSymbols(), results, context);
}

/// Operands for a map built by addHalfIndex: the dims, the IV, the symbols.
SmallVector<Value> addHalfOperand(AffineMap map, ValueRange operands,
                                  Value iv) {
  SmallVector<Value> result(operands.take_front(map.getNumDims()));
  result.push_back(iv);
  llvm::append_range(result, operands.drop_front(map.getNumDims()));
  return result;
}

/// Double-buffers the local buffer `alloc` when it qualifies; returns
/// whether it did.
bool doubleBuffer(memref::AllocOp alloc) {
  auto records = alloc->getAttrOfType<ArrayAttr>(kTransfersAttr);
  if (!records || records.size() != 1)
    return false;
  auto record = dyn_cast<DictionaryAttr>(records[0]);
  auto direction = record ? record.getAs<StringAttr>("direction") : nullptr;
  if (!direction || direction.getValue() != "in")
    return false;
  Value local = alloc.getResult();
  SmallVector<AffineDmaStartOp> transfers = getBufferTransfers(local);
  if (transfers.size() != 1)
    return false;
  AffineDmaStartOp dma = transfers.front();
  auto placement = dma->getParentOfType<AffineForOp>();
  while (placement &&
         !placement->hasAttr(DLCDialect::TileLoopAttrHelper::getNameStr()))
    placement = placement->getParentOfType<AffineForOp>();
  if (!placement || !placement.hasConstantUpperBound() ||
      placement.getLowerBoundMap().getNumResults() != 1)
    return false;
  // A loop distributed over processing units (`dlc.distributed`, set by a
  // target) has a lower bound per unit and runs `trips` iterations in all.
  std::optional<int64_t> trip;
  int64_t units = 1;
  if (auto distributed = placement->getAttrOfType<DictionaryAttr>(
          DLCDialect::DistributedAttrHelper::getNameStr())) {
    auto trips = distributed.getAs<IntegerAttr>("trips");
    auto unitCount = distributed.getAs<IntegerAttr>("units");
    if (!trips || !unitCount)
      return false;
    trip = trips.getInt();
    units = std::min(unitCount.getInt(), *trip);
  } else if (placement.hasConstantLowerBound()) {
    trip = getConstantTripCount(placement);
  }
  if (!trip || *trip < 2)
    return false;
  // The transfer: the DMA, or the loop nest of its pieces (blocks, clipped
  // rows) in the placement's body, then one wait for all of it.
  Operation *group = placement.getBody()->findAncestorOpInBlock(*dma);
  Operation *afterGroup = group->getNextNode();
  while (afterGroup && afterGroup->hasTrait<OpTrait::ConstantLike>())
    afterGroup = afterGroup->getNextNode();
  auto wait = dyn_cast_or_null<AffineDmaWaitOp>(afterGroup);
  if (!wait || wait.getTagMemRef() != dma.getTagMemRef())
    return false;
  bool waitsInside = false;
  group->walk([&](AffineDmaWaitOp) { waitsInside = true; });
  if (waitsInside)
    return false;
  for (Operation *user : local.getUsers())
    if (!isa<AffineLoadOp, AffineDmaStartOp, memref::DeallocOp>(user) ||
        (!isa<memref::DeallocOp>(user) && !placement->isAncestor(user)))
      return false;

  // Two halves, and a tag per half so that the two transfers in flight are
  // waited for separately.
  OpBuilder b(alloc);
  auto type = cast<MemRefType>(local.getType());
  SmallVector<int64_t> shape{2};
  llvm::append_range(shape, type.getShape());
  auto doubled = memref::AllocOp::create(
      b, alloc.getLoc(),
      MemRefType::get(shape, type.getElementType(), AffineMap(),
                      type.getMemorySpace()));
  doubled->setAttrs(alloc->getAttrs());
  Value tags = memref::AllocOp::create(b, alloc.getLoc(),
                                       MemRefType::get({2}, b.getI32Type()));
  Value iv = placement.getInductionVar();
  AffineMap tagMap =
      addHalfIndex(AffineMap::get(0, 0, {}, b.getContext()), placement);
  for (OpOperand &use : llvm::make_early_inc_range(local.getUses())) {
    Operation *user = use.getOwner();
    OpBuilder at(user);
    if (auto load = dyn_cast<AffineLoadOp>(user)) {
      AffineMap map = addHalfIndex(load.getAffineMap(), placement);
      Value value = AffineLoadOp::create(
          at, load.getLoc(), doubled, map,
          addHalfOperand(load.getAffineMap(), load.getMapOperands(), iv));
      load.replaceAllUsesWith(value);
      load.erase();
    } else if (auto start = dyn_cast<AffineDmaStartOp>(user)) {
      AffineMap localMap = addHalfIndex(start.getDstMap(), placement);
      auto newStart = AffineDmaStartOp::create(
          at, start.getLoc(), start.getSrcMemRef(), start.getSrcMap(),
          start.getSrcIndices(), doubled, localMap,
          addHalfOperand(start.getDstMap(), start.getDstIndices(), iv), tags,
          tagMap, ValueRange{iv}, start.getNumElements(), start.getStride(),
          start.getNumElementsPerStride());
      OpBuilder atWait(wait);
      auto newWait =
          AffineDmaWaitOp::create(atWait, wait.getLoc(), tags, tagMap,
                                  ValueRange{iv}, wait.getNumElements());
      if (group == start.getOperation())
        group = newStart;
      wait.erase();
      wait = newWait;
      start.erase();
    } else {
      OpBuilder after(user);
      after.setInsertionPointAfter(user);
      memref::DeallocOp::create(after, user->getLoc(), tags);
      use.set(doubled);
    }
  }
  alloc.erase();

  // The transfer's constants (sizes, strides) may be defined in the loop
  // body: the prologue needs them before the loop.
  SmallVector<Operation *> groupOps{group, wait};
  for (Operation *op : groupOps)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->hasTrait<OpTrait::ConstantLike>() &&
            placement->isProperAncestor(def) &&
            !llvm::any_of(groupOps,
                          [&](Operation *g) { return g->isAncestor(def); }))
          def->moveBefore(placement);
      }
    });

  // Prologue: the first tile's transfer, before the loop.
  OpBuilder before(placement);
  IRMapping first;
  Value firstIv =
      placement.hasConstantLowerBound()
          ? Value(arith::ConstantIndexOp::create(
                before, placement.getLoc(), placement.getConstantLowerBound()))
          : Value(AffineApplyOp::create(before, placement.getLoc(),
                                        placement.getLowerBoundMap(),
                                        placement.getLowerBoundOperands()));
  first.map(iv, firstIv);
  // A loop whose lower bound varies (one processing unit's share of a
  // distributed loop) may have no iteration at all on some unit: its first
  // transfer only starts when there is a first tile.
  if (!placement.hasConstantLowerBound()) {
    AffineMap lower = placement.getLowerBoundMap();
    AffineExpr hasFirst =
        placement.getConstantUpperBound() - 1 - lower.getResult(0);
    auto guard = AffineIfOp::create(
        before, placement.getLoc(),
        IntegerSet::get(lower.getNumDims(), lower.getNumSymbols(), {hasFirst},
                        {false}),
        placement.getLowerBoundOperands(), /*withElseRegion=*/false);
    before = guard.getThenBodyBuilder();
  }
  before.clone(*group, first);

  // In the loop: wait for this tile, start the next one's transfer.
  OpBuilder inLoop(wait->getContext());
  inLoop.setInsertionPointAfter(wait);
  AffineExpr d0 = inLoop.getAffineDimExpr(0);
  int64_t step = placement.getStepAsInt();
  auto hasNext = AffineIfOp::create(
      inLoop, placement.getLoc(),
      IntegerSet::get(1, 0, {placement.getConstantUpperBound() - 1 - step - d0},
                      {false}),
      ValueRange{iv}, /*withElseRegion=*/false);
  OpBuilder thenBuilder = hasNext.getThenBodyBuilder();
  IRMapping next;
  next.map(iv, AffineApplyOp::create(thenBuilder, placement.getLoc(),
                                     AffineMap::get(1, 0, d0 + step), iv));
  thenBuilder.clone(*group, next);
  group->erase();

  // The records: the prologue runs once per run of the loop, the prefetch
  // the other times (for clipped rows, whose tiles differ, the split is
  // proportional; the totals stay exact).
  auto getInt = [&](StringRef name) {
    auto value = record.getAs<IntegerAttr>(name);
    return value ? value.getInt() : 0;
  };
  int64_t count = getInt("count"), elements = getInt("elements");
  Builder attrs(doubled.getContext());
  auto withCounts = [&](int64_t newCount, int64_t newElements) {
    NamedAttrList entries(record);
    entries.set("count", attrs.getI64IntegerAttr(newCount));
    entries.set("elements", attrs.getI64IntegerAttr(newElements));
    entries.set("double_buffered", attrs.getBoolAttr(true));
    return entries.getDictionary(doubled.getContext());
  };
  int64_t firstCount = count / *trip * units;
  int64_t firstElements = elements / *trip * units;
  doubled->setAttr(kTransfersAttr,
                   attrs.getArrayAttr({withCounts(firstCount, firstElements),
                                       withCounts(count - firstCount,
                                                  elements - firstElements)}));
  return true;
}

struct DoubleBufferPass : public dlc::impl::DoubleBufferBase<DoubleBufferPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(func);
    if (!hardware || !hardware.hasLocalMemory() ||
        !hardware.getDoubleBuffering())
      return;
    // Local buffers are allocated in the function body, or in the body of
    // an affine scope nested in it (a target's kernel region).
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) {
      Operation *parent = alloc->getParentOp();
      if ((parent == func.getOperation() ||
           parent->hasTrait<OpTrait::AffineScope>()) &&
          isLocalMemRef(alloc.getType(), hardware.getLocalMemorySpace()))
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs)
      doubleBuffer(alloc);
  }
};

} // namespace
