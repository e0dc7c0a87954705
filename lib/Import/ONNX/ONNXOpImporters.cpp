//===- ONNXOpImporters.cpp - ONNX operators to dlc ops --------------------===//
//
// One function per ONNX operator family of the default domain, opsets 7 to
// 17. Each reads its node through NodeImporter, resolves what ONNX leaves
// implicit (defaults, negative axes, auto_pad, attributes that became inputs
// in later opsets) and creates dlc ops, whose shape inference reports
// inconsistent models on the node.
//
//===----------------------------------------------------------------------===//

#include "ONNXImporterImpl.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>
#include <map>
#include <numeric>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {
/// A float attribute of an ONNX node and its default value.
struct FloatAttrSpec {
  const char *name;
  float defaultValue;
};
} // namespace

static RankedTensorType getType(Value value) {
  return NodeImporter::getType(value);
}

/// Records `value` as output `index` of the node.
static LogicalResult setResult(NodeImporter &n, FailureOr<Value> value,
                               unsigned index = 0) {
  if (failed(value))
    return failure();
  n.setResult(index, *value);
  return success();
}

static int64_t getProduct(ArrayRef<int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values)
    product *= v;
  return product;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <typename OpTy> static LogicalResult importBinary(NodeImporter &n) {
  Value lhs = n.getInput(0), rhs = n.getInput(1);
  if (!lhs || !rhs)
    return failure();
  return setResult(n, n.create<OpTy>({lhs, rhs}));
}

/// Mod: `fmod` chooses C's remainder over Python's.
static LogicalResult importMod(NodeImporter &n) {
  Value lhs = n.getInput(0), rhs = n.getInput(1);
  if (!lhs || !rhs)
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<ModOp>(
             {lhs, rhs},
             {b.getNamedAttr("fmod", b.getBoolAttr(n.getIntAttr("fmod", 0)))}));
}

static LogicalResult importBitShift(NodeImporter &n) {
  Value lhs = n.getInput(0), rhs = n.getInput(1);
  if (!lhs || !rhs)
    return failure();
  std::string direction = n.getStringAttr("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return n.emitError() << "direction '" << direction
                         << "' is neither LEFT nor RIGHT";
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<BitShiftOp>(
             {lhs, rhs},
             {b.getNamedAttr("left", b.getBoolAttr(direction == "LEFT"))}));
}

/// A QuantizeLinear or DequantizeLinear of `input` with `scale` and
/// `zeroPoint` (null: 0 of the quantized type, ui8 when quantizing, as ONNX
/// says); a 1-D scale and zero point along `axis` are reshaped to broadcast
/// along it.
template <typename OpTy>
static FailureOr<Value> buildQuantization(NodeImporter &n, Value input,
                                          Value scale, Value zeroPoint,
                                          int64_t axis) {
  constexpr bool quantize = std::is_same_v<OpTy, QuantizeLinearOp>;
  Builder &b = n.getBuilder();
  if (!zeroPoint) {
    Type quantized = quantize ? b.getIntegerType(8, /*isSigned=*/false)
                              : getType(input).getElementType();
    zeroPoint = n.createConstant(
        DenseElementsAttr::get(RankedTensorType::get({}, quantized),
                               APInt(quantized.getIntOrFloatBitWidth(), 0)));
  }
  int64_t rank = getType(input).getRank();
  RankedTensorType scaleType = getType(scale);
  if (scaleType.getRank() == 1 && scaleType.getDimSize(0) != 1) {
    FailureOr<int64_t> normalized = n.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    SmallVector<int64_t> shape(rank - *normalized, 1);
    shape[0] = scaleType.getDimSize(0);
    FailureOr<Value> reshapedScale = n.createReshape(scale, shape);
    FailureOr<Value> reshapedZero = getType(zeroPoint).getRank() == 1
                                        ? n.createReshape(zeroPoint, shape)
                                        : FailureOr<Value>(zeroPoint);
    if (failed(reshapedScale) || failed(reshapedZero))
      return failure();
    scale = *reshapedScale;
    zeroPoint = *reshapedZero;
  } else if (scaleType.getRank() > 1) {
    return n.emitError() << "needs a scalar or 1-D scale, not " << scaleType;
  }
  return n.create<OpTy>({input, scale, zeroPoint});
}

template <typename OpTy>
static LogicalResult importQuantization(NodeImporter &n) {
  Value input = n.getInput(0), scale = n.getInput(1);
  if (!input || !scale)
    return failure();
  Value zeroPoint = n.getOptionalInput(2);
  if (n.hasInput(2) && !zeroPoint)
    return failure();
  return setResult(n, buildQuantization<OpTy>(n, input, scale, zeroPoint,
                                              n.getIntAttr("axis", 1)));
}

/// DynamicQuantizeLinear as ONNX defines it: the range of the input
/// widened to include 0 mapped onto [0, 255]; outputs y, y_scale and
/// y_zero_point.
static LogicalResult importDynamicQuantizeLinear(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  Builder &b = n.getBuilder();
  RankedTensorType scalar = RankedTensorType::get({}, b.getF32Type());
  auto constant = [&](float value) {
    return n.createConstant(DenseElementsAttr::get(scalar, value));
  };
  SmallVector<int64_t> axes =
      llvm::to_vector(llvm::seq<int64_t>(0, getType(input).getRank()));
  SmallVector<NamedAttribute> reduceAll = {
      b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes)),
      b.getNamedAttr("keepdims", b.getBoolAttr(false))};
  Value zero = constant(0);
  FailureOr<Value> lowest = n.create<ReduceMinOp>({input}, reduceAll);
  FailureOr<Value> highest = n.create<ReduceMaxOp>({input}, reduceAll);
  if (failed(lowest) || failed(highest))
    return failure();
  lowest = n.create<MinOp>({*lowest, zero});
  highest = n.create<MaxOp>({*highest, zero});
  if (failed(lowest) || failed(highest))
    return failure();
  FailureOr<Value> range = n.create<SubOp>({*highest, *lowest});
  if (failed(range))
    return failure();
  FailureOr<Value> scale = n.create<DivOp>({*range, constant(255)});
  if (failed(scale))
    return failure();
  FailureOr<Value> shift = n.create<DivOp>({*lowest, *scale});
  if (failed(shift))
    return failure();
  FailureOr<Value> zeroPoint = n.create<SubOp>({zero, *shift});
  if (failed(zeroPoint))
    return failure();
  zeroPoint = n.create<ClipOp>(scalar, {*zeroPoint},
                               {b.getNamedAttr("min", b.getF64FloatAttr(0)),
                                b.getNamedAttr("max", b.getF64FloatAttr(255))});
  if (failed(zeroPoint))
    return failure();
  zeroPoint = n.create<RoundOp>(scalar, {*zeroPoint});
  if (failed(zeroPoint))
    return failure();
  zeroPoint = n.create<CastOp>(
      scalar.clone(b.getIntegerType(8, /*isSigned=*/false)), {*zeroPoint});
  if (failed(zeroPoint))
    return failure();
  if (failed(setResult(
          n, n.create<QuantizeLinearOp>({input, *scale, *zeroPoint}))))
    return failure();
  n.setResult(1, *scale);
  n.setResult(2, *zeroPoint);
  return success();
}

/// PRelu: a 1-D slope with one value per channel (what PyTorch's exporter
/// wrote for opsets before 7, and what numpy broadcasting would align with
/// the last dimension instead) broadcasts along dimension 1.
static LogicalResult importPRelu(NodeImporter &n) {
  Value input = n.getInput(0), slope = n.getInput(1);
  if (!input || !slope)
    return failure();
  RankedTensorType inputType = getType(input), slopeType = getType(slope);
  if (slopeType.getRank() == 1 && inputType.getRank() > 2 &&
      slopeType.getDimSize(0) != 1 &&
      slopeType.getDimSize(0) == inputType.getDimSize(1) &&
      failed(broadcastShapes(inputType.getShape(), slopeType.getShape()))) {
    SmallVector<int64_t> perChannel(inputType.getRank() - 1, 1);
    perChannel[0] = slopeType.getDimSize(0);
    FailureOr<Value> reshaped = n.createReshape(slope, perChannel);
    if (failed(reshaped))
      return failure();
    slope = *reshaped;
  }
  return setResult(n, n.create<PReluOp>({input, slope}));
}

static LogicalResult importWhere(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  if (inputs->size() != 3)
    return n.emitError() << "expects 3 inputs, got " << inputs->size();
  return setResult(n, n.create<WhereOp>(*inputs));
}

/// IsNaN and IsInf: a bool tensor of the input's shape.
template <typename OpTy> static LogicalResult importClassify(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  Builder &b = n.getBuilder();
  SmallVector<NamedAttribute> attrs;
  if constexpr (std::is_same_v<OpTy, IsInfOp>) {
    attrs.push_back(b.getNamedAttr(
        "detect_negative", b.getBoolAttr(n.getIntAttr("detect_negative", 1))));
    attrs.push_back(b.getNamedAttr(
        "detect_positive", b.getBoolAttr(n.getIntAttr("detect_positive", 1))));
  }
  return setResult(
      n, n.create<OpTy>(getType(input).clone(b.getI1Type()), input, attrs));
}

/// Pow's exponent may have another type than its base (opset 12+); the
/// result has the base's type. dlc.pow takes one type: an exponent of
/// another integer type, or of a float type on a float base, is cast to the
/// base's type. An integer base with a float exponent is computed in f64 and
/// truncated back, as ONNX's reference (numpy) does.
static LogicalResult importPow(NodeImporter &n) {
  Value base = n.getInput(0), exponent = n.getInput(1);
  if (!base || !exponent)
    return failure();
  Type baseElement = getType(base).getElementType();
  Type exponentElement = getType(exponent).getElementType();
  auto castTo = [&](Value value, Type element) -> FailureOr<Value> {
    if (getType(value).getElementType() == element)
      return value;
    return n.create<CastOp>(getType(value).clone(element), value);
  };
  Type computeElement = baseElement;
  if (!isa<FloatType>(baseElement) && isa<FloatType>(exponentElement))
    computeElement = n.getBuilder().getF64Type();
  FailureOr<Value> computeBase = castTo(base, computeElement);
  FailureOr<Value> computeExponent = castTo(exponent, computeElement);
  if (failed(computeBase) || failed(computeExponent))
    return failure();
  FailureOr<Value> power = n.create<PowOp>({*computeBase, *computeExponent});
  if (failed(power))
    return failure();
  return setResult(n, castTo(*power, baseElement));
}

/// Sum, Max and Min of N inputs: a chain of binary ops.
template <typename OpTy>
static FailureOr<Value> createVariadicChain(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  if (inputs->empty())
    return n.emitError() << "needs at least one input";
  Value accumulated = inputs->front();
  for (Value input : llvm::drop_begin(*inputs)) {
    FailureOr<Value> next = n.create<OpTy>({accumulated, input});
    if (failed(next))
      return failure();
    accumulated = *next;
  }
  return accumulated;
}

template <typename OpTy> static LogicalResult importVariadic(NodeImporter &n) {
  return setResult(n, createVariadicChain<OpTy>(n));
}

/// Mean: the sum of the inputs divided by their number.
static LogicalResult importMean(NodeImporter &n) {
  FailureOr<Value> sum = createVariadicChain<AddOp>(n);
  if (failed(sum))
    return failure();
  Type elementType = getType(*sum).getElementType();
  if (!isa<FloatType>(elementType))
    return n.emitError() << "Mean of " << getType(*sum)
                         << " is not supported (float only)";
  auto scalarType = RankedTensorType::get({}, elementType);
  Attribute count = n.getBuilder().getFloatAttr(
      elementType, static_cast<double>(n.getNode().input_size()));
  Value divisor = n.createConstant(DenseElementsAttr::get(scalarType, {count}));
  return setResult(n, n.create<DivOp>({*sum, divisor}));
}

/// Unary ops whose attributes are floats with ONNX defaults.
template <typename OpTy>
static LogicalResult importUnary(NodeImporter &n,
                                 ArrayRef<FloatAttrSpec> floatAttrs = {}) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  Builder &b = n.getBuilder();
  SmallVector<NamedAttribute> attrs;
  for (const FloatAttrSpec &spec : floatAttrs)
    attrs.push_back(b.getNamedAttr(
        spec.name,
        b.getF32FloatAttr(n.getFloatAttr(spec.name, spec.defaultValue))));
  return setResult(n, n.create<OpTy>(input.getType(), input, attrs));
}

/// The lowest and highest value of `type`, for Clip's absent bounds
/// (infinities for floats; i64's highest is rounded down to a double that
/// still fits).
static std::pair<double, double> getTypeRange(Type type) {
  if (isa<FloatType>(type))
    return {-std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity()};
  unsigned width = type.getIntOrFloatBitWidth();
  if (isUnsignedElementType(type)) {
    double highest = APInt::getMaxValue(width).getZExtValue();
    if (width == 64)
      highest = std::nextafter(highest, 0.0);
    return {0, highest};
  }
  double lowest = APInt::getSignedMinValue(width).getSExtValue();
  double highest = APInt::getSignedMaxValue(width).getSExtValue();
  if (width == 64)
    highest = std::nextafter(highest, 0.0);
  return {lowest, highest};
}

/// Clip: bounds are attributes before opset 11 and optional inputs from
/// opset 11 on, which must then be constants.
static LogicalResult importClip(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  auto [lowest, highest] = getTypeRange(getType(input).getElementType());
  double minValue = lowest, maxValue = highest;
  if (n.getOpset() < 11) {
    minValue = n.hasAttr("min") ? n.getFloatAttr("min", 0) : lowest;
    maxValue = n.hasAttr("max") ? n.getFloatAttr("max", 0) : highest;
  } else {
    FailureOr<std::optional<double>> min = n.getConstantScalarInput(1);
    FailureOr<std::optional<double>> max = n.getConstantScalarInput(2);
    if (failed(min) || failed(max))
      return failure();
    minValue = min->value_or(lowest);
    maxValue = max->value_or(highest);
  }
  Builder &b = n.getBuilder();
  return setResult(
      n,
      n.create<ClipOp>(input.getType(), input,
                       {b.getNamedAttr("min", b.getF64FloatAttr(minValue)),
                        b.getNamedAttr("max", b.getF64FloatAttr(maxValue))}));
}

/// Softmax, LogSoftmax and Hardmax. Before opset 13 they work on the input
/// coerced to 2-D at `axis` (default 1): reshape, normalise along axis 1,
/// reshape back.
template <typename OpTy> static LogicalResult importSoftmax(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  RankedTensorType type = getType(input);
  int64_t rank = type.getRank();
  bool coerceTo2D = n.getOpset() < 13;
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", coerceTo2D ? 1 : -1), rank);
  if (failed(axis))
    return failure();
  Builder &b = n.getBuilder();
  // Coercing at the last axis is the same as normalising along it.
  if (!coerceTo2D || *axis == rank - 1)
    return setResult(
        n,
        n.create<OpTy>(type, input,
                       {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis))}));
  SmallVector<int64_t> shape2D = {
      getProduct(type.getShape().take_front(*axis)),
      getProduct(type.getShape().drop_front(*axis))};
  FailureOr<Value> flat = n.createReshape(input, shape2D);
  if (failed(flat))
    return failure();
  FailureOr<Value> normalised = n.create<OpTy>(
      getType(*flat), *flat, {b.getNamedAttr("axis", b.getI64IntegerAttr(1))});
  if (failed(normalised))
    return failure();
  return setResult(n, n.createReshape(*normalised, type.getShape()));
}

//===----------------------------------------------------------------------===//
// Convolution, pooling, normalisation
//===----------------------------------------------------------------------===//

/// A per-spatial-dimension attribute (strides, dilations, kernel_shape):
/// `numSpatial` values, or `defaultValue` repeated when absent.
static FailureOr<SmallVector<int64_t>> getSpatialAttr(NodeImporter &n,
                                                      StringRef name,
                                                      size_t numSpatial,
                                                      int64_t defaultValue) {
  std::optional<SmallVector<int64_t>> values = n.getIntsAttr(name);
  if (!values)
    return SmallVector<int64_t>(numSpatial, defaultValue);
  if (values->size() != numSpatial)
    return n.emitError() << "attribute '" << name << "' has " << values->size()
                         << " values, expected " << numSpatial;
  return *values;
}

/// Explicit pads (begins, then ends) of a windowed op, resolving auto_pad:
/// SAME_* pads so that the output size is ceil(input / stride), the odd
/// padding going to the end (SAME_UPPER) or the beginning (SAME_LOWER).
static FailureOr<SmallVector<int64_t>>
resolvePads(NodeImporter &n, ArrayRef<int64_t> inputSpatial,
            ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
            ArrayRef<int64_t> dilations) {
  size_t numSpatial = inputSpatial.size();
  std::string autoPad = n.getStringAttr("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    std::optional<SmallVector<int64_t>> pads = n.getIntsAttr("pads");
    if (!pads)
      return SmallVector<int64_t>(2 * numSpatial, 0);
    if (pads->size() != 2 * numSpatial)
      return n.emitError() << "attribute 'pads' has " << pads->size()
                           << " values, expected " << 2 * numSpatial;
    return *pads;
  }
  if (autoPad == "VALID")
    return SmallVector<int64_t>(2 * numSpatial, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return n.emitError() << "auto_pad '" << autoPad
                         << "' is not supported (expected NOTSET, SAME_UPPER, "
                            "SAME_LOWER or VALID)";
  SmallVector<int64_t> pads(2 * numSpatial, 0);
  for (size_t i = 0; i < numSpatial; ++i) {
    if (strides[i] <= 0)
      return n.emitError() << "strides must be positive";
    int64_t out = llvm::divideCeil(inputSpatial[i], strides[i]);
    int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] +
                                             (kernel[i] - 1) * dilations[i] +
                                             1 - inputSpatial[i]);
    int64_t half = total / 2;
    pads[i] = autoPad == "SAME_UPPER" ? half : total - half;
    pads[i + numSpatial] = total - pads[i];
  }
  return pads;
}

/// The input of a windowed op, checked to be N x C x spatial (1-D to 3-D).
static Value getWindowedInput(NodeImporter &n, unsigned index = 0) {
  Value input = n.getInput(index);
  if (!input)
    return {};
  int64_t rank = getType(input).getRank();
  if (rank < 3 || rank > 5) {
    n.emitError() << "input of rank " << rank
                  << " is not supported (expected N x C x D1 [x D2 [x D3]])";
    return {};
  }
  return input;
}

/// What Conv and ConvTranspose read alike: input, filter, optional bias,
/// the kernel (checked against `kernel_shape`), strides and dilations.
struct ConvOperands {
  Value input, filter, bias;
  SmallVector<int64_t> kernel, strides, dilations;
};

/// `input`, `filter` and `bias` (optional) are the node's inputs of those
/// indices (QLinearConv's are not 0, 1, 2).
static FailureOr<ConvOperands> readConvOperands(NodeImporter &n,
                                                unsigned input = 0,
                                                unsigned filter = 1,
                                                unsigned bias = 2) {
  ConvOperands conv;
  conv.input = getWindowedInput(n, input);
  conv.filter = n.getInput(filter);
  if (!conv.input || !conv.filter)
    return failure();
  conv.bias = n.getOptionalInput(bias);
  if (n.hasInput(bias) && !conv.bias)
    return failure();
  RankedTensorType inputType = getType(conv.input);
  RankedTensorType filterType = getType(conv.filter);
  size_t numSpatial = inputType.getRank() - 2;
  if (filterType.getRank() != inputType.getRank())
    return n.emitError() << "filter " << filterType << " does not match input "
                         << inputType;
  conv.kernel.assign(filterType.getShape().drop_front(2).begin(),
                     filterType.getShape().end());
  if (std::optional<SmallVector<int64_t>> kernelAttr =
          n.getIntsAttr("kernel_shape");
      kernelAttr && *kernelAttr != conv.kernel)
    return n.emitError() << "attribute 'kernel_shape' does not match the "
                            "filter "
                         << filterType;
  FailureOr<SmallVector<int64_t>> strides =
      getSpatialAttr(n, "strides", numSpatial, 1);
  FailureOr<SmallVector<int64_t>> dilations =
      getSpatialAttr(n, "dilations", numSpatial, 1);
  if (failed(strides) || failed(dilations))
    return failure();
  conv.strides = std::move(*strides);
  conv.dilations = std::move(*dilations);
  return conv;
}

/// ConvTranspose: `output_shape` (or auto_pad SAME_*, whose output is
/// input * stride) sets the pads from the total padding it needs, the odd
/// unit at the end for SAME_UPPER and at the beginning otherwise, as the
/// ONNX specification says (negative total padding, a larger output, at the
/// end); explicit pads otherwise.
static LogicalResult importConvTranspose(NodeImporter &n) {
  FailureOr<ConvOperands> conv = readConvOperands(n);
  if (failed(conv))
    return failure();
  auto &[input, filter, bias, kernel, strides, dilations] = *conv;
  ArrayRef<int64_t> inputShape = getType(input).getShape();
  size_t numSpatial = kernel.size();
  FailureOr<SmallVector<int64_t>> outputPadding =
      getSpatialAttr(n, "output_padding", numSpatial, 0);
  if (failed(outputPadding))
    return failure();
  std::string autoPad = n.getStringAttr("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER" && autoPad != "VALID")
    return n.emitError() << "auto_pad '" << autoPad
                         << "' is not supported (expected NOTSET, "
                            "SAME_UPPER, SAME_LOWER or VALID)";
  std::optional<SmallVector<int64_t>> outputShape =
      n.getIntsAttr("output_shape");
  if (outputShape && outputShape->size() == numSpatial + 2)
    outputShape =
        SmallVector<int64_t>(outputShape->begin() + 2, outputShape->end());
  if (outputShape && outputShape->size() != numSpatial)
    return n.emitError() << "attribute 'output_shape' has "
                         << outputShape->size() << " values, expected "
                         << numSpatial;
  if (!outputShape && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
    outputShape.emplace();
    for (size_t i = 0; i < numSpatial; ++i)
      outputShape->push_back(inputShape[2 + i] * strides[i]);
  }
  SmallVector<int64_t> pads(2 * numSpatial, 0);
  if (outputShape) {
    for (size_t i = 0; i < numSpatial; ++i) {
      int64_t total = strides[i] * (inputShape[2 + i] - 1) +
                      (*outputPadding)[i] + (kernel[i] - 1) * dilations[i] + 1 -
                      (*outputShape)[i];
      // An output beyond the natural size grows at the end, as ONNX's
      // reference computes it (its test_convtranspose_output_shape).
      int64_t half = std::max<int64_t>(total, 0) / 2;
      pads[i] =
          autoPad == "SAME_UPPER" ? half : std::max<int64_t>(total, 0) - half;
      pads[numSpatial + i] = total - pads[i];
    }
  } else if (autoPad == "NOTSET") {
    if (std::optional<SmallVector<int64_t>> given = n.getIntsAttr("pads")) {
      if (given->size() != 2 * numSpatial)
        return n.emitError() << "attribute 'pads' has " << given->size()
                             << " values, expected " << 2 * numSpatial;
      pads = *given;
    }
  }
  Builder &b = n.getBuilder();
  SmallVector<Value> operands = {input, filter};
  if (bias)
    operands.push_back(bias);
  return setResult(
      n, n.create<ConvTransposeOp>(
             operands,
             {b.getNamedAttr("strides", b.getDenseI64ArrayAttr(strides)),
              b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(dilations)),
              b.getNamedAttr("pads", b.getDenseI64ArrayAttr(pads)),
              b.getNamedAttr("output_padding",
                             b.getDenseI64ArrayAttr(*outputPadding)),
              b.getNamedAttr("group",
                             b.getI64IntegerAttr(n.getIntAttr("group", 1)))}));
}

/// A dlc.conv of `conv` with the node's pads and group.
static FailureOr<Value> buildConv(NodeImporter &n, const ConvOperands &conv) {
  auto &[input, filter, bias, kernel, strides, dilations] = conv;
  FailureOr<SmallVector<int64_t>> pads = resolvePads(
      n, getType(input).getShape().drop_front(2), kernel, strides, dilations);
  if (failed(pads))
    return failure();
  Builder &b = n.getBuilder();
  SmallVector<Value> operands = {input, filter};
  if (bias)
    operands.push_back(bias);
  return n.create<ConvOp>(
      operands,
      {b.getNamedAttr("strides", b.getDenseI64ArrayAttr(strides)),
       b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(dilations)),
       b.getNamedAttr("pads", b.getDenseI64ArrayAttr(*pads)),
       b.getNamedAttr("group", b.getI64IntegerAttr(n.getIntAttr("group", 1)))});
}

static LogicalResult importConv(NodeImporter &n) {
  FailureOr<ConvOperands> conv = readConvOperands(n);
  if (failed(conv))
    return failure();
  return setResult(n, buildConv(n, *conv));
}

/// `value` as f64, minus `zeroPoint` (optional) when given: the exact
/// integer operand of ConvInteger and MatMulInteger (products of 8-bit
/// values summed in f64 stay exact far beyond any real reduction length).
static FailureOr<Value> shiftedToF64(NodeImporter &n, Value value,
                                     Value zeroPoint) {
  auto toF64 = [&](Value v) {
    return n.create<CastOp>(getType(v).clone(n.getBuilder().getF64Type()), {v});
  };
  FailureOr<Value> wide = toF64(value);
  if (failed(wide) || !zeroPoint)
    return wide;
  FailureOr<Value> zero = toF64(zeroPoint);
  if (failed(zero))
    return failure();
  return n.create<SubOp>({*wide, *zero});
}

/// ConvInteger and MatMulInteger: the operation on the operands minus their
/// zero points, exactly (in f64), as i32.
static LogicalResult importIntegerContraction(NodeImporter &n, bool conv) {
  FailureOr<ConvOperands> operands =
      conv ? readConvOperands(n, 0, 1, /*no bias=*/~0u) : ConvOperands();
  if (conv && failed(operands))
    return failure();
  Value lhs = conv ? operands->input : n.getInput(0);
  Value rhs = conv ? operands->filter : n.getInput(1);
  if (!lhs || !rhs)
    return failure();
  Value lhsZero = n.getOptionalInput(2), rhsZero = n.getOptionalInput(3);
  if ((n.hasInput(2) && !lhsZero) || (n.hasInput(3) && !rhsZero))
    return failure();
  // MatMulInteger's zero points may be per row of A ([M]) and per column of
  // B ([N]); ConvInteger's filter zero point per output channel ([M]).
  if (lhsZero && getType(lhsZero).getRank() == 1 && !conv &&
      getType(lhsZero).getDimSize(0) != 1) {
    FailureOr<Value> column =
        n.createReshape(lhsZero, {getType(lhsZero).getDimSize(0), 1});
    if (failed(column))
      return failure();
    lhsZero = *column;
  }
  if (rhsZero && conv && getType(rhsZero).getRank() == 1 &&
      getType(rhsZero).getDimSize(0) != 1) {
    SmallVector<int64_t> shape(getType(rhs).getRank(), 1);
    shape[0] = getType(rhsZero).getDimSize(0);
    FailureOr<Value> perChannel = n.createReshape(rhsZero, shape);
    if (failed(perChannel))
      return failure();
    rhsZero = *perChannel;
  }
  FailureOr<Value> a = shiftedToF64(n, lhs, lhsZero);
  FailureOr<Value> b = shiftedToF64(n, rhs, rhsZero);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> product;
  if (conv) {
    operands->input = *a;
    operands->filter = *b;
    product = buildConv(n, *operands);
  } else {
    product = n.create<MatMulOp>({*a, *b});
  }
  if (failed(product))
    return failure();
  Type i32 = n.getBuilder().getI32Type();
  return setResult(n,
                   n.create<CastOp>(getType(*product).clone(i32), {*product}));
}

/// A DequantizeLinear of node input `index` with the scale and zero point
/// after it, per axis `axis` when the scale is 1-D.
static FailureOr<Value> dequantizeInput(NodeImporter &n, unsigned index,
                                        int64_t axis) {
  Value input = n.getInput(index), scale = n.getInput(index + 1),
        zeroPoint = n.getInput(index + 2);
  if (!input || !scale || !zeroPoint)
    return failure();
  return buildQuantization<DequantizeLinearOp>(n, input, scale, zeroPoint,
                                               axis);
}

/// QLinearConv and QLinearMatMul by their definition: the operands
/// dequantized, the float operation, the result quantized (the filter's
/// scale may be per output channel; QLinearConv's i32 bias is dequantized
/// with scale x_scale * w_scale).
static LogicalResult importQLinear(NodeImporter &n, bool conv) {
  // Per-axis scales: the input's channels and the filter's output channels
  // (QLinearConv), A's rows and B's columns (QLinearMatMul).
  FailureOr<Value> lhs = dequantizeInput(n, 0, conv ? 1 : -2);
  FailureOr<Value> rhs = dequantizeInput(n, 3, conv ? 0 : -1);
  Value outScale = n.getInput(6), outZero = n.getInput(7);
  if (failed(lhs) || failed(rhs) || !outScale || !outZero)
    return failure();
  FailureOr<Value> result;
  if (conv) {
    FailureOr<ConvOperands> operands = readConvOperands(n, 0, 3, 8);
    if (failed(operands))
      return failure();
    operands->input = *lhs;
    operands->filter = *rhs;
    if (operands->bias) {
      FailureOr<Value> biasScale =
          n.create<MulOp>({n.getInput(1), n.getInput(4)});
      if (failed(biasScale))
        return failure();
      Value zero = n.createConstant(DenseElementsAttr::get(
          RankedTensorType::get({}, n.getBuilder().getI32Type()),
          APInt(32, 0)));
      FailureOr<Value> bias = buildQuantization<DequantizeLinearOp>(
          n, operands->bias, *biasScale, zero, 0);
      if (failed(bias))
        return failure();
      operands->bias = *bias;
    }
    result = buildConv(n, *operands);
  } else {
    result = n.create<MatMulOp>({*lhs, *rhs});
  }
  if (failed(result))
    return failure();
  return setResult(
      n, buildQuantization<QuantizeLinearOp>(n, *result, outScale, outZero, 1));
}

/// MaxPool and AveragePool share kernel, strides, pads and ceil_mode
/// (opset 10+).
static LogicalResult importPool(NodeImporter &n, bool isMax) {
  Value input = getWindowedInput(n);
  if (!input)
    return failure();
  ArrayRef<int64_t> inputShape = getType(input).getShape();
  size_t numSpatial = inputShape.size() - 2;
  std::optional<SmallVector<int64_t>> kernel = n.getIntsAttr("kernel_shape");
  if (!kernel || kernel->size() != numSpatial)
    return n.emitError() << "attribute 'kernel_shape' must have " << numSpatial
                         << " values";
  FailureOr<SmallVector<int64_t>> strides =
      getSpatialAttr(n, "strides", numSpatial, 1);
  // Dilations exist for MaxPool from opset 10 (AveragePool: opset 19).
  FailureOr<SmallVector<int64_t>> dilations =
      isMax && n.getOpset() >= 10
          ? getSpatialAttr(n, "dilations", numSpatial, 1)
          : SmallVector<int64_t>(numSpatial, 1);
  if (failed(strides) || failed(dilations))
    return failure();
  FailureOr<SmallVector<int64_t>> pads =
      resolvePads(n, inputShape.drop_front(2), *kernel, *strides, *dilations);
  if (failed(pads))
    return failure();
  Builder &b = n.getBuilder();
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("kernel_shape", b.getDenseI64ArrayAttr(*kernel)),
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(*strides)),
      b.getNamedAttr("pads", b.getDenseI64ArrayAttr(*pads)),
      b.getNamedAttr("ceil_mode", b.getBoolAttr(n.getIntAttr("ceil_mode", 0)))};
  if (!isMax) {
    attrs.push_back(
        b.getNamedAttr("count_include_pad",
                       b.getBoolAttr(n.getIntAttr("count_include_pad", 0))));
    return setResult(n, n.create<AveragePoolOp>({input}, attrs));
  }
  if (n.getIntAttr("storage_order", 0) != 0)
    return n.emitError() << "storage_order=1 (column-major Indices) is not "
                            "supported";
  if (n.hasOutput(1))
    return n.emitError() << "the Indices output ('" << n.getNode().output(1)
                         << "') is not supported";
  attrs.push_back(
      b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(*dilations)));
  return setResult(n, n.create<MaxPoolOp>({input}, attrs));
}

/// GlobalAveragePool and GlobalMaxPool: reductions over the spatial axes
/// that keep them as size-1 dimensions.
template <typename OpTy>
static LogicalResult importGlobalPool(NodeImporter &n) {
  Value input = getWindowedInput(n);
  if (!input)
    return failure();
  Builder &b = n.getBuilder();
  SmallVector<int64_t> axes =
      llvm::to_vector(llvm::seq<int64_t>(2, getType(input).getRank()));
  return setResult(
      n, n.create<OpTy>({input},
                        {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes)),
                         b.getNamedAttr("keepdims", b.getBoolAttr(true))}));
}

/// LayerNormalization: axis (default -1), epsilon; the optional Mean and
/// InvStdDev outputs are the op's second and third results. Computing in
/// float32 whatever `stash_type` says is exact for float32 inputs, the only
/// ones ONNX 1.12 tests.
static LogicalResult importLayerNorm(NodeImporter &n) {
  Value input = n.getInput(0), scale = n.getInput(1);
  if (!input || !scale)
    return failure();
  Value bias = n.getOptionalInput(2);
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", -1), getType(input).getRank());
  if (failed(axis))
    return failure();
  SmallVector<Value> operands = {input, scale};
  if (bias)
    operands.push_back(bias);
  Builder &b = n.getBuilder();
  FailureOr<Value> result = n.create<LayerNormOp>(
      operands,
      {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
       b.getNamedAttr("epsilon",
                      b.getF32FloatAttr(n.getFloatAttr("epsilon", 1e-5f)))});
  if (failed(result))
    return failure();
  Operation *op = result->getDefiningOp();
  for (unsigned i = 0; i < 3; ++i)
    n.setResult(i, op->getResult(i));
  return success();
}

static LogicalResult importInstanceNorm(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  if (inputs->size() != 3)
    return n.emitError() << "expected 3 inputs, got " << inputs->size();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<InstanceNormOp>(
             inputs->front().getType(), *inputs,
             {b.getNamedAttr("epsilon", b.getF32FloatAttr(n.getFloatAttr(
                                            "epsilon", 1e-5f)))}));
}

/// MeanVarianceNormalization: axes default to [0, 2, 3].
static LogicalResult importMeanVarianceNorm(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  SmallVector<int64_t> axes =
      n.getIntsAttr("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  FailureOr<SmallVector<int64_t>> normalized =
      n.normalizeAxes(axes, getType(input).getRank(), /*sort=*/true);
  if (failed(normalized))
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<MeanVarianceNormOp>(
             input.getType(), {input},
             {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(*normalized))}));
}

static LogicalResult importBatchNorm(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  if (inputs->size() != 5)
    return n.emitError() << "expected 5 inputs, got " << inputs->size();
  if (n.getOpset() < 9 && n.getIntAttr("spatial", 1) != 1)
    return n.emitError() << "spatial=0 (per-activation statistics) is not "
                            "supported";
  if (n.getIntAttr("training_mode", 0) != 0)
    return n.emitError() << "training_mode=1 is not supported (inference "
                            "only)";
  for (unsigned i = 1; i < n.getNumOutputs(); ++i)
    if (n.hasOutput(i))
      return n.emitError() << "training output #" << i << " ('"
                           << n.getNode().output(i)
                           << "') is not supported (inference only)";
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<BatchNormOp>(
             inputs->front().getType(), *inputs,
             {b.getNamedAttr("epsilon", b.getF32FloatAttr(n.getFloatAttr(
                                            "epsilon", 1e-5f)))}));
}

static LogicalResult importLRN(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  int64_t size = n.getIntAttr("size", 0);
  if (size <= 0)
    return n.emitError() << "attribute 'size' must be positive, got " << size;
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<LRNOp>(
             input.getType(), input,
             {b.getNamedAttr("size", b.getI64IntegerAttr(size)),
              b.getNamedAttr("alpha",
                             b.getF32FloatAttr(n.getFloatAttr("alpha", 1e-4f))),
              b.getNamedAttr("beta",
                             b.getF32FloatAttr(n.getFloatAttr("beta", 0.75f))),
              b.getNamedAttr(
                  "bias", b.getF32FloatAttr(n.getFloatAttr("bias", 1.0f)))}));
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

static LogicalResult importGemm(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  if (inputs->size() < 2 || (n.getOpset() < 11 && inputs->size() < 3))
    return n.emitError() << "missing input C (optional from opset 11 on)";
  Builder &b = n.getBuilder();
  return setResult(
      n,
      n.create<GemmOp>(
          *inputs,
          {b.getNamedAttr("alpha",
                          b.getF32FloatAttr(n.getFloatAttr("alpha", 1.0f))),
           b.getNamedAttr("beta",
                          b.getF32FloatAttr(n.getFloatAttr("beta", 1.0f))),
           b.getNamedAttr("trans_a", b.getBoolAttr(n.getIntAttr("transA", 0))),
           b.getNamedAttr("trans_b",
                          b.getBoolAttr(n.getIntAttr("transB", 0)))}));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// ReduceMean/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare take `axes` as
/// an attribute (up to opset 17),
/// ReduceSum as an optional input from opset 13 on, with
/// noop_with_empty_axes. No axes means all axes.
template <typename OpTy> static LogicalResult importReduce(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  int64_t rank = getType(input).getRank();
  bool axesAreInput = n.getOpType() == "ReduceSum" && n.getOpset() >= 13;
  std::optional<SmallVector<int64_t>> axes;
  if (axesAreInput) {
    if (n.hasInput(1)) {
      FailureOr<SmallVector<int64_t>> values = n.getConstantIntsInput(1);
      if (failed(values))
        return failure();
      axes = *values;
    }
  } else {
    axes = n.getIntsAttr("axes");
  }
  if (!axes || axes->empty()) {
    if (axesAreInput && n.getIntAttr("noop_with_empty_axes", 0)) {
      n.setResult(0, input);
      return success();
    }
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  FailureOr<SmallVector<int64_t>> normalized =
      n.normalizeAxes(*axes, rank, /*sort=*/true);
  if (failed(normalized))
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<OpTy>(
             {input},
             {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(*normalized)),
              b.getNamedAttr("keepdims",
                             b.getBoolAttr(n.getIntAttr("keepdims", 1)))}));
}

/// ArgMax/ArgMin: one axis (default 0), keepdims, select_last_index
/// (opset 12+).
template <typename OpTy> static LogicalResult importArgReduce(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", 0), getType(input).getRank());
  if (failed(axis))
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n,
      n.create<OpTy>(
          {input},
          {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
           b.getNamedAttr("keepdims",
                          b.getBoolAttr(n.getIntAttr("keepdims", 1))),
           b.getNamedAttr("select_last_index", b.getBoolAttr(n.getIntAttr(
                                                   "select_last_index", 0)))}));
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

static LogicalResult importFlatten(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  ArrayRef<int64_t> shape = getType(input).getShape();
  int64_t rank = shape.size();
  int64_t axis = n.getIntAttr("axis", 1);
  // Flatten's axis may equal the rank (everything in the outer dimension).
  if (axis < -rank || axis > rank)
    return n.emitError() << "axis " << axis << " is out of range for rank "
                         << rank;
  if (axis < 0)
    axis += rank;
  return setResult(
      n, n.createReshape(input, {getProduct(shape.take_front(axis)),
                                 getProduct(shape.drop_front(axis))}));
}

/// Reshape: `0` copies the input dimension (unless allowzero, opset 14),
/// one `-1` is inferred.
static LogicalResult importReshape(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  FailureOr<SmallVector<int64_t>> target = n.getConstantIntsInput(1);
  if (failed(target))
    return failure();
  RankedTensorType type = getType(input);
  bool allowZero = n.getIntAttr("allowzero", 0) != 0;
  SmallVector<int64_t> shape;
  std::optional<size_t> inferredIndex;
  for (const auto &[i, dim] : llvm::enumerate(*target)) {
    if (dim == 0 && !allowZero) {
      if (i >= static_cast<size_t>(type.getRank()))
        return n.emitError() << "shape entry " << i
                             << " is 0 (copy the input dimension) but the "
                                "input "
                             << type << " has no dimension " << i;
      shape.push_back(type.getDimSize(i));
    } else if (dim == -1) {
      if (inferredIndex)
        return n.emitError() << "shape has more than one -1 entry";
      inferredIndex = i;
      shape.push_back(1);
    } else if (dim < 0) {
      return n.emitError() << "shape entry " << i << " is " << dim;
    } else {
      shape.push_back(dim);
    }
  }
  int64_t known = getProduct(shape);
  if (inferredIndex) {
    if (known == 0 || type.getNumElements() % known != 0)
      return n.emitError() << "cannot infer the -1 entry of the shape when "
                              "reshaping "
                           << type;
    shape[*inferredIndex] = type.getNumElements() / known;
  }
  if (getProduct(shape) != type.getNumElements()) {
    InFlightDiagnostic diag = n.emitError();
    diag << "cannot reshape " << type << " to [";
    llvm::interleaveComma(*target, diag);
    return diag << "]";
  }
  return setResult(n, n.createReshape(input, shape));
}

/// Squeeze and Unsqueeze take `axes` as an attribute before opset 13 and as
/// an input from opset 13 on.
static FailureOr<std::optional<SmallVector<int64_t>>>
getAxesAttrOrInput(NodeImporter &n) {
  if (n.getOpset() < 13)
    return n.getIntsAttr("axes");
  if (!n.hasInput(1))
    return std::optional<SmallVector<int64_t>>();
  FailureOr<SmallVector<int64_t>> axes = n.getConstantIntsInput(1);
  if (failed(axes))
    return failure();
  return std::optional<SmallVector<int64_t>>(*axes);
}

static LogicalResult importSqueeze(NodeImporter &n) {
  Value input = n.getInput(0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes = getAxesAttrOrInput(n);
  if (!input || failed(axes))
    return failure();
  ArrayRef<int64_t> shape = getType(input).getShape();
  SmallVector<int64_t> squeezed;
  if (!*axes) {
    // No axes: every size-1 dimension.
    squeezed = llvm::to_vector(
        llvm::make_filter_range(llvm::seq<int64_t>(0, shape.size()),
                                [&](int64_t i) { return shape[i] == 1; }));
  } else {
    FailureOr<SmallVector<int64_t>> normalized =
        n.normalizeAxes(**axes, shape.size(), /*sort=*/true);
    if (failed(normalized))
      return failure();
    squeezed = *normalized;
    for (int64_t axis : squeezed)
      if (shape[axis] != 1)
        return n.emitError() << "cannot squeeze axis " << axis << " of size "
                             << shape[axis] << " in " << getType(input);
  }
  SmallVector<int64_t> result;
  for (auto [i, dim] : llvm::enumerate(shape))
    if (!llvm::is_contained(squeezed, static_cast<int64_t>(i)))
      result.push_back(dim);
  return setResult(n, n.createReshape(input, result));
}

static LogicalResult importUnsqueeze(NodeImporter &n) {
  Value input = n.getInput(0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes = getAxesAttrOrInput(n);
  if (!input || failed(axes))
    return failure();
  if (!*axes)
    return n.emitError() << "missing axes";
  ArrayRef<int64_t> shape = getType(input).getShape();
  int64_t resultRank = shape.size() + (*axes)->size();
  FailureOr<SmallVector<int64_t>> normalized =
      n.normalizeAxes(**axes, resultRank, /*sort=*/true);
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> result;
  const int64_t *next = shape.begin();
  for (int64_t i = 0; i < resultRank; ++i)
    result.push_back(llvm::is_contained(*normalized, i) ? 1 : *next++);
  return setResult(n, n.createReshape(input, result));
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

/// The values of `value` when it is a constant.
static std::optional<SmallVector<double>> getConstantNumbers(Value value) {
  if (auto constant = value.getDefiningOp<ConstantOp>())
    return readNumericElements(constant.getValue());
  return std::nullopt;
}

/// Resize (opset 10: X, scales; 11 on: X, roi, scales, sizes) and Upsample
/// (opset 7: a `scales` attribute; 9: an input). Known sizes or scales give
/// the output shape and static scales; run-time scales are an operand, the
/// output shape then the one the model declares. Upsample and Resize-10
/// map coordinates asymmetrically.
static LogicalResult importResize(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  RankedTensorType type = getType(input);
  int64_t rank = type.getRank();
  bool upsample = n.getOpType() == "Upsample";
  bool legacy = upsample || n.getOpset() < 11;
  unsigned scalesIndex = legacy ? 1 : 2, sizesIndex = 3;
  // An absent input, or an empty constant (Resize's unused roi/scales).
  auto given = [&](unsigned index) -> Value {
    if (!n.hasInput(index))
      return {};
    Value value = n.getInput(index);
    if (value && getType(value).getNumElements() == 0)
      return {};
    return value;
  };
  Value scalesInput =
      upsample && n.getOpset() < 9 ? Value() : given(scalesIndex);
  Value sizesInput = legacy ? Value() : given(sizesIndex);
  std::string transform =
      legacy ? "asymmetric"
             : n.getStringAttr("coordinate_transformation_mode", "half_pixel");
  // tf_crop_and_resize's box: a constant roi (the runner binds it).
  std::optional<SmallVector<double>> roi;
  if (transform == "tf_crop_and_resize") {
    if (Value roiInput = given(1))
      roi = getConstantNumbers(roiInput);
    if (!roi || static_cast<int64_t>(roi->size()) != 2 * rank)
      return n.emitError() << "tf_crop_and_resize needs a constant roi of "
                           << 2 * rank << " values";
  }
  SmallVector<int64_t> shape;
  std::optional<SmallVector<double>> scales;
  Value dynamicScales;
  if (upsample && n.getOpset() < 9) {
    const onnx::AttributeProto *attr = n.getAttr("scales");
    if (!attr)
      return n.emitError() << "attribute 'scales' is required";
    scales = SmallVector<double>(attr->floats().begin(), attr->floats().end());
  } else if (sizesInput) {
    if (std::optional<SmallVector<double>> sizes =
            getConstantNumbers(sizesInput)) {
      for (double size : *sizes)
        shape.push_back(static_cast<int64_t>(size));
    } else {
      RankedTensorType declared = n.getDeclaredOutputType(0);
      if (!declared)
        return n.emitError() << "run-time sizes need the output's static "
                                "shape in the model";
      shape.assign(declared.getShape().begin(), declared.getShape().end());
    }
    if (static_cast<int64_t>(shape.size()) != rank)
      return n.emitError() << "sizes has " << shape.size()
                           << " values for an input of rank " << rank;
    scales.emplace();
    for (int64_t d = 0; d < rank; ++d)
      scales->push_back(double(shape[d]) / double(type.getDimSize(d)));
  } else if (scalesInput) {
    scales = getConstantNumbers(scalesInput);
    if (!scales) {
      RankedTensorType declared = n.getDeclaredOutputType(0);
      if (!declared)
        return n.emitError() << "run-time scales need the output's static "
                                "shape in the model";
      shape.assign(declared.getShape().begin(), declared.getShape().end());
      dynamicScales = scalesInput;
      if (!getType(dynamicScales).getElementType().isF32()) {
        FailureOr<Value> cast = n.create<CastOp>(
            getType(dynamicScales).clone(n.getBuilder().getF32Type()),
            dynamicScales);
        if (failed(cast))
          return failure();
        dynamicScales = *cast;
      }
    }
  } else {
    return n.emitError() << "needs scales or sizes";
  }
  if (scales) {
    if (static_cast<int64_t>(scales->size()) != rank)
      return n.emitError() << "scales has " << scales->size()
                           << " values for an input of rank " << rank;
    if (shape.empty())
      for (int64_t d = 0; d < rank; ++d)
        shape.push_back(static_cast<int64_t>(
            std::floor(double(type.getDimSize(d)) * (*scales)[d])));
  }
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return n.emitError() << "the output shape has an empty dimension";
  std::string mode = n.getStringAttr("mode", "nearest");
  if (legacy && mode == "bilinear")
    mode = "linear";
  Builder &b = n.getBuilder();
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("mode", b.getStringAttr(mode)),
      b.getNamedAttr("coordinate_transformation_mode",
                     b.getStringAttr(transform)),
      b.getNamedAttr(
          "nearest_mode",
          b.getStringAttr(
              legacy ? "floor"
                     : n.getStringAttr("nearest_mode", "round_prefer_floor"))),
      b.getNamedAttr("cubic_coeff_a", b.getF32FloatAttr(n.getFloatAttr(
                                          "cubic_coeff_a", -0.75f))),
      b.getNamedAttr("exclude_outside",
                     b.getBoolAttr(n.getIntAttr("exclude_outside", 0)))};
  if (scales)
    attrs.push_back(b.getNamedAttr("scales", b.getDenseF64ArrayAttr(*scales)));
  if (roi) {
    attrs.push_back(b.getNamedAttr("roi", b.getDenseF64ArrayAttr(*roi)));
    attrs.push_back(b.getNamedAttr(
        "extrapolation_value",
        b.getF32FloatAttr(n.getFloatAttr("extrapolation_value", 0.0f))));
  }
  SmallVector<Value> operands = {input};
  if (dynamicScales)
    operands.push_back(dynamicScales);
  return setResult(n, n.create<ResizeOp>(type.clone(shape), operands, attrs));
}

/// Trilu: `k` is an optional scalar input, possibly computed at run time.
static LogicalResult importTrilu(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  SmallVector<Value> operands = {input};
  if (Value k = n.getOptionalInput(1)) {
    RankedTensorType type = getType(k);
    if (!type.getElementType().isInteger(64) || type.getNumElements() != 1)
      return n.emitError() << "k must be one int64 value, got " << type;
    FailureOr<Value> scalar = n.createReshape(k, {});
    if (failed(scalar))
      return failure();
    operands.push_back(*scalar);
  }
  Builder &b = n.getBuilder();
  return setResult(
      n,
      n.create<TriluOp>(
          input.getType(), operands,
          {b.getNamedAttr("upper", b.getBoolAttr(n.getIntAttr("upper", 1)))}));
}

/// CumSum: the axis tensor must be a constant (the conformance runner binds
/// a graph input that gives it).
static LogicalResult importCumSum(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  FailureOr<SmallVector<int64_t>> axes = n.getConstantIntsInput(1);
  if (failed(axes))
    return failure();
  if (axes->size() != 1)
    return n.emitError() << "the axis must be one value, got " << axes->size();
  FailureOr<int64_t> axis =
      n.normalizeAxis((*axes)[0], getType(input).getRank());
  if (failed(axis))
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<CumSumOp>(
             input.getType(), {input},
             {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
              b.getNamedAttr("exclusive",
                             b.getBoolAttr(n.getIntAttr("exclusive", 0))),
              b.getNamedAttr("reverse",
                             b.getBoolAttr(n.getIntAttr("reverse", 0)))}));
}

/// DepthToSpace and SpaceToDepth are a reshape, a transpose and a reshape
/// (ONNX's own definition), so the memory passes see views and one copy.
static LogicalResult importDepthSpace(NodeImporter &n, bool toSpace) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  RankedTensorType type = getType(input);
  if (type.getRank() != 4)
    return n.emitError() << "expects a 4-D input (N, C, H, W), got " << type;
  int64_t b = n.getIntAttr("blocksize", 0);
  int64_t batch = type.getDimSize(0), c = type.getDimSize(1),
          h = type.getDimSize(2), w = type.getDimSize(3);
  if (b <= 0)
    return n.emitError() << "blocksize must be positive, got " << b;
  SmallVector<int64_t> shape6, perm, shape4;
  if (toSpace) {
    if (c % (b * b))
      return n.emitError() << "blocksize^2 (" << b * b
                           << ") must divide the channels (" << c << ")";
    bool crd = n.getStringAttr("mode", "DCR") == "CRD";
    if (!crd && n.getStringAttr("mode", "DCR") != "DCR")
      return n.emitError() << "mode '" << n.getStringAttr("mode", "")
                           << "' is neither DCR nor CRD";
    shape6 = crd ? SmallVector<int64_t>{batch, c / (b * b), b, b, h, w}
                 : SmallVector<int64_t>{batch, b, b, c / (b * b), h, w};
    perm = crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3}
               : SmallVector<int64_t>{0, 3, 4, 1, 5, 2};
    shape4 = {batch, c / (b * b), h * b, w * b};
  } else {
    if (h % b || w % b)
      return n.emitError() << "blocksize (" << b
                           << ") must divide the height and width (" << h
                           << ", " << w << ")";
    shape6 = {batch, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    shape4 = {batch, c * b * b, h / b, w / b};
  }
  FailureOr<Value> blocks = n.createReshape(input, shape6);
  if (failed(blocks))
    return failure();
  Builder &builder = n.getBuilder();
  FailureOr<Value> moved = n.create<TransposeOp>(
      {*blocks},
      {builder.getNamedAttr("perm", builder.getDenseI64ArrayAttr(perm))});
  if (failed(moved))
    return failure();
  return setResult(n, n.createReshape(*moved, shape4));
}

/// EyeLike: a constant of the input's shape (static), ones on diagonal k.
static LogicalResult importEyeLike(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  RankedTensorType type = getType(input);
  if (type.getRank() != 2)
    return n.emitError() << "expects a 2-D input, got " << type;
  Type element = type.getElementType();
  if (n.hasAttr("dtype")) {
    int64_t dtype = n.getIntAttr("dtype", 0);
    element = convertONNXElementType(dtype, n.getContext());
    if (!element)
      return n.emitError() << "dtype " << dtype << " is not supported";
  }
  int64_t k = n.getIntAttr("k", 0);
  int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
  auto resultType = RankedTensorType::get(type.getShape(), element);
  SmallVector<Attribute> values;
  Builder &b = n.getBuilder();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) {
      double value = j - i == k ? 1.0 : 0.0;
      values.push_back(isa<FloatType>(element)
                           ? Attribute(b.getFloatAttr(element, value))
                           : Attribute(b.getIntegerAttr(element, value)));
    }
  n.setResult(0, n.createConstant(DenseElementsAttr::get(resultType, values)));
  return success();
}

static LogicalResult importTranspose(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  int64_t rank = getType(input).getRank();
  // The default permutation reverses the dimensions.
  SmallVector<int64_t> perm = n.getIntsAttr("perm").value_or(
      llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank))));
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<TransposeOp>(
             {input}, {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))}));
}

static LogicalResult importConcat(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  if (inputs->empty())
    return n.emitError() << "needs at least one input";
  FailureOr<int64_t> axis = n.normalizeAxis(n.getIntAttr("axis", 0),
                                            getType(inputs->front()).getRank());
  if (failed(axis))
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<ConcatOp>(
             *inputs, {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis))}));
}

/// Range: all three inputs must be constants (the conformance runner binds
/// them), so the result is a constant of max(ceil((limit - start) /
/// delta), 0) elements start + i * delta, computed exactly for integers.
static LogicalResult importRange(NodeImporter &n) {
  Value start = n.getInput(0);
  if (!start || !n.getInput(1) || !n.getInput(2))
    return failure();
  Type element = getType(start).getElementType();
  SmallVector<Attribute> values;
  if (isa<FloatType>(element)) {
    SmallVector<double> bounds;
    for (unsigned i = 0; i < 3; ++i) {
      FailureOr<std::optional<double>> value = n.getConstantScalarInput(i);
      if (failed(value))
        return failure();
      bounds.push_back(**value);
    }
    if (bounds[2] == 0 || !std::isfinite(bounds[0] + bounds[1] + bounds[2]))
      return n.emitError() << "delta must be finite and non-zero";
    double count = std::ceil((bounds[1] - bounds[0]) / bounds[2]);
    if (count > double(1 << 30))
      return n.emitError() << "the range has too many elements";
    for (int64_t i = 0; i < count; ++i)
      values.push_back(FloatAttr::get(element, bounds[0] + i * bounds[2]));
  } else {
    SmallVector<int64_t> bounds;
    for (unsigned i = 0; i < 3; ++i) {
      FailureOr<SmallVector<int64_t>> value = n.getConstantIntsInput(i);
      if (failed(value))
        return failure();
      if (value->size() != 1)
        return n.emitError() << "input #" << i << " must be a scalar";
      bounds.push_back(value->front());
    }
    if (bounds[2] == 0)
      return n.emitError() << "delta must be non-zero";
    int64_t span = bounds[1] - bounds[0];
    int64_t count = span / bounds[2] +
                    (span % bounds[2] != 0 && (span < 0) == (bounds[2] < 0));
    if (count > (1 << 30))
      return n.emitError() << "the range has too many elements";
    for (int64_t i = 0; i < count; ++i)
      values.push_back(IntegerAttr::get(element, bounds[0] + i * bounds[2]));
  }
  auto type = RankedTensorType::get({int64_t(values.size())}, element);
  n.setResult(0, n.createConstant(DenseElementsAttr::get(type, values)));
  return success();
}

/// HannWindow, HammingWindow and BlackmanWindow: the length must be a
/// constant (the conformance runner binds it), so the window is a constant
/// w[n] = a0 - a1 cos(2 pi n / N') + a2 cos(4 pi n / N'), N' the length
/// when periodic, the length - 1 when symmetric (ONNX's definitions).
static LogicalResult importWindow(NodeImporter &n, double a0, double a2) {
  if (!n.getInput(0))
    return failure();
  FailureOr<SmallVector<int64_t>> size = n.getConstantIntsInput(0);
  if (failed(size))
    return failure();
  if (size->size() != 1 || size->front() < 1 || size->front() > (1 << 24))
    return n.emitError() << "the window length must be one value in [1, "
                         << (1 << 24) << "]";
  Type element = convertONNXElementType(n.getIntAttr("output_datatype", 1),
                                        n.getContext());
  if (!element)
    return n.emitError() << "output_datatype "
                         << n.getIntAttr("output_datatype", 1)
                         << " is not supported";
  int64_t length = size->front();
  double span = double(n.getIntAttr("periodic", 1) ? length : length - 1);
  double a1 = 1.0 - a0 - a2;
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < length; ++i) {
    double angle = span > 0 ? 2 * llvm::numbers::pi * double(i) / span : 0.0;
    double w = a0 - a1 * std::cos(angle) + a2 * std::cos(2 * angle);
    values.push_back(isa<FloatType>(element)
                         ? Attribute(FloatAttr::get(element, w))
                         : Attribute(IntegerAttr::get(
                               element, static_cast<int64_t>(std::trunc(w)))));
  }
  n.setResult(0, n.createConstant(DenseElementsAttr::get(
                     RankedTensorType::get({length}, element), values)));
  return success();
}

/// OneHot: depth must be a constant (the conformance runner binds it).
static LogicalResult importOneHot(NodeImporter &n) {
  Value indices = n.getInput(0), values = n.getInput(2);
  if (!indices || !values || !n.getInput(1))
    return failure();
  FailureOr<std::optional<double>> depth = n.getConstantScalarInput(1);
  if (failed(depth))
    return failure();
  if (!(**depth >= 1) || **depth > double(INT32_MAX))
    return n.emitError() << "depth must be at least 1, got " << **depth;
  int64_t rank = getType(indices).getRank();
  FailureOr<int64_t> axis = n.normalizeAxis(n.getIntAttr("axis", -1), rank + 1);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(getType(indices).getShape());
  shape.insert(shape.begin() + *axis, static_cast<int64_t>(**depth));
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<OneHotOp>(
             RankedTensorType::get(shape, getType(values).getElementType()),
             {indices, values},
             {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis))}));
}

/// TopK: k must be a constant (the conformance runner binds it); the
/// results are sorted whatever `sorted` says (ONNX allows any order then).
static LogicalResult importTopK(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input || !n.getInput(1))
    return failure();
  FailureOr<SmallVector<int64_t>> k = n.getConstantIntsInput(1);
  if (failed(k))
    return failure();
  if (k->size() != 1)
    return n.emitError() << "k must hold one value, got " << k->size();
  RankedTensorType type = getType(input);
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", -1), type.getRank());
  if (failed(axis))
    return failure();
  if (k->front() < 1 || k->front() > type.getDimSize(*axis))
    k->front() = 0; // dlc.top_k's verifier reports it.
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = k->front();
  Builder &b = n.getBuilder();
  Type resultTypes[] = {type.clone(shape),
                        RankedTensorType::get(shape, b.getI64Type())};
  FailureOr<Value> values = n.create<TopKOp>(
      TypeRange(resultTypes), {input},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
       b.getNamedAttr("largest", b.getBoolAttr(n.getIntAttr("largest", 1)))});
  if (failed(values))
    return failure();
  Operation *op = values->getDefiningOp();
  n.setResult(0, op->getResult(0));
  n.setResult(1, op->getResult(1));
  return success();
}

/// GatherND's result: indices' outer shape, then data's trailing one.
static LogicalResult importGatherND(NodeImporter &n) {
  Value data = n.getInput(0), indices = n.getInput(1);
  if (!data || !indices)
    return failure();
  RankedTensorType dataType = getType(data), indicesType = getType(indices);
  int64_t batch = n.getIntAttr("batch_dims", 0);
  if (indicesType.getRank() < 1 || batch < 0 ||
      batch + indicesType.getShape().back() > dataType.getRank())
    return n.emitError() << "index tuples do not fit data of rank "
                         << dataType.getRank();
  SmallVector<int64_t> shape(indicesType.getShape().drop_back());
  llvm::append_range(shape, dataType.getShape().drop_front(
                                batch + indicesType.getShape().back()));
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<GatherNDOp>(
             dataType.clone(shape), {data, indices},
             {b.getNamedAttr("batch_dims", b.getI64IntegerAttr(batch))}));
}

/// MaxUnpool: X's values at the flat positions MaxPool's Indices gave, zeros
/// elsewhere: a ScatterND into a zero vector of the unpooled size ((in - 1)
/// * stride - pads + kernel per spatial dimension), reshaped. An
/// `output_shape` input (constant; the runner binds it) pads or crops that
/// at the end of each dimension, as ONNX's reference does.
static LogicalResult importMaxUnpool(NodeImporter &n) {
  Value input = n.getInput(0), indices = n.getInput(1);
  if (!input || !indices)
    return failure();
  RankedTensorType type = getType(input);
  int64_t spatial = type.getRank() - 2;
  if (spatial < 1 || getType(indices).getShape() != type.getShape())
    return n.emitError() << "the indices must have the input's shape " << type
                         << " (N x C x spatial...)";
  std::optional<SmallVector<int64_t>> kernel = n.getIntsAttr("kernel_shape");
  SmallVector<int64_t> strides(spatial, 1), pads(2 * spatial, 0);
  if (auto s = n.getIntsAttr("strides"))
    strides = *s;
  if (auto p = n.getIntsAttr("pads"))
    pads = *p;
  if (!kernel || static_cast<int64_t>(kernel->size()) != spatial ||
      static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return n.emitError() << "kernel_shape, strides and pads must have one "
                            "entry per spatial dimension ("
                         << spatial << ")";
  SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1)};
  for (int64_t d = 0; d < spatial; ++d)
    shape.push_back((type.getDimSize(d + 2) - 1) * strides[d] - pads[d] -
                    pads[spatial + d] + (*kernel)[d]);
  SmallVector<int64_t> outputShape = shape;
  if (n.hasInput(2)) {
    FailureOr<SmallVector<int64_t>> given = n.getConstantIntsInput(2);
    if (failed(given))
      return failure();
    outputShape = *given;
  }
  auto isValid = [&](ArrayRef<int64_t> dims) {
    return static_cast<int64_t>(dims.size()) == type.getRank() &&
           llvm::all_of(dims,
                        [](int64_t d) { return d >= 1 && d <= INT32_MAX; });
  };
  if (!isValid(shape) || !isValid(outputShape))
    return n.emitError() << "the output shape must have rank " << type.getRank()
                         << " and positive dimensions";
  int64_t total = getProduct(shape), count = type.getNumElements();
  Type element = type.getElementType();
  Builder &b = n.getBuilder();
  auto flatType = RankedTensorType::get({total}, element);
  Value zeros = n.createConstant(
      DenseElementsAttr::get(flatType, b.getZeroAttr(element)));
  FailureOr<Value> positions = n.createReshape(indices, {count, 1});
  FailureOr<Value> values = n.createReshape(input, {count});
  if (failed(positions) || failed(values))
    return failure();
  FailureOr<Value> result = n.create<ScatterNDOp>(
      flatType, {zeros, *positions, *values},
      {b.getNamedAttr("reduction", b.getStringAttr("none"))});
  if (failed(result))
    return failure();
  result = n.createReshape(*result, shape);
  if (failed(result) || outputShape == shape)
    return setResult(n, result);
  SmallVector<int64_t> padding(type.getRank(), 0);
  for (int64_t d = 0; d < type.getRank(); ++d)
    padding.push_back(outputShape[d] - shape[d]);
  return setResult(
      n, n.create<PadOp>(
             {*result},
             {b.getNamedAttr("pads", b.getDenseI64ArrayAttr(padding))}));
}

/// ScatterElements (and its opset-9 name Scatter) and ScatterND.
static LogicalResult importScatter(NodeImporter &n, bool elements) {
  Value data = n.getInput(0), indices = n.getInput(1), updates = n.getInput(2);
  if (!data || !indices || !updates)
    return failure();
  Builder &b = n.getBuilder();
  SmallVector<NamedAttribute> attrs = {b.getNamedAttr(
      "reduction", b.getStringAttr(n.getStringAttr("reduction", "none")))};
  if (!elements)
    return setResult(n, n.create<ScatterNDOp>(data.getType(),
                                              {data, indices, updates}, attrs));
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", 0), getType(data).getRank());
  if (failed(axis))
    return failure();
  attrs.push_back(b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)));
  return setResult(n, n.create<ScatterElementsOp>(
                          data.getType(), {data, indices, updates}, attrs));
}

/// A rank-0 constant of `element` (float or integer).
static Value createScalarConstant(NodeImporter &n, Type element, double value) {
  Builder &b = n.getBuilder();
  Attribute attr =
      isa<FloatType>(element)
          ? Attribute(b.getFloatAttr(element, value))
          : Attribute(b.getIntegerAttr(element, static_cast<int64_t>(value)));
  return n.createConstant(
      DenseElementsAttr::get(RankedTensorType::get({}, element), attr));
}

/// NegativeLogLikelihoodLoss on `logProb` (N x C x d...) and `target`
/// (N x d...), as ONNX's reference computes it: loss = -logProb[n, t, d]
/// times weight[t] (1 without weights, 0 where t is ignore_index); `mean`
/// divides the sum by the sum of those weights.
static FailureOr<Value> buildNLLLoss(NodeImporter &n, Value logProb,
                                     Value target, Value weight) {
  Builder &b = n.getBuilder();
  RankedTensorType inputType = getType(logProb), targetType = getType(target);
  SmallVector<int64_t> expected(inputType.getShape());
  if (!expected.empty())
    expected.erase(expected.begin() + std::min<size_t>(1, expected.size() - 1));
  if (inputType.getRank() < 2 ||
      targetType.getShape() != ArrayRef<int64_t>(expected))
    return n.emitError() << "the target " << targetType
                         << " must have the input's shape without its class "
                            "dimension (input "
                         << inputType << ")";
  std::string reduction = n.getStringAttr("reduction", "mean");
  if (!llvm::is_contained({"none", "sum", "mean"}, reduction))
    return n.emitError() << "reduction '" << reduction
                         << "' is not none, sum or mean";
  Type element = inputType.getElementType();
  Type indexElement = targetType.getElementType();
  // Ignored targets read class 0 and weigh 0.
  Value safeTarget = target, ignored, weights;
  if (n.hasAttr("ignore_index")) {
    Value ignore =
        createScalarConstant(n, indexElement, n.getIntAttr("ignore_index", 0));
    FailureOr<Value> isIgnored = n.create<EqualOp>({target, ignore});
    if (failed(isIgnored))
      return failure();
    ignored = *isIgnored;
    FailureOr<Value> safe = n.create<WhereOp>(
        {ignored, createScalarConstant(n, indexElement, 0), target});
    if (failed(safe))
      return failure();
    safeTarget = *safe;
  }
  SmallVector<int64_t> withClass(targetType.getShape());
  withClass.insert(withClass.begin() + 1, 1);
  FailureOr<Value> classIndex = n.createReshape(safeTarget, withClass);
  if (failed(classIndex))
    return failure();
  FailureOr<Value> picked = n.create<GatherElementsOp>(
      RankedTensorType::get(withClass, element), {logProb, *classIndex},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(1))});
  if (failed(picked))
    return failure();
  picked = n.createReshape(*picked, targetType.getShape());
  if (failed(picked))
    return failure();
  FailureOr<Value> loss = n.create<NegOp>(picked->getType(), {*picked});
  if (failed(loss))
    return failure();
  if (weight) {
    FailureOr<Value> gathered = n.create<GatherOp>(
        {weight, safeTarget}, {b.getNamedAttr("axis", b.getI64IntegerAttr(0))});
    if (failed(gathered))
      return failure();
    weights = *gathered;
  }
  if (ignored) {
    FailureOr<Value> kept = n.create<WhereOp>(
        {ignored, createScalarConstant(n, element, 0),
         weights ? weights : createScalarConstant(n, element, 1)});
    if (failed(kept))
      return failure();
    weights = *kept;
  }
  if (weights)
    loss = n.create<MulOp>({*loss, weights});
  if (failed(loss) || reduction == "none")
    return loss;
  SmallVector<NamedAttribute> reduceAll = {
      b.getNamedAttr("axes", b.getDenseI64ArrayAttr(llvm::to_vector(
                                 llvm::seq<int64_t>(0, targetType.getRank())))),
      b.getNamedAttr("keepdims", b.getBoolAttr(false))};
  if (reduction == "mean" && !weights)
    return n.create<ReduceMeanOp>({*loss}, reduceAll);
  FailureOr<Value> total = n.create<ReduceSumOp>({*loss}, reduceAll);
  if (failed(total) || reduction == "sum")
    return total;
  FailureOr<Value> totalWeight = n.create<ReduceSumOp>({weights}, reduceAll);
  if (failed(totalWeight))
    return failure();
  return n.create<DivOp>({*total, *totalWeight});
}

static LogicalResult importNLLLoss(NodeImporter &n) {
  Value input = n.getInput(0), target = n.getInput(1);
  if (!input || !target)
    return failure();
  return setResult(n, buildNLLLoss(n, input, target, n.getOptionalInput(2)));
}

/// SoftmaxCrossEntropyLoss: NegativeLogLikelihoodLoss of the LogSoftmax
/// along the classes (also the optional second output).
static LogicalResult importSoftmaxCrossEntropyLoss(NodeImporter &n) {
  Value scores = n.getInput(0), labels = n.getInput(1);
  if (!scores || !labels)
    return failure();
  if (getType(scores).getRank() < 2)
    return n.emitError() << "scores must have rank 2 or more (N x C x ...)";
  Builder &b = n.getBuilder();
  FailureOr<Value> logProb =
      n.create<LogSoftmaxOp>(scores.getType(), {scores},
                             {b.getNamedAttr("axis", b.getI64IntegerAttr(1))});
  if (failed(logProb))
    return failure();
  FailureOr<Value> loss =
      buildNLLLoss(n, *logProb, labels, n.getOptionalInput(2));
  if (failed(loss))
    return failure();
  n.setResult(0, *loss);
  n.setResult(1, *logProb);
  return success();
}

/// Einsum: ONNX's equation (spaces, `...`, maybe no `->`) written out as
/// dlc.einsum's explicit letters-only form. `...` becomes letters no term
/// uses, right-aligned across inputs (numpy broadcasting); an implicit
/// output is the `...` labels, then the labels used once, alphabetically.
static LogicalResult importEinsum(NodeImporter &n) {
  FailureOr<SmallVector<Value>> inputs = n.getInputs();
  if (failed(inputs))
    return failure();
  std::string equation;
  for (char c : n.getStringAttr("equation", ""))
    if (!llvm::isSpace(c))
      equation.push_back(c);
  StringRef lhs = equation, output;
  bool explicitOutput = lhs.contains("->");
  if (explicitOutput)
    std::tie(lhs, output) = lhs.split("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != inputs->size())
    return n.emitError() << "equation '" << equation << "' has " << terms.size()
                         << " input terms for " << inputs->size() << " inputs";
  // How many dimensions `...` covers in each term, and letters for them.
  SmallVector<int64_t> ellipsisRanks;
  int64_t ellipsisRank = 0;
  for (auto [term, input] : llvm::zip(terms, *inputs)) {
    int64_t labels = llvm::count_if(term, llvm::isAlpha);
    int64_t covered =
        term.contains("...") ? getType(input).getRank() - labels : 0;
    if (covered < 0)
      return n.emitError() << "term '" << term << "' has more labels than "
                           << "its input's rank " << getType(input).getRank();
    ellipsisRanks.push_back(covered);
    ellipsisRank = std::max(ellipsisRank, covered);
  }
  std::string ellipsisLabels;
  for (char c :
       StringRef("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
    if (static_cast<int64_t>(ellipsisLabels.size()) < ellipsisRank &&
        !StringRef(equation).contains(c))
      ellipsisLabels.push_back(c);
  if (static_cast<int64_t>(ellipsisLabels.size()) < ellipsisRank)
    return n.emitError() << "'...' covers more dimensions than letters remain";
  auto expand = [&](StringRef term, int64_t covered) {
    std::string expanded = term.str();
    size_t at = expanded.find("...");
    if (at != std::string::npos)
      expanded.replace(at, 3, ellipsisLabels.substr(ellipsisRank - covered));
    return expanded;
  };
  std::string written;
  std::map<char, int> uses;
  for (auto [i, term] : llvm::enumerate(terms)) {
    std::string expanded = expand(term, ellipsisRanks[i]);
    for (char label : expanded)
      ++uses[label];
    written += (i ? "," : "") + expanded;
  }
  written += "->";
  if (explicitOutput) {
    written += expand(output, ellipsisRank);
  } else {
    written += ellipsisLabels;
    for (auto [label, count] : uses)
      if (count == 1 && !llvm::is_contained(ellipsisLabels, label))
        written.push_back(label);
  }
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<EinsumOp>(
             *inputs, {b.getNamedAttr("equation", b.getStringAttr(written))}));
}

static FailureOr<Value> createSlice(NodeImporter &n, Value input,
                                    ArrayRef<int64_t> starts,
                                    ArrayRef<int64_t> ends,
                                    ArrayRef<int64_t> steps) {
  Builder &b = n.getBuilder();
  return n.create<SliceOp>(
      {input}, {b.getNamedAttr("starts", b.getDenseI64ArrayAttr(starts)),
                b.getNamedAttr("ends", b.getDenseI64ArrayAttr(ends)),
                b.getNamedAttr("steps", b.getDenseI64ArrayAttr(steps))});
}

namespace {
/// Builds the ops of an importer that composes many: after the first
/// failure (already reported on the node) every further op is skipped and
/// null is returned, so the importer checks once at the end.
class OpChain {
public:
  explicit OpChain(NodeImporter &n) : n(n) {}
  template <typename OpTy>
  Value create(ValueRange operands, ArrayRef<NamedAttribute> attrs = {},
               Type resultType = {}) {
    if (hasFailed || llvm::any_of(operands, [](Value v) { return !v; })) {
      hasFailed = true;
      return {};
    }
    FailureOr<Value> result = n.create<OpTy>(resultType, operands, attrs);
    if (failed(result)) {
      hasFailed = true;
      return {};
    }
    return *result;
  }
  Value slice(Value input, ArrayRef<int64_t> starts, ArrayRef<int64_t> ends) {
    if (hasFailed || !input)
      return {};
    SmallVector<int64_t> steps(starts.size(), 1);
    FailureOr<Value> result = createSlice(n, input, starts, ends, steps);
    hasFailed |= failed(result);
    return succeeded(result) ? *result : Value();
  }
  Value reshape(Value input, ArrayRef<int64_t> shape) {
    if (hasFailed || !input)
      return {};
    FailureOr<Value> result = n.createReshape(input, shape);
    hasFailed |= failed(result);
    return succeeded(result) ? *result : Value();
  }
  bool hasFailed = false;

private:
  NodeImporter &n;
};
} // namespace

enum class RecurrentKind { RNN, GRU, LSTM };

/// RNN, GRU and LSTM, unrolled over the (static) sequence: per direction and
/// time step, each gate is x_t W_g^T + H R_g^T + Wb_g + Rb_g (Gemm with
/// transposed weights; the input part for all steps in one Gemm) through
/// its activation, with ONNX's equations (GRU
/// gates z, r, h and linear_before_reset; LSTM gates i, o, f, c with
/// peepholes). sequence_lens (forward only) holds each batch entry's state
/// past its length and writes zeros to Y there.
static LogicalResult importRecurrent(NodeImporter &n, RecurrentKind kind) {
  Value x = n.getInput(0), w = n.getInput(1), r = n.getInput(2);
  if (!x || !w || !r)
    return failure();
  bool isLSTM = kind == RecurrentKind::LSTM, isGRU = kind == RecurrentKind::GRU;
  int64_t gates = isLSTM ? 4 : isGRU ? 3 : 1;
  Value bias = n.getOptionalInput(3), lengths = n.getOptionalInput(4);
  Value initialH = n.getOptionalInput(5);
  Value initialC = isLSTM ? n.getOptionalInput(6) : Value();
  Value peepholes = isLSTM ? n.getOptionalInput(7) : Value();
  int64_t hidden = n.getIntAttr("hidden_size", 0);
  bool batchFirst = n.getIntAttr("layout", 0) != 0;
  std::string direction = n.getStringAttr("direction", "forward");
  if (!llvm::is_contained({"forward", "reverse", "bidirectional"}, direction))
    return n.emitError() << "direction '" << direction
                         << "' is not forward, reverse or bidirectional";
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  RankedTensorType xType = getType(x);
  if (xType.getRank() != 3 || hidden < 1)
    return n.emitError() << "expects X of rank 3 and a positive hidden_size";
  int64_t seq = xType.getDimSize(batchFirst ? 1 : 0);
  int64_t batch = xType.getDimSize(batchFirst ? 0 : 1);
  int64_t inputSize = xType.getDimSize(2);
  Type element = xType.getElementType();
  auto hasShape = [](Value v, ArrayRef<int64_t> shape) {
    return !v || getType(v).getShape() == shape;
  };
  if (!hasShape(w, {dirs, gates * hidden, inputSize}) ||
      !hasShape(r, {dirs, gates * hidden, hidden}) ||
      !hasShape(bias, {dirs, 2 * gates * hidden}) ||
      !hasShape(lengths, {batch}) ||
      !hasShape(initialH, {dirs, batch, hidden}) ||
      !hasShape(initialC, {dirs, batch, hidden}) ||
      !hasShape(peepholes, {dirs, 3 * hidden}))
    return n.emitError() << "W, R, B, sequence_lens, initial states or P do "
                            "not fit X "
                         << xType << ", hidden_size " << hidden << " and "
                         << dirs << " direction(s)";
  if (n.hasAttr("clip"))
    return n.emitError() << "clip is not supported";
  if (isLSTM && n.getIntAttr("input_forget", 0))
    return n.emitError() << "input_forget is not supported";
  if (lengths && direction != "forward")
    return n.emitError() << "sequence_lens with a " << direction
                         << " direction is not supported";
  SmallVector<std::string> activations;
  if (const onnx::AttributeProto *attr = n.getAttr("activations")) {
    activations.assign(attr->strings().begin(), attr->strings().end());
  } else {
    SmallVector<std::string> defaults =
        isLSTM  ? SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"}
        : isGRU ? SmallVector<std::string>{"Sigmoid", "Tanh"}
                : SmallVector<std::string>{"Tanh"};
    for (int64_t d = 0; d < dirs; ++d)
      activations.append(defaults.begin(), defaults.end());
  }
  int64_t perDirection = isLSTM ? 3 : isGRU ? 2 : 1;
  if (static_cast<int64_t>(activations.size()) != perDirection * dirs)
    return n.emitError() << "expects " << perDirection * dirs
                         << " activations, got " << activations.size();
  for (const std::string &name : activations)
    if (!llvm::is_contained({"Sigmoid", "Tanh", "Relu"}, name))
      return n.emitError() << "activation '" << name
                           << "' is not supported (Sigmoid, Tanh, Relu)";

  Builder &b = n.getBuilder();
  OpChain c(n);
  auto stateType = RankedTensorType::get({batch, hidden}, element);
  auto scalar = [&](double value) {
    return n.createConstant(DenseElementsAttr::get(
        RankedTensorType::get({}, element), b.getFloatAttr(element, value)));
  };
  Value zeros = n.createConstant(
      DenseElementsAttr::get(stateType, b.getFloatAttr(element, 0.0)));
  auto activate = [&](StringRef name, Value v) -> Value {
    if (name == "Sigmoid")
      return c.create<SigmoidOp>({v}, {}, stateType);
    if (name == "Tanh")
      return c.create<TanhOp>({v}, {}, stateType);
    return c.create<ReluOp>({v}, {}, stateType);
  };
  auto add = [&](Value a, Value v) { return c.create<AddOp>({a, v}); };
  auto mul = [&](Value a, Value v) { return c.create<MulOp>({a, v}); };
  auto times = [&](Value v, Value weight) {
    return c.create<GemmOp>({v, weight},
                            {b.getNamedAttr("trans_b", b.getBoolAttr(true))});
  };
  // Row `d` of a [dirs, N, ...] tensor, rows [begin, end) of dimension 1.
  auto part = [&](Value v, int64_t d, int64_t begin, int64_t end) {
    ArrayRef<int64_t> shape = getType(v).getShape();
    SmallVector<int64_t> starts(shape.size(), 0), ends(shape);
    starts[0] = d;
    ends[0] = d + 1;
    starts[1] = begin;
    ends[1] = end;
    SmallVector<int64_t> kept(shape.drop_front());
    kept[0] = end - begin;
    return c.reshape(c.slice(v, starts, ends), kept);
  };

  // X as [seq * batch, input], time-major.
  Value timeMajor =
      batchFirst
          ? c.create<TransposeOp>(
                {x},
                {b.getNamedAttr("perm", b.getDenseI64ArrayAttr({1, 0, 2}))})
          : x;
  timeMajor = c.reshape(timeMajor, {seq * batch, inputSize});
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    bool reverse = direction == "reverse" || d == 1;
    ArrayRef<std::string> act = ArrayRef<std::string>(activations)
                                    .slice(d * perDirection, perDirection);
    SmallVector<Value> wg, rg, wb, rb;
    for (int64_t g = 0; g < gates; ++g) {
      wg.push_back(part(w, d, g * hidden, (g + 1) * hidden));
      rg.push_back(part(r, d, g * hidden, (g + 1) * hidden));
      wb.push_back(bias ? part(bias, d, g * hidden, (g + 1) * hidden)
                        : Value());
      rb.push_back(
          bias ? part(bias, d, (gates + g) * hidden, (gates + g + 1) * hidden)
               : Value());
    }
    Value h = initialH ? part(initialH, d, 0, batch) : zeros;
    Value cell = initialC ? part(initialC, d, 0, batch) : zeros;
    SmallVector<Value> peep;
    for (int64_t p = 0; p < 3 && peepholes; ++p)
      peep.push_back(part(peepholes, d, p * hidden, (p + 1) * hidden));
    // x_t W_g^T + Wb_g does not depend on the state: one Gemm per gate
    // over every step (rows t * batch .. (t + 1) * batch).
    SmallVector<Value> projected;
    for (int64_t g = 0; g < gates; ++g) {
      Value v = times(timeMajor, wg[g]);
      projected.push_back(bias ? add(v, wb[g]) : v);
    }
    SmallVector<Value> steps(seq);
    for (int64_t i = 0; i < seq; ++i) {
      int64_t t = reverse ? seq - 1 - i : i;
      auto fromInput = [&](int64_t g) {
        return c.slice(projected[g], {t * batch, 0}, {(t + 1) * batch, hidden});
      };
      auto fromState = [&](int64_t g, Value state) {
        Value v = times(state, rg[g]);
        return bias ? add(v, rb[g]) : v;
      };
      auto gate = [&](int64_t g) {
        Value input = fromInput(g);
        return add(input, fromState(g, h));
      };
      Value next, nextCell = cell;
      if (kind == RecurrentKind::RNN) {
        next = activate(act[0], gate(0));
      } else if (isGRU) {
        Value z = activate(act[0], gate(0));
        Value reset = activate(act[0], gate(1));
        // Ops are built statement by statement: the order of evaluation of
        // call arguments is unspecified, the IR's order should not be.
        Value candidate = fromInput(2);
        if (n.getIntAttr("linear_before_reset", 0)) {
          Value state = fromState(2, h);
          candidate = add(candidate, mul(reset, state));
        } else {
          Value resetState = mul(reset, h);
          candidate = add(candidate, fromState(2, resetState));
        }
        candidate = activate(act[1], candidate);
        // (1 - z) * candidate + z * h
        Value keep = c.create<SubOp>({scalar(1.0), z});
        Value fresh = mul(keep, candidate);
        next = add(fresh, mul(z, h));
      } else {
        Value in = gate(0);
        Value out = gate(1);
        Value forget = gate(2);
        Value cand = gate(3);
        if (peepholes) {
          in = add(in, mul(peep[0], cell));
          forget = add(forget, mul(peep[2], cell));
        }
        in = activate(act[0], in);
        forget = activate(act[0], forget);
        cand = activate(act[1], cand);
        Value kept = mul(forget, cell);
        nextCell = add(kept, mul(in, cand));
        if (peepholes)
          out = add(out, mul(peep[1], nextCell));
        out = activate(act[0], out);
        next = mul(out, activate(act[2], nextCell));
      }
      Value y = next;
      if (lengths) {
        // Entries past their length keep their state and write zeros.
        Value step = n.createConstant(DenseElementsAttr::get(
            RankedTensorType::get({}, getType(lengths).getElementType()),
            b.getIntegerAttr(getType(lengths).getElementType(), t)));
        Value isLive = c.create<LessOp>({step, lengths});
        Value live = c.reshape(isLive, {batch, 1});
        next = c.create<WhereOp>({live, next, h});
        nextCell = c.create<WhereOp>({live, nextCell, cell});
        y = c.create<WhereOp>({live, y, zeros});
      }
      h = next;
      cell = nextCell;
      steps[t] = c.reshape(y, {1, 1, batch, hidden});
    }
    ys.push_back(c.create<ConcatOp>(
        steps, {b.getNamedAttr("axis", b.getI64IntegerAttr(0))}));
    hs.push_back(c.reshape(h, {1, batch, hidden}));
    cs.push_back(c.reshape(cell, {1, batch, hidden}));
  }
  auto concat = [&](ArrayRef<Value> values, int64_t axis) {
    return values.size() == 1
               ? values.front()
               : c.create<ConcatOp>(
                     values,
                     {b.getNamedAttr("axis", b.getI64IntegerAttr(axis))});
  };
  auto transpose = [&](Value v, ArrayRef<int64_t> perm) {
    return batchFirst
               ? c.create<TransposeOp>(
                     {v},
                     {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))})
               : v;
  };
  Value y = transpose(concat(ys, 1), {2, 0, 1, 3});
  Value yh = transpose(concat(hs, 0), {1, 0, 2});
  Value yc = transpose(concat(cs, 0), {1, 0, 2});
  if (c.hasFailed)
    return failure();
  n.setResult(0, y);
  n.setResult(1, yh);
  if (isLSTM)
    n.setResult(2, yc);
  return success();
}

/// Split: one dlc.slice per output. Sizes come from the `split` attribute
/// (before opset 13), the optional `split` input (opset 13+), or are equal.
static LogicalResult importSplit(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  ArrayRef<int64_t> shape = getType(input).getShape();
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", 0), shape.size());
  if (failed(axis))
    return failure();
  int64_t dim = shape[*axis];
  int64_t numOutputs = n.getNumOutputs();
  if (numOutputs == 0)
    return n.emitError() << "has no outputs";
  SmallVector<int64_t> sizes;
  if (n.getOpset() >= 13 && n.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> values = n.getConstantIntsInput(1);
    if (failed(values))
      return failure();
    sizes = *values;
  } else if (n.getOpset() < 13 && n.hasAttr("split")) {
    sizes = *n.getIntsAttr("split");
  } else {
    if (dim % numOutputs != 0)
      return n.emitError() << "cannot split dimension " << *axis << " of size "
                           << dim << " into " << numOutputs << " equal parts";
    sizes.assign(numOutputs, dim / numOutputs);
  }
  if (static_cast<int64_t>(sizes.size()) != numOutputs)
    return n.emitError() << "split has " << sizes.size() << " sizes for "
                         << numOutputs << " outputs";
  if (llvm::any_of(sizes, [](int64_t s) { return s < 0; }) ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != dim)
    return n.emitError() << "split sizes do not add up to dimension " << *axis
                         << " of size " << dim;
  SmallVector<int64_t> starts(shape.size(), 0), ends(shape),
      steps(shape.size(), 1);
  int64_t offset = 0;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    starts[*axis] = offset;
    ends[*axis] = offset + size;
    offset += size;
    if (failed(setResult(n, createSlice(n, input, starts, ends, steps), i)))
      return failure();
  }
  return success();
}

/// Slice: starts/ends/axes are attributes before opset 10, inputs (plus
/// steps) from opset 10 on. Clamps like ONNX: negative values count from the
/// end, then starts and ends are clamped to the dimension ([-1, dim-1] when
/// walking backwards).
static LogicalResult importSlice(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  ArrayRef<int64_t> shape = getType(input).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> starts, ends;
  std::optional<SmallVector<int64_t>> axes, steps;
  if (n.getOpset() < 10) {
    starts = n.getIntsAttr("starts").value_or(SmallVector<int64_t>());
    ends = n.getIntsAttr("ends").value_or(SmallVector<int64_t>());
    axes = n.getIntsAttr("axes");
  } else {
    FailureOr<SmallVector<int64_t>> startsInput = n.getConstantIntsInput(1);
    FailureOr<SmallVector<int64_t>> endsInput = n.getConstantIntsInput(2);
    if (failed(startsInput) || failed(endsInput))
      return failure();
    starts = *startsInput;
    ends = *endsInput;
    for (auto [index, values] : {std::pair(3u, &axes), std::pair(4u, &steps)}) {
      if (!n.hasInput(index))
        continue;
      FailureOr<SmallVector<int64_t>> input = n.getConstantIntsInput(index);
      if (failed(input))
        return failure();
      *values = *input;
    }
  }
  size_t count = starts.size();
  if (!axes)
    axes = llvm::to_vector(llvm::seq<int64_t>(0, count));
  if (!steps)
    steps = SmallVector<int64_t>(count, 1);
  if (ends.size() != count || axes->size() != count || steps->size() != count)
    return n.emitError() << "starts, ends, axes and steps must have the same "
                            "length";
  FailureOr<SmallVector<int64_t>> normalizedAxes =
      n.normalizeAxes(*axes, rank, /*sort=*/false);
  if (failed(normalizedAxes))
    return failure();
  SmallVector<int64_t> fullStarts(rank, 0), fullEnds(shape), fullSteps(rank, 1);
  for (size_t i = 0; i < count; ++i) {
    int64_t axis = (*normalizedAxes)[i], dim = shape[axis];
    int64_t start = starts[i], end = ends[i], step = (*steps)[i];
    if (step == 0)
      return n.emitError() << "step of axis " << axis << " is 0";
    if (start < 0)
      start += dim;
    if (end < 0)
      end += dim;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    fullStarts[axis] = start;
    fullEnds[axis] = end;
    fullSteps[axis] = step;
  }
  return setResult(n, createSlice(n, input, fullStarts, fullEnds, fullSteps));
}

static LogicalResult importGather(NodeImporter &n) {
  Value data = n.getInput(0), indices = n.getInput(1);
  if (!data || !indices)
    return failure();
  ArrayRef<int64_t> shape = getType(data).getShape();
  FailureOr<int64_t> axis =
      n.normalizeAxis(n.getIntAttr("axis", 0), shape.size());
  if (failed(axis))
    return failure();
  // Constant indices are checked now; ONNX leaves out-of-range ones
  // undefined.
  Attribute constant;
  if (matchPattern(indices, m_Constant(&constant)))
    if (std::optional<SmallVector<int64_t>> values =
            readIntegerElements(cast<ElementsAttr>(constant)))
      for (int64_t index : *values)
        if (index < -shape[*axis] || index >= shape[*axis])
          return n.emitError()
                 << "index " << index << " is out of range for axis " << *axis
                 << " of size " << shape[*axis];
  Builder &b = n.getBuilder();
  return setResult(
      n,
      n.create<GatherOp>({data, indices},
                         {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis))}));
}

/// Pad: pads and value are attributes before opset 11, inputs from opset 11
/// on.
static LogicalResult importPad(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  std::string modeName = n.getStringAttr("mode", "constant");
  std::optional<PadMode> mode = symbolizePadMode(modeName);
  if (!mode)
    return n.emitError() << "mode '" << modeName
                         << "' is not supported (expected constant, reflect "
                            "or edge)";
  SmallVector<int64_t> pads;
  double value = 0;
  if (n.getOpset() < 11) {
    pads = n.getIntsAttr("pads").value_or(SmallVector<int64_t>());
    value = n.getFloatAttr("value", 0.0f);
  } else {
    FailureOr<SmallVector<int64_t>> padsInput = n.getConstantIntsInput(1);
    FailureOr<std::optional<double>> valueInput = n.getConstantScalarInput(2);
    if (failed(padsInput) || failed(valueInput))
      return failure();
    pads = *padsInput;
    value = valueInput->value_or(0.0);
  }
  int64_t rank = getType(input).getRank();
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return n.emitError() << "pads has " << pads.size() << " values, expected "
                         << 2 * rank;
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<PadOp>(
             {input},
             {b.getNamedAttr("pads", b.getDenseI64ArrayAttr(pads)),
              b.getNamedAttr("mode", PadModeAttr::get(n.getContext(), *mode)),
              b.getNamedAttr("value", b.getF64FloatAttr(value))}));
}

static LogicalResult importExpand(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  FailureOr<SmallVector<int64_t>> shape = n.getConstantIntsInput(1);
  if (failed(shape))
    return failure();
  RankedTensorType type = getType(input);
  FailureOr<SmallVector<int64_t>> result =
      broadcastShapes(type.getShape(), *shape);
  if (llvm::any_of(*shape, [](int64_t dim) { return dim < 0; }) ||
      failed(result)) {
    InFlightDiagnostic diag = n.emitError();
    diag << "cannot expand " << type << " to shape [";
    llvm::interleaveComma(*shape, diag);
    return diag << "]";
  }
  return setResult(n, n.create<ExpandOp>(type.clone(*result), input));
}

static LogicalResult importTile(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  FailureOr<SmallVector<int64_t>> repeats = n.getConstantIntsInput(1);
  if (failed(repeats))
    return failure();
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<TileOp>(
             {input},
             {b.getNamedAttr("repeats", b.getDenseI64ArrayAttr(*repeats))}));
}

static LogicalResult importIdentity(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  return setResult(n, n.create<IdentityOp>(input.getType(), input));
}

/// Dropout in inference: the ratio (attribute before opset 12, input from
/// 12 on) is recorded; training mode is rejected unless it drops nothing.
/// The mask output is then all true, as ONNX's reference returns it.
static LogicalResult importDropout(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  double ratio = n.getFloatAttr("ratio", 0.5f);
  if (n.getOpset() >= 12) {
    FailureOr<std::optional<double>> ratioInput = n.getConstantScalarInput(1);
    FailureOr<std::optional<double>> trainingMode = n.getConstantScalarInput(2);
    if (failed(ratioInput) || failed(trainingMode))
      return failure();
    ratio = ratioInput->value_or(0.5);
    // Training mode drops at random, but with ratio 0 it keeps everything
    // (Swin's attention exports its eval-mode dropout so).
    if (trainingMode->value_or(0.0) != 0.0 && ratio != 0.0)
      return n.emitError() << "training_mode=true is not supported "
                              "(inference only) unless the ratio is 0";
  }
  Builder &b = n.getBuilder();
  if (n.hasOutput(1))
    n.setResult(1, n.createConstant(DenseElementsAttr::get(
                       getType(input).clone(b.getI1Type()), true)));
  return setResult(n, n.create<DropoutOp>(
                          input.getType(), input,
                          {b.getNamedAttr("ratio", b.getF32FloatAttr(ratio))}));
}

//===----------------------------------------------------------------------===//
// Constants, shapes and casts
//===----------------------------------------------------------------------===//

static LogicalResult importConstant(NodeImporter &n) {
  const onnx::NodeProto &node = n.getNode();
  if (node.attribute_size() != 1)
    return n.emitError() << "expected exactly one value attribute";
  const onnx::AttributeProto &attr = node.attribute(0);
  Builder &b = n.getBuilder();
  ElementsAttr value;
  if (attr.name() == "value") {
    // The importer owns the model: moving the tensor's bytes into the
    // attribute avoids copying large Constant tensors.
    auto &tensor = const_cast<onnx::TensorProto &>(attr.t());
    if (tensor.name().empty())
      tensor.set_name(node.output(0));
    value = convertTensorProto(
        tensor, "the value of Constant '" + node.output(0) + "'", n.getLoc());
    if (!value)
      return failure();
  } else if (attr.name() == "value_float") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   {attr.f()});
  } else if (attr.name() == "value_floats") {
    SmallVector<float> values(attr.floats().begin(), attr.floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(values.size())},
                              b.getF32Type()),
        ArrayRef<float>(values));
  } else if (attr.name() == "value_int") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   {int64_t(attr.i())});
  } else if (attr.name() == "value_ints") {
    SmallVector<int64_t> values(attr.ints().begin(), attr.ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(values.size())},
                              b.getI64Type()),
        ArrayRef<int64_t>(values));
  } else {
    return n.emitError() << "Constant with attribute '" << attr.name()
                         << "' is not supported";
  }
  n.setResult(0, n.createConstant(value));
  return success();
}

static LogicalResult importConstantOfShape(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> shape = n.getConstantIntsInput(0);
  if (failed(shape))
    return failure();
  if (llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
    return n.emitError() << "shape has a negative dimension";
  DenseElementsAttr fill;
  if (const onnx::AttributeProto *attr = n.getAttr("value")) {
    auto &tensor = const_cast<onnx::TensorProto &>(attr->t());
    ElementsAttr value =
        convertTensorProto(tensor, "attribute 'value'", n.getLoc());
    if (!value)
      return failure();
    fill = dyn_cast<DenseElementsAttr>(value);
    if (!fill || !fill.isSplat() || fill.getNumElements() != 1)
      return n.emitError() << "attribute 'value' must hold one element";
  } else {
    fill = DenseElementsAttr::get(
        RankedTensorType::get({1}, n.getBuilder().getF32Type()), {0.0f});
  }
  n.setResult(0, n.createConstant(fill.resizeSplat(
                     RankedTensorType::get(*shape, fill.getElementType()))));
  return success();
}

/// Shape: `start`/`end` (opset 15) may be negative and are clamped to the
/// rank.
static LogicalResult importShape(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  int64_t rank = getType(input).getRank();
  auto clampToRank = [&](int64_t index) {
    return std::clamp<int64_t>(index < 0 ? index + rank : index, 0, rank);
  };
  int64_t start = clampToRank(n.getIntAttr("start", 0));
  int64_t end = clampToRank(n.getIntAttr("end", rank));
  Builder &b = n.getBuilder();
  return setResult(
      n, n.create<ShapeOp>({input},
                           {b.getNamedAttr("start", b.getI64IntegerAttr(start)),
                            b.getNamedAttr("end", b.getI64IntegerAttr(end))}));
}

static LogicalResult importCast(NodeImporter &n) {
  Value input = n.getInput(0);
  if (!input)
    return failure();
  int64_t to = n.getIntAttr("to", 0);
  Type elementType = convertONNXElementType(to, n.getContext());
  if (!elementType)
    return n.emitError() << "Cast to "
                         << (onnx::TensorProto_DataType_IsValid(to)
                                 ? onnx::TensorProto_DataType_Name(to)
                                 : std::to_string(to))
                         << " is not supported";
  return setResult(n,
                   n.create<CastOp>(getType(input).clone(elementType), input));
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

OpImportFn dlc::onnx_import::lookupOpImporter(StringRef opType) {
  return llvm::StringSwitch<OpImportFn>(opType)
      // Elementwise binary and variadic.
      .Case("Add", importBinary<AddOp>)
      .Case("Sub", importBinary<SubOp>)
      .Case("Mul", importBinary<MulOp>)
      .Case("Div", importBinary<DivOp>)
      .Case("Pow", importPow)
      .Case("PRelu", importPRelu)
      .Case("Max", importVariadic<MaxOp>)
      .Case("Min", importVariadic<MinOp>)
      .Case("Sum", importVariadic<AddOp>)
      .Case("Mean", importMean)
      .Case("Mod", importMod)
      .Case("BitShift", importBitShift)
      // Comparisons, logic and selection.
      .Case("Equal", importBinary<EqualOp>)
      .Case("Less", importBinary<LessOp>)
      .Case("LessOrEqual", importBinary<LessOrEqualOp>)
      .Case("Greater", importBinary<GreaterOp>)
      .Case("GreaterOrEqual", importBinary<GreaterOrEqualOp>)
      .Case("And", importBinary<AndOp>)
      .Case("Or", importBinary<OrOp>)
      .Case("Xor", importBinary<XorOp>)
      .Case("Not", [](NodeImporter &n) { return importUnary<NotOp>(n); })
      .Case("Where", importWhere)
      .Case("QuantizeLinear", importQuantization<QuantizeLinearOp>)
      .Case("DequantizeLinear", importQuantization<DequantizeLinearOp>)
      .Case("DynamicQuantizeLinear", importDynamicQuantizeLinear)
      .Case("QLinearConv",
            [](NodeImporter &n) { return importQLinear(n, true); })
      .Case("QLinearMatMul",
            [](NodeImporter &n) { return importQLinear(n, false); })
      .Case("ConvInteger",
            [](NodeImporter &n) { return importIntegerContraction(n, true); })
      .Case("MatMulInteger",
            [](NodeImporter &n) { return importIntegerContraction(n, false); })
      .Case("IsNaN", importClassify<IsNaNOp>)
      .Case("IsInf", importClassify<IsInfOp>)
      // Elementwise unary.
      .Case("Relu", [](NodeImporter &n) { return importUnary<ReluOp>(n); })
      .Case("LeakyRelu",
            [](NodeImporter &n) {
              return importUnary<LeakyReluOp>(n, {{"alpha", 0.01f}});
            })
      .Case("Sigmoid",
            [](NodeImporter &n) { return importUnary<SigmoidOp>(n); })
      .Case("Tanh", [](NodeImporter &n) { return importUnary<TanhOp>(n); })
      .Case("Clip", importClip)
      .Case("Exp", [](NodeImporter &n) { return importUnary<ExpOp>(n); })
      .Case("Log", [](NodeImporter &n) { return importUnary<LogOp>(n); })
      .Case("Sqrt", [](NodeImporter &n) { return importUnary<SqrtOp>(n); })
      .Case("Neg", [](NodeImporter &n) { return importUnary<NegOp>(n); })
      .Case("Abs", [](NodeImporter &n) { return importUnary<AbsOp>(n); })
      .Case("Reciprocal",
            [](NodeImporter &n) { return importUnary<ReciprocalOp>(n); })
      .Case("Erf", [](NodeImporter &n) { return importUnary<ErfOp>(n); })
      .Case("HardSigmoid",
            [](NodeImporter &n) {
              return importUnary<HardSigmoidOp>(
                  n, {{"alpha", 0.2f}, {"beta", 0.5f}});
            })
      .Case("HardSwish",
            [](NodeImporter &n) { return importUnary<HardSwishOp>(n); })
      .Case("Elu",
            [](NodeImporter &n) {
              return importUnary<EluOp>(n, {{"alpha", 1.0f}});
            })
      .Case("Selu",
            [](NodeImporter &n) {
              return importUnary<SeluOp>(
                  n, {{"alpha", 1.67326319217681884765625f},
                      {"gamma", 1.05070102214813232421875f}});
            })
      .Case("Softplus",
            [](NodeImporter &n) { return importUnary<SoftplusOp>(n); })
      .Case("Softsign",
            [](NodeImporter &n) { return importUnary<SoftsignOp>(n); })
      .Case("ThresholdedRelu",
            [](NodeImporter &n) {
              return importUnary<ThresholdedReluOp>(n, {{"alpha", 1.0f}});
            })
      .Case("Celu",
            [](NodeImporter &n) {
              return importUnary<CeluOp>(n, {{"alpha", 1.0f}});
            })
      .Case("Shrink",
            [](NodeImporter &n) {
              return importUnary<ShrinkOp>(n,
                                           {{"bias", 0.0f}, {"lambd", 0.5f}});
            })
      .Case("Sign", [](NodeImporter &n) { return importUnary<SignOp>(n); })
      .Case("Floor", [](NodeImporter &n) { return importUnary<FloorOp>(n); })
      .Case("Ceil", [](NodeImporter &n) { return importUnary<CeilOp>(n); })
      .Case("Round", [](NodeImporter &n) { return importUnary<RoundOp>(n); })
      .Case("Sin", [](NodeImporter &n) { return importUnary<SinOp>(n); })
      .Case("Cos", [](NodeImporter &n) { return importUnary<CosOp>(n); })
      .Case("Tan", [](NodeImporter &n) { return importUnary<TanOp>(n); })
      .Case("Asin", [](NodeImporter &n) { return importUnary<AsinOp>(n); })
      .Case("Acos", [](NodeImporter &n) { return importUnary<AcosOp>(n); })
      .Case("Atan", [](NodeImporter &n) { return importUnary<AtanOp>(n); })
      .Case("Sinh", [](NodeImporter &n) { return importUnary<SinhOp>(n); })
      .Case("Cosh", [](NodeImporter &n) { return importUnary<CoshOp>(n); })
      .Case("Asinh", [](NodeImporter &n) { return importUnary<AsinhOp>(n); })
      .Case("Acosh", [](NodeImporter &n) { return importUnary<AcoshOp>(n); })
      .Case("Atanh", [](NodeImporter &n) { return importUnary<AtanhOp>(n); })
      .Case("Softmax", importSoftmax<SoftmaxOp>)
      .Case("LogSoftmax", importSoftmax<LogSoftmaxOp>)
      .Case("Hardmax", importSoftmax<HardmaxOp>)
      // Linear algebra, convolution, pooling, normalisation.
      .Case("Conv", importConv)
      .Case("ConvTranspose", importConvTranspose)
      .Case("Gemm", importGemm)
      .Case("MatMul", importBinary<MatMulOp>)
      .Case("MaxPool", [](NodeImporter &n) { return importPool(n, true); })
      .Case("AveragePool", [](NodeImporter &n) { return importPool(n, false); })
      .Case("GlobalAveragePool", importGlobalPool<ReduceMeanOp>)
      .Case("GlobalMaxPool", importGlobalPool<ReduceMaxOp>)
      .Case("BatchNormalization", importBatchNorm)
      .Case("LayerNormalization", importLayerNorm)
      .Case("InstanceNormalization", importInstanceNorm)
      .Case("MeanVarianceNormalization", importMeanVarianceNorm)
      .Case("LRN", importLRN)
      // Reductions.
      .Case("ReduceMean", importReduce<ReduceMeanOp>)
      .Case("ReduceSum", importReduce<ReduceSumOp>)
      .Case("ReduceMax", importReduce<ReduceMaxOp>)
      .Case("ReduceMin", importReduce<ReduceMinOp>)
      .Case("ReduceProd", importReduce<ReduceProdOp>)
      .Case("ReduceSumSquare", importReduce<ReduceSumSquareOp>)
      .Case("ReduceL1", importReduce<ReduceL1Op>)
      .Case("ReduceL2", importReduce<ReduceL2Op>)
      .Case("ReduceLogSum", importReduce<ReduceLogSumOp>)
      .Case("ReduceLogSumExp", importReduce<ReduceLogSumExpOp>)
      .Case("ArgMax", importArgReduce<ArgMaxOp>)
      .Case("ArgMin", importArgReduce<ArgMinOp>)
      // Reshapes and data movement.
      .Case("Flatten", importFlatten)
      .Case("Reshape", importReshape)
      .Case("Squeeze", importSqueeze)
      .Case("Unsqueeze", importUnsqueeze)
      .Case("Transpose", importTranspose)
      .Case("Trilu", importTrilu)
      .Case("CumSum", importCumSum)
      .Case("Einsum", importEinsum)
      .Case("NegativeLogLikelihoodLoss", importNLLLoss)
      .Case("SoftmaxCrossEntropyLoss", importSoftmaxCrossEntropyLoss)
      .Case("Range", importRange)
      .Case("RNN",
            [](NodeImporter &n) {
              return importRecurrent(n, RecurrentKind::RNN);
            })
      .Case("GRU",
            [](NodeImporter &n) {
              return importRecurrent(n, RecurrentKind::GRU);
            })
      .Case("LSTM",
            [](NodeImporter &n) {
              return importRecurrent(n, RecurrentKind::LSTM);
            })
      .Case("MaxUnpool", importMaxUnpool)
      .Case("ReverseSequence",
            [](NodeImporter &n) -> LogicalResult {
              Value input = n.getInput(0), lengths = n.getInput(1);
              if (!input || !lengths)
                return failure();
              Builder &b = n.getBuilder();
              return setResult(
                  n, n.create<ReverseSequenceOp>(
                         input.getType(), {input, lengths},
                         {b.getNamedAttr("batch_axis",
                                         b.getI64IntegerAttr(
                                             n.getIntAttr("batch_axis", 1))),
                          b.getNamedAttr("time_axis",
                                         b.getI64IntegerAttr(
                                             n.getIntAttr("time_axis", 0)))}));
            })
      .Case("HannWindow",
            [](NodeImporter &n) { return importWindow(n, 0.5, 0.0); })
      .Case("HammingWindow",
            [](NodeImporter &n) { return importWindow(n, 25.0 / 46.0, 0.0); })
      .Case("BlackmanWindow",
            [](NodeImporter &n) { return importWindow(n, 0.42, 0.08); })
      .Case("OneHot", importOneHot)
      .Case("TopK", importTopK)
      .Case("GatherND", importGatherND)
      .Case("ScatterElements",
            [](NodeImporter &n) { return importScatter(n, true); })
      .Case("Scatter", [](NodeImporter &n) { return importScatter(n, true); })
      .Case("ScatterND",
            [](NodeImporter &n) { return importScatter(n, false); })
      .Case("GatherElements",
            [](NodeImporter &n) -> LogicalResult {
              Value data = n.getInput(0), indices = n.getInput(1);
              if (!data || !indices)
                return failure();
              FailureOr<int64_t> axis = n.normalizeAxis(
                  n.getIntAttr("axis", 0), getType(data).getRank());
              if (failed(axis))
                return failure();
              Builder &b = n.getBuilder();
              return setResult(
                  n, n.create<GatherElementsOp>(
                         getType(indices).clone(getType(data).getElementType()),
                         {data, indices},
                         {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis))}));
            })
      .Case("Resize", importResize)
      .Case("Upsample", importResize)
      .Case("DepthToSpace",
            [](NodeImporter &n) { return importDepthSpace(n, true); })
      .Case("SpaceToDepth",
            [](NodeImporter &n) { return importDepthSpace(n, false); })
      .Case("EyeLike", importEyeLike)
      .Case("Concat", importConcat)
      .Case("Split", importSplit)
      .Case("Slice", importSlice)
      .Case("Gather", importGather)
      .Case("Pad", importPad)
      .Case("Expand", importExpand)
      .Case("Tile", importTile)
      .Case("Identity", importIdentity)
      .Case("Dropout", importDropout)
      // Constants, shapes and casts.
      .Case("Constant", importConstant)
      .Case("ConstantOfShape", importConstantOfShape)
      .Case("Shape", importShape)
      .Case("Size",
            [](NodeImporter &n) -> LogicalResult {
              Value input = n.getInput(0);
              if (!input)
                return failure();
              return setResult(n, n.create<SizeOp>({input}));
            })
      .Case("Cast", importCast)
      .Case("CastLike",
            [](NodeImporter &n) -> LogicalResult {
              // Cast to the element type of the second input.
              Value input = n.getInput(0), like = n.getInput(1);
              if (!input || !like)
                return failure();
              return setResult(
                  n, n.create<CastOp>(
                         getType(input).clone(getType(like).getElementType()),
                         input));
            })
      .Default(nullptr);
}
