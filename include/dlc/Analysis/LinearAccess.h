//===- LinearAccess.h - accesses as linear forms of loop IVs ----*- C++ -*-===//
//
// The closed-form view of a nest's memory accesses that the tiling model and
// the transfer generator share: every index of an affine.load/affine.store
// as `sum(coefficient * loop IV) + constant` over the loops of the nest, and
// the buffers of a nest that can be staged in local memory. isl answers the
// exact questions (AccessAnalysis.h); this view is what a rectangular DMA
// moves, cheap enough to evaluate for thousands of candidate tilings.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ANALYSIS_LINEARACCESS_H
#define DLC_ANALYSIS_LINEARACCESS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace dlc {

/// One index of an access: `sum(coefficients[loop] * iv(loop)) + constant`,
/// or unknown (mod, floordiv, a value that is not an IV of the nest).
struct LinearIndex {
  bool known = false;
  llvm::SmallMapVector<mlir::Operation *, int64_t, 4> coefficients;
  int64_t constant = 0;

  /// Same coefficients (the indices differ by a constant).
  bool hasSameLinearPart(const LinearIndex &other) const;
};

/// Result `result` of `map` applied to `operands` as a linear form.
LinearIndex getLinearForm(mlir::AffineMap map, unsigned result,
                          mlir::ValueRange operands);

/// The indices of an affine.load or affine.store as linear forms.
llvm::SmallVector<LinearIndex> getLinearIndices(mlir::Operation *access);

/// A buffer a nest reads and/or writes that can live in local memory while
/// the nest runs.
struct StagedBuffer {
  mlir::Value memref;
  mlir::MemRefType type;
  llvm::SmallVector<mlir::Operation *> accesses;
  bool read = false;
  bool written = false;
  /// Per access (same order as `accesses`), its indices.
  llvm::SmallVector<llvm::SmallVector<LinearIndex>> indices;

  int64_t getElementBytes() const;
  /// True when a nest writes every element of the buffer's box it touches
  /// (one store, each index a distinct loop with coefficient 1 or -1, not
  /// guarded): the box can be written back without first being read in.
  bool isWriteDense() const;
};

/// A buffer a nest accesses that stays in global memory, and why.
struct UnstagedBuffer {
  mlir::Value memref;
  std::string reason;
};

/// The buffers of the nest rooted at `root` (an affine.for at the top of a
/// function body), in first-access order. A buffer is staged when every
/// access to it in the nest is an affine.load/affine.store on a static
/// identity-layout memref outside `localMemorySpace`, and no other memref
/// aliasing it (a view of the same allocation) is written in the nest.
void collectNestBuffers(mlir::affine::AffineForOp root,
                        int64_t localMemorySpace,
                        llvm::SmallVectorImpl<StagedBuffer> &staged,
                        llvm::SmallVectorImpl<UnstagedBuffer> &unstaged);

} // namespace dlc

#endif // DLC_ANALYSIS_LINEARACCESS_H
