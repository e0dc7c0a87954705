//===- Elementwise.cpp - unary, binary and cast ops to linalg.generic -----===//
//
// Every elementwise dlc op becomes one linalg.generic built by
// buildElementwise (numpy broadcasting in the indexing maps); this file only
// says what each op computes on one scalar. Formulas follow the ONNX
// reference implementations so that float32 results match them.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;

namespace dlc::lowering {
namespace {

bool isFloat(Value value) { return isa<FloatType>(value.getType()); }

Value constantLike(OpBuilder &b, Location loc, Value like, double value) {
  return createScalar(b, loc, like.getType(), value);
}

Value isNegative(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                               constantLike(b, loc, x, 0.0));
}

/// max(0, min(1, x)), the clamp of the hard activations.
Value clampUnit(OpBuilder &b, Location loc, Value x) {
  return createMax(b, loc, constantLike(b, loc, x, 0.0),
                   createMin(b, loc, constantLike(b, loc, x, 1.0), x));
}

/// exp(x) - 1, as the ONNX references write Elu and Selu.
Value expMinusOne(OpBuilder &b, Location loc, Value x) {
  return arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x),
                               constantLike(b, loc, x, 1.0));
}

//===----------------------------------------------------------------------===//
// Scalar semantics of the unary ops
//===----------------------------------------------------------------------===//

Value buildScalar(ReluOp, OpBuilder &b, Location loc, Value x) {
  return createMax(b, loc, x, constantLike(b, loc, x, 0.0));
}

Value buildScalar(LeakyReluOp op, OpBuilder &b, Location loc, Value x) {
  Value scaled = arith::MulFOp::create(
      b, loc, constantLike(b, loc, x, op.getAlpha().convertToDouble()), x);
  return arith::SelectOp::create(b, loc, isNegative(b, loc, x), scaled, x);
}

Value buildScalar(SigmoidOp, OpBuilder &b, Location loc, Value x) {
  Value one = constantLike(b, loc, x, 1.0);
  Value expNeg = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, expNeg));
}

Value buildScalar(TanhOp, OpBuilder &b, Location loc, Value x) {
  return math::TanhOp::create(b, loc, x);
}

Value buildScalar(ClipOp op, OpBuilder &b, Location loc, Value x) {
  Value lo = constantLike(b, loc, x, op.getMin().convertToDouble());
  Value hi = constantLike(b, loc, x, op.getMax().convertToDouble());
  return createMin(b, loc, createMax(b, loc, x, lo), hi);
}

Value buildScalar(ExpOp, OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x);
}

Value buildScalar(LogOp, OpBuilder &b, Location loc, Value x) {
  return math::LogOp::create(b, loc, x);
}

Value buildScalar(SqrtOp, OpBuilder &b, Location loc, Value x) {
  return math::SqrtOp::create(b, loc, x);
}

Value buildScalar(NegOp, OpBuilder &b, Location loc, Value x) {
  if (isFloat(x))
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, constantLike(b, loc, x, 0.0), x);
}

Value buildScalar(AbsOp, OpBuilder &b, Location loc, Value x) {
  if (isFloat(x))
    return math::AbsFOp::create(b, loc, x);
  return math::AbsIOp::create(b, loc, x);
}

Value buildScalar(ReciprocalOp, OpBuilder &b, Location loc, Value x) {
  return arith::DivFOp::create(b, loc, constantLike(b, loc, x, 1.0), x);
}

Value buildScalar(ErfOp, OpBuilder &b, Location loc, Value x) {
  return math::ErfOp::create(b, loc, x);
}

Value buildScalar(HardSigmoidOp op, OpBuilder &b, Location loc, Value x) {
  Value alpha = constantLike(b, loc, x, op.getAlpha().convertToDouble());
  Value beta = constantLike(b, loc, x, op.getBeta().convertToDouble());
  Value linear = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, alpha, x), beta);
  return clampUnit(b, loc, linear);
}

Value buildScalar(HardSwishOp, OpBuilder &b, Location loc, Value x) {
  // ONNX: x * HardSigmoid(x) with alpha = 1/6 (rounded to the element
  // type, as the reference does) and beta = 0.5.
  Value alpha = constantLike(b, loc, x, 1.0 / 6.0);
  Value linear =
      arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, alpha, x),
                            constantLike(b, loc, x, 0.5));
  return arith::MulFOp::create(b, loc, x, clampUnit(b, loc, linear));
}

Value buildScalar(EluOp op, OpBuilder &b, Location loc, Value x) {
  Value alpha = constantLike(b, loc, x, op.getAlpha().convertToDouble());
  Value negative = arith::MulFOp::create(b, loc, alpha, expMinusOne(b, loc, x));
  return arith::SelectOp::create(b, loc, isNegative(b, loc, x), negative, x);
}

Value buildScalar(SeluOp op, OpBuilder &b, Location loc, Value x) {
  Value alpha = constantLike(b, loc, x, op.getAlpha().convertToDouble());
  Value gamma = constantLike(b, loc, x, op.getGamma().convertToDouble());
  // gamma * (alpha * exp(x) - alpha) for x <= 0, gamma * x above.
  Value negative = arith::SubFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, alpha, math::ExpOp::create(b, loc, x)),
      alpha);
  Value notPositive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE,
                                            x, constantLike(b, loc, x, 0.0));
  Value inner = arith::SelectOp::create(b, loc, notPositive, negative, x);
  return arith::MulFOp::create(b, loc, gamma, inner);
}

Value buildScalar(SoftplusOp, OpBuilder &b, Location loc, Value x) {
  // log(exp(x) + 1) written as max(x, 0) + log1p(exp(-|x|)): equal in exact
  // arithmetic, but neither overflows for large x nor loses small results.
  Value absX = math::AbsFOp::create(b, loc, x);
  Value tail = math::Log1pOp::create(
      b, loc, math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, absX)));
  return arith::AddFOp::create(
      b, loc, arith::MaximumFOp::create(b, loc, x, constantLike(b, loc, x, 0)),
      tail);
}

//===----------------------------------------------------------------------===//
// Scalar semantics of the binary ops
//===----------------------------------------------------------------------===//

Value buildScalar(AddOp, OpBuilder &b, Location loc, Value x, Value y) {
  return createAdd(b, loc, x, y);
}

Value buildScalar(SubOp, OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x))
    return arith::SubFOp::create(b, loc, x, y);
  return arith::SubIOp::create(b, loc, x, y);
}

Value buildScalar(MulOp, OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value buildScalar(DivOp, OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x))
    return arith::DivFOp::create(b, loc, x, y);
  // Integer division truncates toward zero. Division by zero (undefined in
  // ONNX) yields 0 and INT_MIN / -1 wraps, instead of trapping the process:
  // the divisor is replaced by 1 in both cases and the result fixed up.
  Value zero = constantLike(b, loc, x, 0.0);
  Value one = constantLike(b, loc, x, 1.0);
  Value minusOne = constantLike(b, loc, x, -1.0);
  Value byZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value byMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  Value unsafe = arith::OrIOp::create(b, loc, byZero, byMinusOne);
  Value safeDivisor = arith::SelectOp::create(b, loc, unsafe, one, y);
  Value quotient = arith::DivSIOp::create(b, loc, x, safeDivisor);
  Value negated = arith::SubIOp::create(b, loc, zero, x);
  Value result = arith::SelectOp::create(b, loc, byMinusOne, negated, quotient);
  return arith::SelectOp::create(b, loc, byZero, zero, result);
}

Value buildScalar(PowOp, OpBuilder &b, Location loc, Value x, Value y) {
  return math::PowFOp::create(b, loc, x, y);
}

Value buildScalar(MaxOp, OpBuilder &b, Location loc, Value x, Value y) {
  return createMax(b, loc, x, y);
}

Value buildScalar(MinOp, OpBuilder &b, Location loc, Value x, Value y) {
  return createMin(b, loc, x, y);
}

Value buildScalar(PReluOp, OpBuilder &b, Location loc, Value x, Value slope) {
  Value scaled = arith::MulFOp::create(b, loc, slope, x);
  return arith::SelectOp::create(b, loc, isNegative(b, loc, x), scaled, x);
}

template <typename OpTy> struct UnaryLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, PatternRewriter &rewriter) const override {
    Value result =
        buildElementwise(rewriter, op.getLoc(), ValueRange{op.getInput()},
                         op.getResult().getType(),
                         [&](OpBuilder &b, Location loc, ValueRange args) {
                           return buildScalar(op, b, loc, args[0]);
                         });
    return SmallVector<Value>{result};
  }
};

template <typename OpTy> struct BinaryLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, PatternRewriter &rewriter) const override {
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{op.getLhs(), op.getRhs()},
        op.getResult().getType(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildScalar(op, b, loc, args[0], args[1]);
        });
    return SmallVector<Value>{result};
  }
};

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

/// ONNX Cast of one scalar: float -> int truncates toward zero, anything ->
/// bool (i1) is "!= 0", bool -> number is 0 or 1, integers are signed.
Value castScalar(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (to.isInteger(1)) {
    Value zero = createScalar(b, loc, from, 0.0);
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (fromFloat && toFloat) {
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    unsigned toWidth = to.getIntOrFloatBitWidth();
    if (fromWidth < toWidth)
      return arith::ExtFOp::create(b, loc, to, x);
    if (fromWidth > toWidth)
      return arith::TruncFOp::create(b, loc, to, x);
    // Same width, different format (f16 <-> bf16): through f32, exactly.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, x);
  if (toFloat) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, loc, to, x);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

struct CastLowering : DLCLoweringPattern<CastOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(CastOp op, PatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    if (op.getInput().getType() == resultType)
      return SmallVector<Value>{op.getInput()};
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{op.getInput()}, resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], resultType.getElementType());
        });
    return SmallVector<Value>{result};
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  patterns.add<
      UnaryLowering<ReluOp>, UnaryLowering<LeakyReluOp>,
      UnaryLowering<SigmoidOp>, UnaryLowering<TanhOp>, UnaryLowering<ClipOp>,
      UnaryLowering<ExpOp>, UnaryLowering<LogOp>, UnaryLowering<SqrtOp>,
      UnaryLowering<NegOp>, UnaryLowering<AbsOp>, UnaryLowering<ReciprocalOp>,
      UnaryLowering<ErfOp>, UnaryLowering<HardSigmoidOp>,
      UnaryLowering<HardSwishOp>, UnaryLowering<EluOp>, UnaryLowering<SeluOp>,
      UnaryLowering<SoftplusOp>>(patterns.getContext());
  patterns
      .add<BinaryLowering<AddOp>, BinaryLowering<SubOp>, BinaryLowering<MulOp>,
           BinaryLowering<DivOp>, BinaryLowering<PowOp>, BinaryLowering<MaxOp>,
           BinaryLowering<MinOp>, BinaryLowering<PReluOp>, CastLowering>(
          patterns.getContext());
}

} // namespace dlc::lowering
