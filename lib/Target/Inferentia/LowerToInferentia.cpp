//===- LowerToInferentia.cpp - affine nests to NeuronCore instructions ----===//
//
// dlc-inferentia-lower: the entry function's top-level affine nests, after
// the shared data-movement elimination and bank layout, become one
// inferentia.program. This file reads the function (buffers, nests, their
// bodies), chooses the partition mappings, places the buffers in SBUF and
// drives the lowering nest by nest; Lowering.h lists the other parts.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

namespace dlc::inferentia {
#define GEN_PASS_DEF_LOWERTOINFERENTIA
#include "dlc/Target/Inferentia/Passes.h.inc"
} // namespace dlc::inferentia

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;
using namespace dlc::inferentia::detail;

LogicalResult Lowering::collectRoots() {
  FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
  if (failed(signature))
    return failure();
  Block &body = func.getBody().front();
  unsigned numInputs = signature->inputs.size();
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return func.emitError("inferentia: the entry's arguments must be "
                            "statically shaped memrefs");
    Root &root = roots[arg];
    root.value = arg;
    root.type = type;
    root.role = arg.getArgNumber() < numInputs ? Role::Input : Role::Output;
    // The model's names, which the executor binds tensors by.
    unsigned number = arg.getArgNumber();
    if (number < numInputs)
      root.name = signature->inputs[number].name;
    else if (number - numInputs < signature->outputs.size())
      root.name = signature->outputs[number - numInputs].name;
    if (root.name.empty())
      root.name = (root.role == Role::Input ? "input" : "output") +
                  std::to_string(arg.getArgNumber());
  }
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      Root &root = roots[alloc.getResult()];
      root.value = alloc.getResult();
      root.type = alloc.getType();
      root.name = "buffer" + std::to_string(roots.size());
    } else if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (!global || !global.getConstant() || !global.getInitialValue())
        return get.emitError("inferentia: only constant globals with a "
                             "value are supported");
      Root &root = roots[get.getResult()];
      root.value = get.getResult();
      root.type = get.getType();
      root.role = Role::Weights;
      root.name = get.getName().str();
      root.weights = cast<ElementsAttr>(*global.getInitialValue());
    }
  }
  for (auto &[value, root] : roots) {
    if (!root.type.hasStaticShape() || !root.type.getElementType().isF32())
      return (isa<BlockArgument>(value) ? func.getOperation()
                                        : value.getDefiningOp())
                 ->emitError("inferentia: tensor '")
             << root.name << "' of type " << root.type
             << ": the engines compute on static float32 tensors only";
  }
  return success();
}

FailureOr<Access> Lowering::resolve(Operation *user, Value memref,
                                    ArrayRef<AffineExpr> indices) {
  SmallVector<AffineExpr> index(indices);
  while (!roots.count(memref)) {
    Operation *def = memref.getDefiningOp();
    if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(def)) {
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      SmallVector<AffineExpr> source;
      for (ReassociationIndices group : expand.getReassociationIndices()) {
        AffineExpr linear = getAffineConstantExpr(0, context);
        for (int64_t d : group)
          linear = linear * shape[d] + index[d];
        source.push_back(linear);
      }
      index = source;
      memref = expand.getSrc();
      continue;
    }
    if (auto collapse = dyn_cast_or_null<memref::CollapseShapeOp>(def)) {
      ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
      SmallVector<AffineExpr> source;
      for (auto [j, group] :
           llvm::enumerate(collapse.getReassociationIndices())) {
        int64_t inner = 1;
        for (int64_t d : group)
          inner *= shape[d];
        for (auto [k, d] : llvm::enumerate(group)) {
          inner /= shape[d];
          AffineExpr e = index[j].floorDiv(inner);
          source.push_back(k == 0 ? e : e % shape[d]);
        }
      }
      index = source;
      memref = collapse.getSrc();
      continue;
    }
    if (auto subview = dyn_cast_or_null<memref::SubViewOp>(def)) {
      ArrayRef<int64_t> offsets = subview.getStaticOffsets();
      ArrayRef<int64_t> strides = subview.getStaticStrides();
      if (ShapedType::isDynamicShape(offsets) ||
          ShapedType::isDynamicShape(strides) ||
          subview.getSourceType().getRank() != subview.getType().getRank())
        return user->emitError("inferentia: a dynamic or rank-reducing "
                               "subview is not supported");
      SmallVector<AffineExpr> source;
      for (auto [i, e] : llvm::enumerate(index))
        source.push_back(e * strides[i] + offsets[i]);
      index = source;
      memref = subview.getSource();
      continue;
    }
    return user->emitError("inferentia: cannot follow the view ")
           << (def ? def->getName().getStringRef() : StringRef("argument"))
           << " to a buffer";
  }
  Access access;
  access.root = memref;
  access.indices = index;
  return access;
}

FailureOr<SmallVector<Piece>>
Lowering::parsePieces(Nest &nest, Value value,
                      SmallVector<std::pair<IntegerSet, bool>> conditions) {
  auto loopIndex = [&](Value v) -> std::optional<unsigned> {
    for (auto [i, loop] : llvm::enumerate(nest.loops))
      if (loop.getInductionVar() == v)
        return i;
    return std::nullopt;
  };
  // Loop dims in the nest's numbering for an affine op's map operands.
  auto dimsOf = [&](Operation *user,
                    ValueRange operands) -> FailureOr<SmallVector<AffineExpr>> {
    SmallVector<AffineExpr> dims;
    for (Value operand : operands) {
      std::optional<unsigned> i = loopIndex(operand);
      if (!i)
        return user->emitError("inferentia: an index that is not a loop of "
                               "the nest");
      dims.push_back(getAffineDimExpr(*i, context));
    }
    return dims;
  };
  SmallVector<Piece> pieces;
  if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
    auto attr = dyn_cast<FloatAttr>(constant.getValue());
    if (!attr)
      return constant.emitError("inferentia: a non-float constant");
    Piece &piece = pieces.emplace_back();
    piece.conditions = conditions;
    piece.constant = attr.getValueAsDouble();
    return pieces;
  }
  if (auto load = value.getDefiningOp<affine::AffineLoadOp>()) {
    FailureOr<SmallVector<AffineExpr>> dims =
        dimsOf(load, load.getMapOperands());
    if (failed(dims))
      return failure();
    SmallVector<AffineExpr> indices;
    for (AffineExpr e : load.getAffineMap().getResults())
      indices.push_back(e.replaceDimsAndSymbols(*dims, {}));
    FailureOr<Access> access = resolve(load, load.getMemRef(), indices);
    if (failed(access))
      return failure();
    Piece &piece = pieces.emplace_back();
    piece.conditions = conditions;
    piece.access = *access;
    return pieces;
  }
  if (auto ifOp = value.getDefiningOp<affine::AffineIfOp>()) {
    FailureOr<SmallVector<AffineExpr>> dims = dimsOf(ifOp, ifOp.getOperands());
    if (failed(dims))
      return failure();
    IntegerSet set = ifOp.getIntegerSet().replaceDimsAndSymbols(
        *dims, {}, nest.getNumLoops(), 0);
    unsigned resultIndex = cast<OpResult>(value).getResultNumber();
    for (bool holds : {true, false}) {
      Block *block = holds ? ifOp.getThenBlock() : ifOp.getElseBlock();
      if (!block)
        return ifOp.emitError("inferentia: an affine.if without else");
      Value yielded = block->getTerminator()->getOperand(resultIndex);
      auto inner = conditions;
      inner.emplace_back(set, holds);
      FailureOr<SmallVector<Piece>> sub = parsePieces(nest, yielded, inner);
      if (failed(sub))
        return failure();
      pieces.append(sub->begin(), sub->end());
    }
    return pieces;
  }
  Operation *def = value.getDefiningOp();
  return (def ? def : nest.root)->emitError("inferentia: a value read through ")
         << (def ? def->getName().getStringRef() : StringRef("an argument"))
         << " is not supported";
}

FailureOr<int> Lowering::parseValue(Nest &nest, Value value) {
  // Values are numbered in body order; operands before their users.
  for (auto [i, v] : llvm::enumerate(nest.values))
    if (v.op && v.op->getNumResults() && v.op->getResult(0) == value)
      return static_cast<int>(i);
  Operation *def = value.getDefiningOp();
  BodyValue parsed;
  if (def && isa<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<FloatAttr>(cast<arith::ConstantOp>(def).getValue());
    if (!attr)
      return def->emitError("inferentia: a non-float constant");
    parsed.kind = BodyValue::Kind::Constant;
    parsed.constant = attr.getValueAsDouble();
    parsed.op = def;
  } else if (def && isa<affine::AffineLoadOp, affine::AffineIfOp>(def)) {
    FailureOr<SmallVector<Piece>> pieces = parsePieces(nest, value, {});
    if (failed(pieces))
      return failure();
    parsed.kind = BodyValue::Kind::Read;
    parsed.pieces = *pieces;
    parsed.op = def;
  } else if (def && def->getNumResults() == 1 &&
             (getAlu(def) || getFunction(def) ||
              isa<math::Log1pOp, math::PowFOp, arith::SelectOp>(def))) {
    parsed.kind = BodyValue::Kind::Op;
    parsed.op = def;
    for (Value operand : def->getOperands()) {
      FailureOr<int> index = parseValue(nest, operand);
      if (failed(index))
        return failure();
      parsed.operands.push_back(*index);
    }
  } else {
    return (def ? def : nest.root)->emitError()
           << "inferentia: node '" << getNodeName(nest.root->getLoc()) << "' ("
           << getNodeOpType(nest.root->getLoc()) << "): "
           << (def ? def->getName().getStringRef() : StringRef("argument"))
           << " has no engine instruction";
  }
  nest.values.push_back(parsed);
  return static_cast<int>(nest.values.size() - 1);
}

LogicalResult Lowering::parseNest(Operation *root, Nest &nest) {
  nest.root = root;
  nest.description = getNestDescription(root);
  nest.relayout = root->hasAttr("dlc.relayout");
  auto loop = dyn_cast<affine::AffineForOp>(root);
  while (loop) {
    if (!loop.hasConstantBounds() || loop.getConstantLowerBound() != 0 ||
        loop.getStepAsInt() != 1)
      return emitNestError(nest) << "loops must run from 0 with step 1";
    nest.loops.push_back(loop);
    nest.trips.push_back(loop.getConstantUpperBound());
    Block *body = loop.getBody();
    auto inner = body->getOps<affine::AffineForOp>();
    if (inner.empty())
      break;
    if (std::next(inner.begin()) != inner.end() ||
        &body->front() != *inner.begin() || body->getOperations().size() != 2)
      return emitNestError(nest) << "the nest is not perfectly nested";
    loop = *inner.begin();
  }
  affine::AffineStoreOp store = dyn_cast<affine::AffineStoreOp>(root);
  if (!nest.loops.empty()) {
    for (Operation &op : *nest.loops.back().getBody()) {
      if (auto s = dyn_cast<affine::AffineStoreOp>(op)) {
        if (store)
          return emitNestError(nest) << "a nest with two stores";
        store = s;
      }
    }
  }
  if (!store)
    return emitNestError(nest) << "a nest without a store";
  SmallVector<AffineExpr> dims;
  for (Value operand : store.getMapOperands()) {
    auto *it = llvm::find_if(nest.loops, [&](affine::AffineForOp l) {
      return l.getInductionVar() == operand;
    });
    if (it == nest.loops.end())
      return emitNestError(nest) << "a store index that is not a loop";
    dims.push_back(getAffineDimExpr(it - nest.loops.begin(), context));
  }
  SmallVector<AffineExpr> indices;
  for (AffineExpr e : store.getAffineMap().getResults())
    indices.push_back(e.replaceDimsAndSymbols(dims, {}));
  FailureOr<Access> access = resolve(store, store.getMemRef(), indices);
  if (failed(access))
    return failure();
  nest.store = *access;
  FailureOr<int> stored = parseValue(nest, store.getValueToStore());
  if (failed(stored))
    return failure();
  nest.stored = *stored;
  return success();
}

LogicalResult Lowering::assignMappings() {
  for (auto &[value, root] : roots) {
    int64_t dim = -1;
    IntegerAttr attr;
    if (auto arg = dyn_cast<BlockArgument>(value))
      attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                "dlc.bank_dim");
    else
      attr = value.getDefiningOp()->getAttrOfType<IntegerAttr>("dlc.bank_dim");
    ArrayRef<int64_t> shape = root.type.getShape();
    if (attr)
      dim = attr.getInt();
    else if (!shape.empty()) {
      // Unbanked buffers (too small for the shared pass): the outermost
      // largest dimension, as the local default.
      dim = 0;
      for (int64_t d = 1; d < static_cast<int64_t>(shape.size()); ++d)
        if (std::min(shape[d], machine.partitions) >
            std::min(shape[dim], machine.partitions))
          dim = d;
    }
    SmallVector<int64_t> mappingShape(shape);
    if (mappingShape.empty())
      mappingShape.push_back(1), dim = 0;
    int64_t tile =
        dim < 0 ? 1 : std::min(mappingShape[dim], machine.partitions);
    // Parts read at an offset along the partition dimension (a gate's
    // second half, channel 1 of 2) start at partition 0 when the tile
    // divides the offset: the engines work lane by lane, and a part at
    // partition 64 would have to move before it meets one at 0.
    if (dim >= 0 && static_cast<size_t>(dim) < shape.size())
      for (int64_t offset : getPartitionOffsets(value, dim))
        tile = std::gcd(tile, offset);
    root.mapping = MappingAttr::get(context, mappingShape, dim, tile);
    root.layout = Layout::get(root.mapping);
  }
  // An elementwise nest keeps its operands' lanes together: a tensor it
  // reads on the partitions it writes gets the same tile, to a fixed point
  // (a gate read in halves makes the sum that produces it halved too).
  auto tileOf = [&](Value root) { return roots[root].layout.partitionTile; };
  auto setTile = [&](Value root, int64_t tile) {
    Root &r = roots[root];
    r.mapping = MappingAttr::get(context, r.mapping.getShape(),
                                 r.mapping.getPartitionDim(), tile);
    r.layout = Layout::get(r.mapping);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Nest &nest : nests) {
      if (nest.description &&
          (nest.description->kind == NestClass::Convolution ||
           nest.description->kind == NestClass::Contraction))
        continue;
      Value written = nest.store.root;
      int64_t wDim = roots[written].layout.partitionDim;
      if (wDim < 0 || static_cast<size_t>(wDim) >= nest.store.indices.size())
        continue;
      AffineExpr wIndex = nest.store.indices[wDim];
      for (const BodyValue &v : nest.values)
        for (const Piece &p : v.pieces) {
          if (!p.access || p.access->root == written)
            continue;
          int64_t rDim = roots[p.access->root].layout.partitionDim;
          if (rDim < 0 ||
              static_cast<size_t>(rDim) >= p.access->indices.size() ||
              p.access->indices[rDim] != wIndex)
            continue;
          int64_t tile = std::gcd(tileOf(written), tileOf(p.access->root));
          for (Value root : {written, p.access->root})
            if (tileOf(root) != tile) {
              setTile(root, tile);
              changed = true;
            }
        }
    }
  }
  return success();
}

SmallVector<int64_t> Lowering::getPartitionOffsets(Value root, int64_t dim) {
  // Reads whose index along `dim` is one loop plus a constant.
  SmallVector<int64_t> offsets;
  for (const Nest &nest : nests)
    for (const BodyValue &v : nest.values)
      for (const Piece &p : v.pieces) {
        if (!p.access || p.access->root != root ||
            static_cast<int64_t>(p.access->indices.size()) <= dim)
          continue;
        AffineExpr index = p.access->indices[dim];
        auto sum = dyn_cast<AffineBinaryOpExpr>(index);
        if (!sum || sum.getKind() != AffineExprKind::Add)
          continue;
        auto loop = dyn_cast<AffineDimExpr>(sum.getLHS());
        auto offset = dyn_cast<AffineConstantExpr>(sum.getRHS());
        if (loop && offset && offset.getValue() > 0)
          offsets.push_back(offset.getValue());
      }
  return offsets;
}

LogicalResult Lowering::allocate() {
  // Scratch at the top of every partition: the rotating slots, and the
  // staging slots when a tensor lives in DRAM; below, the buffers' homes,
  // first fit over their live ranges.
  int64_t capacity =
      machine.sbufPartitionBytes - kSlots * kSlotElements * kElementBytes -
      512 - (staging ? kStagingSlots * kStagingElements * kElementBytes : 0);
  struct Interval {
    int64_t begin, end, last;
  };
  std::vector<Interval> live;
  SmallVector<Root *> order;
  for (auto &[value, root] : roots) {
    if (root.first < 0)
      continue;
    bool loaded = root.role == Role::Weights || root.role == Role::Input;
    root.loadAt =
        loaded ? std::max<int64_t>(0, root.first - kPrefetchNests) : root.first;
    order.push_back(&root);
  }
  llvm::stable_sort(order,
                    [](Root *a, Root *b) { return a->loadAt < b->loadAt; });
  // First fit among the buffers live from `from` on.
  auto place = [&](int64_t from, int64_t size) {
    int64_t at = 0;
    SmallVector<Interval> overlapping;
    for (const Interval &i : live)
      if (i.last >= from)
        overlapping.push_back(i);
    llvm::sort(overlapping, [](const Interval &a, const Interval &b) {
      return a.begin < b.begin;
    });
    for (const Interval &i : overlapping) {
      if (at + size <= i.begin)
        break;
      at = std::max(at, i.end);
    }
    return at;
  };
  for (Root *root : order) {
    int64_t size = llvm::alignTo(root->getPartitionBytes(), 64);
    int64_t at = place(root->loadAt, size);
    if (at + size > capacity && root->loadAt < root->first) {
      // No room that early: load it just before its first use.
      root->loadAt = root->first;
      at = place(root->loadAt, size);
    }
    if (at + size > capacity) {
      // It stays in DRAM. Model inputs and outputs are read and written in
      // place when their mapping's order is their row-major order (nothing
      // outside the partition dimension but size-1 dimensions, one
      // partition tile); otherwise through a copy in the mapping's order.
      const Layout &layout = root->layout;
      bool rowMajor =
          layout.partitionDim < 0 ||
          (llvm::all_of(
               ArrayRef<int64_t>(layout.shape).take_front(layout.partitionDim),
               [](int64_t d) { return d == 1; }) &&
           layout.shape[layout.partitionDim] <= layout.partitionTile);
      root->inDram = true;
      root->relaidInDram =
          (root->role == Role::Input || root->role == Role::Output) &&
          !rowMajor;
      continue;
    }
    root->sbufAddress = at;
    live.push_back({at, at + size, root->last});
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Nests
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerNest(Nest &nest) {
  // An accumulation: the store's value combines the stored element with
  // another value (reductions, contractions, poolings).
  const BodyValue &stored = nest.values[nest.stored];
  if (stored.kind == BodyValue::Kind::Op && stored.operands.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      int acc = stored.operands[side], other = stored.operands[1 - side];
      const BodyValue &accValue = nest.values[acc];
      if (accValue.kind != BodyValue::Kind::Read ||
          accValue.pieces.size() != 1 || !accValue.pieces[0].access)
        continue;
      const Access &read = *accValue.pieces[0].access;
      if (read.root != nest.store.root || read.indices != nest.store.indices)
        continue;
      std::optional<AluOp> alu = getAlu(stored.op);
      if (!alu || !getIdentity(*alu) || (side == 1 && !isCommutative(*alu)))
        return emitNestError(nest)
               << "an accumulation by " << stored.op->getName();
      const BodyValue &otherValue = nest.values[other];
      if (*alu == AluOp::Add && otherValue.kind == BodyValue::Kind::Op &&
          isa<arith::MulFOp>(otherValue.op)) {
        FailureOr<bool> done = lowerContraction(nest, otherValue.operands[0],
                                                otherValue.operands[1]);
        if (failed(done))
          return failure();
        if (*done)
          return success();
      }
      return lowerReduction(nest, acc, other, *alu);
    }
  }
  return lowerElementwise(nest, nest.getFullBox());
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

LogicalResult Lowering::run() {
  if (llvm::Error error = machine.verify())
    return module.emitError("inferentia: ") << llvm::toString(std::move(error));
  if (failed(collectRoots()))
    return failure();
  Block &body = func.getBody().front();
  for (Operation &op : body) {
    if (isa<affine::AffineForOp, affine::AffineStoreOp>(op)) {
      Nest &nest = nests.emplace_back();
      if (failed(parseNest(&op, nest)))
        return failure();
      continue;
    }
    if (isa<memref::AllocOp, memref::DeallocOp, memref::GetGlobalOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::SubViewOp,
            arith::ConstantOp, affine::AffineLoadOp, func::ReturnOp>(op))
      continue;
    // Computations of rank-0 results, part of the store's nest.
    if (op.getNumResults() == 1 &&
        (getAlu(&op) || getFunction(&op) ||
         isa<math::Log1pOp, math::PowFOp, arith::SelectOp>(op)))
      continue;
    return op.emitError("inferentia: ")
           << op.getName() << " outside a loop nest is not supported";
  }
  // Mappings and contraction plans first: whether the tensor engine takes
  // a contraction (and so whether its ReLU can be evacuated into) depends
  // on the operands' partitions.
  if (failed(assignMappings()))
    return failure();
  planContractions();
  planEvacuations();
  // Live ranges and layers.
  for (auto [i, nest] : llvm::enumerate(nests)) {
    auto use = [&](Value root, bool write) {
      Root &r = roots[root];
      if (r.first < 0)
        r.first = i;
      r.last = i;
      if (write)
        r.lastWrite = i;
    };
    // A contraction whose evacuation writes the ReLU's result never
    // needs its own output buffer.
    Value skipped = nest.evacuateTo ? nest.store.root : Value();
    if (!nest.fused) {
      if (nest.evacuateTo)
        use(nest.evacuateTo->root, true);
      else
        use(nest.store.root, true);
      for (const BodyValue &v : nest.values)
        for (const Piece &p : v.pieces)
          if (p.access && p.access->root != skipped)
            use(p.access->root, false);
      if (nest.initialValue && nest.initialValue->access)
        use(nest.initialValue->access->root, false);
    }
    std::string name = getNodeName(nest.root->getLoc());
    std::string opType = getNodeOpType(nest.root->getLoc());
    if (nest.fused && i > 0 && nests[i - 1].evacuateTo) {
      // The ReLU computed by the contraction before it.
      nest.layer = nests[i - 1].layer;
      layerFused[nest.layer].push_back(name);
      continue;
    }
    auto *it = llvm::find_if(layerNames,
                             [&](const auto &l) { return l.first == name; });
    nest.layer = it - layerNames.begin();
    if (it == layerNames.end()) {
      layerFused.emplace_back();
      layerNames.emplace_back(name, opType);
      layerMacs.push_back(0);
      layerReads.push_back(0);
      layerWrites.push_back(0);
      layerCycles.push_back(0);
      layerBusy.emplace_back();
    }
    if (nest.description &&
        (nest.description->kind == NestClass::Convolution ||
         nest.description->kind == NestClass::Contraction)) {
      int64_t macs = 1;
      for (int64_t t : nest.trips)
        macs *= t;
      layerMacs[nest.layer] += macs;
    }
  }
  for (auto &[value, root] : roots)
    if (root.role == Role::Output && root.lastWrite < 0)
      return func.emitError("inferentia: output '")
             << root.name << "' is never written";
  // Weights that stay in DRAM are staged matmul by matmul through small
  // slots, which take room from the homes: place them again with that room
  // set aside.
  if (failed(allocate()))
    return failure();
  if (llvm::any_of(roots, [](const auto &entry) {
        return entry.second.inDram && entry.second.role == Role::Weights;
      })) {
    staging = true;
    for (auto &[value, root] : roots)
      root.inDram = root.relaidInDram = false;
  }
  if (staging && failed(allocate()))
    return failure();

  // The program.
  builder.setInsertionPoint(func);
  program =
      builder.create<ProgramOp>(func.getLoc(), func.getSymName(),
                                builder.getArrayAttr({}), "global", 0, 0, 0, 0);
  program.getBody().emplaceBlock();
  builder.setInsertionPointToStart(&program.getBody().front());
  auto f32 = builder.getF32Type();
  // DRAM: inputs, outputs, then weights (the weights file).
  int64_t address = 0;
  for (Role role : {Role::Input, Role::Output, Role::Weights}) {
    for (auto &[value, root] : roots) {
      if (root.role != role || (role == Role::Weights && root.first < 0))
        continue;
      int64_t elements =
          root.role == Role::Weights
              ? root.layout.getPartitions() * root.layout.getFreeElements()
              : root.type.getNumElements();
      MappingAttr mapping =
          root.role == Role::Weights || (root.inDram && !root.relaidInDram)
              ? root.mapping
              : MappingAttr::get(context, root.mapping.getShape(), -1, 1);
      auto type = BufferType::get(context, "dram", 1, elements, f32, mapping);
      ElementsAttr image;
      if (root.role == Role::Weights) {
        std::string bytes;
        if (failed(appendConstantBytes(root.weights, bytes)))
          return value.getDefiningOp()->emitError(
              "inferentia: cannot read the weights' values");
        const float *data = reinterpret_cast<const float *>(bytes.data());
        std::vector<float> sbufImage(elements, 0.0f);
        int64_t free = root.layout.getFreeElements();
        // Element e (row-major in the tensor) at its place in the mapping:
        // the tensor's index, permuted, linearised, then the mapping's
        // shape's index.
        ArrayRef<int64_t> shape = root.type.getShape();
        SmallVector<int64_t> order(shape.size());
        for (size_t i = 0; i < shape.size(); ++i)
          order[i] = root.layout.permutation.empty()
                         ? static_cast<int64_t>(i)
                         : root.layout.permutation[i];
        SmallVector<int64_t> index(shape.size(), 0),
            mapped(root.layout.shape.size(), 0);
        for (int64_t e = 0; e < root.type.getNumElements(); ++e) {
          int64_t linear = 0;
          for (int64_t d : order)
            linear = linear * shape[d] + index[d];
          for (size_t j = root.layout.shape.size(); j-- > 0;) {
            mapped[j] = linear % root.layout.shape[j];
            linear /= root.layout.shape[j];
          }
          auto [p, f] = root.mapping.locate(mapped);
          sbufImage[p * free + f] = data[e];
          for (int64_t d = shape.size() - 1; d >= 0; --d) {
            if (++index[d] < shape[d])
              break;
            index[d] = 0;
          }
        }
        image = DenseElementsAttr::get(RankedTensorType::get({elements}, f32),
                                       ArrayRef(sbufImage));
      }
      StringRef roleName = role == Role::Input    ? "input"
                           : role == Role::Output ? "output"
                                                  : "weights";
      auto tensor =
          builder.create<DramTensorOp>(func.getLoc(), type, root.name, roleName,
                                       address, image ? image : ElementsAttr());
      root.dram = tensor.getBuffer();
      address += llvm::alignTo(elements * kElementBytes, 64);
    }
  }
  // Spilled intermediates: scratch DRAM in their mapping's order.
  // Inputs and outputs relaid in DRAM: their copy in the mapping's order is
  // their home (`sbuf`).
  for (auto &[value, root] : roots) {
    if (!root.inDram || (root.role != Role::Intermediate && !root.relaidInDram))
      continue;
    int64_t elements =
        root.layout.getPartitions() * root.layout.getFreeElements();
    auto type =
        BufferType::get(context, "dram", 1, elements, f32, root.mapping);
    Value scratch = builder.create<DramTensorOp>(
        func.getLoc(), type, root.name, "scratch", address, ElementsAttr());
    (root.relaidInDram ? root.sbuf : root.dram) = scratch;
    address += llvm::alignTo(elements * kElementBytes, 64);
  }
  dramEnd = address;
  // SBUF: the homes, the scratch slots and the PSUM banks.
  for (auto &[value, root] : roots) {
    if (root.first < 0)
      continue;
    if (root.inDram) {
      if (!root.relaidInDram)
        root.sbuf = root.dram;
      // A relaid copy is DRAM traffic beyond the tensor's own, like a
      // spill (its transfers from or to the row-major tensor too).
      dramHomes[root.sbuf] =
          root.role == Role::Intermediate || root.relaidInDram ? Cause::Spill
          : root.role == Role::Output                          ? Cause::Store
                                                               : Cause::Load;
      continue;
    }
    auto type =
        BufferType::get(context, "sbuf", root.layout.getPartitions(),
                        root.layout.getFreeElements(), f32, root.mapping);
    root.sbuf = builder.create<AllocOp>(func.getLoc(), type, root.sbufAddress);
  }
  int64_t slotBase =
      machine.sbufPartitionBytes - kSlots * kSlotElements * kElementBytes;
  for (int64_t s = 0; s < kSlots; ++s) {
    auto mapping = MappingAttr::get(
        context, {machine.partitions, kSlotElements}, 0, machine.partitions);
    auto type = BufferType::get(context, "sbuf", machine.partitions,
                                kSlotElements, f32, mapping);
    slots.push_back(builder.create<AllocOp>(
        func.getLoc(), type, slotBase + s * kSlotElements * kElementBytes));
  }
  for (int64_t b = 0; b < machine.getPsumBanks(); ++b) {
    int64_t elements = machine.getPsumBankElements();
    auto mapping = MappingAttr::get(context, {machine.partitions, elements}, 0,
                                    machine.partitions);
    auto type = BufferType::get(context, "psum", machine.partitions, elements,
                                f32, mapping);
    psumBanks.push_back(builder.create<AllocOp>(func.getLoc(), type,
                                                b * machine.psumBankBytes));
  }

  // Ones in every partition, for broadcasts across partitions.
  {
    auto mapping =
        MappingAttr::get(context, {machine.partitions, machine.partitions}, 0,
                         machine.partitions);
    auto type = BufferType::get(context, "sbuf", machine.partitions,
                                machine.partitions, f32, mapping);
    ones = builder.create<AllocOp>(func.getLoc(), type, slotBase - 512);
    auto stagingMapping = MappingAttr::get(
        context, {machine.partitions, kStagingElements}, 0, machine.partitions);
    auto stagingType = BufferType::get(context, "sbuf", machine.partitions,
                                       kStagingElements, f32, stagingMapping);
    for (int64_t i = 0; staging && i < kStagingSlots; ++i)
      stagingSlots.push_back(builder.create<AllocOp>(
          func.getLoc(), stagingType,
          slotBase - 512 - (i + 1) * kStagingElements * kElementBytes));
    emit(MemsetOp::getOperationName(),
         {ones, getAp(0, machine.partitions, 0, 0, {{1, machine.partitions}})},
         {}, {builder.getNamedAttr("imm0", builder.getF32FloatAttr(1))},
         Engine::Vector);
  }

  // The instructions.
  for (auto [i, nest] : llvm::enumerate(nests)) {
    currentLayer = nest.layer;
    currentLoc = nest.root->getLoc();
    for (auto &[value, root] : roots)
      if (root.loadAt == static_cast<int64_t>(i) &&
          (!root.inDram || root.relaidInDram) &&
          (root.role == Role::Input || root.role == Role::Weights)) {
        // A load ahead of time belongs to the layer that uses it.
        currentLayer = nests[root.first].layer;
        transferRoot(root);
        currentLayer = nest.layer;
      }
    if (nest.fused)
      continue;
    if (failed(lowerNest(nest)))
      return failure();
    if (numInstructions > kMaxInstructions)
      return emitNestError(nest)
             << "needs more than " << kMaxInstructions << " instructions";
    for (auto &[value, root] : roots)
      if (root.role == Role::Output && (!root.inDram || root.relaidInDram) &&
          root.lastWrite == static_cast<int64_t>(i))
        transferRoot(root);
  }

  // The header: layers and the elimination's counts.
  for (auto [cycles, busy] : llvm::zip(layerCycles, layerBusy)) {
    double seconds = 0;
    for (auto [lane, s] : busy)
      seconds = std::max(seconds, s);
    cycles = static_cast<int64_t>(std::ceil(seconds * machine.tensorClockHz));
  }
  SmallVector<Attribute> layers;
  for (auto [i, names] : llvm::enumerate(layerNames))
    layers.push_back(LayerAttr::get(
        context, builder.getStringAttr(names.first),
        builder.getStringAttr(names.second),
        builder.getStrArrayAttr(
            SmallVector<StringRef>(layerFused[i].begin(), layerFused[i].end())),
        layerMacs[i], layerCycles[i], layerReads[i], layerWrites[i]));
  program.setLayersAttr(builder.getArrayAttr(layers));
  if (auto banks = func->getAttrOfType<DictionaryAttr>("dlc.bank_layout"))
    if (auto mode = banks.getAs<StringAttr>("mode"))
      program.setLayoutMode(mode.getValue());
  int64_t removed = 0, removedBytes = 0, kept = 0;
  if (auto eliminated = func->getAttrOfType<ArrayAttr>("dlc.eliminated_copies"))
    for (auto copy : eliminated.getAsRange<DictionaryAttr>()) {
      ++removed;
      if (auto bytes = copy.getAs<IntegerAttr>("bytes"))
        removedBytes += bytes.getInt();
    }
  for (Nest &nest : nests)
    if (nest.description && nest.description->kind == NestClass::Copy &&
        !nest.relayout)
      ++kept;
  program.setLoadStorePairsRemoved(removed);
  program.setLoadStorePairsTotal(removed + kept);
  program.setIntermediateBytesRemoved(removedBytes);
  int64_t intermediates = 0;
  for (auto &[value, root] : roots)
    if (root.role == Role::Intermediate)
      intermediates += root.type.getNumElements() * kElementBytes;
  program.setIntermediateBytesTotal(removedBytes + intermediates);

  // The function and its globals (weights, and constants that became
  // immediates) are now the program.
  func.erase();
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
  return success();
}

namespace {
struct LowerToInferentiaPass
    : public dlc::inferentia::impl::LowerToInferentiaBase<
          LowerToInferentiaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = getEntryFunction(module);
    if (!func) {
      module.emitError("inferentia: the module has no entry function");
      return signalPassFailure();
    }
    Lowering lowering(module, func);
    if (failed(lowering.run()))
      signalPassFailure();
  }
};
} // namespace
