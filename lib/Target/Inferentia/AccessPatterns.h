//===- AccessPatterns.h - affine accesses as partition patterns -*- C++ -*-===//
//
// The lowering turns each affine access of a nest into the access patterns
// of the engines' instructions: for a box of loop values (each loop a range,
// one of them across the partitions), where the element a loop point
// touches lies (partition, free offset) must be linear in the loops. The
// index expressions may hold floordiv and mod (views, partition tiles);
// they are linear on a box where each floordiv keeps one value, and
// `linearize` either gives the linear form or says where to split the box.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TARGET_INFERENTIA_ACCESSPATTERNS_H
#define DLC_LIB_TARGET_INFERENTIA_ACCESSPATTERNS_H

#include "dlc/Dialect/Inferentia/IR/InferentiaOps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <variant>

namespace dlc::inferentia {

/// Loop values one instruction covers: loop l takes [lo[l], hi[l]).
struct Box {
  llvm::SmallVector<int64_t> lo, hi;

  int64_t getSize(unsigned loop) const { return hi[loop] - lo[loop]; }
  /// The box with loop `loop` restricted to [from, to).
  Box restrict(unsigned loop, int64_t from, int64_t to) const;
  /// The box with loop `loop` fixed to `value`.
  Box fix(unsigned loop, int64_t value) const {
    return restrict(loop, value, value + 1);
  }
  bool isEmpty() const;
};

/// sum(coefficients[l] * x_l) + constant over a nest's loops.
struct LinearForm {
  int64_t constant = 0;
  llvm::SmallVector<int64_t> coefficients;

  /// The value at the box's first point.
  int64_t atLow(const Box &box) const;
  int64_t getMin(const Box &box) const;
  int64_t getMax(const Box &box) const;
  bool dependsOn(unsigned loop) const { return coefficients[loop] != 0; }
};

/// Where a box must be split for an expression to be linear on each part:
/// loop `loop` at `value` ([lo, value) and [value, hi)).
struct Split {
  unsigned loop;
  int64_t value;
};

/// `expr` (over `numLoops` dims) as a linear form on `box`, or where to
/// split the box, or nullopt when no split of one loop helps (a floordiv
/// whose value changes with every loop it depends on at once).
std::variant<LinearForm, Split, std::monostate>
linearize(mlir::AffineExpr expr, unsigned numLoops, const Box &box);

/// A buffer as the lowering sees it: its shape and partition mapping.
struct Layout {
  llvm::SmallVector<int64_t> shape;
  int64_t partitionDim = -1;
  int64_t partitionTile = 1;
  /// The buffer's dimensions in the order the mapping's shape reshapes
  /// (empty: their own order). Weights are the compiler's to lay out: a
  /// transposed view puts the dimension the tensor engine reads along
  /// innermost.
  llvm::SmallVector<int64_t> permutation;

  static Layout get(MappingAttr mapping);
  int64_t getPartitions() const { return partitionDim < 0 ? 1 : partitionTile; }
  int64_t getFreeElements() const;
  /// Free-position stride of dimension `dim` (not the partition one).
  int64_t getFreeStride(int64_t dim) const;
  /// Free-position stride of the partition dimension's tile number.
  int64_t getTileStride() const;
};

/// The element a loop point reads or writes: the root buffer and its index
/// as expressions of the nest's loops (views composed away).
struct Access {
  mlir::Value root;
  llvm::SmallVector<mlir::AffineExpr> indices;
};

/// An access located in its buffer: partition and free position as
/// expressions of the loops.
struct ElementLocation {
  mlir::AffineExpr partition, free;
};
ElementLocation locate(const Access &access, const Layout &layout);
/// The index in `layout`'s shape of the element at `index` of a buffer of
/// shape `shape`, as expressions (a reshape, after the layout's
/// permutation).
llvm::SmallVector<mlir::AffineExpr>
toMappingIndex(llvm::ArrayRef<mlir::AffineExpr> index,
               llvm::ArrayRef<int64_t> shape, const Layout &layout);

/// One operand's pattern on a box, in the loops' terms: partitions start
/// at `partitionStart` and follow loop `partitionLoop` (step 1), or stay at
/// one (`partitionLoop` unset); `freeStrides[l]` is the free-position step
/// of loop l, `freeOffset` the position at the box's first point.
struct LoopPattern {
  int64_t partitionStart = 0;
  std::optional<unsigned> partitionLoop;
  int64_t freeOffset = 0;
  llvm::SmallVector<int64_t> freeStrides;
};

/// The result of asking for an operand's pattern on a box.
struct PatternOrSplit {
  std::optional<LoopPattern> pattern;
  std::optional<Split> split;
  /// Neither: why the access has no pattern on this box.
  std::string why;
};

/// The pattern of `location` on `box` where partitions follow
/// `partitionLoop` (or no loop): the partition must move with that loop
/// alone (coefficient 1) or with none, and the free position must not move
/// with it.
PatternOrSplit getLoopPattern(const ElementLocation &location,
                              unsigned numLoops, const Box &box,
                              std::optional<unsigned> partitionLoop);

/// The part of `box` where `set` (over the loops) holds, when each of its
/// constraints bounds one loop of the box at most (others fixed); nullopt
/// when a constraint couples two loops that vary on the box (fix one).
/// An empty box when the set excludes the whole box.
std::optional<Box> clip(const Box &box, mlir::IntegerSet set);

/// A loop (not fixed on `box`) that a constraint of `set` couples with
/// another loop that varies on `box`, preferring the innermost.
std::optional<unsigned> findCoupledLoop(const Box &box, mlir::IntegerSet set);

} // namespace dlc::inferentia

#endif // DLC_LIB_TARGET_INFERENTIA_ACCESSPATTERNS_H
