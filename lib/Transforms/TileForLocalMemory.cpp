//===- TileForLocalMemory.cpp - tile nests for a local-memory capacity ----===//

#include "dlc/Analysis/TilingModel.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "LocalMemory.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/Builders.h"

namespace dlc {
#define GEN_PASS_DEF_TILEFORLOCALMEMORY
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace mlir::affine;
using namespace dlc;

namespace {

/// "'conv1'": the nest's ONNX node, else its location.
std::string describeNest(Operation *root) {
  return "'" + getNodeName(root) + "'";
}

/// The nest's tiling problem: its band (the perfectly nested loops with
/// constant bounds and unit step) and buffers.
TilingProblem buildProblem(AffineForOp root, HardwareAttr hardware) {
  TilingProblem problem;
  SmallVector<AffineForOp> perfect;
  getPerfectlyNestedLoops(perfect, root);
  for (AffineForOp loop : perfect) {
    std::optional<uint64_t> trip = getConstantTripCount(loop);
    if (!trip || *trip < 1 || *trip > INT32_MAX || loop.getStepAsInt() != 1)
      break;
    problem.band.push_back(loop);
    problem.tripCounts.push_back(*trip);
  }
  root.walk([&](AffineForOp loop) {
    if (llvm::is_contained(problem.band, loop))
      return;
    if (std::optional<uint64_t> trip = getConstantTripCount(loop))
      problem.innerTripCounts[loop] = *trip;
  });
  SmallVector<UnstagedBuffer> unstaged;
  collectNestBuffers(root, hardware.getLocalMemorySpace(), problem.buffers,
                     unstaged);
  problem.capacityBytes = hardware.getLocalMemoryBytes();
  problem.doubleBuffering = hardware.getDoubleBuffering();
  problem.dmaBlockOverheadBytes = hardware.getDmaBlockOverheadBytes();
  problem.processingUnits = hardware.getProcessingUnits();
  problem.broadcastReads = hardware.getBroadcastReads();
  problem.stridedReadCopies = hardware.getStridedReadCopies();
  // Whether each band loop carries a dependence, in the untiled nest.
  for (AffineForOp loop : problem.band)
    problem.parallelLoops.push_back(problem.processingUnits > 1 &&
                                    isLoopParallel(loop));
  return problem;
}

DictionaryAttr describeTiling(MLIRContext *context, const Tiling &tiling) {
  Builder b(context);
  SmallVector<int64_t> order(tiling.order.begin(), tiling.order.end());
  return b.getDictionaryAttr({
      b.getNamedAttr("tile_sizes", b.getDenseI64ArrayAttr(tiling.tileSizes)),
      b.getNamedAttr("order", b.getDenseI64ArrayAttr(order)),
      b.getNamedAttr("loop_order", b.getStringAttr(tiling.orderKind)),
      b.getNamedAttr("footprint_bytes",
                     b.getI64IntegerAttr(tiling.footprintBytes)),
      b.getNamedAttr("traffic_bytes", b.getI64IntegerAttr(tiling.trafficBytes)),
      b.getNamedAttr("dma_blocks", b.getI64IntegerAttr(tiling.dmaBlocks)),
  });
}

/// Tiles `problem`'s band by `tiling` and orders the tile loops. Returns
/// the nest's new outermost loop.
FailureOr<AffineForOp> applyTiling(const TilingProblem &problem,
                                   Tiling &tiling) {
  unsigned depth = problem.band.size();
  SmallVector<unsigned> sizes(tiling.tileSizes.begin(), tiling.tileSizes.end());
  SmallVector<AffineForOp> band(problem.band.begin(), problem.band.end());
  SmallVector<AffineForOp> tiled;
  if (failed(tilePerfectlyNested(band, sizes, &tiled)))
    return failure();
  ArrayRef<AffineForOp> tileLoops = ArrayRef(tiled).take_front(depth);
  // The model's order first, then the single-tile loops in band order.
  SmallVector<unsigned> newOrder(tiling.order.begin(), tiling.order.end());
  for (unsigned l = 0; l < depth; ++l)
    if (!llvm::is_contained(newOrder, l))
      newOrder.push_back(l);
  SmallVector<unsigned> permutation(depth);
  for (auto [position, loop] : llvm::enumerate(newOrder))
    permutation[loop] = position;
  for (unsigned l : tiling.order)
    tiled[l]->setAttr(DLCDialect::TileLoopAttrHelper::getNameStr(),
                      UnitAttr::get(tiled.front()->getContext()));
  if (isValidLoopInterchangePermutation(tileLoops, permutation)) {
    permuteLoops(tileLoops, permutation);
  } else {
    // A dependence forbids the order: keep the band's, and its figures.
    SmallVector<unsigned> bandOrder(tiling.order);
    llvm::sort(bandOrder);
    Tiling unordered = evaluateTiling(problem, tiling.tileSizes, bandOrder);
    tiling = std::move(unordered);
  }
  // Single-iteration loops (tiles covering a whole loop, tiles of one
  // iteration) are noise for the transfer placement.
  Operation *anchor = &tiled.back().getBody()->front();
  auto func = anchor->getParentOfType<func::FuncOp>();
  for (AffineForOp loop : tiled)
    if (getConstantTripCount(loop) == 1)
      (void)promoteIfSingleIteration(loop);
  auto outermost = dyn_cast_or_null<AffineForOp>(
      func.getBody().front().findAncestorOpInBlock(*anchor));
  if (!outermost)
    return failure();
  // Targets with several processing units spread the outermost tile loop
  // over them when its iterations are independent.
  if (outermost->hasAttr(DLCDialect::TileLoopAttrHelper::getNameStr()) &&
      isLoopParallel(outermost))
    outermost->setAttr(DLCDialect::ParallelAttrHelper::getNameStr(),
                       UnitAttr::get(outermost.getContext()));
  return outermost;
}

struct TileForLocalMemoryPass
    : public dlc::impl::TileForLocalMemoryBase<TileForLocalMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(func);
    if (!hardware || !hardware.hasLocalMemory())
      return;
    SmallVector<AffineForOp> roots(
        func.getBody().front().getOps<AffineForOp>());
    for (AffineForOp root : roots)
      if (failed(tileNest(root, hardware)))
        return signalPassFailure();
  }

  LogicalResult tileNest(AffineForOp root, HardwareAttr hardware) {
    TilingProblem problem = buildProblem(root, hardware);
    if (problem.band.empty() || problem.buffers.empty())
      return success();
    std::string diagnostic;
    FailureOr<Tiling> tiling = chooseTiling(problem, loopOrder, diagnostic);
    if (failed(tiling))
      return root.emitError("cannot tile op ")
             << describeNest(root) << " for local memory: " << diagnostic;
    bool whole = tiling->order.empty();
    AffineForOp outermost = root;
    if (!whole) {
      if (!isTilingValid(problem.band)) {
        // Tiles would depend on each other: only the whole nest is legal.
        Tiling untiled =
            evaluateTiling(problem, problem.tripCounts, /*order=*/{});
        if (untiled.footprintBytes > problem.capacityBytes)
          return root.emitError("cannot tile op ")
                 << describeNest(root)
                 << " for local memory: a dependence forbids rectangular "
                    "tiles, and the whole nest needs "
                 << untiled.footprintBytes << " bytes, more than the "
                 << problem.capacityBytes << " bytes of local memory";
        *tiling = std::move(untiled);
      } else {
        // Tiling replaces the root: what the nest computes moves to the new
        // outermost loop.
        DLCDialect::NestAttrHelper nestAttr(root.getContext());
        DictionaryAttr nest = nestAttr.getAttr(root);
        FailureOr<AffineForOp> tiled = applyTiling(problem, *tiling);
        if (failed(tiled))
          return root.emitError("cannot tile op ") << describeNest(root);
        outermost = *tiled;
        if (nest)
          nestAttr.setAttr(outermost, nest);
      }
    }
    outermost->setAttr(DLCDialect::TilingAttrHelper::getNameStr(),
                       describeTiling(outermost.getContext(), *tiling));
    return success();
  }
};

} // namespace
