//===- LowerInstructions.cpp - emitting instructions ----------------------===//
//
// One instruction into the program: operands staged from DRAM, moved to
// the lanes the engines need, dependencies on the bytes earlier
// instructions touch; DMAs of whole buffers; the compiler's cost estimate.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;
using namespace dlc::inferentia::detail;

AccessPatternAttr Lowering::getAp(int64_t start, int64_t partitions,
                                  int64_t partitionStride, int64_t offset,
                                  ArrayRef<std::pair<int64_t, int64_t>> dims) {
  SmallVector<int64_t> strides, sizes;
  for (auto [stride, size] : dims) {
    if (size == 1)
      continue;
    // An inner dimension that continues the outer one's run merges into it:
    // the elements come in the same order.
    if (!sizes.empty() && strides.back() == stride * size) {
      strides.back() = stride;
      sizes.back() *= size;
      continue;
    }
    strides.push_back(stride);
    sizes.push_back(size);
  }
  if (strides.empty()) {
    strides.push_back(1);
    sizes.push_back(1);
  }
  return AccessPatternAttr::get(context, start, partitions, partitionStride,
                                offset, strides, sizes);
}

AccessPatternAttr Lowering::toAp(const BoxOperand &operand, int64_t partitions,
                                 const Box &box, ArrayRef<unsigned> order) {
  SmallVector<std::pair<int64_t, int64_t>> dims;
  for (unsigned l : order)
    dims.emplace_back(operand.pattern.freeStrides[l], box.getSize(l));
  return getAp(operand.pattern.partitionStart, partitions, 0,
               operand.pattern.freeOffset, dims);
}

Value Lowering::emit(StringRef opName, Operand dst, ArrayRef<Operand> srcs,
                     ArrayRef<NamedAttribute> attrs, Engine engine,
                     std::optional<Cause> cause) {
  // Operands that live in DRAM in their mapping's order: a DMA reads or
  // writes them in place; a compute engine works on a staged copy.
  auto inDram = [&](const Operand &o) { return dramHomes.count(o.buffer); };
  auto toDram = [&](const Operand &o) {
    auto mapping = cast<BufferType>(o.buffer.getType()).getMapping();
    int64_t free = mapping.getFreeElements();
    return Operand{o.buffer, AccessPatternAttr::get(
                                 context, 0, o.ap.getPartitions(), free,
                                 o.ap.getStart() * free + o.ap.getOffset(),
                                 o.ap.getStrides(), o.ap.getSizes())};
  };
  if (engine == Engine::Dma && (inDram(dst) || llvm::any_of(srcs, inDram))) {
    // Off chip: why the DRAM tensor moves (a load of an input or weights,
    // a store of an output, a spill), whatever the on-chip side is for.
    std::optional<Cause> offChip = cause;
    SmallVector<Operand> sources;
    for (const Operand &src : srcs) {
      if (inDram(src))
        offChip = dramHomes.lookup(src.buffer);
      sources.push_back(inDram(src) ? toDram(src) : src);
    }
    if (inDram(dst))
      offChip = dramHomes.lookup(dst.buffer);
    return emitRaw(opName, inDram(dst) ? toDram(dst) : dst, sources, attrs,
                   engine, offChip);
  }
  if (engine != Engine::Dma && (inDram(dst) || llvm::any_of(srcs, inDram))) {
    SmallVector<Operand> sources;
    for (const Operand &src : srcs) {
      if (!inDram(src)) {
        sources.push_back(src);
        continue;
      }
      Operand staged =
          realign(src, src.ap.getStart(), /*copy=*/false,
                  /*small=*/src.ap.getFreeElements() <= kStagingElements);
      emitRaw(DmaCopyOp::getOperationName(), staged, {toDram(src)}, {},
              Engine::Dma, dramHomes.lookup(src.buffer));
      sources.push_back(staged);
    }
    if (!inDram(dst))
      return emit(opName, dst, sources, attrs, engine, cause);
    Operand result = realign(dst, dst.ap.getStart(), /*copy=*/false);
    Value token = emit(opName, result, sources, attrs, engine, cause);
    emitRaw(DmaCopyOp::getOperationName(), toDram(dst), {result}, {},
            Engine::Dma, dramHomes.lookup(dst.buffer));
    return token;
  }
  // Compute engines work lane by lane: every operand on the same
  // partitions, starting where the engines can start. Operands elsewhere
  // move there by DMA first; a destination elsewhere gets the result by
  // DMA after.
  if (engine != Engine::Dma) {
    bool lanes = opName != MatmulOp::getOperationName() &&
                 opName != inferentia::TransposeOp::getOperationName();
    auto legal = [&](const Operand &o) {
      return checkPartitionRange(machine, o.ap.getStart(), o.ap.getPartitions())
          .empty();
    };
    SmallVector<Operand> sources(srcs);
    bool moved = false;
    if (lanes) {
      if (!legal(dst)) {
        Operand result = realign(dst, 0, /*copy=*/false);
        for (Operand &src : sources)
          if (src.ap.getPartitions() == dst.ap.getPartitions())
            src = src.ap.getStart() == 0 ? src : realign(src, 0);
        Value token = emit(opName, result, sources, attrs, engine, cause);
        emitDma(dst, result, Cause::Relayout);
        return token;
      }
      for (Operand &src : sources)
        if (src.ap.getStart() != dst.ap.getStart() &&
            src.ap.getPartitions() == dst.ap.getPartitions())
          src = realign(src, dst.ap.getStart()), moved = true;
    } else {
      // The contraction's operands share their partitions.
      int64_t start = sources[0].ap.getStart();
      if (!legal(sources[0]))
        start = 0;
      for (Operand &src : sources)
        if (src.ap.getStart() != start || !legal(src))
          src = realign(src, start), moved = true;
    }
    if (moved)
      return emit(opName, dst, sources, attrs, engine, cause);
  }
  return emitRaw(opName, dst, srcs, attrs, engine, cause);
}

Value Lowering::emitRaw(StringRef opName, Operand dst, ArrayRef<Operand> srcs,
                        ArrayRef<NamedAttribute> attrs, Engine engine,
                        std::optional<Cause> cause) {
  // Past the budget nothing more is emitted (run() reports the nest), so
  // that the dependency tracking does not grow without bound first.
  if (++numInstructions > kMaxInstructions && lastToken)
    return lastToken;
  int lane = static_cast<int>(engine);
  int64_t queue = 0;
  if (engine == Engine::Dma) {
    queue = nextQueue++ % machine.dmaQueues;
    lane = 8 + static_cast<int>(queue);
  }
  llvm::SetVector<Value> deps;
  Region dstRegion = getRegion(dst.buffer, dst.ap);
  tracker.collect(dst.buffer, dstRegion, /*write=*/true, lane, deps);
  SmallVector<Region> srcRegions;
  for (const Operand &src : srcs) {
    srcRegions.push_back(getRegion(src.buffer, src.ap));
    tracker.collect(src.buffer, srcRegions.back(), /*write=*/false, lane, deps);
  }
  OperationState state(currentLoc ? *currentLoc : builder.getUnknownLoc(),
                       opName);
  state.addOperands(dst.buffer);
  SmallVector<Attribute> srcAps;
  for (const Operand &src : srcs) {
    state.addOperands(src.buffer);
    srcAps.push_back(src.ap);
  }
  state.addOperands(deps.getArrayRef());
  state.addAttribute("dst_ap", dst.ap);
  state.addAttribute("src_aps", builder.getArrayAttr(srcAps));
  state.addAttribute("engine", builder.getStringAttr(getName(engine)));
  state.addAttribute("layer", builder.getI64IntegerAttr(currentLayer));
  state.addAttribute(
      "operandSegmentSizes",
      builder.getDenseI32ArrayAttr({1, static_cast<int32_t>(srcs.size()),
                                    static_cast<int32_t>(deps.size())}));
  if (engine == Engine::Dma)
    state.addAttribute("queue", builder.getI64IntegerAttr(queue));
  if (cause)
    state.addAttribute("cause", builder.getStringAttr(getName(*cause)));
  for (NamedAttribute attr : attrs)
    state.addAttribute(attr.getName(), attr.getValue());
  state.addTypes(TokenType::get(context));
  Operation *op = builder.create(state);
  Value token = op->getResult(0);
  lastToken = token;
  for (auto [src, region] : llvm::zip(srcs, srcRegions))
    tracker.record(src.buffer, region, /*write=*/false, lane, token);
  tracker.record(dst.buffer, dstRegion, /*write=*/true, lane, token);
  // The compiler's account of DRAM traffic per layer.
  if (currentLayer >= 0) {
    auto bytesOf = [&](const Operand &o) {
      auto type = cast<BufferType>(o.buffer.getType());
      return o.ap.getPartitions() * o.ap.getFreeElements() *
             type.getElementBytes();
    };
    if (cast<BufferType>(dst.buffer.getType()).getMemory() == "dram")
      layerWrites[currentLayer] += bytesOf(dst);
    for (const Operand &src : srcs)
      if (cast<BufferType>(src.buffer.getType()).getMemory() == "dram")
        layerReads[currentLayer] += bytesOf(src);
    layerBusy[currentLayer]
             [lane < 8 ? lane : 8 + (lane - 8) % machine.dmaQueues] +=
        estimateSeconds(opName, dst, srcs, engine);
  }
  return token;
}

double Lowering::estimateSeconds(StringRef opName, const Operand &dst,
                                 ArrayRef<Operand> srcs, Engine engine) const {
  // The compiler's own estimate (not the simulator's rules): what the
  // public NKI cost figures give per instruction, without waits.
  int64_t n = dst.ap.getFreeElements();
  switch (engine) {
  case Engine::Tensor: {
    // A transpose is a matmul of its source (K = P, M = F) with the
    // identity (N = P).
    bool transpose = opName == inferentia::TransposeOp::getOperationName();
    int64_t m = srcs[0].ap.getFreeElements();
    int64_t moving =
        transpose ? srcs[0].ap.getPartitions() : srcs[1].ap.getFreeElements();
    double cycles = std::max(std::min(machine.matmulMinCycles, m), moving);
    if (!machine.bf16Matmul)
      cycles *= machine.fp32MatmulFactor;
    return cycles / machine.tensorClockHz;
  }
  case Engine::Dma: {
    auto type = cast<BufferType>(dst.buffer.getType());
    return estimateDmaSeconds(dst.ap.getPartitions() *
                              dst.ap.getFreeElements() *
                              type.getElementBytes());
  }
  default: {
    double cycles = std::max<int64_t>(machine.engineMinCycles, n);
    if (opName == TensorTensorOp::getOperationName())
      cycles = 2.0 * n;
    else if (opName == TensorReduceOp::getOperationName())
      cycles = std::max<int64_t>(machine.engineMinCycles,
                                 srcs[0].ap.getFreeElements());
    double clock = engine == Engine::Scalar   ? machine.scalarClockHz
                   : engine == Engine::GpSimd ? machine.gpsimdClockHz
                                              : machine.vectorClockHz;
    return cycles / clock;
  }
  }
}

double Lowering::estimateDmaSeconds(int64_t bytes) const {
  return machine.dmaFixedSeconds +
         static_cast<double>(bytes) / machine.dmaQueueBytesPerSecond;
}

Value Lowering::emitDma(Operand dst, Operand src, Cause cause) {
  return emit(DmaCopyOp::getOperationName(), dst, {src}, {}, Engine::Dma,
              cause);
}

void Lowering::transferRoot(Root &root) {
  const Layout &layout = root.layout;
  int64_t free = layout.getFreeElements();
  if (root.role == Role::Weights) {
    // Weights lie in DRAM as the SBUF image: one run per partition.
    emitSplitDma(
        {root.sbuf, getAp(0, layout.getPartitions(), 0, 0, {{1, free}})},
        {root.dram, getAp(0, layout.getPartitions(), free, 0, {{1, free}})},
        Cause::Load);
    return;
  }
  // Inputs are row-major in DRAM: per partition tile, the partition
  // dimension steps partitions, the dimensions outside it one stride and
  // those inside it one contiguous run.
  ArrayRef<int64_t> shape = layout.shape;
  int64_t pd = layout.partitionDim;
  int64_t inner = 1, outer = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    (d < pd ? outer : (d > pd ? inner : inner)) *= d == pd ? 1 : shape[d];
  int64_t pdSize = shape[pd];
  int64_t tileStride = layout.getTileStride();
  for (int64_t t = 0; t * layout.partitionTile < pdSize; ++t) {
    int64_t count =
        std::min(layout.partitionTile, pdSize - t * layout.partitionTile);
    SmallVector<std::pair<int64_t, int64_t>> dramDims;
    if (outer > 1)
      dramDims.emplace_back(pdSize * inner, outer);
    dramDims.emplace_back(1, inner);
    Operand sbuf{root.sbuf,
                 getAp(0, count, 0, t * tileStride, {{1, tileStride}})};
    Operand dram{root.dram, getAp(0, count, inner,
                                  t * layout.partitionTile * inner, dramDims)};
    if (root.role == Role::Output)
      emitSplitDma(dram, sbuf, Cause::Store);
    else
      emitSplitDma(sbuf, dram, Cause::Load);
  }
}

void Lowering::emitSplitDma(Operand dst, Operand src, Cause cause) {
  // Large transfers spread over the queues by partitions, each piece still
  // large enough that its fixed cost does not matter (kSplitBytes).
  constexpr int64_t kSplitBytes = 64 * 1024;
  int64_t partitions = dst.ap.getPartitions();
  int64_t bytes = partitions * dst.ap.getFreeElements() * kElementBytes;
  int64_t pieces = std::clamp<int64_t>(bytes / kSplitBytes, 1,
                                       std::min(machine.dmaQueues, partitions));
  int64_t per = llvm::divideCeil(partitions, pieces);
  auto part = [&](const Operand &o, int64_t first, int64_t count) {
    // A buffer living in DRAM in its mapping's order (dramHomes) is
    // addressed by partitions like SBUF until emit() places it.
    bool dram = cast<BufferType>(o.buffer.getType()).getMemory() == "dram" &&
                !dramHomes.count(o.buffer);
    return Operand{
        o.buffer,
        AccessPatternAttr::get(
            context, dram ? 0 : o.ap.getStart() + first, count,
            o.ap.getPartitionStride(),
            o.ap.getOffset() + (dram ? first * o.ap.getPartitionStride() : 0),
            o.ap.getStrides(), o.ap.getSizes())};
  };
  for (int64_t first = 0; first < partitions; first += per) {
    int64_t count = std::min(per, partitions - first);
    emitDma(part(dst, first, count), part(src, first, count), cause);
  }
}

Operand Lowering::realign(Operand operand, int64_t start, bool copy,
                          bool small) {
  // The same dimensions, dense: instructions that count dimensions
  // (tensor_reduce) read the slot as they would have read the operand.
  ArrayRef<int64_t> sizes = operand.ap.getSizes();
  SmallVector<int64_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * sizes[d];
  Value buffer = small && !stagingSlots.empty()
                     ? stagingSlots[nextStagingIndex++ % stagingSlots.size()]
                     : nextSlot();
  Operand slot{buffer, AccessPatternAttr::get(context, start,
                                              operand.ap.getPartitions(), 0, 0,
                                              strides, sizes)};
  if (copy)
    emitDma(slot, operand, Cause::Relayout);
  return slot;
}
