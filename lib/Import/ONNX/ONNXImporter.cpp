//===- ONNXImporter.cpp - ONNX models to the dlc dialect ------------------===//
//
// Walks an ONNX model: parses and checks it (through ONNXModelLoader, the
// only code that touches libonnx's exceptions), turns initializers into
// dlc.constant ops without copying their raw bytes, graph inputs into the
// arguments of the entry function, and every node into dlc ops through the
// operator importers of ONNXOpImporters.cpp.
//
//===----------------------------------------------------------------------===//

#include "dlc/Import/ONNX/ONNXImporter.h"

#include "ONNXImporterImpl.h"
#include "ONNXModelLoader.h"

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Dialect/DLC/IR/NodeLocation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <map>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

/// Tensors with at most this many elements become plain `dense` attributes
/// (readable in tests, foldable); larger ones become `dense_resource` blobs.
static constexpr int64_t kMaxInlineElements = 16;

//===----------------------------------------------------------------------===//
// Element types and tensors
//===----------------------------------------------------------------------===//

Type dlc::onnx_import::convertONNXElementType(int32_t onnxType,
                                              MLIRContext *ctx) {
  Builder b(ctx);
  switch (onnxType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::INT8:
    return b.getIntegerType(8);
  case onnx::TensorProto::INT16:
    return b.getIntegerType(16);
  case onnx::TensorProto::INT32:
    return b.getIntegerType(32);
  case onnx::TensorProto::INT64:
    return b.getIntegerType(64);
  case onnx::TensorProto::UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case onnx::TensorProto::UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case onnx::TensorProto::UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case onnx::TensorProto::UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return {};
  }
}

static std::string getONNXTypeName(int32_t onnxType) {
  if (onnx::TensorProto_DataType_IsValid(onnxType))
    return onnx::TensorProto_DataType_Name(onnxType);
  return "type #" + std::to_string(onnxType);
}

/// Bytes per element in a TensorProto's raw_data (bool takes one byte).
static size_t getRawElementSize(Type elementType) {
  return std::max<size_t>(1, elementType.getIntOrFloatBitWidth() / 8);
}

/// Resource blob keys are printed as identifiers: keep [A-Za-z0-9_.].
static std::string getBlobName(StringRef tensorName) {
  std::string name;
  for (char c : tensorName)
    name.push_back(llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_');
  if (name.empty() || llvm::isDigit(name.front()))
    name.insert(0, "t_");
  return name;
}

/// Wraps `bytes` (the raw little-endian contents of a tensor of `type`) in a
/// dense_resource attribute. The string is moved into the blob, which frees
/// it; it is copied only if its storage is not aligned for the element type.
static ElementsAttr createResourceAttr(RankedTensorType type,
                                       std::unique_ptr<std::string> bytes,
                                       StringRef tensorName) {
  size_t alignment = getRawElementSize(type.getElementType());
  ArrayRef<char> data(bytes->data(), bytes->size());
  AsmResourceBlob blob;
  if (reinterpret_cast<uintptr_t>(data.data()) % alignment != 0) {
    blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(data, alignment);
  } else {
    std::string *owned = bytes.release();
    blob = AsmResourceBlob(
        data, alignment, [owned](void *, size_t, size_t) { delete owned; },
        /*dataIsMutable=*/false);
  }
  return DenseResourceElementsAttr::get(type, getBlobName(tensorName),
                                        std::move(blob));
}

/// Builds the attribute for `bytes` (raw little-endian contents of `type`):
/// dense when small or bool, dense_resource otherwise.
static ElementsAttr createElementsAttr(RankedTensorType type,
                                       std::unique_ptr<std::string> bytes,
                                       StringRef tensorName) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> values;
    values.reserve(bytes->size());
    for (char c : *bytes)
      values.push_back(c != 0);
    return DenseElementsAttr::get(type, values);
  }
  if (type.getNumElements() <= kMaxInlineElements)
    return DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(bytes->data(), bytes->size()));
  return createResourceAttr(type, std::move(bytes), tensorName);
}

/// Packs the typed values of a TensorProto field into raw little-endian
/// bytes of `elementSize` bytes each (integers are truncated to the element
/// width, as ONNX stores int8..uint16, bool and float16 bits in int32_data).
template <typename FieldT>
static std::unique_ptr<std::string>
packTypedField(const FieldT &field, size_t elementSize, bool isFloat) {
  auto bytes = std::make_unique<std::string>(field.size() * elementSize, '\0');
  char *out = bytes->data();
  for (auto value : field) {
    if (isFloat && elementSize == 4) {
      float f = static_cast<float>(value);
      std::memcpy(out, &f, 4);
    } else if (isFloat && elementSize == 8) {
      double d = static_cast<double>(value);
      std::memcpy(out, &d, 8);
    } else {
      uint64_t bits = static_cast<uint64_t>(value);
      for (size_t i = 0; i < elementSize; ++i)
        out[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
    }
    out += elementSize;
  }
  return bytes;
}

ElementsAttr dlc::onnx_import::convertTensorProto(onnx::TensorProto &tensor,
                                                  StringRef what,
                                                  Location loc) {
  MLIRContext *ctx = loc.getContext();
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    emitError(loc) << what
                   << " stores its data in an external file, which is not "
                      "supported";
    return {};
  }
  Type elementType = convertONNXElementType(tensor.data_type(), ctx);
  if (!elementType) {
    emitError(loc) << what << " has element type "
                   << getONNXTypeName(tensor.data_type())
                   << ", which dlc does not support";
    return {};
  }
  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0 || (dim > 0 && numElements > INT64_MAX / dim / 8)) {
      emitError(loc) << what << " has an invalid dimension " << dim;
      return {};
    }
    shape.push_back(dim);
    numElements *= dim;
  }
  auto type = RankedTensorType::get(shape, elementType);
  size_t elementSize = getRawElementSize(elementType);
  uint64_t expectedBytes = numElements * elementSize;

  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != expectedBytes) {
      emitError(loc) << what << " has " << tensor.raw_data().size()
                     << " bytes of raw_data but its type " << type << " needs "
                     << expectedBytes;
      return {};
    }
    // Take the bytes out of the protobuf instead of copying them.
    return createElementsAttr(
        type, std::unique_ptr<std::string>(tensor.release_raw_data()),
        tensor.name());
  }

  std::unique_ptr<std::string> bytes;
  int64_t numValues = 0;
  bool isFloat = isa<FloatType>(elementType);
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    numValues = tensor.float_data_size();
    bytes = packTypedField(tensor.float_data(), elementSize, isFloat);
    break;
  case onnx::TensorProto::DOUBLE:
    numValues = tensor.double_data_size();
    bytes = packTypedField(tensor.double_data(), elementSize, isFloat);
    break;
  case onnx::TensorProto::INT64:
    numValues = tensor.int64_data_size();
    bytes = packTypedField(tensor.int64_data(), elementSize, isFloat);
    break;
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    numValues = tensor.uint64_data_size();
    bytes = packTypedField(tensor.uint64_data(), elementSize, isFloat);
    break;
  default:
    // int8..uint16, int32, bool and the bits of float16 live in int32_data.
    numValues = tensor.int32_data_size();
    bytes = packTypedField(tensor.int32_data(), elementSize,
                           /*isFloat=*/false);
    break;
  }
  if (numValues != numElements) {
    emitError(loc) << what << " holds " << numValues << " values but its type "
                   << type << " needs " << numElements;
    return {};
  }
  return createElementsAttr(type, std::move(bytes), tensor.name());
}

/// The raw bytes behind a dense_resource attribute, if its blob is alive.
static std::optional<ArrayRef<char>> getResourceData(ElementsAttr attr) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  return blob->getData();
}

/// Element `index` of a little-endian buffer of `width`-bit elements.
static APInt readRawElement(ArrayRef<char> data, size_t index, unsigned width) {
  size_t elementSize = width / 8;
  uint64_t bits = 0;
  for (size_t i = 0; i < elementSize; ++i)
    bits |= static_cast<uint64_t>(
                static_cast<unsigned char>(data[index * elementSize + i]))
            << (8 * i);
  return APInt(width, bits);
}

std::optional<SmallVector<int64_t>>
dlc::onnx_import::readIntegerElements(ElementsAttr attr) {
  auto intType = dyn_cast<IntegerType>(attr.getElementType());
  if (!intType)
    return std::nullopt;
  unsigned width = intType.getWidth();
  bool isUnsigned = isUnsignedElementType(intType);
  auto extend = [&](const APInt &value) -> int64_t {
    return isUnsigned ? value.getZExtValue() : value.getSExtValue();
  };
  SmallVector<int64_t> values;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    for (const APInt &value : dense.getValues<APInt>())
      values.push_back(extend(value));
    return values;
  }
  // Bool tensors are always dense (see createElementsAttr).
  std::optional<ArrayRef<char>> data = getResourceData(attr);
  if (!data || width == 1)
    return std::nullopt;
  for (size_t i = 0, e = data->size() / (width / 8); i < e; ++i)
    values.push_back(extend(readRawElement(*data, i, width)));
  return values;
}

std::optional<SmallVector<double>>
dlc::onnx_import::readNumericElements(ElementsAttr attr) {
  if (std::optional<SmallVector<int64_t>> ints = readIntegerElements(attr)) {
    bool isUnsigned = isUnsignedElementType(attr.getElementType());
    SmallVector<double> values;
    for (int64_t value : *ints)
      values.push_back(isUnsigned ? static_cast<double>(uint64_t(value))
                                  : static_cast<double>(value));
    return values;
  }
  auto floatType = dyn_cast<FloatType>(attr.getElementType());
  if (!floatType)
    return std::nullopt;
  SmallVector<double> values;
  auto appendAsDouble = [&](APFloat value) {
    bool losesInfo;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    values.push_back(value.convertToDouble());
  };
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    for (const APFloat &value : dense.getValues<APFloat>())
      appendAsDouble(value);
    return values;
  }
  std::optional<ArrayRef<char>> data = getResourceData(attr);
  if (!data)
    return std::nullopt;
  unsigned width = floatType.getWidth();
  for (size_t i = 0, e = data->size() / (width / 8); i < e; ++i)
    appendAsDouble(APFloat(floatType.getFloatSemantics(),
                           readRawElement(*data, i, width)));
  return values;
}

//===----------------------------------------------------------------------===//
// NodeImporter
//===----------------------------------------------------------------------===//

Value NodeImporter::getInput(unsigned index) {
  if (!hasInput(index)) {
    emitError() << "missing input #" << index;
    return {};
  }
  FailureOr<Value> value = lookupValue(node.input(index));
  if (failed(value))
    return {};
  if (!*value) {
    emitError() << "input '" << node.input(index)
                << "' is not defined by a graph input, an initializer or an "
                   "earlier node";
    return {};
  }
  if (index == 1 && opset < 7 && getIntAttr("broadcast", 0) != 0 &&
      getOpType() != "Gemm")
    return getLegacyBroadcastOperand(*value);
  return *value;
}

Value NodeImporter::getLegacyBroadcastOperand(Value operand) {
  // Before opset 7, `broadcast = 1` matched B's dimensions with A's from
  // `axis` on (by default, A's trailing ones); trailing unit dimensions make
  // numpy broadcasting mean the same. (Gemm's C was already numpy-like.)
  FailureOr<Value> lhs = lookupValue(node.input(0));
  if (failed(lhs) || !*lhs)
    return operand;
  int64_t rank = getType(*lhs).getRank();
  ArrayRef<int64_t> shape = getType(operand).getShape();
  int64_t axis = getIntAttr("axis", rank - static_cast<int64_t>(shape.size()));
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis + static_cast<int64_t>(shape.size()) > rank) {
    emitError() << "legacy `broadcast` of " << getType(operand) << " onto "
                << getType(*lhs) << " at axis " << axis << " does not fit";
    return {};
  }
  SmallVector<int64_t> aligned(shape);
  aligned.append(rank - axis - shape.size(), 1);
  FailureOr<Value> reshaped = createReshape(operand, aligned);
  return succeeded(reshaped) ? *reshaped : Value();
}

FailureOr<SmallVector<Value>> NodeImporter::getInputs() {
  SmallVector<Value> inputs;
  for (unsigned i = 0, e = getNumInputs(); i < e; ++i) {
    if (!hasInput(i))
      continue;
    Value value = getInput(i);
    if (!value)
      return failure();
    inputs.push_back(value);
  }
  return inputs;
}

/// The constant value of `value` after folding, or null.
static ElementsAttr getConstantValue(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  return dyn_cast<ElementsAttr>(attr);
}

FailureOr<SmallVector<int64_t>>
NodeImporter::getConstantIntsInput(unsigned index) {
  Value value = getInput(index);
  if (!value)
    return failure();
  ElementsAttr attr = getConstantValue(value);
  if (!attr) {
    emitError() << "input #" << index << " ('" << node.input(index)
                << "') must be a constant (dlc needs static shapes), but it "
                   "is computed at run time";
    return failure();
  }
  std::optional<SmallVector<int64_t>> values = readIntegerElements(attr);
  if (!values) {
    emitError() << "input #" << index << " ('" << node.input(index)
                << "') must be an integer tensor";
    return failure();
  }
  return *values;
}

FailureOr<std::optional<double>>
NodeImporter::getConstantScalarInput(unsigned index) {
  if (!hasInput(index))
    return std::optional<double>();
  Value value = getInput(index);
  if (!value)
    return failure();
  ElementsAttr attr = getConstantValue(value);
  std::optional<SmallVector<double>> values;
  if (attr)
    values = readNumericElements(attr);
  if (!values || values->size() != 1) {
    emitError() << "input #" << index << " ('" << node.input(index)
                << "') must be a constant scalar";
    return failure();
  }
  return std::optional<double>(values->front());
}

const onnx::AttributeProto *NodeImporter::getAttr(StringRef name) const {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

int64_t NodeImporter::getIntAttr(StringRef name, int64_t defaultValue) const {
  const onnx::AttributeProto *attr = getAttr(name);
  return attr ? attr->i() : defaultValue;
}

float NodeImporter::getFloatAttr(StringRef name, float defaultValue) const {
  const onnx::AttributeProto *attr = getAttr(name);
  return attr ? attr->f() : defaultValue;
}

std::string NodeImporter::getStringAttr(StringRef name,
                                        StringRef defaultValue) const {
  const onnx::AttributeProto *attr = getAttr(name);
  return attr ? attr->s() : defaultValue.str();
}

std::optional<SmallVector<int64_t>>
NodeImporter::getIntsAttr(StringRef name) const {
  const onnx::AttributeProto *attr = getAttr(name);
  if (!attr)
    return std::nullopt;
  return SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
}

Value NodeImporter::createConstant(ElementsAttr value) {
  return ConstantOp::create(builder, loc, value.getType(), value);
}

FailureOr<Value> NodeImporter::createReshape(Value input,
                                             ArrayRef<int64_t> shape) {
  RankedTensorType type = getType(input);
  if (type.getShape() == shape)
    return input;
  return create<ReshapeOp>(type.clone(shape), input);
}

FailureOr<int64_t> NodeImporter::normalizeAxis(int64_t axis, int64_t rank,
                                               StringRef what) {
  if (axis < -rank || axis >= rank) {
    emitError() << what << " " << axis << " is out of range for rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
NodeImporter::normalizeAxes(ArrayRef<int64_t> axes, int64_t rank, bool sort,
                            StringRef what) {
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes) {
    FailureOr<int64_t> n = normalizeAxis(axis, rank, what);
    if (failed(n))
      return failure();
    if (llvm::is_contained(normalized, *n)) {
      emitError() << what << " lists axis " << axis << " twice";
      return failure();
    }
    normalized.push_back(*n);
  }
  if (sort)
    llvm::sort(normalized);
  return normalized;
}

FailureOr<Value> NodeImporter::verifyAndFold(Operation *op) {
  if (failed(mlir::verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    return failure();
  }
  Value result = op->getResult(0);
  // Fold like OpBuilder::createOrFold, so that shape computations (Shape,
  // Gather, Concat, ...) become constants that later nodes can read.
  SmallVector<OpFoldResult, 1> foldResults;
  if (failed(op->fold(foldResults)) || foldResults.empty())
    return result;
  if (auto folded = dyn_cast<Value>(foldResults.front())) {
    // An in-place fold (reshape(reshape(x)) -> reshape(x)) returns the op's
    // own result: keep the op.
    if (folded == result || folded.getType() != result.getType())
      return result;
    op->erase();
    return folded;
  }
  Operation *constant = op->getDialect()->materializeConstant(
      builder, cast<Attribute>(foldResults.front()), result.getType(), loc);
  if (!constant)
    return result;
  op->erase();
  return constant->getResult(0);
}

//===----------------------------------------------------------------------===//
// ModelImporter
//===----------------------------------------------------------------------===//

namespace {

/// Imports one checked, shape-inferred model into a module.
class ModelImporter {
public:
  ModelImporter(onnx::ModelProto &model, StringRef sourceName, MLIRContext *ctx,
                const ONNXImportOptions &options)
      : model(model), sourceName(sourceName.str()), ctx(ctx), options(options),
        builder(ctx), moduleLoc(FileLineColLoc::get(ctx, sourceName, 0, 0)) {}

  OwningOpRef<ModuleOp> run();

private:
  LogicalResult importOpset();
  /// The location of a graph input, output or initializer: its name in the
  /// model file.
  Location getValueLocation(StringRef name) {
    return NameLoc::get(StringAttr::get(ctx, name), moduleLoc);
  }
  /// The value of an ONNX name; null if undefined, failure if it is a
  /// broken initializer (reported).
  FailureOr<Value> lookupValue(StringRef name);
  /// Imports `node`; in list mode a failing node poisons its outputs.
  LogicalResult importNode(const onnx::NodeProto &node, unsigned index);
  LogicalResult checkNodeResult(StringRef outputName, Value value,
                                Location loc);
  void eraseDeadOps(Block &block);

  onnx::ModelProto &model;
  std::string sourceName;
  MLIRContext *ctx;
  const ONNXImportOptions &options;
  OpBuilder builder;
  Location moduleLoc;
  int64_t opset = 0;

  llvm::StringMap<Value> values;
  /// Outputs of nodes that failed in list mode; their users are skipped.
  llvm::StringSet<> poisoned;
  /// Operator (domain-qualified outside the default one) -> nodes of it
  /// that failed, for --list-unsupported's summary.
  std::map<std::string, unsigned> failedOperators;
  llvm::StringMap<onnx::TensorProto *> initializers;
  /// Shapes from ONNX's shape inference, to cross-check ours.
  llvm::StringMap<const onnx::TypeProto *> onnxTypes;
};

} // namespace

LogicalResult ModelImporter::importOpset() {
  bool found = false;
  for (const onnx::OperatorSetIdProto &entry : model.opset_import()) {
    if (entry.domain().empty() || entry.domain() == "ai.onnx") {
      opset = entry.version();
      found = true;
    }
  }
  if (!found)
    return emitError(moduleLoc)
           << "the model imports no opset of the default ONNX domain";
  // Opsets 1 to 6 are accepted too: most operators kept their meaning (Elu,
  // GlobalAveragePool, ...); the few legacy forms that changed meaning are
  // rejected node by node in checkLegacyForm.
  if (opset < 1 || opset > 17)
    return emitError(moduleLoc)
           << "opset " << opset
           << " of the default ONNX domain is not supported (dlc supports "
              "opsets 1 to 17; opsets below 7 without their legacy forms)";
  return success();
}

/// The operator forms of opsets before 7 whose meaning differs from what the
/// operator importers implement and that are not rewritten to their modern
/// meaning (as `broadcast`/`axis` are, NodeImporter::getInput): Cast's
/// string `to` (before 6), Tile's `tiles`/`axis` inputs (before 6), Reshape's
/// `shape` attribute (before 5) and Pad's `paddings` (before 2).
/// `consumed_inputs` (before 6) was an allocation hint without meaning and is
/// ignored.
static LogicalResult checkLegacyForm(const onnx::NodeProto &node, int64_t opset,
                                     Location loc) {
  if (opset >= 7)
    return success();
  auto legacy = [&](StringRef what) {
    return emitError(loc) << "legacy form of '" << node.op_type()
                          << "' in opset " << opset << " (" << what
                          << ") is not supported";
  };
  StringRef opType = node.op_type();
  for (const onnx::AttributeProto &attr : node.attribute()) {
    if (opType == "Cast" && attr.name() == "to" &&
        attr.type() == onnx::AttributeProto::STRING)
      return legacy("string `to` attribute");
    if (opType == "Reshape" && attr.name() == "shape")
      return legacy("`shape` attribute");
    if (opType == "Pad" && attr.name() == "paddings")
      return legacy("`paddings` attribute");
  }
  if (opType == "Tile" && opset < 6)
    return legacy("`tiles` and `axis` inputs");
  return success();
}

/// The static tensor type of an ONNX value. Errors name the value and are
/// emitted at `loc` if given (graph inputs); without a location this just
/// tells whether ONNX's shape inference found a static type (cross-check).
static FailureOr<RankedTensorType> convertValueType(const onnx::TypeProto &type,
                                                    StringRef name,
                                                    std::optional<Location> loc,
                                                    MLIRContext *ctx) {
  if (!type.has_tensor_type())
    return emitOptionalError(loc, "'", name,
                             "' is not a tensor (sequence, map and optional "
                             "values are not supported)");
  const onnx::TypeProto::Tensor &tensorType = type.tensor_type();
  Type elementType = convertONNXElementType(tensorType.elem_type(), ctx);
  if (!elementType)
    return emitOptionalError(loc, "'", name, "' has element type ",
                             getONNXTypeName(tensorType.elem_type()),
                             ", which dlc does not support");
  if (!tensorType.has_shape())
    return emitOptionalError(loc, "'", name,
                             "' has an unknown rank (dlc needs static shapes)");
  SmallVector<int64_t> shape;
  for (const auto &[i, dim] : llvm::enumerate(tensorType.shape().dim())) {
    if (dim.has_dim_param())
      return emitOptionalError(loc, "'", name, "' has a dynamic dimension '",
                               dim.dim_param(), "' at index ", i,
                               " (dlc needs static shapes)");
    if (!dim.has_dim_value() || dim.dim_value() < 0)
      return emitOptionalError(loc, "'", name,
                               "' has an unknown dimension at index ", i,
                               " (dlc needs static shapes)");
    if (dim.dim_value() == 0)
      return emitOptionalError(loc, "'", name,
                               "' has a zero-size dimension at index ", i,
                               ", which dlc does not support");
    shape.push_back(dim.dim_value());
  }
  return RankedTensorType::get(shape, elementType);
}

/// The type ONNX's shape inference gave a value, if it is static and known.
static RankedTensorType getStaticONNXType(const onnx::TypeProto &type,
                                          MLIRContext *ctx) {
  FailureOr<RankedTensorType> converted =
      convertValueType(type, "", std::nullopt, ctx);
  return succeeded(converted) ? *converted : RankedTensorType();
}

FailureOr<Value> ModelImporter::lookupValue(StringRef name) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  // Initializers are imported when first used, right before their user.
  auto init = initializers.find(name);
  if (init == initializers.end())
    return Value();
  Location loc = getValueLocation(name);
  ElementsAttr value = convertTensorProto(
      *init->second, ("initializer '" + name + "'").str(), loc);
  if (!value)
    return failure();
  Value constant = ConstantOp::create(builder, loc, value.getType(), value);
  values[name] = constant;
  return constant;
}

LogicalResult ModelImporter::checkNodeResult(StringRef outputName, Value value,
                                             Location loc) {
  auto type = cast<RankedTensorType>(value.getType());
  // Shapes computed from constants (ConstantOfShape, Expand, ...) may be
  // negative or absurdly large.
  int64_t numElements = 1;
  for (int64_t dim : type.getShape()) {
    if (dim < 0 || (dim > 0 && numElements > INT64_MAX / dim))
      return emitError(loc) << "output '" << outputName
                            << "' has an invalid or too large shape " << type;
    numElements *= dim;
  }
  // Empty constants are fine (e.g. Resize's unused roi); computing on empty
  // tensors is not.
  if (numElements == 0 && !value.getDefiningOp<ConstantOp>())
    return emitError(loc) << "output '" << outputName
                          << "' has a zero-size shape " << type
                          << ", which dlc does not support";
  auto it = onnxTypes.find(outputName);
  if (it == onnxTypes.end())
    return success();
  RankedTensorType onnxType = getStaticONNXType(*it->second, ctx);
  if (onnxType && onnxType != type)
    return emitError(loc) << "output '" << outputName << "' has type " << type
                          << " but ONNX shape inference says " << onnxType;
  return success();
}

static bool isDefaultDomain(const onnx::NodeProto &node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

/// Where diagnostics and reports say a node comes from: the model, the
/// node's name (or "<OpType>_<index>" when it has none), its op type and
/// the version of its domain the model imports (0 if none).
static ONNXNodeLocation getNodeLocation(const onnx::ModelProto &model,
                                        StringRef sourceName,
                                        const onnx::NodeProto &node,
                                        size_t index) {
  ONNXNodeLocation where;
  where.model = sourceName.str();
  where.name = node.name().empty()
                   ? node.op_type() + "_" + std::to_string(index)
                   : node.name();
  where.opType = node.op_type();
  where.domain = isDefaultDomain(node) ? "ai.onnx" : node.domain();
  for (const onnx::OperatorSetIdProto &entry : model.opset_import())
    if (entry.domain() == node.domain() ||
        (isDefaultDomain(node) && entry.domain() == "ai.onnx"))
      where.opset = entry.version();
  return where;
}

/// libonnx 1.12's Conv/pool shape inference divides by `strides` without
/// checking them (SIGFPE on 0) and resolves SAME auto_pad in time linear in
/// the dimension (a hang on 2^40), so such models are rejected before it
/// runs, in subgraphs too.
static LogicalResult checkShapeInferenceHazards(const onnx::ModelProto &model,
                                                StringRef sourceName,
                                                const onnx::GraphProto &graph,
                                                MLIRContext *ctx) {
  for (const auto *infos :
       {&graph.input(), &graph.output(), &graph.value_info()}) {
    for (const onnx::ValueInfoProto &info : *infos) {
      if (!info.type().has_tensor_type() ||
          !info.type().tensor_type().has_shape())
        continue;
      for (const auto &[i, dim] :
           llvm::enumerate(info.type().tensor_type().shape().dim()))
        if (dim.dim_value() > std::numeric_limits<int32_t>::max())
          return emitError(
                     NameLoc::get(StringAttr::get(ctx, info.name()),
                                  FileLineColLoc::get(ctx, sourceName, 0, 0)))
                 << "'" << info.name() << "' has dimension " << dim.dim_value()
                 << " at index " << i << ", larger than dlc supports (2^31-1)";
    }
  }
  for (const auto &[index, node] : llvm::enumerate(graph.node())) {
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.name() == "strides" &&
          llvm::any_of(attr.ints(), [](int64_t s) { return s <= 0; })) {
        return emitError(getLocation(
                   ctx, getNodeLocation(model, sourceName, node, index)))
               << "strides must be positive";
      }
      if (attr.has_g() &&
          failed(checkShapeInferenceHazards(model, sourceName, attr.g(), ctx)))
        return failure();
      for (const onnx::GraphProto &subgraph : attr.graphs())
        if (failed(
                checkShapeInferenceHazards(model, sourceName, subgraph, ctx)))
          return failure();
    }
  }
  return success();
}

LogicalResult ModelImporter::importNode(const onnx::NodeProto &node,
                                        unsigned index) {
  Location loc =
      getLocation(ctx, getNodeLocation(model, sourceName, node, index));

  // Every error about this node says which ONNX node it is: errors located
  // elsewhere (at an initializer the node reads) get a note at the node.
  ScopedDiagnosticHandler noteNode(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error &&
        !findONNXNodeLocation(diag.getLocation()))
      diag.attachNote(loc) << "while importing this node";
    return failure(); // Let the next handler print it.
  });

  // In list mode, users of failed nodes are skipped silently.
  for (const std::string &input : node.input()) {
    if (poisoned.contains(input)) {
      for (const std::string &output : node.output())
        poisoned.insert(output);
      return success();
    }
  }

  OpImportFn importFn =
      isDefaultDomain(node) ? lookupOpImporter(node.op_type()) : nullptr;
  LogicalResult result = checkLegacyForm(node, opset, loc);
  auto lookup = [this](StringRef name) { return lookupValue(name); };
  auto declared = [this](StringRef name) -> RankedTensorType {
    auto it = onnxTypes.find(name);
    if (it == onnxTypes.end())
      return {};
    return getStaticONNXType(*it->second, builder.getContext());
  };
  NodeImporter importer(node, opset, loc, builder, lookup, declared);
  if (!importFn) {
    // The location names the operator, its domain and opset.
    result = emitError(loc) << "unsupported operator";
  } else if (succeeded(result)) {
    result = importFn(importer);
  }

  if (succeeded(result)) {
    for (const auto &[i, output] : llvm::enumerate(node.output())) {
      if (output.empty())
        continue;
      Value value =
          i < importer.getResults().size() ? importer.getResults()[i] : Value();
      if (!value) {
        result = emitError(loc)
                 << "output #" << i << " ('" << output << "') is not supported";
        break;
      }
      if (failed(checkNodeResult(output, value, loc))) {
        result = failure();
        break;
      }
      values[output] = value;
    }
  }
  if (failed(result) && options.listAllUnsupported) {
    for (const std::string &output : node.output())
      poisoned.insert(output);
    ++failedOperators[isDefaultDomain(node)
                          ? node.op_type()
                          : node.domain() + "." + node.op_type()];
  }
  return result;
}

void ModelImporter::eraseDeadOps(Block &block) {
  // Folding leaves the constants it read behind; drop what nothing uses.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (op.use_empty() && isPure(&op) && !op.hasTrait<OpTrait::IsTerminator>())
      op.erase();
}

OwningOpRef<ModuleOp> ModelImporter::run() {
  if (failed(importOpset()))
    return {};
  onnx::GraphProto &graph = *model.mutable_graph();
  for (onnx::TensorProto &init : *graph.mutable_initializer())
    initializers[init.name()] = &init;
  for (const onnx::ValueInfoProto &info : graph.value_info())
    onnxTypes[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.output())
    onnxTypes[info.name()] = &info.type();

  // The module is named after the graph, which tells models apart in tests.
  std::optional<StringRef> moduleName;
  if (!graph.name().empty())
    moduleName = graph.name();
  OwningOpRef<ModuleOp> module = ModuleOp::create(moduleLoc, moduleName);
  builder.setInsertionPointToEnd(module->getBody());

  // Arguments: graph inputs that are not initializers (before IR v4,
  // initializers were listed among the inputs too).
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    Location loc = getValueLocation(input.name());
    FailureOr<RankedTensorType> type =
        convertValueType(input.type(), input.name(), loc, ctx);
    if (failed(type))
      return {};
    argTypes.push_back(*type);
    argNames.push_back(input.name());
  }
  auto func = func::FuncOp::create(builder, moduleLoc, options.entryName,
                                   builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [name, arg] : llvm::zip(argNames, body->getArguments())) {
    arg.setLoc(getValueLocation(name));
    values[name] = arg;
  }
  builder.setInsertionPointToEnd(body);

  unsigned numFailed = 0;
  for (const auto &[i, node] : llvm::enumerate(graph.node())) {
    if (succeeded(importNode(node, i)))
      continue;
    if (!options.listAllUnsupported)
      return {};
    ++numFailed;
  }
  if (numFailed) {
    // By operator, the most frequent first: what to implement next.
    std::vector<std::pair<std::string, unsigned>> byOperator(
        failedOperators.begin(), failedOperators.end());
    llvm::stable_sort(byOperator, [](const auto &a, const auto &b) {
      return a.second > b.second;
    });
    InFlightDiagnostic diag = emitError(moduleLoc);
    diag << numFailed << " of " << graph.node_size()
         << " ONNX nodes could not be imported; by operator:";
    for (const auto &[opType, count] : byOperator)
      diag << " " << opType << " (" << count << ")";
    return nullptr;
  }

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    Location loc = getValueLocation(output.name());
    FailureOr<Value> lookedUp = lookupValue(output.name());
    if (failed(lookedUp))
      return {};
    Value value = *lookedUp;
    if (!value)
      return emitError(loc)
                 << "graph output '" << output.name() << "' is not defined",
             nullptr;
    RankedTensorType declared = getStaticONNXType(output.type(), ctx);
    if (declared && declared != value.getType())
      return emitError(loc)
                 << "graph output '" << output.name() << "' is declared as "
                 << declared << " but computes " << value.getType(),
             nullptr;
    results.push_back(value);
  }
  func::ReturnOp::create(builder, moduleLoc, results);
  func.setType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [i, name] : llvm::enumerate(argNames))
    func.setArgAttr(i, DLCDialect::NameAttrHelper::getNameStr(),
                    builder.getStringAttr(name));
  for (const auto &[i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, DLCDialect::NameAttrHelper::getNameStr(),
                       builder.getStringAttr(output.name()));
  eraseDeadOps(*body);

  if (failed(mlir::verify(*module)))
    return {};
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Binary models start with a protobuf field tag, a control byte; ONNX's
/// text syntax is printable and starts with `<` (the model header), a `#`
/// comment or the graph's name.
static bool isTextSyntax(StringRef buffer) {
  for (char c : buffer.take_front(4096)) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\r' && c != '\t')
      return false;
  }
  StringRef trimmed = buffer.ltrim();
  return !trimmed.empty() &&
         (trimmed.front() == '<' || trimmed.front() == '#' ||
          trimmed.front() == '_' || llvm::isAlpha(trimmed.front()));
}

OwningOpRef<ModuleOp> dlc::importONNX(StringRef buffer, StringRef sourceName,
                                      MLIRContext *context,
                                      const ONNXImportOptions &options) {
  context->loadDialect<DLCDialect, func::FuncDialect>();
  Location loc = FileLineColLoc::get(context, sourceName, 0, 0);
  if (buffer.empty()) {
    emitError(loc) << "empty input: not an ONNX model";
    return {};
  }
  onnx::ModelProto model;
  std::string error =
      isTextSyntax(buffer)
          ? parseTextModel(buffer.str(), model)
          : parseBinaryModel(buffer.data(), buffer.size(), model);
  if (!error.empty()) {
    emitError(loc) << error;
    return {};
  }
  if (failed(checkShapeInferenceHazards(model, sourceName, model.graph(),
                                        context)))
    return {};
  int failingNode = -1;
  error = checkAndInferShapes(model, failingNode);
  if (!error.empty()) {
    if (failingNode >= 0)
      loc =
          getLocation(context, getNodeLocation(model, sourceName,
                                               model.graph().node(failingNode),
                                               failingNode));
    emitError(loc) << error;
    return {};
  }
  return ModelImporter(model, sourceName, context, options).run();
}

OwningOpRef<ModuleOp> dlc::importONNXFile(StringRef path, MLIRContext *context,
                                          const ONNXImportOptions &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError()) {
    emitError(UnknownLoc::get(context))
        << "cannot read '" << path << "': " << ec.message();
    return {};
  }
  return importONNX((*file)->getBuffer(), path, context, options);
}

void dlc::registerONNXImportTranslation() {
  static llvm::cl::opt<bool> listUnsupported(
      "list-unsupported",
      llvm::cl::desc("With --import-onnx: report every ONNX node that cannot "
                     "be imported instead of stopping at the first one"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> entryName(
      "onnx-entry-name",
      llvm::cl::desc("With --import-onnx: name of the entry function"),
      llvm::cl::init("main"));
  static TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model (binary .onnx or text syntax)",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        ScopedDiagnosticHandler nodeDiagnostics(
            context, makeONNXNodeDiagnosticHandler(llvm::errs()));
        ONNXImportOptions options;
        options.listAllUnsupported = listUnsupported;
        options.entryName = entryName;
        // With --split-input-file each chunk is named "within split at
        // FILE:LINE offset "; diagnostics name the chunk as FILE:LINE.
        StringRef name = buffer->getBufferIdentifier();
        if (name.consume_front("within split at "))
          name = name.rtrim().drop_back(StringRef("offset").size()).rtrim();
        OwningOpRef<ModuleOp> module =
            importONNX(buffer->getBuffer(), name, context, options);
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) {
        registry.insert<DLCDialect, func::FuncDialect>();
      });
}
