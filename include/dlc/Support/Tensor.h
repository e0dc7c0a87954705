//===- Tensor.h - host tensors and ONNX TensorProto files -------*- C++ -*-===//
//
// The tensors that cross the boundary between dlc and its user: inputs and
// outputs of `dlc run`, read from and written to ONNX TensorProto (.pb)
// files, compared with the recorded outputs, or generated at random.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_TENSOR_H
#define DLC_SUPPORT_TENSOR_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

/// Element types a tensor crossing the host boundary can have (the subset
/// of ONNX's TensorProto.DataType dlc executes).
enum class ElementKind {
  F32,
  F64,
  F16,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  Bool
};

/// Bytes per element of `kind`.
size_t getElementSize(ElementKind kind);
llvm::StringRef stringifyElementKind(ElementKind kind);
bool isFloatKind(ElementKind kind);
/// "f32[1x3x224x224]".
std::string formatTensorType(ElementKind kind, llvm::ArrayRef<int64_t> shape);

/// ONNX TensorProto.DataType <-> ElementKind. Returns nothing for ONNX types
/// dlc does not execute (strings, complex, bfloat16, ...).
std::optional<ElementKind> getElementKindFromONNX(int32_t onnxDataType);
int32_t getONNXDataType(ElementKind kind);

/// The ElementKind of an MLIR element type (signless integers are signed,
/// i1 is Bool), or nothing.
std::optional<ElementKind> getElementKindFromType(mlir::Type type);

/// A dense row-major tensor in host memory.
struct Tensor {
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;
  std::vector<char> data; // getNumElements() * getElementSize(kind) bytes

  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  int64_t getNumElements() const;
  /// Element `index` (row-major) converted to double (F16 widened exactly).
  double getAsDouble(int64_t index) const;
  /// Stores `value` into element `index`, converting to `kind` (integers
  /// truncate toward zero, Bool is value != 0).
  void setFromDouble(int64_t index, double value);
  /// "f32[1x3x224x224]".
  std::string getTypeString() const;
};

/// Reads an ONNX TensorProto file (raw_data or the typed repeated fields).
/// `name`, if given, receives the tensor's name.
llvm::Expected<Tensor> readTensorProtoFile(llvm::StringRef path,
                                           std::string *name = nullptr);
/// Parses the bytes of a serialized TensorProto; `sourceName` names it in
/// errors.
llvm::Expected<Tensor> parseTensorProto(llvm::StringRef bytes,
                                        llvm::StringRef sourceName,
                                        std::string *name = nullptr);

/// `tensor` as the bytes of an ONNX TensorProto (raw_data) named `name`.
std::string serializeTensorProto(const Tensor &tensor, llvm::StringRef name);

/// Writes `tensor` as an ONNX TensorProto (raw_data) named `name`.
llvm::Error writeTensorProtoFile(const Tensor &tensor, llvm::StringRef name,
                                 llvm::StringRef path);

/// Result of comparing a computed tensor with the expected one.
struct TensorComparison {
  /// Shapes or element kinds differ: nothing else is meaningful.
  bool typeMismatch = false;
  double maxAbsError = 0;
  /// max |got - want| / |want| over elements with want != 0.
  double maxRelError = 0;
  /// Elements outside |got - want| <= atol + rtol * |want|.
  int64_t numMismatches = 0;
  /// The first element outside tolerance (-1 when none) and its values.
  int64_t firstMismatchIndex = -1;
  double firstMismatchGot = 0, firstMismatchWant = 0;

  bool isMatch() const { return !typeMismatch && numMismatches == 0; }
};

/// Compares element by element: |got - want| <= atol + rtol * |want|, NaN
/// matches NaN, an infinity matches the same infinity. Integer and Bool
/// tensors are compared the same way on their values.
TensorComparison compareTensors(const Tensor &got, const Tensor &want,
                                double rtol, double atol);

/// A tensor of `kind` and `shape` with reproducible pseudo-random contents
/// determined by `seed`: floats uniform in [-1, 1), integers in [0, 4),
/// Bool 0 or 1.
Tensor makeRandomTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape,
                        uint64_t seed);

/// "min -0.5 max 2.25 mean 0.03 nan 0 inf 0" style summary of the values.
std::string summarizeTensor(const Tensor &tensor);

} // namespace dlc

#endif // DLC_SUPPORT_TENSOR_H
