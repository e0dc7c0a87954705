//===- DLCFolds.cpp - folders and canonicalisation patterns ---------------===//
//
// Folding serves shape arithmetic and small constant subgraphs: the ONNX
// importer builds ops with createOrFold, so Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape chains become constants while the model is imported.
// Weights (dense_resource blobs) are only rewritten by the BatchNorm-into-Conv
// pattern; every other folder leaves non-splat constants larger than
// kMaxFoldedElements alone, so compile time stays bounded.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace dlc;

/// Non-splat constants with more elements than this are not folded.
static constexpr int64_t kMaxFoldedElements = int64_t(1) << 16;
static constexpr int64_t kNoElementLimit = std::numeric_limits<int64_t>::max();

//===----------------------------------------------------------------------===//
// Constant tensors as host values
//===----------------------------------------------------------------------===//

namespace {
/// The elements of a constant tensor in row-major order. Integers are held as
/// int64_t, extended from their width (zero-extended for unsigned types and
/// i1, sign-extended otherwise); floats (f16, bf16, f32, f64) as double, which
/// represents each of them exactly. A splat holds its one element.
struct ConstantTensor {
  RankedTensorType type;
  bool splat = false;
  SmallVector<int64_t> ints;
  SmallVector<double> floats;

  ConstantTensor(RankedTensorType type, bool splat)
      : type(type), splat(splat) {}

  bool isFloat() const { return isa<FloatType>(type.getElementType()); }
  /// Number of elements actually stored (1 for a splat).
  int64_t getNumStored() const { return splat ? 1 : type.getNumElements(); }
  int64_t getInt(int64_t i) const { return ints[splat ? 0 : i]; }
  double getFloat(int64_t i) const { return floats[splat ? 0 : i]; }
};
} // namespace

static bool isSupportedElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() <= 64;
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
}

static bool isZeroExtended(IntegerType type) {
  return isUnsignedElementType(type);
}

/// Bytes one element takes in a raw buffer (dense_resource blobs hold i1 as
/// one byte; dense attributes bit-pack it, see readConstant).
static int64_t getStorageBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

/// `value` truncated to the width of `type` and extended back as the type's
/// signedness says: two's-complement wrap-around.
static int64_t wrapToType(uint64_t value, IntegerType type) {
  unsigned width = type.getWidth();
  if (width == 64)
    return static_cast<int64_t>(value);
  uint64_t bits = value & llvm::maskTrailingOnes<uint64_t>(width);
  return isZeroExtended(type) ? static_cast<int64_t>(bits)
                              : llvm::SignExtend64(bits, width);
}

/// `value` rounded to the nearest value of `type` (ties to even).
static double roundToType(double value, FloatType type) {
  if (type.isF64())
    return value;
  if (type.isF32())
    return static_cast<float>(value);
  APFloat converted(value);
  bool losesInfo;
  converted.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
  return converted.convertToDouble();
}

// Raw buffers hold elements in host byte order; copying the low-order bytes
// of a 64-bit value in and out relies on a little-endian host.
static_assert(llvm::endianness::native == llvm::endianness::little,
              "constant folding reads raw buffers as little-endian");

static void decodeElement(const char *bytes, Type type, ConstantTensor &into) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    uint64_t bits = 0;
    std::memcpy(&bits, bytes, getStorageBytes(type));
    into.ints.push_back(wrapToType(bits, intType));
    return;
  }
  if (type.isF32()) {
    float value;
    std::memcpy(&value, bytes, sizeof(value));
    into.floats.push_back(value);
  } else if (type.isF64()) {
    double value;
    std::memcpy(&value, bytes, sizeof(value));
    into.floats.push_back(value);
  } else { // f16, bf16
    uint16_t bits;
    std::memcpy(&bits, bytes, sizeof(bits));
    APFloat value(cast<FloatType>(type).getFloatSemantics(), APInt(16, bits));
    into.floats.push_back(value.convertToDouble());
  }
}

static void encodeElement(const ConstantTensor &tensor, int64_t i,
                          char *bytes) {
  Type type = tensor.type.getElementType();
  if (isa<IntegerType>(type)) {
    int64_t value = tensor.getInt(i);
    std::memcpy(bytes, &value, getStorageBytes(type));
    return;
  }
  double value = tensor.getFloat(i);
  if (type.isF32()) {
    float single = value;
    std::memcpy(bytes, &single, sizeof(single));
  } else if (type.isF64()) {
    std::memcpy(bytes, &value, sizeof(value));
  } else { // f16, bf16: `value` is already representable
    APFloat converted(value);
    bool losesInfo;
    converted.convert(cast<FloatType>(type).getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
    uint16_t bits = converted.bitcastToAPInt().getZExtValue();
    std::memcpy(bytes, &bits, sizeof(bits));
  }
}

/// Reads a dense or dense_resource constant. Returns nullopt for other
/// attributes, unsupported element types, resources whose blob is missing
/// (e.g. elided) or of the wrong size, and non-splat constants with more than
/// `maxElements` elements.
static std::optional<ConstantTensor>
readConstant(Attribute attr, int64_t maxElements = kMaxFoldedElements) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(elements.getType());
  if (!type || !type.hasStaticShape() ||
      !isSupportedElementType(type.getElementType()))
    return std::nullopt;
  Type elementType = type.getElementType();
  ArrayRef<char> raw;
  bool splat = false;
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(elements)) {
    splat = dense.isSplat();
    if (!splat && type.getNumElements() > maxElements)
      return std::nullopt;
    if (elementType.isInteger(1)) {
      ConstantTensor result(type, splat);
      for (bool value : dense.getValues<bool>()) {
        result.ints.push_back(value);
        if (splat)
          break;
      }
      return result;
    }
    raw = dense.getRawData();
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    if (type.getNumElements() > maxElements)
      return std::nullopt;
    const AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    raw = blob->getData();
  } else {
    return std::nullopt;
  }
  ConstantTensor result(type, splat);
  int64_t bytes = getStorageBytes(elementType);
  int64_t count = result.getNumStored();
  if (static_cast<int64_t>(raw.size()) != count * bytes)
    return std::nullopt;
  if (result.isFloat())
    result.floats.reserve(count);
  else
    result.ints.reserve(count);
  for (int64_t i = 0; i < count; ++i)
    decodeElement(raw.data() + i * bytes, elementType, result);
  return result;
}

/// The stored elements in the raw layout of dense and dense_resource
/// attributes (one byte per i1).
static std::vector<char> encodeRaw(const ConstantTensor &tensor) {
  int64_t bytes = getStorageBytes(tensor.type.getElementType());
  std::vector<char> raw(tensor.getNumStored() * bytes);
  for (int64_t i = 0, e = tensor.getNumStored(); i < e; ++i)
    encodeElement(tensor, i, raw.data() + i * bytes);
  return raw;
}

static ElementsAttr writeDense(const ConstantTensor &tensor) {
  if (tensor.type.getElementType().isInteger(1)) {
    SmallVector<bool> values;
    for (int64_t i = 0, e = tensor.getNumStored(); i < e; ++i)
      values.push_back(tensor.getInt(i) != 0);
    return DenseElementsAttr::get(tensor.type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(tensor.type, encodeRaw(tensor));
}

/// Writes a non-splat tensor as a new dense_resource blob; `nameHint` is made
/// unique by the blob manager.
static ElementsAttr writeResource(const ConstantTensor &tensor,
                                  StringRef nameHint) {
  std::vector<char> raw = encodeRaw(tensor);
  return DenseResourceElementsAttr::get(
      tensor.type, nameHint,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(raw, alignof(double)));
}

/// `splat` (a splat constant) as a splat of another shape.
static ElementsAttr writeSplat(const ConstantTensor &splat,
                               RankedTensorType type) {
  ConstantTensor result = splat;
  result.type = type;
  return writeDense(result);
}

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// For every index of `type` in row-major order, the flat index of the
/// element it reads (`sourceOf` of the multi-index).
static SmallVector<int64_t>
mapSources(RankedTensorType type,
           function_ref<int64_t(ArrayRef<int64_t>)> sourceOf) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t count = type.getNumElements();
  SmallVector<int64_t> sources;
  sources.reserve(count);
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    sources.push_back(sourceOf(index));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return sources;
}

/// Flat index of the element of a tensor of `shape` (with `strides`) that
/// numpy broadcasting reads at result index `index`.
static int64_t getBroadcastSource(ArrayRef<int64_t> index,
                                  ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> strides) {
  size_t offset = index.size() - shape.size();
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1)
      flat += index[d + offset] * strides[d];
  return flat;
}

/// The constant of type `type` whose element i is `source`'s element
/// `sources[i]`, or `fill` where `sources[i]` is negative.
static ConstantTensor pickElements(const ConstantTensor &source,
                                   RankedTensorType type,
                                   ArrayRef<int64_t> sources,
                                   double fill = 0.0) {
  ConstantTensor result(type, /*splat=*/false);
  if (source.isFloat()) {
    double fillValue =
        roundToType(fill, cast<FloatType>(type.getElementType()));
    for (int64_t s : sources)
      result.floats.push_back(s < 0 ? fillValue : source.getFloat(s));
  } else {
    int64_t fillValue =
        wrapToType(static_cast<uint64_t>(static_cast<int64_t>(fill)),
                   cast<IntegerType>(type.getElementType()));
    for (int64_t s : sources)
      result.ints.push_back(s < 0 ? fillValue : source.getInt(s));
  }
  return result;
}

/// Folds an op that rearranges the elements of one constant: the element at
/// result index I is the input's element sourceOf(I), or `fill` where that is
/// negative (padding).
static OpFoldResult
foldMovement(Attribute inputAttr, RankedTensorType resultType,
             function_ref<int64_t(ArrayRef<int64_t>)> sourceOf,
             std::optional<double> fill = std::nullopt) {
  std::optional<ConstantTensor> input = readConstant(inputAttr);
  if (!input)
    return {};
  if (input->splat && !fill)
    return writeSplat(*input, resultType);
  if (resultType.getNumElements() > kMaxFoldedElements)
    return {};
  return writeDense(pickElements(*input, resultType,
                                 mapSources(resultType, sourceOf),
                                 fill.value_or(0.0)));
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

static uint64_t asBits(int64_t value) { return static_cast<uint64_t>(value); }

using IntBinaryFn =
    function_ref<std::optional<int64_t>(int64_t, int64_t, IntegerType)>;
using FloatBinaryFn = function_ref<double(double, double)>;

/// For each of `operands` (constants broadcast to `resultType` under numpy
/// rules), the element each result element reads; one element each when
/// all are splats. Nothing when the result is too large to fold.
static std::optional<SmallVector<SmallVector<int64_t>>>
getBroadcastSources(ArrayRef<const ConstantTensor *> operands,
                    RankedTensorType resultType, bool &splat) {
  splat =
      llvm::all_of(operands, [](const ConstantTensor *c) { return c->splat; });
  if (!splat && resultType.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  SmallVector<SmallVector<int64_t>> sources;
  for (const ConstantTensor *operand : operands) {
    if (splat) {
      sources.push_back({0});
      continue;
    }
    ArrayRef<int64_t> shape = operand->type.getShape();
    SmallVector<int64_t> strides = getStrides(shape);
    sources.push_back(mapSources(resultType, [&](ArrayRef<int64_t> index) {
      return operand->splat ? 0 : getBroadcastSource(index, shape, strides);
    }));
  }
  return sources;
}

/// Folds a broadcasting binary op whose operands are both constants. Integer
/// results wrap around; `intFn` returns nullopt where the result is undefined
/// (division by zero), which leaves the op alone. Float results are computed
/// in double and rounded once to the element type, which gives the correctly
/// rounded result for +, -, * and / of f32, f16 and bf16.
static OpFoldResult foldBinary(Attribute lhsAttr, Attribute rhsAttr,
                               RankedTensorType resultType, IntBinaryFn intFn,
                               FloatBinaryFn floatFn) {
  if (!lhsAttr || !rhsAttr)
    return {};
  std::optional<ConstantTensor> lhs = readConstant(lhsAttr);
  std::optional<ConstantTensor> rhs = readConstant(rhsAttr);
  if (!lhs || !rhs)
    return {};
  bool splat;
  auto sources = getBroadcastSources({&*lhs, &*rhs}, resultType, splat);
  if (!sources)
    return {};
  ConstantTensor result(resultType, splat);
  Type elementType = resultType.getElementType();
  for (auto [l, r] : llvm::zip_equal((*sources)[0], (*sources)[1])) {
    if (auto floatType = dyn_cast<FloatType>(elementType)) {
      result.floats.push_back(
          roundToType(floatFn(lhs->getFloat(l), rhs->getFloat(r)), floatType));
      continue;
    }
    auto intType = cast<IntegerType>(elementType);
    std::optional<int64_t> value =
        intFn(lhs->getInt(l), rhs->getInt(r), intType);
    if (!value)
      return {};
    result.ints.push_back(wrapToType(*value, intType));
  }
  return writeDense(result);
}

/// Folds a comparison of two constants into a bool constant. `holds` gets
/// the elements' order, -1, 0 or 1 (lhs <, ==, > rhs; unsigned integers
/// compared as such), or nothing when a float operand is NaN.
static OpFoldResult
foldComparison(Attribute lhsAttr, Attribute rhsAttr,
               RankedTensorType resultType,
               function_ref<bool(std::optional<int>)> holds) {
  if (!lhsAttr || !rhsAttr)
    return {};
  std::optional<ConstantTensor> lhs = readConstant(lhsAttr);
  std::optional<ConstantTensor> rhs = readConstant(rhsAttr);
  if (!lhs || !rhs)
    return {};
  bool splat;
  auto sources = getBroadcastSources({&*lhs, &*rhs}, resultType, splat);
  if (!sources)
    return {};
  Type operandType = lhs->type.getElementType();
  auto intType = dyn_cast<IntegerType>(operandType);
  bool isUnsigned = intType && isZeroExtended(intType);
  ConstantTensor result(resultType, splat);
  for (auto [l, r] : llvm::zip_equal((*sources)[0], (*sources)[1])) {
    std::optional<int> order;
    if (lhs->isFloat()) {
      double a = lhs->getFloat(l), b = rhs->getFloat(r);
      if (!std::isnan(a) && !std::isnan(b))
        order = a < b ? -1 : a > b ? 1 : 0;
    } else if (isUnsigned) {
      uint64_t a = asBits(lhs->getInt(l)), b = asBits(rhs->getInt(r));
      order = a < b ? -1 : a > b ? 1 : 0;
    } else {
      int64_t a = lhs->getInt(l), b = rhs->getInt(r);
      order = a < b ? -1 : a > b ? 1 : 0;
    }
    result.ints.push_back(holds(order) ? 1 : 0);
  }
  return writeDense(result);
}

/// DequantizeLinear of constants (an int8 model's weights and biases): the
/// float32 values the host lowering computes, element by element
/// (float(x) - float(zero_point), then times the scale, each rounded to
/// f32), so that a target sees float weights it can compile in.
OpFoldResult DequantizeLinearOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getInput() || !adaptor.getScale() || !adaptor.getZeroPoint())
    return {};
  std::optional<ConstantTensor> input = readConstant(adaptor.getInput());
  std::optional<ConstantTensor> scale = readConstant(adaptor.getScale());
  std::optional<ConstantTensor> zeroPoint =
      readConstant(adaptor.getZeroPoint());
  RankedTensorType resultType = getResult().getType();
  if (!input || !scale || !zeroPoint ||
      resultType.getNumElements() > kMaxFoldedElements)
    return {};
  auto sourcesOf = [&](const ConstantTensor &operand) {
    ArrayRef<int64_t> shape = operand.type.getShape();
    SmallVector<int64_t> strides = getStrides(shape);
    return mapSources(resultType, [&](ArrayRef<int64_t> index) {
      return operand.splat ? 0 : getBroadcastSource(index, shape, strides);
    });
  };
  SmallVector<int64_t> inputSources = sourcesOf(*input),
                       scaleSources = sourcesOf(*scale),
                       zeroSources = sourcesOf(*zeroPoint);
  auto f32 = cast<FloatType>(resultType.getElementType());
  ConstantTensor result(resultType, /*splat=*/false);
  for (auto [i, s, z] :
       llvm::zip_equal(inputSources, scaleSources, zeroSources)) {
    double shifted = roundToType(
        roundToType(static_cast<double>(input->getInt(i)), f32) -
            roundToType(static_cast<double>(zeroPoint->getInt(z)), f32),
        f32);
    result.floats.push_back(roundToType(shifted * scale->getFloat(s), f32));
  }
  return writeDense(result);
}

/// Whether `attr` is a splat constant whose value is `value`.
static bool isSplatOf(Attribute attr, double value) {
  auto dense = dyn_cast_or_null<DenseIntOrFPElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return false;
  std::optional<ConstantTensor> splat = readConstant(dense);
  if (!splat)
    return false;
  if (!splat->isFloat())
    return splat->ints[0] == static_cast<int64_t>(value);
  // -0.0 == 0.0, but x - (-0.0) is not x for x = -0.0.
  return splat->floats[0] == value &&
         std::signbit(splat->floats[0]) == std::signbit(value);
}

/// x op c = x when c is a splat `neutral` and broadcasting does not change x.
static OpFoldResult foldNeutralRhs(Value lhs, Attribute rhsAttr,
                                   Type resultType, double neutral) {
  if (lhs.getType() == resultType && isSplatOf(rhsAttr, neutral))
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + 0 is x for integers; for floats -0.0 + 0.0 is +0.0.
  if (isa<IntegerType>(getType().getElementType()))
    if (OpFoldResult folded =
            foldNeutralRhs(getLhs(), adaptor.getRhs(), getType(), 0.0))
      return folded;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](int64_t a, int64_t b, IntegerType) -> std::optional<int64_t> {
        return asBits(a) + asBits(b);
      },
      [](double a, double b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldNeutralRhs(getLhs(), adaptor.getRhs(), getType(), 0.0))
    return folded;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](int64_t a, int64_t b, IntegerType) -> std::optional<int64_t> {
        return asBits(a) - asBits(b);
      },
      [](double a, double b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldNeutralRhs(getLhs(), adaptor.getRhs(), getType(), 1.0))
    return folded;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](int64_t a, int64_t b, IntegerType) -> std::optional<int64_t> {
        return asBits(a) * asBits(b);
      },
      [](double a, double b) { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldNeutralRhs(getLhs(), adaptor.getRhs(), getType(), 1.0))
    return folded;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](int64_t a, int64_t b, IntegerType type) -> std::optional<int64_t> {
        if (b == 0)
          return std::nullopt;
        if (isZeroExtended(type))
          return static_cast<int64_t>(asBits(a) / asBits(b));
        // Truncates toward zero like C; INT64_MIN / -1 overflows.
        if (a == std::numeric_limits<int64_t>::min() && b == -1)
          return std::nullopt;
        return a / b;
      },
      [](double a, double b) { return a / b; });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  std::optional<ConstantTensor> input = readConstant(adaptor.getInput());
  if (!input)
    return {};
  ConstantTensor result = *input;
  for (double &value : result.floats)
    value = -value;
  for (int64_t &value : result.ints)
    value = wrapToType(0 - asBits(value),
                       cast<IntegerType>(getType().getElementType()));
  return writeDense(result);
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  bool fmod = getFmod();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [fmod](int64_t a, int64_t b, IntegerType type) -> std::optional<int64_t> {
        if (b == 0)
          return std::nullopt;
        if (isZeroExtended(type))
          return static_cast<int64_t>(asBits(a) % asBits(b));
        if (b == -1)
          return 0; // INT64_MIN % -1 overflows in C.
        int64_t r = a % b;
        // Python's %: the remainder takes the divisor's sign.
        if (!fmod && r != 0 && ((r < 0) != (b < 0)))
          r += b;
        return r;
      },
      [](double a, double b) { return std::fmod(a, b); });
}

OpFoldResult EqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(adaptor.getLhs(), adaptor.getRhs(), getType(),
                        [](std::optional<int> o) { return o && *o == 0; });
}
OpFoldResult LessOp::fold(FoldAdaptor adaptor) {
  return foldComparison(adaptor.getLhs(), adaptor.getRhs(), getType(),
                        [](std::optional<int> o) { return o && *o < 0; });
}
OpFoldResult LessOrEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(adaptor.getLhs(), adaptor.getRhs(), getType(),
                        [](std::optional<int> o) { return o && *o <= 0; });
}
OpFoldResult GreaterOp::fold(FoldAdaptor adaptor) {
  return foldComparison(adaptor.getLhs(), adaptor.getRhs(), getType(),
                        [](std::optional<int> o) { return o && *o > 0; });
}
OpFoldResult GreaterOrEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(adaptor.getLhs(), adaptor.getRhs(), getType(),
                        [](std::optional<int> o) { return o && *o >= 0; });
}

static OpFoldResult foldLogic(Attribute lhs, Attribute rhs,
                              RankedTensorType type, bool (*fn)(bool, bool)) {
  return foldBinary(
      lhs, rhs, type,
      [fn](int64_t a, int64_t b, IntegerType) -> std::optional<int64_t> {
        return fn(a != 0, b != 0);
      },
      [](double, double) { return 0.0; });
}
OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  return foldLogic(adaptor.getLhs(), adaptor.getRhs(), getType(),
                   [](bool a, bool b) { return a && b; });
}
OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  return foldLogic(adaptor.getLhs(), adaptor.getRhs(), getType(),
                   [](bool a, bool b) { return a || b; });
}
OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  return foldLogic(adaptor.getLhs(), adaptor.getRhs(), getType(),
                   [](bool a, bool b) { return a != b; });
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getCondition() || !adaptor.getLhs() || !adaptor.getRhs())
    return {};
  std::optional<ConstantTensor> condition =
      readConstant(adaptor.getCondition());
  std::optional<ConstantTensor> lhs = readConstant(adaptor.getLhs());
  std::optional<ConstantTensor> rhs = readConstant(adaptor.getRhs());
  if (!condition || !lhs || !rhs)
    return {};
  bool splat;
  auto sources =
      getBroadcastSources({&*condition, &*lhs, &*rhs}, getType(), splat);
  if (!sources)
    return {};
  ConstantTensor result(getType(), splat);
  for (auto [c, l, r] :
       llvm::zip_equal((*sources)[0], (*sources)[1], (*sources)[2])) {
    const ConstantTensor &picked = condition->getInt(c) ? *lhs : *rhs;
    int64_t at = condition->getInt(c) ? l : r;
    if (result.isFloat())
      result.floats.push_back(picked.getFloat(at));
    else
      result.ints.push_back(picked.getInt(at));
  }
  return writeDense(result);
}

//===----------------------------------------------------------------------===//
// Constants, shapes, casts and identities
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }
OpFoldResult DropoutOp::fold(FoldAdaptor) { return getInput(); }

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  auto [start, end] = getShapeDimRange(shape.size(), getStart(), getEnd());
  return DenseElementsAttr::get(getType(), shape.slice(start, end - start));
}

/// `value` converted to the integer type `type` as ONNX Cast does (truncation
/// toward zero; any non-zero value is true), or nullopt when the result is
/// undefined (NaN, out of range).
static std::optional<int64_t> castFloatToInt(double value, IntegerType type) {
  if (type.getWidth() == 1)
    return value != 0.0;
  if (std::isnan(value))
    return std::nullopt;
  double truncated = std::trunc(value);
  unsigned width = type.getWidth();
  if (type.isUnsigned()) {
    if (truncated < 0 || truncated >= std::ldexp(1.0, width))
      return std::nullopt;
    return static_cast<int64_t>(static_cast<uint64_t>(truncated));
  }
  double limit = std::ldexp(1.0, width - 1);
  if (truncated < -limit || truncated >= limit)
    return std::nullopt;
  return static_cast<int64_t>(truncated);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  std::optional<ConstantTensor> input = readConstant(adaptor.getInput());
  if (!input)
    return {};
  ConstantTensor result(getType(), input->splat);
  Type sourceType = getInput().getType().getElementType();
  Type targetType = getType().getElementType();
  for (int64_t i = 0, e = input->getNumStored(); i < e; ++i) {
    if (auto targetInt = dyn_cast<IntegerType>(targetType)) {
      if (input->isFloat()) {
        std::optional<int64_t> value =
            castFloatToInt(input->getFloat(i), targetInt);
        if (!value)
          return {};
        result.ints.push_back(*value);
      } else if (targetInt.getWidth() == 1) {
        result.ints.push_back(input->getInt(i) != 0);
      } else {
        result.ints.push_back(wrapToType(asBits(input->getInt(i)), targetInt));
      }
      continue;
    }
    auto targetFloat = cast<FloatType>(targetType);
    if (input->isFloat()) {
      result.floats.push_back(roundToType(input->getFloat(i), targetFloat));
      continue;
    }
    // Integer to float: one rounding, straight to the target precision.
    APFloat value(targetFloat.getFloatSemantics());
    value.convertFromAPInt(
        APInt(64, asBits(input->getInt(i))),
        /*IsSigned=*/!isZeroExtended(cast<IntegerType>(sourceType)),
        APFloat::rmNearestTiesToEven);
    result.floats.push_back(value.convertToDouble());
  }
  return writeDense(result);
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) is one reshape of x.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  // A constant only changes its type: resources keep their blob, small
  // dense constants are re-typed.
  if (auto resource =
          dyn_cast_or_null<DenseResourceElementsAttr>(adaptor.getInput()))
    return DenseResourceElementsAttr::get(getType(), resource.getRawHandle());
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat() || dense.getNumElements() <= kMaxFoldedElements)
      return dense.reshape(getType());
  return {};
}

static bool isIdentityPermutation(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  if (isIdentityPermutation(perm))
    return getInput();
  // transpose(transpose(x, inner), outer) reads x dimension inner[outer[i]].
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t p : perm)
      composed.push_back(inner.getPerm()[p]);
    if (isIdentityPermutation(composed))
      return inner.getInput();
    setPerm(composed);
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  SmallVector<int64_t> inputStrides =
      getStrides(getInput().getType().getShape());
  return foldMovement(adaptor.getInput(), getType(),
                      [&](ArrayRef<int64_t> index) {
                        int64_t flat = 0;
                        for (auto [i, p] : llvm::enumerate(perm))
                          flat += index[i] * inputStrides[p];
                        return flat;
                      });
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  SmallVector<ConstantTensor> inputs;
  for (Attribute attr : adaptor.getInputs()) {
    std::optional<ConstantTensor> input = readConstant(attr);
    if (!input)
      return {};
    inputs.push_back(std::move(*input));
  }
  // Equal splats concatenate to a splat.
  const ConstantTensor &first = inputs.front();
  if (llvm::all_of(inputs, [&](const ConstantTensor &input) {
        return input.splat && input.ints == first.ints &&
               input.floats == first.floats;
      }))
    return writeSplat(first, getType());
  if (getType().getNumElements() > kMaxFoldedElements)
    return {};
  // Lay the inputs end to end, then read each result element from its input.
  ConstantTensor all(getType(), /*splat=*/false);
  SmallVector<int64_t> bases, axisOffsets;
  SmallVector<SmallVector<int64_t>> strides;
  int64_t base = 0, axisOffset = 0;
  int64_t axis = getAxis();
  for (const ConstantTensor &input : inputs) {
    bases.push_back(base);
    axisOffsets.push_back(axisOffset);
    strides.push_back(getStrides(input.type.getShape()));
    for (int64_t i = 0, e = input.type.getNumElements(); i < e; ++i) {
      if (input.isFloat())
        all.floats.push_back(input.getFloat(i));
      else
        all.ints.push_back(input.getInt(i));
    }
    base += input.type.getNumElements();
    axisOffset += input.type.getDimSize(axis);
  }
  auto sources = mapSources(getType(), [&](ArrayRef<int64_t> index) {
    // The last input whose axis range starts at or before index[axis].
    size_t k =
        llvm::upper_bound(axisOffsets, index[axis]) - axisOffsets.begin() - 1;
    while (inputs[k].type.getDimSize(axis) == 0)
      --k; // skip empty inputs that share an offset with a later one
    int64_t flat = bases[k];
    for (size_t d = 0; d < index.size(); ++d)
      flat += (d == static_cast<size_t>(axis) ? index[d] - axisOffsets[k]
                                              : index[d]) *
              strides[k][d];
    return flat;
  });
  return writeDense(pickElements(all, getType(), sources));
}

/// slice(slice(x)) as one slice of x, updated in place: result index i
/// reads inner index s2 + i * t2, which reads x at s1 + (s2 + i * t2) * t1.
/// Fails (and changes nothing) when a composed bound leaves the int32 range
/// the verifier accepts.
static LogicalResult composeWithInnerSlice(SliceOp outer, SliceOp inner) {
  SmallVector<int64_t> starts, ends, steps;
  for (int64_t d = 0, rank = outer.getType().getRank(); d < rank; ++d) {
    int64_t size = outer.getType().getDimSize(d);
    if (size == 0) {
      starts.push_back(0);
      ends.push_back(0);
      steps.push_back(1);
      continue;
    }
    int64_t start =
        inner.getStarts()[d] + outer.getStarts()[d] * inner.getSteps()[d];
    int64_t step = inner.getSteps()[d] * outer.getSteps()[d];
    // A backward slice may end anywhere below its last index; -1 keeps the
    // size (start + size * step <= -1 there).
    int64_t end = std::max<int64_t>(start + size * step, step < 0 ? -1 : 0);
    starts.push_back(start);
    ends.push_back(end);
    steps.push_back(step);
  }
  constexpr int64_t limit = kMaxShapeAttributeMagnitude;
  for (ArrayRef<int64_t> values :
       {ArrayRef(starts), ArrayRef(ends), ArrayRef(steps)})
    for (int64_t value : values)
      if (value > limit || value < -limit)
        return failure();
  outer.setStarts(starts);
  outer.setEnds(ends);
  outer.setSteps(steps);
  outer.getInputMutable().assign(inner.getInput());
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  // Same shape with unit steps (or dimensions too small to be reversed)
  // selects everything in order.
  if (getInput().getType() == getType() &&
      llvm::all_of(llvm::seq<size_t>(0, steps.size()), [&](size_t d) {
        return steps[d] == 1 || inputShape[d] <= 1;
      }))
    return getInput();
  if (auto inner = getInput().getDefiningOp<SliceOp>())
    if (succeeded(composeWithInnerSlice(*this, inner)))
      return getResult();
  SmallVector<int64_t> inputStrides = getStrides(inputShape);
  return foldMovement(
      adaptor.getInput(), getType(), [&](ArrayRef<int64_t> index) {
        int64_t flat = 0;
        for (size_t d = 0; d < index.size(); ++d)
          flat += (starts[d] + index[d] * steps[d]) * inputStrides[d];
        return flat;
      });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getData())
    return {};
  std::optional<ConstantTensor> indices = readConstant(adaptor.getIndices());
  if (!indices)
    return {};
  ArrayRef<int64_t> dataShape = getData().getType().getShape();
  int64_t axis = getAxis(), axisSize = dataShape[axis];
  // Negative indices count from the end; out-of-range ones read an
  // unspecified element, which is not folded.
  SmallVector<int64_t> positions;
  for (int64_t i = 0, e = indices->type.getNumElements(); i < e; ++i) {
    int64_t position = indices->getInt(i);
    if (position < 0)
      position += axisSize;
    if (position < 0 || position >= axisSize)
      return {};
    positions.push_back(position);
  }
  SmallVector<int64_t> dataStrides = getStrides(dataShape);
  SmallVector<int64_t> indexStrides = getStrides(indices->type.getShape());
  int64_t indexRank = indices->type.getRank();
  return foldMovement(adaptor.getData(), getType(),
                      [&](ArrayRef<int64_t> index) {
                        int64_t flat = 0;
                        for (int64_t d = 0; d < axis; ++d)
                          flat += index[d] * dataStrides[d];
                        int64_t indexFlat = 0;
                        for (int64_t d = 0; d < indexRank; ++d)
                          indexFlat += index[axis + d] * indexStrides[d];
                        flat += positions[indexFlat] * dataStrides[axis];
                        for (int64_t d = axis + 1;
                             d < static_cast<int64_t>(dataShape.size()); ++d)
                          flat += index[d - 1 + indexRank] * dataStrides[d];
                        return flat;
                      });
}

OpFoldResult PadOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> pads = getPads();
  if (llvm::all_of(pads, [](int64_t pad) { return pad == 0; }))
    return getInput();
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  int64_t rank = inputShape.size();
  std::optional<double> fill;
  if (getMode() == PadMode::constant) {
    fill = getValue().convertToDouble();
    // An integer fill must be an integer the element type holds.
    if (isa<IntegerType>(getType().getElementType()) &&
        (std::trunc(*fill) != *fill || std::abs(*fill) >= std::ldexp(1.0, 63)))
      return {};
  }
  SmallVector<int64_t> inputStrides = getStrides(inputShape);
  PadMode mode = getMode();
  return foldMovement(
      adaptor.getInput(), getType(),
      [&](ArrayRef<int64_t> index) -> int64_t {
        int64_t flat = 0;
        for (int64_t d = 0; d < rank; ++d) {
          int64_t size = inputShape[d];
          int64_t source = index[d] - pads[d];
          if (source < 0 || source >= size) {
            if (mode == PadMode::constant)
              return -1;
            if (mode == PadMode::edge)
              source = std::clamp<int64_t>(source, 0, size - 1);
            else // reflect; the verifier keeps pads below the size
              source = source < 0 ? -source : 2 * (size - 1) - source;
          }
          flat += source * inputStrides[d];
        }
        return flat;
      },
      fill);
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Broadcasting is transitive: expand(expand(x)) is one expand of x.
  if (auto inner = getInput().getDefiningOp<ExpandOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  SmallVector<int64_t> inputStrides = getStrides(inputShape);
  return foldMovement(
      adaptor.getInput(), getType(), [&](ArrayRef<int64_t> index) {
        return getBroadcastSource(index, inputShape, inputStrides);
      });
}

OpFoldResult TileOp::fold(FoldAdaptor adaptor) {
  if (llvm::all_of(getRepeats(), [](int64_t repeat) { return repeat == 1; }))
    return getInput();
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  SmallVector<int64_t> inputStrides = getStrides(inputShape);
  return foldMovement(adaptor.getInput(), getType(),
                      [&](ArrayRef<int64_t> index) {
                        int64_t flat = 0;
                        for (size_t d = 0; d < index.size(); ++d)
                          flat += (index[d] % inputShape[d]) * inputStrides[d];
                        return flat;
                      });
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  std::optional<ConstantTensor> input = readConstant(adaptor.getInput());
  if (!input)
    return {};
  ConstantTensor result = *input;
  for (int64_t &value : result.ints)
    value = value ? 0 : 1;
  return writeDense(result);
}

/// ScatterND of constants (Swin's shifted-window masks are built so):
/// each index tuple's slice of the data replaced or combined with its
/// update, in order. Indices outside the data leave the op alone.
OpFoldResult ScatterNDOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getData() || !adaptor.getIndices() || !adaptor.getUpdates())
    return {};
  std::optional<ConstantTensor> data = readConstant(adaptor.getData());
  std::optional<ConstantTensor> indices = readConstant(adaptor.getIndices());
  std::optional<ConstantTensor> updates = readConstant(adaptor.getUpdates());
  if (!data || !indices || !updates ||
      getType().getNumElements() > kMaxFoldedElements ||
      updates->type.getNumElements() > kMaxFoldedElements)
    return {};
  ArrayRef<int64_t> shape = getType().getShape();
  ArrayRef<int64_t> indexShape = indices->type.getShape();
  int64_t depth = indexShape.back();
  int64_t tuples = indices->type.getNumElements() / std::max<int64_t>(depth, 1);
  SmallVector<int64_t> strides = getStrides(shape);
  int64_t slice = 1;
  for (int64_t d = depth, e = shape.size(); d < e; ++d)
    slice *= shape[d];
  ConstantTensor result(getType(), /*splat=*/false);
  bool isFloat = result.isFloat();
  for (int64_t i = 0, e = getType().getNumElements(); i < e; ++i) {
    if (isFloat)
      result.floats.push_back(data->getFloat(i));
    else
      result.ints.push_back(data->getInt(i));
  }
  StringRef reduction = getReduction();
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (int64_t d = 0; d < depth; ++d) {
      int64_t at = indices->getInt(t * depth + d);
      if (at < 0)
        at += shape[d];
      if (at < 0 || at >= shape[d])
        return {};
      base += at * strides[d];
    }
    for (int64_t k = 0; k < slice; ++k) {
      int64_t u = t * slice + k;
      auto combine = [&](auto old, auto update) -> decltype(old) {
        if (reduction == "add")
          return old + update;
        if (reduction == "mul")
          return old * update;
        if (reduction == "max")
          return std::max(old, update);
        if (reduction == "min")
          return std::min(old, update);
        return update;
      };
      if (isFloat)
        result.floats[base + k] =
            roundToType(combine(result.floats[base + k], updates->getFloat(u)),
                        cast<FloatType>(getType().getElementType()));
      else
        result.ints[base + k] =
            wrapToType(combine(result.ints[base + k], updates->getInt(u)),
                       cast<IntegerType>(getType().getElementType()));
    }
  }
  return writeDense(result);
}

//===----------------------------------------------------------------------===//
// Canonicalisation patterns
//===----------------------------------------------------------------------===//

namespace {
/// batch_norm(conv(x, w, b)) -> conv(x, w', b') with constant w and b:
///   w'[m] = w[m] * s[m],  b'[m] = (b[m] - mean[m]) * s[m] + beta[m],
///   s[m] = scale[m] / sqrt(var[m] + epsilon).
/// Weights of any size are rewritten (this is how BatchNorm disappears from
/// real models); dense_resource weights give dense_resource results.
struct FoldBatchNormIntoConv : public OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormOp batchNorm,
                                PatternRewriter &rewriter) const override {
    auto conv = batchNorm.getInput().getDefiningOp<ConvOp>();
    if (!conv || !conv->hasOneUse())
      return rewriter.notifyMatchFailure(
          batchNorm, "input is not a dlc.conv used only by the batch_norm");
    auto readOperand = [](Value value) -> std::optional<ConstantTensor> {
      Attribute attr;
      if (!value || !matchPattern(value, m_Constant(&attr)))
        return std::nullopt;
      return readConstant(attr, kNoElementLimit);
    };
    std::optional<ConstantTensor> filter = readOperand(conv.getFilter());
    std::optional<ConstantTensor> convBias = readOperand(conv.getBias());
    std::optional<ConstantTensor> scale = readOperand(batchNorm.getScale());
    std::optional<ConstantTensor> beta = readOperand(batchNorm.getBias());
    std::optional<ConstantTensor> mean = readOperand(batchNorm.getMean());
    std::optional<ConstantTensor> variance =
        readOperand(batchNorm.getVariance());
    if (!filter || (conv.getBias() && !convBias) || !scale || !beta || !mean ||
        !variance)
      return rewriter.notifyMatchFailure(
          batchNorm, "conv weights or batch_norm parameters are not readable "
                     "constants");

    auto elementType = cast<FloatType>(filter->type.getElementType());
    double epsilon = batchNorm.getEpsilon().convertToDouble();
    int64_t features = filter->type.getDimSize(0);
    int64_t perFeature =
        features ? filter->type.getNumElements() / features : 0;
    ConstantTensor newFilter(filter->type, /*splat=*/false);
    ConstantTensor newBias(RankedTensorType::get({features}, elementType),
                           /*splat=*/false);
    newFilter.floats.reserve(filter->type.getNumElements());
    for (int64_t m = 0; m < features; ++m) {
      double factor =
          scale->getFloat(m) / std::sqrt(variance->getFloat(m) + epsilon);
      for (int64_t j = 0; j < perFeature; ++j)
        newFilter.floats.push_back(roundToType(
            filter->getFloat(m * perFeature + j) * factor, elementType));
      double bias = convBias ? convBias->getFloat(m) : 0.0;
      newBias.floats.push_back(
          roundToType((bias - mean->getFloat(m)) * factor + beta->getFloat(m),
                      elementType));
    }

    Attribute filterAttr;
    matchPattern(conv.getFilter(), m_Constant(&filterAttr));
    ElementsAttr newFilterAttr, newBiasAttr;
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(filterAttr)) {
      std::string name = resource.getRawHandle().getKey().str();
      newFilterAttr = writeResource(newFilter, name + "_bn");
      newBiasAttr = writeResource(newBias, name + "_bn_bias");
    } else {
      newFilterAttr = writeDense(newFilter);
      newBiasAttr = writeDense(newBias);
    }
    Location loc = rewriter.getFusedLoc({conv.getLoc(), batchNorm.getLoc()});
    Value filterValue = ConstantOp::create(
        rewriter, loc, newFilterAttr.getType(), newFilterAttr);
    Value biasValue =
        ConstantOp::create(rewriter, loc, newBiasAttr.getType(), newBiasAttr);
    auto newConv = ConvOp::create(
        rewriter, loc, conv.getType(), conv.getInput(), filterValue, biasValue,
        conv.getStridesAttr(), conv.getDilationsAttr(), conv.getPadsAttr(),
        conv.getGroupAttr());
    rewriter.replaceOp(batchNorm, newConv.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// concat(a, concat(b, c), d) along one axis is concat(a, b, c, d); inputs
/// that are empty along the axis contribute nothing and are dropped (as long
/// as one input remains).
struct SimplifyConcatInputs : public OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    int64_t axis = concat.getAxis();
    SmallVector<Value> inputs;
    bool changed = false;
    for (Value input : concat.getInputs()) {
      auto inner = input.getDefiningOp<ConcatOp>();
      if (inner && static_cast<int64_t>(inner.getAxis()) == axis) {
        llvm::append_range(inputs, inner.getInputs());
        changed = true;
      } else {
        inputs.push_back(input);
      }
    }
    SmallVector<Value> nonEmpty;
    for (Value input : inputs)
      if (cast<RankedTensorType>(input.getType()).getDimSize(axis) != 0)
        nonEmpty.push_back(input);
    if (!nonEmpty.empty() && nonEmpty.size() != inputs.size()) {
      inputs = std::move(nonEmpty);
      changed = true;
    }
    if (!changed)
      return failure();
    rewriter.replaceOpWithNewOp<ConcatOp>(concat, concat.getType(), inputs,
                                          axis);
    return success();
  }
};
} // namespace

void BatchNormOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<FoldBatchNormIntoConv>(context);
}

void ConcatOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<SimplifyConcatInputs>(context);
}
