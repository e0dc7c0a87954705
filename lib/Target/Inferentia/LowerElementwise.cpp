//===- LowerElementwise.cpp - bodies, reductions, relayouts ---------------===//
//
// The vector and scalar engines' share of dlc-inferentia-lower: elementwise
// bodies (one instruction per operation), reductions along free
// dimensions, reads through a padding split into pieces, and relayouts by
// DMA between SBUF ranges.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;
using namespace dlc::inferentia::detail;

std::optional<unsigned> Lowering::getPartitionLoop(Nest &nest,
                                                   const Access &access) {
  ElementLocation location = locate(access, roots[access.root].layout);
  std::optional<unsigned> found;
  location.partition.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      if (nest.trips[dim.getPosition()] > 1)
        found = dim.getPosition();
  });
  return found;
}

/// The x of a body value computing 1 / (1 + exp(-x)) (how Sigmoid lowers).
static std::optional<int> matchSigmoid(const Nest &nest, int index) {
  auto constantOne = [&](int i) {
    const BodyValue &v = nest.values[i];
    return v.kind == BodyValue::Kind::Constant && v.constant == 1.0;
  };
  auto opOf = [&](int i) -> const BodyValue * {
    const BodyValue &v = nest.values[i];
    return v.kind == BodyValue::Kind::Op ? &v : nullptr;
  };
  const BodyValue *div = opOf(index);
  if (!div || !isa<arith::DivFOp>(div->op) || !constantOne(div->operands[0]))
    return std::nullopt;
  const BodyValue *sum = opOf(div->operands[1]);
  if (!sum || !isa<arith::AddFOp>(sum->op))
    return std::nullopt;
  int e = constantOne(sum->operands[0])   ? sum->operands[1]
          : constantOne(sum->operands[1]) ? sum->operands[0]
                                          : -1;
  const BodyValue *exp = e < 0 ? nullptr : opOf(e);
  if (!exp || !isa<math::ExpOp>(exp->op))
    return std::nullopt;
  const BodyValue *neg = opOf(exp->operands[0]);
  if (!neg || !isa<arith::NegFOp>(neg->op))
    return std::nullopt;
  return neg->operands[0];
}

LogicalResult Lowering::forEachPiece(
    Nest &nest, const Box &box, ArrayRef<int> reads,
    function_ref<LogicalResult(const Box &, ArrayRef<int>)> body) {
  SmallVector<int> chosen(reads.size(), 0);
  std::function<LogicalResult(const Box &, unsigned)> visit =
      [&](const Box &current, unsigned i) -> LogicalResult {
    if (current.isEmpty())
      return success();
    if (numInstructions > kMaxInstructions)
      return emitNestError(nest)
             << "needs more than " << kMaxInstructions << " instructions";
    if (i == reads.size())
      return body(current, chosen);
    const BodyValue &value = nest.values[reads[i]];
    for (auto [p, piece] : llvm::enumerate(value.pieces)) {
      // Where the piece's conditions hold: boxes (a condition that does not
      // hold leaves the slabs around the box where it does).
      SmallVector<Box> regions{current};
      for (auto [set, holds] : piece.conditions) {
        SmallVector<Box> next;
        for (const Box &region : regions) {
          std::optional<Box> inside = clip(region, set);
          if (!inside) {
            // The condition couples two varying loops: fix one.
            std::optional<unsigned> loop = findCoupledLoop(region, set);
            if (!loop)
              return emitNestError(nest)
                     << "a read condition that couples loops";
            for (int64_t v = current.lo[*loop]; v < current.hi[*loop]; ++v)
              if (failed(visit(current.fix(*loop, v), i)))
                return failure();
            return success();
          }
          if (holds) {
            if (!inside->isEmpty())
              next.push_back(*inside);
            continue;
          }
          for (const Box &slab : subtract(region, *inside))
            next.push_back(slab);
        }
        regions = std::move(next);
      }
      chosen[i] = p;
      for (const Box &region : regions)
        if (failed(visit(region, i + 1)))
          return failure();
    }
    return success();
  };
  return visit(box, 0);
}

FailureOr<std::variant<BoxOperand, Split>>
Lowering::getReadOperand(Nest &nest, const Access &access, const Box &box,
                         std::optional<unsigned> partitionLoop,
                         ArrayRef<unsigned> order) {
  Root &root = roots[access.root];
  ElementLocation location = locate(access, root.layout);
  PatternOrSplit result =
      getLoopPattern(location, nest.getNumLoops(), box, partitionLoop);
  if (result.split)
    return std::variant<BoxOperand, Split>(*result.split);
  if (result.pattern)
    return std::variant<BoxOperand, Split>(
        BoxOperand{root.sbuf, *result.pattern});
  // The elements lie across the partitions otherwise: a slot gets them in
  // the instruction's layout, by DMA.
  BoxOperand slot{nextSlot(), getSlotPattern(box, partitionLoop, order)};
  if (failed(emitRelayout(nest, box, slot.buffer,
                          getSlotLocation(box, partitionLoop, order), root.sbuf,
                          location)))
    return failure();
  return std::variant<BoxOperand, Split>(slot);
}

/// `box` without `inner` (a sub-box of it), as disjoint boxes.
SmallVector<Box> dlc::inferentia::detail::subtract(const Box &box,
                                                   const Box &inner) {
  SmallVector<Box> slabs;
  if (inner.isEmpty())
    return {box};
  Box rest = box;
  for (unsigned l = 0; l < box.lo.size(); ++l) {
    if (inner.lo[l] > rest.lo[l])
      slabs.push_back(rest.restrict(l, rest.lo[l], inner.lo[l]));
    if (inner.hi[l] < rest.hi[l])
      slabs.push_back(rest.restrict(l, inner.hi[l], rest.hi[l]));
    rest = rest.restrict(l, inner.lo[l], inner.hi[l]);
  }
  return slabs;
}

/// The varying loops of `box` other than `partitionLoop`, outermost first.
SmallVector<unsigned>
dlc::inferentia::detail::getFreeOrder(const Box &box,
                                      std::optional<unsigned> partitionLoop) {
  SmallVector<unsigned> order;
  for (unsigned l = 0; l < box.lo.size(); ++l)
    if (box.getSize(l) > 1 && (!partitionLoop || l != *partitionLoop))
      order.push_back(l);
  return order;
}

/// Splits `box` into boxes whose free loops (all but `keep`) hold at most
/// `limit` elements, fixing or chunking outer loops.
SmallVector<Box> dlc::inferentia::detail::tileFree(const Box &box,
                                                   ArrayRef<unsigned> order,
                                                   int64_t limit) {
  SmallVector<Box> boxes{box};
  int64_t inner = 1;
  for (unsigned l : llvm::reverse(order)) {
    int64_t size = box.getSize(l);
    if (inner * size <= limit) {
      inner *= size;
      continue;
    }
    int64_t chunk = std::max<int64_t>(1, limit / inner);
    inner *= chunk;
    SmallVector<Box> next;
    for (const Box &b : boxes)
      for (int64_t v = b.lo[l]; v < b.hi[l]; v += chunk)
        next.push_back(b.restrict(l, v, v + chunk));
    boxes = std::move(next);
    limit = 0; // every outer loop is fixed
  }
  return boxes;
}

LogicalResult Lowering::emitBody(Nest &nest, const Box &box,
                                 ArrayRef<int> reads, ArrayRef<int> chosen,
                                 std::optional<unsigned> partitionLoop,
                                 ArrayRef<unsigned> order, int target,
                                 std::optional<BoxOperand> dst, bool &split,
                                 Split &where, std::optional<Operand> &result) {
  int64_t partitions = partitionLoop ? box.getSize(*partitionLoop) : 1;
  int64_t freeElements = 1;
  for (unsigned l : order)
    freeElements *= box.getSize(l);
  // Each value: an operand, or an immediate.
  DenseMap<int, Operand> operands;
  DenseMap<int, double> immediates;
  auto slotOperand = [&]() {
    SmallVector<std::pair<int64_t, int64_t>> dims;
    int64_t stride = 1;
    SmallVector<std::pair<int64_t, int64_t>> reversed;
    for (unsigned l : llvm::reverse(order)) {
      reversed.emplace_back(stride, box.getSize(l));
      stride *= box.getSize(l);
    }
    dims.assign(reversed.rbegin(), reversed.rend());
    return Operand{nextSlot(), getAp(0, partitions, 0, 0, dims)};
  };
  std::function<LogicalResult(int)> compute = [&](int index) -> LogicalResult {
    if (operands.count(index) || immediates.count(index))
      return success();
    const BodyValue &value = nest.values[index];
    bool isTarget = index == target;
    if (value.kind == BodyValue::Kind::Constant) {
      immediates[index] = value.constant;
    } else if (value.kind == BodyValue::Kind::Read) {
      unsigned readIndex = llvm::find(reads, index) - reads.begin();
      const Piece &piece = value.pieces[chosen[readIndex]];
      if (!piece.access) {
        immediates[index] = piece.constant;
      } else {
        FailureOr<std::variant<BoxOperand, Split>> operand =
            getReadOperand(nest, *piece.access, box, partitionLoop, order);
        if (failed(operand))
          return failure();
        if (auto *s = std::get_if<Split>(&*operand)) {
          split = true;
          where = *s;
          return success();
        }
        BoxOperand &boxOperand = std::get<BoxOperand>(*operand);
        if (partitions > 1 && !boxOperand.pattern.partitionLoop) {
          // The same elements for every partition: the tensor engine
          // broadcasts them (a column of ones times the row), at most one
          // PSUM bank at a time.
          if (freeElements > machine.getPsumBankElements()) {
            split = true;
            unsigned loop = order.front();
            where = {loop, box.lo[loop] +
                               std::max<int64_t>(1, box.getSize(loop) / 2)};
            return success();
          }
          Operand row{boxOperand.buffer, toAp(boxOperand, 1, box, order)};
          if (!checkPartitionRange(machine, row.ap.getStart(), 1).empty())
            row = realign(row);
          Operand column{ones,
                         getAp(row.ap.getStart(), 1, 0, 0, {{1, partitions}})};
          SmallVector<std::pair<int64_t, int64_t>> dims;
          int64_t stride = 1;
          for (unsigned l : llvm::reverse(order)) {
            dims.insert(dims.begin(), {stride, box.getSize(l)});
            stride *= box.getSize(l);
          }
          Operand broadcast{nextPsum(), getAp(0, partitions, 0, 0, dims)};
          emit(MatmulOp::getOperationName(), broadcast, {column, row}, {},
               Engine::Tensor);
          operands[index] = broadcast;
        } else {
          operands[index] = Operand{boxOperand.buffer,
                                    toAp(boxOperand, partitions, box, order)};
        }
      }
    } else if (std::optional<int> x = matchSigmoid(nest, index)) {
      // 1 / (1 + exp(-x)): one instruction of the scalar engine.
      if (failed(compute(*x)))
        return failure();
      if (split)
        return success();
      if (immediates.count(*x))
        return emitNestError(nest) << "a function of constants";
      Operand out =
          isTarget && dst
              ? Operand{dst->buffer, toAp(*dst, partitions, box, order)}
              : slotOperand();
      emit(ActivationOp::getOperationName(), out, {operands[*x]},
           {builder.getNamedAttr(
               "function",
               builder.getStringAttr(getName(ActivationFunction::Sigmoid)))},
           Engine::Scalar);
      operands[index] = out;
      if (isTarget)
        result = out;
      return success();
    } else {
      for (int operand : value.operands) {
        if (failed(compute(operand)))
          return failure();
        if (split)
          return success();
      }
    }
    if (value.kind != BodyValue::Kind::Op) {
      if (isTarget && dst) {
        Operand out{dst->buffer, toAp(*dst, partitions, box, order)};
        if (immediates.count(index)) {
          emit(MemsetOp::getOperationName(), out, {},
               {builder.getNamedAttr(
                   "imm0", builder.getF32FloatAttr(immediates[index]))},
               Engine::Vector);
        } else {
          // A copy the elimination kept (or the bank layout inserted)
          // moves data into another arrangement: an on-chip copy.
          bool copy =
              nest.relayout ||
              (nest.description && nest.description->kind == NestClass::Copy);
          emit(TensorCopyOp::getOperationName(), out, {operands[index]}, {},
               Engine::Vector, copy ? Cause::Relayout : Cause::None);
        }
        result = out;
      }
      return success();
    }
    Operand out = isTarget && dst
                      ? Operand{dst->buffer, toAp(*dst, partitions, box, order)}
                      : slotOperand();
    Operation *op = value.op;
    // A value known at compile time: an immediate for its users, and the
    // target filled with it.
    auto setImmediate = [&](double constant) -> LogicalResult {
      immediates[index] = constant;
      if (isTarget && dst) {
        emit(MemsetOp::getOperationName(), out, {},
             {builder.getNamedAttr("imm0", builder.getF32FloatAttr(constant))},
             Engine::Vector);
        result = out;
      }
      return success();
    };
    auto activation = [&](Operand to, Operand from, ActivationFunction f) {
      emit(
          ActivationOp::getOperationName(), to, {from},
          {builder.getNamedAttr("function", builder.getStringAttr(getName(f)))},
          Engine::Scalar);
    };
    auto scalarOp = [&](Operand to, Operand from, AluOp alu0, double imm0) {
      emit(TensorScalarOp::getOperationName(), to, {from},
           {builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu0))),
            builder.getNamedAttr("alu1",
                                 builder.getStringAttr(getName(AluOp::Bypass))),
            builder.getNamedAttr("imm0", builder.getF32FloatAttr(imm0)),
            builder.getNamedAttr("imm1", builder.getF32FloatAttr(0))},
           Engine::Vector);
    };
    // A function of a constant: the constant in a slot first (ALU
    // operations fold constants themselves, below).
    if (!getAlu(op) && !isa<arith::SelectOp>(op))
      for (int o : value.operands)
        if (immediates.count(o) && !operands.count(o)) {
          Operand filled = slotOperand();
          emit(MemsetOp::getOperationName(), filled, {},
               {builder.getNamedAttr("imm0",
                                     builder.getF32FloatAttr(immediates[o]))},
               Engine::Vector);
          operands[o] = filled;
        }
    if (isa<arith::SelectOp>(op)) {
      int c = value.operands[0], a = value.operands[1], b = value.operands[2];
      if (immediates.count(c)) {
        // A constant predicate picks one side.
        int picked = immediates[c] != 0 ? a : b;
        if (immediates.count(picked))
          return setImmediate(immediates[picked]);
        emit(TensorCopyOp::getOperationName(), out, {operands[picked]}, {},
             Engine::Vector, Cause::None);
      } else {
        // Constant sides are filled into slots first.
        auto side = [&](int i) {
          if (!immediates.count(i))
            return operands[i];
          Operand filled = slotOperand();
          emit(MemsetOp::getOperationName(), filled, {},
               {builder.getNamedAttr("imm0",
                                     builder.getF32FloatAttr(immediates[i]))},
               Engine::Vector);
          return filled;
        };
        Operand onTrue = side(a), onFalse = side(b);
        emit(SelectOp::getOperationName(), out, {operands[c], onTrue, onFalse},
             {}, Engine::Vector);
      }
    } else if (isa<math::Log1pOp>(op)) {
      // log(1 + x): the sum, then the logarithm.
      Operand sum = slotOperand();
      scalarOp(sum, operands[value.operands[0]], AluOp::Add, 1.0);
      activation(out, sum, ActivationFunction::Log);
    } else if (isa<math::PowFOp>(op)) {
      int a = value.operands[0], b = value.operands[1];
      std::optional<double> exponent;
      if (immediates.count(b))
        exponent = immediates[b];
      using F = ActivationFunction;
      if (exponent == 2.0) {
        activation(out, operands[a], F::Square);
      } else if (exponent == 0.5) {
        activation(out, operands[a], F::Sqrt);
      } else if (exponent == -0.5) {
        activation(out, operands[a], F::Rsqrt);
      } else if (exponent == -1.0) {
        activation(out, operands[a], F::Reciprocal);
      } else if (exponent == 1.0) {
        emit(TensorCopyOp::getOperationName(), out, {operands[a]}, {},
             Engine::Vector, Cause::None);
      } else {
        // exp(b * log(a)), for a positive base as the engines compute it.
        Operand logarithm = slotOperand();
        activation(logarithm, operands[a], F::Log);
        Operand product = slotOperand();
        if (exponent)
          scalarOp(product, logarithm, AluOp::Multiply, *exponent);
        else
          emit(TensorTensorOp::getOperationName(), product,
               {logarithm, operands[b]},
               {builder.getNamedAttr(
                   "alu0", builder.getStringAttr(getName(AluOp::Multiply)))},
               Engine::Vector);
        activation(out, product, F::Exp);
      }
    } else if (std::optional<ActivationFunction> function = getFunction(op)) {
      activation(out, operands[value.operands[0]], *function);
    } else {
      AluOp alu = *getAlu(op);
      int a = value.operands[0], b = value.operands[1];
      bool aImm = immediates.count(a), bImm = immediates.count(b);
      if (aImm && bImm)
        return setImmediate(applyAlu(alu, immediates[a], immediates[b]));
      auto scalar = [&](Operand src, AluOp alu0, double imm0, AluOp alu1,
                        double imm1) {
        emit(
            TensorScalarOp::getOperationName(), out, {src},
            {builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu0))),
             builder.getNamedAttr("alu1", builder.getStringAttr(getName(alu1))),
             builder.getNamedAttr("imm0", builder.getF32FloatAttr(imm0)),
             builder.getNamedAttr("imm1", builder.getF32FloatAttr(imm1))},
            Engine::Vector);
      };
      if (bImm) {
        scalar(operands[a], alu, immediates[b], AluOp::Bypass, 0);
      } else if (aImm) {
        if (isCommutative(alu)) {
          scalar(operands[b], alu, immediates[a], AluOp::Bypass, 0);
        } else if (std::optional<AluOp> mirrored = getMirrored(alu)) {
          scalar(operands[b], *mirrored, immediates[a], AluOp::Bypass, 0);
        } else if (alu == AluOp::Subtract) {
          scalar(operands[b], AluOp::Multiply, -1, AluOp::Add, immediates[a]);
        } else {
          // c / x: the reciprocal, then the product.
          Operand reciprocal = slotOperand();
          emit(ActivationOp::getOperationName(), reciprocal, {operands[b]},
               {builder.getNamedAttr(
                   "function", builder.getStringAttr(
                                   getName(ActivationFunction::Reciprocal)))},
               Engine::Scalar);
          scalar(reciprocal, AluOp::Multiply, immediates[a], AluOp::Bypass, 0);
        }
      } else {
        emit(
            TensorTensorOp::getOperationName(), out, {operands[a], operands[b]},
            {builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu)))},
            Engine::Vector);
      }
    }
    operands[index] = out;
    if (isTarget)
      result = out;
    return success();
  };
  if (failed(compute(target)))
    return failure();
  if (!split && !result) {
    // The target is a plain operand or a constant, and no destination was
    // given: the operand, or a slot holding the constant.
    if (operands.count(target)) {
      result = operands[target];
    } else if (immediates.count(target)) {
      result = slotOperand();
      emit(MemsetOp::getOperationName(), *result, {},
           {builder.getNamedAttr("imm0",
                                 builder.getF32FloatAttr(immediates[target]))},
           Engine::Vector);
    }
  }
  return success();
}

LogicalResult Lowering::lowerElementwise(Nest &nest, const Box &full) {
  std::optional<unsigned> partitionLoop = getPartitionLoop(nest, nest.store);
  SmallVector<int> reads;
  for (auto [i, v] : llvm::enumerate(nest.values))
    if (v.kind == BodyValue::Kind::Read)
      reads.push_back(i);
  SmallVector<unsigned> order = getFreeOrder(full, partitionLoop);
  std::function<LogicalResult(const Box &)> onBox =
      [&](const Box &box) -> LogicalResult {
    return forEachPiece(
        nest, box, reads,
        [&](const Box &sub, ArrayRef<int> chosen) -> LogicalResult {
          std::function<LogicalResult(const Box &)> attempt =
              [&](const Box &b) -> LogicalResult {
            PatternOrSplit out = getLoopPattern(
                locate(nest.store, roots[nest.store.root].layout),
                nest.getNumLoops(), b, partitionLoop);
            if (out.split) {
              return success(succeeded(attempt(b.restrict(out.split->loop,
                                                          b.lo[out.split->loop],
                                                          out.split->value))) &&
                             succeeded(attempt(
                                 b.restrict(out.split->loop, out.split->value,
                                            b.hi[out.split->loop]))));
            }
            if (!out.pattern)
              return emitNestError(nest) << "writing: " << out.why;
            if (partitionLoop && b.getSize(*partitionLoop) > 1 &&
                !out.pattern->partitionLoop)
              return emitNestError(nest) << "writing: partitions do not follow "
                                            "the partition loop";
            BoxOperand dst{roots[nest.store.root].sbuf, *out.pattern};
            SmallVector<unsigned> boxOrder = getFreeOrder(b, partitionLoop);
            // A copy whose source lies across the partitions differently:
            // a relayout by DMA.
            const BodyValue &stored = nest.values[nest.stored];
            if (stored.kind == BodyValue::Kind::Read) {
              unsigned r = llvm::find(reads, nest.stored) - reads.begin();
              const Piece &piece = stored.pieces[chosen[r]];
              if (piece.access) {
                PatternOrSplit src = getLoopPattern(
                    locate(*piece.access, roots[piece.access->root].layout),
                    nest.getNumLoops(), b, partitionLoop);
                if (src.split)
                  return success(succeeded(attempt(b.restrict(
                                     src.split->loop, b.lo[src.split->loop],
                                     src.split->value))) &&
                                 succeeded(attempt(b.restrict(
                                     src.split->loop, src.split->value,
                                     b.hi[src.split->loop]))));
                if (!src.pattern)
                  return emitRelayout(
                      nest, b, roots[nest.store.root].sbuf,
                      locate(nest.store, roots[nest.store.root].layout),
                      roots[piece.access->root].sbuf,
                      locate(*piece.access, roots[piece.access->root].layout));
              }
            }
            bool split = false;
            Split where{0, 0};
            std::optional<Operand> result;
            if (failed(emitBody(nest, b, reads, chosen, partitionLoop, boxOrder,
                                nest.stored, dst, split, where, result)))
              return failure();
            if (split)
              return success(succeeded(attempt(b.restrict(
                                 where.loop, b.lo[where.loop], where.value))) &&
                             succeeded(attempt(b.restrict(
                                 where.loop, where.value, b.hi[where.loop]))));
            return success();
          };
          return attempt(sub);
        });
  };
  for (const Box &box : tileFree(full, order, kSlotElements))
    if (failed(onBox(box)))
      return failure();
  return success();
}

LogicalResult Lowering::lowerReduction(Nest &nest, int accumulator, int value,
                                       AluOp combine) {
  std::optional<unsigned> partitionLoop = getPartitionLoop(nest, nest.store);
  // A contraction planned into its ReLU's evacuation has no output buffer
  // (planEvacuations asks matchContraction, so this is a compiler bug).
  if (!roots[nest.store.root].sbuf)
    return emitNestError(nest) << "its output has no buffer";
  Box full = nest.getFullBox();
  SmallVector<bool> inStore(nest.getNumLoops(), false);
  for (AffineExpr e : nest.store.indices)
    e.walk([&](AffineExpr d) {
      if (auto dim = dyn_cast<AffineDimExpr>(d))
        inStore[dim.getPosition()] = true;
    });
  if (partitionLoop && !inStore[*partitionLoop])
    return emitNestError(nest) << "the partition loop is a reduction loop";
  // Free loops: the kept ones first, the reduced ones innermost.
  auto orderOf = [&](const Box &box) {
    SmallVector<unsigned> kept, reduced;
    for (unsigned l : getFreeOrder(box, partitionLoop))
      (inStore[l] ? kept : reduced).push_back(l);
    return std::make_pair(kept, reduced);
  };
  auto [fullKept, fullReduced] = orderOf(full);
  SmallVector<unsigned> fullOrder(fullKept);
  fullOrder.append(fullReduced.begin(), fullReduced.end());
  SmallVector<int> reads;
  for (auto [i, v] : llvm::enumerate(nest.values))
    if (v.kind == BodyValue::Kind::Read && static_cast<int>(i) != accumulator)
      reads.push_back(i);
  double identity = *getIdentity(combine);
  auto aluAttr = [&](AluOp alu) {
    return builder.getNamedAttr("alu0", builder.getStringAttr(getName(alu)));
  };
  std::function<LogicalResult(const Box &, ArrayRef<int>)> attempt =
      [&](const Box &b, ArrayRef<int> chosen) -> LogicalResult {
    auto again = [&](Split where) {
      return success(
          succeeded(attempt(
              b.restrict(where.loop, b.lo[where.loop], where.value), chosen)) &&
          succeeded(attempt(
              b.restrict(where.loop, where.value, b.hi[where.loop]), chosen)));
    };
    // A padding that is the combination's identity adds nothing.
    const BodyValue &v = nest.values[value];
    if (v.kind == BodyValue::Kind::Read) {
      unsigned r = llvm::find(reads, value) - reads.begin();
      const Piece &piece = v.pieces[chosen[r]];
      if (!piece.access && piece.constant == identity)
        return success();
    }
    PatternOrSplit out =
        getLoopPattern(locate(nest.store, roots[nest.store.root].layout),
                       nest.getNumLoops(), b, partitionLoop);
    if (out.split)
      return again(*out.split);
    if (!out.pattern)
      return emitNestError(nest) << "writing: " << out.why;
    auto [kept, reduced] = orderOf(b);
    SmallVector<unsigned> order(kept);
    order.append(reduced.begin(), reduced.end());
    int64_t partitions = partitionLoop ? b.getSize(*partitionLoop) : 1;
    bool split = false;
    Split where{0, 0};
    std::optional<Operand> operand;
    if (failed(emitBody(nest, b, reads, chosen, partitionLoop, order, value,
                        std::nullopt, split, where, operand)))
      return failure();
    if (split)
      return again(where);
    if (!operand)
      return emitNestError(nest) << "a reduction of a constant";
    Operand dst{roots[nest.store.root].sbuf,
                toAp(BoxOperand{roots[nest.store.root].sbuf, *out.pattern},
                     partitions, b, kept)};
    if (!reduced.empty()) {
      // Reduce the innermost dimensions into a slot, then combine.
      int64_t keptElements = 1, reducedElements = 1;
      for (unsigned l : kept)
        keptElements *= b.getSize(l);
      for (unsigned l : reduced)
        reducedElements *= b.getSize(l);
      // The source with its kept and reduced dimensions merged apart: the
      // reduction counts the innermost dimensions. A computed value lies
      // in its slot kept-major; a read has its own pattern.
      SmallVector<std::pair<int64_t, int64_t>> keptDims, reducedDims;
      int64_t start = operand->ap.getStart(), offset = operand->ap.getOffset();
      if (v.kind == BodyValue::Kind::Read &&
          !llvm::is_contained(slots, operand->buffer)) {
        unsigned r = llvm::find(reads, value) - reads.begin();
        FailureOr<std::variant<BoxOperand, Split>> read = getReadOperand(
            nest, *v.pieces[chosen[r]].access, b, partitionLoop, order);
        if (failed(read))
          return failure();
        const LoopPattern &pattern = std::get<BoxOperand>(*read).pattern;
        for (unsigned l : kept)
          keptDims.emplace_back(pattern.freeStrides[l], b.getSize(l));
        for (unsigned l : reduced)
          reducedDims.emplace_back(pattern.freeStrides[l], b.getSize(l));
      } else {
        keptDims.emplace_back(reducedElements, keptElements);
        reducedDims.emplace_back(1, reducedElements);
      }
      AccessPatternAttr kAp = getAp(0, 1, 0, 0, keptDims);
      AccessPatternAttr rAp = getAp(0, 1, 0, 0, reducedDims);
      SmallVector<int64_t> allStrides, allSizes;
      if (keptElements > 1) {
        allStrides.assign(kAp.getStrides().begin(), kAp.getStrides().end());
        allSizes.assign(kAp.getSizes().begin(), kAp.getSizes().end());
      }
      allStrides.append(rAp.getStrides().begin(), rAp.getStrides().end());
      allSizes.append(rAp.getSizes().begin(), rAp.getSizes().end());
      Operand src{operand->buffer,
                  AccessPatternAttr::get(context, start,
                                         operand->ap.getPartitions(), 0, offset,
                                         allStrides, allSizes)};
      Operand partial{nextSlot(),
                      getAp(0, partitions, 0, 0, {{1, keptElements}})};
      emit(TensorReduceOp::getOperationName(), partial, {src},
           {aluAttr(combine),
            builder.getNamedAttr("reduce_dims", builder.getI64IntegerAttr(
                                                    rAp.getSizes().size()))},
           Engine::Vector);
      operand = partial;
    }
    emit(TensorTensorOp::getOperationName(), dst, {dst, *operand},
         {aluAttr(combine)}, Engine::Vector);
    return success();
  };
  for (const Box &box : tileFree(full, fullOrder, kSlotElements))
    if (failed(forEachPiece(nest, box, reads, attempt)))
      return failure();
  return success();
}

ElementLocation Lowering::getSlotLocation(const Box &box,
                                          std::optional<unsigned> partitionLoop,
                                          ArrayRef<unsigned> order) {
  ElementLocation location{getAffineConstantExpr(0, context),
                           getAffineConstantExpr(0, context)};
  if (partitionLoop)
    location.partition =
        getAffineDimExpr(*partitionLoop, context) - box.lo[*partitionLoop];
  int64_t stride = 1;
  for (unsigned l : llvm::reverse(order)) {
    location.free =
        location.free + (getAffineDimExpr(l, context) - box.lo[l]) * stride;
    stride *= box.getSize(l);
  }
  return location;
}

LoopPattern Lowering::getSlotPattern(const Box &box,
                                     std::optional<unsigned> partitionLoop,
                                     ArrayRef<unsigned> order) {
  LoopPattern pattern;
  pattern.partitionLoop = partitionLoop;
  pattern.freeStrides.assign(box.lo.size(), 0);
  int64_t stride = 1;
  for (unsigned l : llvm::reverse(order)) {
    pattern.freeStrides[l] = stride;
    stride *= box.getSize(l);
  }
  return pattern;
}

LogicalResult Lowering::emitRelayout(Nest &nest, const Box &box, Value to,
                                     const ElementLocation &toLocation,
                                     Value from,
                                     const ElementLocation &fromLocation) {
  unsigned numLoops = box.lo.size();
  auto partitionLoopOf = [&](const ElementLocation &location,
                             const Box &b) -> std::optional<unsigned> {
    std::optional<unsigned> found;
    location.partition.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (b.getSize(dim.getPosition()) > 1)
          found = dim.getPosition();
    });
    return found;
  };
  std::function<LogicalResult(const Box &)> copy =
      [&](const Box &b) -> LogicalResult {
    // The partitions of each side may follow one loop per DMA: fix the
    // others.
    for (const ElementLocation *location : {&toLocation, &fromLocation}) {
      SmallVector<unsigned> varying;
      location->partition.walk([&](AffineExpr e) {
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          if (b.getSize(dim.getPosition()) > 1 &&
              !llvm::is_contained(varying, dim.getPosition()))
            varying.push_back(dim.getPosition());
      });
      if (varying.size() > 1) {
        unsigned fixed = *llvm::min_element(varying);
        for (int64_t v = b.lo[fixed]; v < b.hi[fixed]; ++v)
          if (failed(copy(b.fix(fixed, v))))
            return failure();
        return success();
      }
    }
    std::optional<unsigned> toP = partitionLoopOf(toLocation, b);
    std::optional<unsigned> fromP = partitionLoopOf(fromLocation, b);
    // Partitions that follow one loop on both sides: one DMA.
    std::optional<unsigned> shared =
        toP && fromP && *toP == *fromP ? toP : std::nullopt;
    // Otherwise one DMA per partition of the side with fewer partitions;
    // the other side spans its own partitions in it.
    if (!shared && toP && fromP) {
      if (tryTransposeRelayout(b, *toP, *fromP, to, toLocation, from,
                               fromLocation))
        return success();
      unsigned outer = b.getSize(*toP) <= b.getSize(*fromP) ? *toP : *fromP;
      for (int64_t v = b.lo[outer]; v < b.hi[outer]; ++v)
        if (failed(copy(b.fix(outer, v))))
          return failure();
      return success();
    }
    std::optional<unsigned> spanning = shared ? shared : toP ? toP : fromP;
    PatternOrSplit dst = getLoopPattern(
        toLocation, numLoops, b, shared || toP ? spanning : std::nullopt);
    PatternOrSplit src = getLoopPattern(
        fromLocation, numLoops, b, shared || fromP ? spanning : std::nullopt);
    for (PatternOrSplit *p : {&src, &dst})
      if (p->split)
        return success(
            succeeded(copy(b.restrict(p->split->loop, b.lo[p->split->loop],
                                      p->split->value))) &&
            succeeded(copy(b.restrict(p->split->loop, p->split->value,
                                      b.hi[p->split->loop]))));
    if (!src.pattern || !dst.pattern) {
      // The partitions follow a loop at different paces on the two sides
      // (a strided window): one DMA per value of it.
      if (spanning) {
        for (int64_t v = b.lo[*spanning]; v < b.hi[*spanning]; ++v)
          if (failed(copy(b.fix(*spanning, v))))
            return failure();
        return success();
      }
      return emitNestError(nest) << "relayout: " << src.why << dst.why;
    }
    // The spanning loop first on the side without partitions, so that the
    // elements pair up in partition-major order.
    SmallVector<unsigned> order;
    if (spanning && !shared)
      order.push_back(*spanning);
    for (unsigned l : getFreeOrder(b, spanning))
      order.push_back(l);
    SmallVector<std::pair<int64_t, int64_t>> dstDims, srcDims;
    for (unsigned l : order) {
      bool acrossDst = spanning && l == *spanning && (shared || toP);
      bool acrossSrc = spanning && l == *spanning && (shared || fromP);
      if (!acrossDst)
        dstDims.emplace_back(dst.pattern->freeStrides[l], b.getSize(l));
      if (!acrossSrc)
        srcDims.emplace_back(src.pattern->freeStrides[l], b.getSize(l));
    }
    int64_t spanned = spanning ? b.getSize(*spanning) : 1;
    emitDma(
        {to, getAp(dst.pattern->partitionStart, shared || toP ? spanned : 1, 0,
                   dst.pattern->freeOffset, dstDims)},
        {from, getAp(src.pattern->partitionStart, shared || fromP ? spanned : 1,
                     0, src.pattern->freeOffset, srcDims)},
        Cause::Relayout);
    return success();
  };
  return copy(box);
}

bool Lowering::tryTransposeRelayout(const Box &box, unsigned toLoop,
                                    unsigned fromLoop, Value to,
                                    const ElementLocation &toLocation,
                                    Value from,
                                    const ElementLocation &fromLocation) {
  // The tensor engine transposes exactly in fp32 only; staged DRAM homes
  // would add DMAs on both sides.
  if (machine.bf16Matmul || dramHomes.count(to) || dramHomes.count(from) ||
      !cast<BufferType>(to.getType()).getElementType().isF32() ||
      !cast<BufferType>(from.getType()).getElementType().isF32())
    return false;
  int64_t rows = box.getSize(toLoop), columns = box.getSize(fromLoop);
  if (rows > std::min(machine.partitions, machine.stationaryFreeMax) ||
      columns > std::min(machine.movingFreeMax, machine.getPsumBankElements()))
    return false;
  unsigned numLoops = box.lo.size();
  SmallVector<unsigned> others;
  int64_t count = 1;
  for (unsigned l = 0; l < numLoops; ++l)
    if (l != toLoop && l != fromLoop && box.getSize(l) > 1) {
      others.push_back(l);
      count *= box.getSize(l);
    }
  // One transpose and one evacuation per value of the other loops.
  struct Step {
    Operand src, psum, dst;
  };
  auto getStep = [&](const Box &b) -> std::optional<Step> {
    PatternOrSplit dst = getLoopPattern(toLocation, numLoops, b, toLoop);
    PatternOrSplit src = getLoopPattern(fromLocation, numLoops, b, fromLoop);
    if (!dst.pattern || !src.pattern)
      return std::nullopt;
    int64_t dstStart = dst.pattern->partitionStart;
    int64_t srcStart = src.pattern->partitionStart;
    if (!checkPartitionRange(machine, dstStart, rows).empty() ||
        !checkPartitionRange(machine, srcStart, columns).empty())
      return std::nullopt;
    return Step{{from, getAp(srcStart, columns, 0, src.pattern->freeOffset,
                             {{src.pattern->freeStrides[toLoop], rows}})},
                {Value(), getAp(dstStart, rows, 0, 0, {{1, columns}})},
                {to, getAp(dstStart, rows, 0, dst.pattern->freeOffset,
                           {{dst.pattern->freeStrides[fromLoop], columns}})}};
  };
  Box first = box;
  for (unsigned l : others)
    first = first.fix(l, box.lo[l]);
  std::optional<Step> sample = getStep(first);
  if (!sample)
    return false;
  // The compiler's estimate of both ways: the transposes and evacuations
  // pipeline on two engines; the DMAs (one per partition of the side with
  // fewer, as emitRelayout would issue them) spread over the queues.
  double transpose =
      estimateSeconds(inferentia::TransposeOp::getOperationName(), sample->psum,
                      {sample->src}, Engine::Tensor);
  double evacuate =
      estimateSeconds(TensorCopyOp::getOperationName(), sample->dst,
                      {sample->psum}, Engine::Vector);
  double viaTensorEngine =
      count * std::max(transpose, evacuate) + std::min(transpose, evacuate);
  int64_t dmas = std::min(rows, columns);
  int64_t bytesPerDma = count * rows * columns * kElementBytes / dmas;
  double viaDma = llvm::divideCeil(dmas, machine.dmaQueues) *
                  estimateDmaSeconds(bytesPerDma);
  if (viaTensorEngine >= viaDma)
    return false;
  std::function<bool(const Box &, unsigned)> visit = [&](const Box &b,
                                                         unsigned i) {
    if (i < others.size()) {
      for (int64_t v = b.lo[others[i]]; v < b.hi[others[i]]; ++v)
        if (!visit(b.fix(others[i], v), i + 1))
          return false;
      return true;
    }
    std::optional<Step> step = getStep(b);
    if (!step)
      return false;
    step->psum.buffer = nextPsum();
    emit(inferentia::TransposeOp::getOperationName(), step->psum, {step->src},
         {}, Engine::Tensor, Cause::Relayout);
    emit(TensorCopyOp::getOperationName(), step->dst, {step->psum}, {},
         Engine::Vector, Cause::Relayout);
    return true;
  };
  // Every step's patterns exist when the first one's do: the box's loops
  // are linear on it (the caller split it where they were not).
  return visit(box, 0);
}
