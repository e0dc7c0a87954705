//===- LinearAccess.cpp - accesses as linear forms of loop IVs ------------===//

#include "dlc/Analysis/LinearAccess.h"

#include "dlc/Analysis/AccessAnalysis.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::affine;
using namespace dlc;

bool LinearIndex::hasSameLinearPart(const LinearIndex &other) const {
  if (!known || !other.known)
    return false;
  auto isSubsetOf = [](const LinearIndex &a, const LinearIndex &b) {
    for (auto [loop, coefficient] : a.coefficients) {
      auto it = b.coefficients.find(loop);
      int64_t theirs = it == b.coefficients.end() ? 0 : it->second;
      if (coefficient != theirs)
        return false;
    }
    return true;
  };
  return isSubsetOf(*this, other) && isSubsetOf(other, *this);
}

LinearIndex dlc::getLinearForm(AffineMap map, unsigned result,
                               ValueRange operands) {
  LinearIndex index;
  SmallVector<int64_t> flat;
  // Fails on mod/floordiv/ceildiv, which introduce local variables.
  if (failed(getFlattenedAffineExpr(map.getResult(result), map.getNumDims(),
                                    map.getNumSymbols(), &flat)) ||
      flat.size() != operands.size() + 1)
    return index;
  index.known = true;
  index.constant = flat.back();
  for (auto [operand, coefficient] : llvm::zip(operands, flat)) {
    if (coefficient == 0)
      continue;
    if (auto constant = getConstantIntValue(operand)) {
      index.constant += coefficient * *constant;
      continue;
    }
    AffineForOp loop = getForInductionVarOwner(operand);
    if (!loop) {
      index.known = false;
      break;
    }
    index.coefficients[loop] += coefficient;
  }
  return index;
}

SmallVector<LinearIndex> dlc::getLinearIndices(Operation *access) {
  AffineMap map;
  ValueRange operands;
  if (auto load = dyn_cast<AffineLoadOp>(access)) {
    map = load.getAffineMap();
    operands = load.getMapOperands();
  } else if (auto store = dyn_cast<AffineStoreOp>(access)) {
    map = store.getAffineMap();
    operands = store.getMapOperands();
  } else {
    return {};
  }
  SmallVector<LinearIndex> indices;
  for (unsigned result = 0; result < map.getNumResults(); ++result)
    indices.push_back(getLinearForm(map, result, operands));
  return indices;
}

int64_t StagedBuffer::getElementBytes() const {
  // collectNestBuffers stages only buffers whose elements have a size.
  return *dlc::getElementBytes(type.getElementType());
}

bool StagedBuffer::isWriteDense() const {
  Operation *store = nullptr;
  for (Operation *access : accesses) {
    if (!isa<AffineStoreOp>(access))
      continue;
    if (store)
      return false;
    store = access;
  }
  if (!store || isa<AffineIfOp>(store->getParentOp()))
    return false;
  llvm::SmallPtrSet<Operation *, 8> loopsUsed;
  auto storeIt = llvm::find(accesses, store);
  for (const LinearIndex &index : indices[storeIt - accesses.begin()]) {
    if (!index.known || index.coefficients.size() > 1)
      return false;
    for (auto [loop, coefficient] : index.coefficients)
      if ((coefficient != 1 && coefficient != -1) ||
          !loopsUsed.insert(loop).second)
        return false;
  }
  return true;
}

/// The allocation (or argument, or global) a memref is a view of.
static Value getRootMemref(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

void dlc::collectNestBuffers(AffineForOp root, int64_t localMemorySpace,
                             SmallVectorImpl<StagedBuffer> &staged,
                             SmallVectorImpl<UnstagedBuffer> &unstaged) {
  llvm::MapVector<Value, StagedBuffer> buffers;
  llvm::MapVector<Value, std::string> rejected;
  // Roots written through some memref in the nest, and the memrefs seen
  // per root: two memrefs of one root, one of them written, stay global.
  llvm::MapVector<Value, llvm::SmallPtrSet<Value, 2>> memrefsOfRoot;
  llvm::DenseSet<Value> writtenRoots;

  root.walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type)
        continue;
      Value rootMemref = getRootMemref(operand);
      memrefsOfRoot[rootMemref].insert(operand);
      bool isAccess = isa<AffineLoadOp, AffineStoreOp>(op) &&
                      operand == (isa<AffineLoadOp>(op)
                                      ? cast<AffineLoadOp>(op).getMemRef()
                                      : cast<AffineStoreOp>(op).getMemRef());
      if (isa<AffineStoreOp>(op) && isAccess)
        writtenRoots.insert(rootMemref);
      if (!isAccess) {
        if (!effects || effects.getEffectOnValue<MemoryEffects::Write>(operand))
          writtenRoots.insert(rootMemref);
        rejected.try_emplace(
            operand,
            ("accessed by '" + op->getName().getStringRef() + "'").str());
        continue;
      }
      auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
      if (space && space.getInt() == localMemorySpace)
        continue;
      if (!getElementBytes(type.getElementType())) {
        rejected.try_emplace(operand, "elements of unknown size");
        continue;
      }
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        rejected.try_emplace(operand, "not a static identity-layout buffer");
        continue;
      }
      StagedBuffer &buffer = buffers[operand];
      buffer.memref = operand;
      buffer.type = type;
      buffer.accesses.push_back(op);
      buffer.indices.push_back(getLinearIndices(op));
      (isa<AffineLoadOp>(op) ? buffer.read : buffer.written) = true;
    }
  });

  for (auto &[rootMemref, memrefs] : memrefsOfRoot) {
    if (memrefs.size() < 2 || !writtenRoots.contains(rootMemref))
      continue;
    for (Value memref : memrefs)
      rejected.try_emplace(memref,
                           "another view of its buffer is written in the nest");
  }
  for (auto &[memref, buffer] : buffers) {
    auto it = rejected.find(memref);
    if (it == rejected.end())
      staged.push_back(std::move(buffer));
  }
  llvm::SmallPtrSet<Value, 4> reported;
  for (auto &[memref, reason] : rejected)
    if (reported.insert(memref).second)
      unstaged.push_back({memref, reason});
}
