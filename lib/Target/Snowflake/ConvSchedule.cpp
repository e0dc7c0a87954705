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

ConvPlan dlc::snowflake::planConv(const ConvLayer &conv, const ConvGeometry &g,
                                  const ConvSchedule &s) {
  ConvPlan plan;
  plan.bands = getBands(conv.out, s.bandRows);
  int64_t bandSplit = kComputeUnits / s.blockSplit;
  int64_t tail = static_cast<int64_t>(plan.bands.size()) % bandSplit;
  if (s.splitTail && tail) {
    // The pieces per band that make the tail's rounds cheapest.
    int64_t width = conv.out.w, best = 1;
    auto cost = [&](int64_t pieces) {
      return ceilDiv(tail * pieces, bandSplit) * ceilDiv(width, pieces);
    };
    for (int64_t pieces = 2; pieces <= std::min(bandSplit, width); ++pieces)
      if (cost(pieces) < cost(best))
        best = pieces;
    std::vector<Band> whole(plan.bands.end() - tail, plan.bands.end());
    plan.bands.resize(plan.bands.size() - tail);
    int64_t cols = ceilDiv(width, best);
    for (const Band &band : whole)
      for (int64_t col = 0; col < width; col += cols)
        plan.bands.push_back({band.image, band.firstRow, band.rows, col,
                              std::min(cols, width - col)});
  }
  int64_t bands = plan.bands.size();
  int64_t blockGroups = ceilDiv(g.blocks, s.blockSplit);
  int64_t bandGroups = ceilDiv(bands, bandSplit);
  auto add = [&](int64_t bg, int64_t jg) {
    Round round;
    for (unsigned c = 0; c < kComputeUnits; ++c) {
      int64_t block = bg * s.blockSplit + c % s.blockSplit;
      int64_t band = jg * bandSplit + c / s.blockSplit;
      bool active = block < g.blocks && band < bands;
      round.block[c] = active ? block : -1;
      round.band[c] = active ? band : -1;
      if (active) {
        round.activeMask |= 1u << c;
        round.computeRows = std::max(round.computeRows, plan.bands[band].rows);
        round.computeCols = std::max(round.computeCols, plan.bands[band].cols);
      }
    }
    plan.rounds.push_back(round);
  };
  if (s.order == LoopOrder::KLoop) {
    for (int64_t jg = 0; jg < bandGroups; ++jg)
      for (int64_t bg = 0; bg < blockGroups; ++bg)
        add(bg, jg);
  } else {
    for (int64_t bg = 0; bg < blockGroups; ++bg)
      for (int64_t jg = 0; jg < bandGroups; ++jg)
        add(bg, jg);
  }

  // A CU's tile is its band through its block's channel window. The slot
  // changes for every CU when any CU's tile changes (the CUs read the same
  // addresses); a shared tile is one broadcast load.
  auto tileOf = [&](const Round &r, unsigned c) {
    return std::make_pair(r.band[c], g.windowStart[r.block[c]]);
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
      std::optional<std::pair<int64_t, int64_t>> first;
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

  // Weights: a step's CUs need (block, chunk); the slot flips when that
  // changes for any CU, and the load is overlapped unless there is one slot.
  const Step *last = nullptr;
  for (size_t r = 0; r < plan.rounds.size(); ++r) {
    const Round &round = plan.rounds[r];
    for (size_t k = 0; k < g.chunks.size(); ++k) {
      Step step{r, k, r * g.channelGroups + g.chunks[k].group};
      bool changed = !last || last->chunk != k;
      bool shared = true;
      int64_t firstBlock = -1;
      for (unsigned c = 0; c < kComputeUnits; ++c) {
        if (round.block[c] < 0)
          continue;
        if (firstBlock < 0)
          firstBlock = round.block[c];
        shared &= round.block[c] == firstBlock;
        if (last && plan.rounds[last->round].block[c] != round.block[c])
          changed = true;
      }
      step.loadWeights = changed;
      step.weightsBroadcast = shared;
      if (g.weightSlots == 2) {
        step.weightSlot = !last     ? 0
                          : changed ? 1 - last->weightSlot
                                    : last->weightSlot;
        step.prefetch = changed;
      } else {
        step.weightSlot = 0;
        step.prefetch = changed && !last;
      }
      plan.steps.push_back(step);
      last = &plan.steps.back();
    }
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
};

Estimate estimate(const ConvLayer &conv, const ConvGeometry &g,
                  const ConvSchedule &s, const SnowflakeHardware &hw) {
  ConvPlan plan = planConv(conv, g, s);
  double dramPerCycle = hw.getDramBytesPerCycle();
  double ports = kLoadStoreUnits * hw.portBytesPerCycle;
  auto transferCycles = [&](int64_t bytes) {
    return bytes ? std::max(bytes / dramPerCycle, bytes / ports) +
                       hw.dramLatencyCycles
                 : 0.0;
  };
  // Per pixel and chunk: the traces, the accumulator setup and the
  // write-back (or save), or the control core's issue when it is slower.
  std::vector<double> pixelCycles;
  for (const Chunk &chunk : g.chunks) {
    double mac = 0;
    for (size_t t = chunk.firstTrace; t < chunk.endTrace; ++t)
      mac += g.traces[t].length;
    mac += (&chunk == &g.chunks.front() ? 1 : 8) +
           (&chunk == &g.chunks.back() ? 4 : 8);
    double issue = 2.0 * (chunk.endTrace - chunk.firstTrace) + 9;
    pixelCycles.push_back(std::max(mac, issue));
  }
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
    const Round &round = plan.rounds[step.round];
    int64_t cus = step.weightsBroadcast ? 1 : llvm::popcount(round.activeMask);
    return cus * kVMACsPerUnit * g.segmentElements[step.chunk] * 2;
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
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step &step = plan.steps[i];
    const Round &round = plan.rounds[step.round];
    double compute =
        round.computeRows * round.computeCols * pixelCycles[step.chunk] + 30;
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
      exposed += transferCycles(weightBytes(step) + tileBytes(tile));
    else if (step.loadWeights && !step.prefetch)
      exposed += transferCycles(weightBytes(step));
    if (i > 0 && s.inSlots == 1 && firstOfTile)
      exposed += transferCycles(tileBytes(tile));
    est.cycles += exposed + std::max(compute, transferCycles(overlapped));
    est.readBytes += weightBytes(step);
    if (firstOfTile)
      est.readBytes += tileBytes(tile);
  }
  int64_t lastStores = storeBytes(plan.rounds.back());
  est.cycles += transferCycles(lastStores);
  for (const Round &round : plan.rounds)
    est.writeBytes += storeBytes(round);
  return est;
}

} // namespace

std::string dlc::snowflake::describeConvSchedule(const ConvGeometry &g,
                                                 const ConvSchedule &s) {
  return llvm::formatv(
             "{0} block{1} x {2} band{3} of {4} row{5} per round, "
             "{6} input slot{7}, {8} weights chunk{9}{10}{11}",
             s.blockSplit, s.blockSplit > 1 ? "s" : "",
             kComputeUnits / s.blockSplit,
             s.blockSplit < kComputeUnits ? "s" : "", s.bandRows,
             s.bandRows > 1 ? "s" : "", s.inSlots, s.inSlots > 1 ? "s" : "",
             g.chunks.size(), g.chunks.size() > 1 ? "s" : "",
             g.channelGroups > 1
                 ? llvm::formatv(", channels in {0} groups", g.channelGroups)
                       .str()
                 : std::string(),
             s.splitTail ? ", the last bands in column pieces" : "")
      .str();
}

int64_t dlc::snowflake::estimateStreamingLayer(int64_t rounds,
                                               double computePerRound,
                                               int64_t totalBytes,
                                               int64_t firstBytes,
                                               const SnowflakeHardware &hw) {
  auto transfer = [&](int64_t bytes) {
    return std::max(bytes / hw.getDramBytesPerCycle(),
                    bytes / double(kLoadStoreUnits * hw.portBytesPerCycle)) +
           hw.dramLatencyCycles;
  };
  double cycles =
      transfer(firstBytes) + std::max(rounds * (computePerRound + 30),
                                      transfer(totalBytes - firstBytes));
  return static_cast<int64_t>(std::ceil(cycles));
}

FailureOr<ConvMapping>
dlc::snowflake::chooseConvMapping(const ConvLayer &conv,
                                  const SnowflakeHardware &hw, LoopOrder policy,
                                  std::string &error) {
  std::optional<ConvMapping> best;
  double bestCycles = 0;
  std::optional<ConvGeometry> tried;
  // Whether the schedule fits the maps buffer; the best one so far kept.
  auto consider = [&](const ConvGeometry &g, ConvSchedule s) {
    int64_t partialPerPixel = g.chunks.size() > 1 ? 2 * kBlockChannels : 0;
    s.tileRows =
        (s.bandRows - 1) * conv.strideH + (conv.kH - 1) * conv.dilationH + 1;
    s.inSlot = s.tileRows * g.tileCols * g.groupChannels;
    s.outSlot = s.bandRows * conv.out.w * kBlockChannels;
    s.partialSlot = s.bandRows * conv.out.w * partialPerPixel;
    if (s.inSlots * s.inSlot + 2 * s.outSlot + s.partialSlot >
        hw.mapsBufferElements)
      return false;
    Estimate e = estimate(conv, g, s, hw);
    s.predictedCycles = static_cast<int64_t>(std::ceil(e.cycles));
    s.dramReadBytes = e.readBytes;
    s.dramWriteBytes = e.writeBytes;
    if (!best || e.cycles < bestCycles) {
      best = ConvMapping{g, s};
      bestCycles = e.cycles;
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
            s.splitTail = true;
            if (bands % (kComputeUnits / split))
              consider(g, s);
          }
      }
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
