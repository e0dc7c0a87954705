//===- ONNXFuzzer.h - the importer on one fuzzer input ----------*- C++ -*-===//
//
// What both importer fuzzers run: importONNX (parse, checker, shape
// inference, import, verification) on the bytes, with diagnostics printed
// to nowhere through the node-diagnostic handler the tools use.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TOOLS_FUZZ_ONNXFUZZER_H
#define DLC_TOOLS_FUZZ_ONNXFUZZER_H

#include "dlc/Dialect/DLC/IR/NodeLocation.h"
#include "dlc/Import/ONNX/ONNXImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

namespace dlc::fuzz {

inline void importONNXBytes(llvm::StringRef bytes) {
  // One context per input: a module from an earlier input must not change
  // what the next one sees (uniqued attributes, resource blobs).
  mlir::MLIRContext context;
  context.disableMultithreading();
  mlir::ScopedDiagnosticHandler handler(
      &context, makeONNXNodeDiagnosticHandler(llvm::nulls()));
  ONNXImportOptions options;
  options.listAllUnsupported = !bytes.empty() && (bytes.back() & 1);
  (void)importONNX(bytes, "fuzz.onnx", &context, options);
}

} // namespace dlc::fuzz

#endif // DLC_TOOLS_FUZZ_ONNXFUZZER_H
