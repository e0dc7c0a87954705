//===- CheckHostMemory.cpp - refuse buffers larger than memory ------------===//

#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Host/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace dlc::host {
#define GEN_PASS_DEF_CHECKHOSTMEMORY
#include "dlc/Target/Host/Passes.h.inc"
} // namespace dlc::host

using namespace mlir;

namespace {

struct CheckHostMemoryPass
    : dlc::host::impl::CheckHostMemoryBase<CheckHostMemoryPass> {
  void runOnOperation() override {
    bool fits = true;
    getOperation().walk([&](Operation *op) {
      MemRefType type;
      if (isa<memref::AllocOp, memref::AllocaOp>(op))
        type = cast<MemRefType>(op->getResult(0).getType());
      else if (auto global = dyn_cast<memref::GlobalOp>(op))
        type = global.getType();
      // Every buffer is reported, not only the first.
      if (type && failed(dlc::checkFitsInMemory(op->getLoc(), "buffer", type)))
        fits = false;
    });
    if (!fits)
      signalPassFailure();
  }
};

} // namespace
