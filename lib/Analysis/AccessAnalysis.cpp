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
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/fixed_box.h>
#include <isl/local_space.h>
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
  values[unique] = value;
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

PresburgerPointSet
PresburgerPointSet::subtract(const PresburgerPointSet &other) const {
  return PresburgerPointSet(
      wrap(set).subtract(wrap(other.set)).coalesce().release());
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
// From isl back to MLIR affine expressions
//===----------------------------------------------------------------------===//

namespace {

/// Writes isl affine expressions and constraints as MLIR affine
/// expressions: set (or input) dimensions are dims, parameters symbols
/// (numbered by name across the whole function), local divisions
/// `floor(e/d)` become `e floordiv d`.
class AffineExprBuilder {
public:
  AffineExprBuilder(MLIRContext *context, unsigned numDims,
                    SmallVector<std::string> &symbols)
      : context(context), numDims(numDims), symbols(symbols) {}

  /// `aff` (possibly rational, with integer values on its domain).
  FailureOr<AffineExpr> build(isl_aff *aff);
  /// The constraint `expr >= 0` or `expr = 0`.
  FailureOr<AffineExpr> build(isl_constraint *constraint);

private:
  FailureOr<int64_t> toInt(isl_val *owned);
  FailureOr<AffineExpr> symbol(isl_space *space, int position);
  /// Sum of `coefficient(kind, i) * term(i)` over the terms of one kind,
  /// with coefficients scaled by `scale` (the denominator).
  template <typename GetCoefficient, typename GetDiv>
  FailureOr<AffineExpr> buildSum(isl_space *space, int numIn, int numParams,
                                 int numDivs, isl_val *scale,
                                 GetCoefficient getCoefficient, GetDiv getDiv);

  MLIRContext *context;
  unsigned numDims;
  SmallVector<std::string> &symbols;
};

} // namespace

FailureOr<int64_t> AffineExprBuilder::toInt(isl_val *owned) {
  isl::val value = isl::manage(owned);
  if (value.is_null() || !value.is_int())
    return failure();
  // isl keeps big integers exactly; only values that fit are usable.
  isl::val limit(value.ctx(), std::numeric_limits<int64_t>::max());
  if (value.abs().gt(limit))
    return failure();
  return value.get_num_si();
}

FailureOr<AffineExpr> AffineExprBuilder::symbol(isl_space *space,
                                                int position) {
  const char *name = isl_space_get_dim_name(space, isl_dim_param, position);
  if (!name)
    return failure();
  auto *it = llvm::find(symbols, name);
  if (it == symbols.end()) {
    symbols.push_back(name);
    it = symbols.end() - 1;
  }
  return getAffineSymbolExpr(it - symbols.begin(), context);
}

template <typename GetCoefficient, typename GetDiv>
FailureOr<AffineExpr>
AffineExprBuilder::buildSum(isl_space *space, int numIn, int numParams,
                            int numDivs, isl_val *scale,
                            GetCoefficient getCoefficient, GetDiv getDiv) {
  AffineExpr sum = getAffineConstantExpr(0, context);
  auto addTerm = [&](isl_val *coefficient, AffineExpr term) -> LogicalResult {
    FailureOr<int64_t> factor =
        toInt(isl_val_mul(coefficient, isl_val_copy(scale)));
    if (failed(factor))
      return failure();
    if (*factor != 0)
      sum = sum + term * *factor;
    return success();
  };
  if (numIn > static_cast<int>(numDims))
    return failure();
  for (int i = 0; i < numIn; ++i)
    if (failed(addTerm(getCoefficient(isl_dim_in, i),
                       getAffineDimExpr(i, context))))
      return failure();
  for (int i = 0; i < numParams; ++i) {
    FailureOr<AffineExpr> term = symbol(space, i);
    if (failed(term) ||
        failed(addTerm(getCoefficient(isl_dim_param, i), *term)))
      return failure();
  }
  for (int i = 0; i < numDivs; ++i) {
    isl_val *coefficient = getCoefficient(isl_dim_div, i);
    if (isl_val_is_zero(coefficient)) {
      isl_val_free(coefficient);
      continue;
    }
    isl_aff *div = getDiv(i);
    FailureOr<AffineExpr> term = build(div);
    isl_aff_free(div);
    // A local division is the floor of its (rational) expression.
    if (failed(term) || failed(addTerm(coefficient, *term)))
      return failure();
  }
  return sum;
}

FailureOr<AffineExpr> AffineExprBuilder::build(isl_aff *aff) {
  isl_val *denominator = isl_aff_get_denominator_val(aff);
  FailureOr<int64_t> divisor = toInt(isl_val_copy(denominator));
  isl_space *space = isl_aff_get_domain_space(aff);
  FailureOr<AffineExpr> sum = buildSum(
      space, isl_aff_dim(aff, isl_dim_in), isl_aff_dim(aff, isl_dim_param),
      isl_aff_dim(aff, isl_dim_div), denominator,
      [&](isl_dim_type type, int i) {
        return isl_aff_get_coefficient_val(aff, type, i);
      },
      [&](int i) { return isl_aff_get_div(aff, i); });
  FailureOr<int64_t> constant =
      toInt(isl_val_mul(isl_aff_get_constant_val(aff), denominator));
  isl_space_free(space);
  if (failed(sum) || failed(divisor) || failed(constant) || *divisor <= 0)
    return failure();
  AffineExpr expr = *sum + *constant;
  // Exact on the domain for an integer-valued function, the floor for a
  // local division.
  return *divisor == 1 ? expr : expr.floorDiv(*divisor);
}

FailureOr<AffineExpr> AffineExprBuilder::build(isl_constraint *constraint) {
  isl_local_space *local = isl_constraint_get_local_space(constraint);
  isl_space *space = isl_local_space_get_space(local);
  isl_val *one = isl_val_one(isl_local_space_get_ctx(local));
  // Constraints of sets number their dimensions as set dimensions.
  FailureOr<AffineExpr> sum = buildSum(
      space, isl_local_space_dim(local, isl_dim_set),
      isl_local_space_dim(local, isl_dim_param),
      isl_local_space_dim(local, isl_dim_div), one,
      [&](isl_dim_type type, int i) {
        return isl_constraint_get_coefficient_val(
            constraint, type == isl_dim_in ? isl_dim_set : type, i);
      },
      [&](int i) { return isl_constraint_get_div(constraint, i); });
  FailureOr<int64_t> constant =
      toInt(isl_constraint_get_constant_val(constraint));
  isl_val_free(one);
  isl_space_free(space);
  isl_local_space_free(local);
  if (failed(sum) || failed(constant))
    return failure();
  return *sum + *constant;
}

/// Whether `expr >= 0` always holds: a non-negative constant, or one of
/// the two constraints isl keeps to define a local division q = n floordiv d
/// (n - d*q >= 0 and d*q - n + d - 1 >= 0), which say 0 <= n mod d < d.
static bool holdsTrivially(AffineExpr expr, unsigned numDims,
                           unsigned numSymbols) {
  auto isConstantAtLeast = [&](AffineExpr candidate, int64_t bound) {
    auto constant = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(candidate, numDims, numSymbols));
    return constant && constant.getValue() >= bound;
  };
  if (isConstantAtLeast(expr, 0))
    return true;
  bool trivial = false;
  expr.walk([&](AffineExpr sub) {
    auto division = dyn_cast<AffineBinaryOpExpr>(sub);
    if (trivial || !division || division.getKind() != AffineExprKind::FloorDiv)
      return;
    auto divisor = dyn_cast<AffineConstantExpr>(division.getRHS());
    if (!divisor || divisor.getValue() <= 0)
      return;
    AffineExpr remainder = division.getLHS() % divisor;
    trivial = isConstantAtLeast(expr - remainder, 0) ||
              isConstantAtLeast(expr + remainder, divisor.getValue() - 1);
  });
  return trivial;
}

/// The conditions of `set` as integer sets, one per basic set of the union;
/// a null set for a part without constraints.
static LogicalResult toIntegerSets(isl_set *set, AffineExprBuilder &builder,
                                   unsigned numDims, unsigned numSymbols,
                                   SmallVectorImpl<IntegerSet> &result) {
  // Existentially quantified variables need explicit divisions to be
  // written as floordiv.
  isl::set explicitDivs =
      isl::manage(
          isl_set_remove_redundancies(isl_set_compute_divs(isl_set_copy(set))))
          .coalesce();
  bool failed = false;
  explicitDivs.foreach_basic_set([&](isl::basic_set part) {
    SmallVector<AffineExpr> exprs;
    SmallVector<bool> isEquality;
    auto addConstraint = [&](isl_constraint *constraint) {
      FailureOr<AffineExpr> expr = builder.build(constraint);
      bool equality = isl_constraint_is_equality(constraint);
      isl_constraint_free(constraint);
      if (mlir::failed(expr)) {
        failed = true;
        return;
      }
      if (!equality && holdsTrivially(*expr, numDims, numSymbols))
        return;
      exprs.push_back(*expr);
      isEquality.push_back(equality);
    };
    isl_basic_set_foreach_constraint(
        part.get(),
        [](isl_constraint *constraint, void *user) {
          (*static_cast<decltype(addConstraint) *>(user))(constraint);
          return isl_stat_ok;
        },
        &addConstraint);
    result.push_back(exprs.empty() ? IntegerSet()
                                   : IntegerSet::get(numDims, numSymbols, exprs,
                                                     isEquality));
  });
  return failure(failed);
}

FailureOr<PiecewiseAffineMap>
PresburgerRelation::toAffinePieces(MLIRContext *mlirContext,
                                   const PresburgerPointSet &context) const {
  if (!map || !isSingleValued())
    return failure();
  isl::map relation = wrap(map);
  if (context.get())
    relation = relation.intersect_domain(wrap(context.get()));
  isl::pw_multi_aff function = relation.as_pw_multi_aff();
  if (context.get())
    function = function.gist(wrap(context.get()));
  function = function.coalesce();

  isl_space *space = isl_pw_multi_aff_get_space(function.get());
  unsigned numDims = isl_space_dim(space, isl_dim_in);
  PiecewiseAffineMap result;
  for (int i = 0, e = isl_space_dim(space, isl_dim_param); i < e; ++i) {
    const char *name = isl_space_get_dim_name(space, isl_dim_param, i);
    result.symbols.push_back(name ? name : "");
  }
  isl_space_free(space);
  unsigned numSymbols = result.symbols.size();
  AffineExprBuilder builder(mlirContext, numDims, result.symbols);
  bool failed = false;
  function.foreach_piece([&](isl::set domain, isl::multi_aff values) {
    SmallVector<AffineExpr> results;
    for (int i = 0, e = isl_multi_aff_dim(values.get(), isl_dim_out); i < e;
         ++i) {
      isl_aff *value = isl_multi_aff_get_aff(values.get(), i);
      FailureOr<AffineExpr> expr = builder.build(value);
      isl_aff_free(value);
      if (mlir::failed(expr)) {
        failed = true;
        return;
      }
      results.push_back(simplifyAffineExpr(*expr, numDims, numSymbols));
    }
    SmallVector<IntegerSet> conditions;
    if (mlir::failed(toIntegerSets(domain.get(), builder, numDims, numSymbols,
                                   conditions))) {
      failed = true;
      return;
    }
    // A part without constraints covers the others.
    if (llvm::any_of(conditions, [](IntegerSet set) { return !set; }))
      conditions.assign(1, IntegerSet());
    AffineMap valueMap =
        AffineMap::get(numDims, numSymbols, results, mlirContext);
    for (IntegerSet condition : conditions)
      result.pieces.push_back({condition, valueMap});
  });
  // New symbols would have been met outside the function's space.
  if (failed || result.symbols.size() != numSymbols)
    return failure();
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
  AffineExpr lhsExpr = binary.getLHS(), rhsExpr = binary.getRHS();
  // isl takes a divisor only as a positive number: x / -d is -x / d.
  auto divisor = dyn_cast<AffineConstantExpr>(rhsExpr);
  if (divisor && divisor.getValue() < 0 &&
      (expr.getKind() == AffineExprKind::FloorDiv ||
       expr.getKind() == AffineExprKind::CeilDiv)) {
    lhsExpr = -lhsExpr;
    rhsExpr = -rhsExpr;
  }
  std::string lhs = printExpr(lhsExpr, dims, symbols);
  std::string rhs = printExpr(rhsExpr, dims, symbols);
  // A factor or divisor must be a bare number for isl ("x * -2", not
  // "x * (-2)").
  if (auto constant = dyn_cast<AffineConstantExpr>(rhsExpr))
    rhs = std::to_string(constant.getValue());
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
    // Collapsing to rank 0 drops unit dimensions only: all indices are 0.
    if (collapse.getReassociationIndices().empty())
      sourceIndices.assign(sourceType.getRank(), "0");
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

std::optional<int64_t> dlc::getElementBytes(Type elementType) {
  if (elementType.isIndex())
    return 8;
  if (elementType.isIntOrFloat())
    return (elementType.getIntOrFloatBitWidth() + 7) / 8;
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    std::optional<int64_t> part = getElementBytes(complex.getElementType());
    return part ? std::optional<int64_t>(2 * *part) : std::nullopt;
  }
  if (auto vector = dyn_cast<VectorType>(elementType)) {
    std::optional<int64_t> scalar = getElementBytes(vector.getElementType());
    if (!scalar || vector.isScalable())
      return std::nullopt;
    return *scalar * vector.getNumElements();
  }
  return std::nullopt;
}

static bool isLoopStructure(Operation *op) {
  return isa<affine::AffineForOp, affine::AffineIfOp, affine::AffineYieldOp,
             affine::AffineApplyOp>(op);
}

/// Iterations of the loops between `root` (included) and `op` that execute
/// `op`: the bounds of the enclosing `affine.for`s and the conditions of the
/// enclosing `affine.if`s, as a set of `tupleName` tuples; `enclosing` gets
/// the enclosing loops, outermost first.
static FailureOr<PresburgerPointSet> buildIterationDomain(
    AnalysisContext &context, IslPrinter &printer, Operation *root,
    StringRef tupleName, const DenseMap<Value, std::string> &loopNames,
    Operation *op, SmallVectorImpl<affine::AffineForOp> &enclosing,
    std::string &reason) {
  SmallVector<Operation *> ancestors;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    ancestors.push_back(parent);
    if (parent == root)
      break;
  }
  std::reverse(ancestors.begin(), ancestors.end());
  SmallVector<std::string> dims, conditions;
  SmallVector<std::pair<affine::AffineIfOp, bool>> guards;
  for (Operation *ancestor : ancestors) {
    if (auto loop = dyn_cast<affine::AffineForOp>(ancestor)) {
      enclosing.push_back(loop);
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
  std::string tuple = tupleName.str() + "[" + joinNames(dims) + "]";
  auto withConditions = [&](ArrayRef<std::string> parts) {
    return printer.paramPrefix() + "{ " + tuple +
           (parts.empty() ? "" : " : " + joinConditions(parts)) + " }";
  };
  PresburgerPointSet domain = parseSet(context, withConditions(conditions));
  for (const std::string &condition : excluded) {
    PresburgerPointSet guardSet = parseSet(context, withConditions(condition));
    domain = PresburgerPointSet(isl_set_subtract(isl_set_copy(domain.get()),
                                                 isl_set_copy(guardSet.get())));
  }
  return domain;
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
    SmallVector<affine::AffineForOp> enclosingLoops;
    FailureOr<PresburgerPointSet> domain = buildIterationDomain(
        context, printer, root, name, loopNames, op, enclosingLoops, reason);
    for (affine::AffineForOp loop : enclosingLoops)
      enclosing.push_back(loopIndex.lookup(loop));
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
  footprint.elementBytes =
      getElementBytes(cast<MemRefType>(rootMemref.getType()).getElementType())
          .value_or(0);
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

//===----------------------------------------------------------------------===//
// Execution counts
//===----------------------------------------------------------------------===//

/// Exact number of points of a bounded, parameter-free basic set. isl
/// counts by enumerating every dimension but the last, so dimensions that
/// share no constraint are counted apart and multiplied: a tiled loop pair
/// (tile origin `ii`, `ii <= i < ii + 32`) then costs its tiles, not its
/// points times the other loops' points.
static std::optional<int64_t> countBasicSetPoints(isl::basic_set piece) {
  auto countWhole = [&] {
    return PresburgerPointSet(isl_set_from_basic_set(piece.copy()))
        .countPoints();
  };
  isl_size dims = isl_basic_set_dim(piece.get(), isl_dim_set);
  isl_size locals = isl_basic_set_dim(piece.get(), isl_dim_div);
  if (dims < 0 || locals < 0)
    return std::nullopt;
  if (dims <= 1)
    return countWhole();

  // Union-find over dimensions [0, dims) and local variables [dims, ...):
  // two are joined when a constraint involves both.
  struct Groups {
    SmallVector<unsigned> parent;
    unsigned dims;
    unsigned find(unsigned x) {
      while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
      return x;
    }
  } groups;
  groups.dims = dims;
  groups.parent.resize(dims + locals);
  for (unsigned index = 0; index < groups.parent.size(); ++index)
    groups.parent[index] = index;
  auto joinConstraint = [](isl_constraint *constraint, void *user) {
    auto &groups = *static_cast<Groups *>(user);
    std::optional<unsigned> first;
    auto join = [&](unsigned var) {
      if (!first)
        first = groups.find(var);
      else
        groups.parent[groups.find(var)] = *first;
    };
    for (unsigned dim = 0; dim < groups.dims; ++dim)
      if (isl_constraint_involves_dims(constraint, isl_dim_set, dim, 1) ==
          isl_bool_true)
        join(dim);
    for (unsigned local = groups.dims; local < groups.parent.size(); ++local)
      if (isl_constraint_involves_dims(constraint, isl_dim_div,
                                       local - groups.dims, 1) == isl_bool_true)
        join(local);
    isl_constraint_free(constraint);
    return isl_stat_ok;
  };
  if (isl_basic_set_foreach_constraint(piece.get(), joinConstraint, &groups) <
      0)
    return countWhole();
  SmallVector<unsigned> roots;
  for (unsigned dim = 0; dim < unsigned(dims); ++dim)
    if (!llvm::is_contained(roots, groups.find(dim)))
      roots.push_back(groups.find(dim));
  if (roots.size() == 1)
    return countWhole();

  // Count each group's projection; the groups are independent when the set
  // is the product of the projections (checked, as a local variable can
  // also couple dimensions through its definition).
  int64_t total = 1;
  isl_set *product = isl_set_universe(isl_basic_set_get_space(piece.get()));
  for (unsigned root : roots) {
    isl_basic_set *projection = piece.copy();
    isl_basic_set *cylinder = piece.copy();
    for (int dim = dims - 1; dim >= 0; --dim) {
      if (groups.find(dim) == root)
        continue;
      projection = isl_basic_set_project_out(projection, isl_dim_set, dim, 1);
      cylinder = isl_basic_set_eliminate(cylinder, isl_dim_set, dim, 1);
    }
    product = isl_set_intersect(product, isl_set_from_basic_set(cylinder));
    std::optional<int64_t> count =
        PresburgerPointSet(isl_set_from_basic_set(projection)).countPoints();
    if (!count || llvm::MulOverflow(total, *count, total)) {
      isl_set_free(product);
      return std::nullopt;
    }
  }
  isl_set *whole = isl_set_from_basic_set(piece.copy());
  isl_bool independent = isl_set_is_equal(whole, product);
  isl_set_free(whole);
  isl_set_free(product);
  if (independent != isl_bool_true)
    return countWhole();
  return total;
}

/// Exact number of points of a bounded, parameter-free set: the sum over
/// its disjoint pieces.
static std::optional<int64_t>
countPointsByPieces(const PresburgerPointSet &set) {
  std::optional<SmallVector<std::pair<int64_t, int64_t>>> box =
      set.getBoundingBox();
  if (!box)
    return set.countPoints();
  // A box is counted by its extents.
  std::optional<int64_t> boxPoints = 1;
  for (auto [lo, hi] : *box)
    if (llvm::MulOverflow(*boxPoints, hi - lo + 1, *boxPoints))
      return std::nullopt;
  isl_set *boxSet = isl_set_universe(isl_set_get_space(set.get()));
  for (auto [index, bounds] : llvm::enumerate(*box)) {
    boxSet = isl_set_lower_bound_si(boxSet, isl_dim_set, index, bounds.first);
    boxSet = isl_set_upper_bound_si(boxSet, isl_dim_set, index, bounds.second);
  }
  if (isl::manage(boxSet).is_equal(wrap(set.get())))
    return boxPoints;
  isl::set disjoint = isl::manage(
      isl_set_make_disjoint(isl_set_coalesce(isl_set_copy(set.get()))));
  std::optional<int64_t> total = 0;
  disjoint.foreach_basic_set([&](isl::basic_set piece) {
    if (!total)
      return;
    std::optional<int64_t> count = countBasicSetPoints(piece);
    if (!count || llvm::AddOverflow(*total, *count, *total))
      total = std::nullopt;
  });
  return total;
}

FailureOr<int64_t> dlc::countExecutions(AnalysisContext &context,
                                        affine::AffineForOp root, Operation *op,
                                        std::string &reason) {
  DenseMap<Value, std::string> loopNames;
  bool insideRoot = false;
  for (Operation *parent = op->getParentOp(); parent && !insideRoot;
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<affine::AffineForOp>(parent)) {
      loopNames[loop.getInductionVar()] =
          context.getName(loop.getInductionVar());
    } else if (!isa<affine::AffineIfOp>(parent)) {
      reason = "it is inside '" + parent->getName().getStringRef().str() +
               "', whose iterations are not modelled";
      return failure();
    }
    insideRoot = parent == root.getOperation();
  }
  if (!insideRoot) {
    reason = "it is not inside the nest";
    return failure();
  }
  IslPrinter printer(context, root, loopNames);
  SmallVector<affine::AffineForOp> enclosing;
  FailureOr<PresburgerPointSet> domain =
      buildIterationDomain(context, printer, root, context.getFreshNestName(),
                           loopNames, op, enclosing, reason);
  if (failed(domain))
    return failure();
  if (isl_set_dim(domain->get(), isl_dim_param) != 0) {
    reason = "its loop bounds depend on values defined outside the nest";
    return failure();
  }
  std::optional<int64_t> count = countPointsByPieces(*domain);
  if (!count) {
    reason = "its iteration count is unbounded or does not fit in 64 bits";
    return failure();
  }
  return *count;
}
