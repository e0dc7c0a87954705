//===- Normalization.cpp - reductions, softmax, batch_norm, LRN -----------===//

#include "LoweringUtils.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace dlc::lowering {
namespace {

/// The shape of `type` with `axes` set to 1 (ONNX keepdims).
RankedTensorType keepDimsType(RankedTensorType type, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t axis : axes)
    shape[axis] = 1;
  return RankedTensorType::get(shape, type.getElementType());
}

/// Reduces `input` over `axes` and reshapes the result to keepdims form so
/// that it broadcasts against the input (numpy rules).
Value reduceKeepDims(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Value init,
                     ScalarBuilder combine) {
  Value reduced = buildReduction(b, loc, input, axes, init, combine);
  return reshapeTo(b, loc, reduced,
                   keepDimsType(cast<RankedTensorType>(input.getType()), axes));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  SumSquare,
  L1,
  L2,
  LogSum,
  LogSumExp
};

/// The ONNX reductions as a map of each element, a combination and a map of
/// the result (ReduceL2 is sqrt(sum(x * x)), ReduceLogSumExp
/// log(sum(exp(x))), as the ONNX reference computes them).
template <typename OpTy, ReduceKind kind>
struct ReduceLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, typename OpTy::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getInput().getType();
    Type element = inputType.getElementType();
    bool isUnsigned = isUnsignedElementType(element);
    bool isFloat = isa<FloatType>(element);
    Value input = operands.getInput();
    auto mapInput = [&](function_ref<Value(OpBuilder &, Location, Value)> fn) {
      input = buildElementwise(rewriter, loc, ValueRange{input}, inputType,
                               [&](OpBuilder &b, Location l, ValueRange args) {
                                 return fn(b, l, args[0]);
                               });
    };
    auto multiply = [&](OpBuilder &b, Location l, Value x, Value y) -> Value {
      if (isFloat)
        return arith::MulFOp::create(b, l, x, y);
      return arith::MulIOp::create(b, l, x, y);
    };
    if (kind == ReduceKind::SumSquare || kind == ReduceKind::L2)
      mapInput([&](OpBuilder &b, Location l, Value x) {
        return multiply(b, l, x, x);
      });
    if (kind == ReduceKind::L1)
      mapInput([&](OpBuilder &b, Location l, Value x) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, l, x);
        return isUnsigned ? x : math::AbsIOp::create(b, l, x).getResult();
      });
    if (kind == ReduceKind::LogSumExp)
      mapInput([&](OpBuilder &b, Location l, Value x) {
        return math::ExpOp::create(b, l, x);
      });
    Value init;
    switch (kind) {
    case ReduceKind::Max:
      init = createLowest(rewriter, loc, element);
      break;
    case ReduceKind::Min:
      init = createHighest(rewriter, loc, element);
      break;
    case ReduceKind::Prod:
      init = createScalar(rewriter, loc, element, 1.0);
      break;
    default:
      init = createScalar(rewriter, loc, element, 0.0);
      break;
    }
    Value reduced =
        buildReduction(rewriter, loc, input, op.getAxes(), init,
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         if (kind == ReduceKind::Max)
                           return createMax(b, l, args[0], args[1], isUnsigned);
                         if (kind == ReduceKind::Min)
                           return createMin(b, l, args[0], args[1], isUnsigned);
                         if (kind == ReduceKind::Prod)
                           return multiply(b, l, args[0], args[1]);
                         return createAdd(b, l, args[0], args[1]);
                       });
    auto mapResult = [&](function_ref<Value(OpBuilder &, Location, Value)> fn) {
      reduced =
          buildElementwise(rewriter, loc, ValueRange{reduced},
                           cast<RankedTensorType>(reduced.getType()),
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             return fn(b, l, args[0]);
                           });
    };
    if (kind == ReduceKind::Mean) {
      int64_t count = 1;
      for (int64_t axis : op.getAxes())
        count *= inputType.getDimSize(axis);
      mapResult([&](OpBuilder &b, Location l, Value x) {
        return arith::DivFOp::create(
            b, l, x, createScalar(b, l, element, double(count)));
      });
    }
    if (kind == ReduceKind::L2)
      mapResult([&](OpBuilder &b, Location l, Value x) {
        return math::SqrtOp::create(b, l, x);
      });
    if (kind == ReduceKind::LogSum || kind == ReduceKind::LogSumExp)
      mapResult([&](OpBuilder &b, Location l, Value x) {
        return math::LogOp::create(b, l, x);
      });
    return SmallVector<Value>{
        reshapeTo(rewriter, loc, reduced, op.getResult().getType())};
  }
};

/// The index along `axis` of the first (or `last`) extreme element of
/// `input`, keepdims, in two reductions with one result each (what the
/// shared memory passes expect of a nest): the extreme value, then the
/// first (or last) index holding it or a NaN, which the NaN-propagating
/// extreme then is. `input` is signless; `element` is its dlc element type
/// (unsigned integers compare as such).
Value buildArgExtreme(OpBuilder &b, Location loc, Value input, Type element,
                      int64_t axis, bool isMax, bool last) {
  auto inputType = cast<RankedTensorType>(input.getType());
  bool isUnsigned = isUnsignedElementType(element);
  Value extreme = reduceKeepDims(
      b, loc, input, {axis},
      isMax ? createLowest(b, loc, element) : createHighest(b, loc, element),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        return isMax ? createMax(nb, l, args[0], args[1], isUnsigned)
                     : createMin(nb, l, args[0], args[1], isUnsigned);
      });
  Type i64 = b.getI64Type();
  double none = last ? -1.0 : double(inputType.getDimSize(axis));
  // The extreme broadcasts back along the axis (it kept its dimension).
  Value candidates = buildElementwise(
      b, loc, ValueRange{input, extreme},
      RankedTensorType::get(inputType.getShape(), i64),
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value x = args[0], best = args[1];
        Value hit;
        if (isa<FloatType>(x.getType())) {
          Value equal =
              arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, x, best);
          Value isNaN =
              arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, x, x);
          hit = arith::OrIOp::create(nb, l, equal, isNaN);
        } else {
          hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, x, best);
        }
        Value index = arith::IndexCastOp::create(
            nb, l, i64, linalg::IndexOp::create(nb, l, axis));
        return arith::SelectOp::create(nb, l, hit, index,
                                       createScalar(nb, l, i64, none));
      });
  return reduceKeepDims(
      b, loc, candidates, {axis}, createScalar(b, loc, i64, none),
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        if (last)
          return arith::MaxSIOp::create(nb, l, args[0], args[1]);
        return arith::MinSIOp::create(nb, l, args[0], args[1]);
      });
}

template <typename OpTy, bool isMax>
struct ArgReduceLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, typename OpTy::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Value indices =
        buildArgExtreme(rewriter, op.getLoc(), operands.getInput(),
                        op.getInput().getType().getElementType(), op.getAxis(),
                        isMax, op.getSelectLastIndex());
    return SmallVector<Value>{
        reshapeTo(rewriter, op.getLoc(), indices, op.getResult().getType())};
  }
};

/// TopK by ranks, in two generics without sorting: the rank of element i
/// along the axis is how many elements j come before it (larger, or
/// smaller for !largest; equal with j < i); output position r then takes
/// the element whose rank is r. Quadratic in the axis length, which keeps it
/// a static loop nest.
struct TopKLowering : DLCLoweringPattern<TopKOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(TopKOp op, TopKOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = operands.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t axis = op.getAxis(), rank = inputType.getRank();
    bool largest = op.getLargest();
    bool isUnsigned = isUnsignedElementType(op.getInput().getType());
    Type i64 = rewriter.getI64Type();
    // Loops: the input's (or output's) dimensions, then the axis again.
    AxisScanLoops loops = getAxisScanLoops(rewriter.getContext(), rank, axis);
    AffineMap at = loops.at, along = loops.along;
    ArrayRef<utils::IteratorType> iterators = loops.iterators;

    Value zeros = createFilled(rewriter, loc, inputType.getShape(),
                               createScalar(rewriter, loc, i64, 0));
    Value ranks =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{zeros.getType()}, ValueRange{input, input},
            ValueRange{zeros}, ArrayRef<AffineMap>{at, along, at}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = args[0], other = args[1], before, equal;
              if (isa<FloatType>(x.getType())) {
                before =
                    arith::CmpFOp::create(b, l,
                                          largest ? arith::CmpFPredicate::OGT
                                                  : arith::CmpFPredicate::OLT,
                                          other, x);
                equal = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                              other, x);
              } else {
                arith::CmpIPredicate greater = isUnsigned
                                                   ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt;
                arith::CmpIPredicate less = isUnsigned
                                                ? arith::CmpIPredicate::ult
                                                : arith::CmpIPredicate::slt;
                before = arith::CmpIOp::create(b, l, largest ? greater : less,
                                               other, x);
                equal = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                              other, x);
              }
              Value earlier =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                        linalg::IndexOp::create(b, l, rank),
                                        linalg::IndexOp::create(b, l, axis));
              Value counts = arith::OrIOp::create(
                  b, l, before, arith::AndIOp::create(b, l, equal, earlier));
              Value one = arith::ExtUIOp::create(b, l, i64, counts);
              linalg::YieldOp::create(
                  b, l, Value(arith::AddIOp::create(b, l, args[2], one)));
            })
            .getResult(0);

    RankedTensorType valuesType = getSignlessType(op.getValues().getType());
    RankedTensorType indicesType = op.getIndices().getType();
    Value valuesInit = createFilled(
        rewriter, loc, valuesType.getShape(),
        createScalar(rewriter, loc, valuesType.getElementType(), 0));
    Value indicesInit = createFilled(rewriter, loc, indicesType.getShape(),
                                     createScalar(rewriter, loc, i64, 0));
    auto selected = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valuesType, indicesType},
        ValueRange{input, ranks}, ValueRange{valuesInit, indicesInit},
        ArrayRef<AffineMap>{along, along, at, at}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value position = arith::IndexCastOp::create(
              b, l, i64, linalg::IndexOp::create(b, l, axis));
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            args[1], position);
          Value index = arith::IndexCastOp::create(
              b, l, i64, linalg::IndexOp::create(b, l, rank));
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, hit, args[0], args[2]),
                         arith::SelectOp::create(b, l, hit, index, args[3])});
        });
    return SmallVector<Value>{selected.getResult(0), selected.getResult(1)};
  }
};

/// Hardmax: 1 where the index along the axis is the first maximum's.
struct HardmaxLowering : DLCLoweringPattern<HardmaxOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(HardmaxOp op, HardmaxOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    Value first = buildArgExtreme(rewriter, loc, operands.getInput(),
                                  op.getInput().getType().getElementType(),
                                  axis, /*isMax=*/true, /*last=*/false);
    RankedTensorType type = op.getResult().getType();
    Value result = buildElementwise(
        rewriter, loc, ValueRange{first}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value isFirst = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                index, args[0]);
          return arith::SelectOp::create(
              b, l, isFirst, createScalar(b, l, type.getElementType(), 1.0),
              createScalar(b, l, type.getElementType(), 0.0));
        });
    return SmallVector<Value>{result};
  }
};

//===----------------------------------------------------------------------===//
// Softmax and LogSoftmax
//===----------------------------------------------------------------------===//

/// Numerically stable: exp(x - max) never overflows. Softmax is
/// exp(x - max) / sum; LogSoftmax is (x - max) - log(sum).
template <typename OpTy, bool isLog>
struct SoftmaxLowering : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(OpTy op, typename OpTy::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = operands.getInput();
    RankedTensorType type = op.getInput().getType();
    Type element = type.getElementType();
    int64_t axis = op.getAxis();
    Value max = reduceKeepDims(
        rewriter, loc, input, {axis}, createLowest(rewriter, loc, element),
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::MaximumFOp::create(b, l, args[0], args[1]);
        });
    Value shifted = buildElementwise(
        rewriter, loc, ValueRange{input, max}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value diff = arith::SubFOp::create(b, l, args[0], args[1]);
          return isLog ? diff : math::ExpOp::create(b, l, diff).getResult();
        });
    Value sum = reduceKeepDims(
        rewriter, loc, shifted, {axis}, createScalar(rewriter, loc, element, 0),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value term =
              isLog ? math::ExpOp::create(b, l, args[0]).getResult() : args[0];
          return arith::AddFOp::create(b, l, term, args[1]);
        });
    Value result = buildElementwise(
        rewriter, loc, ValueRange{shifted, sum}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (isLog)
            return arith::SubFOp::create(b, l, args[0],
                                         math::LogOp::create(b, l, args[1]));
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    return SmallVector<Value>{result};
  }
};

//===----------------------------------------------------------------------===//
// BatchNormalization (inference)
//===----------------------------------------------------------------------===//

struct BatchNormLowering : DLCLoweringPattern<BatchNormOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(BatchNormOp op, BatchNormOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    // Per-channel parameters as C x 1 x ... x 1 broadcast along dim 1.
    SmallVector<int64_t> paramShape(type.getRank() - 1, 1);
    paramShape[0] = type.getDimSize(1);
    SmallVector<Value> inputs = {operands.getInput()};
    for (Value param : {operands.getScale(), operands.getBias(),
                        operands.getMean(), operands.getVariance()}) {
      auto paramType = cast<RankedTensorType>(param.getType());
      inputs.push_back(reshapeTo(
          rewriter, loc, param,
          RankedTensorType::get(paramShape, paramType.getElementType())));
    }
    double epsilon = op.getEpsilon().convertToDouble();
    Value result = buildElementwise(
        rewriter, loc, inputs, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          // (x - mean) / sqrt(var + epsilon) * scale + bias
          Value x = args[0], scale = args[1], bias = args[2], mean = args[3],
                variance = args[4];
          Value eps = createScalar(b, l, variance.getType(), epsilon);
          Value stddev = math::SqrtOp::create(
              b, l, arith::AddFOp::create(b, l, variance, eps));
          Value normalized = arith::DivFOp::create(
              b, l, arith::SubFOp::create(b, l, x, mean), stddev);
          return arith::AddFOp::create(
              b, l, arith::MulFOp::create(b, l, normalized, scale), bias);
        });
    return SmallVector<Value>{result};
  }
};

//===----------------------------------------------------------------------===//
// LayerNormalization, InstanceNormalization, MeanVarianceNormalization
//===----------------------------------------------------------------------===//

/// The mean of `x` over `axes` and the inverse of its standard deviation,
/// both with keepdims: two passes (the variance of the deviations), as the
/// ONNX reference computes LayerNormalization and InstanceNormalization.
std::pair<Value, Value> getMeanAndInvStdDev(OpBuilder &b, Location loc, Value x,
                                            ArrayRef<int64_t> axes,
                                            double epsilon) {
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= type.getDimSize(axis);
  Value zero = createScalar(b, loc, element, 0.0);
  auto add = [](OpBuilder &nb, Location l, ValueRange args) {
    return createAdd(nb, l, args[0], args[1]);
  };
  RankedTensorType reducedType = keepDimsType(type, axes);
  Value sum = reduceKeepDims(b, loc, x, axes, zero, add);
  Value mean = buildElementwise(
      b, loc, ValueRange{sum}, reducedType,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        return arith::DivFOp::create(nb, l, args[0],
                                     createScalar(nb, l, element, count));
      });
  Value squares =
      buildElementwise(b, loc, ValueRange{x, mean}, type,
                       [](OpBuilder &nb, Location l, ValueRange args) {
                         Value d =
                             arith::SubFOp::create(nb, l, args[0], args[1]);
                         return arith::MulFOp::create(nb, l, d, d);
                       });
  Value squareSum = reduceKeepDims(b, loc, squares, axes, zero, add);
  Value invStdDev = buildElementwise(
      b, loc, ValueRange{squareSum}, reducedType,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value variance = arith::DivFOp::create(
            nb, l, args[0], createScalar(nb, l, element, count));
        Value shifted = arith::AddFOp::create(
            nb, l, variance, createScalar(nb, l, element, epsilon));
        return math::RsqrtOp::create(nb, l, shifted);
      });
  return {mean, invStdDev};
}

/// (x - mean) * invStdDev [* scale [+ bias]], the parameters broadcast.
Value applyNormalization(OpBuilder &b, Location loc, Value x, Value mean,
                         Value invStdDev, Value scale, Value bias) {
  SmallVector<Value> inputs = {x, mean, invStdDev};
  if (scale)
    inputs.push_back(scale);
  if (bias)
    inputs.push_back(bias);
  return buildElementwise(
      b, loc, inputs, cast<RankedTensorType>(x.getType()),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value normalized = arith::MulFOp::create(
            nb, l, arith::SubFOp::create(nb, l, args[0], args[1]), args[2]);
        if (scale)
          normalized = arith::MulFOp::create(nb, l, normalized, args[3]);
        if (bias)
          normalized = arith::AddFOp::create(nb, l, normalized, args[4]);
        return normalized;
      });
}

struct LayerNormLowering : DLCLoweringPattern<LayerNormOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(LayerNormOp op, LayerNormOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t rank = op.getInput().getType().getRank();
    SmallVector<int64_t> axes =
        llvm::to_vector(llvm::seq<int64_t>(op.getAxis(), rank));
    auto [mean, invStdDev] =
        getMeanAndInvStdDev(rewriter, loc, operands.getInput(), axes,
                            op.getEpsilon().convertToDouble());
    Value result =
        applyNormalization(rewriter, loc, operands.getInput(), mean, invStdDev,
                           operands.getScale(), operands.getBias());
    return SmallVector<Value>{result, mean, invStdDev};
  }
};

struct InstanceNormLowering : DLCLoweringPattern<InstanceNormOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(InstanceNormOp op, InstanceNormOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank();
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
    auto [mean, invStdDev] =
        getMeanAndInvStdDev(rewriter, loc, operands.getInput(), axes,
                            op.getEpsilon().convertToDouble());
    // The per-channel parameters as [C, 1, ..., 1] broadcast along dim 1.
    SmallVector<int64_t> paramShape(rank - 1, 1);
    paramShape[0] = type.getDimSize(1);
    auto paramType = RankedTensorType::get(paramShape, type.getElementType());
    Value result = applyNormalization(
        rewriter, loc, operands.getInput(), mean, invStdDev,
        reshapeTo(rewriter, loc, operands.getScale(), paramType),
        reshapeTo(rewriter, loc, operands.getBias(), paramType));
    return SmallVector<Value>{result};
  }
};

struct MeanVarianceNormLowering : DLCLoweringPattern<MeanVarianceNormOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(MeanVarianceNormOp op, MeanVarianceNormOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    Type element = type.getElementType();
    ArrayRef<int64_t> axes = op.getAxes();
    Value x = operands.getInput();
    int64_t count = 1;
    for (int64_t axis : axes)
      count *= type.getDimSize(axis);
    RankedTensorType reducedType = keepDimsType(type, axes);
    Value zero = createScalar(rewriter, loc, element, 0.0);
    auto add = [](OpBuilder &nb, Location l, ValueRange args) {
      return createAdd(nb, l, args[0], args[1]);
    };
    auto meanOf = [&](Value value) {
      return buildElementwise(
          rewriter, loc,
          ValueRange{reduceKeepDims(rewriter, loc, value, axes, zero, add)},
          reducedType, [&](OpBuilder &nb, Location l, ValueRange args) {
            return arith::DivFOp::create(nb, l, args[0],
                                         createScalar(nb, l, element, count));
          });
    };
    Value mean = meanOf(x);
    Value meanOfSquares =
        meanOf(buildElementwise(rewriter, loc, ValueRange{x}, type,
                                [](OpBuilder &nb, Location l, ValueRange args) {
                                  return arith::MulFOp::create(nb, l, args[0],
                                                               args[0]);
                                }));
    Value result = buildElementwise(
        rewriter, loc, ValueRange{x, mean, meanOfSquares}, type,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value variance = arith::SubFOp::create(
              nb, l, args[2], arith::MulFOp::create(nb, l, args[1], args[1]));
          Value deviation = arith::AddFOp::create(
              nb, l, math::SqrtOp::create(nb, l, variance),
              createScalar(nb, l, element, 1e-9));
          return arith::DivFOp::create(
              nb, l, arith::SubFOp::create(nb, l, args[0], args[1]), deviation);
        });
    return SmallVector<Value>{result};
  }
};

//===----------------------------------------------------------------------===//
// LRN
//===----------------------------------------------------------------------===//

/// square_sum[n, c] = sum of x[n, c']^2 for c' in
/// [c - floor((size-1)/2), c + ceil((size-1)/2)] within the channels, then
/// y = x / (bias + alpha / size * square_sum)^beta.
struct LRNLowering : DLCLoweringPattern<LRNOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(LRNOp op, LRNOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    RankedTensorType type = op.getInput().getType();
    Type element = type.getElementType();
    int64_t rank = type.getRank(), size = op.getSize();
    Value squares =
        buildElementwise(rewriter, loc, ValueRange{operands.getInput()}, type,
                         [](OpBuilder &b, Location l, ValueRange args) {
                           return arith::MulFOp::create(b, l, args[0], args[0]);
                         });
    // Zero-pad the channels so that every window has `size` entries. Padding
    // beyond C-1 on a side only adds zeros that no window needs (a window
    // then already spans all channels), so it is clamped: a huge size must not
    // allocate a huge buffer. alpha / size keeps the original size.
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    int64_t channels = type.getDimSize(1);
    int64_t maxPad = ShapedType::isDynamic(channels)
                         ? std::numeric_limits<int64_t>::max()
                         : std::max<int64_t>(channels - 1, 0);
    low[1] = std::min((size - 1) / 2, maxPad);
    high[1] = std::min(size - 1 - (size - 1) / 2, maxPad);
    int64_t windowSize = low[1] + high[1] + 1;
    Value zero = createScalar(rewriter, loc, element, 0.0);
    Value padded = padWithConstant(rewriter, loc, squares, low, high, zero);
    // Loops: the rank output dims, then the window position k.
    SmallVector<AffineExpr> inputExprs = getDimExprs(context, 0, rank);
    inputExprs[1] = inputExprs[1] + getAffineDimExpr(rank, context);
    // The window operand only gives the k loop its range.
    Value window = createEmpty(rewriter, loc, {windowSize}, element);
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, inputExprs, context),
        AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, context)),
        AffineMap::get(rank + 1, 0, getDimExprs(context, 0, rank), context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value acc = createFilled(rewriter, loc, type.getShape(), zero);
    Value squareSum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{padded, window},
            ValueRange{acc}, maps, iterators,
            [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, args[0], args[2]).getResult());
            })
            .getResult(0);
    double alphaOverSize = op.getAlpha().convertToDouble() / double(size);
    double beta = op.getBeta().convertToDouble();
    double bias = op.getBias().convertToDouble();
    Value result = buildElementwise(
        rewriter, loc, ValueRange{operands.getInput(), squareSum}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value scaled = arith::MulFOp::create(
              b, l, createScalar(b, l, element, alphaOverSize), args[1]);
          Value base = arith::AddFOp::create(
              b, l, createScalar(b, l, element, bias), scaled);
          Value denominator = math::PowFOp::create(
              b, l, base, createScalar(b, l, element, beta));
          return arith::DivFOp::create(b, l, args[0], denominator);
        });
    return SmallVector<Value>{result};
  }
};

/// CumSum: a reduction over one more loop `j` along the axis, each output
/// element i adding the elements with j <= i (j >= i reversed; strictly
/// when exclusive).
struct CumSumLowering : DLCLoweringPattern<CumSumOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(CumSumOp op, CumSumOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = getSignlessType(op.getResult().getType());
    int64_t rank = type.getRank(), axis = op.getAxis();
    if (rank == 0)
      return SmallVector<Value>{operands.getInput()};
    // Loops: the output's dimensions, then j.
    AxisScanLoops loops = getAxisScanLoops(rewriter.getContext(), rank, axis);
    Type element = type.getElementType();
    Value init = createFilled(rewriter, loc, type.getShape(),
                              createScalar(rewriter, loc, element, 0.0));
    bool reverse = op.getReverse(), exclusive = op.getExclusive();
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{operands.getInput()},
            ValueRange{init}, ArrayRef<AffineMap>{loops.along, loops.at},
            loops.iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value i = linalg::IndexOp::create(b, l, axis);
              Value j = linalg::IndexOp::create(b, l, rank);
              arith::CmpIPredicate predicate =
                  reverse ? (exclusive ? arith::CmpIPredicate::sgt
                                       : arith::CmpIPredicate::sge)
                          : (exclusive ? arith::CmpIPredicate::slt
                                       : arith::CmpIPredicate::sle);
              Value counted = arith::CmpIOp::create(b, l, predicate, j, i);
              Value term = arith::SelectOp::create(
                  b, l, counted, args[0], createScalar(b, l, element, 0.0));
              linalg::YieldOp::create(b, l, createAdd(b, l, args[1], term));
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};
} // namespace

void populateNormalizationPatterns(RewritePatternSet &patterns) {
  patterns.add<
      CumSumLowering, TopKLowering,
      ReduceLowering<ReduceSumOp, ReduceKind::Sum>,
      ReduceLowering<ReduceMeanOp, ReduceKind::Mean>,
      ReduceLowering<ReduceMaxOp, ReduceKind::Max>,
      ReduceLowering<ReduceMinOp, ReduceKind::Min>,
      ReduceLowering<ReduceProdOp, ReduceKind::Prod>,
      ReduceLowering<ReduceSumSquareOp, ReduceKind::SumSquare>,
      ReduceLowering<ReduceL1Op, ReduceKind::L1>,
      ReduceLowering<ReduceL2Op, ReduceKind::L2>,
      ReduceLowering<ReduceLogSumOp, ReduceKind::LogSum>,
      ReduceLowering<ReduceLogSumExpOp, ReduceKind::LogSumExp>,
      ArgReduceLowering<ArgMaxOp, true>, ArgReduceLowering<ArgMinOp, false>,
      HardmaxLowering, SoftmaxLowering<SoftmaxOp, false>,
      SoftmaxLowering<LogSoftmaxOp, true>, BatchNormLowering, LRNLowering,
      LayerNormLowering, InstanceNormLowering, MeanVarianceNormLowering>(
      patterns.getContext());
}

} // namespace dlc::lowering
