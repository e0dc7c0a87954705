//===- Passes.h - dlc analysis test passes ----------------------*- C++ -*-===//
#ifndef DLC_ANALYSIS_PASSES_H
#define DLC_ANALYSIS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc {

#define GEN_PASS_DECL
#include "dlc/Analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Analysis/Passes.h.inc"

} // namespace dlc

#endif // DLC_ANALYSIS_PASSES_H
