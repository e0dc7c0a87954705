//===- DataMovement.cpp - constants, shapes and data movement ops ---------===//
//
// Ops that only move data lower for any element type. Strided and
// reversed slices, tiling and gathers read through affine index arithmetic
// (or tensor.extract for runtime indices), so after bufferization they are
// plain loops over the source buffer.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

namespace dlc::lowering {
namespace {

/// Data movement does not compute on elements: any element type will do.
template <typename OpTy> struct DataMovementPattern : DLCLoweringPattern<OpTy> {
  using DLCLoweringPattern<OpTy>::DLCLoweringPattern;
  bool acceptsAnyElementType() const override { return true; }
};

struct ConstantLowering : DataMovementPattern<ConstantOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(ConstantOp op, ConstantOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    // Every ElementsAttr is typed (dense and dense_resource alike): the
    // weights move to arith.constant without being copied, retyped to
    // signless integers (same bits) when unsigned.
    ElementsAttr attr = op.getValue();
    // IR printed with elided resources has constants without data.
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
        resource && !resource.getRawHandle().getBlob())
      return op.emitOpError("resource '")
             << resource.getRawHandle().getKey()
             << "' has no data (was the IR printed with elided resources?)";
    auto type = cast<ShapedType>(attr.getType());
    TypedAttr value = cast<TypedAttr>(attr);
    if (getSignlessType(type) != type) {
      auto signless = cast<ShapedType>(getSignlessType(type));
      if (auto dense = dyn_cast<DenseElementsAttr>(attr))
        value = dense.bitcast(signless.getElementType());
      else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
        value =
            DenseResourceElementsAttr::get(signless, resource.getRawHandle());
      else
        return op.emitOpError("cannot lower a constant of type ")
               << type << " stored as " << attr;
    }
    return SmallVector<Value>{
        arith::ConstantOp::create(rewriter, op.getLoc(), value)};
  }
};

struct ShapeLowering : DataMovementPattern<ShapeOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(ShapeOp op, ShapeOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    int64_t start = op.getStart();
    int64_t rank = inputType.getRank();
    if (start < 0)
      start += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    int64_t size = op.getResult().getType().getDimSize(0);
    SmallVector<int64_t> dims(inputType.getShape().slice(start, size));
    auto attr = DenseIntElementsAttr::get(op.getResult().getType(), dims);
    return SmallVector<Value>{
        arith::ConstantOp::create(rewriter, op.getLoc(), attr)};
  }
};

/// Identity and Dropout (inference) forward their operand.
template <typename OpTy> struct ForwardLowering : DataMovementPattern<OpTy> {
  using DataMovementPattern<OpTy>::DataMovementPattern;
  FailureOr<SmallVector<Value>> lower(OpTy, typename OpTy::Adaptor operands,
                                      PatternRewriter &) const override {
    return SmallVector<Value>{operands.getInput()};
  }
};

struct ReshapeLowering : DataMovementPattern<ReshapeOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(ReshapeOp op, ReshapeOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    return SmallVector<Value>{reshapeTo(
        rewriter, op.getLoc(), operands.getInput(), op.getResult().getType())};
  }
};

struct TransposeLowering : DataMovementPattern<TransposeOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(TransposeOp op, TransposeOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    return SmallVector<Value>{transposeTensor(
        rewriter, op.getLoc(), operands.getInput(), op.getPerm())};
  }
};

struct ExpandLowering : DataMovementPattern<ExpandOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(ExpandOp op, ExpandOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    return SmallVector<Value>{broadcastTo(rewriter, op.getLoc(),
                                          operands.getInput(),
                                          op.getResult().getType().getShape())};
  }
};

/// Each input is inserted at its offset along the axis into one empty
/// destination tensor.
struct ConcatLowering : DataMovementPattern<ConcatOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(ConcatOp op, ConcatOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    int64_t axis = op.getAxis();
    Value dest = createEmpty(rewriter, loc, resultType.getShape(),
                             resultType.getElementType());
    int64_t offset = 0;
    for (Value input : operands.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      if (type.getNumElements() == 0)
        continue;
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      offsets[axis] = rewriter.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizes,
          strides(type.getRank(), rewriter.getIndexAttr(1));
      for (int64_t size : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      dest = tensor::InsertSliceOp::create(rewriter, loc, input, dest, offsets,
                                           sizes, strides);
      offset += type.getDimSize(axis);
    }
    return SmallVector<Value>{dest};
  }
};

/// A linalg.generic over `resultType` with no inputs whose body computes
/// each element from the loop indices (linalg.index).
Value buildIndexedGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = resultType.getRank();
  Value init =
      createEmpty(b, loc, resultType.getShape(), resultType.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)}, iterators,
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> indices;
               for (int64_t d = 0; d < rank; ++d)
                 indices.push_back(linalg::IndexOp::create(nb, l, d));
               linalg::YieldOp::create(nb, l, body(nb, l, indices));
             })
      .getResult(0);
}

/// A copy generic whose input map is `inputMap` (any affine map from the
/// result indices to input indices).
Value buildMappedCopy(OpBuilder &b, Location loc, Value input,
                      RankedTensorType resultType, AffineMap inputMap) {
  int64_t rank = resultType.getRank();
  Value init =
      createEmpty(b, loc, resultType.getShape(), resultType.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init},
             ArrayRef<AffineMap>{inputMap, b.getMultiDimIdentityMap(rank)},
             iterators,
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// Positive steps are a strided tensor.extract_slice; with a negative step
/// the result reads input index start + i * step through the affine map of
/// a copy generic.
struct SliceLowering : DataMovementPattern<SliceOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(SliceOp op, SliceOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    ArrayRef<int64_t> starts = op.getStarts(), steps = op.getSteps();
    if (llvm::all_of(steps, [](int64_t step) { return step > 0; })) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < resultType.getRank(); ++d) {
        offsets.push_back(rewriter.getIndexAttr(starts[d]));
        sizes.push_back(rewriter.getIndexAttr(resultType.getDimSize(d)));
        strides.push_back(rewriter.getIndexAttr(steps[d]));
      }
      return SmallVector<Value>{tensor::ExtractSliceOp::create(
          rewriter, loc, resultType, operands.getInput(), offsets, sizes,
          strides)};
    }
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      exprs.push_back(getAffineDimExpr(d, context) * steps[d] + starts[d]);
    AffineMap map = AffineMap::get(resultType.getRank(), 0, exprs, context);
    return SmallVector<Value>{
        buildMappedCopy(rewriter, loc, operands.getInput(), resultType, map)};
  }
};

/// Result index i reads input index i mod n in every dimension.
struct TileLowering : DataMovementPattern<TileOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(TileOp op, TileOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < resultType.getRank(); ++d) {
      int64_t size = inputType.getDimSize(d);
      AffineExpr index = getAffineDimExpr(d, context);
      exprs.push_back(size == resultType.getDimSize(d) ? index : index % size);
    }
    AffineMap map = AffineMap::get(resultType.getRank(), 0, exprs, context);
    return SmallVector<Value>{buildMappedCopy(
        rewriter, op.getLoc(), operands.getInput(), resultType, map)};
  }
};

/// An ONNX index (integer or float) along an axis of `axisSize` as an
/// `index`: negative ones count from the end; out-of-range ones stay out of
/// range (they match no position).
Value wrapNegativeIndex(OpBuilder &b, Location l, Value rawIndex,
                        int64_t axisSize) {
  if (isa<FloatType>(rawIndex.getType()))
    rawIndex = arith::FPToSIOp::create(b, l, b.getI64Type(), rawIndex);
  Value index = arith::IndexCastOp::create(b, l, b.getIndexType(), rawIndex);
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value size = arith::ConstantIndexOp::create(b, l, axisSize);
  Value negative =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, index, zero);
  return arith::SelectOp::create(
      b, l, negative, arith::AddIOp::create(b, l, index, size), index);
}

/// The same, clamped into range for reading: ONNX leaves out-of-range
/// indices undefined; reading out of bounds is worse.
Value wrapIndex(OpBuilder &b, Location l, Value rawIndex, int64_t axisSize) {
  Value wrapped = wrapNegativeIndex(b, l, rawIndex, axisSize);
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value last = arith::ConstantIndexOp::create(b, l, axisSize - 1);
  return arith::MinSIOp::create(
      b, l, arith::MaxSIOp::create(b, l, wrapped, zero), last);
}

/// Whether the wrapped `rawIndex` is the position of loop `dim`.
Value isAtLoopIndex(OpBuilder &b, Location l, Value rawIndex, int64_t axisSize,
                    int64_t dim) {
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                               wrapNegativeIndex(b, l, rawIndex, axisSize),
                               linalg::IndexOp::create(b, l, dim));
}

/// What a scatter leaves at a position: `acc` combined with `update` by the
/// reduction (none replaces) where the update `lands`, `acc` elsewhere.
Value combineScatter(OpBuilder &b, Location l, StringRef reduction, Value lands,
                     Value acc, Value update, bool isUnsigned) {
  bool isFloat = isa<FloatType>(acc.getType());
  Value combined = update;
  if (reduction == "add")
    combined = createAdd(b, l, acc, update);
  else if (reduction == "mul")
    combined = isFloat ? Value(arith::MulFOp::create(b, l, acc, update))
                       : Value(arith::MulIOp::create(b, l, acc, update));
  else if (reduction == "max")
    combined = createMax(b, l, acc, update, isUnsigned);
  else if (reduction == "min")
    combined = createMin(b, l, acc, update, isUnsigned);
  return arith::SelectOp::create(b, l, lands, combined, acc);
}

/// A generic over `resultType` without inputs; `body` computes each element
/// from the loop indices.
Value buildFromIndices(OpBuilder &b, Location loc, RankedTensorType resultType,
                       function_ref<Value(OpBuilder &, Location)> body) {
  int64_t rank = resultType.getRank();
  Value init =
      createEmpty(b, loc, resultType.getShape(), resultType.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange) {
               linalg::YieldOp::create(nb, l, body(nb, l));
             })
      .getResult(0);
}

/// GatherND: result element (outer..., inner...) reads data at the batch
/// coordinates, the tuple indices[outer..., :] (wrapped, clamped), then
/// the inner coordinates.
struct GatherNDLowering : DataMovementPattern<GatherNDOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(GatherNDOp op, GatherNDOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    RankedTensorType dataType = op.getData().getType();
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t batch = op.getBatchDims(), outer = indicesType.getRank() - 1;
    int64_t tuple = indicesType.getShape().back();
    Value data = operands.getData(), indices = operands.getIndices();
    Value result = buildFromIndices(
        rewriter, op.getLoc(), resultType, [&](OpBuilder &b, Location l) {
          SmallVector<Value> outerIndex, coords;
          for (int64_t d = 0; d < outer; ++d)
            outerIndex.push_back(linalg::IndexOp::create(b, l, d));
          coords.append(outerIndex.begin(), outerIndex.begin() + batch);
          for (int64_t k = 0; k < tuple; ++k) {
            SmallVector<Value> at(outerIndex);
            at.push_back(arith::ConstantIndexOp::create(b, l, k));
            Value raw = tensor::ExtractOp::create(b, l, indices, at);
            coords.push_back(
                wrapIndex(b, l, raw, dataType.getDimSize(batch + k)));
          }
          for (int64_t d = outer; d < resultType.getRank(); ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          return tensor::ExtractOp::create(b, l, data, coords);
        });
    return SmallVector<Value>{result};
  }
};

/// ReverseSequence: each element reads the input at the reversed step
/// (length - 1 - t) while t is below its batch entry's length.
struct ReverseSequenceLowering : DataMovementPattern<ReverseSequenceOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(ReverseSequenceOp op, ReverseSequenceOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    int64_t rank = resultType.getRank(), time = op.getTimeAxis();
    int64_t steps = resultType.getDimSize(time);
    Value input = operands.getInput();
    Value init = createEmpty(rewriter, op.getLoc(), resultType.getShape(),
                             resultType.getElementType());
    AffineMap lengthMap = AffineMap::get(
        rank, 0, {getAffineDimExpr(op.getBatchAxis(), context)}, context);
    Value result =
        linalg::GenericOp::create(
            rewriter, op.getLoc(), TypeRange{resultType},
            ValueRange{operands.getSequenceLens()}, ValueRange{init},
            ArrayRef<AffineMap>{lengthMap,
                                rewriter.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              SmallVector<Value> coords;
              for (int64_t d = 0; d < rank; ++d)
                coords.push_back(linalg::IndexOp::create(b, l, d));
              Value length =
                  arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
              Value step = coords[time];
              Value reversed = arith::SubIOp::create(
                  b, l,
                  arith::SubIOp::create(
                      b, l, length, arith::ConstantIndexOp::create(b, l, 1)),
                  step);
              Value inside = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, step, length);
              Value source =
                  arith::SelectOp::create(b, l, inside, reversed, step);
              coords[time] = arith::MinSIOp::create(
                  b, l,
                  arith::MaxSIOp::create(
                      b, l, source, arith::ConstantIndexOp::create(b, l, 0)),
                  arith::ConstantIndexOp::create(b, l, steps - 1));
              linalg::YieldOp::create(
                  b, l,
                  tensor::ExtractOp::create(b, l, input, coords).getResult());
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};

/// OneHot: values[1] where the wrapped index is the position along `axis`,
/// values[0] elsewhere.
struct OneHotLowering : DataMovementPattern<OneHotOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(OneHotOp op, OneHotOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    int64_t axis = op.getAxis(), rank = resultType.getRank();
    int64_t depth = resultType.getDimSize(axis);
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        indexExprs.push_back(getAffineDimExpr(d, context));
    auto valueAt = [&](int64_t i) {
      return AffineMap::get(rank, 0, {getAffineConstantExpr(i, context)},
                            context);
    };
    Value values = operands.getValues();
    Value init = createEmpty(rewriter, op.getLoc(), resultType.getShape(),
                             resultType.getElementType());
    Value result =
        linalg::GenericOp::create(
            rewriter, op.getLoc(), TypeRange{resultType},
            ValueRange{operands.getIndices(), values, values}, ValueRange{init},
            ArrayRef<AffineMap>{AffineMap::get(rank, 0, indexExprs, context),
                                valueAt(0), valueAt(1),
                                rewriter.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value hot = isAtLoopIndex(b, l, args[0], depth, axis);
              linalg::YieldOp::create(
                  b, l,
                  Value(arith::SelectOp::create(b, l, hot, args[2], args[1])));
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};

/// The scatters are reductions into the data: a loop nest over the data
/// and the updates, where each update that lands on a data position
/// combines with it.
///
/// ScatterElements: loops over data's dimensions and `u` along the axis;
/// indices and updates (padded up to the data's shape outside the axis,
/// with an index that lands nowhere) are read with `u` on the axis.
struct ScatterElementsLowering : DLCLoweringPattern<ScatterElementsOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(ScatterElementsOp op, ScatterElementsOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType dataType = getSignlessType(op.getData().getType());
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t axis = op.getAxis(), rank = dataType.getRank();
    int64_t axisSize = dataType.getDimSize(axis);
    SmallVector<int64_t> padded(dataType.getShape());
    padded[axis] = indicesType.getDimSize(axis);
    auto padTo = [&](Value value, Value fill) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      if (type.getShape() == ArrayRef<int64_t>(padded))
        return value;
      return tensor::createPadHighOp(type.clone(padded), value, fill,
                                     /*nofold=*/false, loc, rewriter);
    };
    Value indices = padTo(
        operands.getIndices(),
        createScalar(rewriter, loc, indicesType.getElementType(), axisSize));
    Value updates =
        padTo(operands.getUpdates(),
              createScalar(rewriter, loc, dataType.getElementType(), 0));
    AxisScanLoops loops = getAxisScanLoops(rewriter.getContext(), rank, axis);
    bool isUnsigned = isUnsignedElementType(op.getData().getType());
    StringRef reduction = op.getReduction();
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{dataType}, ValueRange{indices, updates},
            ValueRange{operands.getData()},
            ArrayRef<AffineMap>{loops.along, loops.along, loops.at},
            loops.iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value lands = isAtLoopIndex(b, l, args[0], axisSize, axis);
              linalg::YieldOp::create(b, l,
                                      combineScatter(b, l, reduction, lands,
                                                     args[2], args[1],
                                                     isUnsigned));
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};

/// ScatterND: loops over data's dimensions, then the update tuples (the
/// indices' outer dimensions); a tuple lands where all its wrapped
/// coordinates equal the data position's first ones.
struct ScatterNDLowering : DLCLoweringPattern<ScatterNDOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(ScatterNDOp op, ScatterNDOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    RankedTensorType dataType = getSignlessType(op.getData().getType());
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t rank = dataType.getRank(), outer = indicesType.getRank() - 1;
    int64_t tuple = indicesType.getShape().back();
    SmallVector<AffineExpr> updateExprs;
    for (int64_t d = 0; d < outer; ++d)
      updateExprs.push_back(getAffineDimExpr(rank + d, context));
    for (int64_t d = tuple; d < rank; ++d)
      updateExprs.push_back(getAffineDimExpr(d, context));
    AffineMap updateMap = AffineMap::get(rank + outer, 0, updateExprs, context);
    AffineMap dataMap = AffineMap::getMultiDimIdentityMap(rank + outer, context)
                            .getMajorSubMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(outer, utils::IteratorType::reduction);
    bool isUnsigned = isUnsignedElementType(op.getData().getType());
    StringRef reduction = op.getReduction();
    Value indices = operands.getIndices();
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{dataType},
            ValueRange{operands.getUpdates()}, ValueRange{operands.getData()},
            ArrayRef<AffineMap>{updateMap, dataMap}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              SmallVector<Value> at;
              for (int64_t d = 0; d < outer; ++d)
                at.push_back(linalg::IndexOp::create(b, l, rank + d));
              at.push_back(Value());
              Value lands;
              for (int64_t k = 0; k < tuple; ++k) {
                at.back() = arith::ConstantIndexOp::create(b, l, k);
                Value raw = tensor::ExtractOp::create(b, l, indices, at);
                Value here =
                    isAtLoopIndex(b, l, raw, dataType.getDimSize(k), k);
                lands = lands ? Value(arith::AndIOp::create(b, l, lands, here))
                              : here;
              }
              linalg::YieldOp::create(b, l,
                                      combineScatter(b, l, reduction, lands,
                                                     args[1], args[0],
                                                     isUnsigned));
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};

/// GatherElements: element i of the result reads data at i with the axis
/// coordinate replaced by indices[i].
struct GatherElementsLowering : DataMovementPattern<GatherElementsOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(GatherElementsOp op, GatherElementsOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    int64_t axis = op.getAxis(), rank = resultType.getRank();
    int64_t axisSize = op.getData().getType().getDimSize(axis);
    Value data = operands.getData();
    Value result = buildElementwise(
        rewriter, op.getLoc(), ValueRange{operands.getIndices()}, resultType,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(d == axis
                                 ? wrapIndex(b, l, args[0], axisSize)
                                 : Value(linalg::IndexOp::create(b, l, d)));
          return tensor::ExtractOp::create(b, l, data, coords);
        });
    return SmallVector<Value>{result};
  }
};

struct GatherLowering : DataMovementPattern<GatherOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(GatherOp op, GatherOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t axis = op.getAxis(), rank = resultType.getRank();
    int64_t indicesRank = indicesType.getRank();
    int64_t axisSize = dataType.getDimSize(axis);
    if (axisSize == 0)
      return op.emitOpError("cannot gather from an empty axis");
    Value data = operands.getData();
    AffineMap indicesMap = AffineMap::get(
        rank, 0, getDimExprs(context, axis, indicesRank), context);
    Value init = createEmpty(rewriter, loc, resultType.getShape(),
                             resultType.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{resultType},
            ValueRange{operands.getIndices()}, ValueRange{init},
            ArrayRef<AffineMap>{indicesMap,
                                rewriter.getMultiDimIdentityMap(rank)},
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value clamped = wrapIndex(b, l, args[0], axisSize);
              SmallVector<Value> coords;
              for (int64_t d = 0; d < axis; ++d)
                coords.push_back(linalg::IndexOp::create(b, l, d));
              coords.push_back(clamped);
              for (int64_t d = axis + indicesRank; d < rank; ++d)
                coords.push_back(linalg::IndexOp::create(b, l, d));
              linalg::YieldOp::create(
                  b, l,
                  tensor::ExtractOp::create(b, l, data, coords).getResult());
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};

/// Constant mode: negative pads crop with extract_slice, positive ones
/// become tensor.pad. Reflect and edge: each result element reads the input
/// at an index mirrored or clamped into range.
struct PadLowering : DataMovementPattern<PadOp> {
  using DataMovementPattern::DataMovementPattern;
  FailureOr<SmallVector<Value>>
  lower(PadOp op, PadOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    Type element = op.getType().getElementType();
    int64_t rank = resultType.getRank();
    ArrayRef<int64_t> pads = op.getPads();

    if (op.getMode() == PadMode::constant) {
      if (!isSupportedElementType(element))
        return op.emitOpError("cannot constant-pad element type ")
               << element << " (supported: floats and integers)";
      SmallVector<OpFoldResult> offsets, sizes, strides;
      SmallVector<int64_t> croppedShape, low, high;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t begin = pads[d], end = pads[rank + d];
        int64_t size = inputType.getDimSize(d) - std::max<int64_t>(0, -begin) -
                       std::max<int64_t>(0, -end);
        offsets.push_back(rewriter.getIndexAttr(std::max<int64_t>(0, -begin)));
        sizes.push_back(rewriter.getIndexAttr(size));
        strides.push_back(rewriter.getIndexAttr(1));
        croppedShape.push_back(size);
        low.push_back(std::max<int64_t>(0, begin));
        high.push_back(std::max<int64_t>(0, end));
      }
      Value input = operands.getInput();
      if (ArrayRef<int64_t>(croppedShape) != inputType.getShape())
        input = tensor::ExtractSliceOp::create(
            rewriter, loc,
            RankedTensorType::get(croppedShape, resultType.getElementType()),
            input, offsets, sizes, strides);
      Value fill =
          createScalar(rewriter, loc, element, op.getValue().convertToDouble());
      return SmallVector<Value>{
          padWithConstant(rewriter, loc, input, low, high, fill)};
    }

    bool reflect = op.getMode() == PadMode::reflect;
    Value input = operands.getInput();
    Value result = buildIndexedGeneric(
        rewriter, loc, resultType,
        [&](OpBuilder &b, Location l, ValueRange indices) -> Value {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d) {
            Value index = indices[d];
            int64_t size = inputType.getDimSize(d);
            if (pads[d] == 0 && pads[rank + d] <= 0) {
              coords.push_back(index);
              continue;
            }
            Value source = arith::SubIOp::create(
                b, l, index, arith::ConstantIndexOp::create(b, l, pads[d]));
            Value zero = arith::ConstantIndexOp::create(b, l, 0);
            Value last = arith::ConstantIndexOp::create(b, l, size - 1);
            if (reflect) {
              // -i before the start, 2 * last - i after the end.
              Value before = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, source, zero);
              source = arith::SelectOp::create(
                  b, l, before, arith::SubIOp::create(b, l, zero, source),
                  source);
              Value after = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sgt, source, last);
              Value twiceLast =
                  arith::ConstantIndexOp::create(b, l, 2 * (size - 1));
              source = arith::SelectOp::create(
                  b, l, after, arith::SubIOp::create(b, l, twiceLast, source),
                  source);
            } else {
              source = arith::MinSIOp::create(
                  b, l, arith::MaxSIOp::create(b, l, source, zero), last);
            }
            coords.push_back(source);
          }
          return tensor::ExtractOp::create(b, l, input, coords);
        });
    return SmallVector<Value>{result};
  }
};

} // namespace

/// Resize: every output element reads its source coordinate's neighbours
/// (tensor.extract at computed indices, edge-clamped) and weighs them in
/// f64, as the ONNX reference (onnx/backend/test/case/node/resize.py)
/// does: the nearest one, 2 per dimension for linear, 4 for cubic.
struct ResizeLowering : DLCLoweringPattern<ResizeOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(ResizeOp op, ResizeOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    RankedTensorType inputType = op.getInput().getType();
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    int64_t rank = inputType.getRank();
    Value input = operands.getInput();
    Value dynamicScales = operands.getDynamicScales();
    std::optional<ArrayRef<double>> scales = op.getScales();
    StringRef mode = op.getMode();
    StringRef transform = op.getCoordinateTransformationMode();
    StringRef nearestMode = op.getNearestMode();
    double a = op.getCubicCoeffA().convertToDouble();
    bool excludeOutside = op.getExcludeOutside();
    std::optional<ArrayRef<double>> roi = op.getRoi();
    // One (index, weight) per neighbour of a dimension; no weight: the
    // element itself (nearest, or a dimension that keeps its size).
    using Tap = std::pair<Value, Value>;
    Value result = buildIndexedGeneric(
        rewriter, op.getLoc(), resultType,
        [&](OpBuilder &b, Location l, ValueRange indices) -> Value {
          Type f64 = b.getF64Type(), i64 = b.getI64Type();
          auto constant = [&](double value) -> Value {
            return arith::ConstantOp::create(b, l, b.getF64FloatAttr(value));
          };
          auto add = [&](Value x, Value y) -> Value {
            return arith::AddFOp::create(b, l, x, y);
          };
          auto sub = [&](Value x, Value y) -> Value {
            return arith::SubFOp::create(b, l, x, y);
          };
          auto mul = [&](Value x, Value y) -> Value {
            return arith::MulFOp::create(b, l, x, y);
          };
          auto div = [&](Value x, Value y) -> Value {
            return arith::DivFOp::create(b, l, x, y);
          };
          SmallVector<SmallVector<Tap>> taps(rank);
          // tf_crop_and_resize: whether a source coordinate left the input.
          Value outside;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t inLength = inputType.getDimSize(d);
            bool wholeRoi =
                !roi || ((*roi)[d] == 0.0 && (*roi)[rank + d] == 1.0);
            if (inLength == resultType.getDimSize(d) && wholeRoi &&
                (!scales || (*scales)[d] == 1.0)) {
              taps[d].push_back({indices[d], Value()});
              continue;
            }
            Value scale;
            if (scales) {
              scale = constant((*scales)[d]);
            } else {
              Value position = arith::ConstantIndexOp::create(b, l, d);
              Value extracted = tensor::ExtractOp::create(b, l, dynamicScales,
                                                          ValueRange{position});
              scale = arith::ExtFOp::create(b, l, f64, extracted);
            }
            Value x = arith::SIToFPOp::create(
                b, l, f64, arith::IndexCastOp::create(b, l, i64, indices[d]));
            // The reference's output width is scale * input width.
            Value outWidth = mul(scale, constant(double(inLength)));
            Value isOne = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                                outWidth, constant(1.0));
            Value halfPixel =
                sub(div(add(x, constant(0.5)), scale), constant(0.5));
            Value source;
            if (transform == "half_pixel")
              source = halfPixel;
            else if (transform == "pytorch_half_pixel")
              source = arith::SelectOp::create(b, l, isOne, constant(-0.5),
                                               halfPixel);
            else if (transform == "align_corners")
              source = arith::SelectOp::create(
                  b, l, isOne, constant(0.0),
                  div(mul(x, constant(double(inLength - 1))),
                      sub(outWidth, constant(1.0))));
            else if (transform == "asymmetric")
              source = div(x, scale);
            else if (transform == "tf_crop_and_resize") {
              double start = (*roi)[d], end = (*roi)[rank + d];
              double last = double(inLength - 1);
              int64_t outLength = resultType.getDimSize(d);
              source = outLength > 1
                           ? add(constant(start * last),
                                 mul(x, constant((end - start) * last /
                                                 double(outLength - 1))))
                           : constant(0.5 * (start + end) * last);
              Value beyond = arith::OrIOp::create(
                  b, l,
                  arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, source,
                                        constant(0.0)),
                  arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, source,
                                        constant(last)));
              outside = outside
                            ? Value(arith::OrIOp::create(b, l, outside, beyond))
                            : beyond;
            } else // tf_half_pixel_for_nn
              source = div(add(x, constant(0.5)), scale);
            Value floor = math::FloorOp::create(b, l, source);
            Value ratio = sub(source, floor);
            Value base = arith::FPToSIOp::create(b, l, i64, floor);
            auto at = [&](int64_t offset) -> Value {
              Value i = arith::AddIOp::create(
                  b, l, base,
                  arith::ConstantOp::create(b, l, b.getI64IntegerAttr(offset)));
              Value clamped = arith::MaxSIOp::create(
                  b, l,
                  arith::MinSIOp::create(
                      b, l, i,
                      arith::ConstantOp::create(
                          b, l, b.getI64IntegerAttr(inLength - 1))),
                  arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
              return arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                clamped);
            };
            auto compare = [&](arith::CmpFPredicate predicate, double value) {
              return arith::CmpFOp::create(b, l, predicate, ratio,
                                           constant(value));
            };
            if (mode == "nearest") {
              // A whole source coordinate is its own nearest element.
              Value ceil;
              if (nearestMode == "round_prefer_floor")
                ceil = compare(arith::CmpFPredicate::OGT, 0.5);
              else if (nearestMode == "round_prefer_ceil")
                ceil = compare(arith::CmpFPredicate::OGE, 0.5);
              else if (nearestMode == "floor")
                ceil = arith::ConstantOp::create(b, l, b.getBoolAttr(false));
              else
                ceil = compare(arith::CmpFPredicate::OGT, 0.0);
              taps[d].push_back(
                  {arith::SelectOp::create(b, l, ceil, at(1), at(0)), Value()});
            } else if (mode == "linear") {
              taps[d].push_back({at(0), sub(constant(1.0), ratio)});
              taps[d].push_back({at(1), ratio});
            } else {
              // Keys' cubic convolution weights at distances 1 + r, r,
              // 1 - r, 2 - r.
              auto far = [&](Value t) { // 1 <= t < 2
                return sub(
                    mul(add(mul(sub(mul(constant(a), t), constant(5 * a)), t),
                            constant(8 * a)),
                        t),
                    constant(4 * a));
              };
              auto near = [&](Value t) { // 0 <= t <= 1
                return add(
                    mul(mul(sub(mul(constant(a + 2), t), constant(a + 3)), t),
                        t),
                    constant(1.0));
              };
              Value oneMinus = sub(constant(1.0), ratio);
              SmallVector<Value> weights = {far(add(ratio, constant(1.0))),
                                            near(ratio), near(oneMinus),
                                            far(add(oneMinus, constant(1.0)))};
              if (excludeOutside) {
                // Neighbours outside the input weigh 0; the rest renormalise.
                Value sum = constant(0.0);
                for (int64_t j = 0; j < 4; ++j) {
                  Value i = arith::AddIOp::create(
                      b, l, base,
                      arith::ConstantOp::create(b, l,
                                                b.getI64IntegerAttr(j - 1)));
                  Value inside = arith::AndIOp::create(
                      b, l,
                      arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, i,
                                            arith::ConstantOp::create(
                                                b, l, b.getI64IntegerAttr(0))),
                      arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::slt, i,
                          arith::ConstantOp::create(
                              b, l, b.getI64IntegerAttr(inLength))));
                  weights[j] = arith::SelectOp::create(b, l, inside, weights[j],
                                                       constant(0.0));
                  sum = add(sum, weights[j]);
                }
                for (Value &weight : weights)
                  weight = div(weight, sum);
              }
              for (int64_t j = 0; j < 4; ++j)
                taps[d].push_back({at(j - 1), weights[j]});
            }
          }
          // The weighted sum over every combination of the taps.
          Value total;
          bool weighted = false;
          SmallVector<Value> at(rank);
          std::function<void(int64_t, Value)> visit = [&](int64_t d,
                                                          Value weight) {
            if (d == rank) {
              Value value = tensor::ExtractOp::create(b, l, input, at);
              if (!weight) {
                total = value;
                return;
              }
              weighted = true;
              Value term =
                  mul(element == f64
                          ? value
                          : Value(arith::ExtFOp::create(b, l, f64, value)),
                      weight);
              total = total ? add(total, term) : term;
              return;
            }
            for (const Tap &tap : taps[d]) {
              at[d] = tap.first;
              Value combined = !tap.second ? weight
                               : weight    ? mul(weight, tap.second)
                                           : tap.second;
              visit(d + 1, combined);
            }
          };
          visit(0, Value());
          if (weighted && element != f64)
            total = arith::TruncFOp::create(b, l, element, total);
          if (outside)
            total = arith::SelectOp::create(
                b, l, outside,
                createScalar(b, l, element,
                             op.getExtrapolationValue().convertToDouble()),
                total);
          return total;
        });
    return SmallVector<Value>{result};
  }
};

void populateDataMovementPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, ShapeLowering, ForwardLowering<IdentityOp>,
               ForwardLowering<DropoutOp>, ReshapeLowering, TransposeLowering,
               ExpandLowering, ConcatLowering, SliceLowering, TileLowering,
               GatherLowering, GatherElementsLowering, GatherNDLowering,
               OneHotLowering, ReverseSequenceLowering, ScatterElementsLowering,
               ScatterNDLowering, PadLowering, ResizeLowering>(
      patterns.getContext());
}

} // namespace dlc::lowering
