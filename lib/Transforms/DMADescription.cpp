//===- DMADescription.cpp - what an affine.dma_start moves ----------------===//

#include "dlc/Transforms/DMADescription.h"

using namespace mlir;
using namespace dlc;

FailureOr<DMADescription>
dlc::describeDMA(affine::AffineDmaStartOp dma,
                 llvm::function_ref<bool(Type)> isLocal) {
  bool srcLocal = isLocal(dma.getSrcMemRef().getType());
  bool dstLocal = isLocal(dma.getDstMemRef().getType());
  if (srcLocal == dstLocal)
    return dma.emitError("a transfer must move data between a global and a "
                         "local buffer; this one has ")
           << (srcLocal ? "two local" : "no local") << " side";
  DMADescription description;
  description.toLocal = dstLocal;
  description.global = srcLocal ? dma.getDstMemRef() : dma.getSrcMemRef();
  description.local = srcLocal ? dma.getSrcMemRef() : dma.getDstMemRef();
  description.numElements = dma.getNumElements();
  description.isStrided = dma.isStrided();
  if (description.isStrided) {
    description.blockElements = dma.getNumElementsPerStride();
    description.strideElements = dma.getStride();
  }
  return description;
}
