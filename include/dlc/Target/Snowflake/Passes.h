//===- Passes.h - the Snowflake target's passes -----------------*- C++ -*-===//
#ifndef DLC_TARGET_SNOWFLAKE_PASSES_H
#define DLC_TARGET_SNOWFLAKE_PASSES_H

#include "dlc/Analysis/TilingModel.h"
#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc::snowflake {

/// The function dlc-snowflake-lower-layers leaves for the Zynq's ARM cores
/// (a final Softmax): from the program's outputs to the model's.
inline constexpr llvm::StringLiteral kArmTailFunction = "arm_tail";

#define GEN_PASS_DECL
#include "dlc/Target/Snowflake/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Target/Snowflake/Passes.h.inc"

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_PASSES_H
