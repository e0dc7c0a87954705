//===- LowerLayers.cpp - a model's layers as one snowflake.program --------===//
//
// Layers.cpp turns the entry function into layers, ConvSchedule.cpp picks
// each convolution's schedule; this file writes the instructions (see
// Passes.td for the shape of the code) and the data section.
//
//===----------------------------------------------------------------------===//

#include "ConvSchedule.h"
#include "Layers.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Snowflake/ISA.h"
#include "dlc/Target/Snowflake/NumberFormat.h"
#include "dlc/Target/Snowflake/Passes.h"
#include "dlc/Target/Snowflake/SnowflakeHardware.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

namespace dlc::snowflake {
#define GEN_PASS_DEF_LOWERLAYERS
#include "dlc/Target/Snowflake/Passes.h.inc"
} // namespace dlc::snowflake

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

namespace {

constexpr unsigned kAllUnits = (1u << 12) - 1;

unsigned macMask(unsigned cus) { return cus << kSyncMACBit; }
unsigned maxMask(unsigned cus) { return cus << kSyncMAXBit; }

/// What a transfer is for (the unbalanced assignment gives each its unit).
enum class Role { Maps, Weights, Store };

/// Writes instructions at the end of the program's body.
class CodeWriter {
public:
  CodeWriter(ProgramOp program, const SnowflakeHardware &hw, bool balance)
      : b(program.getBody().front().getTerminator()), hw(hw), balance(balance) {
  }

  void setLayer(Location loc) {
    this->loc = loc;
    for (double &bytes : lsuBytes)
      bytes = 0;
  }
  Location getLoc() const { return loc; }

  Value constant(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
  }
  Value add(Value a, int64_t offset) {
    if (!offset)
      return a;
    return arith::AddIOp::create(b, loc, a, constant(offset));
  }

  void sync(unsigned mask) {
    if (mask)
      SyncOp::create(b, loc, mask);
  }

  /// While deferring, transfers and fills are queued in order instead of
  /// written, for a step to spread between its pixels: the control core
  /// issues in order and stalls on a full unit queue, so a burst of them
  /// before the compute would leave the vMACs idle.
  void setDeferring(bool on) { deferring = on; }
  std::vector<std::function<void()>> takeDeferred() {
    return std::exchange(deferred, {});
  }
  void emit(std::function<void()> write) {
    if (deferring)
      deferred.push_back(std::move(write));
    else
      write();
  }
  void fill(unsigned cus, int64_t address, int64_t value, int64_t length) {
    emit([=, this] {
      VFillOp::create(b, loc, cus, constant(address), constant(value),
                      constant(length));
    });
  }

  /// One `ld`/`st` of `rows` rows of `length` elements; the unit is
  /// `forceUnit`, or comes from the balancing (or the role), and gets
  /// `lscfg` when its shape changes. Returns the unit's sync bit.
  unsigned transfer(Role role, bool load, unsigned buffer, int64_t bufferAddr,
                    int64_t dramAddr, int64_t rows, int64_t length,
                    int64_t dramStride, int64_t bufferStride,
                    int forceUnit = -1) {
    if (rows == 1)
      dramStride = bufferStride = 0;
    double bytes = 2.0 * rows * length;
    unsigned unit;
    if (forceUnit >= 0) {
      unit = forceUnit;
    } else if (balance) {
      unit = 0;
      for (unsigned u = 1; u < kLoadStoreUnits; ++u)
        if (lsuBytes[u] < lsuBytes[unit])
          unit = u;
    } else {
      unit = role == Role::Maps ? 0 : role == Role::Weights ? 1 : 2;
    }
    lsuBytes[unit] += bytes;
    emit([=, this] {
      Shape shape{rows, dramStride, bufferStride};
      if (!(shapes[unit] == shape)) {
        LsConfigOp::create(b, loc, unit, constant(rows), constant(dramStride),
                           constant(bufferStride));
        shapes[unit] = shape;
      }
      if (load)
        LoadOp::create(b, loc, unit, buffer, constant(bufferAddr),
                       constant(dramAddr), constant(length));
      else
        StoreOp::create(b, loc, unit, buffer, constant(bufferAddr),
                        constant(dramAddr), constant(length));
    });
    return 1u << (kSyncLSUBit + unit);
  }

  OpBuilder b;
  const SnowflakeHardware &hw;

private:
  struct Shape {
    int64_t rows = -1, dramStride = -1, bufferStride = -1;
    bool operator==(const Shape &o) const {
      return rows == o.rows && dramStride == o.dramStride &&
             bufferStride == o.bufferStride;
    }
  } shapes[kLoadStoreUnits];
  double lsuBytes[kLoadStoreUnits] = {};
  bool balance;
  bool deferring = false;
  std::vector<std::function<void()>> deferred;
  Location loc = UnknownLoc::get(b.getContext());
};

/// Emits `count` iterations of `body` (as a loop unless there is one),
/// carrying `inits` forward by `steps` each iteration.
void emitLoop(CodeWriter &w, int64_t count, ValueRange inits,
              ArrayRef<int64_t> steps, function_ref<void(ValueRange)> body) {
  if (count <= 0)
    return;
  if (count == 1) {
    body(inits);
    return;
  }
  OpBuilder &b = w.b;
  Location loc = w.getLoc();
  auto loop = scf::ForOp::create(b, loc, w.constant(0), w.constant(count),
                                 w.constant(1), inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> args(loop.getRegionIterArgs());
  body(args);
  SmallVector<Value> next;
  for (auto [arg, step] : llvm::zip(args, steps))
    next.push_back(w.add(arg, step));
  scf::YieldOp::create(b, loc, next);
}

/// Per-layer results for the program's `layers`.
struct LayerResult {
  int64_t hardwareMacs = 0;
  std::string loopOrder = "none";
  std::string schedule;
  int64_t predictedCycles = 0;
  int64_t readBytes = 0, writeBytes = 0;
};

/// A convolution's mapping, plan and weights, chosen before any layer is
/// written, so that the layer before it can load its first weights.
struct PreparedConv {
  ConvMapping mapping;
  ConvPlan plan;
  /// vMAC v's chunk k of block b at segment[b][v][k] in DRAM.
  std::vector<std::vector<std::vector<int64_t>>> segment;

  /// What it leaves free for the next layer's first weights.
  FreeWeights getFreeWeights() const {
    if (mapping.geometry.weightSlots != 2)
      return {};
    return {1 - plan.steps.back().weightSlot, mapping.schedule.lastStepCycles};
  }
};

class Lowering {
public:
  Lowering(ProgramOp program, const SnowflakeHardware &hw, LoopOrder policy,
           bool balance, int64_t dataAddress)
      : w(program, hw, balance), hw(hw), policy(policy),
        dataAddress(dataAddress) {}

  /// Chooses a convolution's mapping and plan (see chooseConvMapping).
  FailureOr<PreparedConv> prepareConv(const Layer &layer, FreeWeights free,
                                      double nextFirstWeightCycles);
  /// Puts its weights in the data section.
  void appendConvWeights(const Layer &layer, PreparedConv &prepared);
  /// Loads a step's weights; returns the load/store units' sync bits.
  unsigned loadConvWeights(const PreparedConv &conv, const Step &step);
  /// Writes a convolution; `prefetchNext`, when set, loads the next
  /// convolution's first weights during its last step.
  FailureOr<LayerResult> lowerConv(const Layer &layer,
                                   const PreparedConv &prepared,
                                   function_ref<void()> prefetchNext);
  FailureOr<LayerResult> lowerPool(const Layer &layer);
  FailureOr<LayerResult> lowerElementwise(const Layer &layer);

  std::vector<uint16_t> data;
  CodeWriter w;

private:
  /// Appends `values` in the machine's operand format; returns their DRAM
  /// address and counts in `saturated` those outside its range.
  int64_t appendData(ArrayRef<float> values, int64_t &saturated) {
    int64_t at = dataAddress + data.size();
    OperandFormat format = hw.getOperandFormat();
    for (float v : values) {
      bool outside;
      data.push_back(format.encode(v, &outside));
      saturated += outside;
    }
    // Segments start on whole 64-bit beats.
    while (data.size() % 4)
      data.push_back(0);
    return at;
  }

  const SnowflakeHardware &hw;
  LoopOrder policy;
  int64_t dataAddress;
};

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

FailureOr<PreparedConv> Lowering::prepareConv(const Layer &layer,
                                              FreeWeights free,
                                              double nextFirstWeightCycles) {
  const ConvLayer &conv = layer.conv;
  std::string message;
  FailureOr<ConvMapping> mapping =
      chooseConvMapping(conv, hw, policy, free, nextFirstWeightCycles, message);
  if (failed(mapping))
    return emitError(layer.loc)
           << "snowflake: '" << layer.name << "' (" << layer.opType
           << ") does not fit: " << message;
  PreparedConv prepared;
  prepared.mapping = *mapping;
  const ConvGeometry &g = mapping->geometry;
  prepared.plan = planConv(conv, g, mapping->schedule,
                           mapping->schedule.earlyWeights ? free.slot : 0);
  return prepared;
}

void Lowering::appendConvWeights(const Layer &layer, PreparedConv &prepared) {
  const ConvLayer &conv = layer.conv;
  const ConvGeometry &g = prepared.mapping.geometry;
  // Block by block.
  prepared.segment.resize(g.blocks);
  int64_t saturated = 0;
  for (int64_t blk = 0; blk < g.blocks; ++blk) {
    std::vector<float> values;
    appendBlockWeights(conv, g, blk, values);
    int64_t at = appendData(values, saturated);
    for (int64_t v = 0; v < kVMACsPerUnit; ++v) {
      prepared.segment[blk].emplace_back();
      for (int64_t e : g.segmentElements) {
        prepared.segment[blk][v].push_back(at);
        at += e;
      }
    }
  }
  // Not an error: the hardware saturates too, and a model may tolerate it.
  if (saturated) {
    OperandFormat format = hw.getOperandFormat();
    emitWarning(layer.loc) << "snowflake: " << saturated
                           << " weights or biases of '" << layer.name << "' ("
                           << layer.opType << ") lie outside "
                           << format.getName() << "'s range "
                           << llvm::formatv("[{0:f4}, {1:f4}]", format.getMin(),
                                            format.getMax())
                                  .str()
                           << " and saturate";
  }
}

unsigned Lowering::loadConvWeights(const PreparedConv &prepared,
                                   const Step &step) {
  const ConvGeometry &g = prepared.mapping.geometry;
  const Chunk &chunk = g.chunks[step.chunk];
  const Round &round = prepared.plan.rounds[step.round];
  int64_t base = step.weightSlot * g.slotRows * kLanes;
  bool whole = step.rowBegin == 0 && step.rowEnd == chunk.rows;
  unsigned lsus = 0;
  // One vMAC's rows of the step (with the bias row after chunk 0) on
  // `unit` (any when -1); returns the unit.
  auto load = [&](unsigned buffer, int64_t block, unsigned v, int unit) {
    int64_t segment = prepared.segment[block][v][step.chunk];
    auto one = [&](int64_t offset, int64_t length) {
      unsigned bit = w.transfer(Role::Weights, true, buffer, base + offset,
                                segment + offset, 1, length, 0, 0, unit);
      lsus |= bit;
      unit = llvm::countr_zero(bit) - kSyncLSUBit;
    };
    if (whole) {
      one(0, g.segmentElements[step.chunk]);
      return unit;
    }
    one(step.rowBegin * kLanes, (step.rowEnd - step.rowBegin) * kLanes);
    if (step.startsPixel() && g.hasBias)
      one(chunk.rows * kLanes, kLanes);
    return unit;
  };
  // vMAC v's broadcast goes on unit[v], and so do the CUs' own blocks
  // after it.
  int unit[kVMACsPerUnit] = {-1, -1, -1, -1};
  if (step.broadcastBlock >= 0)
    for (unsigned v = 0; v < kVMACsPerUnit; ++v)
      unit[v] = load(kAllWeightsBuffer + v, step.broadcastBlock, v, -1);
  for (unsigned c = 0; c < kComputeUnits; ++c)
    if (step.ownMask & (1u << c))
      for (unsigned v = 0; v < kVMACsPerUnit; ++v)
        load(kFirstWeightsBuffer + c * kVMACsPerUnit + v, round.block[c], v,
             unit[v]);
  return lsus;
}

FailureOr<LayerResult> Lowering::lowerConv(const Layer &layer,
                                           const PreparedConv &prepared,
                                           function_ref<void()> prefetchNext) {
  const ConvLayer &conv = layer.conv;
  const ConvGeometry &g = prepared.mapping.geometry;
  const ConvSchedule &s = prepared.mapping.schedule;
  const ConvPlan &plan = prepared.plan;
  w.setLayer(layer.loc);

  // Maps buffer of each CU: two input tiles, two output slots, the partial
  // sums.
  int64_t inEnd = s.inSlots * s.inSlot;
  int64_t inBase[2] = {0, s.inSlots == 2 ? s.inSlot : 0};
  int64_t outBase[2] = {inEnd, inEnd + s.outSlot};
  int64_t partialBase = inEnd + 2 * s.outSlot;
  int64_t slotElements = g.slotRows * kLanes;
  // A tile holds one channel group.
  int64_t cr = g.groupChannels;
  int64_t tileRowElements = g.tileCols * cr;
  const DramView &in = conv.in, &out = conv.out;
  bool padded = conv.padTop || conv.padLeft || conv.padBottom || conv.padRight;
  // The tile columns of each (maps slot, CU) that may hold something else
  // than zeros: all of them at first (the last layer's data), then those a
  // tile loaded image data into. A tile fills the ones that are its
  // padding, row by row beside its load; a whole band's tile after another
  // whole band's finds its padding columns still zero.
  std::vector<bool> dirty[2][kComputeUnits];
  for (auto &slot : dirty)
    for (std::vector<bool> &columns : slot)
      columns.assign(g.tileCols, true);

  auto loadMaps = [&](const Tile &tile) -> unsigned {
    const Round &round = plan.rounds[tile.round];
    unsigned lsus = 0;
    unsigned done = 0;
    for (unsigned c = 0; c < kComputeUnits; ++c) {
      if (round.block[c] < 0 || (done & (1u << c)))
        continue;
      const Band &band = plan.bands[round.band[c]];
      int64_t window = g.windowStart[round.block[c]] + tile.group * cr;
      unsigned buffer = tile.broadcast ? kAllMapsBuffer : c;
      unsigned cus = tile.broadcast ? round.activeMask : 1u << c;
      done |= cus;
      int64_t base = inBase[tile.slot];
      int64_t firstRow = band.firstRow * conv.strideH - conv.padTop;
      int64_t lo = std::max<int64_t>(0, firstRow);
      int64_t hi = std::min<int64_t>(in.h, firstRow + s.tileRows);
      // The band's input columns [firstCol, firstCol + tileCols), those in
      // the image from tile column `left`.
      int64_t firstCol = band.firstCol * conv.strideW - conv.padLeft;
      int64_t tileCols =
          (band.cols - 1) * conv.strideW + (conv.kW - 1) * conv.dilationW + 1;
      int64_t left = std::max<int64_t>(0, -firstCol);
      int64_t cols =
          std::min<int64_t>(in.w, firstCol + tileCols) - (firstCol + left);
      // Rows outside the image hold the padding.
      if (padded) {
        // Padding columns some CU's slot has image data in, as runs.
        auto needsFill = [&](int64_t col) {
          if (col >= left && col < left + cols)
            return false;
          for (unsigned cu = 0; cu < kComputeUnits; ++cu)
            if ((cus & (1u << cu)) && dirty[tile.slot][cu][col])
              return true;
          return false;
        };
        for (int64_t col = 0; col < tileCols && hi > lo;) {
          if (!needsFill(col)) {
            ++col;
            continue;
          }
          int64_t end = col;
          while (end < tileCols && needsFill(end))
            ++end;
          for (int64_t r = lo; r < hi; ++r)
            w.fill(cus, base + (r - firstRow) * tileRowElements + col * cr, 0,
                   (end - col) * cr);
          for (unsigned cu = 0; cu < kComputeUnits; ++cu)
            if (cus & (1u << cu))
              for (int64_t c = col; c < end; ++c)
                dirty[tile.slot][cu][c] = false;
          col = end;
        }
        if (hi > lo)
          for (unsigned cu = 0; cu < kComputeUnits; ++cu)
            if (cus & (1u << cu))
              for (int64_t c = left; c < left + cols; ++c)
                dirty[tile.slot][cu][c] = true;
        if (lo > firstRow)
          w.fill(cus, base, 0, (lo - firstRow) * tileRowElements);
        int64_t end = std::max(lo, hi);
        if (firstRow + s.tileRows > end)
          w.fill(cus, base + (end - firstRow) * tileRowElements, 0,
                 (firstRow + s.tileRows - end) * tileRowElements);
      }
      if (hi <= lo)
        continue;
      int64_t dram =
          in.address +
          ((band.image * in.h + lo) * in.w + firstCol + left) * in.pixelStride +
          window;
      int64_t dest = base + (lo - firstRow) * tileRowElements + left * cr;
      if (cr == in.c && in.isDense()) {
        lsus |= w.transfer(Role::Maps, true, buffer, dest, dram, hi - lo,
                           cols * cr, in.w * in.pixelStride, tileRowElements);
      } else {
        for (int64_t r = lo; r < hi; ++r)
          lsus |= w.transfer(Role::Maps, true, buffer,
                             dest + (r - lo) * tileRowElements,
                             dram + (r - lo) * in.w * in.pixelStride, cols, cr,
                             in.pixelStride, cr);
      }
    }
    return lsus;
  };

  auto loadWeights = [&](const Step &step) {
    return loadConvWeights(prepared, step);
  };

  auto storeOutputs = [&](const Round &round) -> unsigned {
    unsigned lsus = 0;
    int64_t slot = outBase[(&round - plan.rounds.data()) & 1];
    for (unsigned c = 0; c < kComputeUnits; ++c) {
      if (round.block[c] < 0)
        continue;
      const Band &band = plan.bands[round.band[c]];
      int64_t channels =
          std::min(kBlockChannels, out.c - round.block[c] * kBlockChannels);
      int64_t dram =
          out.address +
          ((band.image * out.h + band.firstRow) * out.w + band.firstCol) *
              out.pixelStride +
          round.block[c] * kBlockChannels;
      // The slot's rows are out.w pixels apart: a column piece stores row
      // by row.
      int64_t rows = band.cols == out.w ? 1 : band.rows;
      for (int64_t r = 0; r < rows; ++r)
        lsus |= w.transfer(
            Role::Store, false, c, slot + r * out.w * kBlockChannels,
            dram + r * out.w * out.pixelStride, band.rows * band.cols / rows,
            channels, out.pixelStride, kBlockChannels);
    }
    return lsus;
  };

  auto compute = [&](const Step &step,
                     ArrayRef<std::function<void()>> pending) {
    const Round &round = plan.rounds[step.round];
    const Chunk &chunk = g.chunks[step.chunk];
    bool first = step.startsPixel(), last = step.endsPixel(g);
    unsigned cus = round.activeMask;
    int64_t weights = step.weightSlot * slotElements;
    std::vector<Trace> traces = getStepTraces(g, step);
    // Loop-invariant registers: each trace's weights row and length.
    SmallVector<Value> rows, lengths;
    bool hoist = traces.size() <= 12;
    if (hoist)
      for (const Trace &trace : traces) {
        rows.push_back(
            w.constant(weights + (trace.row - chunk.firstRow) * kLanes));
        lengths.push_back(w.constant(trace.length));
      }
    Value bias = first && g.hasBias ? w.constant(weights + chunk.rows * kLanes)
                                    : Value();
    Value channels = last ? w.constant(kBlockChannels) : Value();
    int64_t mapsStart = inBase[plan.tiles[step.tile].slot];
    int64_t outStart = outBase[step.round & 1];
    SmallVector<int64_t> starts = {mapsStart, outStart};
    SmallVector<int64_t> rowSteps = {conv.strideH * tileRowElements,
                                     out.w * kBlockChannels};
    bool partial = g.chunks.size() > 1 || s.firstSplitRows;
    if (partial) {
      starts.push_back(partialBase);
      rowSteps.push_back(out.w * 2 * kBlockChannels);
    }
    SmallVector<int64_t> pixelSteps = {conv.strideW * cr, kBlockChannels};
    if (partial)
      pixelSteps.push_back(2 * kBlockChannels);
    auto pixelBody = [&](ValueRange pixel) {
      Location loc = w.getLoc();
      if (!first)
        VRestoreOp::create(w.b, loc, cus, pixel[2]);
      else if (bias)
        VBiasOp::create(w.b, loc, cus, bias);
      else
        VClearOp::create(w.b, loc, cus);
      for (auto [i, trace] : llvm::enumerate(traces)) {
        Value maps = w.add(pixel[0], trace.offset);
        Value row =
            hoist ? rows[i]
                  : w.constant(weights + (trace.row - chunk.firstRow) * kLanes);
        Value length = hoist ? lengths[i] : w.constant(trace.length);
        VMacOp::create(w.b, loc, cus, maps, row, length);
      }
      if (last)
        VWriteBackOp::create(w.b, loc, cus, pixel[1], channels,
                             conv.relu ? 1 : 0);
      else
        VSaveOp::create(w.b, loc, cus, pixel[2]);
    };
    if (pending.empty()) {
      SmallVector<Value> rowInits;
      for (int64_t start : starts)
        rowInits.push_back(w.constant(start));
      emitLoop(w, round.computeRows, rowInits, rowSteps, [&](ValueRange row) {
        emitLoop(w, round.computeCols, row, pixelSteps, pixelBody);
      });
      return;
    }
    // With transfers to issue: the pixels in segments (each row, or pieces
    // of a lone row), the transfers spread evenly before them.
    struct Segment {
      int64_t row, col, cols;
    };
    std::vector<Segment> segments;
    // Up to 16 segments (whole rows, or pieces of them), so that few
    // transfers queue at once.
    int64_t target = std::min<int64_t>(16, pending.size());
    int64_t pieces = std::clamp<int64_t>((target + round.computeRows - 1) /
                                             round.computeRows,
                                         1, round.computeCols);
    for (int64_t r = 0; r < round.computeRows; ++r)
      for (int64_t p = 0; p < pieces; ++p) {
        int64_t begin = p * round.computeCols / pieces;
        int64_t end = (p + 1) * round.computeCols / pieces;
        segments.push_back({r, begin, end - begin});
      }
    // The transfers go between the segments (before the only one when
    // there is one), so the vMACs start at once after the step's sync.
    size_t gaps = std::max<size_t>(1, segments.size() - 1);
    size_t issued = 0;
    auto issueBatch = [&](size_t gap) {
      for (size_t end = (gap + 1) * pending.size() / gaps; issued < end;
           ++issued)
        pending[issued]();
    };
    if (segments.size() == 1)
      issueBatch(0);
    for (size_t k = 0; k < segments.size(); ++k) {
      const Segment &segment = segments[k];
      SmallVector<Value> inits;
      for (auto [start, rowStep, pixelStep] :
           llvm::zip(starts, rowSteps, pixelSteps))
        inits.push_back(w.constant(start + segment.row * rowStep +
                                   segment.col * pixelStep));
      emitLoop(w, segment.cols, inits, pixelSteps, pixelBody);
      if (k < gaps && segments.size() > 1)
        issueBatch(k);
    }
  };

  // Prologue: the first tiles (with their padding) and weights.
  loadMaps(plan.tiles.front());
  if (!s.earlyWeights)
    loadWeights(plan.steps.front());
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step &step = plan.steps[i];
    bool firstOfRound = step.chunk == 0;
    bool firstOfTile = i == 0 || plan.steps[i - 1].tile != step.tile;
    bool lastOfTile =
        i + 1 == plan.steps.size() || plan.steps[i + 1].tile != step.tile;
    // Everything this step reads is loaded, and what it overwrites is
    // stored or read.
    w.sync(firstOfRound
               ? kAllUnits
               : macMask(0xf) | maxMask(0xf) | ((1u << kLoadStoreUnits) - 1));
    // What could not be loaded during the previous step (one slot).
    bool mapsNow =
        s.inSlots == 1 && firstOfTile && i > 0 && plan.tiles[step.tile].load;
    bool weightsNow = step.loadWeights && !step.prefetch && i > 0;
    if (mapsNow)
      loadMaps(plan.tiles[step.tile]);
    if (weightsNow)
      loadWeights(step);
    if (mapsNow || weightsNow)
      w.sync(((1u << kLoadStoreUnits) - 1) | maxMask(0xf));
    // What loads and stores during the step, spread between its pixels.
    w.setDeferring(true);
    if (i + 1 < plan.steps.size() && plan.steps[i + 1].prefetch)
      loadWeights(plan.steps[i + 1]);
    if (firstOfRound && step.round > 0)
      storeOutputs(plan.rounds[step.round - 1]);
    if (s.inSlots == 2 && lastOfTile && step.tile + 1 < plan.tiles.size() &&
        plan.tiles[step.tile + 1].load)
      loadMaps(plan.tiles[step.tile + 1]);
    if (i + 1 == plan.steps.size() && prefetchNext)
      prefetchNext();
    w.setDeferring(false);
    compute(step, w.takeDeferred());
  }
  w.sync(kAllUnits);
  storeOutputs(plan.rounds.back());
  w.sync(kAllUnits);

  LayerResult result;
  result.loopOrder = s.order == LoopOrder::MLoop ? "mloop" : "kloop";
  result.schedule = describeConvSchedule(g, s);
  result.predictedCycles = s.predictedCycles;
  result.readBytes = s.dramReadBytes;
  result.writeBytes = s.dramWriteBytes;
  for (const Round &round : plan.rounds)
    result.hardwareMacs +=
        static_cast<int64_t>(llvm::popcount(round.activeMask)) *
        round.computeRows * round.computeCols * g.kernelRows * kBlockChannels;
  return result;
}

//===----------------------------------------------------------------------===//
// Max pooling and elementwise layers, on the MAX units
//===----------------------------------------------------------------------===//

FailureOr<LayerResult> Lowering::lowerPool(const Layer &layer) {
  const PoolLayer &pool = layer.pool;
  const DramView &in = pool.in, &out = pool.out;
  w.setLayer(layer.loc);
  int64_t c = in.c;
  int64_t tileCols =
      (out.w - 1) * pool.strideW + (pool.kW - 1) * pool.dilationW + 1;
  int64_t tileRowElements = tileCols * c;
  // The band height: the most rows whose two tiles and two outputs fit.
  int64_t bandRows = 0, tileRows = 0;
  for (int64_t rows = 1; rows <= out.h; ++rows) {
    int64_t t = (rows - 1) * pool.strideH + (pool.kH - 1) * pool.dilationH + 1;
    if (2 * t * tileRowElements + 2 * rows * out.w * c > hw.mapsBufferElements)
      break;
    bandRows = rows;
    tileRows = t;
  }
  if (!bandRows)
    return emitError(layer.loc)
           << "snowflake: '" << layer.name << "' (" << layer.opType
           << ") does not fit: one output row needs "
           << 2 * ((pool.kH - 1) * pool.dilationH + 1) * tileRowElements +
                  2 * out.w * c
           << " elements of maps buffer, more than the "
           << hw.mapsBufferElements << " a CU has";
  int64_t inSlot = tileRows * tileRowElements, outSlot = bandRows * out.w * c;
  int64_t inBase[2] = {0, inSlot};
  int64_t outBase[2] = {2 * inSlot, 2 * inSlot + outSlot};
  std::vector<Band> bands = getBands(out, bandRows);
  size_t roundsCount = (bands.size() + kComputeUnits - 1) / kComputeUnits;
  auto bandOf = [&](size_t r, unsigned cu) -> const Band * {
    size_t j = r * kComputeUnits + cu;
    return j < bands.size() ? &bands[j] : nullptr;
  };
  auto maskOf = [&](size_t r) {
    unsigned mask = 0;
    for (unsigned cu = 0; cu < kComputeUnits; ++cu)
      if (bandOf(r, cu))
        mask |= 1u << cu;
    return mask;
  };
  auto loadTiles = [&](size_t r) {
    for (unsigned cu = 0; cu < kComputeUnits; ++cu) {
      const Band *band = bandOf(r, cu);
      if (!band)
        continue;
      int64_t base = inBase[r & 1];
      int64_t firstRow = band->firstRow * pool.strideH - pool.padTop;
      int64_t lo = std::max<int64_t>(0, firstRow);
      int64_t hi = std::min<int64_t>(in.h, firstRow + tileRows);
      Value fill = w.constant(hw.getOperandFormat().getLowest());
      if (lo > firstRow)
        VFillOp::create(w.b, w.getLoc(), 1u << cu, w.constant(base), fill,
                        w.constant((lo - firstRow) * tileRowElements));
      int64_t end = std::max(lo, hi);
      if (firstRow + tileRows > end)
        VFillOp::create(
            w.b, w.getLoc(), 1u << cu,
            w.constant(base + (end - firstRow) * tileRowElements), fill,
            w.constant((firstRow + tileRows - end) * tileRowElements));
      if (hi <= lo)
        continue;
      int64_t cols = std::min<int64_t>(in.w, tileCols - pool.padLeft);
      int64_t dram =
          in.address + (band->image * in.h + lo) * in.w * in.pixelStride;
      int64_t dest =
          base + (lo - firstRow) * tileRowElements + pool.padLeft * c;
      if (in.isDense() && cols == in.w)
        w.transfer(Role::Maps, true, cu, dest, dram, hi - lo, cols * c,
                   in.w * in.pixelStride, tileRowElements);
      else
        for (int64_t row = lo; row < hi; ++row)
          w.transfer(Role::Maps, true, cu, dest + (row - lo) * tileRowElements,
                     dram + (row - lo) * in.w * in.pixelStride, cols, c,
                     in.pixelStride, c);
    }
  };
  auto store = [&](size_t r) {
    for (unsigned cu = 0; cu < kComputeUnits; ++cu) {
      const Band *band = bandOf(r, cu);
      if (!band)
        continue;
      int64_t dram = out.address + (band->image * out.h + band->firstRow) *
                                       out.w * out.pixelStride;
      w.transfer(Role::Store, false, cu, outBase[r & 1], dram,
                 band->rows * out.w, c, out.pixelStride, c);
    }
  };
  // Pad columns: filled once in both slots.
  if (pool.padLeft || pool.padRight || pool.padTop || pool.padBottom) {
    VFillOp::create(w.b, w.getLoc(), 0xf, w.constant(0),
                    w.constant(hw.getOperandFormat().getLowest()),
                    w.constant(2 * inSlot));
    w.sync(maxMask(0xf));
  }
  loadTiles(0);
  std::vector<int64_t> offsets;
  for (int64_t kh = 0; kh < pool.kH; ++kh)
    for (int64_t kw = 0; kw < pool.kW; ++kw)
      offsets.push_back((kh * pool.dilationH * tileCols + kw * pool.dilationW) *
                        c);
  for (size_t r = 0; r < roundsCount; ++r) {
    w.sync(kAllUnits);
    if (r > 0)
      store(r - 1);
    if (r + 1 < roundsCount)
      loadTiles(r + 1);
    unsigned cus = maskOf(r);
    int64_t rows = 0;
    for (unsigned cu = 0; cu < kComputeUnits; ++cu)
      if (const Band *band = bandOf(r, cu))
        rows = std::max(rows, band->rows);
    Value length = w.constant(c);
    emitLoop(
        w, rows, {w.constant(inBase[r & 1]), w.constant(outBase[r & 1])},
        {pool.strideH * tileRowElements, out.w * c}, [&](ValueRange row) {
          emitLoop(w, out.w, row, {pool.strideW * c, c}, [&](ValueRange pixel) {
            Location loc = w.getLoc();
            Value dst = pixel[1];
            if (offsets.size() == 1) {
              VMaxOp::create(w.b, loc, cus, dst, w.add(pixel[0], offsets[0]),
                             w.add(pixel[0], offsets[0]), length,
                             pool.relu ? 1 : 0);
              return;
            }
            for (size_t i = 1; i < offsets.size(); ++i) {
              Value a = i == 1 ? w.add(pixel[0], offsets[0]) : dst;
              bool lastOne = i + 1 == offsets.size();
              VMaxOp::create(w.b, loc, cus, dst, a, w.add(pixel[0], offsets[i]),
                             length, lastOne && pool.relu ? 1 : 0);
            }
          });
        });
  }
  w.sync(kAllUnits);
  store(roundsCount - 1);
  w.sync(kAllUnits);
  LayerResult result;
  result.readBytes = in.getElements() * 2;
  result.writeBytes = out.getElements() * 2;
  // Per round: each window element a vmax of C elements (16 a cycle, or
  // the control core's two instructions), the tiles in and the rows out.
  double windowCycles = std::max<double>(1, offsets.size() - 1) *
                        std::max<double>((c + kLanes - 1) / kLanes, 2);
  int64_t cus = std::min<int64_t>(kComputeUnits, bands.size());
  int64_t tileBytes = 2 * tileRows * in.w * c;
  result.predictedCycles = estimateStreamingLayer(
      roundsCount, bandRows * out.w * (windowCycles + 4),
      bands.size() * tileBytes + result.writeBytes, cus * tileBytes, hw);
  return result;
}

FailureOr<LayerResult> Lowering::lowerElementwise(const Layer &layer) {
  const ElementwiseLayer &e = layer.elementwise;
  w.setLayer(layer.loc);
  if (!e.lhs.isDense() || !e.out.isDense() || (e.rhs && !e.rhs->isDense()))
    return emitError(layer.loc)
           << "snowflake: '" << layer.name << "' (" << layer.opType
           << ") reads or writes a channel slice, which elementwise layers "
              "do not";
  int64_t total = e.out.getElements();
  // Per CU: two slots of each operand and of the result (double
  // buffering: a round's loads go where the round before last read, its
  // result where the round before last was stored from).
  int64_t operands = e.rhs ? 2 : 1;
  // Every CU takes an equal piece, at most what its slots hold.
  int64_t piece =
      std::min(hw.mapsBufferElements / (2 * (operands + 1)) / 4 * 4,
               ((total + kComputeUnits - 1) / kComputeUnits + 3) / 4 * 4);
  int64_t perRound = piece * kComputeUnits;
  size_t rounds = (total + perRound - 1) / perRound;
  auto range = [&](size_t r, unsigned cu) {
    int64_t first = r * perRound + cu * piece;
    return std::make_pair(first,
                          std::max<int64_t>(0, std::min(piece, total - first)));
  };
  // Operand `operand` of round r (operand `operands`: the result).
  auto slot = [&](size_t r, int64_t operand) {
    return ((r & 1) * (operands + 1) + operand) * piece;
  };
  auto load = [&](size_t r) {
    for (unsigned cu = 0; cu < kComputeUnits; ++cu) {
      auto [first, count] = range(r, cu);
      if (!count)
        continue;
      w.transfer(Role::Maps, true, cu, slot(r, 0), e.lhs.address + first, 1,
                 count, 0, 0);
      if (e.rhs)
        w.transfer(Role::Maps, true, cu, slot(r, 1), e.rhs->address + first, 1,
                   count, 0, 0);
    }
  };
  auto store = [&](size_t r) {
    for (unsigned cu = 0; cu < kComputeUnits; ++cu) {
      auto [first, count] = range(r, cu);
      if (count)
        w.transfer(Role::Store, false, cu, slot(r, operands),
                   e.out.address + first, 1, count, 0, 0);
    }
  };
  load(0);
  for (size_t r = 0; r < rounds; ++r) {
    w.sync(kAllUnits);
    if (r > 0)
      store(r - 1);
    if (r + 1 < rounds)
      load(r + 1);
    unsigned cus = 0;
    int64_t length = 0;
    for (unsigned cu = 0; cu < kComputeUnits; ++cu)
      if (int64_t count = range(r, cu).second) {
        cus |= 1u << cu;
        length = std::max(length, count);
      }
    Value a = w.constant(slot(r, 0));
    Value b = e.rhs ? w.constant(slot(r, 1)) : a;
    Value result = w.constant(slot(r, operands));
    Location loc = w.getLoc();
    if (e.rhs)
      VAddOp::create(w.b, loc, cus, result, a, b, w.constant(length),
                     e.relu ? 1 : 0);
    else
      VMaxOp::create(w.b, loc, cus, result, a, a, w.constant(length), 1);
  }
  w.sync(kAllUnits);
  store(rounds - 1);
  w.sync(kAllUnits);
  LayerResult result;
  result.readBytes = total * 2 * operands;
  result.writeBytes = total * 2;
  result.predictedCycles =
      estimateStreamingLayer(rounds, (piece + kLanes - 1) / kLanes,
                             result.readBytes + result.writeBytes,
                             std::min(total, perRound) * 2 * operands, hw);
  return result;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

DramTensorAttr toAttr(MLIRContext *context, const PlacedTensor &tensor) {
  const DramView &v = tensor.view;
  SmallVector<int64_t> shape = {v.n, v.c, v.h, v.w};
  SmallVector<int64_t> strides = {v.h * v.w * v.pixelStride, 1,
                                  v.w * v.pixelStride, v.pixelStride};
  return DramTensorAttr::get(context, StringAttr::get(context, tensor.name),
                             v.address, shape, strides);
}

/// `func.func @arm_tail`: what the ARM computes after the program, from
/// the program's outputs to the model's.
void buildArmTail(ModuleOp module, func::FuncOp func, const LayeredModel &model,
                  const std::optional<EntrySignature> &signature) {
  MLIRContext *context = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<Type> argTypes;
  for (Value value : model.armInputs)
    argTypes.push_back(value.getType());
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  auto tail = func::FuncOp::create(
      b, func.getLoc(), kArmTailFunction,
      FunctionType::get(context, argTypes, ret.getOperandTypes()));
  Block *body = tail.addEntryBlock();
  IRMapping mapping;
  for (auto [value, arg] : llvm::zip(model.armInputs, body->getArguments()))
    mapping.map(value, arg);
  b.setInsertionPointToEnd(body);
  auto cloneWithConstants = [&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand))
        if (auto constant = operand.getDefiningOp<ConstantOp>())
          b.clone(*constant, mapping);
    b.clone(*op, mapping);
  };
  for (Operation *op : model.armOps)
    cloneWithConstants(op);
  cloneWithConstants(ret);
  for (unsigned i = 0; i < model.armInputs.size(); ++i)
    tail.setArgAttr(i, kONNXNameAttr,
                    b.getStringAttr("arm_input" + std::to_string(i)));
  if (signature)
    for (auto [i, spec] : llvm::enumerate(signature->outputs))
      tail.setResultAttr(i, kONNXNameAttr, b.getStringAttr(spec.name));
}

struct LowerLayersPass
    : public snowflake::impl::LowerLayersBase<LowerLayersPass> {
  using LowerLayersBase::LowerLayersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = getEntryFunction(module);
    if (!func) {
      module.emitError("snowflake: the module has no entry function");
      return signalPassFailure();
    }
    SnowflakeHardware hw = SnowflakeHardware::get(module);
    if (failed(hw.verify([&] { return module.emitError(); })))
      return signalPassFailure();
    FailureOr<LayeredModel> model = buildLayers(func);
    if (failed(model))
      return signalPassFailure();
    // The ONNX names, which dlc-record-entry-signature moved to the module.
    std::optional<EntrySignature> signature;
    if (module->hasAttr(kEntryAttr)) {
      FailureOr<EntrySignature> recorded = getRecordedEntrySignature(module);
      if (failed(recorded))
        return signalPassFailure();
      signature = *recorded;
      for (auto [placed, spec] : llvm::zip(model->inputs, signature->inputs))
        placed.name = spec.name;
      if (model->armOps.empty())
        for (auto [placed, spec] :
             llvm::zip(model->outputs, signature->outputs))
          placed.name = spec.name;
    }
    for (auto [i, placed] : llvm::enumerate(model->outputs))
      if (!model->armOps.empty())
        placed.name = "arm_input" + std::to_string(i);
    if (!model->armOps.empty())
      buildArmTail(module, func, *model, signature);

    MLIRContext *context = module.getContext();
    OpBuilder b(context);
    b.setInsertionPointToEnd(module.getBody());
    // The data section follows the tensors, on a 64-bit boundary.
    int64_t dataAddress = (model->tensorElements + 3) / 4 * 4;
    auto program = ProgramOp::create(
        b, func.getLoc(), func.getSymName(), hw.mapsBufferElements,
        hw.weightsBufferElements, hw.dramElements, dataAddress,
        DenseIntElementsAttr::get(
            RankedTensorType::get({0}, b.getIntegerType(16)),
            ArrayRef<int16_t>()),
        b.getArrayAttr({}), b.getArrayAttr({}), b.getArrayAttr({}));
    program.getBody().emplaceBlock();
    OpBuilder end = OpBuilder::atBlockEnd(&program.getBody().front());
    HaltOp::create(end, func.getLoc());

    Lowering lowering(program, hw, loopOrder, balanceLoads, dataAddress);
    // The convolutions' mappings first, in order: each knows what the
    // convolution before it leaves free for its first weights. A second
    // pass chooses again knowing what the next convolution's first weights
    // take (the first pass's choice), so that a layer's last step can
    // hide them.
    std::vector<std::optional<PreparedConv>> prepared(model->layers.size());
    for (int pass = 0; pass < 2; ++pass) {
      FreeWeights free;
      for (auto [i, layer] : llvm::enumerate(model->layers)) {
        if (layer.kind != Layer::Kind::Conv) {
          free = {};
          continue;
        }
        double next = 0;
        if (pass == 1 && i + 1 < prepared.size() && prepared[i + 1])
          next = getFirstWeightCycles(prepared[i + 1]->mapping.geometry,
                                      prepared[i + 1]->plan, hw);
        FailureOr<PreparedConv> conv = lowering.prepareConv(layer, free, next);
        if (failed(conv))
          return signalPassFailure();
        prepared[i] = std::move(*conv);
        free = prepared[i]->getFreeWeights();
      }
    }
    for (auto [i, layer] : llvm::enumerate(model->layers))
      if (prepared[i])
        lowering.appendConvWeights(layer, *prepared[i]);
    SmallVector<Attribute> layers;
    for (auto [i, layer] : llvm::enumerate(model->layers)) {
      std::function<void()> prefetchNext;
      if (i + 1 < prepared.size() && prepared[i + 1] &&
          prepared[i + 1]->mapping.schedule.earlyWeights) {
        const PreparedConv &next = *prepared[i + 1];
        prefetchNext = [&lowering, &next] {
          lowering.loadConvWeights(next, next.plan.steps.front());
        };
      }
      // (A function_ref of an empty std::function is not null.)
      function_ref<void()> hook =
          prefetchNext ? function_ref<void()>(prefetchNext) : nullptr;
      FailureOr<LayerResult> result =
          layer.kind == Layer::Kind::Conv
              ? lowering.lowerConv(layer, *prepared[i], hook)
          : layer.kind == Layer::Kind::Pool ? lowering.lowerPool(layer)
                                            : lowering.lowerElementwise(layer);
      if (failed(result))
        return signalPassFailure();
      SmallVector<Attribute> fused;
      for (const std::string &name : layer.fused)
        fused.push_back(b.getStringAttr(name));
      layers.push_back(LayerAttr::get(
          context, b.getStringAttr(layer.name), b.getStringAttr(layer.opType),
          b.getArrayAttr(fused), layer.macs, result->hardwareMacs,
          b.getStringAttr(result->loopOrder), b.getStringAttr(result->schedule),
          result->predictedCycles, result->readBytes, result->writeBytes));
    }
    int64_t dataElements = lowering.data.size();
    if (dataAddress + dataElements > hw.dramElements) {
      module.emitError() << "snowflake: the tensors and weights need "
                         << dataAddress + dataElements
                         << " elements of DRAM, more than the "
                         << hw.dramElements << " of dram_elements";
      return signalPassFailure();
    }
    auto dataType = RankedTensorType::get({dataElements}, b.getIntegerType(16));
    program.setDataAttr(DenseResourceElementsAttr::get(
        dataType, "snowflake_data",
        HeapAsmResourceBlob::allocateAndCopyInferAlign(
            ArrayRef<uint16_t>(lowering.data))));
    SmallVector<Attribute> inputs, outputs;
    for (const PlacedTensor &tensor : model->inputs)
      inputs.push_back(toAttr(context, tensor));
    for (const PlacedTensor &tensor : model->outputs)
      outputs.push_back(toAttr(context, tensor));
    program.setInputsAttr(b.getArrayAttr(inputs));
    program.setOutputsAttr(b.getArrayAttr(outputs));
    program.setLayersAttr(b.getArrayAttr(layers));
    func.erase();
  }
};

} // namespace
