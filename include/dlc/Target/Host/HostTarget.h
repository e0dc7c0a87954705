//===- HostTarget.h - the host CPU target -----------------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_HOSTTARGET_H
#define DLC_TARGET_HOST_HOSTTARGET_H

#include "dlc/Target/Target.h"

namespace dlc {

/// The host CPU: LLVM via upstream MLIR, run by the ExecutionEngine (JIT).
/// The numerical reference every other target is checked against.
std::unique_ptr<Target> createHostTarget();

} // namespace dlc

#endif // DLC_TARGET_HOST_HOSTTARGET_H
