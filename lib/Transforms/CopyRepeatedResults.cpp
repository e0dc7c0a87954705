//===- CopyRepeatedResults.cpp - one buffer per function result -----------===//

#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace dlc {
#define GEN_PASS_DEF_COPYREPEATEDRESULTS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct CopyRepeatedResultsPass
    : dlc::impl::CopyRepeatedResultsBase<CopyRepeatedResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp returnOp) {
      OpBuilder builder(returnOp);
      llvm::SmallDenseSet<Value> returned;
      for (OpOperand &operand : returnOp->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        // Scalars are returned by value; only a tensor needs its own buffer.
        if (!type || returned.insert(value).second)
          continue;
        operand.set(bufferization::AllocTensorOp::create(
            builder, returnOp.getLoc(), type, /*dynamicSizes=*/{},
            /*copy=*/value));
      }
    });
  }
};

} // namespace
