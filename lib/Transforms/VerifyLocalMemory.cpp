//===- VerifyLocalMemory.cpp - local memory is never over-committed -------===//

#include "LocalMemory.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace dlc {
#define GEN_PASS_DEF_VERIFYLOCALMEMORY
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct VerifyLocalMemoryPass
    : public dlc::impl::VerifyLocalMemoryBase<VerifyLocalMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    HardwareAttr hardware = HardwareAttr::lookup(getOperation());
    if (!hardware || !hardware.hasLocalMemory())
      return;
    LocalMemoryOptions options;
    options.localSpace = hardware.getLocalMemorySpace();
    options.capacity = hardware.getLocalMemoryBytes();
    options.verify = true;
    // Check every function, so that one run reports every over-commit.
    bool failedAny = false;
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      FailureOr<DenseMap<Operation *, int64_t>> peaks =
          computeLocalMemoryPeaks(function, options);
      if (failed(peaks)) {
        failedAny = true;
        continue;
      }
      if (!print || function.isExternal())
        continue;
      for (Operation &op : function.getBody().front())
        if (isa<affine::AffineForOp>(op))
          llvm::outs() << getNodeName(&op) << ": peak local bytes "
                       << peaks->lookup(&op) << " of " << options.capacity
                       << "\n";
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
