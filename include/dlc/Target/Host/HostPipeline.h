//===- HostPipeline.h - dlc to LLVM for the host ----------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_HOSTPIPELINE_H
#define DLC_TARGET_HOST_HOSTPIPELINE_H

#include "dlc/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"

namespace dlc::host {

/// The whole host pipeline: buildDLCToAffinePipeline, then affine -> LLVM
/// dialect, ready for the ExecutionEngine or for translation to LLVM IR.
void buildHostPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

} // namespace dlc::host

#endif // DLC_TARGET_HOST_HOSTPIPELINE_H
