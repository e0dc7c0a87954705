//===- AccessPatterns.cpp - affine accesses as partition patterns ---------===//

#include "AccessPatterns.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;

Box Box::restrict(unsigned loop, int64_t from, int64_t to) const {
  Box box = *this;
  box.lo[loop] = std::max(lo[loop], from);
  box.hi[loop] = std::min(hi[loop], to);
  return box;
}

bool Box::isEmpty() const {
  for (auto [l, h] : llvm::zip(lo, hi))
    if (h <= l)
      return true;
  return false;
}

int64_t LinearForm::atLow(const Box &box) const {
  int64_t v = constant;
  for (auto [l, a] : llvm::enumerate(coefficients))
    v += a * box.lo[l];
  return v;
}

int64_t LinearForm::getMin(const Box &box) const {
  int64_t v = constant;
  for (auto [l, a] : llvm::enumerate(coefficients))
    v += std::min(a * box.lo[l], a * (box.hi[l] - 1));
  return v;
}

int64_t LinearForm::getMax(const Box &box) const {
  int64_t v = constant;
  for (auto [l, a] : llvm::enumerate(coefficients))
    v += std::max(a * box.lo[l], a * (box.hi[l] - 1));
  return v;
}

namespace {
using Linearized = std::variant<LinearForm, Split, std::monostate>;

LinearForm scale(LinearForm form, int64_t factor) {
  form.constant *= factor;
  for (int64_t &a : form.coefficients)
    a *= factor;
  return form;
}

bool isConstant(const LinearForm &form) {
  return llvm::all_of(form.coefficients, [](int64_t a) { return a == 0; });
}

/// Where to split `box` so that floor(form / divisor) keeps one value on
/// the first part; nullopt when no single loop's split separates values.
std::optional<Split> findSplit(const LinearForm &form, int64_t divisor,
                               const Box &box) {
  SmallVector<unsigned> loops;
  for (unsigned l = 0; l < form.coefficients.size(); ++l)
    if (form.coefficients[l] != 0 && box.getSize(l) > 1)
      loops.push_back(l);
  // The loop that moves the value most first.
  llvm::stable_sort(loops, [&](unsigned a, unsigned b) {
    return std::abs(form.coefficients[a]) * box.getSize(a) >
           std::abs(form.coefficients[b]) * box.getSize(b);
  });
  for (unsigned l : loops) {
    int64_t a = form.coefficients[l];
    // The rest of the form over the box, without loop l.
    LinearForm rest = form;
    rest.coefficients[l] = 0;
    int64_t v0 = a > 0 ? a * box.lo[l] + rest.getMin(box)
                       : a * box.lo[l] + rest.getMax(box);
    int64_t q0 = llvm::divideFloorSigned(v0, divisor);
    int64_t steps = a > 0 ? llvm::divideCeilSigned((q0 + 1) * divisor - v0, a)
                          : llvm::divideFloorSigned(v0 - q0 * divisor, -a) + 1;
    int64_t value = box.lo[l] + steps;
    if (value > box.lo[l] && value < box.hi[l])
      return Split{l, value};
  }
  return std::nullopt;
}

Linearized linearizeImpl(AffineExpr expr, unsigned numLoops, const Box &box) {
  LinearForm zero;
  zero.coefficients.assign(numLoops, 0);
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    zero.constant = cast<AffineConstantExpr>(expr).getValue();
    return zero;
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (pos >= numLoops)
      return std::monostate();
    zero.coefficients[pos] = 1;
    return zero;
  }
  case AffineExprKind::SymbolId:
    return std::monostate();
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Linearized lhs = linearizeImpl(binary.getLHS(), numLoops, box);
  if (!std::holds_alternative<LinearForm>(lhs))
    return lhs;
  Linearized rhs = linearizeImpl(binary.getRHS(), numLoops, box);
  if (!std::holds_alternative<LinearForm>(rhs))
    return rhs;
  LinearForm l = std::get<LinearForm>(lhs), r = std::get<LinearForm>(rhs);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    l.constant += r.constant;
    for (unsigned i = 0; i < numLoops; ++i)
      l.coefficients[i] += r.coefficients[i];
    return l;
  case AffineExprKind::Mul:
    if (isConstant(l))
      return scale(r, l.constant);
    if (isConstant(r))
      return scale(l, r.constant);
    return std::monostate();
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod: {
    if (!isConstant(r) || r.constant <= 0)
      return std::monostate();
    int64_t c = r.constant;
    // ceildiv(f, c) = -floordiv(-f, c).
    LinearForm f = expr.getKind() == AffineExprKind::CeilDiv ? scale(l, -1) : l;
    // The terms divisible by c divide exactly; the rest must stay within
    // one multiple of c: floor((c * g + h) / c) = g + floor(h / c).
    LinearForm divisible = f, rest = f;
    divisible.constant = 0;
    for (unsigned i = 0; i < numLoops; ++i) {
      bool exact = f.coefficients[i] % c == 0;
      divisible.coefficients[i] = exact ? f.coefficients[i] : 0;
      rest.coefficients[i] = exact ? 0 : f.coefficients[i];
    }
    int64_t qMin = llvm::divideFloorSigned(rest.getMin(box), c);
    int64_t qMax = llvm::divideFloorSigned(rest.getMax(box), c);
    if (qMin == qMax && !isConstant(divisible)) {
      if (expr.getKind() == AffineExprKind::Mod) {
        rest.constant -= c * qMin;
        return rest;
      }
      LinearForm quotient = divisible;
      for (int64_t &a : quotient.coefficients)
        a /= c;
      quotient.constant = qMin;
      return expr.getKind() == AffineExprKind::CeilDiv ? scale(quotient, -1)
                                                       : quotient;
    }
    qMin = llvm::divideFloorSigned(f.getMin(box), c);
    qMax = llvm::divideFloorSigned(f.getMax(box), c);
    if (qMin != qMax) {
      if (std::optional<Split> split = findSplit(f, c, box))
        return *split;
      return std::monostate();
    }
    if (expr.getKind() == AffineExprKind::Mod) {
      l.constant -= c * qMin;
      return l;
    }
    zero.constant = expr.getKind() == AffineExprKind::CeilDiv ? -qMin : qMin;
    return zero;
  }
  default:
    return std::monostate();
  }
}
} // namespace

std::variant<LinearForm, Split, std::monostate>
dlc::inferentia::linearize(AffineExpr expr, unsigned numLoops, const Box &box) {
  return linearizeImpl(expr, numLoops, box);
}

Layout Layout::get(MappingAttr mapping) {
  Layout layout;
  layout.shape.assign(mapping.getShape().begin(), mapping.getShape().end());
  layout.partitionDim = mapping.getPartitionDim();
  layout.partitionTile = mapping.getPartitionTile();
  return layout;
}

int64_t Layout::getFreeStride(int64_t dim) const {
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d > dim; --d)
    if (d != partitionDim)
      stride *= shape[d];
  return stride;
}

int64_t Layout::getTileStride() const {
  int64_t inner = 1;
  for (auto [d, size] : llvm::enumerate(shape))
    if (static_cast<int64_t>(d) != partitionDim)
      inner *= size;
  return inner;
}

int64_t Layout::getFreeElements() const {
  if (partitionDim < 0)
    return getTileStride();
  return llvm::divideCeil(shape[partitionDim], partitionTile) * getTileStride();
}

SmallVector<AffineExpr>
dlc::inferentia::toMappingIndex(ArrayRef<AffineExpr> index,
                                ArrayRef<int64_t> shape, const Layout &layout) {
  SmallVector<AffineExpr> indices(index);
  SmallVector<int64_t> order(shape);
  if (!layout.permutation.empty() && shape.size() == index.size()) {
    for (auto [i, d] : llvm::enumerate(layout.permutation)) {
      indices[i] = index[d];
      order[i] = shape[d];
    }
  }
  // A mapping of a reshaped view (the same elements in the same row-major
  // order of the permuted dimensions): the index in the mapping's shape.
  if (shape.empty() || shape.size() != index.size() ||
      ArrayRef<int64_t>(layout.shape) == ArrayRef<int64_t>(order))
    return indices;
  MLIRContext *context = index.front().getContext();
  AffineExpr linear = getAffineConstantExpr(0, context);
  for (auto [size, e] : llvm::zip(order, indices))
    linear = linear * size + e;
  indices.clear();
  int64_t stride = 1;
  for (int64_t size : layout.shape)
    stride *= size;
  for (auto [j, size] : llvm::enumerate(layout.shape)) {
    stride /= size;
    AffineExpr e = linear.floorDiv(stride);
    indices.push_back(j == 0 ? e : e % size);
  }
  return indices;
}

ElementLocation dlc::inferentia::locate(const Access &access,
                                        const Layout &layout) {
  MLIRContext *context = access.root.getContext();
  ElementLocation location{getAffineConstantExpr(0, context),
                           getAffineConstantExpr(0, context)};
  ArrayRef<int64_t> shape;
  if (auto type = dyn_cast<ShapedType>(access.root.getType()))
    shape = type.getShape();
  SmallVector<AffineExpr> indices =
      toMappingIndex(access.indices, shape, layout);
  for (auto [d, index] : llvm::enumerate(indices)) {
    if (static_cast<int64_t>(d) == layout.partitionDim) {
      location.partition = index % layout.partitionTile;
      location.free = location.free + index.floorDiv(layout.partitionTile) *
                                          layout.getTileStride();
    } else {
      location.free = location.free + index * layout.getFreeStride(d);
    }
  }
  return location;
}

PatternOrSplit
dlc::inferentia::getLoopPattern(const ElementLocation &location,
                                unsigned numLoops, const Box &box,
                                std::optional<unsigned> partitionLoop) {
  PatternOrSplit result;
  Linearized partition = linearize(location.partition, numLoops, box);
  if (auto *split = std::get_if<Split>(&partition)) {
    result.split = *split;
    return result;
  }
  Linearized free = linearize(location.free, numLoops, box);
  if (auto *split = std::get_if<Split>(&free)) {
    result.split = *split;
    return result;
  }
  auto *p = std::get_if<LinearForm>(&partition);
  auto *f = std::get_if<LinearForm>(&free);
  if (!p || !f) {
    result.why = "its index is not affine in the loops";
    return result;
  }
  LoopPattern pattern;
  pattern.partitionStart = p->atLow(box);
  for (unsigned l = 0; l < numLoops; ++l) {
    if (box.getSize(l) <= 1 || p->coefficients[l] == 0)
      continue;
    if (partitionLoop && l == *partitionLoop && p->coefficients[l] == 1) {
      pattern.partitionLoop = l;
      continue;
    }
    result.why = "its partition moves with a loop the instruction keeps "
                 "within each partition";
    return result;
  }
  pattern.freeOffset = f->atLow(box);
  pattern.freeStrides.assign(numLoops, 0);
  for (unsigned l = 0; l < numLoops; ++l) {
    if (box.getSize(l) <= 1)
      continue;
    if (partitionLoop && l == *partitionLoop && f->coefficients[l] != 0) {
      result.why = "its position within a partition moves with the loop "
                   "across the partitions";
      return result;
    }
    pattern.freeStrides[l] = f->coefficients[l];
  }
  result.pattern = pattern;
  return result;
}

namespace {
/// Bounds one constraint `form >= 0` (or `== 0`) puts on a box: the box
/// itself, an empty box, or nullopt when it couples varying loops.
std::optional<Box> clipOne(const Box &box, const LinearForm &form, bool isEq) {
  SmallVector<unsigned> varying;
  for (unsigned l = 0; l < form.coefficients.size(); ++l)
    if (form.coefficients[l] != 0 && box.getSize(l) > 1)
      varying.push_back(l);
  Box empty = box;
  empty.hi = empty.lo;
  if (varying.empty()) {
    int64_t v = form.atLow(box);
    return (isEq ? v == 0 : v >= 0) ? box : empty;
  }
  if (varying.size() > 1)
    return std::nullopt;
  unsigned l = varying.front();
  int64_t a = form.coefficients[l];
  int64_t r = form.atLow(box) - a * box.lo[l];
  // a * x + r >= 0 (or == 0).
  if (isEq) {
    if (r % a != 0)
      return empty;
    return box.restrict(l, -r / a, -r / a + 1);
  }
  if (a > 0)
    return box.restrict(l, llvm::divideCeilSigned(-r, a), box.hi[l]);
  return box.restrict(l, box.lo[l], llvm::divideFloorSigned(r, -a) + 1);
}
} // namespace

std::optional<Box> dlc::inferentia::clip(const Box &box, IntegerSet set) {
  Box result = box;
  for (unsigned i = 0; i < set.getNumConstraints(); ++i) {
    Linearized form = linearize(set.getConstraint(i), set.getNumDims(), result);
    auto *linear = std::get_if<LinearForm>(&form);
    if (!linear)
      return std::nullopt;
    std::optional<Box> clipped = clipOne(result, *linear, set.isEq(i));
    if (!clipped)
      return std::nullopt;
    result = *clipped;
    if (result.isEmpty())
      return result;
  }
  return result;
}

std::optional<unsigned> dlc::inferentia::findCoupledLoop(const Box &box,
                                                         IntegerSet set) {
  std::optional<unsigned> found;
  for (unsigned i = 0; i < set.getNumConstraints(); ++i) {
    Linearized form = linearize(set.getConstraint(i), set.getNumDims(), box);
    auto *linear = std::get_if<LinearForm>(&form);
    if (!linear)
      continue;
    SmallVector<unsigned> varying;
    for (unsigned l = 0; l < linear->coefficients.size(); ++l)
      if (linear->coefficients[l] != 0 && box.getSize(l) > 1)
        varying.push_back(l);
    if (varying.size() > 1 && (!found || varying.back() > *found))
      found = varying.back();
  }
  return found;
}
