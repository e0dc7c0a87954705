//===- Contraction.cpp - conv, gemm and matmul to linalg named ops --------===//

#include "LoweringUtils.h"

using namespace mlir;

namespace dlc::lowering {
namespace {

/// The accumulator a convolution starts from: the bias broadcast along
/// every dimension but the channels (dim 1), or zeros.
Value createConvInit(OpBuilder &b, Location loc, RankedTensorType resultType,
                     Value bias) {
  if (!bias)
    return createFilled(b, loc, resultType.getShape(),
                        createScalar(b, loc, resultType.getElementType(), 0));
  SmallVector<int64_t> dims = {0};
  for (int64_t d = 2; d < resultType.getRank(); ++d)
    dims.push_back(d);
  Value init =
      createEmpty(b, loc, resultType.getShape(), resultType.getElementType());
  return linalg::BroadcastOp::create(b, loc, bias, init, dims)->getResult(0);
}

/// Grouped convolution of any spatial rank as one linalg.generic, for the
/// cases no named op covers. Loops: n, m, o_1..o_k (parallel), c, k_1..k_k
/// (reduction); the input channel is (m floordiv M/G) * C/G + c.
Value buildGenericConv(OpBuilder &b, Location loc, Value padded, Value filter,
                       Value init, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations, int64_t group) {
  MLIRContext *context = b.getContext();
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t spatial = filterType.getRank() - 2;
  int64_t featuresPerGroup = filterType.getDimSize(0) / group;
  int64_t channelsPerGroup = filterType.getDimSize(1);
  unsigned numLoops = 3 + 2 * spatial;
  AffineExpr n = getAffineDimExpr(0, context), m = getAffineDimExpr(1, context);
  AffineExpr c = getAffineDimExpr(2 + spatial, context);
  SmallVector<AffineExpr> inputExprs = {
      n, m.floorDiv(featuresPerGroup) * channelsPerGroup + c};
  SmallVector<AffineExpr> filterExprs = {m, c};
  SmallVector<AffineExpr> outputExprs = {n, m};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr o = getAffineDimExpr(2 + i, context);
    AffineExpr k = getAffineDimExpr(3 + spatial + i, context);
    inputExprs.push_back(o * strides[i] + k * dilations[i]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(numLoops, 0, inputExprs, context),
      AffineMap::get(numLoops, 0, filterExprs, context),
      AffineMap::get(numLoops, 0, outputExprs, context)};
  SmallVector<utils::IteratorType> iterators(2 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{padded, filter},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nb, Location l, ValueRange args) {
               Value product = arith::MulFOp::create(nb, l, args[0], args[1]);
               linalg::YieldOp::create(
                   nb, l,
                   arith::AddFOp::create(nb, l, args[2], product).getResult());
             })
      .getResult(0);
}

/// A convolution (ConvOp's semantics) of `input` with `filter` [M, C/G,
/// K...] and the optional `bias`, into `resultType`: named linalg ops where
/// one fits, a generic otherwise.
Value lowerConv(PatternRewriter &rewriter, Location loc, Value input,
                Value filter, Value bias, RankedTensorType resultType,
                ArrayRef<int64_t> stridesIn, ArrayRef<int64_t> dilationsIn,
                ArrayRef<int64_t> pads, int64_t group) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type element = resultType.getElementType();
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t rank = inputType.getRank(), spatial = rank - 2;
  SmallVector<int64_t> strides(stridesIn), dilations(dilationsIn);
  SmallVector<int64_t> kernel(filterType.getShape().drop_front(2));
  // Zero padding, explicit: the named conv ops have no padding of their own.
  Value padded = padForWindows(rewriter, loc, input, resultType.getShape(),
                               kernel, strides, dilations, pads,
                               createScalar(rewriter, loc, element, 0));

  if (group == 1 && spatial <= 3) {
    Value init = createConvInit(rewriter, loc, resultType, bias);
    SmallVector<Value> inputs = {padded, filter};
    Attribute stridesAttr = getI64VectorAttr(rewriter, strides);
    Attribute dilationsAttr = getI64VectorAttr(rewriter, dilations);
    Operation *conv;
    if (spatial == 1)
      conv = linalg::Conv1DNcwFcwOp::create(rewriter, loc, resultType, inputs,
                                            init, stridesAttr, dilationsAttr);
    else if (spatial == 2)
      conv = linalg::Conv2DNchwFchwOp::create(rewriter, loc, resultType, inputs,
                                              init, stridesAttr, dilationsAttr);
    else
      conv = linalg::Conv3DNcdhwFcdhwOp::create(
          rewriter, loc, resultType, inputs, init, stridesAttr, dilationsAttr);
    return conv->getResult(0);
  }

  if (spatial > 2) {
    Value init = createConvInit(rewriter, loc, resultType, bias);
    return buildGenericConv(rewriter, loc, padded, filter, init, strides,
                            dilations, group);
  }

  // Grouped 1-D/2-D: linalg.conv_2d_ngchw_gfchw on views that split the
  // channels into (group, channels per group); 1-D gets a unit height.
  auto paddedType = cast<RankedTensorType>(padded.getType());
  SmallVector<int64_t> paddedShape(paddedType.getShape());
  SmallVector<int64_t> filterShape(filterType.getShape());
  SmallVector<int64_t> resultShape(resultType.getShape());
  if (spatial == 1) {
    paddedShape.insert(paddedShape.begin() + 2, 1);
    filterShape.insert(filterShape.begin() + 2, 1);
    resultShape.insert(resultShape.begin() + 2, 1);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
  }
  int64_t channelsPerGroup = filterShape[1];
  int64_t featuresPerGroup = filterShape[0] / group;
  auto typeOf = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, element);
  };
  Value groupedInput =
      reshapeTo(rewriter, loc, padded,
                typeOf({paddedShape[0], group, channelsPerGroup, paddedShape[2],
                        paddedShape[3]}));
  Value groupedFilter =
      reshapeTo(rewriter, loc, filter,
                typeOf({group, featuresPerGroup, channelsPerGroup,
                        filterShape[2], filterShape[3]}));
  RankedTensorType groupedResultType =
      typeOf({resultShape[0], group, featuresPerGroup, resultShape[2],
              resultShape[3]});
  Value init;
  if (bias) {
    Value groupedBias =
        reshapeTo(rewriter, loc, bias, typeOf({group, featuresPerGroup}));
    Value empty =
        createEmpty(rewriter, loc, groupedResultType.getShape(), element);
    init = linalg::BroadcastOp::create(rewriter, loc, groupedBias, empty,
                                       ArrayRef<int64_t>{0, 3, 4})
               ->getResult(0);
  } else {
    init = createFilled(rewriter, loc, groupedResultType.getShape(),
                        createScalar(rewriter, loc, element, 0));
  }
  Value conv = linalg::Conv2DNgchwGfchwOp::create(
                   rewriter, loc, groupedResultType,
                   ValueRange{groupedInput, groupedFilter}, init,
                   getI64VectorAttr(rewriter, strides),
                   getI64VectorAttr(rewriter, dilations))
                   ->getResult(0);
  return reshapeTo(rewriter, loc, conv, resultType);
}

struct ConvLowering : DLCLoweringPattern<ConvOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(ConvOp op, ConvOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    return SmallVector<Value>{lowerConv(
        rewriter, op.getLoc(), operands.getInput(), operands.getFilter(),
        operands.getBias(), getSignlessType(op.getResult().getType()),
        op.getStrides(), op.getDilations(), op.getPads(), op.getGroup())};
  }
};

/// ConvTranspose as a convolution: the input with strides - 1 zeros between
/// its elements and (K - 1) * dilation - pad zeros around them (cropped
/// where that is negative), convolved with stride 1 by the filter flipped
/// along every spatial dimension with its channel dimensions swapped per
/// group ([C, M/G, K...] -> [M, C/G, K...]).
struct ConvTransposeLowering : DLCLoweringPattern<ConvTransposeOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(ConvTransposeOp op, ConvTransposeOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    RankedTensorType inputType = op.getInput().getType();
    RankedTensorType filterType = op.getFilter().getType();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    Type element = resultType.getElementType();
    int64_t rank = inputType.getRank(), spatial = rank - 2;
    int64_t group = op.getGroup();
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                      pads = op.getPads(),
                      outputPadding = op.getOutputPadding();
    // The spread input: zeros, the input inserted with the strides at the
    // begin padding (where it is positive), then cropped.
    SmallVector<int64_t> spreadShape(inputType.getShape()), offsets(rank, 0),
        steps(rank, 1), cropOffsets(rank, 0), cropSizes(inputType.getShape());
    bool crop = false;
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t reach = (filterType.getDimSize(2 + i) - 1) * dilations[i];
      int64_t before = reach - pads[i];
      int64_t after = reach - pads[spatial + i] + outputPadding[i];
      int64_t spread = strides[i] * (inputType.getDimSize(2 + i) - 1) + 1;
      spreadShape[2 + i] =
          spread + std::max<int64_t>(before, 0) + std::max<int64_t>(after, 0);
      offsets[2 + i] = std::max<int64_t>(before, 0);
      steps[2 + i] = strides[i];
      cropOffsets[2 + i] = std::max<int64_t>(-before, 0);
      cropSizes[2 + i] = spreadShape[2 + i] - cropOffsets[2 + i] -
                         std::max<int64_t>(-after, 0);
      crop |= before < 0 || after < 0;
    }
    Value spread = tensor::InsertSliceOp::create(
        rewriter, loc, operands.getInput(),
        createFilled(rewriter, loc, spreadShape,
                     createScalar(rewriter, loc, element, 0)),
        ValueRange{}, ValueRange{}, ValueRange{},
        rewriter.getDenseI64ArrayAttr(offsets),
        rewriter.getDenseI64ArrayAttr(inputType.getShape()),
        rewriter.getDenseI64ArrayAttr(steps));
    if (crop)
      spread = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(cropSizes, element), spread,
          ValueRange{}, ValueRange{}, ValueRange{},
          rewriter.getDenseI64ArrayAttr(cropOffsets),
          rewriter.getDenseI64ArrayAttr(cropSizes),
          rewriter.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 1)));
    // The flipped filter: [m, c', k...] reads [(m / (M/G)) * C/G + c',
    // m mod M/G, K - 1 - k...].
    int64_t channelsPerGroup = inputType.getDimSize(1) / group;
    int64_t featuresPerGroup = filterType.getDimSize(1);
    SmallVector<int64_t> flippedShape = {featuresPerGroup * group,
                                         channelsPerGroup};
    AffineExpr m = getAffineDimExpr(0, context),
               c = getAffineDimExpr(1, context);
    SmallVector<AffineExpr> reads = {c, m};
    if (group > 1)
      reads = {m.floorDiv(featuresPerGroup) * channelsPerGroup + c,
               m % featuresPerGroup};
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t size = filterType.getDimSize(2 + i);
      flippedShape.push_back(size);
      reads.push_back(size - 1 - getAffineDimExpr(2 + i, context));
    }
    Value flipped =
        linalg::GenericOp::create(
            rewriter, loc,
            TypeRange{RankedTensorType::get(flippedShape, element)},
            ValueRange{operands.getFilter()},
            ValueRange{createEmpty(rewriter, loc, flippedShape, element)},
            {AffineMap::get(rank, 0, reads, context),
             rewriter.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(b, l, args[0]);
            })
            .getResult(0);
    return SmallVector<Value>{
        lowerConv(rewriter, loc, spread, flipped, operands.getBias(),
                  resultType, SmallVector<int64_t>(spatial, 1), dilations,
                  SmallVector<int64_t>(2 * spatial, 0), group)};
  }
};

/// alpha * op(A) op(B) + beta * C: linalg.matmul on (transposed) operands,
/// then one elementwise generic for the scaling and the broadcast C.
struct GemmLowering : DLCLoweringPattern<GemmOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(GemmOp op, GemmOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    Type element = resultType.getElementType();
    Value a = operands.getA(), b = operands.getB();
    if (op.getTransA())
      a = transposeTensor(rewriter, loc, a, {1, 0});
    if (op.getTransB())
      b = transposeTensor(rewriter, loc, b, {1, 0});
    Value acc = createFilled(rewriter, loc, resultType.getShape(),
                             createScalar(rewriter, loc, element, 0));
    Value product = linalg::MatmulOp::create(rewriter, loc, resultType,
                                             ValueRange{a, b}, acc)
                        .getResult(0);
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    Value c = operands.getC();
    if (!c && alpha == 1.0)
      return SmallVector<Value>{product};
    SmallVector<Value> inputs = {product};
    if (c)
      inputs.push_back(c);
    Value result = buildElementwise(
        rewriter, loc, inputs, resultType,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value y = args[0];
          if (alpha != 1.0)
            y = arith::MulFOp::create(nb, l,
                                      createScalar(nb, l, element, alpha), y);
          if (args.size() == 1)
            return y;
          Value bias = args[1];
          if (beta != 1.0)
            bias = arith::MulFOp::create(
                nb, l, createScalar(nb, l, element, beta), bias);
          return arith::AddFOp::create(nb, l, y, bias).getResult();
        });
    return SmallVector<Value>{result};
  }
};

/// numpy matmul: 1-D operands get a unit dimension, batch dimensions
/// broadcast. A shared 2-D right operand folds the left batch into the rows
/// of one linalg.matmul; otherwise both operands are broadcast to the batch
/// shape, flattened to one batch dimension and fed to linalg.batch_matmul.
struct MatMulLowering : DLCLoweringPattern<MatMulOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(MatMulOp op, MatMulOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    Type element = resultType.getElementType();
    auto typeOf = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, element);
    };
    Value lhs = operands.getLhs(), rhs = operands.getRhs();
    SmallVector<int64_t> lhsShape(op.getLhs().getType().getShape());
    SmallVector<int64_t> rhsShape(op.getRhs().getType().getShape());
    if (lhsShape.size() == 1) {
      lhsShape.insert(lhsShape.begin(), 1);
      lhs = reshapeTo(rewriter, loc, lhs, typeOf(lhsShape));
    }
    if (rhsShape.size() == 1) {
      rhsShape.push_back(1);
      rhs = reshapeTo(rewriter, loc, rhs, typeOf(rhsShape));
    }
    int64_t m = lhsShape[lhsShape.size() - 2], k = lhsShape.back();
    int64_t n = rhsShape.back();
    ArrayRef<int64_t> lhsBatch = ArrayRef<int64_t>(lhsShape).drop_back(2);
    ArrayRef<int64_t> rhsBatch = ArrayRef<int64_t>(rhsShape).drop_back(2);
    // The verified result type holds the broadcast batch dimensions.
    ArrayRef<int64_t> batch =
        resultType.getShape().drop_back((op.getLhs().getType().getRank() > 1) +
                                        (op.getRhs().getType().getRank() > 1));
    auto product = [](ArrayRef<int64_t> shape) {
      int64_t p = 1;
      for (int64_t s : shape)
        p *= s;
      return p;
    };
    int64_t batchSize = product(batch);
    Value zero = createScalar(rewriter, loc, element, 0);

    if (product(rhsBatch) == 1 && product(lhsBatch) == batchSize) {
      Value rows = reshapeTo(rewriter, loc, lhs, typeOf({batchSize * m, k}));
      Value cols = reshapeTo(rewriter, loc, rhs, typeOf({k, n}));
      Value acc = createFilled(rewriter, loc, {batchSize * m, n}, zero);
      Value mm =
          linalg::MatmulOp::create(rewriter, loc, typeOf({batchSize * m, n}),
                                   ValueRange{rows, cols}, acc)
              .getResult(0);
      return SmallVector<Value>{reshapeTo(rewriter, loc, mm, resultType)};
    }

    auto toBatched = [&](Value value, int64_t rows, int64_t cols) {
      SmallVector<int64_t> full(batch);
      full.append({rows, cols});
      Value broadcast = broadcastTo(rewriter, loc, value, full);
      return reshapeTo(rewriter, loc, broadcast,
                       typeOf({batchSize, rows, cols}));
    };
    Value batchedLhs = toBatched(lhs, m, k);
    Value batchedRhs = toBatched(rhs, k, n);
    Value acc = createFilled(rewriter, loc, {batchSize, m, n}, zero);
    Value bmm =
        linalg::BatchMatmulOp::create(rewriter, loc, typeOf({batchSize, m, n}),
                                      ValueRange{batchedLhs, batchedRhs}, acc)
            .getResult(0);
    return SmallVector<Value>{reshapeTo(rewriter, loc, bmm, resultType)};
  }
};

/// Einsum: one generic with a loop per label, the output's labels first
/// (parallel), then the summed ones (reduction); each input is read through
/// its term (a repeated label reads a diagonal, a size-1 dimension index 0)
/// and the product of the inputs is added to the output.
struct EinsumLowering : DLCLoweringPattern<EinsumOp> {
  using DLCLoweringPattern::DLCLoweringPattern;
  FailureOr<SmallVector<Value>>
  lower(EinsumOp op, EinsumOp::Adaptor operands,
        PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    std::optional<EinsumEquation> equation =
        parseEinsumEquation(op.getEquation());
    if (!equation)
      return op.emitOpError("has an invalid equation");
    std::string labels = equation->output;
    for (const std::string &term : equation->inputs)
      for (char label : term)
        if (labels.find(label) == std::string::npos)
          labels.push_back(label);
    auto loopOf = [&](char label) {
      return getAffineDimExpr(labels.find(label), context);
    };
    SmallVector<AffineMap> maps;
    for (auto [term, input] : llvm::zip(equation->inputs, op.getInputs())) {
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(input.getType()).getShape();
      SmallVector<AffineExpr> exprs;
      for (auto [label, size] : llvm::zip(term, shape))
        exprs.push_back(size == 1 ? getAffineConstantExpr(0, context)
                                  : loopOf(label));
      maps.push_back(AffineMap::get(labels.size(), 0, exprs, context));
    }
    SmallVector<AffineExpr> outputExprs;
    for (char label : equation->output)
      outputExprs.push_back(loopOf(label));
    maps.push_back(AffineMap::get(labels.size(), 0, outputExprs, context));
    SmallVector<utils::IteratorType> iterators(labels.size(),
                                               utils::IteratorType::reduction);
    std::fill_n(iterators.begin(), equation->output.size(),
                utils::IteratorType::parallel);

    RankedTensorType resultType = getSignlessType(op.getResult().getType());
    Type element = resultType.getElementType();
    Value init = createFilled(rewriter, loc, resultType.getShape(),
                              createScalar(rewriter, loc, element, 0));
    bool isFloat = isa<FloatType>(element);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{resultType}, operands.getInputs(),
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value product = args[0];
              for (Value factor : args.drop_front().drop_back())
                product =
                    isFloat
                        ? Value(arith::MulFOp::create(b, l, product, factor))
                        : Value(arith::MulIOp::create(b, l, product, factor));
              linalg::YieldOp::create(b, l,
                                      createAdd(b, l, args.back(), product));
            })
            .getResult(0);
    return SmallVector<Value>{result};
  }
};

} // namespace

void populateContractionPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvLowering, ConvTransposeLowering, EinsumLowering,
               GemmLowering, MatMulLowering>(patterns.getContext());
}

} // namespace dlc::lowering
