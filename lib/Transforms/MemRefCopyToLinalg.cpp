//===- MemRefCopyToLinalg.cpp - memref.copy as linalg.copy ----------------===//

#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_MEMREFCOPYTOLINALG
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct CopyToLinalg : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp copy,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
    return success();
  }
};

struct MemRefCopyToLinalgPass
    : dlc::impl::MemRefCopyToLinalgBase<MemRefCopyToLinalgPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CopyToLinalg>(&getContext());
    walkAndApplyPatterns(getOperation(),
                         FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
