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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CONVERTDLCTOLINALG
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// The lowered bodies compute on signless integers (see LoweringUtils.h):
/// makes the functions' signatures signless too, then drops the pairs of
/// bitcasts (to unsigned and back) the patterns left between producers and
/// users, so that no unsigned tensor is left for bufferization.
void makeSignless(ModuleOp module) {
  using dlc::lowering::getSignlessType;
  OpBuilder builder(module.getContext());
  for (auto func : module.getOps<func::FuncOp>()) {
    SmallVector<Type> inputs, results;
    for (Type type : func.getArgumentTypes())
      inputs.push_back(getSignlessType(type));
    for (Type type : func.getResultTypes())
      results.push_back(getSignlessType(type));
    if (!func.isExternal()) {
      Block &entry = func.front();
      builder.setInsertionPointToStart(&entry);
      for (BlockArgument arg : entry.getArguments()) {
        Type original = arg.getType();
        if (getSignlessType(original) == original)
          continue;
        arg.setType(getSignlessType(original));
        auto unsignedView =
            tensor::BitcastOp::create(builder, arg.getLoc(), original, arg);
        arg.replaceAllUsesExcept(unsignedView, unsignedView);
      }
      func.walk([&](func::ReturnOp ret) {
        builder.setInsertionPoint(ret);
        for (OpOperand &operand : ret->getOpOperands())
          operand.set(
              dlc::lowering::toSignless(builder, ret.getLoc(), operand.get()));
      });
    }
    func.setFunctionType(
        FunctionType::get(module.getContext(), inputs, results));
  }
  SmallVector<tensor::BitcastOp> bitcasts;
  module.walk([&](tensor::BitcastOp bitcast) {
    bitcasts.push_back(bitcast);
    auto source = bitcast.getSource().getDefiningOp<tensor::BitcastOp>();
    if (source && source.getSource().getType() == bitcast.getType())
      bitcast.replaceAllUsesWith(source.getSource());
  });
  for (tensor::BitcastOp bitcast : llvm::reverse(bitcasts))
    if (bitcast->use_empty())
      bitcast->erase();
}

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
      return signalPassFailure();
    makeSignless(getOperation());
  }
};

} // namespace
