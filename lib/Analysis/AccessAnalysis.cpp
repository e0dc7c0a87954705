//===- AccessAnalysis.cpp - polyhedral view of affine loop nests ----------===//
//
// Sets and maps are built by printing isl's textual notation from the affine
// maps of the IR and parsing it: isl's parser already handles floor, ceil
// and mod (the quasi-affine part), parameters and existentials, so the
// translation is one small printer instead of a constraint builder.
//
//===----------------------------------------------------------------------===//

#include "dlc/Analysis/AccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/fixed_box.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>

using namespace mlir;
using namespace dlc;

//===----------------------------------------------------------------------===//
// AnalysisContext
//===----------------------------------------------------------------------===//

AnalysisContext::AnalysisContext(Operation *scope)
    : ctx(isl_ctx_alloc()), asmState(scope) {
  // Malformed input is our bug, not the user's: fail loudly.
  isl_options_set_on_error(ctx, ISL_ON_ERROR_ABORT);
}

AnalysisContext::~AnalysisContext() { isl_ctx_free(ctx); }

std::string AnalysisContext::getName(Value value) {
  auto it = names.find(value);
  if (it != names.end())
    return it->second;
  std::string printed;
  if (auto global = value.getDefiningOp<memref::GetGlobalOp>()) {
    printed = global.getName().str();
  } else {
    llvm::raw_string_ostream os(printed);
    value.printAsOperand(os, asmState);
  }
  // isl identifiers: letters, digits and '_', not starting with a digit.
  std::string name;
  for (char c : printed) {
    if (c == '%')
      continue;
    name.push_back(llvm::isAlnum(c) ? c : '_');
  }
  if (name.empty() || llvm::isDigit(name.front()))
    name = "v" + name;
  // Sibling regions reuse block-argument names; suffix to keep them apart.
  std::string unique = name;
  for (unsigned n = 1; usedNames.contains(unique); ++n)
    unique = name + "_" + std::to_string(n);
  usedNames.insert(unique);
  names[value] = unique;
  return unique;
}

//===----------------------------------------------------------------------===//
// PresburgerPointSet / PresburgerRelation
//===----------------------------------------------------------------------===//

static isl::set wrap(isl_set *set) { return isl::manage_copy(set); }
static isl::map wrap(isl_map *map) { return isl::manage_copy(map); }

PresburgerPointSet::PresburgerPointSet(const PresburgerPointSet &other)
    : set(other.set ? isl_set_copy(other.set) : nullptr) {}
PresburgerPointSet &PresburgerPointSet::operator=(PresburgerPointSet other) {
  std::swap(set, other.set);
  return *this;
}
PresburgerPointSet::~PresburgerPointSet() { isl_set_free(set); }

bool PresburgerPointSet::isEmpty() const { return wrap(set).is_empty(); }

std::string PresburgerPointSet::str() const {
  if (!set)
    return "<null>";
  char *text = isl_set_to_str(set);
  std::string result(text);
  free(text);
  return result;
}

static std::optional<int64_t> toInt(const isl::val &value) {
  if (value.is_null() || !value.is_int())
    return std::nullopt;
  return value.get_num_si();
}

std::optional<SmallVector<std::pair<int64_t, int64_t>>>
PresburgerPointSet::getBoundingBox() const {
  isl::set isl = wrap(set);
  if (isl.is_empty() || isl_set_dim(set, isl_dim_param) != 0 ||
      !isl_set_is_bounded(set))
    return std::nullopt;
  SmallVector<std::pair<int64_t, int64_t>> box;
  for (int dim = 0, e = isl_set_dim(set, isl_dim_set); dim < e; ++dim) {
    std::optional<int64_t> lo = toInt(isl.dim_min_val(dim));
    std::optional<int64_t> hi = toInt(isl.dim_max_val(dim));
    if (!lo || !hi)
      return std::nullopt;
    box.push_back({*lo, *hi});
  }
  return box;
}

std::optional<int64_t> PresburgerPointSet::countPoints() const {
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> box =
      getBoundingBox();
  if (!box) {
    if (set && isEmpty())
      return 0;
    return std::nullopt;
  }
  // A box (the usual footprint) is counted by its extents; anything else
  // (strided, skewed, unions) point by point, which isl does exactly.
  isl_set *boxSet = isl_set_universe(isl_set_get_space(set));
  int64_t boxPoints = 1;
  for (auto [index, bounds] : llvm::enumerate(*box)) {
    boxSet = isl_set_lower_bound_si(boxSet, isl_dim_set, index, bounds.first);
    boxSet = isl_set_upper_bound_si(boxSet, isl_dim_set, index, bounds.second);
    boxPoints *= bounds.second - bounds.first + 1;
  }
  if (isl::manage(boxSet).is_equal(wrap(set)))
    return boxPoints;
  isl_val *count = isl_set_count_val(set);
  std::optional<int64_t> result = toInt(isl::manage(count));
  return result;
}

PresburgerPointSet
PresburgerPointSet::unite(const PresburgerPointSet &other) const {
  if (!set)
    return other;
  if (!other.set)
    return *this;
  return PresburgerPointSet(
      wrap(set).unite(wrap(other.set)).coalesce().release());
}

PresburgerPointSet
PresburgerPointSet::intersect(const PresburgerPointSet &other) const {
  return PresburgerPointSet(
      wrap(set).intersect(wrap(other.set)).coalesce().release());
}

bool PresburgerPointSet::isEqual(const PresburgerPointSet &other) const {
  return wrap(set).is_equal(wrap(other.set));
}

PresburgerRelation::PresburgerRelation(const PresburgerRelation &other)
    : map(other.map ? isl_map_copy(other.map) : nullptr) {}
PresburgerRelation &PresburgerRelation::operator=(PresburgerRelation other) {
  std::swap(map, other.map);
  return *this;
}
PresburgerRelation::~PresburgerRelation() { isl_map_free(map); }

bool PresburgerRelation::isEmpty() const { return wrap(map).is_empty(); }
bool PresburgerRelation::isSingleValued() const {
  return wrap(map).is_single_valued();
}
bool PresburgerRelation::isInjective() const {
  return wrap(map).is_injective();
}
PresburgerRelation PresburgerRelation::inverse() const {
  return PresburgerRelation(wrap(map).reverse().release());
}
PresburgerRelation
PresburgerRelation::compose(const PresburgerRelation &next) const {
  return PresburgerRelation(
      wrap(map).apply_range(wrap(next.map)).coalesce().release());
}
PresburgerPointSet PresburgerRelation::domain() const {
  return PresburgerPointSet(wrap(map).domain().release());
}
PresburgerPointSet PresburgerRelation::range() const {
  return PresburgerPointSet(wrap(map).range().coalesce().release());
}
PresburgerRelation
PresburgerRelation::intersectDomain(const PresburgerPointSet &set) const {
  return PresburgerRelation(
      wrap(map).intersect_domain(wrap(set.get())).coalesce().release());
}
PresburgerPointSet
PresburgerRelation::apply(const PresburgerPointSet &set) const {
  return PresburgerPointSet(
      wrap(set.get()).apply(wrap(map)).coalesce().release());
}
std::optional<unsigned> PresburgerRelation::countAffinePieces() const {
  if (!isSingleValued())
    return std::nullopt;
  isl::pw_multi_aff function = wrap(map).as_pw_multi_aff();
  return isl_pw_multi_aff_n_piece(function.get());
}
PresburgerRelation
PresburgerRelation::unite(const PresburgerRelation &other) const {
  if (!map)
    return other;
  if (!other.map)
    return *this;
  return PresburgerRelation(
      wrap(map).unite(wrap(other.map)).coalesce().release());
}
std::string PresburgerRelation::functionStr() const {
  if (!map || !isSingleValued())
    return str();
  isl::pw_multi_aff function = wrap(map).as_pw_multi_aff();
  char *text = isl_pw_multi_aff_to_str(function.get());
  std::string result(text);
  free(text);
  return result;
}
bool PresburgerRelation::isEqual(const PresburgerRelation &other) const {
  return wrap(map).is_equal(wrap(other.map));
}
bool PresburgerRelation::outputDependsOnInput(unsigned outDim,
                                              unsigned inDim) const {
  isl::map relation = wrap(map);
  unsigned numOut = relation.range_tuple_dim();
  unsigned numIn = relation.domain_tuple_dim();
  // Keep only `outDim`: { S[x] -> [a] }.
  isl::map projected = isl::manage(
      isl_map_project_out(isl_map_project_out(relation.copy(), isl_dim_out,
                                              outDim + 1, numOut - outDim - 1),
                          isl_dim_out, 0, outDim));
  // { S[x] -> S[y] : x and y agree except in inDim }.
  isl_map *vary = isl_map_universe(
      isl_space_map_from_set(isl_space_domain(relation.get_space().release())));
  for (unsigned dim = 0; dim < numIn; ++dim)
    if (dim != inDim)
      vary = isl_map_equate(vary, isl_dim_in, dim, isl_dim_out, dim);
  // { [a] -> [b] }: values of outDim reached from iterations that differ
  // only in inDim; it depends on inDim unless that is always a == b.
  isl::map reached =
      projected.reverse().apply_range(isl::manage(vary)).apply_range(projected);
  isl::map same = isl::manage(isl_map_identity(isl_space_map_from_set(
      isl_space_range(isl_map_get_space(projected.get())))));
  return !reached.is_subset(same);
}

std::string PresburgerRelation::str() const {
  if (!map)
    return "<null>";
  char *text = isl_map_to_str(map);
  std::string result(text);
  free(text);
  return result;
}

//===----------------------------------------------------------------------===//
// Printing affine expressions in isl notation
//===----------------------------------------------------------------------===//

namespace {

/// Translates the index computations of one nest into isl notation: loop
/// indices become set dimensions, values defined outside the nest become
/// parameters, constants are folded in. Anything else is not affine and is
/// reported with the reason.
class IslPrinter {
public:
  IslPrinter(AnalysisContext &context, Operation *nestRoot,
             const DenseMap<Value, std::string> &loopNames)
      : context(context), nestRoot(nestRoot), loopNames(loopNames) {}

  /// isl text of `value` as an index, or failure with `reason` set.
  FailureOr<std::string> printValue(Value value, std::string &reason);
  /// isl text of each result of `map` applied to `operands`.
  FailureOr<SmallVector<std::string>>
  printMap(AffineMap map, ValueRange operands, std::string &reason);
  /// "[p0, p1] -> " for the parameters used so far.
  std::string paramPrefix() const;

private:
  std::string printExpr(AffineExpr expr, ArrayRef<std::string> dims,
                        ArrayRef<std::string> symbols);

  AnalysisContext &context;
  Operation *nestRoot;
  const DenseMap<Value, std::string> &loopNames;
  SmallVector<std::string> params;
};

} // namespace

std::string IslPrinter::printExpr(AffineExpr expr, ArrayRef<std::string> dims,
                                  ArrayRef<std::string> symbols) {
  switch (expr.getKind()) {
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbols[cast<AffineSymbolExpr>(expr).getPosition()];
  case AffineExprKind::Constant: {
    int64_t value = cast<AffineConstantExpr>(expr).getValue();
    return value < 0 ? "(" + std::to_string(value) + ")"
                     : std::to_string(value);
  }
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = printExpr(binary.getLHS(), dims, symbols);
  std::string rhs = printExpr(binary.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    // isl reads `c * e` but not `e * (c)` with a parenthesised (negative)
    // constant: put the constant first, bare.
    if (auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return "(" + std::to_string(constant.getValue()) + "*" + lhs + ")";
    if (auto constant = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return "(" + std::to_string(constant.getValue()) + "*" + rhs + ")";
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "floor((" + lhs + ")/" + rhs + ")";
  case AffineExprKind::CeilDiv:
    return "ceil((" + lhs + ")/" + rhs + ")";
  case AffineExprKind::Mod:
    return "((" + lhs + ") mod " + rhs + ")";
  default:
    llvm_unreachable("handled above");
  }
}

FailureOr<SmallVector<std::string>>
IslPrinter::printMap(AffineMap map, ValueRange operands, std::string &reason) {
  // Fold constant operands into the map so that products with them become
  // affine, then require every result to be (quasi-)affine.
  SmallVector<AffineExpr> dimReplacements, symbolReplacements;
  SmallVector<std::string> dims, symbols;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    bool isDim = index < map.getNumDims();
    MLIRContext *ctx = map.getContext();
    AffineExpr self = isDim
                          ? getAffineDimExpr(index, ctx)
                          : getAffineSymbolExpr(index - map.getNumDims(), ctx);
    APInt constant;
    if (matchPattern(operand, m_ConstantInt(&constant)))
      self = getAffineConstantExpr(constant.getSExtValue(), ctx);
    (isDim ? dimReplacements : symbolReplacements).push_back(self);
    FailureOr<std::string> text = printValue(operand, reason);
    if (failed(text))
      return failure();
    (isDim ? dims : symbols).push_back(*text);
  }
  AffineMap folded =
      map.replaceDimsAndSymbols(dimReplacements, symbolReplacements,
                                map.getNumDims(), map.getNumSymbols());
  SmallVector<std::string> results;
  for (AffineExpr expr : folded.getResults()) {
    expr =
        simplifyAffineExpr(expr, folded.getNumDims(), folded.getNumSymbols());
    if (!expr.isPureAffine()) {
      reason = "index expression is not affine (product of two variables)";
      return failure();
    }
    results.push_back(printExpr(expr, dims, symbols));
  }
  return results;
}

FailureOr<std::string> IslPrinter::printValue(Value value,
                                              std::string &reason) {
  auto loop = loopNames.find(value);
  if (loop != loopNames.end())
    return loop->second;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    int64_t number = constant.getSExtValue();
    return number < 0 ? "(" + std::to_string(number) + ")"
                      : std::to_string(number);
  }
  Operation *def = value.getDefiningOp();
  bool definedInNest =
      def ? nestRoot->isAncestor(def)
          : nestRoot->isAncestor(value.getParentBlock()->getParentOp());
  if (!definedInNest) {
    // Fixed for the whole nest: a parameter.
    std::string name = context.getName(value);
    if (!llvm::is_contained(params, name))
      params.push_back(name);
    return name;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    FailureOr<SmallVector<std::string>> results =
        printMap(apply.getAffineMap(), apply.getMapOperands(), reason);
    if (failed(results))
      return failure();
    return "(" + results->front() + ")";
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    FailureOr<std::string> lhs = printValue(def->getOperand(0), reason);
    if (failed(lhs))
      return failure();
    FailureOr<std::string> rhs = printValue(def->getOperand(1), reason);
    if (failed(rhs))
      return failure();
    if (isa<arith::MulIOp>(def) &&
        !matchPattern(def->getOperand(0), m_Constant()) &&
        !matchPattern(def->getOperand(1), m_Constant())) {
      reason = "index is a product of two variables";
      return failure();
    }
    // A constant factor first and bare, as isl reads it (see printExpr).
    APInt factor;
    if (isa<arith::MulIOp>(def) &&
        matchPattern(def->getOperand(0), m_ConstantInt(&factor)))
      return "(" + std::to_string(factor.getSExtValue()) + "*" + *rhs + ")";
    if (isa<arith::MulIOp>(def) &&
        matchPattern(def->getOperand(1), m_ConstantInt(&factor)))
      return "(" + std::to_string(factor.getSExtValue()) + "*" + *lhs + ")";
    const char *symbol = isa<arith::AddIOp>(def)   ? " + "
                         : isa<arith::SubIOp>(def) ? " - "
                                                   : " * ";
    return "(" + *lhs + symbol + *rhs + ")";
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return printValue(def->getOperand(0), reason);
  reason = "index is computed by '" + def->getName().getStringRef().str() +
           "', not an affine function of the loop indices";
  if (def->hasTrait<OpTrait::IsTerminator>() ||
      isa<memref::LoadOp, affine::AffineLoadOp>(def))
    reason = "index is loaded from memory (data-dependent)";
  return failure();
}

std::string IslPrinter::paramPrefix() const {
  if (params.empty())
    return "";
  std::string prefix = "[";
  for (auto [index, name] : llvm::enumerate(params))
    prefix += (index ? ", " : "") + name;
  return prefix + "] -> ";
}

//===----------------------------------------------------------------------===//
// NestAnalysis
//===----------------------------------------------------------------------===//

static PresburgerPointSet parseSet(AnalysisContext &context,
                                   const std::string &text) {
  return PresburgerPointSet(
      isl_set_read_from_str(context.getIslContext(), text.c_str()));
}

static PresburgerRelation parseRelation(AnalysisContext &context,
                                        const std::string &text) {
  return PresburgerRelation(
      isl_map_read_from_str(context.getIslContext(), text.c_str()));
}

static std::string joinNames(ArrayRef<std::string> names) {
  std::string joined;
  for (auto [index, name] : llvm::enumerate(names))
    joined += (index ? ", " : "") + name;
  return joined;
}

static std::string joinConditions(ArrayRef<std::string> conditions) {
  std::string joined;
  for (auto [index, condition] : llvm::enumerate(conditions))
    joined += (index ? " and " : "") + condition;
  return joined;
}

/// isl text `{ view[...] -> source[...] }` for a view op with static layout,
/// or nullopt when `view` is not such a view.
static std::optional<std::string> printViewMap(AnalysisContext &context,
                                               Value view, Value &source) {
  Operation *def = view.getDefiningOp();
  if (!def)
    return std::nullopt;
  auto viewType = dyn_cast<MemRefType>(view.getType());
  if (!viewType)
    return std::nullopt;
  SmallVector<std::string> indices;
  for (int64_t dim = 0; dim < viewType.getRank(); ++dim)
    indices.push_back("i" + std::to_string(dim));
  SmallVector<std::string> sourceIndices;
  if (auto castOp = dyn_cast<memref::CastOp>(def)) {
    source = castOp.getSource();
    sourceIndices = indices;
  } else if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    if (ShapedType::isDynamicShape(subview.getStaticOffsets()) ||
        ShapedType::isDynamicShape(subview.getStaticStrides()))
      return std::nullopt;
    source = subview.getSource();
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    unsigned viewDim = 0;
    for (auto [dim, offset] : llvm::enumerate(subview.getStaticOffsets())) {
      if (dropped.test(dim)) {
        sourceIndices.push_back(std::to_string(offset));
        continue;
      }
      sourceIndices.push_back(std::to_string(offset) + " + " +
                              std::to_string(subview.getStaticStrides()[dim]) +
                              "*" + indices[viewDim++]);
    }
  } else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def)) {
    if (!viewType.hasStaticShape())
      return std::nullopt;
    source = expand.getSrc();
    // A collapsed index is the row-major linearisation of its group.
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      std::string linear;
      int64_t stride = 1;
      for (int64_t dim : llvm::reverse(group)) {
        linear = std::to_string(stride) + "*" + indices[dim] +
                 (linear.empty() ? "" : " + " + linear);
        stride *= viewType.getDimSize(dim);
      }
      sourceIndices.push_back(linear);
    }
  } else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def)) {
    auto sourceType = cast<MemRefType>(collapse.getSrc().getType());
    if (!sourceType.hasStaticShape())
      return std::nullopt;
    source = collapse.getSrc();
    // An expanded index is the collapsed one delinearised (floordiv, mod).
    for (auto [groupIndex, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      for (int64_t dim : group) {
        int64_t inner = 1;
        for (int64_t later : group)
          if (later > dim)
            inner *= sourceType.getDimSize(later);
        sourceIndices.push_back(
            "(floor(" + indices[groupIndex] + "/" + std::to_string(inner) +
            ") mod " + std::to_string(sourceType.getDimSize(dim)) + ")");
      }
    }
  } else {
    return std::nullopt;
  }
  return "{ " + context.getName(view) + "[" + joinNames(indices) + "] -> " +
         context.getName(source) + "[" + joinNames(sourceIndices) + "] }";
}

static int64_t getElementBytes(Value memref) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  if (element.isIndex())
    return 8;
  if (element.isIntOrFloat())
    return (element.getIntOrFloatBitWidth() + 7) / 8;
  return 0;
}

static bool isLoopStructure(Operation *op) {
  return isa<affine::AffineForOp, affine::AffineIfOp, affine::AffineYieldOp,
             affine::AffineApplyOp>(op);
}

NestAnalysis::NestAnalysis(AnalysisContext &context, affine::AffineForOp root)
    : context(context), root(root), name(context.getFreshNestName()) {
  DenseMap<Value, std::string> loopNames;
  DenseMap<Operation *, unsigned> loopIndex;
  IslPrinter printer(context, root, loopNames);

  auto reject = [&](Operation *op, std::string reason) {
    nonAffine.push_back({op, std::move(reason)});
  };

  // Iterations of the loops enclosing `op` that execute it.
  auto buildDomain = [&](Operation *op, SmallVector<unsigned> &enclosing,
                         std::string &reason) -> FailureOr<PresburgerPointSet> {
    SmallVector<Operation *> ancestors;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp()) {
      ancestors.push_back(parent);
      if (parent == root.getOperation())
        break;
    }
    std::reverse(ancestors.begin(), ancestors.end());
    SmallVector<std::string> dims, conditions;
    SmallVector<std::pair<affine::AffineIfOp, bool>> guards;
    for (Operation *ancestor : ancestors) {
      if (auto loop = dyn_cast<affine::AffineForOp>(ancestor)) {
        enclosing.push_back(loopIndex.lookup(loop));
        dims.push_back(loopNames.lookup(loop.getInductionVar()));
      } else if (auto guard = dyn_cast<affine::AffineIfOp>(ancestor)) {
        bool inThen = guard.getThenRegion().isAncestor(op->getParentRegion());
        guards.push_back({guard, inThen});
      }
    }
    for (Operation *ancestor : ancestors) {
      auto loop = dyn_cast<affine::AffineForOp>(ancestor);
      if (!loop)
        continue;
      std::string name = loopNames.lookup(loop.getInductionVar());
      FailureOr<SmallVector<std::string>> lower = printer.printMap(
          loop.getLowerBoundMap(), loop.getLowerBoundOperands(), reason);
      if (failed(lower))
        return failure();
      FailureOr<SmallVector<std::string>> upper = printer.printMap(
          loop.getUpperBoundMap(), loop.getUpperBoundOperands(), reason);
      if (failed(upper))
        return failure();
      for (const std::string &bound : *lower)
        conditions.push_back(name + " >= " + bound);
      for (const std::string &bound : *upper)
        conditions.push_back(name + " < " + bound);
      int64_t step = loop.getStepAsInt();
      if (step != 1) {
        if (lower->size() != 1) {
          reason = "loop with step " + std::to_string(step) +
                   " and a max of lower bounds is not modelled";
          return failure();
        }
        conditions.push_back("exists (e: " + name + " = " + lower->front() +
                             " + " + std::to_string(step) + "*e)");
      }
    }
    auto printGuard = [&](affine::AffineIfOp guard) -> FailureOr<std::string> {
      IntegerSet set = guard.getIntegerSet();
      AffineMap asMap = AffineMap::get(set.getNumDims(), set.getNumSymbols(),
                                       set.getConstraints(), set.getContext());
      FailureOr<SmallVector<std::string>> exprs =
          printer.printMap(asMap, guard.getOperands(), reason);
      if (failed(exprs))
        return failure();
      SmallVector<std::string> parts;
      for (auto [index, expr] : llvm::enumerate(*exprs))
        parts.push_back(expr + (set.isEq(index) ? " = 0" : " >= 0"));
      return joinConditions(parts);
    };
    SmallVector<std::string> excluded;
    for (auto [guard, inThen] : guards) {
      FailureOr<std::string> condition = printGuard(guard);
      if (failed(condition))
        return failure();
      if (inThen)
        conditions.push_back(*condition);
      else
        excluded.push_back(*condition);
    }
    std::string tuple = name + "[" + joinNames(dims) + "]";
    auto withConditions = [&](ArrayRef<std::string> parts) {
      return printer.paramPrefix() + "{ " + tuple +
             (parts.empty() ? "" : " : " + joinConditions(parts)) + " }";
    };
    PresburgerPointSet domain = parseSet(context, withConditions(conditions));
    for (const std::string &condition : excluded) {
      PresburgerPointSet guardSet =
          parseSet(context, withConditions(condition));
      domain = PresburgerPointSet(isl_set_subtract(
          isl_set_copy(domain.get()), isl_set_copy(guardSet.get())));
    }
    return domain;
  };

  auto addAccess = [&](Operation *op, Value memref, AffineMap map,
                       ValueRange operands, bool isWrite) {
    std::string reason;
    AccessRelation access{op, isWrite, memref, memref, {}, {}, {}, {}};
    FailureOr<PresburgerPointSet> domain =
        buildDomain(op, access.enclosingLoops, reason);
    if (failed(domain))
      return reject(op, reason);
    FailureOr<SmallVector<std::string>> indices =
        printer.printMap(map, operands, reason);
    if (failed(indices))
      return reject(op, reason);
    SmallVector<std::string> dims;
    for (unsigned index : access.enclosingLoops)
      dims.push_back(loops[index].name);
    access.domain = *domain;
    access.relation =
        parseRelation(context, printer.paramPrefix() + "{ " + name + "[" +
                                   joinNames(dims) + "] -> " +
                                   context.getName(memref) + "[" +
                                   joinNames(*indices) + "] }")
            .intersectDomain(access.domain);
    access.rootRelation = access.relation;
    Value source;
    while (std::optional<std::string> view =
               printViewMap(context, access.rootMemref, source)) {
      access.rootRelation =
          access.rootRelation.compose(parseRelation(context, *view));
      access.rootMemref = source;
    }
    accesses.push_back(std::move(access));
  };

  root->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
      unsigned depth = 0;
      for (Operation *parent = op; parent != root.getOperation();
           parent = parent->getParentOp())
        depth += isa<affine::AffineForOp>(parent->getParentOp());
      std::string name = context.getName(loop.getInductionVar());
      loopNames[loop.getInductionVar()] = name;
      loopIndex[op] = loops.size();
      std::optional<uint64_t> tripCount;
      if (loop.hasConstantBounds()) {
        int64_t span =
            loop.getConstantUpperBound() - loop.getConstantLowerBound();
        int64_t step = loop.getStepAsInt();
        tripCount = span <= 0 ? 0 : (span + step - 1) / step;
      }
      loops.push_back({loop, name, depth, tripCount});
      return WalkResult::advance();
    }
    if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
      addAccess(op, load.getMemRef(), load.getAffineMap(),
                load.getMapOperands(), /*isWrite=*/false);
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
      addAccess(op, store.getMemRef(), store.getAffineMap(),
                store.getMapOperands(), /*isWrite=*/true);
      return WalkResult::advance();
    }
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      bool isWrite = isa<memref::StoreOp>(op);
      Value memref = isWrite ? cast<memref::StoreOp>(op).getMemRef()
                             : cast<memref::LoadOp>(op).getMemRef();
      ValueRange indices = isWrite ? cast<memref::StoreOp>(op).getIndices()
                                   : cast<memref::LoadOp>(op).getIndices();
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(indices.size(), op->getContext());
      addAccess(op, memref, identity, indices, isWrite);
      return WalkResult::advance();
    }
    if (isLoopStructure(op))
      return WalkResult::advance();
    if (isa<affine::AffineReadOpInterface, affine::AffineWriteOpInterface>(
            op)) {
      reject(op, "vector or DMA access is not modelled");
      return WalkResult::advance();
    }
    if (op->getNumRegions() != 0) {
      // Its accesses would miss the iterations of its own regions.
      reject(op, "region of '" + op->getName().getStringRef().str() +
                     "' inside an affine nest is not modelled");
      return WalkResult::skip();
    }
    if (!isMemoryEffectFree(op))
      reject(op, "memory effects of '" + op->getName().getStringRef().str() +
                     "' are not modelled");
    return WalkResult::advance();
  });
}

SmallVector<Value> NestAnalysis::getRootMemrefs() const {
  llvm::SetVector<Value> roots;
  for (const AccessRelation &access : accesses)
    roots.insert(access.rootMemref);
  return roots.takeVector();
}

unsigned NestAnalysis::getBandDepth() const {
  unsigned depth = 1;
  for (affine::AffineForOp loop = root;;) {
    Block *body = loop.getBody();
    // The body holds exactly one loop and the terminator.
    if (body->getOperations().size() != 2)
      return depth;
    auto inner = dyn_cast<affine::AffineForOp>(body->front());
    if (!inner)
      return depth;
    loop = inner;
    ++depth;
  }
}

SmallVector<SmallVector<unsigned>>
NestAnalysis::getIndexingLoops(const AccessRelation &access) const {
  auto type = cast<MemRefType>(access.rootMemref.getType());
  SmallVector<SmallVector<unsigned>> indexing(type.getRank());
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    for (auto [position, loop] : llvm::enumerate(access.enclosingLoops))
      if (access.rootRelation.outputDependsOnInput(dim, position))
        indexing[dim].push_back(loop);
  return indexing;
}

/// Fills the box fields of `footprint` from a parameter-free `set`.
static bool setBoxFromBounds(Footprint &footprint,
                             const PresburgerPointSet &set) {
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> box =
      set.getBoundingBox();
  if (!box)
    return false;
  footprint.boxSizes.clear();
  footprint.boxElements = 1;
  for (auto [lo, hi] : *box) {
    footprint.boxSizes.push_back(hi - lo + 1);
    footprint.boxElements *= hi - lo + 1;
  }
  return true;
}

std::optional<Footprint> NestAnalysis::getFootprint(Value rootMemref) const {
  return getTileFootprint(rootMemref, {});
}

std::optional<Footprint>
NestAnalysis::getTileFootprint(Value rootMemref,
                               ArrayRef<int64_t> tileSizes) const {
  if (!isAffine())
    return std::nullopt;
  unsigned bandDepth = getBandDepth();
  PresburgerPointSet firstTile, anyTile;
  for (const AccessRelation &access : accesses) {
    if (access.rootMemref != rootMemref)
      continue;
    // Band loop k is the k-th enclosing loop of every access.
    SmallVector<std::string> dims, firstConditions, anyConditions, origins;
    for (unsigned index : access.enclosingLoops)
      dims.push_back(loops[index].name);
    for (unsigned k = 0; k < bandDepth && k < tileSizes.size(); ++k) {
      if (tileSizes[k] <= 0)
        continue;
      affine::AffineForOp loop = loops[k].loop;
      int64_t span = tileSizes[k] * loop.getStepAsInt();
      std::string origin = "tile_origin_" + std::to_string(k);
      origins.push_back(origin);
      if (!loop.hasConstantLowerBound())
        return std::nullopt;
      int64_t lower = loop.getConstantLowerBound();
      // Tiles start at lower + t * span.
      anyConditions.push_back(origin + " <= " + dims[k] + " < " + origin +
                              " + " + std::to_string(span));
      anyConditions.push_back("exists (t: " + origin + " = " +
                              std::to_string(lower) + " + " +
                              std::to_string(span) + "*t)");
      firstConditions.push_back(std::to_string(lower) + " <= " + dims[k] +
                                " < " + std::to_string(lower + span));
    }
    std::string tuple = "{ " + name + "[" + joinNames(dims) + "]";
    auto tileSet = [&](ArrayRef<std::string> conditions, std::string prefix) {
      return parseSet(
          context,
          prefix + tuple +
              (conditions.empty() ? "" : " : " + joinConditions(conditions)) +
              " }");
    };
    std::string originPrefix =
        origins.empty() ? "" : "[" + joinNames(origins) + "] -> ";
    firstTile = firstTile.unite(
        access.rootRelation.apply(tileSet(firstConditions, "")));
    anyTile = anyTile.unite(
        access.rootRelation.apply(tileSet(anyConditions, originPrefix)));
  }
  if (firstTile.isNull())
    return std::nullopt;
  std::optional<int64_t> elements = firstTile.countPoints();
  if (!elements)
    return std::nullopt;
  Footprint footprint;
  footprint.elements = *elements;
  footprint.elementBytes = getElementBytes(rootMemref);
  // The box a transfer moves must hold every tile's footprint: isl's fixed
  // box hull of the footprint parameterised by the tile origin. Without a
  // fixed-size hull (rare), fall back to the first tile's bounding box.
  isl::fixed_box hull =
      isl::manage(isl_set_get_simple_fixed_box_hull(anyTile.get()));
  if (hull.is_valid()) {
    isl::multi_val sizes = hull.size();
    footprint.boxElements = 1;
    for (int dim = 0, e = sizes.size(); dim < e; ++dim) {
      std::optional<int64_t> size = toInt(sizes.at(dim));
      if (!size)
        return std::nullopt;
      footprint.boxSizes.push_back(*size);
      footprint.boxElements *= *size;
    }
  } else if (!setBoxFromBounds(footprint, firstTile)) {
    return std::nullopt;
  }
  return footprint;
}

std::optional<CopyNest> NestAnalysis::getPureCopy() const {
  if (!isAffine() || accesses.size() != 2)
    return std::nullopt;
  const AccessRelation *load = &accesses[0], *store = &accesses[1];
  if (load->isWrite)
    std::swap(load, store);
  // A copy within one buffer (a shift in place) has no intermediate buffer
  // to eliminate.
  if (load->isWrite || !store->isWrite ||
      load->enclosingLoops != store->enclosingLoops ||
      load->rootMemref == store->rootMemref)
    return std::nullopt;
  Value stored = isa<affine::AffineStoreOp>(store->op)
                     ? cast<affine::AffineStoreOp>(store->op).getValueToStore()
                     : cast<memref::StoreOp>(store->op).getValueToStore();
  if (stored != load->op->getResult(0))
    return std::nullopt;
  // Nothing but loops, index arithmetic and the pair itself.
  WalkResult onlyCopy = root->walk([&](Operation *op) {
    if (op == load->op || op == store->op || isLoopStructure(op) ||
        isa<arith::ConstantOp>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (onlyCopy.wasInterrupted())
    return std::nullopt;
  return CopyNest{load, store};
}

FailureOr<SmallVector<ReadThroughCopies>>
dlc::composeThroughCopies(const AccessRelation &reader,
                          ArrayRef<CopyNest> copies) {
  SmallVector<ReadThroughCopies> reads;
  PresburgerPointSet written;
  for (const CopyNest &copy : copies) {
    const PresburgerRelation &store = copy.store->rootRelation;
    if (copy.store->rootMemref != reader.rootMemref || !store.isInjective())
      return failure();
    PresburgerPointSet elements = store.range();
    if (!written.isNull() && !written.intersect(elements).isEmpty())
      return failure();
    written = written.unite(elements);
    // Reader iteration -> copy iteration -> source element.
    PresburgerRelation relation = reader.rootRelation.compose(store.inverse())
                                      .compose(copy.load->rootRelation);
    Value source = copy.load->rootMemref;
    auto existing = llvm::find_if(reads, [&](const ReadThroughCopies &read) {
      return read.source == source;
    });
    if (existing != reads.end())
      existing->relation = existing->relation.unite(relation);
    else
      reads.push_back({source, relation});
  }
  return reads;
}
