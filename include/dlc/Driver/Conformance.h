//===- Conformance.h - checking a target on ONNX backend tests --*- C++ -*-===//
//
// An ONNX backend-test directory holds a model and test_data_set_*/
// input_<i>.pb, output_<i>.pb. The runner compiles the model for a target
// (once, or once per data set when graph inputs fix shapes or attributes,
// see ONNXInputBinding.h), runs every data set and compares each output
// with |got - want| <= atol + rtol * |want|, one line per output.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_CONFORMANCE_H
#define DLC_DRIVER_CONFORMANCE_H

#include "dlc/Driver/DriverOptions.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/SourceMgr.h"

namespace dlc::driver {

/// Checks `target` on the backend-test directory `dir`; prints PASSED or
/// FAILED and returns the exit status (non-zero on any mismatch or error).
int runTestDirectory(const Target &target, llvm::StringRef dir,
                     const DriverOptions &options, mlir::MLIRContext &context,
                     llvm::SourceMgr &sourceMgr);

} // namespace dlc::driver

#endif // DLC_DRIVER_CONFORMANCE_H
