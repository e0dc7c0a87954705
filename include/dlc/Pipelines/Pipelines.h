//===- Pipelines.h - pipelines every target starts from --------*- C++ -*-===//
#ifndef DLC_PIPELINES_PIPELINES_H
#define DLC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace dlc {

/// Tensor-level clean-up every target starts with: canonicalisation (which
/// folds constant shape subgraphs, BatchNorm into Conv, Identity and
/// Dropout) and CSE.
void buildDLCCleanupPipeline(mlir::OpPassManager &pm);

/// dlc -> linalg on tensors -> one-shot bufferization -> affine loops. The
/// shared affine memory passes of the accelerators start from this IR.
void buildDLCToAffinePipeline(mlir::OpPassManager &pm);

/// Registers `--dlc-to-affine-pipeline` with dlc-opt.
void registerDLCPipelines();

} // namespace dlc

#endif // DLC_PIPELINES_PIPELINES_H
