//===- onnx-to-text.cpp - binary ONNX models in ONNX text syntax ---------===//
//
// Not a fuzzer: scripts/fuzz.sh turns the ONNX node tests into seeds of the
// text fuzzer with it (Debian's python3-onnx 1.12 has no printer).
//
//   dlc-fuzz-onnx-to-text model.onnx > model.onnxtxt
//
//===----------------------------------------------------------------------===//

#include "onnx/defs/printer.h"
#include "onnx/onnx_pb.h"

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: dlc-fuzz-onnx-to-text MODEL.onnx\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  onnx::ModelProto model;
  if (!file || !model.ParseFromString(bytes.str())) {
    std::cerr << argv[1] << ": not a binary ONNX model\n";
    return 1;
  }
  // libonnx 1.12 prints graphs, not models: the header is ours.
  std::cout << "<ir_version: " << model.ir_version() << ", opset_import: [";
  for (int i = 0; i < model.opset_import_size(); ++i)
    std::cout << (i ? ", " : "") << '"' << model.opset_import(i).domain()
              << "\" : " << model.opset_import(i).version();
  std::cout << "]>\n" << model.graph() << "\n";
  return 0;
}
