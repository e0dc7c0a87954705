//===- AccessAnalysis.h - polyhedral view of affine loop nests --*- C++ -*-===//
//
// Iteration domains and access relations of affine loop nests as integer
// sets and maps (backed by isl), and the queries the shared affine memory
// passes ask: tile footprints, distinct elements touched, injectivity,
// inversion and composition of accesses, pure-copy detection.
//
// isl stays behind this header: sets and maps are value types that own their
// isl object, and every object belongs to an `AnalysisContext` that must
// outlive it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ANALYSIS_ACCESSANALYSIS_H
#define DLC_ANALYSIS_ACCESSANALYSIS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <string>

struct isl_ctx;
struct isl_set;
struct isl_map;

namespace dlc {

/// Bytes of one element of type `elementType` (index counts 8: every
/// lowering dlc uses makes it 64 bits), or nullopt for a type without a
/// size. The one answer every pass that counts bytes uses.
std::optional<int64_t> getElementBytes(mlir::Type elementType);

/// Owns the isl context and the printable names of IR values (as the printer
/// shows them, `%alloc_2` -> `alloc_2`), which name loops and buffers in sets
/// and maps.
class AnalysisContext {
public:
  /// Names values as they print inside `scope` (usually a module or func).
  explicit AnalysisContext(mlir::Operation *scope);
  ~AnalysisContext();
  AnalysisContext(const AnalysisContext &) = delete;
  AnalysisContext &operator=(const AnalysisContext &) = delete;

  isl_ctx *getIslContext() const { return ctx; }
  /// A name usable as an isl identifier, unique per value.
  std::string getName(mlir::Value value);
  /// The value `getName` named `name`, or null (parameters of relations
  /// are named this way).
  mlir::Value lookupName(llvm::StringRef name) const {
    return values.lookup(name);
  }
  /// A fresh name for the iteration tuple of a nest ("S0", "S1", ...):
  /// relations of different nests can then be united without mixing up
  /// their iterations.
  std::string getFreshNestName() { return "S" + std::to_string(nestCount++); }

private:
  isl_ctx *ctx;
  unsigned nestCount = 0;
  mlir::AsmState asmState;
  llvm::DenseMap<mlir::Value, std::string> names;
  llvm::StringMap<mlir::Value> values;
  llvm::StringSet<> usedNames;
};

/// One piece of a piecewise quasi-affine function written with MLIR's
/// affine constructs: the function's input dimensions are affine dims, its
/// parameters symbols, and isl's local divisions floordiv expressions.
struct AffinePiece {
  /// Inputs the piece applies to; null when it applies to every input (of
  /// the context the function was simplified in).
  mlir::IntegerSet condition;
  /// Input -> output tuple.
  mlir::AffineMap map;
};

/// A single-valued relation as affine pieces.
struct PiecewiseAffineMap {
  /// Names of the parameters in symbol order (`AnalysisContext::lookupName`
  /// gives their values).
  llvm::SmallVector<std::string> symbols;
  /// Pieces whose conditions are disjoint within the context (a piece of
  /// isl's function whose domain is a union gives one entry per part, all
  /// with the same map).
  llvm::SmallVector<AffinePiece> pieces;
};

/// A set of integer points (possibly a union of pieces, with parameters for
/// symbols of the IR).
class PresburgerPointSet {
public:
  PresburgerPointSet() = default;
  explicit PresburgerPointSet(isl_set *owned) : set(owned) {}
  PresburgerPointSet(const PresburgerPointSet &other);
  PresburgerPointSet(PresburgerPointSet &&other) : set(other.set) {
    other.set = nullptr;
  }
  PresburgerPointSet &operator=(PresburgerPointSet other);
  ~PresburgerPointSet();

  bool isNull() const { return set == nullptr; }
  bool isEmpty() const;
  /// Exact number of points; nullopt when the set is unbounded or has
  /// parameters.
  std::optional<int64_t> countPoints() const;
  /// Per-dimension [min, max] of a bounded, parameter-free set.
  std::optional<llvm::SmallVector<std::pair<int64_t, int64_t>>>
  getBoundingBox() const;
  PresburgerPointSet unite(const PresburgerPointSet &other) const;
  PresburgerPointSet intersect(const PresburgerPointSet &other) const;
  PresburgerPointSet subtract(const PresburgerPointSet &other) const;
  bool isEqual(const PresburgerPointSet &other) const;
  std::string str() const;
  isl_set *get() const { return set; }

private:
  isl_set *set = nullptr;
};

/// A relation between integer tuples (possibly piecewise).
class PresburgerRelation {
public:
  PresburgerRelation() = default;
  explicit PresburgerRelation(isl_map *owned) : map(owned) {}
  PresburgerRelation(const PresburgerRelation &other);
  PresburgerRelation(PresburgerRelation &&other) : map(other.map) {
    other.map = nullptr;
  }
  PresburgerRelation &operator=(PresburgerRelation other);
  ~PresburgerRelation();

  bool isNull() const { return map == nullptr; }
  bool isEmpty() const;
  /// Every input maps to at most one output (a function).
  bool isSingleValued() const;
  /// No two inputs map to the same output.
  bool isInjective() const;
  PresburgerRelation inverse() const;
  /// `this` then `next`: { x -> z : exists y. x -> y in this, y -> z in next }.
  PresburgerRelation compose(const PresburgerRelation &next) const;
  PresburgerPointSet domain() const;
  PresburgerPointSet range() const;
  PresburgerRelation intersectDomain(const PresburgerPointSet &set) const;
  /// Image of `set` under the relation.
  PresburgerPointSet apply(const PresburgerPointSet &set) const;
  /// Number of disjoint pieces of the relation written as a piecewise
  /// quasi-affine function (only meaningful when single-valued).
  std::optional<unsigned> countAffinePieces() const;
  PresburgerRelation unite(const PresburgerRelation &other) const;
  bool isEqual(const PresburgerRelation &other) const;
  /// Output dimension `outDim` changes when input dimension `inDim` alone
  /// changes (within the relation's domain): two related inputs that differ
  /// only in `inDim` reach different values of `outDim`.
  bool outputDependsOnInput(unsigned outDim, unsigned inDim) const;
  std::string str() const;
  /// The relation written as a piecewise quasi-affine function
  /// (`{ S[i] -> A[(floor(i/4)), (i mod 4)] : ... }`) when single-valued,
  /// else as `str()`.
  std::string functionStr() const;
  /// The relation (a single-valued, possibly piecewise quasi-affine function
  /// of its input tuple) as MLIR affine pieces. Conditions implied by
  /// `context` (a set of inputs, e.g. the iterations of the loops around an
  /// access; null for none) are dropped (isl's gist), and pieces outside it
  /// too. Fails when the relation is not single-valued or a coefficient does
  /// not fit in 64 bits.
  mlir::FailureOr<PiecewiseAffineMap>
  toAffinePieces(mlir::MLIRContext *mlirContext,
                 const PresburgerPointSet &context = {}) const;
  isl_map *get() const { return map; }

private:
  isl_map *map = nullptr;
};

/// One loop of a nest, in pre-order.
struct LoopInfo {
  mlir::affine::AffineForOp loop;
  std::string name;
  unsigned depth;
  /// Constant trip count, when the bounds are constant.
  std::optional<uint64_t> tripCount;
};

/// One memory access of a nest.
struct AccessRelation {
  mlir::Operation *op;
  bool isWrite;
  /// The memref the op accesses, and the allocation (or argument, or global)
  /// it is a view of through static subview / expand_shape / collapse_shape.
  mlir::Value memref;
  mlir::Value rootMemref;
  /// Loops enclosing the access, outermost first (indices into the nest's
  /// loops).
  llvm::SmallVector<unsigned> enclosingLoops;
  /// Iterations of the enclosing loops that execute the access.
  PresburgerPointSet domain;
  /// Iteration -> element of `memref`, and iteration -> element of
  /// `rootMemref`, restricted to `domain`.
  PresburgerRelation relation;
  PresburgerRelation rootRelation;
};

/// An access that cannot be described by an affine relation.
struct NonAffineAccess {
  mlir::Operation *op;
  std::string reason;
};

/// Distinct elements of a buffer touched by (part of) a nest.
struct Footprint {
  /// Exact number of distinct elements.
  int64_t elements = 0;
  /// Extent of the bounding box per dimension: what a rectangular transfer
  /// moves. When the box is for a tile, it is the same for every tile.
  llvm::SmallVector<int64_t> boxSizes;
  int64_t boxElements = 0;
  int64_t elementBytes = 0;
  int64_t bytes() const { return elements * elementBytes; }
  int64_t boxBytes() const { return boxElements * elementBytes; }
};

/// A nest each of whose iterations loads one element and stores it
/// unchanged into another buffer: transpose, reshape, slice, concat halves,
/// pad interiors, ...
struct CopyNest {
  const AccessRelation *load;
  const AccessRelation *store;
};

/// The polyhedral view of one affine loop nest rooted at an `affine.for`.
class NestAnalysis {
public:
  NestAnalysis(AnalysisContext &context, mlir::affine::AffineForOp root);

  mlir::affine::AffineForOp getRoot() const { return root; }
  /// Name of the iteration tuple of this nest's relations.
  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<LoopInfo> getLoops() const { return loops; }
  llvm::ArrayRef<AccessRelation> getAccesses() const { return accesses; }
  /// Accesses (or other memory effects) the analysis cannot describe. When
  /// non-empty, footprints and copy detection are not answered.
  llvm::ArrayRef<NonAffineAccess> getNonAffineAccesses() const {
    return nonAffine;
  }
  bool isAffine() const { return nonAffine.empty(); }

  /// Buffers (roots of the accessed memrefs) in first-access order.
  llvm::SmallVector<mlir::Value> getRootMemrefs() const;

  /// Distinct elements of `rootMemref` touched by the whole nest.
  std::optional<Footprint> getFootprint(mlir::Value rootMemref) const;

  /// Distinct elements of `rootMemref` touched by one tile of the outermost
  /// band: loop k (k-th loop of the perfectly nested prefix) runs
  /// `tileSizes[k]` consecutive iterations (1 fixes it, 0 or a missing entry
  /// means its full range; entries beyond the band are ignored). `elements` is
  /// exact for the first tile, which is full and, with affine accesses and box
  /// domains, the same as every full tile; the box is the fixed-size box that
  /// covers every tile's footprint.
  std::optional<Footprint>
  getTileFootprint(mlir::Value rootMemref,
                   llvm::ArrayRef<int64_t> tileSizes) const;

  /// The perfectly nested loops from the root down (the band tiles act on).
  unsigned getBandDepth() const;

  /// For each dimension of `access`'s root buffer, the loops (indices into
  /// getLoops(), outermost first) that index it: the loops whose iteration
  /// alone changes the element of that dimension the access touches.
  llvm::SmallVector<llvm::SmallVector<unsigned>>
  getIndexingLoops(const AccessRelation &access) const;

  /// The load/store pair when the nest is a pure copy.
  std::optional<CopyNest> getPureCopy() const;

private:
  AnalysisContext &context;
  mlir::affine::AffineForOp root;
  std::string name;
  llvm::SmallVector<LoopInfo> loops;
  llvm::SmallVector<AccessRelation> accesses;
  llvm::SmallVector<NonAffineAccess> nonAffine;
};

/// What a read of a copied buffer reads from one source buffer.
struct ReadThroughCopies {
  mlir::Value source;
  /// Reader iteration -> element of `source`; piecewise when several copies
  /// read that source (concat of a tensor with itself, pad).
  PresburgerRelation relation;
};

/// For a `reader` access of a buffer that `copies` write: the reader's
/// access composed with the inverse of each copy's store and with its load,
/// grouped by source buffer (concat of two inputs gives two entries). The
/// union of the entries' domains is the part of the read the copies cover
/// (compare with `reader.domain`). Fails when a store is not injective or
/// two copies write the same element (the value read would not be
/// determined by one copy iteration), or a copy writes another buffer.
mlir::FailureOr<llvm::SmallVector<ReadThroughCopies>>
composeThroughCopies(const AccessRelation &reader,
                     llvm::ArrayRef<CopyNest> copies);

/// Exact number of times `op` executes in one execution of the nest rooted
/// at `root` (which encloses it): the points of the iteration domain that
/// the enclosing `affine.for` bounds and `affine.if` conditions give.
/// Rectangular domains are counted from their extents; others by isl,
/// dimension groups that share no constraint apart (a tiled nest costs its
/// tile count, not its points). Fails with `reason` when a bound or guard is
/// not affine, depends on a value defined outside `root`, or a region op
/// other than `affine.for`/`affine.if` lies between `root` and `op`.
mlir::FailureOr<int64_t> countExecutions(AnalysisContext &context,
                                         mlir::affine::AffineForOp root,
                                         mlir::Operation *op,
                                         std::string &reason);

} // namespace dlc

#endif // DLC_ANALYSIS_ACCESSANALYSIS_H
