//===- InferentiaOps.h - the NeuronCore instruction dialect -----*- C++ -*-===//
#ifndef DLC_DIALECT_INFERENTIA_IR_INFERENTIAOPS_H
#define DLC_DIALECT_INFERENTIA_IR_INFERENTIAOPS_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Target/Inferentia/Trace.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"

#include "dlc/Dialect/Inferentia/IR/InferentiaOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/Inferentia/IR/InferentiaAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dlc/Dialect/Inferentia/IR/InferentiaOpsTypes.h.inc"

namespace dlc::inferentia {

/// The machine in force for `op`'s module: the defaults, overridden by
/// its `#dlc.hardware` target parameters.
Machine getMachine(mlir::Operation *op);
Machine getMachine(HardwareAttr hardware);
/// The target dictionary of `#dlc.hardware` holding every parameter of
/// `machine`.
mlir::DictionaryAttr getTargetDictionary(mlir::MLIRContext *context,
                                         const Machine &machine);

/// The trace instruction an instruction op stands for, with absolute
/// addresses (its buffers' places plus the patterns' offsets) and `deps`
/// from the instructions' indices in `indexOf`; an error on the op when a
/// name does not denote a trace enumerator or a buffer has no place.
mlir::FailureOr<Instruction>
toInstruction(mlir::Operation *op,
              llvm::function_ref<int64_t(mlir::Operation *)> indexOf);

/// The shared verifier of every instruction op: its trace instruction must
/// obey checkInstruction on the module's machine.
llvm::LogicalResult verifyInstructionOp(mlir::Operation *op);

} // namespace dlc::inferentia

#define GET_OP_CLASSES
#include "dlc/Dialect/Inferentia/IR/InferentiaOps.h.inc"

#endif // DLC_DIALECT_INFERENTIA_IR_INFERENTIAOPS_H
