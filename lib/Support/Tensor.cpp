//===- Tensor.cpp - host tensors and ONNX TensorProto files ---------------===//

#include "dlc/Support/Tensor.h"
#include "dlc/Support/WriteFile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace dlc;

size_t dlc::getElementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
  case ElementKind::U64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
  case ElementKind::U32:
    return 4;
  case ElementKind::F16:
  case ElementKind::I16:
  case ElementKind::U16:
    return 2;
  case ElementKind::I8:
  case ElementKind::U8:
  case ElementKind::Bool:
    return 1;
  }
  llvm_unreachable("unknown ElementKind");
}

llvm::StringRef dlc::stringifyElementKind(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::F16:
    return "f16";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::U8:
    return "u8";
  case ElementKind::U16:
    return "u16";
  case ElementKind::U32:
    return "u32";
  case ElementKind::U64:
    return "u64";
  case ElementKind::Bool:
    return "bool";
  }
  llvm_unreachable("unknown ElementKind");
}

bool dlc::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F64 ||
         kind == ElementKind::F16;
}

std::optional<ElementKind> dlc::getElementKindFromONNX(int32_t onnxDataType) {
  using onnx::TensorProto;
  switch (onnxDataType) {
  case TensorProto::FLOAT:
    return ElementKind::F32;
  case TensorProto::DOUBLE:
    return ElementKind::F64;
  case TensorProto::FLOAT16:
    return ElementKind::F16;
  case TensorProto::INT8:
    return ElementKind::I8;
  case TensorProto::INT16:
    return ElementKind::I16;
  case TensorProto::INT32:
    return ElementKind::I32;
  case TensorProto::INT64:
    return ElementKind::I64;
  case TensorProto::UINT8:
    return ElementKind::U8;
  case TensorProto::UINT16:
    return ElementKind::U16;
  case TensorProto::UINT32:
    return ElementKind::U32;
  case TensorProto::UINT64:
    return ElementKind::U64;
  case TensorProto::BOOL:
    return ElementKind::Bool;
  default:
    return std::nullopt;
  }
}

int32_t dlc::getONNXDataType(ElementKind kind) {
  using onnx::TensorProto;
  switch (kind) {
  case ElementKind::F32:
    return TensorProto::FLOAT;
  case ElementKind::F64:
    return TensorProto::DOUBLE;
  case ElementKind::F16:
    return TensorProto::FLOAT16;
  case ElementKind::I8:
    return TensorProto::INT8;
  case ElementKind::I16:
    return TensorProto::INT16;
  case ElementKind::I32:
    return TensorProto::INT32;
  case ElementKind::I64:
    return TensorProto::INT64;
  case ElementKind::U8:
    return TensorProto::UINT8;
  case ElementKind::U16:
    return TensorProto::UINT16;
  case ElementKind::U32:
    return TensorProto::UINT32;
  case ElementKind::U64:
    return TensorProto::UINT64;
  case ElementKind::Bool:
    return TensorProto::BOOL;
  }
  llvm_unreachable("unknown ElementKind");
}

std::optional<ElementKind> dlc::getElementKindFromType(mlir::Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  auto intType = mlir::dyn_cast<mlir::IntegerType>(type);
  if (!intType)
    return std::nullopt;
  if (intType.getWidth() == 1)
    return ElementKind::Bool;
  bool isUnsigned = intType.isUnsigned();
  switch (intType.getWidth()) {
  case 8:
    return isUnsigned ? ElementKind::U8 : ElementKind::I8;
  case 16:
    return isUnsigned ? ElementKind::U16 : ElementKind::I16;
  case 32:
    return isUnsigned ? ElementKind::U32 : ElementKind::I32;
  case 64:
    return isUnsigned ? ElementKind::U64 : ElementKind::I64;
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(ElementKind kind, llvm::ArrayRef<int64_t> shape)
    : kind(kind), shape(shape.begin(), shape.end()) {
  data.assign(getNumElements() * getElementSize(kind), 0);
}

int64_t Tensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

static double halfBitsToDouble(uint16_t bits) {
  llvm::APFloat value(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  return value.convertToFloat();
}

static uint16_t doubleToHalfBits(double value) {
  llvm::APFloat converted(value);
  bool losesInfo;
  converted.convert(llvm::APFloat::IEEEhalf(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return converted.bitcastToAPInt().getZExtValue();
}

template <typename T> static T loadElement(const char *data, int64_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
static void storeElement(char *data, int64_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

double Tensor::getAsDouble(int64_t index) const {
  const char *bytes = data.data();
  switch (kind) {
  case ElementKind::F32:
    return loadElement<float>(bytes, index);
  case ElementKind::F64:
    return loadElement<double>(bytes, index);
  case ElementKind::F16:
    return halfBitsToDouble(loadElement<uint16_t>(bytes, index));
  case ElementKind::I8:
    return loadElement<int8_t>(bytes, index);
  case ElementKind::I16:
    return loadElement<int16_t>(bytes, index);
  case ElementKind::I32:
    return loadElement<int32_t>(bytes, index);
  case ElementKind::I64:
    return static_cast<double>(loadElement<int64_t>(bytes, index));
  case ElementKind::U8:
    return loadElement<uint8_t>(bytes, index);
  case ElementKind::U16:
    return loadElement<uint16_t>(bytes, index);
  case ElementKind::U32:
    return loadElement<uint32_t>(bytes, index);
  case ElementKind::U64:
    return static_cast<double>(loadElement<uint64_t>(bytes, index));
  case ElementKind::Bool:
    return loadElement<uint8_t>(bytes, index) != 0;
  }
  llvm_unreachable("unknown ElementKind");
}

/// Converts to an integer type, truncating toward zero and saturating (a
/// C++ cast of an out-of-range double is undefined).
template <typename T> static T saturatingCast(double value) {
  if (std::isnan(value))
    return 0;
  double lowest = static_cast<double>(std::numeric_limits<T>::lowest());
  double highest = static_cast<double>(std::numeric_limits<T>::max());
  if (value <= lowest)
    return std::numeric_limits<T>::lowest();
  if (value >= highest)
    return std::numeric_limits<T>::max();
  return static_cast<T>(value);
}

void Tensor::setFromDouble(int64_t index, double value) {
  char *bytes = data.data();
  switch (kind) {
  case ElementKind::F32:
    return storeElement<float>(bytes, index, static_cast<float>(value));
  case ElementKind::F64:
    return storeElement<double>(bytes, index, value);
  case ElementKind::F16:
    return storeElement<uint16_t>(bytes, index, doubleToHalfBits(value));
  case ElementKind::I8:
    return storeElement(bytes, index, saturatingCast<int8_t>(value));
  case ElementKind::I16:
    return storeElement(bytes, index, saturatingCast<int16_t>(value));
  case ElementKind::I32:
    return storeElement(bytes, index, saturatingCast<int32_t>(value));
  case ElementKind::I64:
    return storeElement(bytes, index, saturatingCast<int64_t>(value));
  case ElementKind::U8:
    return storeElement(bytes, index, saturatingCast<uint8_t>(value));
  case ElementKind::U16:
    return storeElement(bytes, index, saturatingCast<uint16_t>(value));
  case ElementKind::U32:
    return storeElement(bytes, index, saturatingCast<uint32_t>(value));
  case ElementKind::U64:
    return storeElement(bytes, index, saturatingCast<uint64_t>(value));
  case ElementKind::Bool:
    return storeElement<uint8_t>(bytes, index, value != 0);
  }
  llvm_unreachable("unknown ElementKind");
}

std::string dlc::formatTensorType(ElementKind kind,
                                  llvm::ArrayRef<int64_t> shape) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << stringifyElementKind(kind) << "[";
  llvm::interleave(shape, os, "x");
  os << "]";
  return result;
}

std::string Tensor::getTypeString() const {
  return formatTensorType(kind, shape);
}

//===----------------------------------------------------------------------===//
// TensorProto files
//===----------------------------------------------------------------------===//

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Copies a typed repeated field into `tensor`, converting each value to
/// the element type with `store`; the caller checked the field's length.
template <typename Field, typename Store>
static void copyTypedField(const Field &field, Tensor &tensor, Store store) {
  for (int64_t i = 0, e = field.size(); i < e; ++i)
    store(tensor.data.data(), i, field.Get(i));
}

/// The repeated field that holds values of `kind` when there is no raw_data
/// (fixed by onnx.proto): its name, then its length in `proto`.
static llvm::StringRef getTypedFieldName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "float_data";
  case ElementKind::F64:
    return "double_data";
  case ElementKind::I64:
    return "int64_data";
  case ElementKind::U32:
  case ElementKind::U64:
    return "uint64_data";
  default:
    return "int32_data";
  }
}

static int64_t getTypedFieldSize(const onnx::TensorProto &proto,
                                 ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return proto.float_data_size();
  case ElementKind::F64:
    return proto.double_data_size();
  case ElementKind::I64:
    return proto.int64_data_size();
  case ElementKind::U32:
  case ElementKind::U64:
    return proto.uint64_data_size();
  default:
    return proto.int32_data_size();
  }
}

llvm::Expected<Tensor> dlc::parseTensorProto(llvm::StringRef bytes,
                                             llvm::StringRef sourceName,
                                             std::string *name) {
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return makeError(sourceName + ": not a valid ONNX TensorProto");
  if (name)
    *name = proto.name();
  if (proto.data_location() == onnx::TensorProto::EXTERNAL)
    return makeError(sourceName +
                     ": tensors with external data are not supported");
  std::optional<ElementKind> kind = getElementKindFromONNX(proto.data_type());
  if (!kind)
    return makeError(sourceName + ": unsupported ONNX data type " +
                     llvm::Twine(proto.data_type()));

  std::vector<int64_t> shape;
  int64_t numElements = 1;
  for (int64_t dim : proto.dims()) {
    // Bounded so that the byte count below cannot overflow.
    if (dim < 0 || (dim > 0 && numElements > (int64_t(1) << 40) / dim))
      return makeError(sourceName + ": invalid dimension " + llvm::Twine(dim));
    shape.push_back(dim);
    numElements *= dim;
  }
  size_t elementSize = getElementSize(*kind);
  uint64_t numBytes = static_cast<uint64_t>(numElements) * elementSize;

  // The data must match the shape before the tensor is allocated: a few
  // bytes of dims must not make dlc allocate terabytes.
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != numBytes)
      return makeError(sourceName + ": raw_data has " +
                       llvm::Twine(proto.raw_data().size()) +
                       " bytes, the shape " + formatTensorType(*kind, shape) +
                       " needs " + llvm::Twine(numBytes));
  } else {
    int64_t numValues = getTypedFieldSize(proto, *kind);
    if (numValues != numElements)
      return makeError(sourceName + ": " + getTypedFieldName(*kind) + " has " +
                       llvm::Twine(numValues) + " values, the shape " +
                       formatTensorType(*kind, shape) + " needs " +
                       llvm::Twine(numElements));
  }
  Tensor tensor(*kind, shape);

  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    // ONNX stores raw_data little-endian, like every host dlc runs on.
    std::memcpy(tensor.data.data(), raw.data(), raw.size());
    return tensor;
  }

  // Typed fields: which field holds which data type is fixed by onnx.proto.
  switch (*kind) {
  case ElementKind::F32:
    copyTypedField(proto.float_data(), tensor, storeElement<float>);
    break;
  case ElementKind::F64:
    copyTypedField(proto.double_data(), tensor, storeElement<double>);
    break;
  case ElementKind::I64:
    copyTypedField(proto.int64_data(), tensor, storeElement<int64_t>);
    break;
  case ElementKind::U32:
  case ElementKind::U64:
    copyTypedField(proto.uint64_data(), tensor,
                   [&](char *data, int64_t i, uint64_t value) {
                     // Little-endian: the low bytes of the 64-bit value.
                     std::memcpy(data + i * elementSize, &value, elementSize);
                   });
    break;
  default:
    // int32_data holds every narrower type, FLOAT16 as its bit pattern.
    copyTypedField(proto.int32_data(), tensor,
                   [&](char *data, int64_t i, int32_t value) {
                     std::memcpy(data + i * elementSize, &value, elementSize);
                   });
    break;
  }
  return tensor;
}

llvm::Expected<Tensor> dlc::readTensorProtoFile(llvm::StringRef path,
                                                std::string *name) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read " + path + ": " +
                     buffer.getError().message());
  return parseTensorProto((*buffer)->getBuffer(), path, name);
}

std::string dlc::serializeTensorProto(const Tensor &tensor,
                                      llvm::StringRef name) {
  onnx::TensorProto proto;
  proto.set_name(name.str());
  proto.set_data_type(getONNXDataType(tensor.kind));
  for (int64_t dim : tensor.shape)
    proto.add_dims(dim);
  proto.set_raw_data(tensor.data.data(), tensor.data.size());
  return proto.SerializeAsString();
}

llvm::Error dlc::writeTensorProtoFile(const Tensor &tensor,
                                      llvm::StringRef name,
                                      llvm::StringRef path) {
  std::string bytes = serializeTensorProto(tensor, name);
  return writeFile(path, [&](llvm::raw_ostream &os) {
    os << bytes;
    return llvm::Error::success();
  });
}

//===----------------------------------------------------------------------===//
// Comparison, random tensors, summaries
//===----------------------------------------------------------------------===//

TensorComparison dlc::compareTensors(const Tensor &got, const Tensor &want,
                                     double rtol, double atol) {
  TensorComparison result;
  if (got.kind != want.kind || got.shape != want.shape) {
    result.typeMismatch = true;
    return result;
  }
  for (int64_t i = 0, e = want.getNumElements(); i < e; ++i) {
    double gotValue = got.getAsDouble(i);
    double wantValue = want.getAsDouble(i);
    bool matches;
    double absError;
    if (std::isnan(gotValue) || std::isnan(wantValue)) {
      matches = std::isnan(gotValue) && std::isnan(wantValue);
      absError = matches ? 0 : std::numeric_limits<double>::infinity();
    } else if (std::isinf(gotValue) || std::isinf(wantValue)) {
      matches = gotValue == wantValue;
      absError = matches ? 0 : std::numeric_limits<double>::infinity();
    } else {
      absError = std::fabs(gotValue - wantValue);
      matches = absError <= atol + rtol * std::fabs(wantValue);
    }
    result.maxAbsError = std::max(result.maxAbsError, absError);
    if (wantValue != 0 && !std::isnan(wantValue))
      result.maxRelError =
          std::max(result.maxRelError, absError / std::fabs(wantValue));
    if (!matches) {
      if (result.numMismatches++ == 0) {
        result.firstMismatchIndex = i;
        result.firstMismatchGot = gotValue;
        result.firstMismatchWant = wantValue;
      }
    }
  }
  return result;
}

Tensor dlc::makeRandomTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape,
                             uint64_t seed) {
  Tensor tensor(kind, shape);
  // mt19937_64's output sequence is fixed by the standard, so the same seed
  // gives the same tensor everywhere (the distributions are not).
  std::mt19937_64 engine(seed);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    uint64_t bits = engine();
    double value;
    if (isFloatKind(kind))
      value = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;
    else if (kind == ElementKind::Bool)
      value = static_cast<double>(bits >> 63);
    else
      value = static_cast<double>(bits >> 62);
    tensor.setFromDouble(i, value);
  }
  return tensor;
}

std::string dlc::summarizeTensor(const Tensor &tensor) {
  double minValue = std::numeric_limits<double>::infinity();
  double maxValue = -minValue;
  double sum = 0;
  int64_t numNaN = 0, numInf = 0, numFinite = 0;
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    double value = tensor.getAsDouble(i);
    if (std::isnan(value)) {
      ++numNaN;
      continue;
    }
    if (std::isinf(value)) {
      ++numInf;
      continue;
    }
    ++numFinite;
    minValue = std::min(minValue, value);
    maxValue = std::max(maxValue, value);
    sum += value;
  }
  std::string result;
  llvm::raw_string_ostream os(result);
  os << tensor.getTypeString();
  if (numFinite)
    os << llvm::format(" min %g max %g mean %g", minValue, maxValue,
                       sum / numFinite);
  os << " nan " << numNaN << " inf " << numInf;
  return result;
}
