//===- LoweringUtils.h - shared helpers of the dlc -> linalg lowering -----===//
//
// The building blocks every op family of convert-dlc-to-linalg uses: scalar
// constants of any element type, numpy-broadcasting elementwise generics,
// reductions, reshapes and broadcasts of static tensors, constant padding.
// Each op family lives in its own .cpp file and adds its patterns through
// one of the populate functions at the end.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_CONVERSION_DLCTOLINALG_LOWERINGUTILS_H
#define DLC_LIB_CONVERSION_DLCTOLINALG_LOWERINGUTILS_H

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc::lowering {

/// Builds the scalar body of an elementwise or reduction generic from the
/// block arguments of the inputs (and, for reductions, the accumulator).
using ScalarBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// True for the element types the lowering computes on: floats and
/// integers.
bool isSupportedElementType(mlir::Type type);

// Unsigned integers. arith computes on signless integers only, so the
// lowering computes on the signless twin of an unsigned type (i8 for ui8):
// DLCLoweringPattern hands `lower` its operands bitcast to signless and
// bitcasts the results back, the pass makes function signatures signless
// and drops the bitcast pairs. Which arith op computes (divui or divsi, ...)
// is decided from the dlc op's types by dlc::isUnsignedElementType.

/// `type` (an integer, float or shaped type) with signless integers.
mlir::Type getSignlessType(mlir::Type type);
inline mlir::RankedTensorType getSignlessType(mlir::RankedTensorType type) {
  return llvm::cast<mlir::RankedTensorType>(getSignlessType(mlir::Type(type)));
}
/// `value` (a tensor) bitcast to its signless type; itself when signless.
mlir::Value toSignless(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value);

/// A scalar `arith.constant` holding `value` as an element of the dlc
/// element type `type` (float or integer, signless or unsigned; the constant
/// is signless); integer values saturate to the type's range, float ones
/// round to nearest.
mlir::Value createScalar(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type, double value);
/// The smallest / largest value of the dlc element type `type` (-inf / +inf
/// for floats), as a signless constant.
mlir::Value createLowest(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type);
mlir::Value createHighest(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type);

/// Scalar max / min / add on floats or signless integers. Float max and
/// min propagate NaN (maximumf / minimumf) as ONNX's Max, Min and the
/// max-reductions do; integer ones compare as unsigned when `isUnsigned`.
mlir::Value createMax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y, bool isUnsigned);
mlir::Value createMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y, bool isUnsigned);
mlir::Value createAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);

/// The 1-D i64 elements attribute linalg's conv and pooling ops take for
/// their strides and dilations.
mlir::DenseIntElementsAttr getI64VectorAttr(mlir::OpBuilder &b,
                                            llvm::ArrayRef<int64_t> values);

/// `tensor.empty` of a static shape (of the signless `elementType`).
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::ArrayRef<int64_t> shape, mlir::Type elementType);
/// `tensor.empty` filled with `scalar` (linalg.fill).
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<int64_t> shape, mlir::Value scalar);

/// The indexing map that reads an operand of `operandShape` in a loop nest
/// over `resultShape` with numpy broadcasting (trailing alignment, size-1
/// dimensions read index 0).
mlir::AffineMap getBroadcastMap(mlir::MLIRContext *context,
                                llvm::ArrayRef<int64_t> operandShape,
                                llvm::ArrayRef<int64_t> resultShape);

/// A parallel linalg.generic over `resultType` (made signless) whose inputs
/// broadcast (numpy rules) to the result shape; `body` gets one scalar per
/// input.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::ValueRange inputs,
                             mlir::RankedTensorType resultType,
                             ScalarBuilder body);

/// Reduces `input` over `axes` (removed from the result) starting from the
/// scalar `init`; `combine` gets (element, accumulator).
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, llvm::ArrayRef<int64_t> axes,
                           mlir::Value init, ScalarBuilder combine);

/// The loop nest of a scan along an axis (CumSum, TopK, ScatterElements):
/// loops over a rank-`rank` space of positions, then one more loop (d_rank,
/// a reduction) along `axis`. `at` reads the position itself, `along` the
/// position with d_rank in place of the axis.
struct AxisScanLoops {
  mlir::AffineMap at, along;
  llvm::SmallVector<mlir::utils::IteratorType> iterators;
};
AxisScanLoops getAxisScanLoops(mlir::MLIRContext *context, int64_t rank,
                               int64_t axis);

/// Row-major reinterpretation of a static tensor as the shape of `type` (same
/// element count; the element type stays the value's): one collapse_shape or
/// expand_shape when the shapes allow it, otherwise a collapse to 1-D
/// followed by an expand.
mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::RankedTensorType type);

/// numpy broadcast of `value` to `shape` (which must be a broadcast of the
/// value's shape): drops the broadcast unit dimensions, then linalg.broadcast.
mlir::Value broadcastTo(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, llvm::ArrayRef<int64_t> shape);

/// linalg.transpose: result dim i is input dim perm[i] (the value itself for
/// an identity permutation, including rank 0).
mlir::Value transposeTensor(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, llvm::ArrayRef<int64_t> perm);

/// tensor.pad with a constant; a no-op when every pad is zero.
mlir::Value padWithConstant(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, llvm::ArrayRef<int64_t> low,
                            llvm::ArrayRef<int64_t> high,
                            mlir::Value padScalar);

/// Pads the spatial dims (2...) of an N x C x D1... input for a sliding
/// window (conv or pool) that produces `outputShape`: the begin pads as
/// given (`pads` holds begins then ends), at the end as far as the last
/// window reads. That is less than the given end pad when trailing input
/// is never read, and more with ceil_mode, whose extra padding is implicit.
mlir::Value padForWindows(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input,
                          llvm::ArrayRef<int64_t> outputShape,
                          llvm::ArrayRef<int64_t> kernel,
                          llvm::ArrayRef<int64_t> strides,
                          llvm::ArrayRef<int64_t> dilations,
                          llvm::ArrayRef<int64_t> pads, mlir::Value padScalar);

/// `[0, 1, ..., n)` affine dims of `context` as expressions.
llvm::SmallVector<mlir::AffineExpr> getDimExprs(mlir::MLIRContext *context,
                                                unsigned first, unsigned count);

/// Base of every dlc lowering pattern: checks that all operand and result
/// element types are supported (a diagnostic on the op otherwise), replaces
/// ops whose results hold no element with tensor.empty, and calls `lower`,
/// which returns the replacement values or emits a diagnostic and fails.
/// `lower` builds on `operands`, the op's operands bitcast to signless; its
/// results may be signless too (they are bitcast back to the op's types).
/// The op itself still carries the dlc types, hence the semantics.
template <typename OpTy>
struct DLCLoweringPattern : public mlir::OpRewritePattern<OpTy> {
  using mlir::OpRewritePattern<OpTy>::OpRewritePattern;
  using Adaptor = typename OpTy::Adaptor;

  virtual mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  lower(OpTy op, Adaptor operands, mlir::PatternRewriter &rewriter) const = 0;

  /// Ops whose lowering is meaningful for any element type (pure data
  /// movement) override this to skip the element type check.
  virtual bool acceptsAnyElementType() const { return false; }

  mlir::LogicalResult
  matchAndRewrite(OpTy op, mlir::PatternRewriter &rewriter) const final {
    mlir::Operation *operation = op.getOperation();
    if (!acceptsAnyElementType()) {
      for (mlir::Type type : llvm::concat<const mlir::Type>(
               operation->getOperandTypes(), operation->getResultTypes())) {
        mlir::Type element = mlir::getElementTypeOrSelf(type);
        if (!isSupportedElementType(element))
          return operation->emitOpError("cannot lower element type ")
                 << element << " (supported: floats and integers)";
      }
    }
    mlir::Location loc = op.getLoc();
    llvm::SmallVector<mlir::Value> results;
    if (operation->getNumResults() > 0 &&
        llvm::all_of(operation->getResultTypes(), [](mlir::Type type) {
          auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
          return tensor && tensor.getNumElements() == 0;
        })) {
      for (mlir::Type type : operation->getResultTypes()) {
        auto tensor = llvm::cast<mlir::RankedTensorType>(type);
        results.push_back(createEmpty(rewriter, loc, tensor.getShape(),
                                      tensor.getElementType()));
      }
    } else {
      llvm::SmallVector<mlir::Value> signlessOperands;
      for (mlir::Value operand : operation->getOperands())
        signlessOperands.push_back(toSignless(rewriter, loc, operand));
      mlir::FailureOr<llvm::SmallVector<mlir::Value>> replacement =
          lower(op, Adaptor(signlessOperands, op), rewriter);
      if (mlir::failed(replacement))
        return mlir::failure();
      results = std::move(*replacement);
    }
    for (auto [value, type] :
         llvm::zip_equal(results, operation->getResultTypes()))
      if (value.getType() != type)
        value = mlir::tensor::BitcastOp::create(rewriter, loc, type, value);
    rewriter.replaceOp(operation, results);
    return mlir::success();
  }
};

void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
void populateNormalizationPatterns(mlir::RewritePatternSet &patterns);
void populateContractionPatterns(mlir::RewritePatternSet &patterns);
void populatePoolingPatterns(mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns);

} // namespace dlc::lowering

#endif // DLC_LIB_CONVERSION_DLCTOLINALG_LOWERINGUTILS_H
