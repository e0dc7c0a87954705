//===- Passes.h - dlc's shared memref/affine passes -------------*- C++ -*-===//
#ifndef DLC_TRANSFORMS_PASSES_H
#define DLC_TRANSFORMS_PASSES_H

#include "dlc/Analysis/TilingModel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace dlc {

/// How dlc-assign-bank-layout chooses layouts (see its description).
enum class BankLayoutMode { Local, Global };

/// The command-line spellings of BankLayoutMode (pass, pipeline and driver
/// options share them).
inline llvm::cl::ValuesClass getBankLayoutModeValues() {
  return llvm::cl::values(
      clEnumValN(BankLayoutMode::Local, "local",
                 "each nest picks its layouts, copies at every edge that "
                 "disagrees"),
      clEnumValN(BankLayoutMode::Global, "global",
                 "requirements propagated along data dependences, copies "
                 "only where they conflict"));
}

#define GEN_PASS_DECL
#include "dlc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Transforms/Passes.h.inc"

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSES_H
