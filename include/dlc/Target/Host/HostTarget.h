//===- HostTarget.h - the host CPU target -----------------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_HOSTTARGET_H
#define DLC_TARGET_HOST_HOSTTARGET_H

#include "dlc/Target/Target.h"

#include "mlir/IR/DialectRegistry.h"

namespace dlc {

/// Registers the host CPU target (LLVM via upstream MLIR, run by the
/// ExecutionEngine; the numerical reference every other target is checked
/// against) and its passes.
void registerHostTarget();

/// The host uses upstream dialects only.
void registerHostTargetDialects(mlir::DialectRegistry &registry);

namespace host {

/// The module attribute holding the #dlc.hardware the module was compiled
/// for, printed, once dlc-host-lower-local-memory has removed the attribute
/// itself (LLVM IR and mlir-runner have no use for dlc's attributes).
inline constexpr llvm::StringLiteral kHardwareTextAttr =
    DLCDialect::HardwareTextAttrHelper::getNameStr();

} // namespace host

} // namespace dlc

#endif // DLC_TARGET_HOST_HOSTTARGET_H
