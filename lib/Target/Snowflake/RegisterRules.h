//===- RegisterRules.h - what needs a control-core register ------*- C++
//-*-===//
//
// One rule for the allocator and the emitter: which values live in a
// register and which become immediates (or r0).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TARGET_SNOWFLAKE_REGISTERRULES_H
#define DLC_LIB_TARGET_SNOWFLAKE_REGISTERRULES_H

#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace dlc::snowflake {

/// r1..r30 hold values; r0 reads zero; r31 is the emitter's scratch.
inline constexpr int kLastAllocatableRegister = 30;
inline constexpr int kScratchRegister = 31;

inline bool fitsSigned(int64_t value, unsigned bits) {
  return value >= -(int64_t(1) << (bits - 1)) &&
         value < (int64_t(1) << (bits - 1));
}

/// Whether this use of a constant `value` is encoded in the instruction:
/// an addi (either operand) or a subi's subtrahend within 16 bits, a
/// loop's step within 16 bits (its increment is an addi), its lower bound
/// or an initial iteration value within 21 bits (a movi).
inline bool isImmediateUse(mlir::OpOperand &use, int64_t value) {
  mlir::Operation *user = use.getOwner();
  if (mlir::isa<mlir::arith::AddIOp>(user))
    return fitsSigned(value, 16) &&
           !getConstantValue(user->getOperand(1 - use.getOperandNumber()));
  if (mlir::isa<mlir::arith::SubIOp>(user))
    return use.getOperandNumber() == 1 && fitsSigned(-value, 16);
  if (auto loop = mlir::dyn_cast<mlir::scf::ForOp>(user)) {
    if (use.get() == loop.getStep() && use.getOperandNumber() == 2)
      return fitsSigned(value, 16);
    if (use.getOperandNumber() == 0 || use.getOperandNumber() >= 3)
      return fitsSigned(value, 21);
  }
  return false;
}

/// Whether `op`'s result needs a register: every arith op but constants
/// that are zero (r0) or only ever immediates.
inline bool getsRegister(mlir::Operation *op) {
  auto constant = mlir::dyn_cast<mlir::arith::ConstantOp>(op);
  if (!constant)
    return true;
  std::optional<int64_t> value = getConstantValue(constant.getResult());
  if (!value || *value == 0)
    return false;
  for (mlir::OpOperand &use : constant->getUses())
    if (!isImmediateUse(use, *value))
      return true;
  return false;
}

} // namespace dlc::snowflake

#endif // DLC_LIB_TARGET_SNOWFLAKE_REGISTERRULES_H
