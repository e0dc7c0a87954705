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

/// Whether the integer op `op` computes on unsigned integers (its result's
/// element type says; only Cast has an operand of another type).
template <typename OpTy> bool isUnsigned(OpTy op) {
  return isUnsignedElementType(op.getResult().getType());
}

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
                   createMin(b, loc, constantLike(b, loc, x, 1.0), x,
                             /*isUnsigned=*/false),
                   /*isUnsigned=*/false);
}

/// exp(x) - 1, as the ONNX references write Elu and Selu.
Value expMinusOne(OpBuilder &b, Location loc, Value x) {
  return arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x),
                               constantLike(b, loc, x, 1.0));
}

//===----------------------------------------------------------------------===//
// Scalar semantics of the unary ops
//===----------------------------------------------------------------------===//

Value buildScalar(ReluOp op, OpBuilder &b, Location loc, Value x) {
  return createMax(b, loc, x, constantLike(b, loc, x, 0.0), isUnsigned(op));
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
  // The bounds saturate to the dlc element type's range.
  Type element = op.getType().getElementType();
  Value lo = createScalar(b, loc, element, op.getMin().convertToDouble());
  Value hi = createScalar(b, loc, element, op.getMax().convertToDouble());
  return createMin(b, loc, createMax(b, loc, x, lo, isUnsigned(op)), hi,
                   isUnsigned(op));
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

Value buildScalar(AbsOp op, OpBuilder &b, Location loc, Value x) {
  if (isFloat(x))
    return math::AbsFOp::create(b, loc, x);
  if (isUnsigned(op))
    return x;
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

Value buildScalar(DivOp op, OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x))
    return arith::DivFOp::create(b, loc, x, y);
  Value zero = constantLike(b, loc, x, 0.0);
  Value one = constantLike(b, loc, x, 1.0);
  if (isUnsigned(op)) {
    // Division by zero (undefined in ONNX) yields 0 instead of trapping.
    Value byZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
    Value safeDivisor = arith::SelectOp::create(b, loc, byZero, one, y);
    Value quotient = arith::DivUIOp::create(b, loc, x, safeDivisor);
    return arith::SelectOp::create(b, loc, byZero, zero, quotient);
  }
  // Integer division truncates toward zero. Division by zero (undefined in
  // ONNX) yields 0 and INT_MIN / -1 wraps, instead of trapping the process:
  // the divisor is replaced by 1 in both cases and the result fixed up.
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

/// Integer x^y by binary exponentiation, unrolled over the bits of y (the
/// body of a linalg.generic has no loops here): exact, wrapping like
/// numpy's integer power. A negative (signed) y gives the truncated 1/x^-y,
/// as C does: 1 for x = 1, +-1 for x = -1, 0 otherwise (also for x = 0,
/// which numpy rejects and ONNX leaves undefined).
Value buildIntegerPower(OpBuilder &b, Location loc, Value x, Value y,
                        bool isUnsigned) {
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Value zero = constantLike(b, loc, x, 0.0);
  Value one = constantLike(b, loc, x, 1.0);
  Value result = one, square = x, bits = y;
  for (unsigned i = 0; i < width; ++i) {
    Value bit = arith::AndIOp::create(b, loc, bits, one);
    Value isSet =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit, zero);
    result = arith::SelectOp::create(
        b, loc, isSet, arith::MulIOp::create(b, loc, result, square), result);
    if (i + 1 == width)
      break;
    square = arith::MulIOp::create(b, loc, square, square);
    bits = arith::ShRUIOp::create(b, loc, bits, one);
  }
  if (isUnsigned)
    return result;
  Value minusOne = constantLike(b, loc, x, -1.0);
  Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, one);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, minusOne);
  Value isOdd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, y, one), zero);
  Value minusOnePower = arith::SelectOp::create(b, loc, isOdd, minusOne, one);
  Value reciprocal = arith::SelectOp::create(
      b, loc, isOne, one,
      arith::SelectOp::create(b, loc, isMinusOne, minusOnePower, zero));
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
  return arith::SelectOp::create(b, loc, isNegative, reciprocal, result);
}

Value buildScalar(PowOp op, OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x))
    return math::PowFOp::create(b, loc, x, y);
  return buildIntegerPower(b, loc, x, y, isUnsigned(op));
}

Value buildScalar(MaxOp op, OpBuilder &b, Location loc, Value x, Value y) {
  return createMax(b, loc, x, y, isUnsigned(op));
}

Value buildScalar(MinOp op, OpBuilder &b, Location loc, Value x, Value y) {
  return createMin(b, loc, x, y, isUnsigned(op));
}

Value buildScalar(PReluOp, OpBuilder &b, Location loc, Value x, Value slope) {
  Value scaled = arith::MulFOp::create(b, loc, slope, x);
  return arith::SelectOp::create(b, loc, isNegative(b, loc, x), scaled, x);
}

template <typename OpTy> struct UnaryLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, typename OpTy::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Value result =
        buildElementwise(rewriter, op.getLoc(), ValueRange{operands.getInput()},
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
  lower(OpTy op, typename OpTy::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{operands.getLhs(), operands.getRhs()},
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

/// ONNX Cast of one scalar `x` of the dlc element type `from` to the dlc
/// element type `to` (both computed on as signless): float -> int truncates
/// toward zero, anything -> bool (i1) is "!= 0", integers extend and convert
/// to float as their signedness says (bool as unsigned: 0 or 1).
Value castScalar(OpBuilder &b, Location loc, Value x, Type from, Type to) {
  if (from == to)
    return x;
  Type signlessTo = getSignlessType(to);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  bool fromUnsigned = isUnsignedElementType(from);
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
  if (fromFloat) {
    if (isUnsignedElementType(to))
      return arith::FPToUIOp::create(b, loc, signlessTo, x);
    return arith::FPToSIOp::create(b, loc, signlessTo, x);
  }
  if (toFloat) {
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth == toWidth) // ui8 <-> i8: the same bits.
    return x;
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, signlessTo, x);
  if (fromUnsigned)
    return arith::ExtUIOp::create(b, loc, signlessTo, x);
  return arith::ExtSIOp::create(b, loc, signlessTo, x);
}

struct CastLowering : DLCLoweringPattern<CastOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(CastOp op, CastOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    Type from = op.getInput().getType().getElementType();
    Type to = resultType.getElementType();
    // Same type, or ui8 <-> i8: the same bits.
    if (getSignlessType(from) == getSignlessType(to))
      return SmallVector<Value>{operands.getInput()};
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{operands.getInput()}, resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], from, to);
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
