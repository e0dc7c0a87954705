//===- DLCToLinalg.cpp - the convert-dlc-to-linalg pass -------------------===//
//
// Collects the patterns of every op family (one .cpp file each) and applies
// them in a single walk: each dlc op is rewritten exactly once, producers
// before users. A pattern that cannot lower its op reports why on the op;
// the pass then fails.
//
//===----------------------------------------------------------------------===//

#include "dlc/Conversion/Passes.h"

#include "LoweringUtils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CONVERTDLCTOLINALG
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct ConvertDLCToLinalgPass
    : dlc::impl::ConvertDLCToLinalgBase<ConvertDLCToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    dlc::lowering::populateElementwisePatterns(patterns);
    dlc::lowering::populateNormalizationPatterns(patterns);
    dlc::lowering::populateContractionPatterns(patterns);
    dlc::lowering::populatePoolingPatterns(patterns);
    dlc::lowering::populateDataMovementPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));

    // Count the errors the patterns report, letting them through to the
    // caller's handler, so that an op left over without a report (an op
    // nobody wrote a pattern for) still gets one.
    unsigned reported = 0;
    ScopedDiagnosticHandler counter(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        ++reported;
      return failure();
    });
    walkAndApplyPatterns(getOperation(), frozen);

    bool leftOver = false;
    Dialect *dlcDialect = context->getLoadedDialect<dlc::DLCDialect>();
    getOperation()->walk([&](Operation *op) {
      if (op->getDialect() != dlcDialect)
        return;
      leftOver = true;
      if (reported == 0)
        op->emitOpError("has no lowering to linalg");
    });
    if (leftOver || reported > 0)
      signalPassFailure();
  }
};

} // namespace
