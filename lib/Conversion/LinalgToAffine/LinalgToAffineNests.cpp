//===- LinalgToAffineNests.cpp - linalg -> affine nests with identity -----===//

#include "dlc/Conversion/NestDescription.h"
#include "dlc/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CONVERTLINALGTOAFFINENESTS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct ConvertLinalgToAffineNests
    : public dlc::impl::ConvertLinalgToAffineNestsBase<
          ConvertLinalgToAffineNests> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op->emitError("cannot lower a linalg op on tensors to loops; "
                      "bufferize first");
        return signalPassFailure();
      }
      // Upstream lowers dynamic ranges too; the record needs static ones.
      std::optional<NestDescription> description;
      if (!llvm::is_contained(op.getStaticLoopRanges(), ShapedType::kDynamic))
        description = NestDescription::describe(op);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          linalg::linalgOpToAffineLoops(rewriter, op);
      if (failed(loops)) {
        op->emitError("cannot lower to affine loops");
        return signalPassFailure();
      }
      if (description && !loops->empty())
        setNestDescription(loops->front(), *description);
      rewriter.eraseOp(op);
    }
    // What upstream's convert-linalg-to-affine-loops folds on the way.
    RewritePatternSet patterns(&getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
