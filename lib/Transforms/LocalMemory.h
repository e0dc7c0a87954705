//===- LocalMemory.h - local buffers live at each point ---------*- C++ -*-===//
//
// The accounting `dlc-verify-local-memory` checks and `dlc-memory-report`
// reports: which local-memory allocations are live at each point of a
// function, and the most bytes live while each op of its body runs.
// Independent of how the tiling pass sized the buffers: only the IR counts.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TRANSFORMS_LOCALMEMORY_H
#define DLC_LIB_TRANSFORMS_LOCALMEMORY_H

#include "dlc/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace dlc {

/// True when `type` is a memref in memory space `localSpace`.
bool isLocalMemRef(mlir::Type type, int64_t localSpace);

/// The transfers in and out of the local buffer `local`, in program order:
/// the order in which its allocation's `dlc.transfers` (recorded by
/// dlc-generate-transfers) lists them.
llvm::SmallVector<mlir::affine::AffineDmaStartOp>
getBufferTransfers(mlir::Value local);

struct LocalMemoryOptions {
  int64_t localSpace = 1;
  int64_t capacity = 0;
  /// Also error when the bytes live exceed `capacity`, when a local buffer
  /// is used while not live, deallocated twice or below its allocation's
  /// block, or is not a `memref.alloc`/`memref.alloca` result.
  bool verify = false;
};

/// Walks `function` and returns, for each op of its body, the most bytes of
/// local buffers live at any point while it runs (those allocated before it
/// and still live included). A buffer is live from its `memref.alloc` to its
/// `memref.dealloc` (a `memref.alloca` to the end of its allocation scope);
/// one allocated in a loop body and not freed there has one live instance
/// per iteration run. Emits an error and fails on a local buffer without a
/// static size, and on the `verify` errors.
mlir::FailureOr<llvm::DenseMap<mlir::Operation *, int64_t>>
computeLocalMemoryPeaks(mlir::func::FuncOp function,
                        const LocalMemoryOptions &options);

} // namespace dlc

#endif // DLC_LIB_TRANSFORMS_LOCALMEMORY_H
