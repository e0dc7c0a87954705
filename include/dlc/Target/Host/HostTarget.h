//===- HostTarget.h - the host CPU target -----------------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_HOSTTARGET_H
#define DLC_TARGET_HOST_HOSTTARGET_H

#include "dlc/Target/Target.h"

namespace dlc {

/// Registers the host CPU target (LLVM via upstream MLIR, run by the
/// ExecutionEngine; the numerical reference every other target is checked
/// against) and its passes.
void registerHostTarget();

/// Module attribute in which the dlc-host-prepare-entry pass records the
/// tensor-level entry signature: {function = "main", type = (...) -> (...),
/// arg_attrs = [...], res_attrs = [...]}.
inline constexpr llvm::StringLiteral kHostEntryAttr = "dlc.host_entry";

} // namespace dlc

#endif // DLC_TARGET_HOST_HOSTTARGET_H
