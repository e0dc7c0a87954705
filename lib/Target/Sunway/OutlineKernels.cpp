//===- OutlineKernels.cpp - staged nests become CPE kernels ---------------===//
//
// See the pass description in include/dlc/Target/Sunway/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Target/Sunway/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace dlc::sunway {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "dlc/Target/Sunway/Passes.h.inc"
} // namespace dlc::sunway

using namespace mlir;
using namespace mlir::affine;
using namespace dlc;
using namespace dlc::sunway;

namespace {

bool isInSpace(Type type, int64_t space) {
  auto memref = dyn_cast<MemRefType>(type);
  auto attr =
      memref ? dyn_cast_or_null<IntegerAttr>(memref.getMemorySpace()) : nullptr;
  return attr && attr.getInt() == space;
}

/// A DMA tag: a main-memory i32 buffer used only by DMA ops (and freed).
bool isTagAlloc(Operation *op) {
  auto alloc = dyn_cast<memref::AllocOp>(op);
  if (!alloc || !alloc.getType().getElementType().isInteger(32) ||
      alloc.getType().getMemorySpace())
    return false;
  return !alloc->use_empty() &&
         llvm::all_of(alloc->getUsers(), [&](Operation *user) {
           if (auto start = dyn_cast<AffineDmaStartOp>(user))
             return start.getTagMemRef() == alloc.getResult();
           return isa<AffineDmaWaitOp, memref::DeallocOp>(user);
         });
}

/// The buffer a kernel resource's alloc or dealloc concerns, if `op` is one.
Value getResource(Operation *op, int64_t localSpace, bool &isAlloc) {
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    isAlloc = true;
    if (isInSpace(alloc.getType(), localSpace) || isTagAlloc(op))
      return alloc.getResult();
    return nullptr;
  }
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
    isAlloc = false;
    Value buffer = dealloc.getMemref();
    Operation *def = buffer.getDefiningOp();
    if (isInSpace(buffer.getType(), localSpace) || (def && isTagAlloc(def)))
      return buffer;
  }
  return nullptr;
}

struct OutlineKernelsPass
    : dlc::sunway::impl::OutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(func);
    if (!hardware || !hardware.hasLocalMemory() || func.isExternal())
      return;
    int64_t localSpace = hardware.getLocalMemorySpace();
    SunwayHardware hw = SunwayHardware::get(hardware);
    if (failed(hw.verify([&] { return func.emitError(); })))
      return signalPassFailure();
    // sw5cc's C has no 16-bit floating-point type.
    WalkResult halves = func.walk([&](Operation *op) {
      auto isHalf = [](Type type) {
        return isa<Float16Type, BFloat16Type>(getElementTypeOrSelf(type));
      };
      if (llvm::any_of(op->getResultTypes(), isHalf) ||
          llvm::any_of(op->getOperandTypes(), isHalf)) {
        op->emitError("the Sunway target has no 16-bit floating-point type "
                      "(the SW26010's C has none): f16 and bf16 tensors are "
                      "not supported");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (halves.wasInterrupted())
      return signalPassFailure();

    // The stretches of the body during which some local buffer or tag is
    // live.
    SmallVector<SmallVector<Operation *>> groups;
    int64_t live = 0;
    for (Operation &op : func.getBody().front().without_terminator()) {
      bool isAlloc = false;
      Value resource = getResource(&op, localSpace, isAlloc);
      if (live == 0 && !(resource && isAlloc)) {
        if (isa<AffineForOp>(op))
          op.emitRemark("runs on the ") << kMPEPlacement;
        continue;
      }
      if (live == 0)
        groups.emplace_back();
      groups.back().push_back(&op);
      if (resource)
        live += isAlloc ? 1 : -1;
    }
    if (live != 0) {
      func.emitError("a local buffer or DMA tag is never deallocated: "
                     "kernels cannot be delimited");
      return signalPassFailure();
    }
    unsigned index = 0;
    for (SmallVector<Operation *> &group : groups)
      if (failed(outline(group, index++, hw, localSpace)))
        return signalPassFailure();
  }

  LogicalResult outline(SmallVector<Operation *> &group, unsigned index,
                        const SunwayHardware &hw, int64_t localSpace) {
    // Main-memory allocations are the MPE's: before the kernel, and their
    // deallocations after it.
    Operation *first = group.front(), *last = group.back();
    SmallVector<Operation *> kernelOps;
    for (Operation *op : group) {
      bool isAlloc = false;
      bool isResource = getResource(op, localSpace, isAlloc) != nullptr;
      if (!isResource && isa<memref::AllocOp>(op))
        op->moveBefore(first);
      else if (!isResource && isa<memref::DeallocOp>(op))
        op->moveAfter(last), last = op;
      else
        kernelOps.push_back(op);
    }
    llvm::SmallPtrSet<Operation *, 16> inKernel(kernelOps.begin(),
                                                kernelOps.end());
    auto isInside = [&](Operation *op) {
      for (Operation *ancestor = op; ancestor;
           ancestor = ancestor->getParentOp())
        if (inKernel.contains(ancestor))
          return true;
      return false;
    };

    // What the kernel uses from outside: buffers become operands,
    // constants are cloned.
    llvm::SetVector<Value> buffers, constants;
    for (Operation *op : kernelOps) {
      WalkResult walk = op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (def ? isInside(def)
                  : isInside(
                        cast<BlockArgument>(operand).getOwner()->getParentOp()))
            continue;
          if (isa<MemRefType>(operand.getType()))
            buffers.insert(operand);
          else if (def && def->hasTrait<OpTrait::ConstantLike>())
            constants.insert(operand);
          else {
            nested->emitError("cannot run on the CPEs: uses ")
                << operand << ", computed on the MPE";
            return WalkResult::interrupt();
          }
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (!isInside(user))
            return user->emitError("uses a value of a CPE kernel on the MPE");
    }

    AffineForOp nest;
    for (Operation *op : kernelOps)
      if (auto loop = dyn_cast<AffineForOp>(op))
        if (!nest || loop->hasAttr(DLCDialect::TilingAttrHelper::getNameStr()))
          nest = loop;
    std::string node = dlc::getNodeName(nest ? nest.getOperation() : first);

    OpBuilder b(kernelOps.front());
    Location loc = nest ? nest.getLoc() : kernelOps.front()->getLoc();
    std::string kernel = "k" + std::to_string(index);
    auto launch =
        LaunchOp::create(b, loc, b.getStringAttr(kernel), buffers.getArrayRef(),
                         b.getStringAttr(node), b.getI64IntegerAttr(0));
    Block *body = new Block();
    launch.getBody().push_back(body);
    for (unsigned i = 0; i < LaunchOp::kNumIdArguments; ++i)
      body->addArgument(b.getIndexType(), loc);
    for (Value buffer : buffers)
      body->addArgument(buffer.getType(), buffer.getLoc());
    OpBuilder inside = OpBuilder::atBlockEnd(body);
    auto end = EndOp::create(inside, loc);
    for (Operation *op : kernelOps)
      op->moveBefore(end);
    inside.setInsertionPointToStart(body);
    IRMapping constantClones;
    for (Value constant : constants) {
      Operation *clone = inside.clone(*constant.getDefiningOp());
      replaceAllUsesInRegionWith(constant, clone->getResult(0),
                                 launch.getBody());
    }
    for (auto [i, buffer] : llvm::enumerate(buffers))
      replaceAllUsesInRegionWith(buffer, launch.getBufferArgument(i),
                                 launch.getBody());

    return distribute(launch, nest, hw, localSpace);
  }

  /// Spreads the nest's outermost tile loop over the CPEs, or gives the
  /// whole kernel to CPE 0.
  LogicalResult distribute(LaunchOp launch, AffineForOp nest,
                           const SunwayHardware &hw, int64_t localSpace) {
    std::string why;
    std::optional<uint64_t> trip =
        nest ? getConstantTripCount(nest) : std::nullopt;
    if (!nest || !nest->hasAttr(DLCDialect::TileLoopAttrHelper::getNameStr()))
      why = "its nest has no tile loop to spread";
    else if (!nest->hasAttr(DLCDialect::ParallelAttrHelper::getNameStr()))
      why = "its outermost tile loop carries a dependence";
    else if (!nest.hasConstantBounds() || !trip || *trip < 2)
      why = "its outermost tile loop has fewer than two iterations";
    if (why.empty()) {
      launch.getBody().walk([&](AffineDmaStartOp dma) {
        if (!nest->isAncestor(dma) &&
            !isInSpace(dma.getDstMemRef().getType(), localSpace))
          why = "it writes main memory outside its outermost tile loop";
      });
    }
    Block &body = launch.getBody().front();
    OpBuilder b(launch.getContext());
    auto setPlacement = [&](const llvm::Twine &placement) {
      launch->setAttr(SunwayDialect::PlacementAttrHelper::getNameStr(),
                      b.getStringAttr(placement));
    };
    if (!why.empty()) {
      launch.emitRemark("runs on CPE 0 alone: ") << why;
      setPlacement("CPE 0 alone: " + why);
      b.setInsertionPoint(body.getTerminator());
      Value zero = arith::ConstantIndexOp::create(b, launch.getLoc(), 0);
      Value isFirst =
          arith::CmpIOp::create(b, launch.getLoc(), arith::CmpIPredicate::eq,
                                launch.getCpeId(), zero);
      auto guard = scf::IfOp::create(b, launch.getLoc(), isFirst,
                                     /*withElseRegion=*/false);
      Operation *guardOp = guard;
      Block *then = guard.thenBlock();
      for (Operation &op :
           llvm::make_early_inc_range(body.without_terminator())) {
        if (&op == guardOp || &op == zero.getDefiningOp() ||
            &op == isFirst.getDefiningOp() ||
            op.hasTrait<OpTrait::ConstantLike>())
          continue;
        op.moveBefore(then->getTerminator());
      }
      return success();
    }
    int64_t step = nest.getStepAsInt();
    int64_t lower = nest.getConstantLowerBound();
    AffineExpr id = b.getAffineSymbolExpr(0);
    nest.setLowerBound({launch.getCpeId()},
                       AffineMap::get(0, 1, id * step + lower));
    nest.setStep(step * hw.cpes);
    setPlacement("CPEs: the outermost tile loop (" + llvm::Twine(*trip) +
                 " iterations) spread over the " + llvm::Twine(hw.cpes) +
                 " CPEs");
    nest->setAttr(DLCDialect::DistributedAttrHelper::getNameStr(),
                  b.getDictionaryAttr(
                      {b.getNamedAttr("units", b.getI64IntegerAttr(hw.cpes)),
                       b.getNamedAttr("trips", b.getI64IntegerAttr(*trip))}));
    return success();
  }
};

} // namespace
