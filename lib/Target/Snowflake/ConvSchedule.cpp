//===- ConvSchedule.cpp - how the vMACs compute one convolution -----------===//

#include "ConvSchedule.h"

#include "dlc/Target/Snowflake/ISA.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The model's time for `bytes` of transfers at once: the shared DRAM's
/// rate or the four ports', whichever is slower, and one DRAM latency.
static double transferCycles(double bytes, const SnowflakeHardware &hw) {
  return std::max(bytes / hw.getDramBytesPerCycle(),
                  bytes / (kLoadStoreUnits * hw.portBytesPerCycle)) +
         hw.dramLatencyCycles;
}

FailureOr<ConvGeometry>
dlc::snowflake::getConvGeometry(const ConvLayer &conv,
                                const SnowflakeHardware &hw,
                                int64_t channelGroups, std::string &error) {
  ConvGeometry g;
  const DramView &in = conv.in, &out = conv.out;
  int64_t channels = in.c, filters = out.c;
  int64_t groupChannels = channels / conv.groups;
  int64_t groupFilters = filters / conv.groups;
  g.blocks = ceilDiv(filters, kBlockChannels);
  // A block's window: the input channels of the groups its filters are in.
  for (int64_t b = 0; b < g.blocks; ++b) {
    int64_t first = b * kBlockChannels;
    int64_t last = std::min(first + kBlockChannels, filters) - 1;
    int64_t lo = first / groupFilters * groupChannels;
    int64_t hi = (last / groupFilters + 1) * groupChannels;
    g.windowChannels = std::max(g.windowChannels, hi - lo);
    g.windowStart.push_back(lo);
  }
  for (int64_t &start : g.windowStart)
    start = std::min(start, channels - g.windowChannels);
  int64_t cr = g.windowChannels;
  if (channelGroups < 1 || cr % channelGroups) {
    error = llvm::formatv("{0} channels do not split in {1} groups", cr,
                          channelGroups)
                .str();
    return failure();
  }
  g.channelGroups = channelGroups;
  g.groupChannels = cr / channelGroups;
  g.tileCols = (out.w - 1) * conv.strideW + (conv.kW - 1) * conv.dilationW + 1;
  g.kernelRows = conv.kH * conv.kW * cr;
  g.hasBias = !conv.bias.empty();

  // Weights slots: two kernels at once when they fit (a CU's next block
  // loads while this one computes), else one, else chunks of half.
  int64_t bufferRows = hw.weightsBufferElements / kLanes;
  int64_t biasRows = g.hasBias ? 1 : 0;
  int64_t chunkCapacity;
  if (g.kernelRows + biasRows <= bufferRows / 2) {
    g.slotRows = bufferRows / 2;
    g.weightSlots = 2;
    chunkCapacity = g.kernelRows;
  } else if (g.kernelRows + biasRows <= bufferRows) {
    g.slotRows = bufferRows;
    g.weightSlots = 1;
    chunkCapacity = g.kernelRows;
  } else {
    g.slotRows = bufferRows / 2;
    g.weightSlots = 2;
    chunkCapacity = g.slotRows - biasRows;
  }
  if (chunkCapacity < 1) {
    error = "the weights buffers hold no kernel rows";
    return failure();
  }

  // Chunks: per channel group the fewest that hold its rows (the first one
  // of all holds the bias row too), as equal as they can be so that every
  // step's compute hides the next step's weights. A run (the stretches of
  // the window adjacent in the tile, a whole row of it unless dilated along
  // the width) that crosses a chunk boundary is two traces.
  int64_t cg = g.groupChannels;
  int64_t rowStride = g.tileCols * cg;
  int64_t groupRows = conv.kH * conv.kW * cg;
  int64_t row = 0;
  for (int64_t group = 0; group < channelGroups; ++group) {
    struct Run {
      int64_t offset, length;
    };
    std::vector<Run> runs;
    for (int64_t kh = 0; kh < conv.kH; ++kh) {
      int64_t base = kh * conv.dilationH * rowStride;
      if (conv.dilationW == 1 || conv.kW == 1) {
        runs.push_back({base, conv.kW * cg});
        continue;
      }
      for (int64_t kw = 0; kw < conv.kW; ++kw)
        runs.push_back({base + kw * conv.dilationW * cg, cg});
    }
    int64_t chunkCount =
        group > 0 ? ceilDiv(groupRows, chunkCapacity + biasRows)
        : groupRows <= chunkCapacity
            ? 1
            : 1 + ceilDiv(groupRows - chunkCapacity, chunkCapacity + biasRows);
    size_t firstChunk = g.chunks.size();
    int64_t groupEnd = row + groupRows, chunkRows = 0;
    for (const Run &run : runs) {
      for (int64_t done = 0; done < run.length;) {
        if (g.chunks.size() == firstChunk ||
            g.chunks.back().rows == chunkRows) {
          int64_t left =
              chunkCount - static_cast<int64_t>(g.chunks.size() - firstChunk);
          chunkRows = std::min(g.chunks.empty() ? chunkCapacity
                                                : chunkCapacity + biasRows,
                               ceilDiv(groupEnd - row, left));
          g.chunks.push_back({g.traces.size(), g.traces.size(), row, 0, group});
        }
        Chunk &chunk = g.chunks.back();
        int64_t length = std::min(chunkRows - chunk.rows, run.length - done);
        g.traces.push_back({run.offset + done, length, row});
        chunk.rows += length;
        chunk.endTrace = g.traces.size();
        row += length;
        done += length;
      }
    }
  }
  for (const Chunk &chunk : g.chunks)
    g.segmentElements.push_back(
        (chunk.rows + (&chunk == &g.chunks.front() ? biasRows : 0)) * kLanes);
  return g;
}

void dlc::snowflake::appendBlockWeights(const ConvLayer &conv,
                                        const ConvGeometry &g, int64_t block,
                                        std::vector<float> &out) {
  int64_t filters = conv.out.c, channels = conv.in.c;
  int64_t groupChannels = channels / conv.groups;
  int64_t groupFilters = filters / conv.groups;
  int64_t cg = g.groupChannels;
  // Row r of the kernel is (kh, kw, c) in trace order.
  std::vector<std::array<int64_t, 3>> rowElement(g.kernelRows);
  for (const Chunk &chunk : g.chunks)
    for (size_t t = chunk.firstTrace; t < chunk.endTrace; ++t) {
      const Trace &trace = g.traces[t];
      for (int64_t i = 0; i < trace.length; ++i) {
        // offset + i = kh dH tileCols cg + kw dW cg + c, decoded.
        int64_t pos = trace.offset + i;
        int64_t rowStride = g.tileCols * cg;
        int64_t kh = pos / rowStride / conv.dilationH;
        int64_t rest = pos - kh * conv.dilationH * rowStride;
        int64_t kw = rest / cg / conv.dilationW;
        int64_t c = rest - kw * conv.dilationW * cg;
        rowElement[trace.row + i] = {kh, kw, chunk.group * cg + c};
      }
    }
  for (int64_t v = 0; v < kVMACsPerUnit; ++v) {
    for (const Chunk &chunk : g.chunks) {
      for (int64_t r = chunk.firstRow; r < chunk.firstRow + chunk.rows; ++r) {
        auto [kh, kw, ci] = rowElement[r];
        int64_t c = g.windowStart[block] + ci;
        for (int64_t l = 0; l < kLanes; ++l) {
          int64_t f = block * kBlockChannels + v * kLanes + l;
          float w = 0;
          if (f < filters && f / groupFilters == c / groupChannels)
            w = conv.weights[((f * groupChannels +
                               (c - f / groupFilters * groupChannels)) *
                                  conv.kH +
                              kh) *
                                 conv.kW +
                             kw];
          out.push_back(w);
        }
      }
      if (&chunk == &g.chunks.front() && g.hasBias)
        for (int64_t l = 0; l < kLanes; ++l) {
          int64_t f = block * kBlockChannels + v * kLanes + l;
          out.push_back(f < filters ? conv.bias[f] : 0.0f);
        }
    }
  }
}

std::vector<Band> dlc::snowflake::getBands(const DramView &out,
                                           int64_t bandRows) {
  std::vector<Band> bands;
  for (int64_t n = 0; n < out.n; ++n)
    for (int64_t row = 0; row < out.h; row += bandRows)
      bands.push_back({n, row, std::min(bandRows, out.h - row), 0, out.w});
  return bands;
}

std::vector<Trace> dlc::snowflake::getStepTraces(const ConvGeometry &g,
                                                 const Step &step) {
  const Chunk &chunk = g.chunks[step.chunk];
  int64_t begin = chunk.firstRow + step.rowBegin;
  int64_t end = chunk.firstRow + step.rowEnd;
  std::vector<Trace> traces;
  for (size_t t = chunk.firstTrace; t < chunk.endTrace; ++t) {
    const Trace &trace = g.traces[t];
    int64_t lo = std::max(begin, trace.row);
    int64_t hi = std::min(end, trace.row + trace.length);
    if (lo < hi)
      traces.push_back({trace.offset + lo - trace.row, hi - lo, lo});
  }
  return traces;
}

double dlc::snowflake::getFirstWeightCycles(const ConvGeometry &g,
                                            const ConvPlan &plan,
                                            const SnowflakeHardware &hw) {
  const Step &first = plan.steps.front();
  double bytes =
      first.getWeightLoads() * kVMACsPerUnit * first.getWeightElements(g) * 2.0;
  return transferCycles(bytes, hw);
}

ConvPlan dlc::snowflake::planConv(const ConvLayer &conv, const ConvGeometry &g,
                                  const ConvSchedule &s, int firstWeightSlot) {
  ConvPlan plan;
  // Bands for rounds of `split` bands: those that do not fill a last round
  // are cut into column pieces, as many per band as make those rounds
  // cheapest.
  auto fillRounds = [&](std::vector<Band> bands, int64_t split) {
    int64_t tail = static_cast<int64_t>(bands.size()) % split;
    if (!tail)
      return bands;
    int64_t width = conv.out.w, best = 1;
    auto cost = [&](int64_t pieces) {
      return ceilDiv(tail * pieces, split) * ceilDiv(width, pieces);
    };
    for (int64_t pieces = 2; pieces <= std::min(split, width); ++pieces)
      if (cost(pieces) < cost(best))
        best = pieces;
    std::vector<Band> whole(bands.end() - tail, bands.end());
    bands.resize(bands.size() - tail);
    int64_t cols = ceilDiv(width, best);
    for (const Band &band : whole)
      for (int64_t col = 0; col < width; col += cols)
        bands.push_back({band.image, band.firstRow, band.rows, col,
                         std::min(cols, width - col)});
    return bands;
  };
  std::vector<Band> whole = getBands(conv.out, s.bandRows);
  plan.bands =
      s.splitTail ? fillRounds(whole, kComputeUnits / s.blockSplit) : whole;

  // Rounds of `split` blocks from `firstBlock` (of `blocks`) by bands from
  // `firstBand` (of `bands`), the bands' group `jg`.
  auto add = [&](int64_t firstBlock, int64_t blocks, int64_t split,
                 int64_t firstBand, int64_t bands, int64_t jg) {
    Round round;
    for (unsigned c = 0; c < kComputeUnits; ++c) {
      int64_t block = firstBlock + c % split;
      int64_t band = jg * (kComputeUnits / split) + c / split;
      bool active = block < firstBlock + blocks && band < bands;
      round.block[c] = active ? block : -1;
      round.band[c] = active ? firstBand + band : -1;
      if (active) {
        const Band &b = plan.bands[firstBand + band];
        round.activeMask |= 1u << c;
        round.computeRows = std::max(round.computeRows, b.rows);
        round.computeCols = std::max(round.computeCols, b.cols);
      }
    }
    plan.rounds.push_back(round);
  };
  // One phase: groups of `split` blocks from `firstBlock`, by groups of the
  // bands from `firstBand`, in the schedule's loop order.
  auto addPhase = [&](int64_t firstBlock, int64_t blocks, int64_t split,
                      int64_t firstBand, int64_t bands) {
    int64_t blockGroups = ceilDiv(blocks, split);
    int64_t bandGroups = ceilDiv(bands, kComputeUnits / split);
    auto group = [&](int64_t bg, int64_t jg) {
      add(firstBlock + bg * split, std::min(split, blocks - bg * split), split,
          firstBand, bands, jg);
    };
    if (s.order == LoopOrder::KLoop) {
      for (int64_t jg = 0; jg < bandGroups; ++jg)
        for (int64_t bg = 0; bg < blockGroups; ++bg)
          group(bg, jg);
    } else {
      for (int64_t bg = 0; bg < blockGroups; ++bg)
        for (int64_t jg = 0; jg < bandGroups; ++jg)
          group(bg, jg);
    }
  };
  // The blocks that do not fill a last group (6 blocks in twos on 4 CUs
  // leave 2) run, with splitBlockTail, in a phase of their own with fewer
  // blocks and more bands per round, so that no CU idles.
  int64_t leftover = g.blocks % s.blockSplit;
  if (s.splitBlockTail && leftover) {
    int64_t mainBlocks = g.blocks - leftover;
    int64_t mainBands = plan.bands.size();
    int64_t split = leftover == 2 ? 2 : 1;
    std::vector<Band> tail =
        fillRounds(getBands(conv.out, s.tailBandRows), kComputeUnits / split);
    plan.bands.insert(plan.bands.end(), tail.begin(), tail.end());
    // The leftover blocks first when their phase's first step loads fewer
    // weights (fewer distinct blocks): less of the layer's start exposed.
    if (s.blockTailFirst)
      addPhase(mainBlocks, leftover, split, mainBands, tail.size());
    addPhase(0, mainBlocks, s.blockSplit, 0, mainBands);
    if (!s.blockTailFirst)
      addPhase(mainBlocks, leftover, split, mainBands, tail.size());
  } else {
    addPhase(0, g.blocks, s.blockSplit, 0, plan.bands.size());
  }

  // A CU's tile is its band through its block's channel window. The slot
  // changes for every CU when any CU's tile changes (the CUs read the same
  // addresses); a shared tile is one broadcast load.
  auto tileOf = [&](const Round &r, unsigned c) {
    const Band &b = plan.bands[r.band[c]];
    return std::make_tuple(b.image, b.firstRow, b.rows, b.firstCol, b.cols,
                           g.windowStart[r.block[c]]);
  };
  for (size_t r = 0; r < plan.rounds.size(); ++r) {
    const Round &round = plan.rounds[r];
    const Round *previousRound = r ? &plan.rounds[r - 1] : nullptr;
    for (int64_t group = 0; group < g.channelGroups; ++group) {
      const Tile *previous = plan.tiles.empty() ? nullptr : &plan.tiles.back();
      Tile tile{r, group};
      // Another group always loads; the same group of the same windows
      // only when the round is the first.
      bool changed = !previous || g.channelGroups > 1;
      bool shared = true;
      std::optional<decltype(tileOf(round, 0))> first;
      for (unsigned c = 0; c < kComputeUnits; ++c) {
        if (round.block[c] < 0)
          continue;
        if (!first)
          first = tileOf(round, c);
        shared &= tileOf(round, c) == *first;
        if (previousRound && (previousRound->block[c] < 0 ||
                              tileOf(*previousRound, c) != tileOf(round, c)))
          changed = true;
      }
      tile.load = changed;
      tile.broadcast = shared;
      tile.slot = !previous || s.inSlots == 1 ? 0
                  : changed                   ? 1 - previous->slot
                                              : previous->slot;
      plan.tiles.push_back(tile);
    }
  }

  // Weights: a step's CUs need (block, chunk). With two slots, a step whose
  // weights a slot still holds for every CU it uses loads nothing (two
  // blocks of one chunk each stay for the whole layer); else they load
  // into the slot the step before does not read, during that step. With
  // one slot they load at the step's start.
  using Held = std::pair<int64_t, size_t>;
  Held held[2][kComputeUnits];
  for (auto &slot : held)
    for (Held &h : slot)
      h = {-1, 0};
  const Step *last = nullptr;
  for (size_t r = 0; r < plan.rounds.size(); ++r) {
    const Round &round = plan.rounds[r];
    for (size_t k = 0; k < g.chunks.size(); ++k) {
      Step step{r, k, r * g.channelGroups + g.chunks[k].group};
      step.rowEnd = g.chunks[k].rows;
      // The block the most CUs share (the first of equals) is broadcast.
      int64_t users = 1;
      for (unsigned c = 0; c < kComputeUnits; ++c) {
        int64_t count = 0;
        for (unsigned d = 0; d < kComputeUnits; ++d)
          count += round.block[c] >= 0 && round.block[d] == round.block[c];
        if (count > users) {
          users = count;
          step.broadcastBlock = round.block[c];
        }
      }
      for (unsigned c = 0; c < kComputeUnits; ++c)
        if (round.block[c] >= 0 && round.block[c] != step.broadcastBlock)
          step.ownMask |= 1u << c;
      auto holds = [&](int slot) {
        for (unsigned c = 0; c < kComputeUnits; ++c)
          if (round.block[c] >= 0 && held[slot][c] != Held{round.block[c], k})
            return false;
        return true;
      };
      int slots = g.weightSlots == 2 ? 2 : 1;
      int hit = -1;
      for (int slot = 0; slot < slots && last; ++slot)
        if (holds(slot))
          hit = slot;
      if (last && holds(last->weightSlot))
        hit = last->weightSlot;
      if (hit >= 0) {
        step.weightSlot = hit;
      } else {
        step.loadWeights = true;
        step.weightSlot = slots == 1 ? 0
                          : last     ? 1 - last->weightSlot
                                     : firstWeightSlot;
        step.prefetch = slots == 2 || !last;
        for (unsigned c = 0; c < kComputeUnits; ++c) {
          if (step.broadcastBlock >= 0)
            held[step.weightSlot][c] = {step.broadcastBlock, k};
          if (step.ownMask & (1u << c))
            held[step.weightSlot][c] = {round.block[c], k};
        }
      }
      plan.steps.push_back(step);
      last = &plan.steps.back();
    }
  }
  // The split first step: its second part loads during the first, into
  // the same slot.
  if (s.firstSplitRows > 0 && s.firstSplitRows < plan.steps.front().rowEnd) {
    Step second = plan.steps.front();
    plan.steps.front().rowEnd = s.firstSplitRows;
    second.rowBegin = s.firstSplitRows;
    second.prefetch = true;
    plan.steps.insert(plan.steps.begin() + 1, second);
  }
  return plan;
}

namespace {

/// The model's estimate of one schedule: the steps in lockstep, each
/// bounded by the slower of its compute and the transfers overlapped with
/// it (the next step's weights, the next round's maps, the last round's
/// outputs), at the DRAM's rate and the four ports'.
struct Estimate {
  double cycles = 0;
  int64_t readBytes = 0, writeBytes = 0;
  bool earlyWeights = false;
  double lastStepCycles = 0;
};

Estimate estimate(const ConvLayer &conv, const ConvGeometry &g,
                  const ConvSchedule &s, const SnowflakeHardware &hw,
                  FreeWeights free) {
  ConvPlan plan = planConv(conv, g, s);
  auto transfer = [&](int64_t bytes) {
    return bytes ? transferCycles(bytes, hw) : 0.0;
  };
  // Per pixel and step: the traces, the accumulator setup and the
  // write-back (or save), or the control core's issue when it is slower.
  auto pixelCycles = [&](const Step &step) {
    std::vector<Trace> traces = getStepTraces(g, step);
    double mac = 0;
    for (const Trace &trace : traces)
      mac += trace.length;
    mac += (step.startsPixel() ? 1 : 8) + (step.endsPixel(g) ? 4 : 8);
    double issue = 2.0 * traces.size() + 9;
    return std::max(mac, issue);
  };
  // A tile's bytes: its bands' windows (one when broadcast), when loaded.
  auto tileBytes = [&](const Tile &tile) {
    if (!tile.load)
      return int64_t(0);
    const Round &round = plan.rounds[tile.round];
    int64_t bytes = 0;
    for (unsigned c = 0; c < kComputeUnits; ++c) {
      if (round.block[c] < 0)
        continue;
      const Band &band = plan.bands[round.band[c]];
      int64_t cols =
          (band.cols - 1) * conv.strideW + (conv.kW - 1) * conv.dilationW + 1;
      bytes += s.tileRows * cols * g.groupChannels * 2;
      if (tile.broadcast)
        break;
    }
    return bytes;
  };
  auto weightBytes = [&](const Step &step) -> int64_t {
    if (!step.loadWeights)
      return 0;
    return step.getWeightLoads() * kVMACsPerUnit * step.getWeightElements(g) *
           2;
  };
  auto storeBytes = [&](const Round &round) {
    int64_t bytes = 0;
    for (unsigned c = 0; c < kComputeUnits; ++c)
      if (round.block[c] >= 0)
        bytes += plan.bands[round.band[c]].rows *
                 plan.bands[round.band[c]].cols *
                 std::min(kBlockChannels,
                          conv.out.c - round.block[c] * kBlockChannels) *
                 2;
    return bytes;
  };
  Estimate est;
  est.earlyWeights = free.slot >= 0 && g.weightSlots == 2 &&
                     transfer(weightBytes(plan.steps.front())) <= free.cycles;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step &step = plan.steps[i];
    const Round &round = plan.rounds[step.round];
    double compute =
        round.computeRows * round.computeCols * pixelCycles(step) + 30;
    int64_t overlapped = 0;
    if (i + 1 < plan.steps.size() && plan.steps[i + 1].prefetch)
      overlapped += weightBytes(plan.steps[i + 1]);
    bool firstOfTile = i == 0 || plan.steps[i - 1].tile != step.tile;
    bool lastOfTile =
        i + 1 == plan.steps.size() || plan.steps[i + 1].tile != step.tile;
    const Tile &tile = plan.tiles[step.tile];
    if (s.inSlots == 2 && lastOfTile && step.tile + 1 < plan.tiles.size())
      overlapped += tileBytes(plan.tiles[step.tile + 1]);
    if (step.chunk == 0 && step.round > 0)
      overlapped += storeBytes(plan.rounds[step.round - 1]);
    // Loads that cannot overlap: the first step's, and a single slot's.
    double exposed = 0;
    if (i == 0)
      exposed += transfer((est.earlyWeights ? 0 : weightBytes(step)) +
                          tileBytes(tile));
    else if (step.loadWeights && !step.prefetch)
      exposed += transfer(weightBytes(step));
    if (i > 0 && s.inSlots == 1 && firstOfTile)
      exposed += transfer(tileBytes(tile));
    est.cycles += exposed + std::max(compute, transfer(overlapped));
    est.lastStepCycles = compute;
    est.readBytes += weightBytes(step);
    if (firstOfTile)
      est.readBytes += tileBytes(tile);
  }
  int64_t lastStores = storeBytes(plan.rounds.back());
  est.cycles += transfer(lastStores);
  for (const Round &round : plan.rounds)
    est.writeBytes += storeBytes(round);
  return est;
}

} // namespace

std::string dlc::snowflake::describeConvSchedule(const ConvGeometry &g,
                                                 const ConvSchedule &s) {
  auto plural = [](int64_t n) { return n > 1 ? "s" : ""; };
  int64_t bands = kComputeUnits / s.blockSplit;
  std::string text =
      llvm::formatv("{0} block{1} x {2} band{3} of {4} row{5} per round, {6} "
                    "input slot{7}, {8} weights chunk{9}",
                    s.blockSplit, plural(s.blockSplit), bands, plural(bands),
                    s.bandRows, plural(s.bandRows), s.inSlots,
                    plural(s.inSlots), g.chunks.size(), plural(g.chunks.size()))
          .str();
  if (g.channelGroups > 1)
    text += llvm::formatv(", channels in {0} groups", g.channelGroups).str();
  if (s.splitTail)
    text += ", the last bands in column pieces";
  if (s.earlyWeights)
    text += ", its first weights during the previous layer";
  if (s.firstSplitRows)
    text += llvm::formatv(", the first step in two (its first {0} rows "
                          "first)",
                          s.firstSplitRows)
                .str();
  if (s.splitBlockTail)
    text += llvm::formatv(", the {0} blocks over all CUs in bands of {1} "
                          "row{2}",
                          s.blockTailFirst ? "first" : "last", s.tailBandRows,
                          plural(s.tailBandRows))
                .str();
  return text;
}

int64_t dlc::snowflake::estimateStreamingLayer(int64_t rounds,
                                               double computePerRound,
                                               int64_t totalBytes,
                                               int64_t firstBytes,
                                               const SnowflakeHardware &hw) {
  double cycles = transferCycles(firstBytes, hw) +
                  std::max(rounds * (computePerRound + 30),
                           transferCycles(totalBytes - firstBytes, hw));
  return static_cast<int64_t>(std::ceil(cycles));
}

FailureOr<ConvMapping> dlc::snowflake::chooseConvMapping(
    const ConvLayer &conv, const SnowflakeHardware &hw, LoopOrder policy,
    FreeWeights free, double nextFirstWeightCycles, std::string &error) {
  std::optional<ConvMapping> best;
  double bestCycles = 0;
  std::optional<ConvGeometry> tried;
  // Whether the schedule fits the maps buffer; the best one so far kept.
  auto consider = [&](const ConvGeometry &g, ConvSchedule s) {
    int64_t partialPerPixel =
        g.chunks.size() > 1 || s.firstSplitRows ? 2 * kBlockChannels : 0;
    s.tileRows =
        (s.bandRows - 1) * conv.strideH + (conv.kH - 1) * conv.dilationH + 1;
    s.inSlot = s.tileRows * g.tileCols * g.groupChannels;
    s.outSlot = s.bandRows * conv.out.w * kBlockChannels;
    s.partialSlot = s.bandRows * conv.out.w * partialPerPixel;
    if (s.inSlots * s.inSlot + 2 * s.outSlot + s.partialSlot >
        hw.mapsBufferElements)
      return false;
    Estimate e = estimate(conv, g, s, hw, free);
    s.earlyWeights = e.earlyWeights;
    s.lastStepCycles = e.lastStepCycles;
    s.predictedCycles = static_cast<int64_t>(std::ceil(e.cycles));
    s.dramReadBytes = e.readBytes;
    s.dramWriteBytes = e.writeBytes;
    // What the next convolution's first weights will cost it: hidden by
    // a last step long enough, with a free weights slot.
    double cost = e.cycles;
    if (nextFirstWeightCycles > 0)
      cost += g.weightSlots == 2
                  ? std::max(0.0, nextFirstWeightCycles - e.lastStepCycles)
                  : nextFirstWeightCycles;
    if (!best || cost < bestCycles) {
      best = ConvMapping{g, s};
      bestCycles = cost;
    }
    return true;
  };
  // Channel groups of whole 64-bit beats (4 channels), up to 4.
  for (int64_t groups = 1; groups <= 4; ++groups) {
    std::string message;
    FailureOr<ConvGeometry> geometry =
        getConvGeometry(conv, hw, groups, message);
    if (failed(geometry)) {
      if (groups == 1) {
        error = message;
        return failure();
      }
      continue;
    }
    const ConvGeometry &g = *geometry;
    if (groups > 1 && g.groupChannels % 4)
      continue;
    tried = g;
    for (int64_t split : {1, 2, 4}) {
      if (split > 1 && g.blocks < split)
        continue;
      for (LoopOrder order : {LoopOrder::MLoop, LoopOrder::KLoop}) {
        if (policy != LoopOrder::Auto && policy != order)
          continue;
        for (int64_t slots : {2, 1})
          for (int64_t rows = 1; rows <= conv.out.h; ++rows) {
            ConvSchedule s;
            s.blockSplit = split;
            s.bandRows = rows;
            s.order = order;
            s.inSlots = slots;
            if (!consider(g, s))
              break;
            int64_t bands = conv.out.n * ceilDiv(conv.out.h, rows);
            bool bandTail = bands % (kComputeUnits / split);
            bool blockTail = g.blocks % split;
            for (int variant = 1; variant < 4; ++variant) {
              s.splitTail = variant & 1;
              s.splitBlockTail = variant & 2;
              if ((s.splitTail && !bandTail) ||
                  (s.splitBlockTail && !blockTail))
                continue;
              if (!s.splitBlockTail) {
                consider(g, s);
                continue;
              }
              for (s.tailBandRows = 1; s.tailBandRows <= rows; ++s.tailBandRows)
                for (bool first : {false, true}) {
                  s.blockTailFirst = first;
                  consider(g, s);
                }
              s.tailBandRows = 0;
              s.blockTailFirst = false;
            }
          }
      }
    }
  }
  // The best schedule with its first step split, at a few points of its
  // first chunk (when its weights are not loaded early anyway).
  if (best && !best->schedule.earlyWeights) {
    ConvMapping chosen = *best;
    int64_t rows = chosen.geometry.chunks.front().rows;
    for (int64_t part : {8, 4, 3, 2}) {
      ConvSchedule s = chosen.schedule;
      s.firstSplitRows = rows / part;
      if (s.firstSplitRows >= 1)
        consider(chosen.geometry, s);
    }
  }
  if (!best) {
    // What the most channel groups tried need.
    const ConvGeometry &g = *tried;
    int64_t partialPerPixel = g.chunks.size() > 1 ? 2 * kBlockChannels : 0;
    int64_t tileRows = (conv.kH - 1) * conv.dilationH + 1;
    int64_t need = 2 * tileRows * g.tileCols * g.groupChannels +
                   2 * conv.out.w * kBlockChannels +
                   conv.out.w * partialPerPixel;
    std::string groups =
        g.channelGroups > 1 ? llvm::formatv(" (the window's {0} in {1} groups)",
                                            g.windowChannels, g.channelGroups)
                                  .str()
                            : "";
    error = llvm::formatv("one output row needs {0} elements of maps buffer "
                          "(two input tiles of {1} rows x {2} columns x {3} "
                          "channels{4}, two output rows{5}), more than the {6} "
                          "a CU has",
                          need, tileRows, g.tileCols, g.groupChannels, groups,
                          partialPerPixel ? " and the partial sums" : "",
                          hw.mapsBufferElements)
                .str();
    return failure();
  }
  return *best;
}
