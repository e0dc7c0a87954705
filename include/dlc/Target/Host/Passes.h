//===- Passes.h - the host target's own passes ------------------*- C++ -*-===//
#ifndef DLC_TARGET_HOST_PASSES_H
#define DLC_TARGET_HOST_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc::host {

#define GEN_PASS_DECL
#include "dlc/Target/Host/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Target/Host/Passes.h.inc"

} // namespace dlc::host

#endif // DLC_TARGET_HOST_PASSES_H
