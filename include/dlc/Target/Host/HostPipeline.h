//===- HostPipeline.h - dlc to LLVM for the host ----------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_HOSTPIPELINE_H
#define DLC_TARGET_HOST_HOSTPIPELINE_H

#include "mlir/Pass/PassManager.h"

namespace dlc {

/// Tensor-level clean-up every target starts with: canonicalisation (which
/// folds constant shape subgraphs, BatchNorm into Conv, Identity and
/// Dropout) and CSE.
void buildDLCCleanupPipeline(mlir::OpPassManager &pm);

/// dlc -> linalg on tensors -> one-shot bufferization -> affine loops. The
/// shared affine memory passes of the accelerators start from this IR.
void buildDLCToAffinePipeline(mlir::OpPassManager &pm);

/// The whole host pipeline: buildDLCToAffinePipeline, then affine -> LLVM
/// dialect, ready for the ExecutionEngine or for translation to LLVM IR.
void buildHostPipeline(mlir::OpPassManager &pm);

} // namespace dlc

#endif // DLC_TARGET_HOST_HOSTPIPELINE_H
