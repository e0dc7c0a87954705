//===- LocalMemory.cpp - local buffers live at each point -----------------===//

#include "LocalMemory.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dlc;

bool dlc::isLocalMemRef(Type type, int64_t localSpace) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref)
    return false;
  auto space = dyn_cast_or_null<IntegerAttr>(memref.getMemorySpace());
  return space && space.getInt() == localSpace;
}

/// The buffer `value` is a view of (through subviews, casts, reshapes).
static Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewSource() == value)
      break;
    value = view.getViewSource();
  }
  return value;
}

static bool isAllocation(Operation *op) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(op);
}

namespace {

/// A local allocation live at some point, with the number of its instances
/// live there (more than one when a loop body allocates it and never frees
/// it).
struct LiveBuffer {
  Operation *alloc;
  int64_t bytes;
  int64_t instances;
};

struct LiveSet {
  SmallVector<LiveBuffer> buffers;
  int64_t bytes = 0;

  LiveBuffer *find(Operation *alloc) {
    auto it = llvm::find_if(buffers, [&](const LiveBuffer &buffer) {
      return buffer.alloc == alloc;
    });
    return it == buffers.end() ? nullptr : &*it;
  }
};

class LocalMemoryWalker {
public:
  LocalMemoryWalker(func::FuncOp function, const LocalMemoryOptions &options)
      : function(function), options(options) {}

  /// Walks `block` with `live` live on entry: on return `live` holds what is
  /// live at its end and `peak` is raised to the most bytes live in it.
  LogicalResult walkBlock(Block &block, LiveSet &live, int64_t &peak);

  DenseMap<Operation *, int64_t> peaks;

private:
  bool isLocal(Type type) const {
    return isLocalMemRef(type, options.localSpace);
  }
  LogicalResult visitAlloc(Operation *alloc, LiveSet &live, int64_t &peak);
  LogicalResult visitDealloc(memref::DeallocOp dealloc, LiveSet &live);
  LogicalResult checkUses(Operation *op, LiveSet &live);
  LogicalResult walkRegions(Operation *op, LiveSet &live, int64_t &peak);
  LogicalResult checkCapacity(Operation *alloc, const LiveSet &live,
                              int64_t bytes);
  /// The node of the nest `op` belongs to: its top-level nest, or for an op
  /// of the function body the next nest (staging buffers are allocated just
  /// before theirs).
  std::string getNestName(Operation *op);
  std::string describe(Value value);

  func::FuncOp function;
  const LocalMemoryOptions &options;
  std::optional<AsmState> asmState;
};

} // namespace

std::string LocalMemoryWalker::describe(Value value) {
  if (!asmState)
    asmState.emplace(function);
  std::string text;
  llvm::raw_string_ostream os(text);
  value.printAsOperand(os, *asmState);
  os << " (" << value.getType() << ")";
  return text;
}

std::string LocalMemoryWalker::getNestName(Operation *op) {
  Block &body = function.getBody().front();
  Operation *topLevel = body.findAncestorOpInBlock(*op);
  for (Operation *next = topLevel; next; next = next->getNextNode())
    if (isa<affine::AffineForOp>(next))
      return getNodeName(next);
  return getNodeName(op);
}

LogicalResult LocalMemoryWalker::checkCapacity(Operation *alloc,
                                               const LiveSet &live,
                                               int64_t bytes) {
  if (!options.verify || bytes <= options.capacity)
    return success();
  InFlightDiagnostic diag = alloc->emitError();
  diag << "local memory over-committed in '" << getNestName(alloc)
       << "': " << bytes << " bytes live, capacity " << options.capacity
       << " bytes; live buffers: ";
  llvm::interleaveComma(live.buffers, diag, [&](const LiveBuffer &buffer) {
    diag << describe(buffer.alloc->getResult(0)) << " ";
    if (buffer.instances != 1)
      diag << buffer.instances << " x ";
    diag << buffer.bytes << " bytes";
  });
  return failure();
}

LogicalResult LocalMemoryWalker::visitAlloc(Operation *alloc, LiveSet &live,
                                            int64_t &peak) {
  auto type = cast<MemRefType>(alloc->getResult(0).getType());
  std::optional<int64_t> elementBytes = getElementBytes(type.getElementType());
  if (!type.hasStaticShape() || alloc->getNumOperands() != 0)
    return alloc->emitError("local buffer ")
           << type << " has no static size: local memory can only be checked "
           << "with static shapes";
  if (!elementBytes)
    return alloc->emitError("local buffer ")
           << type << " has an element type without a known size";
  int64_t bytes;
  if (llvm::MulOverflow(type.getNumElements(), *elementBytes, bytes))
    return alloc->emitError("local buffer ") << type << " is too large";
  live.buffers.push_back({alloc, bytes, 1});
  live.bytes += bytes;
  peak = std::max(peak, live.bytes);
  return checkCapacity(alloc, live, live.bytes);
}

LogicalResult LocalMemoryWalker::visitDealloc(memref::DeallocOp dealloc,
                                              LiveSet &live) {
  Value root = getRootBuffer(dealloc.getMemref());
  Operation *alloc = root.getDefiningOp();
  LiveBuffer *buffer = isAllocation(alloc) ? live.find(alloc) : nullptr;
  if (options.verify) {
    if (!isAllocation(alloc))
      return dealloc.emitError("deallocates local buffer ")
             << describe(root)
             << ", which is not a memref.alloc result (its lifetime is not "
                "tracked)";
    if (!buffer)
      return dealloc.emitError("deallocates local buffer ")
             << describe(root) << ", which is not live here";
    // Freed in a nested region, it would be freed conditionally or once per
    // iteration: the allocation's block must free it.
    if (alloc->getBlock() != dealloc->getBlock())
      return dealloc.emitError("deallocates local buffer ")
             << describe(root)
             << " in a region nested below its allocation; it must be "
                "deallocated in the block that allocates it";
  }
  if (!buffer)
    return success();
  live.bytes -= buffer->bytes * buffer->instances;
  live.buffers.erase(live.buffers.begin() + (buffer - live.buffers.data()));
  return success();
}

LogicalResult LocalMemoryWalker::checkUses(Operation *op, LiveSet &live) {
  for (Value operand : op->getOperands()) {
    if (!isLocal(operand.getType()))
      continue;
    Value root = getRootBuffer(operand);
    Operation *alloc = root.getDefiningOp();
    if (!isAllocation(alloc))
      return op->emitError("uses local buffer ")
             << describe(root)
             << ", which is not a memref.alloc or memref.alloca result: local "
                "memory is checked per function, on its own allocations";
    if (!live.find(alloc))
      return op->emitError("uses local buffer ")
             << describe(root) << " after its deallocation";
  }
  return success();
}

/// Number of times the regions of `op` run for one execution of `op`: 1 for
/// an op that is not a loop, the trip count of a loop, nullopt when unknown.
static std::optional<int64_t> getRegionRuns(Operation *op) {
  if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
    std::optional<uint64_t> tripCount = affine::getConstantTripCount(loop);
    if (!tripCount)
      return std::nullopt;
    return static_cast<int64_t>(*tripCount);
  }
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    std::optional<APInt> tripCount = loop.getStaticTripCount();
    if (!tripCount || tripCount->getActiveBits() > 62)
      return std::nullopt;
    return tripCount->getSExtValue();
  }
  return 1;
}

LogicalResult LocalMemoryWalker::walkRegions(Operation *op, LiveSet &live,
                                             int64_t &peak) {
  // Buffers live after `op`: those live before it that its regions do not
  // free, and those its regions allocate and never free (from any region:
  // which one runs is not known).
  LiveSet after = live;
  bool freesScope = op->hasTrait<OpTrait::AutomaticAllocationScope>();
  std::optional<int64_t> runs = getRegionRuns(op);
  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      LiveSet inner = live;
      int64_t innerPeak = inner.bytes;
      if (failed(walkBlock(block, inner, innerPeak)))
        return failure();
      SmallVector<LiveBuffer> leaked;
      int64_t leakedBytes = 0;
      for (const LiveBuffer &buffer : inner.buffers) {
        if (live.find(buffer.alloc) ||
            (freesScope && isa<memref::AllocaOp>(buffer.alloc)))
          continue;
        leaked.push_back(buffer);
        leakedBytes += buffer.bytes * buffer.instances;
      }
      // A loop that never runs its body adds nothing.
      if (runs == 0)
        continue;
      if (!leaked.empty()) {
        if (!runs)
          return leaked.front().alloc->emitError(
              "local buffer is allocated in a loop without a constant trip "
              "count and not freed in its body: its live instances cannot be "
              "counted");
        // The last run has the buffers of all earlier ones live.
        int64_t earlierBytes, lastRunPeak;
        if (llvm::MulOverflow(*runs - 1, leakedBytes, earlierBytes) ||
            llvm::AddOverflow(innerPeak, earlierBytes, lastRunPeak))
          return leaked.front().alloc->emitError(
              "local buffer is allocated in a loop and not freed in its "
              "body: its live instances overflow 64-bit byte counts");
        LiveSet lastRun = inner;
        for (LiveBuffer &buffer : lastRun.buffers)
          if (!live.find(buffer.alloc))
            buffer.instances *= *runs;
        if (failed(checkCapacity(leaked.front().alloc, lastRun, lastRunPeak)))
          return failure();
        innerPeak = lastRunPeak;
        for (LiveBuffer buffer : leaked) {
          buffer.instances *= *runs;
          if (LiveBuffer *existing = after.find(buffer.alloc)) {
            after.bytes -= existing->bytes * existing->instances;
            existing->instances =
                std::max(existing->instances, buffer.instances);
            after.bytes += existing->bytes * existing->instances;
          } else {
            after.buffers.push_back(buffer);
            after.bytes += buffer.bytes * buffer.instances;
          }
        }
      }
      // Buffers freed inside the region are gone after it (a free below the
      // allocation's block is an error when verifying).
      for (const LiveBuffer &buffer : live.buffers) {
        if (inner.find(buffer.alloc))
          continue;
        if (LiveBuffer *gone = after.find(buffer.alloc)) {
          after.bytes -= gone->bytes * gone->instances;
          after.buffers.erase(after.buffers.begin() +
                              (gone - after.buffers.data()));
        }
      }
      peak = std::max(peak, innerPeak);
    }
  }
  live = std::move(after);
  peak = std::max(peak, live.bytes);
  return success();
}

LogicalResult LocalMemoryWalker::walkBlock(Block &block, LiveSet &live,
                                           int64_t &peak) {
  bool isBody = &block == &function.getBody().front();
  peak = std::max(peak, live.bytes);
  for (Operation &op : block) {
    int64_t opPeak = live.bytes;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      if (isLocal(dealloc.getMemref().getType()) &&
          failed(visitDealloc(dealloc, live)))
        return failure();
    } else {
      if (options.verify && failed(checkUses(&op, live)))
        return failure();
      if (isAllocation(&op) && isLocal(op.getResult(0).getType())) {
        if (failed(visitAlloc(&op, live, opPeak)))
          return failure();
      } else if (op.getNumRegions() != 0) {
        if (failed(walkRegions(&op, live, opPeak)))
          return failure();
      }
    }
    peak = std::max(peak, opPeak);
    if (isBody)
      peaks[&op] = opPeak;
  }
  return success();
}

FailureOr<DenseMap<Operation *, int64_t>>
dlc::computeLocalMemoryPeaks(func::FuncOp function,
                             const LocalMemoryOptions &options) {
  LocalMemoryWalker walker(function, options);
  if (function.isExternal())
    return walker.peaks;
  if (!function.getBody().hasOneBlock())
    return function.emitError("local memory is checked on single-block ")
           << "function bodies (affine code); this one has "
           << function.getBody().getBlocks().size() << " blocks";
  LiveSet live;
  int64_t peak = 0;
  if (failed(walker.walkBlock(function.getBody().front(), live, peak)))
    return failure();
  return std::move(walker.peaks);
}

SmallVector<affine::AffineDmaStartOp> dlc::getBufferTransfers(Value local) {
  SmallVector<affine::AffineDmaStartOp> transfers;
  Operation *scope = local.getParentRegion()->getParentOp();
  scope->walk<WalkOrder::PreOrder>([&](affine::AffineDmaStartOp dma) {
    if (dma.getSrcMemRef() == local || dma.getDstMemRef() == local)
      transfers.push_back(dma);
  });
  return transfers;
}
