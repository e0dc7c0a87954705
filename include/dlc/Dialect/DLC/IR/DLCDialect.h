//===- DLCDialect.h - the dlc tensor dialect --------------------*- C++ -*-===//
#ifndef DLC_DIALECT_DLC_IR_DLCDIALECT_H
#define DLC_DIALECT_DLC_IR_DLCDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dlc/Dialect/DLC/IR/DLCOpsDialect.h.inc"

#include "dlc/Dialect/DLC/IR/DLCEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/DLC/IR/DLCAttrs.h.inc"

#endif // DLC_DIALECT_DLC_IR_DLCDIALECT_H
