//===- DLCFolds.cpp - folders and canonicalisation patterns ---------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace dlc;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }
OpFoldResult DropoutOp::fold(FoldAdaptor) { return getInput(); }

// PENDING(folds helper): the folders below are being written.
OpFoldResult ShapeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult CastOp::fold(FoldAdaptor) { return {}; }
OpFoldResult AddOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SubOp::fold(FoldAdaptor) { return {}; }
OpFoldResult MulOp::fold(FoldAdaptor) { return {}; }
OpFoldResult DivOp::fold(FoldAdaptor) { return {}; }
OpFoldResult NegOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ReshapeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult TransposeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ConcatOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SliceOp::fold(FoldAdaptor) { return {}; }
OpFoldResult GatherOp::fold(FoldAdaptor) { return {}; }
OpFoldResult PadOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ExpandOp::fold(FoldAdaptor) { return {}; }
OpFoldResult TileOp::fold(FoldAdaptor) { return {}; }
void BatchNormOp::getCanonicalizationPatterns(RewritePatternSet &,
                                              MLIRContext *) {}
