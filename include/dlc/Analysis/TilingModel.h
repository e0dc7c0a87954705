//===- TilingModel.h - tile sizes and loop order for a capacity -*- C++ -*-===//
//
// The traffic cost model of `dlc-tile-for-local-memory`. A nest's band
// loops are tiled by divisors of their trip counts and the tile loops
// ordered; every staged buffer is transferred at the innermost tile loop
// its accesses depend on (the outermost place where its data is reused),
// so it moves
//
//   box(tile) x product of the trip counts of the tile loops outside it
//
// elements, once in if the nest reads it and once out if it writes it (a
// written box that is not densely written is read in first). A box holds
// only the elements its accesses touch: a dimension they step through (a
// strided convolution's rows) keeps every step-th element. The model picks
// the tiling that minimises the bytes moved, plus a per-block overhead on
// machines whose DMA is slow on small blocks, while the boxes, two of each
// streamed read-only one when double buffering, fit the capacity. On a
// machine with several processing units, each with its own local memory,
// it first keeps as many of them busy as the outermost tile loop allows.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ANALYSIS_TILINGMODEL_H
#define DLC_ANALYSIS_TILINGMODEL_H

#include "dlc/Analysis/LinearAccess.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace dlc {

/// Which loops go outermost when a nest reads two buffers, "maps" (the
/// first one read) and "kernels" (the second): the Snowflake paper's two
/// orders. MLoop keeps a kernel tile resident while the map tiles stream
/// past (maps are reloaded), KLoop the reverse; Auto takes whatever the
/// model finds cheapest.
enum class LoopOrder { Auto, MLoop, KLoop };

/// The command-line spellings of LoopOrder (pass, pipeline and driver
/// options share them).
inline llvm::cl::ValuesClass getLoopOrderValues() {
  return llvm::cl::values(
      clEnumValN(LoopOrder::Auto, "auto", "the cheapest by the model"),
      clEnumValN(LoopOrder::MLoop, "mloop",
                 "kernel tiles outermost: maps are reloaded"),
      clEnumValN(LoopOrder::KLoop, "kloop",
                 "map tiles outermost: kernels are reloaded"));
}

/// The box of a buffer one DMA placement moves: per dimension its extent,
/// the distance between its elements in the buffer (`steps`, more than 1
/// where the accesses skip elements), and the buffer's size. The model and
/// the transfer generator both describe boxes this way, so they count the
/// same blocks and make the same choices.
struct TransferBox {
  llvm::SmallVector<int64_t> extents, steps, sizes;

  int64_t getElements() const;
  /// The dimension that ends the contiguous block: the innermost one that
  /// does not span its buffer dimension, or -1 when the box is the buffer.
  int getBlockDim() const;
  /// Elements per contiguous block: the trailing dimensions that span their
  /// buffer dimension and, unless it steps, the block dimension.
  int64_t getBlockElements() const;
  /// Moves the block dimension densely (the elements it steps over too)
  /// when that costs less, counting each block as `overheadBytes` more.
  void densifyIfCheaper(int64_t elementBytes, int64_t overheadBytes);
};

struct TilingProblem {
  /// The band: perfectly nested loops with constant bounds, outermost first.
  llvm::SmallVector<mlir::affine::AffineForOp> band;
  llvm::SmallVector<int64_t> tripCounts;
  /// Constant trip counts of every other loop of the nest.
  llvm::DenseMap<mlir::Operation *, int64_t> innerTripCounts;
  llvm::SmallVector<StagedBuffer, 4> buffers;
  int64_t capacityBytes = 0;
  bool doubleBuffering = false;
  /// See `dma_block_overhead_bytes` of #dlc.hardware.
  int64_t dmaBlockOverheadBytes = 0;
  /// See `processing_units` of #dlc.hardware, and which band loops carry no
  /// dependence (their tiles can run on different units).
  int64_t processingUnits = 1;
  llvm::SmallVector<bool> parallelLoops;
  /// See `broadcast_reads` and `strided_read_copies` of #dlc.hardware.
  bool broadcastReads = false;
  bool stridedReadCopies = false;
};

/// How one buffer is moved under a tiling.
struct BufferTraffic {
  /// Extent of the transferred box per dimension.
  llvm::SmallVector<int64_t> box;
  int64_t boxBytes = 0;
  /// Local bytes reserved (twice the box when double-buffered).
  int64_t localBytes = 0;
  /// Times the box is transferred (in, and again out when written).
  int64_t transfers = 0;
  int64_t bytesIn = 0;
  int64_t bytesOut = 0;
  /// Contiguous blocks moved, in and out.
  int64_t blocks = 0;
  bool doubleBuffered = false;
};

struct Tiling {
  /// Per band loop: tile size (a divisor of its trip count).
  llvm::SmallVector<int64_t> tileSizes;
  /// Band loop indices of the tile loops, outermost first (only loops with
  /// more than one tile).
  llvm::SmallVector<unsigned> order;
  /// "mloop", "kloop" or "none" (the nest has no two read buffers, or the
  /// order tells them apart by no loop).
  std::string orderKind;
  llvm::SmallVector<BufferTraffic> buffers;
  int64_t footprintBytes = 0;
  int64_t trafficBytes = 0;
  int64_t dmaBlocks = 0;
  /// What the model minimises: traffic plus blocks times the overhead.
  int64_t costBytes = 0;
  /// Processing units the outermost tile loop can keep busy: its tiles
  /// when it is parallel, at most the problem's units; 1 otherwise. The
  /// model maximises this first, then minimises the cost.
  int64_t usableUnits = 1;
};

/// The cheapest tiling of `problem` under `policy`, or failure with
/// `diagnostic` saying why (even the smallest tile does not fit).
mlir::FailureOr<Tiling> chooseTiling(const TilingProblem &problem,
                                     LoopOrder policy, std::string &diagnostic);

/// The traffic of `problem` under given tile sizes and order (no search):
/// what chooseTiling evaluates for each candidate.
Tiling evaluateTiling(const TilingProblem &problem,
                      llvm::ArrayRef<int64_t> tileSizes,
                      llvm::ArrayRef<unsigned> order);

} // namespace dlc

#endif // DLC_ANALYSIS_TILINGMODEL_H
