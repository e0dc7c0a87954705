//===- onnx-binary.cpp - fuzz the importer on binary ModelProtos ---------===//
//
// Inputs are the bytes of a .onnx file. Text-looking inputs are skipped:
// they are the other fuzzer's (onnx-text.cpp).
//
//===----------------------------------------------------------------------===//

#include "ONNXFuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0 || data[0] == '<' || data[0] == '#')
    return 0;
  dlc::fuzz::importONNXBytes(
      llvm::StringRef(reinterpret_cast<const char *>(data), size));
  return 0;
}
