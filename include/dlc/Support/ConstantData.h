//===- ConstantData.h - the bytes of a constant tensor ----------*- C++ -*-===//
//
// Targets that ship a model's weights in a file of their own (Sunway's
// weights.bin, Snowflake's data section, ...) need the constants' bytes as
// they lie in memory, whichever attribute holds them.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_CONSTANTDATA_H
#define DLC_SUPPORT_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"

#include <string>

namespace dlc {

/// Appends the elements of `value` in row-major order, each in its
/// in-memory size (booleans one byte each), to `bytes`. Fails for element
/// types without a fixed size and for resources whose blob is missing.
mlir::LogicalResult appendConstantBytes(mlir::ElementsAttr value,
                                        std::string &bytes);

/// FNV-1a, 64 bits: the checksum of the weights files.
uint64_t hashBytes(llvm::StringRef bytes);

} // namespace dlc

#endif // DLC_SUPPORT_CONSTANTDATA_H
