//===- Passes.h - dlc's shared memref/affine passes -------------*- C++ -*-===//
#ifndef DLC_TRANSFORMS_PASSES_H
#define DLC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace dlc {

/// How dlc-assign-bank-layout chooses layouts (see its description).
enum class BankLayoutMode { Local, Global };

#define GEN_PASS_DECL
#include "dlc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Transforms/Passes.h.inc"

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSES_H
