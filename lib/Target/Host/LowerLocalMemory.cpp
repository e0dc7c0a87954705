//===- LowerLocalMemory.cpp - local buffers and DMA on the host -----------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Target/Host/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERLOCALMEMORY
#include "dlc/Target/Host/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

bool isInSpace(Type type, int64_t space) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  auto attr = dyn_cast_or_null<IntegerAttr>(memref.getMemorySpace());
  return attr && attr.getInt() == space;
}

/// A 1-D view of an identity-layout memref and the linear index of
/// `map(indices)` in it.
FailureOr<std::pair<Value, Value>> linearize(OpBuilder &b, Location loc,
                                             Operation *op, Value memref,
                                             AffineMap map,
                                             ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return op->emitError("cannot lower a transfer on ")
           << type << ": only static identity-layout buffers are supported";
  SmallVector<Value> position;
  for (unsigned d = 0; d < map.getNumResults(); ++d)
    position.push_back(
        affine::AffineApplyOp::create(b, loc, map.getSubMap({d}), indices));
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  int64_t stride = 1;
  for (int d = type.getRank() - 1; d >= 0; --d) {
    Value scaled = arith::MulIOp::create(
        b, loc, position[d], arith::ConstantIndexOp::create(b, loc, stride));
    linear = arith::AddIOp::create(b, loc, linear, scaled);
    stride *= type.getDimSize(d);
  }
  auto flatType =
      MemRefType::get({type.getNumElements()}, type.getElementType(),
                      AffineMap(), type.getMemorySpace());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, memref, /*offset=*/0,
      /*sizes=*/ArrayRef<int64_t>{type.getNumElements()},
      /*strides=*/ArrayRef<int64_t>{1});
  return std::make_pair(flat, linear);
}

LogicalResult lowerTransfer(affine::AffineDmaStartOp dma, int64_t localSpace) {
  OpBuilder b(dma);
  Location loc = dma.getLoc();
  auto src = linearize(b, loc, dma, dma.getSrcMemRef(), dma.getSrcMap(),
                       dma.getSrcIndices());
  auto dst = linearize(b, loc, dma, dma.getDstMemRef(), dma.getDstMap(),
                       dma.getDstIndices());
  if (failed(src) || failed(dst))
    return failure();
  bool srcIsGlobal = !isInSpace(dma.getSrcMemRef().getType(), localSpace);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, dma.getNumElements(), one);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value globalOffset = e;
  if (dma.isStrided()) {
    Value perStride = dma.getNumElementsPerStride();
    Value block = arith::DivUIOp::create(b, loc, e, perStride);
    Value within = arith::RemUIOp::create(b, loc, e, perStride);
    globalOffset = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, block, dma.getStride()), within);
  }
  Value srcIndex = arith::AddIOp::create(b, loc, src->second,
                                         srcIsGlobal ? globalOffset : e);
  Value dstIndex = arith::AddIOp::create(b, loc, dst->second,
                                         srcIsGlobal ? e : globalOffset);
  Value value = memref::LoadOp::create(b, loc, src->first, srcIndex);
  memref::StoreOp::create(b, loc, value, dst->first, dstIndex);
  dma.erase();
  return success();
}

struct LowerLocalMemoryPass
    : dlc::impl::LowerLocalMemoryBase<LowerLocalMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    dlc::HardwareAttr hardware = dlc::HardwareAttr::lookup(module);
    int64_t localSpace = hardware ? hardware.getLocalMemorySpace() : 1;

    SmallVector<affine::AffineDmaStartOp> transfers;
    module.walk(
        [&](affine::AffineDmaStartOp dma) { transfers.push_back(dma); });
    for (affine::AffineDmaStartOp dma : transfers)
      if (failed(lowerTransfer(dma, localSpace)))
        return signalPassFailure();
    module.walk([](affine::AffineDmaWaitOp wait) { wait.erase(); });

    // Local buffers are only ever allocated, viewed and accessed inside
    // function bodies, so retyping the values is enough.
    auto toGlobal = [&](Value value) {
      if (!isInSpace(value.getType(), localSpace))
        return;
      auto type = cast<MemRefType>(value.getType());
      value.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                    type.getLayout()));
    };
    module.walk([&](Operation *op) {
      for (Value result : op->getResults())
        toGlobal(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            toGlobal(argument);
    });
    module->removeAttr(dlc::HardwareAttr::kAttrName);
    // Bank layouts mean nothing to the LLVM lowering of arguments.
    module.walk([](func::FuncOp func) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, "dlc.bank_dim");
    });
  }
};

} // namespace
