//===- SnowflakeExecutor.h - the simulator as the target's executor -*- C++
//-*-===//
#ifndef DLC_TARGET_SNOWFLAKE_SNOWFLAKEEXECUTOR_H
#define DLC_TARGET_SNOWFLAKE_SNOWFLAKEEXECUTOR_H

#include "dlc/Target/Snowflake/SnowflakeHardware.h"
#include "dlc/Target/Target.h"

namespace dlc::snowflake {

/// Runs the binary image `image` (the bytes of program.bin) on the
/// simulator, with inputs and outputs placed as the manifest's records say
/// (what serialize writes: inputs, outputs, layers with their program
/// counters). `armTail`, when given, computes the model's outputs from the
/// program's (what the Zynq's ARM runs). Errors (a malformed image, records
/// that do not match it) are emitted at `loc`.
mlir::FailureOr<std::unique_ptr<Executable>>
loadSnowflakeImage(mlir::Location loc, llvm::ArrayRef<uint8_t> image,
                   const ArtifactManifest &manifest,
                   const SnowflakeHardware &hardware,
                   std::unique_ptr<Executable> armTail);

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_SNOWFLAKEEXECUTOR_H
