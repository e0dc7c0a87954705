//===- LowerLocalMemory.cpp - local buffers and DMA on the host -----------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Target/Host/HostTarget.h"
#include "dlc/Target/Host/Passes.h"
#include "dlc/Transforms/DMADescription.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace dlc::host {
#define GEN_PASS_DEF_LOWERLOCALMEMORY
#include "dlc/Target/Host/Passes.h.inc"
} // namespace dlc::host

using namespace mlir;
using dlc::host::kHardwareTextAttr;

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

/// The host's DMA engine: one private function per element type that
/// copies `count` elements in blocks of `blockSize`, block b starting at
/// `offset + b * blockStride` on each side. Every transfer calls it rather
/// than inlining a copy loop into the nest it sits in: LLVM's loop passes
/// grow with the depth of the nests around each loop, and the staged code
/// has a transfer in nearly every tile loop. It is kept out of line.
func::FuncOp getOrCreateDmaFunction(ModuleOp module, Type elementType) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "dlc_host_dma_" << elementType;
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;

  MLIRContext *context = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  Type flat = MemRefType::get({ShapedType::kDynamic}, elementType);
  Type index = b.getIndexType();
  // src, src offset, src block stride, dst, dst offset, dst block stride,
  // count, block size.
  auto type = FunctionType::get(
      context, {flat, index, index, flat, index, index, index, index}, {});
  auto func = func::FuncOp::create(b, loc, name, type);
  func.setPrivate();
  // Both reach the LLVM function: kept out of line, and local to the
  // object file (two compiled models must link together).
  func->setAttr(
      "passthrough",
      ArrayAttr::get(context, {StringAttr::get(context, "noinline")}));
  func->setAttr("llvm.linkage", LLVM::LinkageAttr::get(
                                    context, LLVM::linkage::Linkage::Internal));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto args = entry->getArguments();
  Value src = args[0], srcOffset = args[1], srcStride = args[2];
  Value dst = args[3], dstOffset = args[4], dstStride = args[5];
  Value count = args[6];
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value blockSize = arith::MaxUIOp::create(b, loc, args[7], one);
  Value blocks = arith::CeilDivUIOp::create(b, loc, count, blockSize);
  auto blockLoop = scf::ForOp::create(b, loc, zero, blocks, one);
  b.setInsertionPointToStart(blockLoop.getBody());
  Value block = blockLoop.getInductionVar();
  Value done = arith::MulIOp::create(b, loc, block, blockSize);
  Value length = arith::MinUIOp::create(
      b, loc, blockSize, arith::SubIOp::create(b, loc, count, done));
  Value srcStart = arith::AddIOp::create(
      b, loc, srcOffset, arith::MulIOp::create(b, loc, block, srcStride));
  Value dstStart = arith::AddIOp::create(
      b, loc, dstOffset, arith::MulIOp::create(b, loc, block, dstStride));
  auto elementLoop = scf::ForOp::create(b, loc, zero, length, one);
  b.setInsertionPointToStart(elementLoop.getBody());
  Value e = elementLoop.getInductionVar();
  Value value = memref::LoadOp::create(
      b, loc, src, arith::AddIOp::create(b, loc, srcStart, e).getResult());
  memref::StoreOp::create(
      b, loc, value, dst,
      arith::AddIOp::create(b, loc, dstStart, e).getResult());
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  return func;
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
  // The global side is the strided one; the local side is contiguous. An
  // unstrided transfer is one block.
  FailureOr<dlc::DMADescription> description = dlc::describeDMA(
      dma, [&](Type type) { return isInSpace(type, localSpace); });
  if (failed(description))
    return failure();
  bool srcIsGlobal = description->toLocal;
  Value count = description->numElements;
  Value blockSize = description->isStrided ? description->blockElements : count;
  Value globalStride =
      description->isStrided ? description->strideElements : blockSize;
  Value srcStride = srcIsGlobal ? globalStride : blockSize;
  Value dstStride = srcIsGlobal ? blockSize : globalStride;
  auto toDynamic = [&](Value flat) -> Value {
    auto type = cast<MemRefType>(flat.getType());
    return memref::CastOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                        AffineMap(), type.getMemorySpace()),
        flat);
  };
  Type elementType =
      cast<MemRefType>(dma.getSrcMemRef().getType()).getElementType();
  func::FuncOp engine =
      getOrCreateDmaFunction(dma->getParentOfType<ModuleOp>(), elementType);
  func::CallOp::create(b, loc, engine,
                       ValueRange{toDynamic(src->first), src->second, srcStride,
                                  toDynamic(dst->first), dst->second, dstStride,
                                  count, blockSize});
  dma.erase();
  return success();
}

struct LowerLocalMemoryPass
    : dlc::host::impl::LowerLocalMemoryBase<LowerLocalMemoryPass> {
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

    // The description stays on the module as text, for the reports: the
    // LLVM lowering and tools like mlir-runner know nothing of dlc's
    // attributes.
    if (hardware) {
      std::string text;
      llvm::raw_string_ostream os(text);
      Attribute(hardware).print(os);
      module->setAttr(kHardwareTextAttr, StringAttr::get(&getContext(), text));
      module->removeAttr(dlc::HardwareAttr::kAttrName);
    }
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
    // Bank layouts mean nothing to the LLVM lowering of arguments.
    module.walk([](func::FuncOp func) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, dlc::DLCDialect::BankDimAttrHelper::getNameStr());
    });
  }
};

} // namespace
