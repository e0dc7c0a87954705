//===- Passes.h - the Sunway target's passes --------------------*- C++ -*-===//
#ifndef DLC_TARGET_SUNWAY_PASSES_H
#define DLC_TARGET_SUNWAY_PASSES_H

#include "dlc/Dialect/Sunway/IR/SunwayOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc::sunway {

#define GEN_PASS_DECL
#include "dlc/Target/Sunway/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Target/Sunway/Passes.h.inc"

/// Why a nest that dlc-sunway-outline-kernels leaves in the function body
/// runs on the MPE (the report's "placement" of such a layer).
inline constexpr llvm::StringLiteral kMPEPlacement =
    "MPE: the nest stages nothing in LDM, so a CPE kernel would only add "
    "the spawn";

} // namespace dlc::sunway

#endif // DLC_TARGET_SUNWAY_PASSES_H
