//===- VectorizeKernels.cpp - register-blocked floatv4 micro-kernels ------===//
//
// See the pass description in include/dlc/Target/Sunway/Passes.td. A band
// is analysed once (which loops are parallel, how each operand moves with
// each loop), every choice of the vector loop, the blocked loop and the
// block is priced by the memory and floating-point instructions it issues
// per vector multiply-add, and the cheapest is generated; the original
// band is then erased.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Target/Sunway/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"

#include <map>

namespace dlc::sunway {
#define GEN_PASS_DEF_VECTORIZEKERNELS
#include "dlc/Target/Sunway/Passes.h.inc"
} // namespace dlc::sunway

using namespace mlir;
using namespace dlc;
using namespace dlc::sunway;
using affine::AffineForOp;
using affine::AffineIfOp;
using affine::AffineLoadOp;
using affine::AffineStoreOp;

namespace {

/// floatv4: the lanes of every vector this pass makes.
constexpr int64_t kLanes = 4;
/// Memory instructions a lane-by-lane vector takes (four scalar loads and
/// the four lane inserts of simd_set_floatv4).
constexpr int64_t kGatherCost = 8;
/// Vector registers of a CPE a block may use (of 32: a few stay free for
/// addresses the compiler spills into vector registers, and for the
/// operands in flight).
constexpr int64_t kBlockRegisters = 28;

/// The change of each of `exprs` (over `numDims` dims and `numSymbols`
/// symbols bound to `operands`) when `iv` grows by one; nullopt where it is
/// not a constant (the index is not affine in `iv`).
std::optional<SmallVector<int64_t>> getSteps(ArrayRef<AffineExpr> exprs,
                                             unsigned numDims,
                                             unsigned numSymbols,
                                             ValueRange operands, Value iv) {
  MLIRContext *context = iv.getContext();
  SmallVector<AffineExpr> dims, symbols;
  bool found = false;
  for (unsigned i = 0; i < numDims; ++i) {
    bool is = operands[i] == iv;
    found |= is;
    dims.push_back(getAffineDimExpr(i, context) + (is ? 1 : 0));
  }
  for (unsigned i = 0; i < numSymbols; ++i) {
    bool is = operands[numDims + i] == iv;
    found |= is;
    symbols.push_back(getAffineSymbolExpr(i, context) + (is ? 1 : 0));
  }
  SmallVector<int64_t> steps;
  for (AffineExpr expr : exprs) {
    if (!found) {
      steps.push_back(0);
      continue;
    }
    AffineExpr diff = simplifyAffineExpr(
        expr.replaceDimsAndSymbols(dims, symbols) - expr, numDims, numSymbols);
    auto constant = dyn_cast<AffineConstantExpr>(diff);
    if (!constant)
      return std::nullopt;
    steps.push_back(constant.getValue());
  }
  return steps;
}

std::optional<SmallVector<int64_t>> getSteps(AffineMap map, ValueRange operands,
                                             Value iv) {
  return getSteps(map.getResults(), map.getNumDims(), map.getNumSymbols(),
                  operands, iv);
}

bool isZero(ArrayRef<int64_t> steps) {
  return llvm::all_of(steps, [](int64_t s) { return s == 0; });
}
/// Unit stride along the last index only.
bool isUnitLast(ArrayRef<int64_t> steps) {
  return !steps.empty() && steps.back() == 1 && isZero(steps.drop_back());
}

bool isFloatArith(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp>(op);
}

/// An operand of the band's body: a load, possibly under a padding guard
/// (`affine.if` yielding the load or a value from outside the band).
struct Operand {
  AffineLoadOp load;
  AffineIfOp guard;
  Value otherwise;
};

/// How an operand fills a vector along the vector loop.
enum class Lanes { Splat, Vector, Gather };

/// A perfect band of point loops computing `C[h] = f(C[h], operands)`.
struct Band {
  SmallVector<AffineForOp> loops;
  SmallVector<int64_t> trips;
  SmallVector<bool> parallel;
  AffineStoreOp store;
  AffineLoadOp accumulator;
  SmallVector<Operand> operands;
  /// The body's values by their defining op (loads, guards, arithmetic).
  SmallVector<Operation *> ops;
  int64_t floatOps = 0;

  bool isBandValue(Value value) {
    Operation *def = value.getDefiningOp();
    Operation *scope = def ? def : value.getParentBlock()->getParentOp();
    return loops.front()->isProperAncestor(scope) ||
           (scope == loops.front().getOperation() && !def);
  }
};

/// The band that ends in `innermost`, if it has the shape the pass handles.
std::optional<Band> analyseBand(AffineForOp innermost) {
  Band band;
  auto isPointLoop = [](AffineForOp loop) {
    std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
    return trips && *trips >= 1 && loop.getStepAsInt() == 1 &&
           loop.getNumResults() == 0 &&
           !loop->hasAttr(DLCDialect::TileLoopAttrHelper::getNameStr()) &&
           !loop->hasAttr(DLCDialect::DistributedAttrHelper::getNameStr());
  };
  if (!isPointLoop(innermost))
    return std::nullopt;
  // Outwards while the nest is perfect and no loop of the band takes its
  // bounds from the next (no triangular nests).
  for (AffineForOp loop = innermost; loop;
       loop = dyn_cast<AffineForOp>(loop->getParentOp())) {
    if (!band.loops.empty()) {
      if (loop.getBody()->getOperations().size() != 2 || !isPointLoop(loop))
        break;
      Value iv = loop.getInductionVar();
      if (llvm::any_of(band.loops, [&](AffineForOp inner) {
            return llvm::is_contained(inner.getOperands(), iv);
          }))
        break;
    }
    band.loops.insert(band.loops.begin(), loop);
  }
  for (AffineForOp loop : band.loops)
    band.trips.push_back(*affine::getConstantTripCount(loop));

  Type f32 = Float32Type::get(innermost.getContext());
  auto isLDMFloat = [&](Value memref) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    return type && isLDM(type) && type.getElementType() == f32;
  };
  // Map operands come from outside the body: band IVs or outer values.
  auto operandsOk = [&](ValueRange values) {
    return llvm::all_of(values, [&](Value v) {
      return !v.getDefiningOp() || !band.isBandValue(v);
    });
  };
  Block *body = band.loops.back().getBody();
  for (Operation &op : body->without_terminator()) {
    if (auto store = dyn_cast<AffineStoreOp>(op)) {
      if (band.store || !isLDMFloat(store.getMemRef()) ||
          !operandsOk(store.getMapOperands()))
        return std::nullopt;
      band.store = store;
      continue;
    }
    if (auto load = dyn_cast<AffineLoadOp>(op)) {
      if (!isLDMFloat(load.getMemRef()) || !operandsOk(load.getMapOperands()))
        return std::nullopt;
      band.operands.push_back({load, {}, {}});
      band.ops.push_back(load);
      continue;
    }
    if (auto guard = dyn_cast<AffineIfOp>(op)) {
      // then { %x = affine.load; affine.yield %x } else { affine.yield %c }
      if (guard.getNumResults() != 1 || guard.getResult(0).getType() != f32 ||
          !guard.hasElse() || !operandsOk(guard.getOperands()))
        return std::nullopt;
      Block *then = guard.getThenBlock(), *otherwise = guard.getElseBlock();
      auto load = dyn_cast<AffineLoadOp>(&then->front());
      auto thenYield = dyn_cast<affine::AffineYieldOp>(then->getTerminator());
      auto elseYield =
          dyn_cast<affine::AffineYieldOp>(otherwise->getTerminator());
      if (then->getOperations().size() != 2 || !load ||
          otherwise->getOperations().size() != 1 ||
          thenYield.getOperand(0) != load.getResult() ||
          !isLDMFloat(load.getMemRef()) || !operandsOk(load.getMapOperands()) ||
          band.isBandValue(elseYield.getOperand(0)))
        return std::nullopt;
      band.operands.push_back({load, guard, elseYield.getOperand(0)});
      band.ops.push_back(guard);
      continue;
    }
    if (isFloatArith(&op) && op.getResult(0).getType() == f32) {
      // A multiplication only an addition reads fuses into its simd_vmas.
      bool fused = isa<arith::MulFOp>(op) && op.getResult(0).hasOneUse() &&
                   isa<arith::AddFOp>(*op.getResult(0).getUsers().begin());
      band.floatOps += fused ? 0 : 1;
      band.ops.push_back(&op);
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op);
        constant && constant.getType() == f32)
      continue;
    return std::nullopt;
  }
  if (!band.store)
    return std::nullopt;
  // Arithmetic reads body values or values from outside; never an IV.
  for (Operation *op : band.ops)
    if (isFloatArith(op))
      for (Value v : op->getOperands())
        if (isa<BlockArgument>(v) && band.isBandValue(v))
          return std::nullopt;

  // The accumulator: the one load of C, at the stored element.
  Value c = band.store.getMemRef();
  for (auto it = band.operands.begin(); it != band.operands.end();) {
    if (it->load.getMemRef() != c) {
      ++it;
      continue;
    }
    if (it->guard || band.accumulator ||
        it->load.getAffineMap() != band.store.getAffineMap() ||
        it->load.getMapOperands() != band.store.getMapOperands())
      return std::nullopt;
    band.accumulator = it->load;
    it = band.operands.erase(it);
  }

  // Parallel loops name one index of C each, and an index holds at most
  // one of them: distinct iterations write distinct elements.
  unsigned rank = band.store.getMemRefType().getRank();
  SmallVector<int64_t> parallelPerIndex(rank, 0);
  for (AffineForOp loop : band.loops) {
    auto steps = getSteps(band.store.getAffineMap(),
                          band.store.getMapOperands(), loop.getInductionVar());
    if (!steps)
      return std::nullopt;
    int64_t nonZero = llvm::count_if(*steps, [](int64_t s) { return s; });
    if (nonZero > 1)
      return std::nullopt;
    band.parallel.push_back(nonZero == 1);
    for (unsigned i = 0; i < rank; ++i)
      if ((*steps)[i] && ++parallelPerIndex[i] > 1)
        return std::nullopt;
  }
  // A reduction needs the accumulator (else every iteration overwrites).
  if (!band.accumulator && llvm::is_contained(band.parallel, false))
    return std::nullopt;
  return band;
}

/// The micro-kernel chosen for a band: vector loop, blocked loop, block.
struct Plan {
  int v = -1, u = -1;
  int64_t rows = 1, vectors = 1;
  double cost = 0;
  /// Whether the blocks issue more memory than floating-point
  /// instructions (a mask's select then costs less than the loads it
  /// saves).
  bool memoryBound = false;
  SmallVector<Lanes> lanes;
  SmallVector<bool> laneGuard, dependsOnU;
};

/// Whether the vector access `map(operands)` of `memref`, with the vector
/// loop `v` at its lower bound plus a multiple of four, is 16-byte aligned
/// whatever the other values: its LDM offset and every other term of its
/// linear position are multiples of four elements.
bool isAligned(Value memref, AffineMap map, ValueRange operands,
               AffineForOp v) {
  auto alloc = memref.getDefiningOp<LDMAllocOp>();
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!alloc || alloc.getOffset() % (kLanes * 4) != 0 ||
      failed(type.getStridesAndOffset(strides, offset)) || offset % kLanes)
    return false;
  MLIRContext *context = memref.getContext();
  // One dim per distinct value (dim 0: the multiple of four).
  SmallVector<Value> values = {Value()};
  auto dimOf = [&](Value value) {
    auto it = llvm::find(values, value);
    if (it == values.end()) {
      values.push_back(value);
      it = std::prev(values.end());
    }
    return getAffineDimExpr(it - values.begin(), context);
  };
  auto rebind = [&](AffineMap m, ValueRange ops, AffineExpr vExpr) {
    SmallVector<AffineExpr> dims, symbols;
    for (unsigned i = 0; i < m.getNumDims(); ++i)
      dims.push_back(vExpr && ops[i] == v.getInductionVar() ? vExpr
                                                            : dimOf(ops[i]));
    for (unsigned i = 0; i < m.getNumSymbols(); ++i) {
      Value op = ops[m.getNumDims() + i];
      symbols.push_back(vExpr && op == v.getInductionVar() ? vExpr : dimOf(op));
    }
    return std::make_pair(dims, symbols);
  };
  AffineMap lower = v.getLowerBoundMap();
  if (lower.getNumResults() != 1)
    return false;
  auto [lowerDims, lowerSymbols] =
      rebind(lower, v.getLowerBoundOperands(), AffineExpr());
  AffineExpr vExpr =
      lower.getResult(0).replaceDimsAndSymbols(lowerDims, lowerSymbols) +
      getAffineDimExpr(0, context) * kLanes;
  auto [dims, symbols] = rebind(map, operands, vExpr);
  AffineExpr linear = getAffineConstantExpr(offset, context);
  for (auto [expr, stride] : llvm::zip_equal(map.getResults(), strides))
    linear = linear + expr.replaceDimsAndSymbols(dims, symbols) * stride;
  return simplifyAffineExpr(linear, values.size(), 0).isMultipleOf(kLanes);
}

/// The cheapest plan for `band`, if a loop can carry the lanes.
std::optional<Plan> choosePlan(Band &band, int64_t maxAccumulators) {
  std::optional<Plan> best;
  bool reduces = llvm::is_contained(band.parallel, false);
  for (int v = 0, e = band.loops.size(); v < e; ++v) {
    if (!band.parallel[v] || band.trips[v] < kLanes ||
        band.loops[v].getLowerBoundMap().getNumResults() != 1)
      continue;
    Value vIV = band.loops[v].getInductionVar();
    auto storeSteps =
        getSteps(band.store.getAffineMap(), band.store.getMapOperands(), vIV);
    if (!storeSteps || !isUnitLast(*storeSteps))
      continue;
    // How each operand moves with v.
    Plan base;
    base.v = v;
    bool viable = true;
    for (Operand &operand : band.operands) {
      auto steps = getSteps(operand.load.getAffineMap(),
                            operand.load.getMapOperands(), vIV);
      if (!steps) {
        viable = false;
        break;
      }
      base.lanes.push_back(isZero(*steps)       ? Lanes::Splat
                           : isUnitLast(*steps) ? Lanes::Vector
                                                : Lanes::Gather);
      bool guardMoves = false;
      if (operand.guard) {
        IntegerSet set = operand.guard.getIntegerSet();
        ValueRange guardOperands = operand.guard.getOperands();
        // Lane ends bound the lanes between only where the guard is
        // affine in v; v must be a dim to substitute.
        auto guardSteps = getSteps(set.getConstraints(), set.getNumDims(),
                                   set.getNumSymbols(), guardOperands, vIV);
        if (!guardSteps ||
            llvm::is_contained(guardOperands.drop_front(set.getNumDims()),
                               vIV)) {
          viable = false;
          break;
        }
        guardMoves = !isZero(*guardSteps);
      }
      base.laneGuard.push_back(guardMoves);
    }
    if (!viable)
      continue;
    // Every blocked loop (or none) and block shape.
    for (int u = -1; u < e; ++u) {
      if (u == v ||
          (u >= 0 && (!band.parallel[u] || band.trips[u] < 2 ||
                      band.loops[u].getLowerBoundMap().getNumResults() != 1)))
        continue;
      Plan plan = base;
      plan.u = u;
      for (Operand &operand : band.operands) {
        bool depends = false;
        if (u >= 0) {
          Value uIV = band.loops[u].getInductionVar();
          auto steps = getSteps(operand.load.getAffineMap(),
                                operand.load.getMapOperands(), uIV);
          depends = !steps || !isZero(*steps) ||
                    (operand.guard &&
                     llvm::is_contained(operand.guard.getOperands(), uIV));
        }
        plan.dependsOnU.push_back(depends);
      }
      int64_t maxRows = u >= 0 ? std::min<int64_t>(4, band.trips[u]) : 1;
      for (int64_t rows = 1; rows <= maxRows; ++rows) {
        // The last vector of a block may be partial.
        int64_t maxVectors = llvm::divideCeil(band.trips[v], kLanes);
        for (int64_t vectors = 1; vectors <= maxVectors; ++vectors) {
          if (rows * vectors > maxAccumulators ||
              rows * vectors + rows + vectors > kBlockRegisters)
            break;
          // Cycles per output element over the whole u x v space, tail
          // blocks included (a block of the leftover rows, one whose last
          // vector is partial).
          // Instructions of the block shapes priced (whole and tail blocks
          // once each): which pipeline the blocks load.
          double memoryTotal = 0, flopsTotal = 0;
          auto blockCycles = [&](int64_t r, int64_t n, int64_t lastLanes) {
            double memory = 0;
            for (auto [i, operand] : llvm::enumerate(band.operands)) {
              double each = plan.lanes[i] == Lanes::Gather ? kGatherCost : 1;
              bool movesWithV =
                  plan.lanes[i] != Lanes::Splat || plan.laneGuard[i];
              double perRow = !movesWithV ? each
                              : lastLanes ? (n - 1) * each + lastLanes + kLanes
                                          : n * each;
              memory += perRow * (plan.dependsOnU[i] ? r : 1);
            }
            double flops = std::max<int64_t>(band.floatOps, 1) * r * n;
            memoryTotal += memory;
            flopsTotal += flops;
            return std::max(memory, flops);
          };
          int64_t uTrips = u >= 0 ? band.trips[u] : 1, vTrips = band.trips[v];
          int64_t width = vectors * kLanes, rest = vTrips % width;
          auto rowCycles = [&](int64_t r) {
            return (vTrips / width) * blockCycles(r, vectors, 0) +
                   (rest ? blockCycles(r, llvm::divideCeil(rest, kLanes),
                                       rest % kLanes)
                         : 0);
          };
          double total = (uTrips / rows) * rowCycles(rows) +
                         (uTrips % rows ? rowCycles(uTrips % rows) : 0);
          double cost = total / (uTrips * vTrips);
          // Cheaper first. On a tie, a reduction takes the larger block:
          // more independent multiply-add chains hide the pipeline's
          // latency, which the count does not see (swDNN's 4 x 4); a nest
          // without one takes the smaller (shorter tails).
          int64_t size = rows * vectors,
                  bestSize = best ? best->rows * best->vectors : 0;
          bool tie =
              best && cost < best->cost + 1e-9 && cost > best->cost - 1e-9;
          if (!best || cost < best->cost - 1e-9 ||
              (tie && (reduces ? size > bestSize : size < bestSize))) {
            plan.rows = rows;
            plan.vectors = vectors;
            plan.cost = cost;
            plan.memoryBound = memoryTotal > flopsTotal;
            best = plan;
          }
        }
      }
    }
  }
  return best;
}

/// Room for `bytes` more of LDM after the kernel's buffers, at an
/// `alignment`-aligned offset, within the `bufferBytes` a CPE gives to
/// buffers: the offset, the kernel's ldm_bytes grown to cover it; nullopt
/// when it does not fit.
std::optional<int64_t> reserveLDM(LaunchOp launch, int64_t bytes,
                                  int64_t alignment, int64_t bufferBytes) {
  int64_t offset = llvm::alignTo(launch.getLdmBytes(), alignment);
  if (offset + bytes > bufferBytes)
    return std::nullopt;
  launch.setLdmBytes(offset + bytes);
  return offset;
}

/// Cycles of a plan over all of its band's iterations.
double getBandCycles(const Band &band, const Plan &plan) {
  double points = 1;
  for (int64_t trip : band.trips)
    points *= trip;
  return plan.cost * points;
}

/// A gathered operand made contiguous: a copy of its buffer into phase
/// planes, and the operand's load reading the copy instead.
struct PhaseSplit {
  LDMAllocOp alloc;
  AffineForOp copy;
  /// The fixed indices of the slice copied, computed before the copy.
  SmallVector<Operation *> fixedIndices;
  AffineLoadOp load;
  /// What the original load read, to restore it.
  Value memref;
  AffineMap map;
  SmallVector<Value> mapOperands;
  int64_t copyCycles = 0;

  void undo(LaunchOp launch, int64_t ldmBytes) {
    OpBuilder b(load);
    auto original =
        AffineLoadOp::create(b, load.getLoc(), memref, map, mapOperands);
    load.getResult().replaceAllUsesWith(original.getResult());
    load.erase();
    copy.erase();
    for (Operation *index : fixedIndices)
      index->erase();
    alloc.erase();
    launch.setLdmBytes(ldmBytes);
  }
};

/// Operand `index` of `band` gathers lanes `stride` > 1 apart along the
/// last index of an LDM buffer the band only reads (a convolution's input
/// under a stride): before the band, copy what the band reads of the
/// buffer into `stride` phase planes, element w of a row to plane
/// w mod stride at w floordiv stride, and read the copy, where the lanes
/// are adjacent. Leading indices no band loop moves (the half of a
/// double-buffered tile) select the slice copied. The copy goes in LDM
/// after the kernel's buffers, if they leave room.
std::optional<PhaseSplit> splitPhases(Band &band, const Plan &plan,
                                      unsigned index, int64_t bufferBytes) {
  Operand &operand = band.operands[index];
  AffineLoadOp load = operand.load;
  AffineMap map = load.getAffineMap();
  ValueRange mapOperands = load.getMapOperands();
  Value vIV = band.loops[plan.v].getInductionVar();
  auto steps = getSteps(map, mapOperands, vIV);
  if (!steps || steps->back() < 2 || !isZero(ArrayRef(*steps).drop_back()))
    return std::nullopt;
  int64_t stride = steps->back();
  auto source = load.getMemRef().getDefiningOp<LDMAllocOp>();
  auto type = cast<MemRefType>(load.getMemRef().getType());
  auto launch = band.loops.front()->getParentOfType<LaunchOp>();
  if (!source || !launch || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() ||
      load.getMemRef() == band.store.getMemRef())
    return std::nullopt;
  unsigned rank = type.getRank();
  // Which leading indices some band loop moves (the others are fixed).
  SmallVector<bool> moves(rank, false);
  moves.back() = true;
  for (AffineForOp loop : band.loops) {
    auto loopSteps = getSteps(map, mapOperands, loop.getInductionVar());
    if (!loopSteps)
      return std::nullopt;
    for (unsigned d = 0; d + 1 < rank; ++d)
      moves[d] = moves[d] || (*loopSteps)[d] != 0;
  }
  ArrayRef<int64_t> shape = type.getShape();
  int64_t width = shape.back(), elements = width;
  SmallVector<int64_t> phasedShape;
  for (unsigned d = 0; d + 1 < rank; ++d)
    if (moves[d]) {
      phasedShape.push_back(shape[d]);
      elements *= shape[d];
    }
  phasedShape.push_back(stride);
  phasedShape.push_back(llvm::divideCeil(width, stride));
  auto phasedType = MemRefType::get(phasedShape, type.getElementType(),
                                    AffineMap(), type.getMemorySpace());
  std::optional<int64_t> offset = reserveLDM(
      launch, phasedType.getNumElements() * 4, /*alignment=*/32, bufferBytes);
  if (!offset)
    return std::nullopt;

  Location loc = load.getLoc();
  MLIRContext *context = load.getContext();
  PhaseSplit split;
  split.memref = load.getMemRef();
  split.map = map;
  split.mapOperands.assign(mapOperands.begin(), mapOperands.end());
  // One load and one store per element.
  split.copyCycles = 2 * elements;
  OpBuilder b(source->getNextNode());
  split.alloc =
      LDMAllocOp::create(b, loc, phasedType, b.getI64IntegerAttr(*offset));

  // The copy, before the band: a loop per moving index; the fixed ones
  // are the load's (they read no band IV).
  b.setInsertionPoint(band.loops.front());
  SmallVector<Value> sourceIndices, planeIndices;
  for (unsigned d = 0; d < rank; ++d) {
    if (!moves[d]) {
      AffineMap fixed = map.getSubMap({d});
      SmallVector<Value> fixedOperands(mapOperands);
      affine::canonicalizeMapAndOperands(&fixed, &fixedOperands);
      auto apply = affine::AffineApplyOp::create(b, loc, fixed, fixedOperands);
      split.fixedIndices.push_back(apply);
      sourceIndices.push_back(apply);
      continue;
    }
    auto loop = AffineForOp::create(b, loc, 0, shape[d]);
    if (!split.copy)
      split.copy = loop;
    sourceIndices.push_back(loop.getInductionVar());
    planeIndices.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  unsigned planeRank = planeIndices.size();
  SmallVector<AffineExpr> planeExprs;
  for (unsigned d = 0; d + 1 < planeRank; ++d)
    planeExprs.push_back(getAffineDimExpr(d, context));
  AffineExpr w = getAffineDimExpr(planeRank - 1, context);
  planeExprs.push_back(w % stride);
  planeExprs.push_back(w.floorDiv(stride));
  Value element = AffineLoadOp::create(b, loc, split.memref, sourceIndices);
  AffineStoreOp::create(b, loc, element, split.alloc,
                        AffineMap::get(planeRank, 0, planeExprs, context),
                        planeIndices);

  // The load: the moving indices, then w = stride * v + rest as plane
  // rest mod stride, position v + rest floordiv stride (written so, its
  // step along v stays visible to the analysis).
  SmallVector<AffineExpr> dims, symbols;
  AffineExpr vExpr;
  for (unsigned i = 0; i < map.getNumDims(); ++i) {
    bool isV = mapOperands[i] == vIV;
    dims.push_back(isV ? getAffineConstantExpr(0, context)
                       : getAffineDimExpr(i, context));
    if (isV)
      vExpr = getAffineDimExpr(i, context);
  }
  for (unsigned i = 0; i < map.getNumSymbols(); ++i) {
    bool isV = mapOperands[map.getNumDims() + i] == vIV;
    symbols.push_back(isV ? getAffineConstantExpr(0, context)
                          : getAffineSymbolExpr(i, context));
    if (isV)
      vExpr = getAffineSymbolExpr(i, context);
  }
  AffineExpr last = map.getResults().back();
  AffineExpr rest =
      simplifyAffineExpr(last.replaceDimsAndSymbols(dims, symbols),
                         map.getNumDims(), map.getNumSymbols());
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d + 1 < rank; ++d)
    if (moves[d])
      results.push_back(map.getResult(d));
  results.push_back(rest % stride);
  results.push_back(vExpr + rest.floorDiv(stride));
  b.setInsertionPoint(load);
  split.load = AffineLoadOp::create(
      b, loc, split.alloc,
      AffineMap::get(map.getNumDims(), map.getNumSymbols(), results, context),
      mapOperands);
  load.getResult().replaceAllUsesWith(split.load.getResult());
  load.erase();
  return split;
}

/// Generates the micro-kernels of one band in place of it.
class MicroKernelBuilder {
public:
  MicroKernelBuilder(Band &band, const Plan &plan, int64_t bufferBytes)
      : band(band), plan(plan), bufferBytes(bufferBytes),
        loc(band.loops.front().getLoc()),
        vectorType(
            VectorType::get({kLanes}, Float32Type::get(loc.getContext()))) {}

  void build() {
    OpBuilder b(band.loops.front());
    hoistInvariants(b);
    for (auto [i, operand] : llvm::enumerate(band.operands))
      if (plan.lanes[i] == Lanes::Vector)
        aligned[operand.load] =
            isAligned(operand.load.getMemRef(), operand.load.getAffineMap(),
                      operand.load.getMapOperands(), vLoop());
    storeAligned = isAligned(band.store.getMemRef(), band.store.getAffineMap(),
                             band.store.getMapOperands(), vLoop());
    buildOuter(b, 0);
    band.loops.front().erase();
  }

private:
  AffineForOp vLoop() const { return band.loops[plan.v]; }

  /// Whether a partial vector of `memref` may load all four lanes: the
  /// lanes past the last it uses are never stored, so any value does, but
  /// they must lie in the kernel's LDM. Up to three floats past the
  /// buffer's end; the kernel's LDM grows to cover them if it must.
  bool allowOverRead(Value memref) {
    auto [it, inserted] = overReads.try_emplace(memref, false);
    if (inserted)
      it->second = growForOverRead(memref);
    return it->second;
  }
  bool growForOverRead(Value memref) {
    auto alloc = memref.getDefiningOp<LDMAllocOp>();
    auto launch = band.loops.front()->getParentOfType<LaunchOp>();
    if (!alloc || !launch)
      return false;
    auto type = cast<MemRefType>(memref.getType());
    int64_t end = alloc.getOffset() + (type.getNumElements() + kLanes - 1) * 4;
    int64_t ldmBytes = launch.getLdmBytes();
    return end <= ldmBytes ||
           reserveLDM(launch, llvm::alignTo(end, 16) - ldmBytes,
                      /*alignment=*/1, bufferBytes);
  }
  Value vIV() const { return vLoop().getInductionVar(); }
  Value uIV() const {
    return plan.u >= 0 ? band.loops[plan.u].getInductionVar() : Value();
  }

  /// Splats of what the body reads from outside it (and of its constants),
  /// before the band: they dominate every block.
  void hoistInvariants(OpBuilder &b) {
    auto hoist = [&](Value scalar) {
      if (splats.count(scalar))
        return;
      Value value = scalar;
      if (Operation *def = scalar.getDefiningOp();
          def && band.isBandValue(scalar))
        value = b.clone(*def)->getResult(0);
      splats[scalar] = vector::BroadcastOp::create(b, loc, vectorType, value);
    };
    for (Operation *op : band.ops)
      if (isFloatArith(op))
        for (Value v : op->getOperands())
          if (!v.getDefiningOp() || !band.isBandValue(v) ||
              isa<arith::ConstantOp>(v.getDefiningOp()))
            hoist(v);
    for (Operand &operand : band.operands)
      if (operand.guard)
        hoist(operand.otherwise);
    Value stored = band.store.getValue();
    if (!stored.getDefiningOp() || !band.isBandValue(stored) ||
        isa<arith::ConstantOp>(stored.getDefiningOp()))
      hoist(stored);
  }

  /// The loops outside the block: the other parallel loops, in their
  /// order, then the blocks of the blocked loop.
  void buildOuter(OpBuilder &b, unsigned index) {
    for (; index < band.loops.size(); ++index)
      if (band.parallel[index] && (int)index != plan.v && (int)index != plan.u)
        break;
    if (index == band.loops.size()) {
      if (plan.u < 0)
        return buildVectorBlocks(b, Value(), 1);
      AffineForOp u = band.loops[plan.u];
      int64_t trips = band.trips[plan.u];
      int64_t whole = trips / plan.rows * plan.rows;
      if (whole > 0) {
        auto loop = createShifted(b, u, 0, whole, plan.rows);
        OpBuilder inner = OpBuilder::atBlockTerminator(loop.getBody());
        buildVectorBlocks(inner, loop.getInductionVar(), plan.rows);
      }
      if (trips > whole)
        buildVectorBlocks(b, applyBound(b, u, whole), trips - whole);
      return;
    }
    AffineForOp original = band.loops[index];
    auto loop = AffineForOp::create(
        b, loc, original.getLowerBoundOperands(), original.getLowerBoundMap(),
        original.getUpperBoundOperands(), original.getUpperBoundMap());
    ivs.map(original.getInductionVar(), loop.getInductionVar());
    OpBuilder inner = OpBuilder::atBlockTerminator(loop.getBody());
    buildOuter(inner, index + 1);
  }

  /// `for iv = lb + from to lb + to step step` of `original`'s lower bound.
  AffineForOp createShifted(OpBuilder &b, AffineForOp original, int64_t from,
                            int64_t to, int64_t step) {
    AffineMap lower = original.getLowerBoundMap();
    auto shift = [&](int64_t by) {
      return AffineMap::get(lower.getNumDims(), lower.getNumSymbols(),
                            lower.getResult(0) + by);
    };
    return AffineForOp::create(b, loc, original.getLowerBoundOperands(),
                               shift(from), original.getLowerBoundOperands(),
                               shift(to), step);
  }

  /// `lb + by` of `original`'s lower bound.
  Value applyBound(OpBuilder &b, AffineForOp original, int64_t by) {
    AffineMap lower = original.getLowerBoundMap();
    return affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(lower.getNumDims(), lower.getNumSymbols(),
                       lower.getResult(0) + by),
        original.getLowerBoundOperands());
  }

  Value offset(OpBuilder &b, Value base, int64_t by) {
    if (by == 0)
      return base;
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, b.getContext()) + by),
        base);
  }

  /// The blocks along the vector loop for rows u0 .. u0 + rows.
  void buildVectorBlocks(OpBuilder &b, Value u0, int64_t rows) {
    AffineForOp v = vLoop();
    int64_t trips = band.trips[plan.v];
    int64_t width = plan.vectors * kLanes;
    int64_t whole = trips / width * width;
    if (whole > 0) {
      auto loop = createShifted(b, v, 0, whole, width);
      OpBuilder inner = OpBuilder::atBlockTerminator(loop.getBody());
      buildBlock(inner, u0, rows, loop.getInductionVar(), plan.vectors);
    }
    // The rest as one block whose last vector may be partial.
    int64_t rest = trips - whole;
    if (rest > 0)
      buildBlock(b, u0, rows, applyBound(b, v, whole),
                 llvm::divideCeil(rest, kLanes), rest % kLanes);
  }

  /// One block: rows x vectors accumulators through the reduction loops.
  void buildBlock(OpBuilder &b, Value u0, int64_t rows, Value v0,
                  int64_t vectors, int64_t lastLanes = 0) {
    BlockShape block{u0, v0, rows, vectors, lastLanes};
    SmallVector<Value> accumulators;
    if (band.accumulator)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < vectors; ++j)
          accumulators.push_back(
              isPartial(block, j)
                  ? buildLanes(b, lastLanes,
                               [&](OpBuilder &at, int64_t lane) -> Value {
                                 return AffineLoadOp::create(
                                     at, loc, band.accumulator.getMemRef(),
                                     band.accumulator.getAffineMap(),
                                     bindOperands(
                                         at, block,
                                         band.accumulator.getMapOperands(), i,
                                         j, lane));
                               })
                  : vectorAccess(b, block, band.accumulator.getMemRef(),
                                 band.accumulator.getAffineMap(),
                                 band.accumulator.getMapOperands(), i, j,
                                 storeAligned));
    SmallVector<unsigned> reductions;
    for (unsigned index = 0; index < band.loops.size(); ++index)
      if (!band.parallel[index])
        reductions.push_back(index);
    SmallVector<Value> results =
        buildReductions(b, block, reductions, accumulators);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < vectors; ++j) {
        Value result = results[i * vectors + j];
        if (isPartial(block, j)) {
          // Only the lanes inside the loop: one extract and store each.
          for (int64_t lane = 0; lane < lastLanes; ++lane)
            AffineStoreOp::create(
                b, loc, vector::ExtractOp::create(b, loc, result, lane),
                band.store.getMemRef(), band.store.getAffineMap(),
                bindOperands(b, block, band.store.getMapOperands(), i, j,
                             lane));
          continue;
        }
        SmallVector<Value> indices =
            getIndices(b, block, band.store.getAffineMap(),
                       band.store.getMapOperands(), i, j, 0);
        vector::StoreOp::create(b, loc, result, band.store.getMemRef(), indices,
                                /*nontemporal=*/false, getAlign(storeAligned));
      }
  }

  struct BlockShape {
    Value u0, v0;
    int64_t rows, vectors;
    /// Lanes of the last vector inside the vector loop (0: all four).
    int64_t lastLanes = 0;
  };

  static bool isPartial(const BlockShape &block, int64_t j) {
    return block.lastLanes && j == block.vectors - 1;
  }

  /// A vector of the first `count` lanes `lane` makes, the others 0 (a
  /// partial vector's: computed on, never stored).
  Value buildLanes(OpBuilder &b, int64_t count,
                   function_ref<Value(OpBuilder &, int64_t)> lane) {
    SmallVector<Value> elements;
    Value zero;
    for (int64_t l = 0; l < kLanes; ++l) {
      if (l < count) {
        elements.push_back(lane(b, l));
        continue;
      }
      if (!zero)
        zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      elements.push_back(zero);
    }
    return vector::FromElementsOp::create(b, loc, vectorType, elements);
  }

  /// `affine.if set(operands) -> type { then } else { otherwise }`.
  Value buildGuarded(OpBuilder &b, Type type, IntegerSet set,
                     ValueRange operands, function_ref<Value(OpBuilder &)> then,
                     function_ref<Value(OpBuilder &)> otherwise) {
    auto guard = AffineIfOp::create(b, loc, TypeRange{type}, set, operands,
                                    /*withElseRegion=*/true);
    OpBuilder thenBuilder = OpBuilder::atBlockEnd(guard.getThenBlock());
    affine::AffineYieldOp::create(thenBuilder, loc, then(thenBuilder));
    OpBuilder elseBuilder = OpBuilder::atBlockEnd(guard.getElseBlock());
    affine::AffineYieldOp::create(elseBuilder, loc, otherwise(elseBuilder));
    return guard.getResult(0);
  }

  llvm::MaybeAlign getAlign(bool isAligned) const {
    return isAligned ? llvm::MaybeAlign(kLanes * 4) : llvm::MaybeAlign();
  }

  SmallVector<Value> buildReductions(OpBuilder &b, const BlockShape &block,
                                     ArrayRef<unsigned> reductions,
                                     ValueRange accumulators) {
    if (reductions.empty())
      return computeBlock(b, block, accumulators);
    AffineForOp original = band.loops[reductions.front()];
    SmallVector<Value> results;
    auto loop = AffineForOp::create(
        b, loc, original.getLowerBoundOperands(), original.getLowerBoundMap(),
        original.getUpperBoundOperands(), original.getUpperBoundMap(), 1,
        accumulators,
        [&](OpBuilder &inner, Location, Value iv, ValueRange carried) {
          ivs.map(original.getInductionVar(), iv);
          SmallVector<Value> next =
              buildReductions(inner, block, reductions.drop_front(), carried);
          affine::AffineYieldOp::create(inner, loc, next);
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// The stored value of every (row, vector) of the block, operands shared
  /// where they do not depend on the row or the vector.
  SmallVector<Value> computeBlock(OpBuilder &b, const BlockShape &block,
                                  ValueRange accumulators) {
    memo.clear();
    SmallVector<Value> results;
    for (int64_t i = 0; i < block.rows; ++i)
      for (int64_t j = 0; j < block.vectors; ++j) {
        current = accumulators.empty() ? Value()
                                       : accumulators[i * block.vectors + j];
        results.push_back(getVector(b, block, band.store.getValue(), i, j));
      }
    return results;
  }

  bool dependsOnU(Value value) {
    return plan.u >= 0 && depends(value, uDependence, [&](size_t i) {
             return bool(plan.dependsOnU[i]);
           });
  }
  bool dependsOnV(Value value) {
    return depends(value, vDependence, [&](size_t i) {
      return plan.lanes[i] != Lanes::Splat || plan.laneGuard[i];
    });
  }

  /// Whether `value` differs between the rows (or vectors) of a block: the
  /// accumulator does, an operand as `operandDepends` says, arithmetic
  /// where an operand does.
  bool depends(Value value, DenseMap<Value, bool> &cache,
               function_ref<bool(size_t)> operandDepends) {
    if (auto it = cache.find(value); it != cache.end())
      return it->second;
    bool result = false;
    if (band.accumulator && value == band.accumulator.getResult()) {
      result = true;
    } else if (Operation *def = value.getDefiningOp();
               def && band.isBandValue(value)) {
      if (Operand *operand = findOperand(def))
        result = operandDepends(operand - band.operands.data());
      else
        result = llvm::any_of(def->getOperands(), [&](Value v) {
          return depends(v, cache, operandDepends);
        });
    }
    return cache[value] = result;
  }

  Operand *findOperand(Operation *op) {
    for (Operand &operand : band.operands)
      if (operand.load == op || operand.guard == op)
        return &operand;
    return nullptr;
  }

  /// The vector of `value` for row i and vector j of the block.
  Value getVector(OpBuilder &b, const BlockShape &block, Value value, int64_t i,
                  int64_t j) {
    if (band.accumulator && value == band.accumulator.getResult())
      return current;
    if (auto it = splats.find(value); it != splats.end())
      return it->second;
    auto key =
        std::make_tuple(value.getAsOpaquePointer(), dependsOnU(value) ? i : -1,
                        dependsOnV(value) ? j : -1);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    Value result;
    if (Operand *operand = findOperand(def)) {
      result = getOperandVector(b, block, *operand, i, j);
    } else if (auto add = dyn_cast<arith::AddFOp>(def);
               add &&
               (getFusableMul(add.getLhs()) || getFusableMul(add.getRhs()))) {
      // a * b + c: one simd_vmas.
      arith::MulFOp mul = getFusableMul(add.getLhs());
      Value addend = add.getRhs();
      if (!mul) {
        mul = getFusableMul(add.getRhs());
        addend = add.getLhs();
      }
      Value x = getVector(b, block, mul.getLhs(), i, j);
      Value y = getVector(b, block, mul.getRhs(), i, j);
      Value z = getVector(b, block, addend, i, j);
      result = vector::FMAOp::create(b, loc, x, y, z);
    } else {
      SmallVector<Value> operands;
      for (Value operand : def->getOperands())
        operands.push_back(getVector(b, block, operand, i, j));
      OperationState state(loc, def->getName(), operands, {vectorType},
                           def->getAttrs());
      result = b.create(state)->getResult(0);
    }
    memo[key] = result;
    return result;
  }

  /// The multiplication `value` is, when only one addition reads it.
  arith::MulFOp getFusableMul(Value value) {
    auto mul = value.getDefiningOp<arith::MulFOp>();
    return mul && band.isBandValue(value) && value.hasOneUse() ? mul : nullptr;
  }

  /// Index values of `map(operands)` at row i, vector j, lane `lane`.
  SmallVector<Value> getIndices(OpBuilder &b, const BlockShape &block,
                                AffineMap map, ValueRange operands, int64_t i,
                                int64_t j, int64_t lane) {
    SmallVector<Value> bound = bindOperands(b, block, operands, i, j, lane);
    SmallVector<Value> indices;
    for (AffineExpr expr : map.getResults())
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), map.getNumSymbols(), expr),
          bound));
    return indices;
  }

  SmallVector<Value> bindOperands(OpBuilder &b, const BlockShape &block,
                                  ValueRange operands, int64_t i, int64_t j,
                                  int64_t lane) {
    SmallVector<Value> bound;
    for (Value operand : operands) {
      if (operand == vIV())
        bound.push_back(offset(b, block.v0, j * kLanes + lane));
      else if (plan.u >= 0 && operand == uIV())
        bound.push_back(offset(b, block.u0, i));
      else
        bound.push_back(ivs.lookupOrDefault(operand));
    }
    return bound;
  }

  Value vectorAccess(OpBuilder &b, const BlockShape &block, Value memref,
                     AffineMap map, ValueRange operands, int64_t i, int64_t j,
                     bool isAligned) {
    return vector::LoadOp::create(b, loc, vectorType, memref,
                                  getIndices(b, block, map, operands, i, j, 0),
                                  /*nontemporal=*/false, getAlign(isAligned));
  }

  /// The operand's vector, without its guard.
  Value loadVector(OpBuilder &b, const BlockShape &block, Operand &operand,
                   int64_t i, int64_t j) {
    AffineLoadOp load = operand.load;
    size_t index = &operand - band.operands.data();
    switch (plan.lanes[index]) {
    case Lanes::Vector:
      return vectorAccess(b, block, load.getMemRef(), load.getAffineMap(),
                          load.getMapOperands(), i, j, aligned[load]);
    case Lanes::Splat:
      return LoadSplatOp::create(b, loc, vectorType, load.getMemRef(),
                                 getIndices(b, block, load.getAffineMap(),
                                            load.getMapOperands(), i, j, 0));
    case Lanes::Gather:
      return buildLanes(b, kLanes, [&](OpBuilder &at, int64_t lane) {
        return loadLane(at, block, operand, i, j, lane);
      });
    }
    llvm_unreachable("covered switch");
  }

  Value loadLane(OpBuilder &b, const BlockShape &block, Operand &operand,
                 int64_t i, int64_t j, int64_t lane) {
    return AffineLoadOp::create(
        b, loc, operand.load.getMemRef(), operand.load.getAffineMap(),
        bindOperands(b, block, operand.load.getMapOperands(), i, j, lane));
  }

  /// Lane `lane` of the operand, under its guard when it has one.
  Value loadLaneGuarded(OpBuilder &b, const BlockShape &block, Operand &operand,
                        int64_t i, int64_t j, int64_t lane) {
    if (!operand.guard)
      return loadLane(b, block, operand, i, j, lane);
    return buildGuarded(
        b, operand.load.getType(), operand.guard.getIntegerSet(),
        bindOperands(b, block, operand.guard.getOperands(), i, j, lane),
        [&](OpBuilder &then) {
          return loadLane(then, block, operand, i, j, lane);
        },
        [&](OpBuilder &) { return operand.otherwise; });
  }

  Value getOperandVector(OpBuilder &b, const BlockShape &block,
                         Operand &operand, int64_t i, int64_t j) {
    Value result =
        operand.guard ? operand.guard.getResult(0) : operand.load.getResult();
    size_t index = &operand - band.operands.data();
    bool partial = isPartial(block, j);
    // A partial vector loads whole where it may read past its lanes.
    if (partial && dependsOnV(result) &&
        (plan.lanes[index] != Lanes::Vector ||
         !allowOverRead(operand.load.getMemRef())))
      return buildLanes(b, block.lastLanes, [&](OpBuilder &at, int64_t lane) {
        return loadLaneGuarded(at, block, operand, i, j, lane);
      });
    if (!operand.guard)
      return loadVector(b, block, operand, i, j);
    int64_t lastLane = partial ? block.lastLanes - 1 : kLanes - 1;
    IntegerSet set = operand.guard.getIntegerSet();
    ValueRange guardOperands = operand.guard.getOperands();
    auto loadWhole = [&](OpBuilder &inner) {
      return loadVector(inner, block, operand, i, j);
    };
    if (!plan.laneGuard[index])
      return buildGuarded(
          b, vectorType, set, bindOperands(b, block, guardOperands, i, j, 0),
          loadWhole,
          [&](OpBuilder &) { return splats.lookup(operand.otherwise); });
    // The guard holds for every lane when it holds for the first and the
    // last used (it is affine in v): the constraints twice, v's dim bound
    // to lane 0 and, as an extra dim, to the last lane.
    unsigned numDims = set.getNumDims();
    SmallVector<AffineExpr> lastLaneDims;
    for (unsigned d = 0; d < numDims; ++d)
      lastLaneDims.push_back(getAffineDimExpr(
          guardOperands[d] == vIV() ? numDims : d, b.getContext()));
    SmallVector<AffineExpr> constraints;
    SmallVector<bool> equalities;
    for (unsigned k = 0; k < set.getNumConstraints(); ++k) {
      constraints.push_back(set.getConstraint(k));
      constraints.push_back(set.getConstraint(k).replaceDims(lastLaneDims));
      equalities.append(2, set.isEq(k));
    }
    // Operands: the dims, the last lane's v, the symbols.
    IntegerSet both = IntegerSet::get(numDims + 1, set.getNumSymbols(),
                                      constraints, equalities);
    SmallVector<Value> first = bindOperands(b, block, guardOperands, i, j, 0);
    SmallVector<Value> bothOperands(first.begin(), first.begin() + numDims);
    bothOperands.push_back(offset(b, block.v0, j * kLanes + lastLane));
    bothOperands.append(first.begin() + numDims, first.end());
    return buildGuarded(
        b, vectorType, both, bothOperands, loadWhole, [&](OpBuilder &inner) {
          if (plan.lanes[index] == Lanes::Vector && plan.memoryBound)
            if (Value masked =
                    buildMasked(inner, block, operand, i, j, lastLane))
              return masked;
          return buildLanes(
              inner, lastLane + 1, [&](OpBuilder &at, int64_t lane) {
                return loadLaneGuarded(at, block, operand, i, j, lane);
              });
        });
  }

  /// Masks for vectors across a padding border: entry lo * 5 + hi holds -1
  /// in lanes lo..hi-1 and +1 in the others (lo, hi in 0..4), in LDM after
  /// the kernel's buffers, filled once at the kernel's start. Null when the
  /// LDM has no room.
  Value getMaskTable() {
    if (maskTable || noMaskTable)
      return maskTable;
    auto launch = band.loops.front()->getParentOfType<LaunchOp>();
    int64_t entries = (kLanes + 1) * (kLanes + 1);
    std::optional<int64_t> offset = reserveLDM(launch, entries * kLanes * 4,
                                               /*alignment=*/16, bufferBytes);
    if (!offset) {
      noMaskTable = true;
      return maskTable;
    }
    MLIRContext *context = launch.getContext();
    OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
    Type f32 = Float32Type::get(context);
    auto type = MemRefType::get({entries * kLanes}, f32, AffineMap(),
                                LDMAttr::get(context));
    maskTable = LDMAllocOp::create(b, loc, type, b.getI64IntegerAttr(*offset));
    Value inside = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(-1));
    Value outside = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1));
    auto lo = AffineForOp::create(b, loc, 0, kLanes + 1);
    b.setInsertionPointToStart(lo.getBody());
    auto hi = AffineForOp::create(b, loc, 0, kLanes + 1);
    b.setInsertionPointToStart(hi.getBody());
    auto lane = AffineForOp::create(b, loc, 0, kLanes);
    b.setInsertionPointToStart(lane.getBody());
    AffineExpr l = b.getAffineDimExpr(0), from = b.getAffineDimExpr(1),
               to = b.getAffineDimExpr(2);
    SmallVector<Value> ivs = {lane.getInductionVar(), lo.getInductionVar(),
                              hi.getInductionVar()};
    Value value = buildGuarded(
        b, f32, IntegerSet::get(3, 0, {l - from, to - 1 - l}, {false, false}),
        ivs, [&](OpBuilder &) { return inside; },
        [&](OpBuilder &) { return outside; });
    AffineStoreOp::create(
        b, loc, value, maskTable,
        AffineMap::get(3, 0, {(from * (kLanes + 1) + to) * kLanes + l},
                       context),
        ivs);
    return maskTable;
  }

  /// Whether a vector of `memref` may load whole across a border: its
  /// lanes reach up to three floats before the buffer and after it.
  bool allowBorderRead(Value memref) {
    auto alloc = memref.getDefiningOp<LDMAllocOp>();
    return alloc && alloc.getOffset() >= (kLanes - 1) * 4 &&
           allowOverRead(memref);
  }

  /// The vector of a guarded unit-stride operand whose lanes `lo` to
  /// `hi` - 1 (an interval: the guard is affine in v) pass its guard,
  /// without lane-by-lane loads: one load of the four lanes, a mask from
  /// the table, a select with the padding value; the padding value alone
  /// where no lane passes (so the load stays within three floats of one
  /// that does). Null when the guard or the LDM does not allow it.
  Value buildMasked(OpBuilder &b, const BlockShape &block, Operand &operand,
                    int64_t i, int64_t j, int64_t lastLane) {
    IntegerSet set = operand.guard.getIntegerSet();
    ValueRange guardOperands = operand.guard.getOperands();
    auto steps = getSteps(set.getConstraints(), set.getNumDims(),
                          set.getNumSymbols(), guardOperands, vIV());
    if (!steps || !allowBorderRead(operand.load.getMemRef()) || !getMaskTable())
      return Value();
    SmallVector<AffineExpr> firsts, lasts, fixed;
    for (unsigned k = 0; k < set.getNumConstraints(); ++k) {
      AffineExpr c = set.getConstraint(k);
      int64_t a = (*steps)[k];
      if (a && set.isEq(k))
        return Value();
      if (a > 0)
        firsts.push_back((-c).ceilDiv(a)); // the first lane with c >= 0
      else if (a < 0)
        lasts.push_back(c.floorDiv(-a)); // the last lane with c >= 0
      else
        fixed.push_back(c);
    }
    MLIRContext *context = b.getContext();
    unsigned numDims = set.getNumDims(), numSymbols = set.getNumSymbols();
    // Some lane passes: every first <= lastLane, every last >= 0, every
    // first <= every last, the lane-invariant constraints hold.
    SmallVector<AffineExpr> some(fixed);
    for (AffineExpr first : firsts)
      some.push_back(lastLane - first);
    for (AffineExpr last : lasts)
      some.push_back(last);
    for (AffineExpr first : firsts)
      for (AffineExpr last : lasts)
        some.push_back(last - first);
    SmallVector<Value> bound = bindOperands(b, block, guardOperands, i, j, 0);
    auto masked = [&](OpBuilder &at) -> Value {
      SmallVector<AffineExpr> loExprs = {getAffineConstantExpr(0, context)};
      llvm::append_range(loExprs, firsts);
      SmallVector<AffineExpr> hiExprs = {
          getAffineConstantExpr(lastLane + 1, context)};
      for (AffineExpr last : lasts)
        hiExprs.push_back(last + 1);
      Value lo = affine::AffineMaxOp::create(
          at, loc, AffineMap::get(numDims, numSymbols, loExprs, context),
          bound);
      Value hi = affine::AffineMinOp::create(
          at, loc, AffineMap::get(numDims, numSymbols, hiExprs, context),
          bound);
      AffineExpr d0 = getAffineDimExpr(0, context),
                 d1 = getAffineDimExpr(1, context);
      Value entry = affine::AffineApplyOp::create(
          at, loc, AffineMap::get(2, 0, (d0 * (kLanes + 1) + d1) * kLanes),
          ValueRange{lo, hi});
      Value mask = vector::LoadOp::create(
          at, loc, vectorType, maskTable, ValueRange{entry},
          /*nontemporal=*/false, getAlign(/*isAligned=*/true));
      Value whole = loadVector(at, block, operand, i, j);
      return SelectNegativeOp::create(at, loc, vectorType, mask, whole,
                                      splats.lookup(operand.otherwise));
    };
    if (some.empty())
      return masked(b);
    return buildGuarded(b, vectorType,
                        IntegerSet::get(numDims, numSymbols, some,
                                        SmallVector<bool>(some.size(), false)),
                        bound, masked, [&](OpBuilder &) {
                          return splats.lookup(operand.otherwise);
                        });
  }

  Band &band;
  const Plan &plan;
  /// LDM a CPE gives to buffers.
  int64_t bufferBytes;
  Location loc;
  VectorType vectorType;
  /// Band IVs to the IVs of the loops that replace them.
  IRMapping ivs;
  DenseMap<Value, Value> splats;
  DenseMap<Value, bool> uDependence, vDependence;
  std::map<std::tuple<const void *, int64_t, int64_t>, Value> memo;
  DenseMap<Operation *, bool> aligned;
  DenseMap<Value, bool> overReads;
  Value maskTable;
  bool noMaskTable = false;
  bool storeAligned = false;
  Value current;
};

struct VectorizeKernelsPass
    : dlc::sunway::impl::VectorizeKernelsBase<VectorizeKernelsPass> {
  using VectorizeKernelsBase::VectorizeKernelsBase;

  void runOnOperation() override {
    if (SunwayHardware::get(getOperation()).vectorLanes != kLanes)
      return;
    SmallVector<AffineForOp> innermost;
    getOperation().walk([&](AffineForOp loop) {
      if (loop->getParentOfType<LaunchOp>() &&
          loop.getBody()->getOps<AffineForOp>().empty())
        innermost.push_back(loop);
    });
    int64_t bufferBytes = SunwayHardware::get(getOperation()).getBufferBytes();
    for (AffineForOp loop : innermost) {
      std::optional<Band> band = analyseBand(loop);
      if (!band)
        continue;
      std::optional<Plan> plan = choosePlan(*band, maxAccumulators);
      if (!plan)
        continue;
      // Gathers the copy into phase planes pays for become vectors.
      for (unsigned i = 0; i < band->operands.size(); ++i) {
        if (plan->lanes[i] != Lanes::Gather)
          continue;
        auto launch = loop->getParentOfType<LaunchOp>();
        int64_t ldmBytes = launch.getLdmBytes();
        std::optional<PhaseSplit> split =
            splitPhases(*band, *plan, i, bufferBytes);
        if (!split)
          continue;
        std::optional<Band> phased = analyseBand(loop);
        std::optional<Plan> phasedPlan =
            phased ? choosePlan(*phased, maxAccumulators) : std::nullopt;
        if (!phasedPlan ||
            getBandCycles(*phased, *phasedPlan) + split->copyCycles >=
                getBandCycles(*band, *plan)) {
          split->undo(launch, ldmBytes);
          band = analyseBand(loop);
          continue;
        }
        band = std::move(phased);
        plan = std::move(phasedPlan);
      }
      MicroKernelBuilder(*band, *plan, bufferBytes).build();
    }
  }
};

} // namespace
