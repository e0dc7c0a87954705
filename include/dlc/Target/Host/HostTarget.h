//===- HostTarget.h - the host CPU target -----------------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_HOSTTARGET_H
#define DLC_TARGET_HOST_HOSTTARGET_H

#include "dlc/Target/Target.h"

namespace dlc {

/// The host CPU: LLVM via upstream MLIR, run by the ExecutionEngine (JIT).
/// The numerical reference every other target is checked against.
std::unique_ptr<Target> createHostTarget();

/// Registers the host target's own pass (`--dlc-host-prepare-entry`, the
/// first of its pipeline) with the pass registry.
void registerHostTargetPasses();

} // namespace dlc

#endif // DLC_TARGET_HOST_HOSTTARGET_H
