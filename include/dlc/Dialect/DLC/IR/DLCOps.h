//===- DLCOps.h - dlc tensor operators --------------------------*- C++ -*-===//
#ifndef DLC_DIALECT_DLC_IR_DLCOPS_H
#define DLC_DIALECT_DLC_IR_DLCOPS_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Dialect/DLC/IR/NodeLocation.h"

#include <cstdint>
#include <optional>
#include <string>

#define GET_OP_CLASSES
#include "dlc/Dialect/DLC/IR/DLCOps.h.inc"

namespace dlc {

/// Largest magnitude the verifiers accept for attribute entries that enter
/// shape arithmetic (pads, strides, slice bounds, repeats, ...), so that the
/// arithmetic cannot overflow.
constexpr int64_t kMaxShapeAttributeMagnitude = INT32_MAX;

/// Output length of one pooled or convolved spatial dimension (ONNX rule):
/// floor or ceil of (in + padBegin + padEnd - dilation*(kernel-1) - 1) /
/// stride, plus one; with ceil_mode a last window that would start inside
/// the end padding is dropped. Returns a negative value when the window
/// does not fit.
int64_t computeWindowedOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                  int64_t dilation, int64_t padBegin,
                                  int64_t padEnd, bool ceilMode);

/// The dimensions [first, second) of a rank-`rank` shape that dlc.shape
/// returns for its `start` and `end` attributes: negative values count from
/// the back, then both are clamped to [0, rank] (ONNX Shape-15).
std::pair<int64_t, int64_t> getShapeDimRange(int64_t rank, int64_t start,
                                             std::optional<int64_t> end);

/// True when dlc computes on integers of element type `type` (or of a shaped
/// type's elements) with unsigned semantics: comparison, division, extension
/// and conversion to float treat the bits as an unsigned number. That is
/// ONNX's uint8..uint64 (imported as ui8..ui64) and bool (i1, whose true is
/// 1, not -1). The folders and the lowering both decide through this one
/// function.
bool isUnsignedElementType(mlir::Type type);

/// An explicit Einsum equation ("bij,bjk->bik"): one term of labels per
/// input and the output's.
struct EinsumEquation {
  llvm::SmallVector<std::string> inputs;
  std::string output;
};
/// Parses an explicit, letters-only equation (what dlc.einsum holds); empty
/// if it is not one or the output repeats a label.
std::optional<EinsumEquation> parseEinsumEquation(llvm::StringRef equation);

/// Whether `op` only moves, reinterprets or selects elements (reshape,
/// transpose, slice, concat, gather, pad, ...), without arithmetic on
/// them: on an accelerator such an op saves no time the host would spend.
bool isDataMovementOp(mlir::Operation *op);

/// Numpy broadcast of two static shapes; failure if incompatible.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

} // namespace dlc

#endif // DLC_DIALECT_DLC_IR_DLCOPS_H
