//===- AssignLDM.cpp - kernel buffers at LDM offsets, athread DMA ---------===//
//
// See the pass description in include/dlc/Target/Sunway/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Target/Sunway/Passes.h"
#include "dlc/Transforms/DMADescription.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

#include <map>

namespace dlc::sunway {
#define GEN_PASS_DEF_ASSIGNLDM
#include "dlc/Target/Sunway/Passes.h.inc"
} // namespace dlc::sunway

using namespace mlir;
using namespace mlir::affine;
using namespace dlc;
using namespace dlc::sunway;

namespace {

/// First fit over the kernel's buffer lifetimes: offsets in bytes.
class LDMAllocator {
public:
  explicit LDMAllocator(int64_t alignment) : alignment(alignment) {}

  int64_t allocate(int64_t bytes) {
    bytes = llvm::alignTo(bytes, alignment);
    int64_t offset = 0;
    for (auto [start, size] : used) {
      if (offset + bytes <= start)
        break;
      offset = std::max(offset, start + size);
    }
    used[offset] = bytes;
    highWater = std::max(highWater, offset + bytes);
    return offset;
  }
  void release(int64_t offset) { used.erase(offset); }
  int64_t getHighWater() const { return highWater; }

private:
  int64_t alignment;
  std::map<int64_t, int64_t> used;
  int64_t highWater = 0;
};

struct Tag {
  Value reply, issued;
};

struct AssignLDMPass : dlc::sunway::impl::AssignLDMBase<AssignLDMPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(func);
    int64_t localSpace = hardware ? hardware.getLocalMemorySpace() : 1;
    SunwayHardware hw = SunwayHardware::get(hardware);
    WalkResult result = func.walk([&](LaunchOp launch) {
      return failed(assign(launch, hw, localSpace)) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult assign(LaunchOp launch, const SunwayHardware &hw,
                       int64_t localSpace) {
    LDMAllocator allocator(hw.simdAlignBytes);
    DenseMap<Value, int64_t> offsets;
    DenseMap<Value, Tag> tags;
    SmallVector<Operation *> events;
    launch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<memref::AllocOp, memref::DeallocOp, AffineDmaStartOp,
              AffineDmaWaitOp>(op))
        events.push_back(op);
    });
    auto isLocal = [&](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      auto space = memref
                       ? dyn_cast_or_null<IntegerAttr>(memref.getMemorySpace())
                       : nullptr;
      return space && space.getInt() == localSpace;
    };
    auto isTag = [&](Value value) {
      for (Operation *user : value.getUsers())
        if (auto dma = dyn_cast<AffineDmaStartOp>(user))
          return dma.getTagMemRef() == value;
      return false;
    };

    for (Operation *op : events) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        MemRefType type = alloc.getType();
        if (isLocal(type)) {
          MemRefType ldmType =
              MemRefType::get(type.getShape(), type.getElementType(),
                              AffineMap(), LDMAttr::get(type.getContext()));
          int64_t bytes =
              type.getNumElements() *
              std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
          int64_t offset = allocator.allocate(bytes);
          auto ldm =
              LDMAllocOp::create(b, loc, ldmType, b.getI64IntegerAttr(offset));
          offsets[ldm.getResult()] = offset;
          alloc.getResult().replaceAllUsesWith(ldm.getResult());
          alloc.erase();
        } else if (isTag(alloc.getResult())) {
          if (!type.hasStaticShape() || type.getRank() != 1)
            return alloc.emitError("DMA tags must be static 1-D buffers");
          MemRefType wordsType =
              MemRefType::get(type.getShape(), b.getI32Type(), AffineMap(),
                              LDMAttr::get(type.getContext()));
          int64_t bytes = type.getNumElements() * 4;
          Tag tag;
          for (Value *word : {&tag.reply, &tag.issued}) {
            int64_t offset = allocator.allocate(bytes);
            *word = LDMAllocOp::create(b, loc, wordsType,
                                       b.getI64IntegerAttr(offset));
            offsets[*word] = offset;
          }
          // Both counters start at zero.
          Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
          for (int64_t i = 0; i < type.getNumElements(); ++i) {
            Value index = arith::ConstantIndexOp::create(b, loc, i);
            memref::StoreOp::create(b, loc, zero, tag.reply, index);
            memref::StoreOp::create(b, loc, zero, tag.issued, index);
          }
          tags[alloc.getResult()] = tag;
        }
        continue;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        Value buffer = dealloc.getMemref();
        if (auto it = tags.find(buffer); it != tags.end()) {
          allocator.release(offsets[it->second.reply]);
          allocator.release(offsets[it->second.issued]);
          dealloc.erase();
        } else if (auto it = offsets.find(buffer); it != offsets.end()) {
          allocator.release(it->second);
          dealloc.erase();
        }
        continue;
      }
      if (auto start = dyn_cast<AffineDmaStartOp>(op)) {
        auto it = tags.find(start.getTagMemRef());
        if (it == tags.end())
          return start.emitError("DMA tag is not allocated in the kernel");
        if (failed(lowerStart(b, start, it->second)))
          return failure();
        continue;
      }
      auto wait = cast<AffineDmaWaitOp>(op);
      auto it = tags.find(wait.getTagMemRef());
      if (it == tags.end())
        return wait.emitError("DMA tag is not allocated in the kernel");
      Value tagIndex = applyMap(b, loc, wait.getTagMap(), wait.getTagIndices());
      Value issued =
          memref::LoadOp::create(b, loc, it->second.issued, tagIndex);
      WaitReplyOp::create(b, loc, it->second.reply, tagIndex, issued);
      wait.erase();
    }

    for (auto &[tagBuffer, tag] : tags) {
      Operation *alloc = tagBuffer.getDefiningOp();
      if (!alloc->use_empty())
        return alloc->emitError("DMA tag is used by an op that is not a "
                                "transfer, a wait or a deallocation");
      alloc->erase();
    }
    int64_t ldmBytes = allocator.getHighWater();
    if (ldmBytes > hw.getBufferBytes())
      return launch.emitError("the buffers of '")
             << launch.getNode() << "' need " << ldmBytes
             << " bytes of LDM per CPE, more than the " << hw.getBufferBytes()
             << " bytes left to buffers (ldm_bytes " << hw.ldmBytes
             << " minus stack_reserve_bytes " << hw.stackReserveBytes << ")";
    launch.setLdmBytes(ldmBytes);
    return success();
  }

  static Value applyMap(OpBuilder &b, Location loc, AffineMap map,
                        ValueRange operands) {
    return AffineApplyOp::create(b, loc, map, operands);
  }

  static SmallVector<Value> applyResults(OpBuilder &b, Location loc,
                                         AffineMap map, ValueRange operands) {
    SmallVector<Value> results;
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      results.push_back(applyMap(b, loc, map.getSubMap({i}), operands));
    return results;
  }

  LogicalResult lowerStart(OpBuilder &b, AffineDmaStartOp start,
                           const Tag &tag) {
    Location loc = start.getLoc();
    FailureOr<DMADescription> description =
        describeDMA(start, [](Type type) { return isLDM(type); });
    if (failed(description))
      return failure();
    SmallVector<Value> srcIndices =
        applyResults(b, loc, start.getSrcMap(), start.getSrcIndices());
    SmallVector<Value> dstIndices =
        applyResults(b, loc, start.getDstMap(), start.getDstIndices());
    Value tagIndex = applyMap(b, loc, start.getTagMap(), start.getTagIndices());
    // A clipped row entirely in the padding has no element: athread's length
    // must be positive, so such a transfer is not started at all.
    if (!getConstantIntValue(start.getNumElements())) {
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        start.getNumElements(), zero);
      auto guard = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
      b.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    // One more transfer started on this tag.
    Value issued = memref::LoadOp::create(b, loc, tag.issued, tagIndex);
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, issued, one),
                            tag.issued, tagIndex);
    auto mode = DMAModeAttr::get(b.getContext(), DMAMode::pe);
    Value block = description->isStrided ? description->blockElements : Value();
    Value stride =
        description->isStrided ? description->strideElements : Value();
    if (description->toLocal)
      DMAGetOp::create(b, loc, mode, start.getSrcMemRef(), srcIndices,
                       start.getDstMemRef(), dstIndices, start.getNumElements(),
                       block, stride, tag.reply, tagIndex);
    else
      DMAPutOp::create(b, loc, mode, start.getSrcMemRef(), srcIndices,
                       start.getDstMemRef(), dstIndices, start.getNumElements(),
                       block, stride, tag.reply, tagIndex);
    start.erase();
    return success();
  }
};

} // namespace
