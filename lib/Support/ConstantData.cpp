//===- ConstantData.cpp - the bytes of a constant tensor ------------------===//

#include "dlc/Support/ConstantData.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

LogicalResult dlc::appendConstantBytes(ElementsAttr value, std::string &bytes) {
  auto type = cast<ShapedType>(value.getType());
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return failure();
  int64_t count = type.getNumElements();
  if (element.isInteger(1)) {
    for (bool bit : value.getValues<bool>())
      bytes.push_back(bit ? 1 : 0);
    return success();
  }
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return failure();
    ArrayRef<char> data = blob->getData();
    if (static_cast<int64_t>(data.size()) != count * elementBytes)
      return failure();
    bytes.append(data.begin(), data.end());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return failure();
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < count; ++i)
      bytes.append(raw.begin(), raw.begin() + elementBytes);
    return success();
  }
  if (static_cast<int64_t>(raw.size()) != count * elementBytes)
    return failure();
  bytes.append(raw.begin(), raw.end());
  return success();
}

uint64_t dlc::hashBytes(llvm::StringRef bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char byte : bytes)
    hash = (hash ^ byte) * 1099511628211ull;
  return hash;
}
