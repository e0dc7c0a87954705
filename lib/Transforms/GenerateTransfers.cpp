//===- GenerateTransfers.cpp - stage nest data in local memory ------------===//
//
// Every buffer a top-level nest reads or writes gets a local buffer holding
// the box one iteration of its placement loop touches, with affine DMA
// transfers in at the start of that loop's body and out at its end. The
// placement is the innermost tile loop (`dlc.tile_loop`) the box depends on:
// the outermost place where the data is reused.
//
//===----------------------------------------------------------------------===//

#include "dlc/Analysis/LinearAccess.h"
#include "dlc/Analysis/TilingModel.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "LocalMemory.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace dlc {
#define GEN_PASS_DEF_GENERATETRANSFERS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace mlir::affine;
using namespace dlc;

namespace {

constexpr StringLiteral kTileLoopAttr =
    DLCDialect::TileLoopAttrHelper::getNameStr();

/// One dimension of a box: `origin(fixed loop IVs)`, a constant extent and
/// the distance between its elements in the buffer (`step`, 1 unless the
/// accesses skip elements, as a stride-2 convolution does); `whole` when it
/// spans the buffer's dimension.
struct BoxDim {
  bool whole = true;
  LinearIndex origin; // over the fixed loops
  int64_t extent = 0;
  int64_t step = 1;
};

/// A linear form over fixed loops plus an offset range, after the varying
/// loops were replaced by their ranges.
struct Range {
  bool known = true;
  LinearIndex fixedPart;
  int64_t low = 0, high = 0;
  /// Every value in [low, high] taken is low plus a multiple of `step` (0:
  /// only low is taken).
  int64_t step = 0;
};

class NestStager {
public:
  NestStager(AffineForOp root, HardwareAttr hardware)
      : root(root), hardware(hardware) {}

  LogicalResult run();

private:
  /// Tile loops the value of `loop`'s IV depends on (itself when it is one).
  void collectTileLoops(Operation *loop,
                        llvm::SmallPtrSetImpl<Operation *> &out,
                        unsigned depth = 0);
  /// Replaces every loop not in `fixed` by its range.
  Range substitute(const LinearIndex &index,
                   const llvm::SmallPtrSetImpl<Operation *> &fixed,
                   unsigned depth = 0);
  LogicalResult stage(StagedBuffer &buffer, Value tag);

  AffineForOp root;
  HardwareAttr hardware;
  int64_t localBytes = 0;
  /// What each transfer op moves, for `dlc.transfers`.
  llvm::DenseMap<Operation *, Attribute> transfers;
};

void NestStager::collectTileLoops(Operation *loop,
                                  llvm::SmallPtrSetImpl<Operation *> &out,
                                  unsigned depth) {
  if (loop->hasAttr(kTileLoopAttr)) {
    out.insert(loop);
    return;
  }
  // A point loop's bounds are functions of its tile loop.
  if (depth > 16)
    return;
  auto forOp = cast<AffineForOp>(loop);
  for (Value operand : forOp.getOperands())
    if (AffineForOp owner = getForInductionVarOwner(operand))
      collectTileLoops(owner, out, depth + 1);
}

Range NestStager::substitute(const LinearIndex &index,
                             const llvm::SmallPtrSetImpl<Operation *> &fixed,
                             unsigned depth) {
  Range range;
  if (!index.known || depth > 16) {
    range.known = false;
    return range;
  }
  range.fixedPart.known = true;
  range.fixedPart.constant = index.constant;
  for (auto [loop, coefficient] : index.coefficients) {
    if (fixed.contains(loop)) {
      range.fixedPart.coefficients[loop] += coefficient;
      continue;
    }
    // iv = lb + delta, delta in [0, extent - 1].
    auto forOp = cast<AffineForOp>(loop);
    AffineMap lbMap = forOp.getLowerBoundMap();
    AffineMap ubMap = forOp.getUpperBoundMap();
    if (lbMap.getNumResults() != 1 || ubMap.getNumResults() != 1 ||
        forOp.getStepAsInt() != 1) {
      range.known = false;
      return range;
    }
    LinearIndex lb = getLinearForm(lbMap, 0, forOp.getLowerBoundOperands());
    LinearIndex ub = getLinearForm(ubMap, 0, forOp.getUpperBoundOperands());
    if (!lb.known || !ub.known || !lb.hasSameLinearPart(ub) ||
        ub.constant <= lb.constant) {
      range.known = false;
      return range;
    }
    int64_t span = coefficient * (ub.constant - lb.constant - 1);
    Range inner = substitute(lb, fixed, depth + 1);
    if (!inner.known) {
      range.known = false;
      return range;
    }
    range.fixedPart.constant += coefficient * inner.fixedPart.constant;
    for (auto [outer, c] : inner.fixedPart.coefficients)
      range.fixedPart.coefficients[outer] += coefficient * c;
    int64_t lowA = coefficient * inner.low, lowB = coefficient * inner.high;
    range.low += std::min(lowA, lowB) + std::min<int64_t>(0, span);
    range.high += std::max(lowA, lowB) + std::max<int64_t>(0, span);
    if (span != 0)
      range.step = std::gcd(range.step, std::abs(coefficient));
    range.step = std::gcd(range.step, std::abs(coefficient) * inner.step);
  }
  // Drop zero coefficients so that equal forms compare equal.
  LinearIndex cleaned;
  cleaned.known = true;
  cleaned.constant = range.fixedPart.constant;
  for (auto [loop, c] : range.fixedPart.coefficients)
    if (c != 0)
      cleaned.coefficients[loop] = c;
  range.fixedPart = std::move(cleaned);
  return range;
}

/// `form` as an affine expression over `dims` (the fixed loops, in order).
AffineExpr toExpr(const LinearIndex &form, ArrayRef<Operation *> dims,
                  unsigned dimOffset, MLIRContext *context) {
  AffineExpr expr = getAffineConstantExpr(form.constant, context);
  for (auto [loop, coefficient] : form.coefficients) {
    unsigned position = llvm::find(dims, loop) - dims.begin();
    expr = expr + getAffineDimExpr(dimOffset + position, context) * coefficient;
  }
  return expr;
}

/// Minimum and maximum of `form` over the iterations of its loops (which
/// have constant bounds), or nullopt.
std::optional<std::pair<int64_t, int64_t>>
getFormBounds(const LinearIndex &form) {
  int64_t low = form.constant, high = form.constant;
  for (auto [loop, coefficient] : form.coefficients) {
    auto forOp = cast<AffineForOp>(loop);
    std::optional<uint64_t> trip = getConstantTripCount(forOp);
    if (!forOp.hasConstantLowerBound() || !trip || *trip == 0)
      return std::nullopt;
    int64_t first = forOp.getConstantLowerBound();
    int64_t last = first + (int64_t(*trip) - 1) * forOp.getStepAsInt();
    low += std::min(coefficient * first, coefficient * last);
    high += std::max(coefficient * first, coefficient * last);
  }
  return std::make_pair(low, high);
}

LogicalResult NestStager::stage(StagedBuffer &buffer, Value tag) {
  MLIRContext *context = root.getContext();
  MemRefType type = buffer.type;
  unsigned rank = type.getRank();

  // Placement: the innermost tile loop any access's indices depend on.
  llvm::SmallPtrSet<Operation *, 8> tileLoops;
  for (auto &indices : buffer.indices)
    for (const LinearIndex &index : indices)
      for (auto [loop, coefficient] : index.coefficients)
        collectTileLoops(loop, tileLoops);
  Operation *placement = nullptr;
  for (Operation *loop : tileLoops)
    if (!placement || placement->isProperAncestor(loop))
      placement = loop;
  // The fixed loops: the placement and the loops around it, outermost first.
  SmallVector<Operation *> fixedLoops;
  for (Operation *loop = placement; loop && loop != root->getParentOp();
       loop = loop->getParentOp())
    if (isa<AffineForOp>(loop))
      fixedLoops.insert(fixedLoops.begin(), loop);
  llvm::SmallPtrSet<Operation *, 8> fixed(fixedLoops.begin(), fixedLoops.end());

  // The box: per dimension, the union of the accesses' ranges when they
  // share a linear part, else the whole dimension.
  SmallVector<BoxDim> box(rank);
  for (unsigned d = 0; d < rank; ++d) {
    std::optional<Range> united;
    int64_t firstLow = 0;
    bool whole = false;
    for (auto &indices : buffer.indices) {
      Range range = substitute(indices[d], fixed);
      if (!range.known ||
          (united && !united->fixedPart.hasSameLinearPart(range.fixedPart) &&
           !(united->fixedPart.coefficients.empty() &&
             range.fixedPart.coefficients.empty()))) {
        whole = true;
        break;
      }
      int64_t low = range.fixedPart.constant + range.low;
      int64_t high = range.fixedPart.constant + range.high;
      if (!united) {
        united = range;
        united->fixedPart.constant = 0;
        united->low = low;
        united->high = high;
        firstLow = low;
      } else {
        united->low = std::min(united->low, low);
        united->high = std::max(united->high, high);
        united->step = std::gcd(united->step, range.step);
      }
      // Accesses at different offsets keep a step only if the offsets are
      // multiples of it.
      united->step = std::gcd(united->step, std::abs(low - firstLow));
    }
    int64_t size = type.getDimSize(d);
    int64_t step = united ? std::max<int64_t>(united->step, 1) : 1;
    if (whole || !united ||
        (step == 1 && united->high - united->low + 1 >= size)) {
      // The whole dimension, also when the box reaches past its ends
      // (guarded accesses through padding: they touch only the elements
      // inside), unless a tile loop moves the box's origin.
      if (whole || !united || united->fixedPart.coefficients.empty()) {
        box[d].whole = true;
        box[d].origin.known = true;
        box[d].extent = size;
        continue;
      }
    }
    box[d].whole = false;
    box[d].origin = united->fixedPart;
    box[d].origin.constant = united->low;
    box[d].extent = (united->high - united->low) / step + 1;
    box[d].step = box[d].extent > 1 ? step : 1;
  }

  // The model's choice between stepping and moving densely, made the same
  // way here.
  TransferBox shape;
  for (unsigned d = 0; d < rank; ++d) {
    shape.extents.push_back(box[d].extent);
    shape.steps.push_back(box[d].step);
    shape.sizes.push_back(type.getDimSize(d));
  }
  shape.densifyIfCheaper(buffer.getElementBytes(),
                         hardware.getDmaBlockOverheadBytes());
  for (unsigned d = 0; d < rank; ++d) {
    box[d].extent = shape.extents[d];
    box[d].step = shape.steps[d];
  }

  // Whether the box can reach outside the buffer (guarded accesses, such
  // as a convolution reading its input through the padding).
  bool clip = false;
  for (unsigned d = 0; d < rank; ++d) {
    if (box[d].whole)
      continue;
    auto bounds = getFormBounds(box[d].origin);
    if (!bounds || bounds->first < 0 ||
        bounds->second + (box[d].extent - 1) * box[d].step >=
            type.getDimSize(d))
      clip = true;
  }

  SmallVector<int64_t> extents;
  int64_t elements = 1;
  for (const BoxDim &dim : box) {
    extents.push_back(dim.extent);
    elements *= dim.extent;
  }
  int64_t bytes = elements * buffer.getElementBytes();
  localBytes += bytes;

  // The local buffer lives while the nest runs.
  OpBuilder b(root);
  Location loc = root.getLoc();
  auto localType =
      MemRefType::get(extents, type.getElementType(), AffineMap(),
                      b.getI64IntegerAttr(hardware.getLocalMemorySpace()));
  Value local = memref::AllocOp::create(b, loc, localType);
  b.setInsertionPointAfter(root);
  memref::DeallocOp::create(b, loc, local);

  SmallVector<Value> fixedIVs;
  for (Operation *loop : fixedLoops)
    fixedIVs.push_back(cast<AffineForOp>(loop).getInductionVar());
  unsigned numFixed = fixedIVs.size();
  SmallVector<AffineExpr> origins;
  for (unsigned d = 0; d < rank; ++d)
    origins.push_back(box[d].whole
                          ? getAffineConstantExpr(0, context)
                          : toExpr(box[d].origin, fixedLoops, 0, context));

  // Executions of the fixed loops, for the transfer counts.
  int64_t placements = 1;
  for (Operation *loop : fixedLoops)
    placements *= getConstantTripCount(cast<AffineForOp>(loop)).value_or(1);

  // Emits the transfers of one direction at `builder`'s insertion point.
  auto emitTransfer = [&](OpBuilder &builder, bool in) {
    Operation *emitted = nullptr;
    auto emitDma = [&](OpBuilder &at, AffineMap globalMap, AffineMap localMap,
                       ValueRange operands, Value count, Value stride,
                       Value perStride) {
      AffineDmaStartOp dma =
          in ? AffineDmaStartOp::create(at, loc, buffer.memref, globalMap,
                                        operands, local, localMap, operands,
                                        tag, at.getConstantAffineMap(0),
                                        ValueRange{}, count, stride, perStride)
             : AffineDmaStartOp::create(at, loc, local, localMap, operands,
                                        buffer.memref, globalMap, operands, tag,
                                        at.getConstantAffineMap(0),
                                        ValueRange{}, count, stride, perStride);
      emitted = dma;
    };
    int64_t rows = 1, totalElements = 0, executions = 0, block = 0;
    if (!clip) {
      // The block is contiguous in both buffers: the trailing whole
      // dimensions and, unless it skips elements, the next one. One more
      // dimension is the stride between blocks; the rest are loops.
      int j = shape.getBlockDim();
      int blockStart = j >= 0 && box[j].step > 1 ? j + 1 : std::max(j, 0);
      block = shape.getBlockElements();
      int strided = blockStart - 1;
      int64_t count = block, stride = 0;
      if (strided >= 0) {
        count = extents[strided] * block;
        stride = box[strided].step;
        for (int d = strided + 1; d < int(rank); ++d)
          stride *= type.getDimSize(d);
        if (stride == block)
          stride = 0;
      }
      // Loops over the dimensions before the strided one.
      int loopDims = std::max(strided, 0);
      OpBuilder at = builder;
      SmallVector<Value> loopIVs;
      for (int d = 0; d < loopDims; ++d) {
        auto loop = AffineForOp::create(at, loc, 0, extents[d]);
        at.setInsertionPointToStart(loop.getBody());
        loopIVs.push_back(loop.getInductionVar());
        rows *= extents[d];
      }
      SmallVector<Value> operands(fixedIVs);
      operands.append(loopIVs);
      SmallVector<AffineExpr> globalExprs, localExprs;
      for (unsigned d = 0; d < rank; ++d) {
        AffineExpr g = origins[d];
        AffineExpr l = getAffineConstantExpr(0, context);
        if (int(d) < loopDims) {
          g = g + getAffineDimExpr(numFixed + d, context) * box[d].step;
          l = getAffineDimExpr(numFixed + d, context);
        }
        globalExprs.push_back(g);
        localExprs.push_back(l);
      }
      unsigned numDims = numFixed + loopIVs.size();
      Value countValue = arith::ConstantIndexOp::create(at, loc, count);
      Value strideValue, perStrideValue;
      if (stride) {
        strideValue = arith::ConstantIndexOp::create(at, loc, stride);
        perStrideValue = arith::ConstantIndexOp::create(at, loc, block);
      }
      emitDma(at, AffineMap::get(numDims, 0, globalExprs, context),
              AffineMap::get(numDims, 0, localExprs, context), operands,
              countValue, strideValue, perStrideValue);
      executions = placements * rows;
      totalElements = executions * count;
      block = stride ? block : count;
    } else {
      // Row by row, each row and the rows' range clipped to the buffer.
      OpBuilder at = builder;
      SmallVector<Value> loopIVs;
      SmallVector<Value> operands(fixedIVs);
      // Per dimension, the box's indices origin + step * k that lie in the
      // buffer: from the first at or after 0 up to the end or the buffer's.
      auto clippedBounds = [&](unsigned d) {
        AffineExpr origin = origins[d];
        int64_t step = box[d].step;
        AffineMap lb = AffineMap::get(
            numFixed, 0, {origin, origin + (-origin).ceilDiv(step) * step},
            context);
        AffineMap ub =
            AffineMap::get(numFixed, 0,
                           {origin + (box[d].extent - 1) * step + 1,
                            getAffineConstantExpr(type.getDimSize(d), context)},
                           context);
        return std::make_pair(lb, ub);
      };
      for (unsigned d = 0; d + 1 < rank; ++d) {
        auto [lb, ub] = clippedBounds(d);
        auto loop = AffineForOp::create(at, loc, fixedIVs, lb, fixedIVs, ub,
                                        box[d].step);
        at.setInsertionPointToStart(loop.getBody());
        loopIVs.push_back(loop.getInductionVar());
      }
      operands.append(loopIVs);
      unsigned numDims = numFixed + loopIVs.size();
      // The row starts at its first index in the buffer: a loop stepping
      // past the box runs once there and makes the start an affine
      // dimension.
      int64_t rowStep = box[rank - 1].step;
      auto [rowLower, rowUpper] = clippedBounds(rank - 1);
      auto rowStart =
          AffineForOp::create(at, loc, fixedIVs, rowLower, fixedIVs, rowUpper,
                              box[rank - 1].extent * rowStep);
      at.setInsertionPointToStart(rowStart.getBody());
      Value start = rowStart.getInductionVar();
      // Elements from the start to the clipped end, every step-th.
      SmallVector<Value> countOperands(fixedIVs);
      countOperands.push_back(start);
      AffineExpr startExpr = getAffineDimExpr(numFixed, context);
      SmallVector<AffineExpr> counts;
      for (AffineExpr end : rowUpper.getResults())
        counts.push_back((end - startExpr).ceilDiv(rowStep));
      Value count = AffineMinOp::create(
          at, loc, AffineMap::get(numFixed + 1, 0, counts, context),
          countOperands);
      operands.push_back(start);
      SmallVector<AffineExpr> globalExprs, localExprs;
      for (unsigned d = 0; d < rank; ++d) {
        AffineExpr g = getAffineDimExpr(numFixed + d, context);
        globalExprs.push_back(g);
        localExprs.push_back((g - origins[d]).floorDiv(box[d].step));
      }
      Value stride, perStride;
      if (rowStep > 1) {
        stride = arith::ConstantIndexOp::create(at, loc, rowStep);
        perStride = arith::ConstantIndexOp::create(at, loc, 1);
      }
      emitDma(at, AffineMap::get(numDims + 1, 0, globalExprs, context),
              simplifyAffineMap(
                  AffineMap::get(numDims + 1, 0, localExprs, context)),
              operands, count, stride, perStride);
      // Exact counts: enumerate the placements.
      SmallVector<int64_t> iv(numFixed);
      SmallVector<std::pair<int64_t, int64_t>> ranges;
      for (Operation *loop : fixedLoops) {
        auto forOp = cast<AffineForOp>(loop);
        ranges.push_back({forOp.getConstantLowerBound(), forOp.getStepAsInt()});
      }
      std::function<void(unsigned)> enumerate = [&](unsigned k) {
        if (k == numFixed) {
          int64_t volume = 1, rowCount = 1;
          for (unsigned d = 0; d < rank; ++d) {
            int64_t origin = box[d].origin.constant;
            for (auto [loop, c] : box[d].origin.coefficients)
              origin +=
                  c * iv[llvm::find(fixedLoops, loop) - fixedLoops.begin()];
            if (box[d].whole)
              origin = 0;
            int64_t step = box[d].step;
            int64_t lo = std::max<int64_t>(
                origin, origin + llvm::divideCeilSigned(-origin, step) * step);
            int64_t hi = std::min<int64_t>(
                origin + (box[d].extent - 1) * step + 1, type.getDimSize(d));
            int64_t extent =
                hi > lo ? llvm::divideCeilSigned(hi - lo, step) : 0;
            volume *= extent;
            if (d + 1 < rank)
              rowCount *= extent;
          }
          totalElements += volume;
          executions += volume ? rowCount : 0;
          return;
        }
        auto forOp = cast<AffineForOp>(fixedLoops[k]);
        int64_t trip = getConstantTripCount(forOp).value_or(0);
        for (int64_t t = 0; t < trip; ++t) {
          iv[k] = ranges[k].first + t * ranges[k].second;
          enumerate(k + 1);
        }
      };
      enumerate(0);
      block = rowStep > 1 ? 1 : extents[rank - 1];
    }
    // One wait after all the pieces (rows, blocks) of the box: they are in
    // flight together, and a double-buffered box waits for them as one.
    Operation *outermost = builder.getBlock()->findAncestorOpInBlock(*emitted);
    Value waitCount = cast<AffineDmaStartOp>(emitted).getNumElements();
    if (outermost != emitted) {
      int64_t boxElements = 1;
      for (int64_t extent : extents)
        boxElements *= extent;
      OpBuilder before(outermost);
      waitCount = arith::ConstantIndexOp::create(before, loc, boxElements);
    }
    AffineDmaWaitOp::create(builder, loc, tag, builder.getConstantAffineMap(0),
                            ValueRange{}, waitCount);
    Builder attrs(context);
    transfers[emitted] = (attrs.getDictionaryAttr(
        {attrs.getNamedAttr("memref", TypeAttr::get(type)),
         attrs.getNamedAttr("direction",
                            attrs.getStringAttr(in ? "in" : "out")),
         attrs.getNamedAttr("count", attrs.getI64IntegerAttr(executions)),
         attrs.getNamedAttr("elements", attrs.getI64IntegerAttr(totalElements)),
         attrs.getNamedAttr("block", attrs.getI64IntegerAttr(block)),
         attrs.getNamedAttr("element_bytes", attrs.getI64IntegerAttr(
                                                 buffer.getElementBytes()))}));
  };

  bool in = buffer.read || (buffer.written && !buffer.isWriteDense());
  if (in) {
    OpBuilder at(context);
    if (placement)
      at.setInsertionPointToStart(cast<AffineForOp>(placement).getBody());
    else
      at.setInsertionPoint(root);
    emitTransfer(at, /*in=*/true);
  }
  if (buffer.written) {
    OpBuilder at(context);
    if (placement)
      at.setInsertionPoint(
          cast<AffineForOp>(placement).getBody()->getTerminator());
    else
      at.setInsertionPointAfter(root);
    emitTransfer(at, /*in=*/false);
  }

  SmallVector<Attribute> records;
  for (AffineDmaStartOp dma : getBufferTransfers(local))
    records.push_back(transfers.lookup(dma));
  local.getDefiningOp()->setAttr(DLCDialect::TransfersAttrHelper::getNameStr(),
                                 ArrayAttr::get(context, records));

  // Accesses read and write the local buffer, at their index minus the
  // box origin.
  for (Operation *access : buffer.accesses) {
    OpBuilder at(access);
    auto rewrite = [&](AffineMap map, ValueRange mapOperands) {
      unsigned numDims = map.getNumDims();
      SmallVector<AffineExpr> results;
      for (unsigned d = 0; d < rank; ++d) {
        AffineExpr shifted = map.getResult(d).shiftSymbols(map.getNumSymbols(),
                                                           numFixed, numDims);
        AffineExpr origin =
            box[d].whole ? getAffineConstantExpr(0, context)
                         : toExpr(box[d].origin, fixedLoops, numDims, context);
        // Every index the box holds is origin + step * k; k is local.
        results.push_back((shifted - origin).floorDiv(box[d].step));
      }
      AffineMap newMap = AffineMap::get(numDims + numFixed, map.getNumSymbols(),
                                        results, context);
      SmallVector<Value> operands(mapOperands.take_front(numDims));
      operands.append(fixedIVs);
      operands.append(mapOperands.begin() + numDims, mapOperands.end());
      // A fixed loop the access already uses appears twice: merge them so
      // that the origin cancels (and the step divides) in the map.
      canonicalizeMapAndOperands(&newMap, &operands);
      newMap = simplifyAffineMap(newMap);
      return std::make_pair(newMap, operands);
    };
    if (auto load = dyn_cast<AffineLoadOp>(access)) {
      auto [map, operands] =
          rewrite(load.getAffineMap(), load.getMapOperands());
      Value value =
          AffineLoadOp::create(at, load.getLoc(), local, map, operands);
      load.replaceAllUsesWith(value);
      load.erase();
    } else {
      auto store = cast<AffineStoreOp>(access);
      auto [map, operands] =
          rewrite(store.getAffineMap(), store.getMapOperands());
      AffineStoreOp::create(at, store.getLoc(), store.getValueToStore(), local,
                            map, operands);
      store.erase();
    }
  }
  return success();
}

LogicalResult NestStager::run() {
  SmallVector<StagedBuffer, 4> staged;
  SmallVector<UnstagedBuffer> unstaged;
  collectNestBuffers(root, hardware.getLocalMemorySpace(), staged, unstaged);
  if (staged.empty())
    return success();
  for (const UnstagedBuffer &buffer : unstaged)
    root.emitRemark("buffer ") << buffer.memref.getType()
                               << " stays in global memory: " << buffer.reason;
  OpBuilder b(root);
  Value tag = memref::AllocOp::create(b, root.getLoc(),
                                      MemRefType::get({1}, b.getI32Type()));
  b.setInsertionPointAfter(root);
  memref::DeallocOp::create(b, root.getLoc(), tag);
  for (StagedBuffer &buffer : staged)
    if (failed(stage(buffer, tag)))
      return failure();
  if (localBytes > hardware.getLocalMemoryBytes()) {
    std::string name = getNodeName(root);
    return root.emitError("op '")
           << name << "' needs " << localBytes
           << " bytes of local memory for its transfers, more than its "
              "capacity of "
           << hardware.getLocalMemoryBytes()
           << " bytes (run dlc-tile-for-local-memory first)";
  }
  return success();
}

struct GenerateTransfersPass
    : public dlc::impl::GenerateTransfersBase<GenerateTransfersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(func);
    if (!hardware || !hardware.hasLocalMemory())
      return;
    SmallVector<AffineForOp> roots(
        func.getBody().front().getOps<AffineForOp>());
    for (AffineForOp root : roots)
      if (failed(NestStager(root, hardware).run()))
        return signalPassFailure();
  }
};

} // namespace
