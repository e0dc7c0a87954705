//===- SnowflakeOps.h - the Snowflake ISA-level dialect ---------*- C++ -*-===//
#ifndef DLC_DIALECT_SNOWFLAKE_IR_SNOWFLAKEOPS_H
#define DLC_DIALECT_SNOWFLAKE_IR_SNOWFLAKEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>

#include "dlc/Dialect/Snowflake/IR/SnowflakeOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/Snowflake/IR/SnowflakeAttrs.h.inc"

namespace dlc::snowflake {
struct InstructionInfo;

/// Checks an instruction op against its row of ISA.def (the op's name is
/// the mnemonic): one i32 operand per register field, in order, and one
/// attribute per other field, of the field's width; where an address or a
/// length is a constant, that it stays inside the program's buffers.
llvm::LogicalResult verifyInstructionOp(mlir::Operation *op);

/// The value of an i32 register operand when a constant defines it.
std::optional<int64_t> getConstantValue(mlir::Value value);

/// The ISA row of an instruction op, or null for other ops.
const InstructionInfo *getInstructionInfo(mlir::Operation *op);
} // namespace dlc::snowflake

#define GET_OP_CLASSES
#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.h.inc"

#endif // DLC_DIALECT_SNOWFLAKE_IR_SNOWFLAKEOPS_H
