//===- DLCOps.cpp - dlc dialect, shape inference and verifiers ------------===//
//
// Every op's result type is computed here (inferReturnTypes) or checked
// here (verify). The importer calls the same inferReturnTypes before it
// builds an op, so a model whose shapes do not add up is reported on the
// ONNX node instead of tripping an assertion in the builder.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;

#include "dlc/Dialect/DLC/IR/DLCEnums.cpp.inc"
#include "dlc/Dialect/DLC/IR/DLCOpsDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/DLC/IR/DLCAttrs.cpp.inc"

void DLCDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dlc/Dialect/DLC/IR/DLCOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dlc/Dialect/DLC/IR/DLCAttrs.cpp.inc"
      >();
}

Operation *DLCDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Shared shape rules
//===----------------------------------------------------------------------===//

int64_t dlc::computeWindowedOutputSize(int64_t in, int64_t kernel,
                                       int64_t stride, int64_t dilation,
                                       int64_t padBegin, int64_t padEnd,
                                       bool ceilMode) {
  int64_t span = in + padBegin + padEnd - dilation * (kernel - 1) - 1;
  if (span < 0 || stride <= 0)
    return -1;
  int64_t out = (ceilMode ? llvm::divideCeil(span, stride) : span / stride) + 1;
  // ONNX (and PyTorch): the last window must start inside the input or the
  // begin padding, never in the end padding.
  if (ceilMode && (out - 1) * stride >= in + padBegin)
    --out;
  return out;
}

std::pair<int64_t, int64_t> dlc::getShapeDimRange(int64_t rank, int64_t start,
                                                  std::optional<int64_t> end) {
  auto clampDim = [&](int64_t d) {
    if (d < 0)
      d += rank;
    return std::clamp<int64_t>(d, 0, rank);
  };
  int64_t first = clampDim(start);
  int64_t last = end ? clampDim(*end) : rank;
  return {first, std::max(first, last)};
}

bool dlc::isUnsignedElementType(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && (integer.isUnsigned() || integer.getWidth() == 1);
}

FailureOr<SmallVector<int64_t>> dlc::broadcastShapes(ArrayRef<int64_t> lhs,
                                                     ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (l != r && l != 1 && r != 1)
      return failure();
    result[i] = l == 1 ? r : l;
  }
  return result;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

static RankedTensorType rankedType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// The numpy broadcast of `operands`' shapes, with `elementType`.
static LogicalResult inferBroadcastType(std::optional<Location> location,
                                        ArrayRef<Value> operands,
                                        Type elementType,
                                        SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> shape(rankedType(operands.front()).getShape());
  for (Value operand : operands.drop_front()) {
    ArrayRef<int64_t> next = rankedType(operand).getShape();
    FailureOr<SmallVector<int64_t>> joined = broadcastShapes(shape, next);
    if (failed(joined))
      return emitOptionalError(location, "operand shapes ", shapeString(shape),
                               " and ", shapeString(next),
                               " are not broadcast-compatible");
    shape = std::move(*joined);
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

static LogicalResult inferBroadcastBinaryType(std::optional<Location> location,
                                              Value lhs, Value rhs,
                                              SmallVectorImpl<Type> &types) {
  return inferBroadcastType(location, {lhs, rhs},
                            rankedType(lhs).getElementType(), types);
}

/// Ops whose float operands all take part in one computation (conv, gemm,
/// batch_norm) require a single element type.
static LogicalResult checkSameElementType(std::optional<Location> location,
                                          ValueRange values) {
  Type expected = rankedType(values.front()).getElementType();
  for (Value value : values.drop_front())
    if (rankedType(value).getElementType() != expected)
      return emitOptionalError(location,
                               "operand element types differ: ", expected,
                               " vs ", rankedType(value).getElementType());
  return success();
}

static LogicalResult checkAxes(std::optional<Location> location,
                               ArrayRef<int64_t> axes, int64_t rank) {
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < 0 || axis >= rank)
      return emitOptionalError(location, "axis ", axis,
                               " is out of range for rank ", rank);
    if (i > 0 && axes[i - 1] >= axis)
      return emitOptionalError(location, "axes must be sorted and unique, got ",
                               shapeString(axes));
  }
  return success();
}

static LogicalResult inferReductionType(std::optional<Location> location,
                                        Value input, ArrayRef<int64_t> axes,
                                        bool keepdims,
                                        SmallVectorImpl<Type> &types) {
  RankedTensorType type = rankedType(input);
  if (failed(checkAxes(location, axes, type.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(type.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

/// A reduction over no axis is the identity.
static OpFoldResult foldEmptyReduction(Value input, ArrayRef<int64_t> axes,
                                       Type resultType) {
  if (axes.empty() && input.getType() == resultType)
    return input;
  return {};
}

static LogicalResult verifyAxisInRange(Operation *op, int64_t axis,
                                       int64_t rank) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  return success();
}

/// Attribute entries that take part in shape arithmetic (pads, strides,
/// slice bounds, repeats, ...) must stay within the int32 range so that the
/// arithmetic on them cannot overflow.
static LogicalResult checkExtents(std::optional<Location> location,
                                  StringRef name, ArrayRef<int64_t> values) {
  constexpr int64_t limit = kMaxShapeAttributeMagnitude;
  for (int64_t value : values)
    if (value > limit || value < -limit)
      return emitOptionalError(location, name, " entry ", value,
                               " is outside the supported range [", -limit,
                               ", ", limit, "]");
  return success();
}

/// Shape rule shared by conv and the pools: N x C x spatial... in, one
/// windowed size per spatial dimension out.
static FailureOr<SmallVector<int64_t>>
inferWindowedShape(std::optional<Location> location, RankedTensorType input,
                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                   ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads,
                   bool ceilMode, int64_t channels) {
  int64_t rank = input.getRank();
  if (rank < 3)
    return emitOptionalError(location,
                             "expected an N x C x D1... input of "
                             "rank >= 3, got rank ",
                             rank);
  size_t spatial = rank - 2;
  if (kernel.size() != spatial || strides.size() != spatial ||
      dilations.size() != spatial || pads.size() != 2 * spatial)
    return emitOptionalError(location, "expected ", spatial,
                             " kernel dims, strides and dilations "
                             "and ",
                             2 * spatial, " pads for a rank-", rank, " input");
  if (failed(checkExtents(location, "kernel", kernel)) ||
      failed(checkExtents(location, "strides", strides)) ||
      failed(checkExtents(location, "dilations", dilations)) ||
      failed(checkExtents(location, "pads", pads)))
    return failure();
  SmallVector<int64_t> shape = {input.getDimSize(0), channels};
  for (size_t i = 0; i < spatial; ++i) {
    if (kernel[i] <= 0 || strides[i] <= 0 || dilations[i] <= 0 || pads[i] < 0 ||
        pads[i + spatial] < 0)
      return emitOptionalError(location,
                               "kernel sizes, strides and dilations must be "
                               "positive and pads non-negative");
    int64_t out = computeWindowedOutputSize(input.getDimSize(2 + i), kernel[i],
                                            strides[i], dilations[i], pads[i],
                                            pads[i + spatial], ceilMode);
    if (out <= 0)
      return emitOptionalError(location, "window of size ", kernel[i],
                               " (dilation ", dilations[i],
                               ") does not fit spatial dimension ", i,
                               " of size ", input.getDimSize(2 + i),
                               " with pads ", pads[i], ", ", pads[i + spatial]);
    shape.push_back(out);
  }
  return shape;
}

#define GET_OP_CLASSES
#include "dlc/Dialect/DLC/IR/DLCOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Constant, shape and cast
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  // Everything that reads a blob trusts its size. A missing blob (IR
  // printed with elided resources) is valid IR that can still be read and
  // transformed; the lowering, which needs the data, rejects it.
  auto resource = dyn_cast<DenseResourceElementsAttr>(getValue());
  if (!resource)
    return success();
  const AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return success();
  Type elementType = getType().getElementType();
  if (!elementType.isIntOrFloat())
    return success();
  // Resource blobs hold one byte per i1.
  int64_t expected = getType().getNumElements() *
                     llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
  if (static_cast<int64_t>(blob->getData().size()) != expected)
    return emitOpError("resource '")
           << resource.getRawHandle().getKey() << "' holds "
           << blob->getData().size() << " bytes but " << getType() << " needs "
           << expected;
  return success();
}

LogicalResult ShapeOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto [start, end] = getShapeDimRange(rankedType(adaptor.getInput()).getRank(),
                                       adaptor.getStart(), adaptor.getEnd());
  types.push_back(
      RankedTensorType::get({end - start}, IntegerType::get(context, 64)));
  return success();
}

/// The checks QuantizeLinear and DequantizeLinear share: an f32 scale and
/// an 8-bit zero point (or, dequantizing, an i32 one) of the quantized
/// side's element type.
static LogicalResult verifyQuantization(Operation *op, Type quantized,
                                        Type scale, Type zeroPoint) {
  if (!scale.isF32())
    return op->emitOpError("needs an f32 scale, not ") << scale;
  auto integer = dyn_cast<IntegerType>(zeroPoint);
  bool dequantize = isa<DequantizeLinearOp>(op);
  if (!integer ||
      !(integer.getWidth() == 8 ||
        (dequantize && integer.getWidth() == 32 && !integer.isUnsigned())))
    return op->emitOpError("needs an 8-bit")
           << (dequantize ? " or i32" : "") << " zero point, not " << zeroPoint;
  if (quantized != zeroPoint)
    return op->emitOpError("quantizes to ")
           << quantized << " with a zero point of type " << zeroPoint;
  return success();
}

LogicalResult QuantizeLinearOp::verify() {
  Type input = getInput().getType().getElementType();
  if (!input.isF32() && !input.isSignlessInteger(32))
    return emitOpError("quantizes f32 or i32, not ") << input;
  return verifyQuantization(*this, getResult().getType().getElementType(),
                            getScale().getType().getElementType(),
                            getZeroPoint().getType().getElementType());
}

LogicalResult DequantizeLinearOp::verify() {
  return verifyQuantization(*this, getInput().getType().getElementType(),
                            getScale().getType().getElementType(),
                            getZeroPoint().getType().getElementType());
}

/// `result` must have `shape` and the element type of `like`.
static LogicalResult checkResultType(Operation *op, Type result,
                                     ArrayRef<int64_t> shape, Type like) {
  auto expected = RankedTensorType::get(shape, getElementTypeOrSelf(like));
  if (result != expected)
    return op->emitOpError("result type should be ") << expected;
  return success();
}

static LogicalResult verifyScatterReduction(Operation *op,
                                            StringRef reduction) {
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return op->emitOpError("reduction '")
           << reduction << "' is not none, add, mul, max or min";
  return success();
}

LogicalResult GatherNDOp::verify() {
  RankedTensorType data = getData().getType(), indices = getIndices().getType();
  int64_t rank = data.getRank(), batch = getBatchDims();
  if (indices.getRank() < 1)
    return emitOpError("indices must have rank 1 or more");
  int64_t tuple = indices.getShape().back();
  if (batch < 0 || batch >= std::min(rank, indices.getRank()))
    return emitOpError("batch_dims ")
           << batch << " must be below the ranks of data and indices";
  if (tuple < 1 || tuple > rank - batch)
    return emitOpError("index tuples of ")
           << tuple << " coordinates do not fit data of rank " << rank
           << " after " << batch << " batch dimensions";
  if (data.getShape().take_front(batch) != indices.getShape().take_front(batch))
    return emitOpError("data and indices differ in the batch dimensions");
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, data.getShape().drop_front(batch + tuple));
  return checkResultType(*this, getType(), shape, data);
}

LogicalResult ScatterElementsOp::verify() {
  RankedTensorType data = getData().getType(), indices = getIndices().getType();
  if (failed(verifyAxisInRange(*this, getAxis(), data.getRank())))
    return failure();
  if (indices.getRank() != data.getRank() ||
      getUpdates().getType() != indices.clone(data.getElementType()))
    return emitOpError("indices and updates must have one shape, of the "
                       "data's rank, and updates the data's element type");
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != getAxis() && indices.getDimSize(d) > data.getDimSize(d))
      return emitOpError("indices are larger than data in dimension ") << d;
  return verifyScatterReduction(*this, getReduction());
}

LogicalResult ScatterNDOp::verify() {
  RankedTensorType data = getData().getType(), indices = getIndices().getType();
  if (indices.getRank() < 1)
    return emitOpError("indices must have rank 1 or more");
  int64_t tuple = indices.getShape().back();
  if (tuple < 1 || tuple > data.getRank())
    return emitOpError("index tuples of ")
           << tuple << " coordinates do not fit data of rank "
           << data.getRank();
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, data.getShape().drop_front(tuple));
  auto expected = RankedTensorType::get(shape, data.getElementType());
  if (getUpdates().getType() != expected)
    return emitOpError("updates should be ") << expected;
  return verifyScatterReduction(*this, getReduction());
}

LogicalResult ReverseSequenceOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t batch = getBatchAxis(), time = getTimeAxis();
  if (input.getRank() < 2 ||
      !((batch == 0 && time == 1) || (batch == 1 && time == 0)))
    return emitOpError("batch_axis and time_axis must be 0 and 1 of an "
                       "input of rank 2 or more");
  if (getSequenceLens().getType().getShape() !=
      ArrayRef<int64_t>{input.getDimSize(batch)})
    return emitOpError("sequence_lens must hold one length per batch entry (")
           << input.getDimSize(batch) << ")";
  return success();
}

LogicalResult OneHotOp::verify() {
  RankedTensorType indices = getIndices().getType();
  if (getValues().getType().getShape() != ArrayRef<int64_t>{2})
    return emitOpError("values must hold two elements (off, on)");
  if (failed(verifyAxisInRange(*this, getAxis(), indices.getRank() + 1)))
    return failure();
  RankedTensorType result = getType();
  if (result.getRank() != indices.getRank() + 1 ||
      result.getDimSize(getAxis()) < 1)
    return emitOpError("result must add a dimension of size 1 or more");
  SmallVector<int64_t> shape(indices.getShape());
  shape.insert(shape.begin() + getAxis(), result.getDimSize(getAxis()));
  return checkResultType(*this, result, shape, getValues().getType());
}

LogicalResult TopKOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(verifyAxisInRange(*this, getAxis(), input.getRank())))
    return failure();
  int64_t k = getValues().getType().getRank() == input.getRank()
                  ? getValues().getType().getDimSize(getAxis())
                  : -1;
  if (k < 1 || k > input.getDimSize(getAxis()))
    return emitOpError("k must be in [1, ")
           << input.getDimSize(getAxis()) << "]";
  SmallVector<int64_t> shape(input.getShape());
  shape[getAxis()] = k;
  if (failed(checkResultType(*this, getValues().getType(), shape, input)))
    return failure();
  return checkResultType(*this, getIndices().getType(), shape,
                         getIndices().getType());
}

bool dlc::isDataMovementOp(Operation *op) {
  return isa<ConstantOp, ShapeOp, SizeOp, IdentityOp, DropoutOp, TransferOp,
             ReshapeOp, TransposeOp, ConcatOp, SliceOp, GatherOp,
             GatherElementsOp, GatherNDOp, PadOp, ExpandOp, TileOp>(op);
}

/// ONNX allows CumSum of a scalar (axis 0 of rank 0).
LogicalResult CumSumOp::verify() {
  return verifyAxisInRange(
      *this, getAxis(), std::max<int64_t>(getInput().getType().getRank(), 1));
}

LogicalResult TransferOp::verify() {
  if (getSource().empty() || getDestination().empty())
    return emitOpError("needs the names of both targets");
  if (getSource() == getDestination())
    return emitOpError("moves a tensor from '") << getSource() << "' to itself";
  return success();
}

LogicalResult CastOp::verify() {
  if (getInput().getType().getShape() != getResult().getType().getShape())
    return emitOpError("operand and result shapes differ");
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult PReluOp::verify() {
  if (getResult().getType() != getLhs().getType())
    return emitOpError("slope must broadcast to the input shape");
  return success();
}

LogicalResult ModOp::verify() {
  if (isa<FloatType>(getType().getElementType()) && !getFmod())
    return emitOpError("float operands require fmod (C's fmod, the "
                       "dividend's sign)");
  return success();
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType type = rankedType(adaptor.getInput());
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= std::max<int64_t>(type.getRank(), 1))
    return emitOptionalError(location, "axis ", axis,
                             " is out of range for rank ", type.getRank());
  SmallVector<int64_t> reduced(type.getShape());
  for (int64_t d = axis; d < type.getRank(); ++d)
    reduced[d] = 1;
  types.push_back(type);
  types.push_back(type.clone(reduced));
  types.push_back(type.clone(reduced));
  return success();
}

/// `param` broadcasts (numpy, unidirectionally) to `shape`.
static bool broadcastsTo(Value param, ArrayRef<int64_t> shape) {
  FailureOr<SmallVector<int64_t>> joined =
      broadcastShapes(rankedType(param).getShape(), shape);
  return succeeded(joined) && ArrayRef<int64_t>(*joined) == shape;
}

LogicalResult LayerNormOp::verify() {
  ArrayRef<int64_t> normalized =
      getInput().getType().getShape().drop_front(getAxis());
  for (Value param : {getScale(), getBias()})
    if (param && !broadcastsTo(param, normalized))
      return emitOpError("scale and bias must broadcast to the normalised "
                         "dimensions ")
             << shapeString(normalized);
  return checkSameElementType(getLoc(), getOperands());
}

LogicalResult InstanceNormOp::verify() {
  RankedTensorType type = getInput().getType();
  if (type.getRank() < 3)
    return emitOpError("expects an input of rank 3 or more (N, C, spatial)");
  for (Value param : {getScale(), getBias()})
    if (rankedType(param).getShape() != ArrayRef<int64_t>{type.getDimSize(1)})
      return emitOpError("scale and bias hold one value per channel (")
             << type.getDimSize(1) << ")";
  return checkSameElementType(getLoc(), getOperands());
}

LogicalResult HardmaxOp::verify() {
  return verifyAxisInRange(getOperation(), getAxis(),
                           getInput().getType().getRank());
}

LogicalResult ResizeOp::verify() {
  RankedTensorType input = getInput().getType(), result = getType();
  int64_t rank = input.getRank();
  if (result.getRank() != rank ||
      result.getElementType() != input.getElementType())
    return emitOpError("result must have the input's rank and element type");
  if (getScales().has_value() == static_cast<bool>(getDynamicScales()))
    return emitOpError("needs either static scales or dynamic_scales");
  if (getScales() && static_cast<int64_t>(getScales()->size()) != rank)
    return emitOpError("needs one scale per dimension (") << rank << ")";
  if (getScales() && llvm::any_of(*getScales(), [](double s) {
        return !(s > 0) || !std::isfinite(s);
      }))
    return emitOpError("scales must be positive and finite");
  if (auto dynamic = getDynamicScales();
      dynamic && dynamic.getType().getDimSize(0) != rank)
    return emitOpError("needs one scale per dimension (") << rank << ")";
  if (!llvm::is_contained({"nearest", "linear", "cubic"}, getMode()))
    return emitOpError("mode '")
           << getMode() << "' is not nearest, linear or cubic";
  if (!llvm::is_contained({"half_pixel", "pytorch_half_pixel", "align_corners",
                           "asymmetric", "tf_half_pixel_for_nn",
                           "tf_crop_and_resize"},
                          getCoordinateTransformationMode()))
    return emitOpError("coordinate_transformation_mode '")
           << getCoordinateTransformationMode() << "' is not supported";
  bool crop = getCoordinateTransformationMode() == "tf_crop_and_resize";
  if (crop != getRoi().has_value() ||
      (getRoi() && static_cast<int64_t>(getRoi()->size()) != 2 * rank))
    return emitOpError("tf_crop_and_resize, and only it, needs a roi of ")
           << 2 * rank << " values";
  if (!llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
          getNearestMode()))
    return emitOpError("nearest_mode '")
           << getNearestMode() << "' is not supported";
  return success();
}

LogicalResult GatherElementsOp::verify() {
  RankedTensorType data = getData().getType(), indices = getIndices().getType();
  int64_t axis = getAxis();
  if (failed(verifyAxisInRange(getOperation(), axis, data.getRank())))
    return failure();
  if (indices.getRank() != data.getRank())
    return emitOpError("indices must have the data's rank (")
           << data.getRank() << ")";
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != axis && indices.getDimSize(d) > data.getDimSize(d))
      return emitOpError("indices dimension ")
             << d << " (" << indices.getDimSize(d)
             << ") is larger than the data's (" << data.getDimSize(d) << ")";
  if (getType() != indices.clone(data.getElementType()))
    return emitOpError("result must have the indices' shape and the data's "
                       "element type");
  return success();
}

LogicalResult TriluOp::verify() {
  if (getInput().getType().getRank() < 2)
    return emitOpError("expects a tensor of rank 2 or more (matrices)");
  return success();
}

LogicalResult MeanVarianceNormOp::verify() {
  return checkAxes(getLoc(), getAxes(), getInput().getType().getRank());
}

//===----------------------------------------------------------------------===//
// Linear algebra and convolution
//===----------------------------------------------------------------------===//

/// What Conv and ConvTranspose require alike: one element type, a filter
/// of the input's rank, an N x C x D1... input.
static LogicalResult checkConvOperands(std::optional<Location> location,
                                       ValueRange operands,
                                       RankedTensorType input,
                                       RankedTensorType filter) {
  if (failed(checkSameElementType(location, operands)))
    return failure();
  if (filter.getRank() != input.getRank())
    return emitOptionalError(location, "filter rank ", filter.getRank(),
                             " differs from input rank ", input.getRank());
  if (input.getRank() < 3)
    return emitOptionalError(location, "expected an N x C x D1... input");
  return success();
}

/// An optional bias holds one value per output channel.
static LogicalResult checkConvBias(std::optional<Location> location, Value bias,
                                   int64_t features) {
  if (!bias)
    return success();
  RankedTensorType biasType = rankedType(bias);
  if (biasType.getRank() != 1 || biasType.getDimSize(0) != features)
    return emitOptionalError(location, "bias must have ", features,
                             " elements, got shape ",
                             shapeString(biasType.getShape()));
  return success();
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  RankedTensorType filter = rankedType(adaptor.getFilter());
  int64_t group = adaptor.getGroup();
  if (failed(checkConvOperands(location, adaptor.getOperands(), input, filter)))
    return failure();
  int64_t channels = input.getDimSize(1), features = filter.getDimSize(0);
  if (group <= 0 || channels % group != 0 || features % group != 0)
    return emitOptionalError(location, "group ", group,
                             " must divide the input channels (", channels,
                             ") and the output channels (", features, ")");
  if (filter.getDimSize(1) * group != channels)
    return emitOptionalError(location, "filter has ", filter.getDimSize(1),
                             " channels per group but the input has ", channels,
                             " channels in ", group, " group(s)");
  if (failed(checkConvBias(location, adaptor.getBias(), features)))
    return failure();
  SmallVector<int64_t> kernel(filter.getShape().drop_front(2));
  FailureOr<SmallVector<int64_t>> shape = inferWindowedShape(
      location, input, kernel, adaptor.getStrides(), adaptor.getDilations(),
      adaptor.getPads(), /*ceilMode=*/false, features);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

LogicalResult ConvTransposeOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  RankedTensorType filter = rankedType(adaptor.getFilter());
  int64_t group = adaptor.getGroup();
  if (failed(checkConvOperands(location, adaptor.getOperands(), input, filter)))
    return failure();
  int64_t spatial = input.getRank() - 2;
  int64_t channels = input.getDimSize(1);
  if (group <= 0 || channels % group != 0)
    return emitOptionalError(location, "group ", group,
                             " must divide the input channels (", channels,
                             ")");
  if (filter.getDimSize(0) != channels)
    return emitOptionalError(location, "filter has ", filter.getDimSize(0),
                             " input channels, the input ", channels);
  int64_t features = filter.getDimSize(1) * group;
  if (failed(checkConvBias(location, adaptor.getBias(), features)))
    return failure();
  ArrayRef<int64_t> strides = adaptor.getStrides(),
                    dilations = adaptor.getDilations(),
                    pads = adaptor.getPads(),
                    outputPadding = adaptor.getOutputPadding();
  if (static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(dilations.size()) != spatial ||
      static_cast<int64_t>(outputPadding.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return emitOptionalError(location, "expected ", spatial,
                             " strides, dilations and output paddings and ",
                             2 * spatial, " pads");
  SmallVector<int64_t> shape = {input.getDimSize(0), features};
  for (int64_t i = 0; i < spatial; ++i) {
    if (strides[i] <= 0 || dilations[i] <= 0 || outputPadding[i] < 0)
      return emitOptionalError(location, "strides and dilations must be "
                                         "positive, output paddings not "
                                         "negative");
    int64_t size = strides[i] * (input.getDimSize(2 + i) - 1) +
                   outputPadding[i] +
                   (filter.getDimSize(2 + i) - 1) * dilations[i] + 1 - pads[i] -
                   pads[spatial + i];
    if (size <= 0)
      return emitOptionalError(location, "spatial dimension ", i,
                               " of the output would be ", size);
    shape.push_back(size);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  RankedTensorType a = rankedType(adaptor.getA()),
                   b = rankedType(adaptor.getB());
  if (failed(checkSameElementType(location, adaptor.getOperands())))
    return failure();
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOptionalError(location, "A and B must be 2-D, got ",
                             shapeString(a.getShape()), " and ",
                             shapeString(b.getShape()));
  bool transA = adaptor.getTransA(), transB = adaptor.getTransB();
  int64_t m = a.getDimSize(transA ? 1 : 0), k = a.getDimSize(transA ? 0 : 1);
  int64_t kb = b.getDimSize(transB ? 1 : 0), n = b.getDimSize(transB ? 0 : 1);
  if (k != kb)
    return emitOptionalError(location, "inner dimensions differ: ", k, " vs ",
                             kb);
  if (Value c = adaptor.getC()) {
    FailureOr<SmallVector<int64_t>> shape =
        broadcastShapes(rankedType(c).getShape(), {m, n});
    if (failed(shape) || *shape != SmallVector<int64_t>{m, n})
      return emitOptionalError(location, "C of shape ",
                               shapeString(rankedType(c).getShape()),
                               " does not broadcast to [", m, ", ", n, "]");
  }
  types.push_back(RankedTensorType::get({m, n}, a.getElementType()));
  return success();
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  RankedTensorType lhs = rankedType(adaptor.getLhs());
  RankedTensorType rhs = rankedType(adaptor.getRhs());
  if (lhs.getRank() == 0 || rhs.getRank() == 0)
    return emitOptionalError(location, "matmul operands must not be scalars");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(location, "operand element types differ");
  SmallVector<int64_t> l(lhs.getShape()), r(rhs.getShape());
  bool vecL = l.size() == 1, vecR = r.size() == 1;
  if (vecL)
    l.insert(l.begin(), 1);
  if (vecR)
    r.push_back(1);
  if (l.back() != r[r.size() - 2])
    return emitOptionalError(location, "contraction dimensions differ: ",
                             shapeString(lhs.getShape()), " x ",
                             shapeString(rhs.getShape()));
  FailureOr<SmallVector<int64_t>> batch = broadcastShapes(
      ArrayRef<int64_t>(l).drop_back(2), ArrayRef<int64_t>(r).drop_back(2));
  if (failed(batch))
    return emitOptionalError(location, "batch dimensions of ",
                             shapeString(lhs.getShape()), " and ",
                             shapeString(rhs.getShape()), " do not broadcast");
  SmallVector<int64_t> shape = *batch;
  if (!vecL)
    shape.push_back(l[l.size() - 2]);
  if (!vecR)
    shape.push_back(r.back());
  types.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling and normalisation
//===----------------------------------------------------------------------===//

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  if (input.getRank() < 3)
    return emitOptionalError(location, "expected an N x C x D1... input");
  FailureOr<SmallVector<int64_t>> shape = inferWindowedShape(
      location, input, adaptor.getKernelShape(), adaptor.getStrides(),
      adaptor.getDilations(), adaptor.getPads(), adaptor.getCeilMode(),
      input.getDimSize(1));
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

LogicalResult AveragePoolOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  if (input.getRank() < 3)
    return emitOptionalError(location, "expected an N x C x D1... input");
  SmallVector<int64_t> dilations(adaptor.getKernelShape().size(), 1);
  FailureOr<SmallVector<int64_t>> shape = inferWindowedShape(
      location, input, adaptor.getKernelShape(), adaptor.getStrides(),
      dilations, adaptor.getPads(), adaptor.getCeilMode(), input.getDimSize(1));
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

LogicalResult BatchNormOp::verify() {
  RankedTensorType input = getInput().getType();
  if (input.getRank() < 2)
    return emitOpError("expected an N x C x ... input");
  if (failed(checkSameElementType(getLoc(), getOperands())))
    return failure();
  int64_t channels = input.getDimSize(1);
  for (Value param : {getScale(), getBias(), getMean(), getVariance()}) {
    RankedTensorType type = rankedType(param);
    if (type.getRank() != 1 || type.getDimSize(0) != channels)
      return emitOpError("scale, bias, mean and variance must have ")
             << channels << " elements, got shape "
             << shapeString(type.getShape());
  }
  return success();
}

LogicalResult LRNOp::verify() {
  if (getInput().getType().getRank() < 3)
    return emitOpError("expected an N x C x D1... input");
  // I64Attr getters return uint64_t: compare as signed.
  int64_t size = getSize();
  if (size <= 0)
    return emitOpError("size must be positive, got ") << size;
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  if (getInput().getType().getNumElements() !=
      getResult().getType().getNumElements())
    return emitOpError("cannot reshape ")
           << shapeString(getInput().getType().getShape()) << " to "
           << shapeString(getResult().getType().getShape())
           << ": element counts differ";
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOptionalError(location, "perm has ", perm.size(),
                             " entries for a rank-", input.getRank(), " input");
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= input.getRank() || seen[p])
      return emitOptionalError(location, "perm ", shapeString(perm),
                               " is not a permutation");
    seen[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<EinsumEquation> dlc::parseEinsumEquation(StringRef equation) {
  auto [lhs, output] = equation.split("->");
  if (lhs.size() == equation.size())
    return std::nullopt;
  auto isLabels = [](StringRef term) {
    return llvm::all_of(term, [](char c) { return llvm::isAlpha(c); });
  };
  EinsumEquation parsed;
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  for (StringRef term : terms) {
    if (!isLabels(term))
      return std::nullopt;
    parsed.inputs.push_back(term.str());
  }
  llvm::SmallDenseSet<char> seen;
  for (char label : output)
    if (!llvm::isAlpha(label) || !seen.insert(label).second)
      return std::nullopt;
  parsed.output = output.str();
  return parsed;
}

LogicalResult EinsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef text = adaptor.getEquation();
  std::optional<EinsumEquation> equation = parseEinsumEquation(text);
  if (!equation)
    return emitOptionalError(location, "equation '", text,
                             "' is not of the form 'ab,bc->ac' (letters, a "
                             "term per input, no label twice in the output)");
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty() || equation->inputs.size() != inputs.size())
    return emitOptionalError(location, "equation '", text, "' has ",
                             equation->inputs.size(), " input terms for ",
                             inputs.size(), " inputs");
  // The size of each label: equal wherever it occurs, or 1 (broadcast).
  llvm::SmallDenseMap<char, int64_t> sizes;
  for (auto [term, input] : llvm::zip(equation->inputs, inputs)) {
    RankedTensorType type = rankedType(input);
    if (static_cast<int64_t>(term.size()) != type.getRank())
      return emitOptionalError(location, "term '", term, "' has ", term.size(),
                               " labels for an input of rank ", type.getRank());
    for (auto [label, size] : llvm::zip(term, type.getShape())) {
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (inserted || it->second == size || size == 1)
        continue;
      if (it->second != 1)
        return emitOptionalError(location, "label '", StringRef(&label, 1),
                                 "' has sizes ", it->second, " and ", size);
      it->second = size;
    }
  }
  SmallVector<int64_t> shape;
  for (char label : equation->output) {
    auto it = sizes.find(label);
    if (it == sizes.end())
      return emitOptionalError(location, "output label '", StringRef(&label, 1),
                               "' is in no input term");
    shape.push_back(it->second);
  }
  types.push_back(
      RankedTensorType::get(shape, rankedType(inputs[0]).getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(location, "concat needs at least one input");
  RankedTensorType first = rankedType(adaptor.getInputs().front());
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOptionalError(location, "axis ", axis,
                             " is out of range for rank ", first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (Value input : adaptor.getInputs()) {
    RankedTensorType type = rankedType(input);
    if (type.getRank() != first.getRank())
      return emitOptionalError(location, "inputs have different ranks");
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != axis && type.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(
            location, "inputs ", shapeString(first.getShape()), " and ",
            shapeString(type.getShape()), " differ outside axis ", axis);
    shape[axis] += type.getDimSize(axis);
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  ArrayRef<int64_t> starts = adaptor.getStarts(), ends = adaptor.getEnds(),
                    steps = adaptor.getSteps();
  int64_t rank = input.getRank();
  if ((int64_t)starts.size() != rank || (int64_t)ends.size() != rank ||
      (int64_t)steps.size() != rank)
    return emitOptionalError(location, "starts, ends and steps need ", rank,
                             " entries each");
  if (failed(checkExtents(location, "starts", starts)) ||
      failed(checkExtents(location, "ends", ends)) ||
      failed(checkExtents(location, "steps", steps)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d), step = steps[d];
    if (step == 0)
      return emitOptionalError(location, "step of dimension ", d, " is zero");
    int64_t size = std::max<int64_t>(
        0, step > 0 ? llvm::divideCeil(ends[d] - starts[d], step)
                    : llvm::divideCeil(starts[d] - ends[d], -step));
    if (size > 0) {
      int64_t last = starts[d] + (size - 1) * step;
      if (starts[d] < 0 || starts[d] >= dim || last < 0 || last >= dim)
        return emitOptionalError(location, "slice [", starts[d], ":", ends[d],
                                 ":", step, "] leaves dimension ", d,
                                 " of size ", dim);
    }
    shape.push_back(size);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  RankedTensorType data = rankedType(adaptor.getData());
  RankedTensorType indices = rankedType(adaptor.getIndices());
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= data.getRank())
    return emitOptionalError(location, "axis ", axis,
                             " is out of range for rank ", data.getRank());
  SmallVector<int64_t> shape(data.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  ArrayRef<int64_t> pads = adaptor.getPads();
  int64_t rank = input.getRank();
  if ((int64_t)pads.size() != 2 * rank)
    return emitOptionalError(location, "expected ", 2 * rank,
                             " pads for a rank-", rank, " input, got ",
                             pads.size());
  if (failed(checkExtents(location, "pads", pads)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input.getDimSize(d) + pads[d] + pads[d + rank];
    if (size < 0)
      return emitOptionalError(location, "pads ", pads[d], ", ", pads[d + rank],
                               " crop dimension ", d, " of size ",
                               input.getDimSize(d), " below zero");
    if (adaptor.getMode() != PadMode::constant &&
        (pads[d] > 0 || pads[d + rank] > 0) && input.getDimSize(d) == 0)
      return emitOptionalError(location, "cannot ",
                               stringifyPadMode(adaptor.getMode()),
                               "-pad an empty dimension");
    if (adaptor.getMode() == PadMode::reflect &&
        (pads[d] >= input.getDimSize(d) ||
         pads[d + rank] >= input.getDimSize(d)))
      return emitOptionalError(location,
                               "reflect pads must be smaller than the "
                               "dimension they pad (dimension ",
                               d, " of size ", input.getDimSize(d), ")");
    shape.push_back(size);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ExpandOp::verify() {
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> out = getResult().getType().getShape();
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(in, out);
  if (failed(shape) || ArrayRef<int64_t>(*shape) != out)
    return emitOpError("cannot broadcast ")
           << shapeString(in) << " to " << shapeString(out);
  return success();
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  RankedTensorType input = rankedType(adaptor.getInput());
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  if ((int64_t)repeats.size() != input.getRank())
    return emitOptionalError(location, "expected ", input.getRank(),
                             " repeats, got ", repeats.size());
  if (failed(checkExtents(location, "repeats", repeats)))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [dim, repeat] : llvm::zip(input.getShape(), repeats)) {
    if (repeat < 0)
      return emitOptionalError(location, "repeats must be non-negative");
    shape.push_back(dim * repeat);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}
