//===- TilingModel.cpp - tile sizes and loop order for a capacity ---------===//

#include "dlc/Analysis/TilingModel.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace dlc;

namespace {

constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

/// a * b, saturating: candidate tilings far from the optimum can describe
/// absurd traffic, which must compare as large rather than wrap.
int64_t mulSat(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_mul_overflow(a, b, &result))
    return kSaturated;
  return result;
}
int64_t addSat(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result))
    return kSaturated;
  return result;
}

/// Per buffer dimension: the box extent under given loop extents, or the
/// whole dimension when the accesses do not give a box.
struct DimExtent {
  bool whole = false;
  llvm::SmallVector<std::pair<Operation *, int64_t>> coefficients;
  int64_t constantSpread = 0;
  /// gcd of the accesses' constant offsets from the smallest one (0 when
  /// they are equal): with the coefficients of the loops that vary, the
  /// distance between the elements the box must hold (a stride-2
  /// convolution reads every other column).
  int64_t constantStep = 0;
};

/// What the model precomputes per buffer.
struct BufferShape {
  llvm::SmallVector<DimExtent> dims;
  /// Band loop indices the box depends on.
  llvm::SmallVector<unsigned> dependentBandLoops;
  bool in = false;
  bool out = false;
};

class Model {
public:
  explicit Model(const TilingProblem &problem) : problem(problem) {
    for (auto [position, loop] : llvm::enumerate(problem.band))
      bandIndex[const_cast<mlir::affine::AffineForOp &>(loop).getOperation()] =
          position;
    for (const StagedBuffer &buffer : problem.buffers)
      shapes.push_back(describe(buffer));
    // Maps and kernels: the first two buffers the nest reads.
    for (auto [index, buffer] : llvm::enumerate(problem.buffers))
      if (buffer.read && !buffer.written)
        readOnly.push_back(index);
    if (problem.stridedReadCopies)
      findStridedReads();
  }

  Tiling evaluate(ArrayRef<int64_t> tileSizes, ArrayRef<unsigned> order) const;
  /// The cheapest order for `tileSizes` allowed by `policy`.
  Tiling evaluateBestOrder(ArrayRef<int64_t> tileSizes, LoopOrder policy) const;
  const TilingProblem &problem;

private:
  BufferShape describe(const StagedBuffer &buffer) const;
  int64_t loopExtent(Operation *loop, ArrayRef<int64_t> tileSizes) const;
  bool dependsOn(unsigned bufferIndex, unsigned bandLoop) const {
    return llvm::is_contained(shapes[bufferIndex].dependentBandLoops, bandLoop);
  }
  /// +1: the order puts kernel-only loops before map-only loops (MLoop),
  /// -1: the reverse (KLoop), 0: it does not tell them apart.
  int classifyOrder(ArrayRef<unsigned> order) const;
  /// Whether every unit reads buffer `index`'s box in the same step (a
  /// read-only box the spread outermost tile loop does not move, that
  /// loop's steps a multiple of the units) and the machine broadcasts it.
  bool isBroadcast(unsigned index, ArrayRef<int64_t> tileSizes,
                   ArrayRef<unsigned> order) const;
  /// Marks the read-only buffers whose innermost index a loop of an
  /// output's innermost index (coefficient 1) moves by more than one.
  void findStridedReads();
  bool isStridedRead(unsigned index) const {
    return index < stridedRead.size() && stridedRead[index];
  }

  llvm::DenseMap<Operation *, unsigned> bandIndex;
  llvm::SmallVector<BufferShape> shapes;
  llvm::SmallVector<unsigned> readOnly;
  /// Per buffer: the target copies its box into phase planes.
  llvm::SmallVector<bool> stridedRead;
};

void Model::findStridedReads() {
  stridedRead.assign(problem.buffers.size(), false);
  llvm::SmallPtrSet<Operation *, 4> laneLoops;
  for (auto [index, buffer] : llvm::enumerate(problem.buffers)) {
    if (!buffer.written || shapes[index].dims.empty() ||
        shapes[index].dims.back().whole)
      continue;
    for (auto [loop, coefficient] : shapes[index].dims.back().coefficients)
      if (coefficient == 1 || coefficient == -1)
        laneLoops.insert(loop);
  }
  for (unsigned index : readOnly) {
    const BufferShape &shape = shapes[index];
    if (shape.dims.empty() || shape.dims.back().whole)
      continue;
    for (auto [loop, coefficient] : shape.dims.back().coefficients)
      if (laneLoops.contains(loop) && std::abs(coefficient) > 1)
        stridedRead[index] = true;
  }
}

BufferShape Model::describe(const StagedBuffer &buffer) const {
  BufferShape shape;
  shape.in = buffer.read || (buffer.written && !buffer.isWriteDense());
  shape.out = buffer.written;
  unsigned rank = buffer.type.getRank();
  shape.dims.resize(rank);
  llvm::SmallDenseSet<unsigned, 8> dependent;
  for (unsigned d = 0; d < rank; ++d) {
    DimExtent &dim = shape.dims[d];
    const LinearIndex *first = nullptr;
    int64_t minConstant = 0, maxConstant = 0;
    for (const auto &indices : buffer.indices) {
      const LinearIndex &index = indices[d];
      if (!index.known || (first && !first->hasSameLinearPart(index))) {
        dim.whole = true;
        break;
      }
      if (!first) {
        first = &index;
        minConstant = maxConstant = index.constant;
      }
      minConstant = std::min(minConstant, index.constant);
      maxConstant = std::max(maxConstant, index.constant);
    }
    if (dim.whole || !first)
      continue;
    dim.constantSpread = maxConstant - minConstant;
    for (const auto &indices : buffer.indices)
      dim.constantStep =
          std::gcd(dim.constantStep, indices[d].constant - minConstant);
    for (auto [loop, coefficient] : first->coefficients) {
      bool known = bandIndex.count(loop) || problem.innerTripCounts.count(loop);
      if (!known) {
        dim.whole = true;
        break;
      }
      dim.coefficients.push_back({loop, coefficient});
    }
    if (dim.whole)
      continue;
    for (auto [loop, coefficient] : dim.coefficients) {
      auto it = bandIndex.find(loop);
      if (it != bandIndex.end())
        dependent.insert(it->second);
    }
  }
  shape.dependentBandLoops.assign(dependent.begin(), dependent.end());
  llvm::sort(shape.dependentBandLoops);
  return shape;
}

int64_t Model::loopExtent(Operation *loop, ArrayRef<int64_t> tileSizes) const {
  auto it = bandIndex.find(loop);
  if (it != bandIndex.end())
    return tileSizes[it->second];
  return problem.innerTripCounts.lookup(loop);
}

Tiling Model::evaluate(ArrayRef<int64_t> tileSizes,
                       ArrayRef<unsigned> order) const {
  Tiling tiling;
  tiling.tileSizes.assign(tileSizes.begin(), tileSizes.end());
  tiling.order.assign(order.begin(), order.end());
  for (auto [index, buffer] : llvm::enumerate(problem.buffers)) {
    const BufferShape &shape = shapes[index];
    BufferTraffic traffic;
    TransferBox box;
    for (auto [d, dim] : llvm::enumerate(shape.dims)) {
      int64_t size = buffer.type.getDimSize(d);
      int64_t extent = size, step = 1;
      if (!dim.whole) {
        // The box holds every step-th element of the accessed span.
        int64_t span = dim.constantSpread;
        step = dim.constantStep;
        for (auto [loop, coefficient] : dim.coefficients) {
          int64_t loopSpan = loopExtent(loop, tileSizes) - 1;
          span += std::abs(coefficient) * loopSpan;
          if (loopSpan > 0)
            step = std::gcd(step, std::abs(coefficient));
        }
        extent = 1 + (step ? span / step : 0);
        step = extent > 1 ? step : 1;
        // A span past both ends of a dimension that no tile loop moves
        // (guarded accesses through padding) is the whole dimension: the
        // transfer generator moves it whole, in long blocks.
        bool fixedOrigin = llvm::all_of(dim.coefficients, [&](auto term) {
          auto it = bandIndex.find(term.first);
          return it == bandIndex.end() ||
                 tileSizes[it->second] == problem.tripCounts[it->second];
        });
        if (step == 1 && extent >= size && fixedOrigin)
          extent = size;
      }
      box.extents.push_back(extent);
      box.steps.push_back(step);
      box.sizes.push_back(size);
    }
    box.densifyIfCheaper(buffer.getElementBytes(),
                         problem.dmaBlockOverheadBytes);
    int64_t elements = box.getElements();
    int64_t blocksPerBox =
        elements / std::max<int64_t>(box.getBlockElements(), 1);
    traffic.box = box.extents;
    traffic.boxBytes = mulSat(elements, buffer.getElementBytes());
    // Transferred once per iteration of the tile loops outside (and at) the
    // innermost tile loop the box depends on.
    int64_t placement = -1;
    for (auto [position, bandLoop] : llvm::enumerate(order))
      if (dependsOn(index, bandLoop))
        placement = position;
    int64_t loads = 1;
    for (int64_t position = 0; position <= placement; ++position) {
      unsigned bandLoop = order[position];
      loads = mulSat(loads, problem.tripCounts[bandLoop] / tileSizes[bandLoop]);
    }
    traffic.doubleBuffered =
        problem.doubleBuffering && loads > 1 && buffer.read && !buffer.written;
    traffic.localBytes =
        mulSat(traffic.boxBytes, (traffic.doubleBuffered ? 2 : 1) +
                                     (isStridedRead(index) ? 1 : 0));
    traffic.transfers = mulSat(loads, (shape.in ? 1 : 0) + (shape.out ? 1 : 0));
    traffic.blocks = mulSat(traffic.transfers, blocksPerBox);
    if (placement >= 0 && isBroadcast(index, tileSizes, order)) {
      // One read per step of all units, spread over them as pieces:
      // whole blocks, or a single block cut into one piece per unit.
      traffic.transfers = loads / problem.processingUnits;
      int64_t pieces = blocksPerBox > 1
                           ? blocksPerBox
                           : std::min(problem.processingUnits, elements);
      traffic.blocks = mulSat(traffic.transfers, pieces);
      loads = traffic.transfers;
    }
    if (shape.in)
      traffic.bytesIn = mulSat(loads, traffic.boxBytes);
    if (shape.out)
      traffic.bytesOut = mulSat(loads, traffic.boxBytes);
    tiling.footprintBytes = addSat(tiling.footprintBytes, traffic.localBytes);
    tiling.trafficBytes =
        addSat(tiling.trafficBytes, addSat(traffic.bytesIn, traffic.bytesOut));
    tiling.dmaBlocks = addSat(tiling.dmaBlocks, traffic.blocks);
    tiling.buffers.push_back(std::move(traffic));
  }
  tiling.costBytes =
      addSat(tiling.trafficBytes,
             mulSat(tiling.dmaBlocks, problem.dmaBlockOverheadBytes));
  int kind = classifyOrder(order);
  tiling.orderKind = kind > 0 ? "mloop" : kind < 0 ? "kloop" : "none";
  if (!order.empty() && order.front() < problem.parallelLoops.size() &&
      problem.parallelLoops[order.front()])
    tiling.usableUnits = std::min<int64_t>(problem.processingUnits,
                                           problem.tripCounts[order.front()] /
                                               tileSizes[order.front()]);
  return tiling;
}

bool Model::isBroadcast(unsigned index, ArrayRef<int64_t> tileSizes,
                        ArrayRef<unsigned> order) const {
  const StagedBuffer &buffer = problem.buffers[index];
  if (!problem.broadcastReads || problem.processingUnits < 2 || order.empty() ||
      !buffer.read || buffer.written)
    return false;
  unsigned spread = order.front();
  if (spread >= problem.parallelLoops.size() ||
      !problem.parallelLoops[spread] || dependsOn(index, spread))
    return false;
  // Every unit takes as many steps, so all of them need the box at once.
  int64_t steps = problem.tripCounts[spread] / tileSizes[spread];
  return steps % problem.processingUnits == 0;
}

int Model::classifyOrder(ArrayRef<unsigned> order) const {
  if (readOnly.size() < 2)
    return 0;
  unsigned maps = readOnly[0], kernels = readOnly[1];
  int firstKernelOnly = -1, firstMapOnly = -1;
  for (auto [position, bandLoop] : llvm::enumerate(order)) {
    bool onMaps = dependsOn(maps, bandLoop);
    bool onKernels = dependsOn(kernels, bandLoop);
    if (onKernels && !onMaps && firstKernelOnly < 0)
      firstKernelOnly = position;
    if (onMaps && !onKernels && firstMapOnly < 0)
      firstMapOnly = position;
  }
  if (firstKernelOnly < 0 || firstMapOnly < 0)
    return 0;
  return firstKernelOnly < firstMapOnly ? 1 : -1;
}

/// Lexicographic: more processing units busy, then lower cost (bytes
/// moved, plus the blocks' overhead), then fewer transfers (larger ones).
/// (Fewer blocks as a key steers the coordinate descent into worse local
/// optima on matmul and conv.)
bool isCheaper(const Tiling &a, const Tiling &b) {
  if (a.usableUnits != b.usableUnits)
    return a.usableUnits > b.usableUnits;
  if (a.costBytes != b.costBytes)
    return a.costBytes < b.costBytes;
  int64_t transfersA = 0, transfersB = 0;
  for (const BufferTraffic &t : a.buffers)
    transfersA = addSat(transfersA, t.transfers);
  for (const BufferTraffic &t : b.buffers)
    transfersB = addSat(transfersB, t.transfers);
  return transfersA < transfersB;
}

Tiling Model::evaluateBestOrder(ArrayRef<int64_t> tileSizes,
                                LoopOrder policy) const {
  // Loops with the same dependence signature (the set of buffers whose box
  // they index) are interchangeable for the cost: order the classes, keep
  // the loops of a class in their original order.
  llvm::SmallVector<std::pair<uint64_t, llvm::SmallVector<unsigned>>> classes;
  for (unsigned bandLoop = 0; bandLoop < tileSizes.size(); ++bandLoop) {
    if (problem.tripCounts[bandLoop] / tileSizes[bandLoop] <= 1)
      continue;
    uint64_t signature = 0;
    for (unsigned b = 0; b < problem.buffers.size() && b < 64; ++b)
      if (dependsOn(b, bandLoop))
        signature |= uint64_t(1) << b;
    auto it =
        llvm::find_if(classes, [&](auto &c) { return c.first == signature; });
    if (it == classes.end())
      classes.push_back({signature, {bandLoop}});
    else
      it->second.push_back(bandLoop);
  }
  llvm::SmallVector<unsigned> permutation(classes.size());
  std::iota(permutation.begin(), permutation.end(), 0);
  std::optional<Tiling> best, bestAnyPolicy;
  // More than 6 classes (720 orders) would need more than 64 buffers or
  // loops; keep the search bounded regardless.
  unsigned budget = 720;
  do {
    llvm::SmallVector<unsigned> order;
    for (unsigned c : permutation)
      order.append(classes[c].second.begin(), classes[c].second.end());
    Tiling candidate = evaluate(tileSizes, order);
    bool allowed =
        policy == LoopOrder::Auto || candidate.orderKind == "none" ||
        (policy == LoopOrder::MLoop) == (candidate.orderKind == "mloop");
    if (!bestAnyPolicy || isCheaper(candidate, *bestAnyPolicy))
      bestAnyPolicy = candidate;
    if (allowed && (!best || isCheaper(candidate, *best)))
      best = std::move(candidate);
  } while (--budget &&
           std::next_permutation(permutation.begin(), permutation.end()));
  return best ? *best : *bestAnyPolicy;
}

llvm::SmallVector<int64_t> getDivisors(int64_t n) {
  llvm::SmallVector<int64_t> divisors;
  for (int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      divisors.push_back(d);
      if (d != n / d)
        divisors.push_back(n / d);
    }
  llvm::sort(divisors);
  return divisors;
}

} // namespace

int64_t TransferBox::getElements() const {
  int64_t elements = 1;
  for (int64_t extent : extents)
    elements = mulSat(elements, extent);
  return elements;
}

int TransferBox::getBlockDim() const {
  int d = int(extents.size()) - 1;
  while (d >= 0 && steps[d] == 1 && extents[d] == sizes[d])
    --d;
  return d;
}

int64_t TransferBox::getBlockElements() const {
  int blockDim = getBlockDim();
  int64_t block = 1;
  for (int d = std::max(blockDim, 0); d < int(extents.size()); ++d)
    if (d != blockDim || steps[d] == 1)
      block = mulSat(block, extents[d]);
  return block;
}

void TransferBox::densifyIfCheaper(int64_t elementBytes,
                                   int64_t overheadBytes) {
  int blockDim = getBlockDim();
  if (blockDim < 0 || steps[blockDim] == 1)
    return;
  auto cost = [&](const TransferBox &box) {
    int64_t elements = box.getElements();
    int64_t blocks = elements / std::max<int64_t>(box.getBlockElements(), 1);
    return addSat(mulSat(elements, elementBytes),
                  mulSat(blocks, overheadBytes));
  };
  TransferBox dense = *this;
  dense.extents[blockDim] = (extents[blockDim] - 1) * steps[blockDim] + 1;
  dense.steps[blockDim] = 1;
  if (cost(dense) < cost(*this))
    *this = std::move(dense);
}

Tiling dlc::evaluateTiling(const TilingProblem &problem,
                           ArrayRef<int64_t> tileSizes,
                           ArrayRef<unsigned> order) {
  return Model(problem).evaluate(tileSizes, order);
}

FailureOr<Tiling> dlc::chooseTiling(const TilingProblem &problem,
                                    LoopOrder policy, std::string &diagnostic) {
  Model model(problem);
  unsigned depth = problem.band.size();
  llvm::SmallVector<llvm::SmallVector<int64_t>> divisors;
  for (int64_t trip : problem.tripCounts)
    divisors.push_back(getDivisors(trip));
  auto fits = [&](const Tiling &t) {
    return t.footprintBytes <= problem.capacityBytes;
  };

  // Coordinate descent: move one loop's tile size to any divisor while that
  // lowers the traffic and still fits.
  auto descend = [&](Tiling current) {
    while (true) {
      std::optional<Tiling> best;
      for (unsigned l = 0; l < depth; ++l)
        for (int64_t size : divisors[l]) {
          if (size == current.tileSizes[l])
            continue;
          llvm::SmallVector<int64_t> sizes = current.tileSizes;
          sizes[l] = size;
          Tiling candidate = model.evaluateBestOrder(sizes, policy);
          if (fits(candidate) && isCheaper(candidate, best ? *best : current))
            best = std::move(candidate);
        }
      // Stalled: move two loops at once, one to any divisor and the other
      // to the largest that still fits (what trading a tile dimension for
      // another under the capacity needs, e.g. more output rows of a
      // matrix-vector product for a shorter reduction tile).
      for (unsigned l = 0; !best && l < depth; ++l)
        for (int64_t size : divisors[l]) {
          if (size == current.tileSizes[l])
            continue;
          for (unsigned m = 0; m < depth; ++m) {
            if (m == l)
              continue;
            for (int64_t other : llvm::reverse(divisors[m])) {
              llvm::SmallVector<int64_t> sizes = current.tileSizes;
              sizes[l] = size;
              sizes[m] = other;
              Tiling candidate = model.evaluateBestOrder(sizes, policy);
              if (!fits(candidate))
                continue;
              if (isCheaper(candidate, best ? *best : current))
                best = std::move(candidate);
              break;
            }
          }
        }
      if (!best)
        return current;
      current = std::move(*best);
    }
  };

  llvm::SmallVector<int64_t> smallest(depth, 1);
  Tiling start = model.evaluateBestOrder(smallest, policy);
  if (!fits(start)) {
    llvm::raw_string_ostream os(diagnostic);
    os << "even the smallest tile (1 iteration of each of the " << depth
       << " tiled loops) needs " << start.footprintBytes
       << " bytes of local memory, more than its capacity of "
       << problem.capacityBytes << " bytes:";
    for (auto [buffer, traffic] : llvm::zip(problem.buffers, start.buffers)) {
      os << " " << buffer.type << " box ";
      llvm::interleave(traffic.box, os, "x");
      os << " (" << traffic.localBytes << " bytes)";
    }
    return failure();
  }
  Tiling best = descend(start);

  // Second start: the whole nest, shrunk one divisor step at a time (the
  // step costing the least traffic) until it fits.
  llvm::SmallVector<int64_t> whole(problem.tripCounts.begin(),
                                   problem.tripCounts.end());
  Tiling shrinking = model.evaluateBestOrder(whole, policy);
  while (!fits(shrinking)) {
    std::optional<Tiling> next;
    for (unsigned l = 0; l < depth; ++l) {
      auto it = llvm::find(divisors[l], shrinking.tileSizes[l]);
      if (it == divisors[l].begin())
        continue;
      llvm::SmallVector<int64_t> sizes = shrinking.tileSizes;
      sizes[l] = *std::prev(it);
      Tiling candidate = model.evaluateBestOrder(sizes, policy);
      if (!next || isCheaper(candidate, *next))
        next = std::move(candidate);
    }
    if (!next)
      break;
    shrinking = std::move(*next);
  }
  if (fits(shrinking)) {
    Tiling refined = descend(shrinking);
    if (isCheaper(refined, best))
      best = std::move(refined);
  }
  return best;
}
