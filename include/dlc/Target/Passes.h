//===- Passes.h - passes shared by every target -----------------*- C++ -*-===//
#ifndef DLC_TARGET_PASSES_H
#define DLC_TARGET_PASSES_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc {

#define GEN_PASS_DECL
#include "dlc/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Target/Passes.h.inc"

} // namespace dlc

#endif // DLC_TARGET_PASSES_H
