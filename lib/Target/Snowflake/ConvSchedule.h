//===- ConvSchedule.h - how the vMACs compute one convolution ---*- C++ -*-===//
//
// The geometry of a convolution on Snowflake (its traces, how its kernel
// splits into chunks that fit the weights buffers, how its weights are laid
// out) and the schedules the compiler's own performance model chooses from
// (how the CUs split the work, the band height, Mloop or Kloop). This is
// the compiler's model: the simulator shares none of it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TARGET_SNOWFLAKE_CONVSCHEDULE_H
#define DLC_LIB_TARGET_SNOWFLAKE_CONVSCHEDULE_H

#include "Layers.h"

#include "dlc/Analysis/TilingModel.h"
#include "dlc/Target/Snowflake/ISA.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc::snowflake {

/// Output channels one CU computes at once: 4 vMACs of 16 lanes.
inline constexpr int64_t kBlockChannels = 64;

/// One trace of a pixel's window: `length` consecutive elements of its
/// channel group's tile from `offset` past the pixel's origin, against
/// weights rows [row, row + length).
struct Trace {
  int64_t offset, length, row;
};

struct Chunk {
  /// Traces [firstTrace, endTrace), weights rows [firstRow, firstRow + rows),
  /// all of one channel group.
  size_t firstTrace, endTrace;
  int64_t firstRow, rows;
  int64_t group;
};

/// What does not depend on the schedule.
struct ConvGeometry {
  int64_t blocks = 0;
  /// Input channels a block's window covers (all of them unless grouped),
  /// and where each block's window starts.
  int64_t windowChannels = 0;
  std::vector<int64_t> windowStart;
  /// The window's channels in `channelGroups` equal groups: a tile holds
  /// one group (pixels `groupChannels` apart), so the next group's tile
  /// loads while this one's chunks compute, and taller bands fit. Kernel
  /// rows go group by group, then (kh, kw, channel).
  int64_t channelGroups = 1, groupChannels = 0;
  /// Tile columns (padded input columns the output row reads).
  int64_t tileCols = 0;
  std::vector<Trace> traces;
  std::vector<Chunk> chunks;
  int64_t kernelRows = 0;
  /// Weights rows of one slot of a vMAC's weights buffer, and the slots
  /// (2 when two chunks or two blocks' kernels fit at once).
  int64_t slotRows = 0;
  int64_t weightSlots = 1;
  bool hasBias = false;
  /// Elements of the DRAM segment of chunk k of one (block, vMAC): its rows
  /// x 16, plus the bias row for chunk 0.
  std::vector<int64_t> segmentElements;
};

/// Computes the geometry with the window's channels in `channelGroups`
/// groups; an error message when the layer cannot be mapped.
mlir::FailureOr<ConvGeometry> getConvGeometry(const ConvLayer &conv,
                                              const SnowflakeHardware &hw,
                                              int64_t channelGroups,
                                              std::string &error);

/// The weights of block `b` in DRAM order: for vMAC v, for chunk k, the
/// chunk's rows of 16 lanes (then the bias row after chunk 0).
void appendBlockWeights(const ConvLayer &conv, const ConvGeometry &geometry,
                        int64_t block, std::vector<float> &out);

struct ConvSchedule {
  /// CUs that split the output-channel blocks of one band (1, 2 or 4); the
  /// other 4 / split take further bands.
  int64_t blockSplit = 1;
  int64_t bandRows = 1;
  /// MLoop: for each group of blocks, for each group of bands (each CU
  /// keeps its weights, the maps are reloaded); KLoop the other way.
  LoopOrder order = LoopOrder::MLoop;
  /// Maps buffer layout (elements, per CU). With one input slot (when two
  /// do not fit a band worth having), a round's tiles load after the
  /// previous round, not during it.
  int64_t tileRows = 0;
  int64_t inSlot = 0, outSlot = 0, partialSlot = 0;
  int64_t inSlots = 2;
  /// The bands that do not fill a last round of bands (27 rows on 4 CUs
  /// leave 3) are cut into pieces of columns so that every CU takes one:
  /// the CUs run in lockstep, so a round costs its largest piece.
  bool splitTail = false;
  /// The blocks that do not fill a group of `blockSplit` (the last ones)
  /// run in a phase of their own, fewer blocks and more bands (of
  /// `tailBandRows` <= bandRows rows) per round.
  bool splitBlockTail = false;
  int64_t tailBandRows = 0;
  /// That phase comes first (its first step loads fewer blocks' weights).
  bool blockTailFirst = false;
  /// The first step's weights load during the previous convolution's last
  /// step (when a slot is free there and that step hides them).
  bool earlyWeights = false;
  /// The compute of the last step, for the next convolution's early
  /// weights.
  double lastStepCycles = 0;
  /// When not 0, the layer's first step runs in two: rows [0, this) of
  /// its chunk (the pixels' partial sums saved), then the rest, which load
  /// meanwhile: less of the first weights is exposed.
  int64_t firstSplitRows = 0;
  int64_t predictedCycles = 0;
  int64_t dramReadBytes = 0, dramWriteBytes = 0;
};

struct ConvMapping {
  ConvGeometry geometry;
  ConvSchedule schedule;
};

/// What the convolution before a convolution leaves for the second's
/// first weights to load during its last step: a free half of the weights
/// buffers (slot 0 or 1 of a two-slot layout, -1 when none) and the cycles
/// that step computes. (After a layer on the MAX units, nothing: those are
/// bound by DRAM already, so loading weights during them would only move
/// the time from one layer to the other.)
struct FreeWeights {
  int slot = -1;
  double cycles = 0;
};

/// The best geometry (channel groups) and schedule by the model (forced to
/// `policy`'s loop order unless Auto), given what the previous convolution
/// leaves free and what the next one's first weights take to load (0 when
/// there is none or it is not known yet: the layer's last step can hide
/// them); an error message when the layer cannot be mapped or not even one
/// output row fits the maps buffer.
mlir::FailureOr<ConvMapping>
chooseConvMapping(const ConvLayer &conv, const SnowflakeHardware &hw,
                  LoopOrder policy, FreeWeights free,
                  double nextFirstWeightCycles, std::string &error);

/// The schedule in words for the report: the work split, the band shape,
/// the input slots and the weights chunks.
std::string describeConvSchedule(const ConvGeometry &geometry,
                                 const ConvSchedule &schedule);

/// The model's estimate of a layer on the MAX units (pooling, sums): its
/// rounds each compute for `computePerRound` cycles while the rest of its
/// `totalBytes` move; the first round's `firstBytes` are exposed.
int64_t estimateStreamingLayer(int64_t rounds, double computePerRound,
                               int64_t totalBytes, int64_t firstBytes,
                               const SnowflakeHardware &hw);

/// Bands of output rows: band j of image n covers rows [firstRow, firstRow
/// + rows) of it and columns [firstCol, firstCol + cols) (all of them but
/// in a convolution's split tail).
struct Band {
  int64_t image, firstRow, rows;
  int64_t firstCol, cols;
};
std::vector<Band> getBands(const DramView &out, int64_t bandRows);

/// What the four CUs compute at once, and what they need loaded for it.
struct Round {
  /// Per CU: block and band index, or -1 when the CU is idle.
  int64_t block[4], band[4];
  /// Output rows and columns the CUs compute (the most any active CU's
  /// band has).
  int64_t computeRows = 0, computeCols = 0;
  unsigned activeMask = 0;
};

/// The input a round's CUs read for one channel group: each CU's band
/// through its block's window.
struct Tile {
  size_t round;
  int64_t group;
  /// The maps slot; whether it is loaded for this tile (during the
  /// previous tile's last step with two slots, at its first with one), once
  /// for every CU when they share it.
  int slot = 0;
  bool load = false, broadcast = false;
};

/// One chunk of one round (or, for the layer's first step when split,
/// part of it): the unit between synchronisations.
struct Step {
  size_t round;
  size_t chunk;
  size_t tile;
  /// The chunk's rows it takes, [rowBegin, rowEnd) from its first (all of
  /// them but for a split first step).
  int64_t rowBegin = 0, rowEnd = 0;
  int weightSlot = 0;
  /// Its weights are loaded for it: during the previous step when
  /// `prefetch`, else at its start (one weights slot only).
  bool loadWeights = false, prefetch = false;
  /// How: the block most of its CUs use goes to every CU at once (-1 when
  /// no two CUs share one), then each CU of `ownMask` gets its own block,
  /// on the same load/store units so that it lands after.
  int64_t broadcastBlock = -1;
  unsigned ownMask = 0;

  /// Weights segments it loads (per vMAC).
  int64_t getWeightLoads() const {
    return (broadcastBlock >= 0 ? 1 : 0) + llvm::popcount(ownMask);
  }
  /// Whether a pixel starts here (bias or clear, else restore) and ends
  /// here (write-back, else save).
  bool startsPixel() const { return chunk == 0 && rowBegin == 0; }
  bool endsPixel(const ConvGeometry &g) const {
    return chunk + 1 == g.chunks.size() && rowEnd == g.chunks[chunk].rows;
  }
  /// Its weights elements per vMAC: its rows, and the bias row with the
  /// first part of chunk 0.
  int64_t getWeightElements(const ConvGeometry &g) const {
    return (rowEnd - rowBegin + (startsPixel() && g.hasBias ? 1 : 0)) * kLanes;
  }
};

/// A step's traces: its chunk's, cut to its rows.
std::vector<Trace> getStepTraces(const ConvGeometry &geometry,
                                 const Step &step);

struct ConvPlan {
  std::vector<Band> bands;
  std::vector<Round> rounds;
  std::vector<Tile> tiles;
  std::vector<Step> steps;
};

/// The cycles the first step's weights of a plan take to load.
double getFirstWeightCycles(const ConvGeometry &geometry, const ConvPlan &plan,
                            const SnowflakeHardware &hw);

/// The rounds and steps of a schedule, with what each loads and where; the
/// first step's weights go to `firstWeightSlot`.
ConvPlan planConv(const ConvLayer &conv, const ConvGeometry &geometry,
                  const ConvSchedule &schedule, int firstWeightSlot = 0);

} // namespace dlc::snowflake

#endif // DLC_LIB_TARGET_SNOWFLAKE_CONVSCHEDULE_H
