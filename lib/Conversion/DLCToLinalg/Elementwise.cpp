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

Value buildScalar(SoftsignOp, OpBuilder &b, Location loc, Value x) {
  Value denominator = arith::AddFOp::create(
      b, loc, constantLike(b, loc, x, 1.0), math::AbsFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, x, denominator);
}

Value buildScalar(ThresholdedReluOp op, OpBuilder &b, Location loc, Value x) {
  Value alpha = constantLike(b, loc, x, op.getAlpha().convertToDouble());
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, alpha);
  return arith::SelectOp::create(b, loc, above, x,
                                 constantLike(b, loc, x, 0.0));
}

Value buildScalar(CeluOp op, OpBuilder &b, Location loc, Value x) {
  Value alpha = constantLike(b, loc, x, op.getAlpha().convertToDouble());
  Value zero = constantLike(b, loc, x, 0.0);
  Value tail = arith::MulFOp::create(
      b, loc, alpha,
      expMinusOne(b, loc, arith::DivFOp::create(b, loc, x, alpha)));
  return arith::AddFOp::create(b, loc,
                               arith::MaximumFOp::create(b, loc, zero, x),
                               arith::MinimumFOp::create(b, loc, zero, tail));
}

Value buildScalar(ShrinkOp op, OpBuilder &b, Location loc, Value x) {
  // As the ONNX reference: the bounds and the bias in the input's type.
  Value lambd = constantLike(b, loc, x, op.getLambd().convertToDouble());
  Value bias = constantLike(b, loc, x, op.getBias().convertToDouble());
  Value zero = constantLike(b, loc, x, 0.0);
  if (isFloat(x)) {
    Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                        arith::NegFOp::create(b, loc, lambd));
    Value above =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, lambd);
    return arith::SelectOp::create(
        b, loc, below, arith::AddFOp::create(b, loc, x, bias),
        arith::SelectOp::create(b, loc, above,
                                arith::SubFOp::create(b, loc, x, bias), zero));
  }
  bool isUnsignedInput = isUnsigned(op);
  Value negLambd = arith::SubIOp::create(b, loc, zero, lambd);
  Value below =
      isUnsignedInput
          ? Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(false)))
          : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x,
                                        negLambd));
  Value above = arith::CmpIOp::create(
      b, loc,
      isUnsignedInput ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
      x, lambd);
  return arith::SelectOp::create(
      b, loc, below, arith::AddIOp::create(b, loc, x, bias),
      arith::SelectOp::create(b, loc, above,
                              arith::SubIOp::create(b, loc, x, bias), zero));
}

Value buildScalar(SignOp op, OpBuilder &b, Location loc, Value x) {
  Value zero = constantLike(b, loc, x, 0.0);
  Value one = constantLike(b, loc, x, 1.0);
  if (isFloat(x)) {
    // NaN and signed zeros are their own sign, as numpy's.
    Value positive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    Value negative = isNegative(b, loc, x);
    return arith::SelectOp::create(
        b, loc, positive, one,
        arith::SelectOp::create(b, loc, negative, constantLike(b, loc, x, -1.0),
                                x));
  }
  if (isUnsigned(op))
    return arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero), one,
        zero);
  Value positive =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
  return arith::SelectOp::create(
      b, loc, positive, one,
      arith::SelectOp::create(b, loc, negative, constantLike(b, loc, x, -1.0),
                              zero));
}

Value buildScalar(FloorOp, OpBuilder &b, Location loc, Value x) {
  return math::FloorOp::create(b, loc, x);
}
Value buildScalar(CeilOp, OpBuilder &b, Location loc, Value x) {
  return math::CeilOp::create(b, loc, x);
}
Value buildScalar(RoundOp, OpBuilder &b, Location loc, Value x) {
  return math::RoundEvenOp::create(b, loc, x);
}
Value buildScalar(SinOp, OpBuilder &b, Location loc, Value x) {
  return math::SinOp::create(b, loc, x);
}
Value buildScalar(CosOp, OpBuilder &b, Location loc, Value x) {
  return math::CosOp::create(b, loc, x);
}
Value buildScalar(TanOp, OpBuilder &b, Location loc, Value x) {
  return math::TanOp::create(b, loc, x);
}
Value buildScalar(AsinOp, OpBuilder &b, Location loc, Value x) {
  return math::AsinOp::create(b, loc, x);
}
Value buildScalar(AcosOp, OpBuilder &b, Location loc, Value x) {
  return math::AcosOp::create(b, loc, x);
}
Value buildScalar(AtanOp, OpBuilder &b, Location loc, Value x) {
  return math::AtanOp::create(b, loc, x);
}
Value buildScalar(SinhOp, OpBuilder &b, Location loc, Value x) {
  return math::SinhOp::create(b, loc, x);
}
Value buildScalar(CoshOp, OpBuilder &b, Location loc, Value x) {
  return math::CoshOp::create(b, loc, x);
}
Value buildScalar(AsinhOp, OpBuilder &b, Location loc, Value x) {
  return math::AsinhOp::create(b, loc, x);
}
Value buildScalar(AcoshOp, OpBuilder &b, Location loc, Value x) {
  return math::AcoshOp::create(b, loc, x);
}
Value buildScalar(AtanhOp, OpBuilder &b, Location loc, Value x) {
  return math::AtanhOp::create(b, loc, x);
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

Value buildScalar(ModOp op, OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x))
    return arith::RemFOp::create(b, loc, x, y);
  // A zero divisor (undefined in ONNX) gives 0 instead of trapping.
  Value zero = constantLike(b, loc, x, 0.0);
  Value one = constantLike(b, loc, x, 1.0);
  Value byZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value divisor = arith::SelectOp::create(b, loc, byZero, one, y);
  Value remainder;
  if (isUnsigned(op)) {
    remainder = arith::RemUIOp::create(b, loc, x, divisor);
  } else {
    // INT_MIN % -1 traps in C: its remainder is 0 anyway.
    Value byMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             y, constantLike(b, loc, x, -1.0));
    divisor = arith::SelectOp::create(b, loc, byMinusOne, one, divisor);
    remainder = arith::RemSIOp::create(b, loc, x, divisor);
    if (!op.getFmod()) {
      // Python's %: a nonzero remainder takes the divisor's sign.
      Value remainderNegative = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, remainder, zero);
      Value divisorNegative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
      Value signsDiffer =
          arith::XOrIOp::create(b, loc, remainderNegative, divisorNegative);
      Value nonzero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                            remainder, zero);
      remainder = arith::SelectOp::create(
          b, loc, arith::AndIOp::create(b, loc, signsDiffer, nonzero),
          arith::AddIOp::create(b, loc, remainder, y), remainder);
    }
  }
  return arith::SelectOp::create(b, loc, byZero, zero, remainder);
}

Value buildScalar(BitShiftOp op, OpBuilder &b, Location loc, Value x, Value y) {
  // Shifting by the width or more gives 0, as numpy does.
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Value tooFar = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, y,
      constantLike(b, loc, x, static_cast<double>(width)));
  Value shifted = op.getLeft() ? Value(arith::ShLIOp::create(b, loc, x, y))
                               : Value(arith::ShRUIOp::create(b, loc, x, y));
  return arith::SelectOp::create(b, loc, tooFar, constantLike(b, loc, x, 0.0),
                                 shifted);
}

using F = arith::CmpFPredicate;
using I = arith::CmpIPredicate;

/// A comparison in the operands' type: ordered for floats (NaN compares
/// false, as numpy), signed or unsigned for integers.
template <typename OpTy>
Value buildComparison(OpTy op, OpBuilder &b, Location loc, Value x, Value y,
                      arith::CmpFPredicate floatPredicate,
                      arith::CmpIPredicate signedPredicate,
                      arith::CmpIPredicate unsignedPredicate) {
  if (isFloat(x))
    return arith::CmpFOp::create(b, loc, floatPredicate, x, y);
  bool isUnsignedOperand =
      isUnsignedElementType(op.getLhs().getType().getElementType());
  return arith::CmpIOp::create(
      b, loc, isUnsignedOperand ? unsignedPredicate : signedPredicate, x, y);
}

Value buildScalar(EqualOp op, OpBuilder &b, Location loc, Value x, Value y) {
  return buildComparison(op, b, loc, x, y, F::OEQ, I::eq, I::eq);
}

Value buildScalar(LessOp op, OpBuilder &b, Location loc, Value x, Value y) {
  return buildComparison(op, b, loc, x, y, F::OLT, I::slt, I::ult);
}

Value buildScalar(LessOrEqualOp op, OpBuilder &b, Location loc, Value x,
                  Value y) {
  return buildComparison(op, b, loc, x, y, F::OLE, I::sle, I::ule);
}

Value buildScalar(GreaterOp op, OpBuilder &b, Location loc, Value x, Value y) {
  return buildComparison(op, b, loc, x, y, F::OGT, I::sgt, I::ugt);
}

Value buildScalar(GreaterOrEqualOp op, OpBuilder &b, Location loc, Value x,
                  Value y) {
  return buildComparison(op, b, loc, x, y, F::OGE, I::sge, I::uge);
}

Value buildScalar(AndOp, OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}

Value buildScalar(OrOp, OpBuilder &b, Location loc, Value x, Value y) {
  return arith::OrIOp::create(b, loc, x, y);
}

Value buildScalar(XorOp, OpBuilder &b, Location loc, Value x, Value y) {
  return arith::XOrIOp::create(b, loc, x, y);
}

Value buildScalar(NotOp, OpBuilder &b, Location loc, Value x) {
  return arith::XOrIOp::create(
      b, loc, x, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
}

Value buildScalar(IsNaNOp, OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}

Value buildScalar(IsInfOp op, OpBuilder &b, Location loc, Value x) {
  double inf = std::numeric_limits<double>::infinity();
  Value result = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  auto detect = [&](double value) {
    Value is = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                     constantLike(b, loc, x, value));
    result = arith::OrIOp::create(b, loc, result, is);
  };
  if (op.getDetectPositive())
    detect(inf);
  if (op.getDetectNegative())
    detect(-inf);
  return result;
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

struct WhereLowering : DLCLoweringPattern<WhereOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(WhereOp op, WhereOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Value result = buildElementwise(
        rewriter, op.getLoc(),
        ValueRange{operands.getCondition(), operands.getLhs(),
                   operands.getRhs()},
        op.getResult().getType(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
        });
    return SmallVector<Value>{result};
  }
};

/// Trilu: the element where its column minus its row is on the kept side
/// of k, zero elsewhere; k (a run-time scalar or 0) broadcasts.
struct TriluLowering : DLCLoweringPattern<TriluOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(TriluOp op, TriluOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getResult().getType();
    int64_t rank = type.getRank();
    SmallVector<Value> inputs = {operands.getInput()};
    if (operands.getK())
      inputs.push_back(operands.getK());
    bool upper = op.getUpper();
    Value result = buildElementwise(
        rewriter, loc, inputs, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Type i64 = b.getI64Type();
          auto indexOf = [&](int64_t dim) -> Value {
            return arith::IndexCastOp::create(
                b, l, i64, linalg::IndexOp::create(b, l, dim));
          };
          Value column = indexOf(rank - 1);
          Value row = indexOf(rank - 2);
          Value offset = arith::SubIOp::create(b, l, column, row);
          Value k = args.size() > 1 ? args[1] : createScalar(b, l, i64, 0.0);
          Value keep = arith::CmpIOp::create(b, l,
                                             upper ? arith::CmpIPredicate::sge
                                                   : arith::CmpIPredicate::sle,
                                             offset, k);
          return arith::SelectOp::create(
              b, l, keep, args[0], createScalar(b, l, args[0].getType(), 0.0));
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

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

/// QuantizeLinear as ONNX's reference computes it, in float32:
/// rint(x / scale) + zero_point, clipped to the 8-bit type's range.
Value buildQuantizationScalar(QuantizeLinearOp op, OpBuilder &b, Location loc,
                              ValueRange args) {
  Type input = op.getInput().getType().getElementType();
  Type quantized = op.getResult().getType().getElementType();
  bool isUnsigned = isUnsignedElementType(quantized);
  Type f32 = b.getF32Type();
  Value x = castScalar(b, loc, args[0], input, f32);
  Value scaled = math::RoundEvenOp::create(
      b, loc, arith::DivFOp::create(b, loc, x, args[1]));
  Value shifted = arith::AddFOp::create(
      b, loc, scaled, castScalar(b, loc, args[2], quantized, f32));
  Value clipped = arith::MinimumFOp::create(
      b, loc,
      arith::MaximumFOp::create(
          b, loc, shifted, createScalar(b, loc, f32, isUnsigned ? 0 : -128)),
      createScalar(b, loc, f32, isUnsigned ? 255 : 127));
  return castScalar(b, loc, clipped, f32, quantized);
}

/// DequantizeLinear: (float(x) - float(zero_point)) * scale.
Value buildQuantizationScalar(DequantizeLinearOp op, OpBuilder &b, Location loc,
                              ValueRange args) {
  Type quantized = op.getInput().getType().getElementType();
  Type f32 = b.getF32Type();
  Value shifted =
      arith::SubFOp::create(b, loc, castScalar(b, loc, args[0], quantized, f32),
                            castScalar(b, loc, args[2], quantized, f32));
  return arith::MulFOp::create(b, loc, shifted, args[1]);
}

/// QuantizeLinear and DequantizeLinear: elementwise over the broadcast of
/// input, scale and zero point.
template <typename OpTy>
struct QuantizationLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, typename OpTy::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Value result =
        buildElementwise(rewriter, op.getLoc(),
                         ValueRange{operands.getInput(), operands.getScale(),
                                    operands.getZeroPoint()},
                         op.getResult().getType(),
                         [&](OpBuilder &b, Location loc, ValueRange args) {
                           return buildQuantizationScalar(op, b, loc, args);
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
      UnaryLowering<SoftplusOp>, UnaryLowering<SoftsignOp>,
      UnaryLowering<ThresholdedReluOp>, UnaryLowering<CeluOp>,
      UnaryLowering<ShrinkOp>, UnaryLowering<SignOp>, UnaryLowering<FloorOp>,
      UnaryLowering<CeilOp>, UnaryLowering<RoundOp>, UnaryLowering<SinOp>,
      UnaryLowering<CosOp>, UnaryLowering<TanOp>, UnaryLowering<AsinOp>,
      UnaryLowering<AcosOp>, UnaryLowering<AtanOp>, UnaryLowering<SinhOp>,
      UnaryLowering<CoshOp>, UnaryLowering<AsinhOp>, UnaryLowering<AcoshOp>,
      UnaryLowering<AtanhOp>, UnaryLowering<NotOp>, UnaryLowering<IsNaNOp>,
      UnaryLowering<IsInfOp>>(patterns.getContext());
  patterns.add<QuantizationLowering<QuantizeLinearOp>,
               QuantizationLowering<DequantizeLinearOp>>(patterns.getContext());
  patterns.add<
      BinaryLowering<AddOp>, BinaryLowering<SubOp>, BinaryLowering<MulOp>,
      BinaryLowering<DivOp>, BinaryLowering<PowOp>, BinaryLowering<MaxOp>,
      BinaryLowering<MinOp>, BinaryLowering<PReluOp>, BinaryLowering<ModOp>,
      BinaryLowering<BitShiftOp>, BinaryLowering<EqualOp>,
      BinaryLowering<LessOp>, BinaryLowering<LessOrEqualOp>,
      BinaryLowering<GreaterOp>, BinaryLowering<GreaterOrEqualOp>,
      BinaryLowering<AndOp>, BinaryLowering<OrOp>, BinaryLowering<XorOp>,
      WhereLowering, TriluLowering, CastLowering>(patterns.getContext());
}

} // namespace dlc::lowering
