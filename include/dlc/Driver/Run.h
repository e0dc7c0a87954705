//===- Run.h - dlc run: compile or load, then execute ------------*- C++
//-*-===//
#ifndef DLC_DRIVER_RUN_H
#define DLC_DRIVER_RUN_H

#include "dlc/Driver/DriverOptions.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Support/Tensor.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <vector>

namespace dlc::driver {

/// A model compiled for, or loaded into, a target's executor.
struct CompiledModel {
  const Target *target = nullptr;
  EntrySignature signature;
  std::unique_ptr<Executable> executable;
};

/// Where the time of a run went; printed at its end.
struct Timing {
  double importSeconds = 0, compileSeconds = 0, runSeconds = 0;
  void print(llvm::raw_ostream &os) const;
};

/// Imports `modelPath` (or, if given, the ONNX model `onnxBytes` that
/// stands for it), runs `target`'s pipeline and loads the result.
mlir::FailureOr<CompiledModel>
compileForRun(const Target &target, llvm::StringRef modelPath,
              std::optional<llvm::StringRef> onnxBytes,
              const DriverOptions &options, mlir::MLIRContext &context,
              llvm::SourceMgr &sourceMgr, Timing &timing);

/// A directory written by `dlc compile`: the target its manifest names
/// loads the artifacts (which must be options.target's if that was given).
mlir::FailureOr<CompiledModel> loadCompiled(llvm::StringRef dir,
                                            const DriverOptions &options,
                                            mlir::MLIRContext &context,
                                            Timing &timing);

/// Runs the executable once.
mlir::FailureOr<std::vector<Tensor>>
execute(CompiledModel &model, llvm::ArrayRef<Tensor> inputs, Timing &timing);

/// Writes `tensors` as `dir`/`prefix`0.pb, ... named after `specs`.
mlir::LogicalResult writeTensors(llvm::ArrayRef<Tensor> tensors,
                                 llvm::ArrayRef<TensorSpec> specs,
                                 llvm::StringRef dir, llvm::StringRef prefix);

/// Prints a summary of `tensor` and, if `printValues`, its first values.
void printOutput(llvm::StringRef prefix, llvm::StringRef name,
                 const Tensor &tensor, bool printValues);

/// With options.reportPath, writes what the executor counted in the last
/// run.
mlir::LogicalResult writeRunReport(const CompiledModel &model,
                                   llvm::StringRef input,
                                   const DriverOptions &options);

/// dlc run: on a model file, compiles it and runs seeded random inputs; on
/// a directory written by `dlc compile`, loads its artifacts instead; on an
/// ONNX backend-test directory, checks every data set (Conformance.h).
/// Returns the exit status.
int runModel(llvm::StringRef input, const DriverOptions &options,
             mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr);

} // namespace dlc::driver

#endif // DLC_DRIVER_RUN_H
