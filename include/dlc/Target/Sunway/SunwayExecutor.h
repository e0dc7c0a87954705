//===- SunwayExecutor.h - the emitted C on the athread emulation -*- C++
//-*-===//
#ifndef DLC_TARGET_SUNWAY_SUNWAYEXECUTOR_H
#define DLC_TARGET_SUNWAY_SUNWAYEXECUTOR_H

#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"
#include "dlc/Target/Target.h"

namespace dlc::sunway {

/// Builds the C files of a `dlc compile --target sunway` directory with the
/// system C compiler against runtime/sunway's emulation and loads them.
/// `manifest` carries the signature, the hardware description and the
/// kernels' ONNX nodes (for the report). With `ownsDir`, `dir` is removed
/// with the executable.
mlir::FailureOr<std::unique_ptr<Executable>>
loadSunwayArtifacts(mlir::Location loc, llvm::StringRef dir,
                    const ArtifactManifest &manifest,
                    const SunwayHardware &hardware, bool ownsDir);

} // namespace dlc::sunway

#endif // DLC_TARGET_SUNWAY_SUNWAYEXECUTOR_H
