//===- SunwayTarget.h - one SW26010 core group ------------------*- C++ -*-===//
#ifndef DLC_TARGET_SUNWAY_SUNWAYTARGET_H
#define DLC_TARGET_SUNWAY_SUNWAYTARGET_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace dlc {

/// Registers the Sunway target's passes and `--dlc-sunway-pipeline`.
void registerSunwayTarget();
/// The sunway dialect.
void registerSunwayTargetDialects(mlir::DialectRegistry &registry);

namespace sunway {

/// The machine the shared memory passes and the Sunway passes compile for
/// when the user overrides nothing: one core group with its defaults
/// (SunwayHardware), tiles in the LDM a kernel leaves to buffers (less a
/// reserve for its reply words), DMA blocks costing 470 bytes each.
HardwareAttr getDefaultHardware(mlir::MLIRContext *context);

/// The imported dlc module to the sunway dialect: the shared dlc -> affine
/// and memory pipelines with kernels outlined before double buffering,
/// then LDM placement and athread DMA.
void buildSunwayPipeline(mlir::OpPassManager &pm,
                         const PipelineOptions &options);

} // namespace sunway
} // namespace dlc

#endif // DLC_TARGET_SUNWAY_SUNWAYTARGET_H
