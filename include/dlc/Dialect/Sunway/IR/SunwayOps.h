//===- SunwayOps.h - the SW26010 core-group dialect -------------*- C++ -*-===//
#ifndef DLC_DIALECT_SUNWAY_IR_SUNWAYOPS_H
#define DLC_DIALECT_SUNWAY_IR_SUNWAYOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dlc/Dialect/Sunway/IR/SunwayOpsDialect.h.inc"

#include "dlc/Dialect/Sunway/IR/SunwayEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/Sunway/IR/SunwayAttrs.h.inc"

#define GET_OP_CLASSES
#include "dlc/Dialect/Sunway/IR/SunwayOps.h.inc"

namespace dlc::sunway {

/// True when `type` is a memref in a CPE's LDM (`#sunway.ldm`).
bool isLDM(mlir::Type type);

/// `type` with its memory space set to `#sunway.ldm`.
mlir::MemRefType getLDMType(mlir::MemRefType type);

} // namespace dlc::sunway

#endif // DLC_DIALECT_SUNWAY_IR_SUNWAYOPS_H
