//===- onnx-text.cpp - fuzz the importer on ONNX text syntax -------------===//
//
// Inputs are models in ONNX's text syntax (as test/**/*.onnxtxt, whose
// `# RUN` comments the parser skips). The importer tells text from binary by
// the content; inputs that would be read as binary are skipped.
//
//===----------------------------------------------------------------------===//

#include "ONNXFuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (size_t i = 0; i < size && i < 4096; ++i)
    if (data[i] < 0x20 && data[i] != '\n' && data[i] != '\r' && data[i] != '\t')
      return 0;
  dlc::fuzz::importONNXBytes(
      llvm::StringRef(reinterpret_cast<const char *>(data), size));
  return 0;
}
