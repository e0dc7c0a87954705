//===- LoweringUtils.cpp - shared helpers of the dlc -> linalg lowering ---===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include <numeric>

using namespace mlir;

namespace dlc::lowering {

bool isSupportedElementType(Type type) {
  return isa<FloatType, IntegerType>(type);
}

Type getSignlessType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(getSignlessType(shaped.getElementType()));
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

Value toSignless(OpBuilder &b, Location loc, Value value) {
  Type signless = getSignlessType(value.getType());
  if (signless == value.getType())
    return value;
  return tensor::BitcastOp::create(b, loc, signless, value);
}

Value createScalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    llvm::APFloat converted(value);
    bool losesInfo;
    converted.convert(floatType.getFloatSemantics(),
                      llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return arith::ConstantOp::create(b, loc, FloatAttr::get(type, converted));
  }
  unsigned width = cast<IntegerType>(type).getWidth();
  // Saturate to the type's range: Clip's absent bounds arrive as +-huge
  // doubles.
  llvm::APSInt converted(width, dlc::isUnsignedElementType(type));
  bool isExact;
  llvm::APFloat(value).convertToInteger(converted, llvm::APFloat::rmTowardZero,
                                        &isExact);
  return arith::ConstantOp::create(
      b, loc, IntegerAttr::get(getSignlessType(type), converted));
}

/// The lowest (or highest) value of `type`, as a signless constant.
static Value createExtreme(OpBuilder &b, Location loc, Type type,
                           bool highest) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        FloatAttr::get(type, llvm::APFloat::getInf(
                                 floatType.getFloatSemantics(), !highest)));
  unsigned width = cast<IntegerType>(type).getWidth();
  llvm::APInt value = dlc::isUnsignedElementType(type)
                          ? (highest ? llvm::APInt::getMaxValue(width)
                                     : llvm::APInt::getMinValue(width))
                          : (highest ? llvm::APInt::getSignedMaxValue(width)
                                     : llvm::APInt::getSignedMinValue(width));
  return arith::ConstantOp::create(
      b, loc, IntegerAttr::get(getSignlessType(type), value));
}

Value createLowest(OpBuilder &b, Location loc, Type type) {
  return createExtreme(b, loc, type, /*highest=*/false);
}

Value createHighest(OpBuilder &b, Location loc, Type type) {
  return createExtreme(b, loc, type, /*highest=*/true);
}

Value createMax(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value createMin(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MinUIOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

Value createAdd(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

DenseIntElementsAttr getI64VectorAttr(OpBuilder &b, ArrayRef<int64_t> values) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({(int64_t)values.size()}, b.getI64Type()), values);
}

Value createEmpty(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType) {
  return tensor::EmptyOp::create(b, loc, shape, getSignlessType(elementType));
}

Value createFilled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Value scalar) {
  Value empty = createEmpty(b, loc, shape, scalar.getType());
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

SmallVector<AffineExpr> getDimExprs(MLIRContext *context, unsigned first,
                                    unsigned count) {
  SmallVector<AffineExpr> exprs;
  for (unsigned i = 0; i < count; ++i)
    exprs.push_back(getAffineDimExpr(first + i, context));
  return exprs;
}

AffineMap getBroadcastMap(MLIRContext *context, ArrayRef<int64_t> operandShape,
                          ArrayRef<int64_t> resultShape) {
  size_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(operandShape)) {
    if (size == 1 && resultShape[i + offset] != 1)
      exprs.push_back(getAffineConstantExpr(0, context));
    else
      exprs.push_back(getAffineDimExpr(i + offset, context));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, context);
}

Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       RankedTensorType dlcResultType, ScalarBuilder body) {
  MLIRContext *context = b.getContext();
  auto resultType = cast<RankedTensorType>(getSignlessType(dlcResultType));
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(getBroadcastMap(
        context, cast<RankedTensorType>(input.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  Value init =
      createEmpty(b, loc, resultType.getShape(), resultType.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

AxisScanLoops getAxisScanLoops(MLIRContext *context, int64_t rank,
                               int64_t axis) {
  SmallVector<AffineExpr> alongExprs;
  for (int64_t d = 0; d < rank; ++d)
    alongExprs.push_back(getAffineDimExpr(d == axis ? rank : d, context));
  AxisScanLoops loops;
  loops.at =
      AffineMap::getMultiDimIdentityMap(rank + 1, context).getMajorSubMap(rank);
  loops.along = AffineMap::get(rank + 1, 0, alongExprs, context);
  loops.iterators.assign(rank, utils::IteratorType::parallel);
  loops.iterators.push_back(utils::IteratorType::reduction);
  return loops;
}

Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Value init,
                     ScalarBuilder combine) {
  MLIRContext *context = b.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> resultShape;
  SmallVector<AffineExpr> resultExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    resultShape.push_back(inputType.getDimSize(d));
    resultExprs.push_back(getAffineDimExpr(d, context));
  }
  Value acc = createFilled(b, loc, resultShape, init);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, resultExprs, context)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{input}, ValueRange{acc},
      maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                combine(nested, nestedLoc, args));
      });
  return generic.getResult(0);
}

/// Collapses (or, from rank 0, expands) a static tensor to 1-D.
static Value flatten(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto flatType =
      RankedTensorType::get({type.getNumElements()}, type.getElementType());
  if (type.getRank() == 1)
    return value;
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, flatType, value,
                                         ArrayRef<ReassociationIndices>{});
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  return tensor::CollapseShapeOp::create(b, loc, flatType, value,
                                         ArrayRef<ReassociationIndices>{all});
}

Value reshapeTo(OpBuilder &b, Location loc, Value value,
                RankedTensorType shapeType) {
  auto sourceType = cast<RankedTensorType>(value.getType());
  RankedTensorType type = shapeType.clone(sourceType.getElementType());
  if (sourceType == type)
    return value;
  // Nothing to move: any empty tensor of the right type will do.
  if (type.getNumElements() == 0)
    return createEmpty(b, loc, type.getShape(), type.getElementType());
  if (sourceType.getRank() > type.getRank()) {
    if (auto reassociation =
            getReassociationIndicesForReshape(sourceType, type))
      return tensor::CollapseShapeOp::create(b, loc, type, value,
                                             *reassociation);
  } else if (sourceType.getRank() < type.getRank()) {
    if (auto reassociation =
            getReassociationIndicesForReshape(type, sourceType))
      return tensor::ExpandShapeOp::create(b, loc, type, value, *reassociation);
  }
  Value flat = flatten(b, loc, value);
  if (type.getRank() == 1)
    return flat;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat,
                                           ArrayRef<ReassociationIndices>{});
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       ArrayRef<ReassociationIndices>{all});
}

Value broadcastTo(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  size_t offset = shape.size() - type.getRank();
  SmallVector<int64_t> keptShape;
  SmallVector<int64_t> addedDims;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d >= offset && type.getDimSize(d - offset) == shape[d])
      keptShape.push_back(shape[d]);
    else
      addedDims.push_back(d);
  }
  Value kept = reshapeTo(
      b, loc, value, RankedTensorType::get(keptShape, type.getElementType()));
  Value init = createEmpty(b, loc, shape, type.getElementType());
  return linalg::BroadcastOp::create(b, loc, kept, init, addedDims)
      ->getResult(0);
}

Value transposeTensor(OpBuilder &b, Location loc, Value value,
                      ArrayRef<int64_t> perm) {
  // linalg.transpose cannot express a rank-0 transpose, and an identity
  // permutation moves nothing anyway.
  if (isIdentityPermutation(perm))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = createEmpty(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
}

Value padWithConstant(OpBuilder &b, Location loc, Value value,
                      ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                      Value padScalar) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> lowSizes, highSizes;
  for (size_t d = 0; d < shape.size(); ++d) {
    shape[d] += low[d] + high[d];
    lowSizes.push_back(b.getIndexAttr(low[d]));
    highSizes.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      lowSizes, highSizes, padScalar);
}

Value padForWindows(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> outputShape, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                    ArrayRef<int64_t> pads, Value padScalar) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank(), spatial = rank - 2;
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t needed = (outputShape[2 + i] - 1) * strides[i] +
                     dilations[i] * (kernel[i] - 1) + 1;
    low[2 + i] = pads[i];
    high[2 + i] =
        std::max<int64_t>(0, needed - inputType.getDimSize(2 + i) - pads[i]);
  }
  return padWithConstant(b, loc, input, low, high, padScalar);
}

} // namespace dlc::lowering
