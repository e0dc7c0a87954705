//===- Passes.h - the inferentia target's passes ----------------*- C++ -*-===//
#ifndef DLC_TARGET_INFERENTIA_PASSES_H
#define DLC_TARGET_INFERENTIA_PASSES_H

#include "dlc/Dialect/Inferentia/IR/InferentiaOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc::inferentia {

#define GEN_PASS_DECL
#include "dlc/Target/Inferentia/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Target/Inferentia/Passes.h.inc"

} // namespace dlc::inferentia

#endif // DLC_TARGET_INFERENTIA_PASSES_H
