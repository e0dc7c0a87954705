//===- Tensor.h - host tensors and ONNX TensorProto files -------*- C++ -*-===//
#ifndef DLC_SUPPORT_TENSOR_H
#define DLC_SUPPORT_TENSOR_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlc {

/// Element types a tensor crossing the host boundary can have (the subset
/// of ONNX's TensorProto.DataType dlc executes).
enum class ElementKind { F32, F64, F16, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

/// Bytes per element of `kind`.
size_t getElementSize(ElementKind kind);
llvm::StringRef stringifyElementKind(ElementKind kind);

/// A dense row-major tensor in host memory.
struct Tensor {
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;
  std::vector<char> data; // getNumElements() * getElementSize(kind) bytes

  int64_t getNumElements() const;
};

} // namespace dlc

#endif // DLC_SUPPORT_TENSOR_H
