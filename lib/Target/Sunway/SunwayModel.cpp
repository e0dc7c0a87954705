//===- SunwayModel.cpp - the compiler's SW26010 prediction ----------------===//
//
// Counts, per CPE, what each kernel executes by walking its region with
// the CPE's id bound: a loop whose body does not depend on its induction
// variable (constant inner trip counts, no guards, no transfer sizes that
// vary) counts its body once and multiplies; others are enumerated. The
// counts are exact; time follows docs/Targets/Sunway.md: a CPE issues one
// floating-point and one memory instruction per cycle, each transfer takes
// its bytes over a 64th of the core group's bandwidth at its block size,
// transfers overlap compute only in kernels that prefetch (double
// buffering), and a kernel takes at least its bytes at the core group's
// bandwidth.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Sunway/SunwayModel.h"

#include "dlc/Target/Sunway/SunwayEmission.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Dialect/Sunway/IR/SunwayOps.h"
#include "dlc/Target/Sunway/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/StringMap.h"

#include <map>

using namespace mlir;
using namespace dlc;
using namespace dlc::sunway;

namespace {

/// What one CPE executes in one kernel.
struct CPECounts {
  int64_t fp = 0, fpDivide = 0, ldmLoads = 0, ldmStores = 0, mainLoads = 0,
          mainStores = 0, laneMoves = 0, barriers = 0;
  int64_t getBytes = 0, putBytes = 0, transfers = 0;
  /// Seconds of its transfers, each at its share of the bandwidth.
  double dmaSeconds = 0;
  std::map<int64_t, int64_t> blocks;
};

/// Linear interpolation of the DMA curve, clamped at its ends.
double getBandwidth(const SunwayHardware &hw, double block) {
  ArrayRef<double> x = hw.dmaCurveBlockBytes, y = hw.dmaCurveBytesPerSecond;
  if (block <= x.front())
    return y.front();
  for (size_t i = 1; i < x.size(); ++i)
    if (block <= x[i])
      return y[i - 1] +
             (y[i] - y[i - 1]) * (block - x[i - 1]) / (x[i] - x[i - 1]);
  return y.back();
}

/// Floating-point instructions `op` issues: one per scalar or floatv4
/// operation (a select too), two for a vector maximum or minimum (dlc_vmaxs: a
/// subtraction and a select).
int64_t getFloatInstructions(Operation *op) {
  if (isa<vector::FMAOp, SelectNegativeOp>(op))
    return 1;
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
           arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
           arith::MinNumFOp>(op))
    return 0;
  bool isVector = isa<VectorType>(op->getResult(0).getType());
  return isVector && isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                         arith::MinNumFOp>(op)
             ? 2
             : 1;
}

/// Lane moves of `op` (simd_set_floatv4 builds a vector in four lane
/// inserts, simd_vextfsN takes one lane out).
int64_t getLaneMoves(Operation *op) {
  if (isa<vector::BroadcastOp, vector::FromElementsOp>(op))
    return 4;
  if (isa<vector::ExtractOp>(op))
    return 1;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<VectorType>(constant.getType()) ? 4 : 0;
  return 0;
}

bool isCountedDivideOp(Operation *op) {
  return isa<arith::DivFOp, math::RsqrtOp>(op) ||
         (isa<math::MathDialect>(op->getDialect()) &&
          op->getNumResults() == 1 &&
          isa<FloatType>(op->getResult(0).getType()));
}

/// Walks a kernel region for one CPE.
class KernelCounter {
public:
  KernelCounter(const SunwayHardware &hw) : hw(hw) {}

  LogicalResult count(LaunchOp launch, int64_t id, CPECounts &counts) {
    values.clear();
    values[launch.getCpeId()] = id;
    values[launch.getRow()] = id / hw.meshCols;
    values[launch.getCol()] = id % hw.meshCols;
    this->counts = &counts;
    return countBlock(launch.getBody().front(), 1);
  }

private:
  std::optional<int64_t> evaluate(Value value) {
    if (auto it = values.find(value); it != values.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto constant = dyn_cast<arith::ConstantIndexOp>(def))
      return constant.value();
    if (auto constant = dyn_cast<arith::ConstantIntOp>(def))
      return constant.value();
    auto applyMap =
        [&](AffineMap map,
            ValueRange operands) -> std::optional<SmallVector<int64_t>> {
      SmallVector<Attribute> constants;
      for (Value operand : operands) {
        std::optional<int64_t> v = evaluate(operand);
        if (!v)
          return std::nullopt;
        constants.push_back(
            IntegerAttr::get(IndexType::get(map.getContext()), *v));
      }
      SmallVector<int64_t> results;
      SmallVector<Attribute> folded;
      if (failed(map.constantFold(constants, folded)))
        return std::nullopt;
      for (Attribute attr : folded)
        results.push_back(cast<IntegerAttr>(attr).getInt());
      return results;
    };
    if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      auto r = applyMap(apply.getAffineMap(), apply.getMapOperands());
      return r ? std::optional<int64_t>(r->front()) : std::nullopt;
    }
    if (auto min = dyn_cast<affine::AffineMinOp>(def)) {
      auto r = applyMap(min.getAffineMap(), min.getMapOperands());
      return r ? std::optional<int64_t>(*llvm::min_element(*r)) : std::nullopt;
    }
    if (auto max = dyn_cast<affine::AffineMaxOp>(def)) {
      auto r = applyMap(max.getAffineMap(), max.getMapOperands());
      return r ? std::optional<int64_t>(*llvm::max_element(*r)) : std::nullopt;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      auto lhs = evaluate(cmp.getLhs()), rhs = evaluate(cmp.getRhs());
      if (!lhs || !rhs)
        return std::nullopt;
      if (cmp.getPredicate() == arith::CmpIPredicate::eq)
        return *lhs == *rhs;
      if (cmp.getPredicate() == arith::CmpIPredicate::sgt)
        return *lhs > *rhs;
      return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<SmallVector<int64_t>> evaluateMap(AffineMap map,
                                                  ValueRange operands) {
    SmallVector<Attribute> constants, folded;
    for (Value operand : operands) {
      std::optional<int64_t> v = evaluate(operand);
      if (!v)
        return std::nullopt;
      constants.push_back(
          IntegerAttr::get(IndexType::get(map.getContext()), *v));
    }
    if (failed(map.constantFold(constants, folded)))
      return std::nullopt;
    SmallVector<int64_t> results;
    for (Attribute attr : folded)
      results.push_back(cast<IntegerAttr>(attr).getInt());
    return results;
  }

  /// Whether `loop`'s body executes the same whatever its IV (the IV
  /// reaches no inner loop bound, guard or transfer size, through index
  /// arithmetic): it can be counted once and multiplied.
  static bool isUniform(affine::AffineForOp loop) {
    llvm::SmallPtrSet<Value, 8> derived = {loop.getInductionVar()};
    bool changed = true;
    // Values computed from the IV (index arithmetic is all pure, single
    // result; iterate to a fixed point over the body in order).
    while (changed) {
      changed = false;
      loop.getBody()->walk([&](Operation *op) {
        if (op->getNumResults() != 1 || !op->getResult(0).getType().isIndex() ||
            derived.contains(op->getResult(0)))
          return;
        if (llvm::any_of(op->getOperands(),
                         [&](Value v) { return derived.contains(v); })) {
          derived.insert(op->getResult(0));
          changed = true;
        }
      });
    }
    auto usesIV = [&](ValueRange values) {
      return llvm::any_of(values, [&](Value v) { return derived.contains(v); });
    };
    WalkResult walk = loop.getBody()->walk([&](Operation *op) {
      if (auto inner = dyn_cast<affine::AffineForOp>(op)) {
        if (usesIV(inner.getLowerBoundOperands()) ||
            usesIV(inner.getUpperBoundOperands()))
          return WalkResult::interrupt();
      } else if (isa<affine::AffineIfOp, scf::IfOp>(op)) {
        if (usesIV(op->getOperands()))
          return WalkResult::interrupt();
      } else if (auto get = dyn_cast<DMAGetOp>(op)) {
        if (usesIV(get.getElements()) ||
            (get.getBlockElements() && usesIV(get.getBlockElements())))
          return WalkResult::interrupt();
      } else if (auto put = dyn_cast<DMAPutOp>(op)) {
        if (usesIV(put.getElements()) ||
            (put.getBlockElements() && usesIV(put.getBlockElements())))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !walk.wasInterrupted();
  }

  LogicalResult countBlock(Block &block, int64_t times) {
    for (Operation &op : block)
      if (failed(countOp(&op, times)))
        return failure();
    return success();
  }

public:
  /// Ops visited so far (the cost of counting).
  int64_t visits = 0;

private:
  LogicalResult countOp(Operation *op, int64_t times) {
    ++visits;
    if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
      auto lower =
          evaluateMap(loop.getLowerBoundMap(), loop.getLowerBoundOperands());
      auto upper =
          evaluateMap(loop.getUpperBoundMap(), loop.getUpperBoundOperands());
      if (!lower || !upper)
        return loop.emitError("the Sunway model cannot evaluate this loop's "
                              "bounds");
      int64_t lb = *llvm::max_element(*lower), ub = *llvm::min_element(*upper);
      int64_t step = loop.getStepAsInt();
      if (ub <= lb)
        return success();
      int64_t trips = (ub - lb + step - 1) / step;
      auto [cached, inserted] = uniform.try_emplace(loop, false);
      if (inserted)
        cached->second = isUniform(loop);
      if (cached->second) {
        values[loop.getInductionVar()] = lb;
        return countBlock(*loop.getBody(), times * trips);
      }
      for (int64_t iv = lb; iv < ub; iv += step) {
        values[loop.getInductionVar()] = iv;
        if (failed(countBlock(*loop.getBody(), times)))
          return failure();
      }
      return success();
    }
    if (auto guard = dyn_cast<affine::AffineIfOp>(op)) {
      SmallVector<int64_t> operands;
      for (Value operand : guard.getOperands()) {
        std::optional<int64_t> v = evaluate(operand);
        if (!v)
          return guard.emitError("the Sunway model cannot evaluate this "
                                 "condition");
        operands.push_back(*v);
      }
      IntegerSet set = guard.getIntegerSet();
      bool holds = true;
      for (unsigned i = 0; i < set.getNumConstraints(); ++i) {
        AffineMap map = AffineMap::get(set.getNumDims(), set.getNumSymbols(),
                                       set.getConstraint(i));
        SmallVector<Attribute> constants, folded;
        for (int64_t v : operands)
          constants.push_back(
              IntegerAttr::get(IndexType::get(op->getContext()), v));
        if (failed(map.constantFold(constants, folded)))
          return guard.emitError("the Sunway model cannot fold this condition");
        int64_t value = cast<IntegerAttr>(folded.front()).getInt();
        holds &= set.isEq(i) ? value == 0 : value >= 0;
      }
      Region &region = holds ? guard.getThenRegion() : guard.getElseRegion();
      return region.empty() ? success() : countBlock(region.front(), times);
    }
    if (auto guard = dyn_cast<scf::IfOp>(op)) {
      std::optional<int64_t> condition = evaluate(guard.getCondition());
      if (!condition)
        return guard.emitError("the Sunway model cannot evaluate this "
                               "condition");
      Region &region =
          *condition ? guard.getThenRegion() : guard.getElseRegion();
      return region.empty() ? success() : countBlock(region.front(), times);
    }
    if (isa<BarrierOp>(op))
      counts->barriers += times;
    if (auto get = dyn_cast<DMAGetOp>(op))
      return countDMA(get, times, /*isGet=*/true);
    if (auto put = dyn_cast<DMAPutOp>(op))
      return countDMA(put, times, /*isGet=*/false);
    if (isa<memref::LoadOp, affine::AffineLoadOp, vector::LoadOp, LoadSplatOp>(
            op)) {
      Value memref = op->getOperand(0);
      (isLDM(memref.getType()) ? counts->ldmLoads : counts->mainLoads) += times;
    } else if (isa<memref::StoreOp, affine::AffineStoreOp, vector::StoreOp>(
                   op)) {
      Value memref = op->getOperand(1);
      (isLDM(memref.getType()) ? counts->ldmStores : counts->mainStores) +=
          times;
    } else if (int64_t instructions = getFloatInstructions(op)) {
      counts->fp += instructions * times;
    } else if (int64_t moves = getLaneMoves(op)) {
      counts->laneMoves += moves * times;
    } else if (isCountedDivideOp(op)) {
      counts->fp += times;
      counts->fpDivide += times;
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(countBlock(block, times)))
          return failure();
    return success();
  }

  template <typename DMAOp>
  LogicalResult countDMA(DMAOp dma, int64_t times, bool isGet) {
    std::optional<int64_t> elements = evaluate(dma.getElements());
    std::optional<int64_t> block =
        dma.getBlockElements() ? evaluate(dma.getBlockElements()) : elements;
    if (!elements || !block)
      return dma.emitError("the Sunway model cannot evaluate this transfer's "
                           "size");
    int64_t bytes = *elements * dma.getElementBytes();
    int64_t blockBytes = *block * dma.getElementBytes();
    (isGet ? counts->getBytes : counts->putBytes) += bytes * times;
    counts->transfers += times;
    counts->blocks[blockBytes] += times * (*elements / *block);
    counts->dmaSeconds +=
        times * bytes / (getBandwidth(hw, blockBytes) / hw.cpes);
    return success();
  }

  const SunwayHardware &hw;
  DenseMap<Value, int64_t> values;
  DenseMap<Operation *, bool> uniform;
  CPECounts *counts = nullptr;
};

/// A kernel prefetches when it starts a transfer under a guard inside a
/// loop: what double buffering writes.
bool prefetches(LaunchOp launch) {
  bool found = false;
  launch.walk([&](DMAGetOp get) {
    if (get->getParentOfType<affine::AffineIfOp>() &&
        get->getParentOfType<affine::AffineForOp>())
      found = true;
  });
  return found;
}

} // namespace

int64_t dlc::sunway::getCompulsoryBytes(const EntrySignature &signature,
                                        int64_t weightsBytes) {
  int64_t bytes = weightsBytes;
  for (const auto *specs : {&signature.inputs, &signature.outputs})
    for (const TensorSpec &spec : *specs) {
      int64_t elements = getElementSize(spec.kind);
      for (int64_t dim : spec.shape)
        elements *= dim;
      bytes += elements;
    }
  return bytes;
}

std::vector<SunwayLayer> dlc::sunway::getSunwayLayers(ModuleOp module,
                                                      const ModelCost &cost) {
  auto addPlacement = [](SunwayLayer &layer, StringRef placement) {
    if (!llvm::is_contained(layer.placements, placement))
      layer.placements.push_back(placement.str());
  };
  std::vector<SunwayLayer> layers;
  llvm::StringMap<size_t> index;
  auto layerOf = [&](Location loc, StringRef unit) -> SunwayLayer & {
    std::string name = getNodeName(loc);
    if (name.empty()) {
      llvm::raw_string_ostream os(name);
      loc.print(os);
    }
    auto [it, inserted] = index.try_emplace(name, layers.size());
    if (inserted) {
      SunwayLayer &layer = layers.emplace_back();
      layer.name = name;
      layer.op = getNodeOpType(loc);
      layer.unit = unit.str();
      for (const OpCost &op : cost.ops)
        if (op.name == name)
          layer.macs += op.macs;
    } else if (layers[it->second].unit != unit) {
      layers[it->second].unit = "cpe+mpe";
    }
    return layers[it->second];
  };
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    for (Operation &op : func.getBody().front()) {
      if (auto launch = dyn_cast<LaunchOp>(op)) {
        SunwayLayer &layer = layerOf(launch.getLoc(), "cpe");
        if (auto placement =
                SunwayDialect::PlacementAttrHelper(launch.getContext())
                    .getAttr(launch))
          addPlacement(layer, placement.getValue());
        layer.kernels.push_back(launch.getKernel().str());
        layer.ldmBytes =
            std::max<int64_t>(layer.ldmBytes, launch.getLdmBytes());
      } else if (isa<affine::AffineForOp>(op)) {
        addPlacement(layerOf(op.getLoc(), "mpe"), kMPEPlacement);
      }
    }
  }
  return layers;
}

FailureOr<TargetReport>
dlc::sunway::predictSunwayReport(ModuleOp module, const ModelCost &cost) {
  HardwareAttr hardware = HardwareAttr::lookup(module);
  SunwayHardware hw = SunwayHardware::get(hardware);
  TargetReport report;
  report.target = "sunway";
  report.source = "predicted";
  report.hardware = hardwareToJSON(hardware);
  report.clockHz = hw.clockHz;
  report.peakMacsPerCycle = hw.getPeakFlopsPerCycle() / 2;
  report.peakDramBytesPerSecond = *llvm::max_element(hw.dmaCurveBytesPerSecond);

  FailureOr<WeightsLayout> weights = layOutWeights(module);
  FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
  if (failed(weights) || failed(signature))
    return failure();
  report.compulsoryDramBytes = getCompulsoryBytes(*signature, weights->bytes);

  std::vector<SunwayLayer> layers = getSunwayLayers(module, cost);
  llvm::StringMap<LaunchOp> launches;
  module.walk([&](LaunchOp launch) { launches[launch.getKernel()] = launch; });
  KernelCounter counter(hw);
  for (const SunwayLayer &layer : layers) {
    LayerFigures &figures = report.layers.emplace_back();
    figures.name = layer.name;
    figures.op = layer.op;
    figures.macs = layer.macs;
    figures.extra["unit"] = layer.unit;
    figures.extra["placement"] = layer.placements;
    double cycles = 0, dmaBound = 0, maxCompute = 0, meanCompute = 0;
    bool exact = true;
    int64_t transfers = 0, fp = 0, ldm = 0;
    for (const std::string &kernel : layer.kernels) {
      LaunchOp launch = launches.lookup(kernel);
      bool overlaps = prefetches(launch);
      double slowest = 0, kernelMaxCompute = 0, kernelSumCompute = 0;
      int64_t kernelBytes = 0, kernelBlocks = 0;
      // Counting every CPE is exact; when that would take long (a guard
      // deep in a large nest), CPEs that run as many iterations of the
      // distributed loop are counted once (exact when their tiles are
      // alike, which only clipped boundary tiles break).
      constexpr int64_t kVisitBudget = 20'000'000;
      std::map<int64_t, CPECounts> byTrips;
      auto tripsOf = [&](int64_t id) -> int64_t {
        affine::AffineForOp distributed;
        launch.walk([&](affine::AffineForOp loop) {
          if (loop->hasAttr(DLCDialect::DistributedAttrHelper::getNameStr()))
            distributed = loop;
        });
        if (!distributed || !distributed.hasConstantUpperBound())
          return 0;
        AffineMap lower = distributed.getLowerBoundMap();
        SmallVector<Attribute> operands, folded;
        for (Value v : distributed.getLowerBoundOperands())
          operands.push_back(
              IntegerAttr::get(IndexType::get(launch.getContext()),
                               v == launch.getCpeId() ? id : 0));
        if (lower.getNumResults() != 1 ||
            failed(lower.constantFold(operands, folded)))
          return 0;
        int64_t lb = cast<IntegerAttr>(folded[0]).getInt();
        int64_t ub = distributed.getConstantUpperBound();
        int64_t step = distributed.getStepAsInt();
        return ub > lb ? (ub - lb + step - 1) / step : 0;
      };
      bool sampled = false;
      for (int64_t id = 0; id < hw.cpes; ++id) {
        CPECounts counts;
        int64_t trips = tripsOf(id);
        if (sampled && byTrips.count(trips)) {
          counts = byTrips[trips];
        } else {
          counter.visits = 0;
          if (failed(counter.count(launch, id, counts)))
            return failure();
          byTrips[trips] = counts;
          if (id == 0 && counter.visits * hw.cpes > kVisitBudget)
            sampled = true;
        }
        double fpCycles = counts.fp + counts.fpDivide * (hw.divideCycles - 1);
        double memCycles =
            counts.ldmLoads + counts.ldmStores + counts.laneMoves +
            (counts.mainLoads + counts.mainStores) * hw.mainMemoryAccessCycles;
        // A barrier costs its cycles and lines the CPEs up; the wait
        // for the slowest is not counted (each CPE is counted alone).
        double compute =
            std::max(fpCycles, memCycles) + counts.barriers * hw.barrierCycles;
        double dma = counts.dmaSeconds * hw.clockHz;
        slowest = std::max(slowest,
                           overlaps ? std::max(compute, dma) : compute + dma);
        kernelMaxCompute = std::max(kernelMaxCompute, compute);
        kernelSumCompute += compute;
        figures.dramReadBytes += counts.getBytes;
        figures.dramWriteBytes += counts.putBytes;
        kernelBytes += counts.getBytes + counts.putBytes;
        for (auto [bytes, number] : counts.blocks)
          kernelBlocks += number;
        transfers += counts.transfers;
        fp += counts.fp;
        ldm += counts.ldmLoads + counts.ldmStores;
      }
      double meanBlock = kernelBlocks ? double(kernelBytes) / kernelBlocks : 0;
      double bound =
          kernelBytes ? kernelBytes / getBandwidth(hw, meanBlock) * hw.clockHz
                      : 0;
      cycles += std::max(slowest, bound) + hw.spawnOverheadCycles;
      exact &= !sampled;
      dmaBound += bound;
      maxCompute += kernelMaxCompute;
      meanCompute += kernelSumCompute / hw.cpes;
    }
    figures.cycles = cycles;
    figures.extra["launches"] = static_cast<int64_t>(layer.kernels.size());
    // Whether every CPE was counted (see above).
    figures.extra["exact"] = exact;
    figures.extra["dma_bound_cycles"] = dmaBound;
    figures.extra["dma_transfers"] = transfers;
    figures.extra["mean_dma_block_bytes"] =
        transfers
            ? double(figures.dramReadBytes + figures.dramWriteBytes) / transfers
            : 0.0;
    figures.extra["fp_instructions"] = fp;
    figures.extra["ldm_accesses"] = ldm;
    figures.extra["ldm_bytes"] = layer.ldmBytes;
    figures.extra["cpe_compute_cycles_max"] = maxCompute;
    figures.extra["load_balance"] =
        maxCompute > 0 ? meanCompute / maxCompute : 1.0;
  }
  return report;
}
