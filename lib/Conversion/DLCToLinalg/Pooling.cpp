//===- Pooling.cpp - max_pool and average_pool to linalg pooling ops ------===//
//
// Both pools pad explicitly (tensor.pad with -inf or 0) and then run a
// linalg pooling op without padding semantics of its own. ceil_mode is extra
// end padding: the result type already has the rounded-up size, and the pad
// reaches as far as the last window reads. Average pooling divides by a
// per-output divisor computed at compile time (shapes are static), which is
// where count_include_pad and the never-counted ceil_mode padding show up.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;

namespace dlc::lowering {
namespace {

struct WindowParams {
  SmallVector<int64_t> kernel, strides, dilations, pads;
};

/// Pooling over any number of spatial dimensions as one linalg.generic, for
/// the ranks without a named NC* pooling op. Loops: n, c, o_1..o_k
/// (parallel), k_1..k_k (reduction).
Value buildGenericPool(OpBuilder &b, Location loc, Value padded, Value init,
                       const WindowParams &window, ScalarBuilder combine) {
  MLIRContext *context = b.getContext();
  int64_t spatial = window.kernel.size();
  unsigned numLoops = 2 + 2 * spatial;
  SmallVector<AffineExpr> inputExprs = getDimExprs(context, 0, 2);
  SmallVector<AffineExpr> outputExprs = getDimExprs(context, 0, 2 + spatial);
  for (int64_t i = 0; i < spatial; ++i)
    inputExprs.push_back(getAffineDimExpr(2 + i, context) * window.strides[i] +
                         getAffineDimExpr(2 + spatial + i, context) *
                             window.dilations[i]);
  SmallVector<AffineMap> maps = {
      AffineMap::get(numLoops, 0, inputExprs, context),
      AffineMap::get(numLoops, 0, outputExprs, context)};
  SmallVector<utils::IteratorType> iterators(2 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(spatial, utils::IteratorType::reduction);
  // Like the named ops, the generic reads a kernel-shaped operand that only
  // gives the window loops their ranges.
  Value windowTensor =
      createEmpty(b, loc, window.kernel,
                  cast<RankedTensorType>(init.getType()).getElementType());
  maps.insert(maps.begin() + 1,
              AffineMap::get(numLoops, 0,
                             getDimExprs(context, 2 + spatial, spatial),
                             context));
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()},
             ValueRange{padded, windowTensor}, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l,
                                       combine(nb, l, {args[0], args[2]}));
             })
      .getResult(0);
}

/// Runs the named NCW / NCHW pooling op `NamedOp1D` / `NamedOp2D`, or the
/// generic for other ranks.
template <typename NamedOp1D, typename NamedOp2D>
Value buildPool(OpBuilder &b, Location loc, Value padded, Value init,
                const WindowParams &window, ScalarBuilder combine) {
  auto resultType = cast<RankedTensorType>(init.getType());
  int64_t spatial = window.kernel.size();
  if (spatial > 2)
    return buildGenericPool(b, loc, padded, init, window, combine);
  Value windowTensor =
      createEmpty(b, loc, window.kernel, resultType.getElementType());
  SmallVector<Value> inputs = {padded, windowTensor};
  Attribute strides = getI64VectorAttr(b, window.strides);
  Attribute dilations = getI64VectorAttr(b, window.dilations);
  if (spatial == 1)
    return NamedOp1D::create(b, loc, resultType, inputs, init, strides,
                             dilations)
        ->getResult(0);
  return NamedOp2D::create(b, loc, resultType, inputs, init, strides, dilations)
      ->getResult(0);
}

struct MaxPoolLowering : DLCLoweringPattern<MaxPoolOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(MaxPoolOp op, MaxPoolOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    WindowParams window{SmallVector<int64_t>(op.getKernelShape()),
                        SmallVector<int64_t>(op.getStrides()),
                        SmallVector<int64_t>(op.getDilations()),
                        SmallVector<int64_t>(op.getPads())};
    Value lowest = createLowest(rewriter, loc, element);
    Value padded = padForWindows(
        rewriter, loc, operands.getInput(), resultType.getShape(),
        window.kernel, window.strides, window.dilations, window.pads, lowest);
    Value init = createFilled(rewriter, loc, resultType.getShape(), lowest);
    bool isUnsigned = isUnsignedElementType(element);
    auto combine = [&](OpBuilder &b, Location l, ValueRange args) -> Value {
      return createMax(b, l, args[0], args[1], isUnsigned);
    };
    // The named NC* max-pooling ops compare signed: unsigned integers pool
    // through the generic.
    Value pooled =
        isUnsigned
            ? buildGenericPool(rewriter, loc, padded, init, window, combine)
            : buildPool<linalg::PoolingNcwMaxOp, linalg::PoolingNchwMaxOp>(
                  rewriter, loc, padded, init, window, combine);
    return SmallVector<Value>{pooled};
  }
};

/// Number of elements each window of one spatial dimension averages over:
/// the window clipped to the input, or with count_include_pad to the input
/// plus its explicit pads (ceil_mode's extra end padding never counts).
SmallVector<int64_t> getWindowCounts(int64_t in, int64_t out, int64_t kernel,
                                     int64_t stride, int64_t padBegin,
                                     int64_t padEnd, bool countIncludePad) {
  int64_t lowest = countIncludePad ? -padBegin : 0;
  int64_t highest = countIncludePad ? in + padEnd : in;
  SmallVector<int64_t> counts;
  for (int64_t o = 0; o < out; ++o) {
    int64_t start = o * stride - padBegin;
    counts.push_back(std::min(start + kernel, highest) -
                     std::max(start, lowest));
  }
  return counts;
}

struct AveragePoolLowering : DLCLoweringPattern<AveragePoolOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(AveragePoolOp op, AveragePoolOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getInput().getType();
    RankedTensorType resultType = op.getResult().getType();
    auto element = cast<FloatType>(resultType.getElementType());
    int64_t spatial = op.getKernelShape().size();
    WindowParams window{SmallVector<int64_t>(op.getKernelShape()),
                        SmallVector<int64_t>(op.getStrides()),
                        SmallVector<int64_t>(spatial, 1),
                        SmallVector<int64_t>(op.getPads())};
    Value zero = createScalar(rewriter, loc, element, 0.0);
    Value padded = padForWindows(
        rewriter, loc, operands.getInput(), resultType.getShape(),
        window.kernel, window.strides, window.dilations, window.pads, zero);
    Value init = createFilled(rewriter, loc, resultType.getShape(), zero);
    Value sums = buildPool<linalg::PoolingNcwSumOp, linalg::PoolingNchwSumOp>(
        rewriter, loc, padded, init, window,
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(b, l, args[0], args[1]);
        });

    // Divisors of the 1 x 1 x O_1 x ... x O_k output positions.
    SmallVector<int64_t> divisorShape = {1, 1};
    SmallVector<int64_t> divisors = {1};
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t out = resultType.getDimSize(2 + i);
      SmallVector<int64_t> counts = getWindowCounts(
          inputType.getDimSize(2 + i), out, window.kernel[i], window.strides[i],
          window.pads[i], window.pads[spatial + i], op.getCountIncludePad());
      SmallVector<int64_t> next;
      for (int64_t d : divisors)
        for (int64_t c : counts)
          next.push_back(d * c);
      divisors = std::move(next);
      divisorShape.push_back(out);
    }
    bool uniform = llvm::all_equal(divisors);
    Value divisorTensor;
    if (!uniform) {
      SmallVector<APFloat> values;
      for (int64_t d : divisors) {
        APFloat value(static_cast<double>(d));
        bool losesInfo;
        value.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
        values.push_back(value);
      }
      auto type = RankedTensorType::get(divisorShape, element);
      divisorTensor = arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(type, values));
    }
    SmallVector<Value> inputs = {sums};
    if (divisorTensor)
      inputs.push_back(divisorTensor);
    double uniformDivisor = divisors.front();
    Value result = buildElementwise(
        rewriter, loc, inputs, resultType,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value divisor =
              uniform ? createScalar(b, l, element, uniformDivisor) : args[1];
          return arith::DivFOp::create(b, l, args[0], divisor);
        });
    return SmallVector<Value>{result};
  }
};

} // namespace

void populatePoolingPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AveragePoolLowering>(patterns.getContext());
}

} // namespace dlc::lowering
