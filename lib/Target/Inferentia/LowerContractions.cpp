//===- LowerContractions.cpp - the tensor engine --------------------------===//
//
// The tensor engine's share of dlc-inferentia-lower: contractions as
// matmuls into PSUM (the contraction loop across the partitions), the
// weights' layouts, packing few-channel convolutions, gathering their
// moving operand, and the PSUM evacuation with bias and ReLU.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;
using namespace dlc::inferentia::detail;

void Lowering::stripMine(Nest &nest, unsigned loop, int64_t factor) {
  unsigned n = nest.getNumLoops();
  SmallVector<AffineExpr> replacement;
  for (unsigned i = 0; i < n; ++i)
    replacement.push_back(i == loop ? getAffineDimExpr(i, context) * factor +
                                          getAffineDimExpr(n, context)
                                    : getAffineDimExpr(i, context));
  auto rewrite = [&](Access &access) {
    for (AffineExpr &e : access.indices)
      e = e.replaceDimsAndSymbols(replacement, {});
  };
  rewrite(nest.store);
  for (BodyValue &value : nest.values)
    for (Piece &piece : value.pieces) {
      if (piece.access)
        rewrite(*piece.access);
      for (auto &[set, holds] : piece.conditions)
        set = set.replaceDimsAndSymbols(replacement, {}, n + 1, 0);
    }
  nest.trips[loop] /= factor;
  nest.trips.push_back(factor);
}

bool Lowering::tryPacking(Nest &nest, int product, unsigned mLoop,
                          ArrayRef<bool> inStore,
                          const DenseMap<Value, int> &readers) {
  SmallVector<unsigned> reductions;
  for (unsigned l = 0; l < nest.getNumLoops(); ++l)
    if (!inStore[l])
      reductions.push_back(l);
  for (int operand : nest.values[product].operands) {
    const BodyValue &read = nest.values[operand];
    if (read.kind != BodyValue::Kind::Read || read.pieces.size() != 1 ||
        !read.pieces[0].access)
      continue;
    const Access &access = *read.pieces[0].access;
    Root &weights = roots[access.root];
    if (weights.role != Role::Weights || readers.lookup(access.root) != 1 ||
        static_cast<int64_t>(access.indices.size()) != weights.type.getRank())
      continue;
    // Every dimension of the weights a loop of its own: the output's and
    // the reduction loops, each once.
    std::optional<int64_t> outputDim;
    SmallVector<std::pair<unsigned, int64_t>> reductionDims;
    bool plain = true;
    for (auto [d, index] : llvm::enumerate(access.indices)) {
      auto dim = dyn_cast<AffineDimExpr>(index);
      if (!dim)
        plain = false;
      else if (dim.getPosition() == mLoop)
        outputDim = d;
      else if (!inStore[dim.getPosition()])
        reductionDims.emplace_back(dim.getPosition(), d);
      else
        plain = false;
    }
    if (!plain || !outputDim || reductionDims.size() != reductions.size() ||
        reductions.size() < 2)
      return false;
    // The contraction loop (the outermost reduction loop: the channels)
    // is short.
    llvm::sort(reductionDims);
    int64_t channels = nest.trips[reductionDims.front().first];
    if (channels * 4 > machine.partitions)
      return false;
    int64_t inner = 1, total = 1;
    for (auto [loop, d] : ArrayRef(reductionDims).drop_front())
      inner *= nest.trips[loop];
    for (auto [loop, d] : reductionDims)
      total *= nest.trips[loop];
    if (inner > machine.partitions || total <= channels)
      return false;
    int64_t chunk = std::min(nest.trips[reductionDims.front().first],
                             machine.partitions / inner) *
                    inner;
    SmallVector<int64_t> permutation;
    Nest::Packing packing;
    for (auto [loop, d] : reductionDims) {
      permutation.push_back(d);
      packing.loops.push_back(loop);
    }
    permutation.push_back(*outputDim);
    packing.chunkPartitions = chunk;
    int64_t outputs = weights.type.getDimSize(*outputDim);
    weights.mapping = MappingAttr::get(context, {total, outputs}, 0, chunk);
    weights.layout = Layout::get(weights.mapping);
    weights.layout.permutation = permutation;
    nest.packing = packing;
    return true;
  }
  return false;
}

/// Whether `access` is the identity over the first `rank` loops of `nest`
/// (the whole output, in order).
static bool isIdentityAccess(const Nest &nest, const Access &access,
                             ArrayRef<int64_t> shape) {
  if (access.indices.size() != shape.size() ||
      nest.getNumLoops() < shape.size())
    return false;
  for (auto [d, index] : llvm::enumerate(access.indices)) {
    auto dim = dyn_cast<AffineDimExpr>(index);
    if (!dim || dim.getPosition() != d || nest.trips[d] != shape[d])
      return false;
  }
  return true;
}

void Lowering::planEvacuations() {
  auto readers = [&](Value root, size_t except1, size_t except2) {
    for (auto [j, other] : llvm::enumerate(nests))
      if (j != except1 && j != except2)
        for (const BodyValue &v : other.values)
          for (const Piece &p : v.pieces)
            if (p.access && p.access->root == root)
              return true;
    return false;
  };
  for (size_t i = 1; i < nests.size(); ++i) {
    Nest &nest = nests[i];
    Nest &init = nests[i - 1];
    const BodyValue &stored = nest.values[nest.stored];
    if (!nest.description ||
        (nest.description->kind != NestClass::Convolution &&
         nest.description->kind != NestClass::Contraction) ||
        stored.kind != BodyValue::Kind::Op || !isa<arith::AddFOp>(stored.op))
      continue;
    // Only a product of two tensors goes through the tensor engine and PSUM;
    // a sum scaled by a constant (a splat weight folded away) is lowered as
    // a reduction, which needs its output buffer.
    bool productOfTensors = llvm::any_of(stored.operands, [&](int v) {
      const BodyValue &term = nest.values[v];
      return term.kind == BodyValue::Kind::Op && isa<arith::MulFOp>(term.op) &&
             llvm::all_of(term.operands, [&](int f) {
               return nest.values[f].kind == BodyValue::Kind::Read;
             });
    });
    if (!productOfTensors)
      continue;
    // ... and only when the tensor engine takes it (the operands'
    // partitions allow it); otherwise it is a reduction as well.
    int lhs = -1, rhs = -1;
    for (int v : stored.operands)
      if (nest.values[v].kind == BodyValue::Kind::Op &&
          isa<arith::MulFOp>(nest.values[v].op))
        lhs = nest.values[v].operands[0], rhs = nest.values[v].operands[1];
    if (lhs < 0 || !matchContraction(nest, lhs, rhs))
      continue;
    Value out = nest.store.root;
    ArrayRef<int64_t> shape = roots[out].type.getShape();
    if (roots[out].role != Role::Intermediate ||
        !isIdentityAccess(nest, nest.store, shape) || init.store.root != out ||
        !isIdentityAccess(init, init.store, shape) || init.fused)
      continue;
    // The first value: a read of something else, or a constant.
    const BodyValue &first = init.values[init.stored];
    std::optional<Piece> value;
    if (first.kind == BodyValue::Kind::Constant) {
      value = Piece();
      value->constant = first.constant;
    } else if (first.kind == BodyValue::Kind::Read &&
               first.pieces.size() == 1 && first.pieces[0].access &&
               first.pieces[0].access->root != out) {
      value = first.pieces[0];
    }
    if (!value)
      continue;
    // The ReLU after it: max(out, 0) of the whole output, and nothing else
    // reads the output.
    if (i + 1 >= nests.size() || readers(out, i, i + 1))
      continue;
    Nest &relu = nests[i + 1];
    const BodyValue &r = relu.values[relu.stored];
    bool isRelu = r.kind == BodyValue::Kind::Op &&
                  isa<arith::MaximumFOp, arith::MaxNumFOp>(r.op);
    if (isRelu) {
      int a = r.operands[0], b = r.operands[1];
      auto isZero = [&](int v) {
        return relu.values[v].kind == BodyValue::Kind::Constant &&
               relu.values[v].constant == 0;
      };
      auto isOut = [&](int v) {
        const BodyValue &read = relu.values[v];
        return read.kind == BodyValue::Kind::Read && read.pieces.size() == 1 &&
               read.pieces[0].access && read.pieces[0].access->root == out &&
               isIdentityAccess(relu, *read.pieces[0].access, shape);
      };
      isRelu = (isZero(a) && isOut(b)) || (isZero(b) && isOut(a));
    }
    // The ReLU's result lies across the partitions as the output does.
    auto bankDim = [&](Value root) -> std::optional<int64_t> {
      IntegerAttr attr;
      if (auto arg = dyn_cast<BlockArgument>(root))
        attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                  "dlc.bank_dim");
      else
        attr = root.getDefiningOp()->getAttrOfType<IntegerAttr>("dlc.bank_dim");
      if (!attr)
        return std::nullopt;
      return attr.getInt();
    };
    if (!isRelu || !isIdentityAccess(relu, relu.store, shape) ||
        roots[relu.store.root].type.getShape() != shape ||
        bankDim(relu.store.root) != bankDim(out))
      continue;
    nest.initialValue = value;
    nest.evacuateTo = relu.store;
    init.fused = true;
    relu.fused = true;
  }
}

Operand Lowering::evacuationTarget(Nest &nest, const Box &box, unsigned mLoop,
                                   ArrayRef<unsigned> order,
                                   const LoopPattern &out) {
  int64_t m = box.getSize(mLoop);
  if (!nest.evacuateTo)
    return {roots[nest.store.root].sbuf,
            toAp(BoxOperand{Value(), out}, m, box, order)};
  const Access &to = *nest.evacuateTo;
  PatternOrSplit pattern = getLoopPattern(locate(to, roots[to.root].layout),
                                          nest.getNumLoops(), box, mLoop);
  // The ReLU's result has the output's shape and, in every mode, its
  // layout (the ReLU is a flexible nest between them); a box within one
  // partition tile of one is within one of the other.
  return {roots[to.root].sbuf,
          toAp(BoxOperand{Value(), *pattern.pattern}, m, box, order)};
}

void Lowering::emitEvacuation(Nest &nest, const Box &box, unsigned mLoop,
                              Operand dst, Operand psum,
                              ArrayRef<unsigned> order) {
  int64_t m = box.getSize(mLoop);
  if (!nest.initialValue) {
    emit(TensorTensorOp::getOperationName(), dst, {dst, psum},
         {builder.getNamedAttr("alu0",
                               builder.getStringAttr(getName(AluOp::Add)))},
         Engine::Vector);
    return;
  }
  // function(psum + bias) on the scalar engine, the bias one value per
  // partition (or an immediate).
  SmallVector<Operand> srcs{psum};
  SmallVector<NamedAttribute> attrs{builder.getNamedAttr(
      "function", builder.getStringAttr(getName(
                      nest.evacuateTo ? ActivationFunction::Relu
                                      : ActivationFunction::Identity)))};
  const Piece &value = *nest.initialValue;
  std::optional<LoopPattern> bias;
  if (value.access) {
    Box point = box;
    for (unsigned l : order)
      point = point.fix(l, box.lo[l]);
    PatternOrSplit pattern =
        getLoopPattern(locate(*value.access, roots[value.access->root].layout),
                       nest.getNumLoops(), point, mLoop);
    // A first value that varies along the free loops is not a bias.
    bool perPartition = pattern.pattern.has_value();
    if (perPartition) {
      PatternOrSplit whole = getLoopPattern(
          locate(*value.access, roots[value.access->root].layout),
          nest.getNumLoops(), box, mLoop);
      perPartition = whole.pattern && llvm::all_of(order, [&](unsigned l) {
                       return whole.pattern->freeStrides[l] == 0;
                     });
    }
    if (!perPartition) {
      // Materialise the first value, then add.
      Operand first = dst;
      PatternOrSplit full = getLoopPattern(
          locate(*value.access, roots[value.access->root].layout),
          nest.getNumLoops(), box, mLoop);
      Operand src{roots[value.access->root].sbuf,
                  toAp(BoxOperand{Value(), *full.pattern}, m, box, order)};
      emit(TensorTensorOp::getOperationName(), dst, {psum, src},
           {builder.getNamedAttr("alu0",
                                 builder.getStringAttr(getName(AluOp::Add)))},
           Engine::Vector);
      if (nest.evacuateTo)
        emit(TensorScalarOp::getOperationName(), dst, {first},
             {builder.getNamedAttr("alu0",
                                   builder.getStringAttr(getName(AluOp::Max))),
              builder.getNamedAttr(
                  "alu1", builder.getStringAttr(getName(AluOp::Bypass)))},
             Engine::Vector);
      return;
    }
    srcs.push_back({roots[value.access->root].sbuf,
                    getAp(pattern.pattern->partitionStart, m, 0,
                          pattern.pattern->freeOffset, {})});
  } else {
    attrs.push_back(
        builder.getNamedAttr("imm0", builder.getF32FloatAttr(value.constant)));
  }
  emit(ActivationOp::getOperationName(), dst, srcs, attrs, Engine::Scalar);
}

void Lowering::planContractions() {
  // How many nests read each buffer: weights read by one nest only are
  // laid out for it.
  DenseMap<Value, int> readers;
  for (Nest &nest : nests) {
    llvm::SmallPtrSet<Value, 8> seen;
    for (const BodyValue &v : nest.values)
      for (const Piece &p : v.pieces)
        if (p.access && seen.insert(p.access->root).second)
          ++readers[p.access->root];
  }
  for (Nest &nest : nests) {
    // out = out + a * b, as lowerNest recognises it.
    const BodyValue &stored = nest.values[nest.stored];
    if (stored.kind != BodyValue::Kind::Op || !isa<arith::AddFOp>(stored.op))
      continue;
    int product = -1;
    for (int operand : stored.operands)
      if (nest.values[operand].kind == BodyValue::Kind::Op &&
          isa<arith::MulFOp>(nest.values[operand].op))
        product = operand;
    std::optional<unsigned> mLoop = getPartitionLoop(nest, nest.store);
    if (product < 0 || !mLoop)
      continue;
    SmallVector<bool> inStore(nest.getNumLoops(), false);
    for (AffineExpr e : nest.store.indices)
      e.walk([&](AffineExpr d) {
        if (auto dim = dyn_cast<AffineDimExpr>(d))
          inStore[dim.getPosition()] = true;
      });
    auto singleAccess = [&](int value) -> const Access * {
      const BodyValue &read = nest.values[value];
      if (read.kind != BodyValue::Kind::Read || read.pieces.size() != 1 ||
          !read.pieces[0].access)
        return nullptr;
      return &*read.pieces[0].access;
    };
    // A contraction loop that reaches the moving operand's partitions in
    // groups, (k + c) floordiv q (a flattened activation).
    std::optional<std::pair<unsigned, int64_t>> grouped;
    for (int operand : nest.values[product].operands) {
      const Access *access = singleAccess(operand);
      if (!access)
        continue;
      locate(*access, roots[access->root].layout)
          .partition.walk([&](AffineExpr e) {
            auto div = dyn_cast<AffineBinaryOpExpr>(e);
            if (!div || div.getKind() != AffineExprKind::FloorDiv)
              return;
            auto q = dyn_cast<AffineConstantExpr>(div.getRHS());
            AffineExpr lhs = div.getLHS();
            if (auto sum = dyn_cast<AffineBinaryOpExpr>(lhs))
              if (sum.getKind() == AffineExprKind::Add &&
                  isa<AffineConstantExpr>(sum.getRHS()))
                lhs = sum.getLHS();
            auto dim = dyn_cast<AffineDimExpr>(lhs);
            if (q && dim && q.getValue() > 1 && !inStore[dim.getPosition()] &&
                nest.trips[dim.getPosition()] % q.getValue() == 0 &&
                nest.trips[dim.getPosition()] > q.getValue())
              grouped = {dim.getPosition(), q.getValue()};
          });
    }
    // Few channels and some kernel taps: pack the taps with the channels
    // across the partitions (the first layer's 3 channels would use 3 of
    // the array's 128 rows), when the weights are read by this nest only
    // and hold exactly its output and reduction dimensions.
    if (!grouped && tryPacking(nest, product, *mLoop, inStore, readers))
      continue;
    // The stationary weights: the contraction dimension across the
    // partitions (in the moving operand's groups), the output's
    // dimension innermost, so that a matmul's stationary operand is one
    // run per partition.
    for (int operand : nest.values[product].operands) {
      const Access *access = singleAccess(operand);
      if (!access || readers[access->root] != 1)
        continue;
      Root &weights = roots[access->root];
      if (weights.role != Role::Weights ||
          static_cast<int64_t>(access->indices.size()) !=
              weights.type.getRank())
        continue;
      std::optional<int64_t> outputDim, contractionDim;
      for (auto [d, index] : llvm::enumerate(access->indices)) {
        auto dim = dyn_cast<AffineDimExpr>(index);
        if (dim && dim.getPosition() == *mLoop)
          outputDim = d;
        if (dim && static_cast<int64_t>(d) == weights.layout.partitionDim &&
            !inStore[dim.getPosition()])
          contractionDim = d;
      }
      if (!outputDim || !contractionDim)
        continue;
      SmallVector<int64_t> permutation{*contractionDim};
      for (int64_t d = 0; d < weights.type.getRank(); ++d)
        if (d != *contractionDim && d != *outputDim)
          permutation.push_back(d);
      permutation.push_back(*outputDim);
      SmallVector<int64_t> shape;
      for (int64_t d : permutation)
        shape.push_back(weights.type.getDimSize(d));
      auto index = dyn_cast<AffineDimExpr>(access->indices[*contractionDim]);
      if (grouped && index.getPosition() == grouped->first) {
        shape[0] /= grouped->second;
        shape.insert(shape.begin() + 1, grouped->second);
      }
      weights.mapping = MappingAttr::get(
          context, shape, 0, std::min(shape[0], machine.partitions));
      weights.layout = Layout::get(weights.mapping);
      weights.layout.permutation = permutation;
    }
    if (grouped)
      stripMine(nest, grouped->first, grouped->second);
  }
}

/// Whether a read of `v` is indexed by `loop`.
static bool mentions(const BodyValue &v, unsigned loop) {
  bool found = false;
  for (const Piece &p : v.pieces)
    if (p.access)
      for (AffineExpr e : p.access->indices)
        e.walk([&](AffineExpr d) {
          if (auto dim = dyn_cast<AffineDimExpr>(d))
            found |= dim.getPosition() == loop;
        });
  return found;
}

std::optional<Lowering::ContractionMatch>
Lowering::matchContraction(Nest &nest, int lhs, int rhs) {
  std::optional<unsigned> mLoop = getPartitionLoop(nest, nest.store);
  if (!mLoop)
    return std::nullopt;
  const BodyValue &a = nest.values[lhs], &b = nest.values[rhs];
  if (a.kind != BodyValue::Kind::Read || b.kind != BodyValue::Kind::Read)
    return std::nullopt;
  // The stationary operand (weights) moves with the output's partitions,
  // the moving one (activations) does not.
  bool aHasM = mentions(a, *mLoop), bHasM = mentions(b, *mLoop);
  if (aHasM == bHasM)
    return std::nullopt;
  int stationaryIndex = aHasM ? lhs : rhs, movingIndex = aHasM ? rhs : lhs;
  const BodyValue &stationary = nest.values[stationaryIndex];
  const BodyValue &moving = nest.values[movingIndex];
  if (stationary.pieces.size() != 1 || !stationary.pieces[0].access)
    return std::nullopt;
  for (const Piece &p : moving.pieces)
    if (!p.access && p.constant != 0)
      return std::nullopt;
  const Access &weights = *stationary.pieces[0].access;
  const Access *activations = nullptr;
  for (const Piece &p : moving.pieces)
    if (p.access)
      activations = &*p.access;
  if (!activations)
    return std::nullopt;
  // The contraction loop: a reduction loop both operands' partitions
  // follow.
  SmallVector<bool> inStore(nest.getNumLoops(), false);
  for (AffineExpr e : nest.store.indices)
    e.walk([&](AffineExpr d) {
      if (auto dim = dyn_cast<AffineDimExpr>(d))
        inStore[dim.getPosition()] = true;
    });
  auto partitionDims = [&](const Access &access) {
    SmallVector<bool> dims(nest.getNumLoops(), false);
    locate(access, roots[access.root].layout).partition.walk([&](AffineExpr d) {
      if (auto dim = dyn_cast<AffineDimExpr>(d))
        dims[dim.getPosition()] = true;
    });
    return dims;
  };
  SmallVector<bool> wParts = partitionDims(weights),
                    xParts = partitionDims(*activations);
  std::optional<unsigned> kLoop;
  for (unsigned l = 0; l < nest.getNumLoops(); ++l)
    if (!inStore[l] && wParts[l] && xParts[l] && nest.trips[l] > 1) {
      kLoop = l;
      break;
    }
  if (!kLoop && !nest.packing)
    return std::nullopt;
  return ContractionMatch{*mLoop,           stationaryIndex, movingIndex,
                          &weights,         kLoop,           std::move(inStore),
                          std::move(xParts)};
}

FailureOr<bool> Lowering::lowerContraction(Nest &nest, int lhs, int rhs) {
  std::optional<ContractionMatch> match = matchContraction(nest, lhs, rhs);
  if (!match)
    return false;
  std::optional<unsigned> mLoop = match->mLoop;
  std::optional<unsigned> kLoop = match->kLoop;
  int stationaryIndex = match->stationaryIndex,
      movingIndex = match->movingIndex;
  const BodyValue &stationary = nest.values[stationaryIndex];
  const BodyValue &moving = nest.values[movingIndex];
  const Access &weights = *match->weights;
  SmallVector<bool> &inStore = match->inStore;
  SmallVector<bool> &xParts = match->xParts;
  // Moving free loops: output loops the activations follow.
  SmallVector<unsigned> nLoops;
  for (unsigned l = 0; l < nest.getNumLoops(); ++l)
    if (inStore[l] && l != *mLoop && mentions(moving, l) &&
        !mentions(stationary, l) && (nest.packing || !xParts[l]) &&
        nest.trips[l] > 1)
      nLoops.push_back(l);

  Box full = nest.getFullBox();
  // Output boxes: every loop but M and N fixed, M in chunks of the
  // stationary free size, N within one PSUM bank.
  SmallVector<Box> outBoxes{full};
  for (unsigned l = 0; l < nest.getNumLoops(); ++l) {
    if (l == *mLoop || llvm::is_contained(nLoops, l) || !inStore[l])
      continue;
    SmallVector<Box> next;
    for (const Box &box : outBoxes)
      for (int64_t v = box.lo[l]; v < box.hi[l]; ++v)
        next.push_back(box.fix(l, v));
    outBoxes = std::move(next);
  }
  {
    SmallVector<Box> next;
    for (const Box &box : outBoxes)
      for (int64_t v = 0; v < box.hi[*mLoop]; v += machine.stationaryFreeMax)
        for (const Box &n : tileFree(
                 box.restrict(*mLoop, v, v + machine.stationaryFreeMax), nLoops,
                 std::min(machine.movingFreeMax,
                          machine.getPsumBankElements())))
          next.push_back(n);
    outBoxes = std::move(next);
  }
  SmallVector<int> reads{movingIndex};
  if (nest.packing)
    return lowerPackedContraction(nest, outBoxes, *mLoop, nLoops, inStore,
                                  weights, movingIndex);
  std::function<LogicalResult(const Box &)> lowerOut =
      [&](const Box &outBox) -> LogicalResult {
    // The output's pattern must keep to one partition tile.
    SmallVector<unsigned> outOrder;
    for (unsigned l : nLoops)
      if (outBox.getSize(l) > 1)
        outOrder.push_back(l);
    Box outOnly = outBox;
    for (unsigned l = 0; l < nest.getNumLoops(); ++l)
      if (!inStore[l])
        outOnly = outOnly.fix(l, 0);
    PatternOrSplit out =
        getLoopPattern(locate(nest.store, roots[nest.store.root].layout),
                       nest.getNumLoops(), outOnly, mLoop);
    if (out.split)
      return success(
          succeeded(lowerOut(outBox.restrict(out.split->loop,
                                             outBox.lo[out.split->loop],
                                             out.split->value))) &&
          succeeded(lowerOut(outBox.restrict(out.split->loop, out.split->value,
                                             outBox.hi[out.split->loop]))));
    if (!out.pattern)
      return emitNestError(nest) << "writing: " << out.why;
    int64_t m = outBox.getSize(*mLoop);
    // PSUM: the box's N loops row-major.
    Value psum = nextPsum();
    SmallVector<int64_t> psumStride(nest.getNumLoops(), 0);
    int64_t stride = 1;
    for (unsigned l : llvm::reverse(outOrder)) {
      psumStride[l] = stride;
      stride *= outBox.getSize(l);
    }
    struct Matmul {
      Operand stationary, moving, dst;
      bool full;
    };
    SmallVector<Matmul> matmuls;
    // Matmuls wait in `matmuls` so that the first can be one that covers
    // the whole bank (no memset); the slots their relayouted operands hold
    // rotate, so at most kSlots - 1 of them wait before they are emitted.
    bool started = false;
    int64_t heldSlots = 0;
    auto flush = [&]() {
      if (matmuls.empty())
        return;
      if (!started) {
        auto firstFull =
            llvm::find_if(matmuls, [](const Matmul &mm) { return mm.full; });
        if (firstFull != matmuls.end())
          std::rotate(matmuls.begin(), firstFull, firstFull + 1);
        else
          emit(MemsetOp::getOperationName(),
               {psum, getAp(0, m, 0, 0, {{1, stride}})}, {},
               {builder.getNamedAttr("imm0", builder.getF32FloatAttr(0))},
               Engine::Vector);
      }
      for (const Matmul &mm : matmuls) {
        SmallVector<NamedAttribute> attrs;
        if (started || !mm.full)
          attrs.push_back(
              builder.getNamedAttr("accumulate", builder.getUnitAttr()));
        started = true;
        emit(MatmulOp::getOperationName(), mm.dst, {mm.stationary, mm.moving},
             attrs, Engine::Tensor);
      }
      matmuls.clear();
      heldSlots = 0;
    };
    auto takeSlot = [&]() {
      if (heldSlots + 1 >= kSlots)
        flush();
      ++heldSlots;
      return nextSlot();
    };
    // Every value of the other reduction loops; K whole (split by tiles).
    SmallVector<Box> redBoxes{outBox};
    for (unsigned l = 0; l < nest.getNumLoops(); ++l) {
      if (inStore[l] || l == *kLoop)
        continue;
      SmallVector<Box> next;
      for (const Box &box : redBoxes)
        for (int64_t v = box.lo[l]; v < box.hi[l]; ++v)
          next.push_back(box.fix(l, v));
      redBoxes = std::move(next);
    }
    std::function<LogicalResult(const Box &, ArrayRef<int>)> plan =
        [&](const Box &b, ArrayRef<int> chosen) -> LogicalResult {
      const Piece &piece = moving.pieces[chosen[0]];
      if (!piece.access)
        return success();
      auto again = [&](Split where) {
        return success(succeeded(plan(b.restrict(where.loop, b.lo[where.loop],
                                                 where.value),
                                      chosen)) &&
                       succeeded(plan(b.restrict(where.loop, where.value,
                                                 b.hi[where.loop]),
                                      chosen)));
      };
      // K across the partitions in chunks the tensor engine takes.
      if (b.getSize(*kLoop) > machine.partitions)
        return again({*kLoop, b.lo[*kLoop] + machine.partitions});
      Box wBox = b;
      for (unsigned l : nLoops)
        wBox = wBox.fix(l, b.lo[l]);
      PatternOrSplit w =
          getLoopPattern(locate(weights, roots[weights.root].layout),
                         nest.getNumLoops(), wBox, kLoop);
      if (w.split)
        return again(*w.split);
      Box xBox = b.fix(*mLoop, b.lo[*mLoop]);
      PatternOrSplit x = getLoopPattern(
          locate(*piece.access, roots[piece.access->root].layout),
          nest.getNumLoops(), xBox, kLoop);
      if (x.split)
        return again(*x.split);
      int64_t k = b.getSize(*kLoop);
      SmallVector<unsigned> order;
      for (unsigned l : nLoops)
        if (b.getSize(l) > 1)
          order.push_back(l);
      // Operands whose elements lie across the partitions otherwise reach
      // a slot in the matmul's layout by DMA.
      Value wBuffer = roots[weights.root].sbuf;
      if (!w.pattern) {
        SmallVector<unsigned> mOrder{*mLoop};
        wBuffer = takeSlot();
        if (failed(emitRelayout(nest, wBox, wBuffer,
                                getSlotLocation(wBox, kLoop, mOrder),
                                roots[weights.root].sbuf,
                                locate(weights, roots[weights.root].layout))))
          return failure();
        w.pattern = getSlotPattern(wBox, kLoop, mOrder);
      }
      Value xBuffer = roots[piece.access->root].sbuf;
      if (!x.pattern) {
        xBuffer = takeSlot();
        if (failed(emitRelayout(
                nest, xBox, xBuffer, getSlotLocation(xBox, kLoop, order),
                roots[piece.access->root].sbuf,
                locate(*piece.access, roots[piece.access->root].layout))))
          return failure();
        x.pattern = getSlotPattern(xBox, kLoop, order);
      }
      Matmul mm;
      mm.stationary = {wBuffer, getAp(w.pattern->partitionStart, k, 0,
                                      w.pattern->freeOffset,
                                      {{w.pattern->freeStrides[*mLoop], m}})};
      mm.moving = {xBuffer, toAp(BoxOperand{Value(), *x.pattern}, k, b, order)};
      SmallVector<std::pair<int64_t, int64_t>> dstDims;
      int64_t offset = 0;
      for (unsigned l : outOrder) {
        offset += (b.lo[l] - outBox.lo[l]) * psumStride[l];
        if (b.getSize(l) > 1)
          dstDims.emplace_back(psumStride[l], b.getSize(l));
      }
      mm.dst = {psum, getAp(0, m, 0, offset, dstDims)};
      mm.full = llvm::all_of(outOrder, [&](unsigned l) {
        return b.lo[l] == outBox.lo[l] && b.hi[l] == outBox.hi[l];
      });
      matmuls.push_back(mm);
      return success();
    };
    for (const Box &box : redBoxes)
      if (failed(forEachPiece(nest, box, reads, plan)))
        return failure();
    flush();
    Operand whole{psum, getAp(0, m, 0, 0, {{1, stride}})};
    // The output's first value (bias or zeros) plus the sums.
    emitEvacuation(
        nest, outOnly, *mLoop,
        evacuationTarget(nest, outOnly, *mLoop, outOrder, *out.pattern), whole,
        outOrder);
    return success();
  };
  for (const Box &box : outBoxes)
    if (failed(lowerOut(box)))
      return failure();
  return true;
}

/// The one access of a read that is zero elsewhere (a padded read), or
/// null.
static const Access *getPaddedAccess(const BodyValue &read) {
  const Access *access = nullptr;
  for (const Piece &p : read.pieces) {
    if (p.access) {
      if (access)
        return nullptr;
      access = &*p.access;
    } else if (p.constant != 0) {
      return nullptr;
    }
  }
  return access;
}

std::optional<int64_t> Lowering::getGatherStep(Nest &nest,
                                               const BodyValue &moving,
                                               const Box &chunk,
                                               ArrayRef<unsigned> order) {
  const Access *access = getPaddedAccess(moving);
  if (!access || order.empty())
    return std::nullopt;
  unsigned w = order.back();
  std::optional<int64_t> step;
  for (AffineExpr index : access->indices) {
    auto form = linearize(index, nest.getNumLoops(), chunk);
    auto *linear = std::get_if<LinearForm>(&form);
    if (!linear)
      return std::nullopt;
    if (linear->coefficients[w] == 0)
      continue;
    if (step || linear->coefficients[w] < 1)
      return std::nullopt;
    step = linear->coefficients[w];
  }
  return step;
}

std::optional<SmallVector<int64_t>>
Lowering::gatherRows(Nest &nest, const BodyValue &moving, const Box &chunk,
                     ArrayRef<unsigned> packed, ArrayRef<unsigned> order,
                     Value slot, int64_t partitions) {
  const Access *access = getPaddedAccess(moving);
  if (!access || order.empty())
    return std::nullopt;
  // The innermost output loop steps one dimension of the source by s.
  unsigned w = order.back();
  unsigned n = nest.getNumLoops();
  std::optional<int64_t> stepOf = getGatherStep(nest, moving, chunk, order);
  if (!stepOf)
    return std::nullopt;
  int64_t step = *stepOf;
  std::optional<unsigned> steppedDim;
  for (auto [d, index] : llvm::enumerate(access->indices)) {
    auto form = linearize(index, n, chunk);
    if (auto *linear = std::get_if<LinearForm>(&form))
      if (linear->coefficients[w] != 0)
        steppedDim = d;
  }
  ArrayRef<int64_t> shape = cast<MemRefType>(access->root.getType()).getShape();
  // Dense rows: a new loop x walks the stepped dimension one by one over
  // the window's whole extent; the matmul reads every s-th element.
  AffineExpr x = getAffineDimExpr(n, context);
  SmallVector<AffineExpr> replacement;
  for (unsigned l = 0; l < n; ++l)
    replacement.push_back(l == w ? getAffineConstantExpr(0, context)
                                 : getAffineDimExpr(l, context));
  Access dense{access->root, {}};
  for (auto [d, index] : llvm::enumerate(access->indices)) {
    AffineExpr e = index.replaceDimsAndSymbols(replacement, {});
    dense.indices.push_back(d == *steppedDim ? e + x : e);
  }
  int64_t extent = step * (chunk.getSize(w) - 1) + 1;
  Box box = chunk.fix(w, chunk.lo[w]);
  box.lo.push_back(step * chunk.lo[w]);
  box.hi.push_back(step * chunk.lo[w] + extent);
  // The slot: partitions as the packed loops, rows of `extent` elements.
  ElementLocation location{getAffineConstantExpr(0, context),
                           getAffineConstantExpr(0, context)};
  int64_t stride = 1;
  for (unsigned l : llvm::reverse(packed)) {
    location.partition = location.partition +
                         (getAffineDimExpr(l, context) - box.lo[l]) * stride;
    stride *= box.getSize(l);
  }
  SmallVector<std::pair<int64_t, int64_t>> dims;
  location.free = x - box.lo[n];
  stride = extent;
  dims.emplace_back(step, chunk.getSize(w));
  for (unsigned l : llvm::reverse(order.drop_back())) {
    location.free =
        location.free + (getAffineDimExpr(l, context) - box.lo[l]) * stride;
    dims.insert(dims.begin(), {stride, box.getSize(l)});
    stride *= box.getSize(l);
  }
  if (stride > kSlotElements)
    return std::nullopt;
  emit(MemsetOp::getOperationName(),
       {slot, getAp(0, partitions, 0, 0, {{1, stride}})}, {},
       {builder.getNamedAttr("imm0", builder.getF32FloatAttr(0))},
       Engine::Vector);
  // Each channel and tap: the rows inside the source, one DMA.
  SmallVector<AffineExpr> bounds;
  for (auto [index, size] : llvm::zip(dense.indices, shape)) {
    bounds.push_back(index);
    bounds.push_back(size - 1 - index);
  }
  IntegerSet inside = IntegerSet::get(n + 1, 0, bounds,
                                      SmallVector<bool>(bounds.size(), false));
  Root &root = roots[access->root];
  ElementLocation from = locate(dense, root.layout);
  std::function<LogicalResult(const Box &, unsigned)> each =
      [&](const Box &b, unsigned i) -> LogicalResult {
    if (i < packed.size()) {
      for (int64_t v = b.lo[packed[i]]; v < b.hi[packed[i]]; ++v)
        if (failed(each(b.fix(packed[i], v), i + 1)))
          return failure();
      return success();
    }
    std::optional<Box> clipped = clip(b, inside);
    if (!clipped)
      return emitNestError(nest) << "gathering rows: a bound couples loops";
    if (clipped->isEmpty())
      return success();
    return emitRelayout(nest, *clipped, slot, location, root.sbuf, from);
  };
  if (failed(each(box, 0)))
    return std::nullopt;
  // The slot's stride of each output loop, `order`'s order.
  SmallVector<int64_t> strides;
  for (auto [stride, size] : dims)
    strides.push_back(stride);
  return strides;
}

FailureOr<bool>
Lowering::lowerPackedContraction(Nest &nest, ArrayRef<Box> outBoxes,
                                 unsigned mLoop, ArrayRef<unsigned> nLoops,
                                 ArrayRef<bool> inStore, const Access &weights,
                                 int movingIndex) {
  const Nest::Packing &packing = *nest.packing;
  const BodyValue &moving = nest.values[movingIndex];
  bool padded =
      llvm::any_of(moving.pieces, [](const Piece &p) { return !p.access; });
  unsigned outer = packing.loops.front();
  int64_t inner = 1;
  for (unsigned l : ArrayRef(packing.loops).drop_front())
    inner *= nest.trips[l];
  int64_t valuesPerChunk = packing.chunkPartitions / inner;
  Root &w = roots[weights.root];
  int64_t tileStride = w.layout.getTileStride();
  SmallVector<int> reads{movingIndex};
  auto orderOf = [&](const Box &box) {
    SmallVector<unsigned> order;
    for (unsigned l : nLoops)
      if (box.getSize(l) > 1)
        order.push_back(l);
    return order;
  };
  // Consecutive output boxes that differ in their outermost output loop
  // alone share one gather when their rows fit a slot: fewer, longer DMAs.
  auto slotElements = [&](const Box &box) -> std::optional<int64_t> {
    SmallVector<unsigned> order = orderOf(box);
    std::optional<int64_t> step = getGatherStep(nest, moving, box, order);
    if (!step)
      return std::nullopt;
    int64_t elements = *step * (box.getSize(order.back()) - 1) + 1;
    for (unsigned l : ArrayRef(order).drop_back())
      elements *= box.getSize(l);
    return elements;
  };
  for (size_t first = 0; first < outBoxes.size();) {
    Box merged = outBoxes[first];
    size_t last = first + 1;
    SmallVector<unsigned> firstOrder = orderOf(merged);
    if (!firstOrder.empty() && slotElements(merged)) {
      unsigned outerLoop = firstOrder.front();
      while (last < outBoxes.size()) {
        const Box &next = outBoxes[last];
        bool adjacent = next.lo[outerLoop] == merged.hi[outerLoop];
        for (unsigned l = 0; l < nest.getNumLoops() && adjacent; ++l)
          if (l != outerLoop &&
              (next.lo[l] != merged.lo[l] || next.hi[l] != merged.hi[l]))
            adjacent = false;
        Box grown = merged;
        grown.hi[outerLoop] = next.hi[outerLoop];
        std::optional<int64_t> elements = slotElements(grown);
        if (!adjacent || !elements || *elements > kSlotElements)
          break;
        merged = grown;
        ++last;
      }
    }
    ArrayRef<Box> group = outBoxes.slice(first, last - first);
    first = last;
    SmallVector<unsigned> mergedOrder = orderOf(merged);
    int64_t m = merged.getSize(mLoop);
    // Each output box: its PSUM bank and its output pattern.
    struct Part {
      Box box, outOnly;
      SmallVector<unsigned> order;
      LoopPattern out;
      Operand psum;
      int64_t n = 1;
    };
    SmallVector<Part, 4> parts;
    for (const Box &outBox : group) {
      Part &part = parts.emplace_back();
      part.box = outBox;
      part.order = orderOf(outBox);
      part.outOnly = outBox;
      for (unsigned l = 0; l < nest.getNumLoops(); ++l)
        if (!inStore[l])
          part.outOnly = part.outOnly.fix(l, 0);
      PatternOrSplit out =
          getLoopPattern(locate(nest.store, roots[nest.store.root].layout),
                         nest.getNumLoops(), part.outOnly, mLoop);
      if (!out.pattern)
        return emitNestError(nest)
               << "writing: " << (out.split ? "a split output" : out.why);
      part.out = *out.pattern;
      for (unsigned l : part.order)
        part.n *= outBox.getSize(l);
      part.psum = Operand{nextPsum(), getAp(0, m, 0, 0, {{1, part.n}})};
    }
    int64_t chunkIndex = 0;
    for (int64_t v = 0; v < nest.trips[outer];
         v += valuesPerChunk, ++chunkIndex) {
      int64_t values = std::min(valuesPerChunk, nest.trips[outer] - v);
      int64_t partitions = values * inner;
      Operand stationary{
          w.sbuf, getAp(0, partitions, 0,
                        chunkIndex * tileStride + merged.lo[mLoop], {{1, m}})};
      SmallVector<NamedAttribute> attrs;
      if (chunkIndex > 0)
        attrs.push_back(
            builder.getNamedAttr("accumulate", builder.getUnitAttr()));
      Value slot = nextSlot();
      Box mergedChunk =
          merged.restrict(outer, v, v + values).fix(mLoop, merged.lo[mLoop]);
      if (std::optional<SmallVector<int64_t>> strides =
              gatherRows(nest, moving, mergedChunk, packing.loops, mergedOrder,
                         slot, partitions)) {
        // Each box reads its rows of the gathered slot.
        for (Part &part : parts) {
          SmallVector<std::pair<int64_t, int64_t>> dims;
          int64_t offset = 0;
          for (auto [i, l] : llvm::enumerate(mergedOrder)) {
            offset += (part.box.lo[l] - merged.lo[l]) * (*strides)[i];
            dims.emplace_back((*strides)[i], part.box.getSize(l));
          }
          emit(MatmulOp::getOperationName(), part.psum,
               {stationary, {slot, getAp(0, partitions, 0, offset, dims)}},
               attrs, Engine::Tensor);
        }
        continue;
      }
      // Element by element (the group is one box then).
      Part &part = parts.front();
      Box chunk = part.box.restrict(outer, v, v + values)
                      .fix(mLoop, part.box.lo[mLoop]);
      ElementLocation slotLocation{getAffineConstantExpr(0, context),
                                   getAffineConstantExpr(0, context)};
      int64_t stride = 1;
      for (unsigned l : llvm::reverse(packing.loops)) {
        slotLocation.partition =
            slotLocation.partition +
            (getAffineDimExpr(l, context) - chunk.lo[l]) * stride;
        stride *= chunk.getSize(l);
      }
      stride = 1;
      for (unsigned l : llvm::reverse(part.order)) {
        slotLocation.free =
            slotLocation.free +
            (getAffineDimExpr(l, context) - chunk.lo[l]) * stride;
        stride *= chunk.getSize(l);
      }
      if (padded)
        emit(MemsetOp::getOperationName(),
             {slot, getAp(0, partitions, 0, 0, {{1, part.n}})}, {},
             {builder.getNamedAttr("imm0", builder.getF32FloatAttr(0))},
             Engine::Vector);
      if (failed(forEachPiece(
              nest, chunk, reads,
              [&](const Box &b, ArrayRef<int> chosen) -> LogicalResult {
                const Piece &piece = moving.pieces[chosen[0]];
                if (!piece.access)
                  return success();
                return emitRelayout(
                    nest, b, slot, slotLocation, roots[piece.access->root].sbuf,
                    locate(*piece.access, roots[piece.access->root].layout));
              })))
        return failure();
      emit(MatmulOp::getOperationName(), part.psum,
           {stationary, {slot, getAp(0, partitions, 0, 0, {{1, part.n}})}},
           attrs, Engine::Tensor);
    }
    for (Part &part : parts)
      emitEvacuation(
          nest, part.outOnly, mLoop,
          evacuationTarget(nest, part.outOnly, mLoop, part.order, part.out),
          part.psum, part.order);
  }
  return true;
}
