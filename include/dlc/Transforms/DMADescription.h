//===- DMADescription.h - what an affine.dma_start moves --------*- C++ -*-===//
//
// The transfers `dlc-generate-transfers` writes are affine.dma_start ops
// between a global buffer and a local one. Every target lowers them to its
// own DMA (the host to copy calls, Sunway to athread_get/put, ...), and
// every one of them reads the same facts from the op: which way the data
// goes, how many elements, and the block and stride of the strided global
// side (the local side is always contiguous).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_DMADESCRIPTION_H
#define DLC_TRANSFORMS_DMADESCRIPTION_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace dlc {

struct DMADescription {
  /// True for global -> local (a get), false for local -> global (a put).
  bool toLocal = true;
  mlir::Value numElements;
  /// With a stride, the global side moves `blockElements` elements, then
  /// continues `strideElements` elements after the block's start.
  bool isStrided = false;
  mlir::Value blockElements;
  mlir::Value strideElements;
  /// The global and the local buffer.
  mlir::Value global, local;
};

/// Decodes `dma`; `isLocal` tells a local buffer type from a global one.
/// Fails with an error on the op unless exactly one side is local.
mlir::FailureOr<DMADescription>
describeDMA(mlir::affine::AffineDmaStartOp dma,
            llvm::function_ref<bool(mlir::Type)> isLocal);

} // namespace dlc

#endif // DLC_TRANSFORMS_DMADESCRIPTION_H
