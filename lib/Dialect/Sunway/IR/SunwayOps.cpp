//===- SunwayOps.cpp - the SW26010 core-group dialect ---------------------===//

#include "dlc/Dialect/Sunway/IR/SunwayOps.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Dialect/Sunway/IR/SunwayHardware.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::sunway;

#include "dlc/Dialect/Sunway/IR/SunwayEnums.cpp.inc"
#include "dlc/Dialect/Sunway/IR/SunwayOpsDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/Sunway/IR/SunwayAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "dlc/Dialect/Sunway/IR/SunwayOps.cpp.inc"

void SunwayDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dlc/Dialect/Sunway/IR/SunwayOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dlc/Dialect/Sunway/IR/SunwayAttrs.cpp.inc"
      >();
}

LogicalResult SunwayDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool onModule = isa<ModuleOp>(op);
  bool isString = isa<StringAttr>(attr.getValue());
  bool isInteger = isa<IntegerAttr>(attr.getValue());
  if (name == KernelAttrHelper::getNameStr()) {
    if (onModule || !isString)
      return op->emitOpError()
             << "'" << name << "' must be a string on a kernel function";
  } else if (name == LdmBytesAttrHelper::getNameStr() ||
             name == WeightsOffsetAttrHelper::getNameStr()) {
    if (onModule || !isInteger)
      return op->emitOpError()
             << "'" << name << "' must be an integer on an operation";
  } else if (name == PlacementAttrHelper::getNameStr()) {
    if (!isa<LaunchOp>(op) || !isString)
      return op->emitOpError()
             << "'" << name << "' must be a string on a sunway.launch";
  } else if (name == WeightsBytesAttrHelper::getNameStr()) {
    if (!onModule || !isInteger)
      return op->emitOpError()
             << "'" << name << "' must be an integer on the module";
  } else {
    return op->emitOpError() << "unknown attribute '" << name << "'";
  }
  return success();
}

bool dlc::sunway::isLDM(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && isa_and_nonnull<LDMAttr>(memref.getMemorySpace());
}

MemRefType dlc::sunway::getLDMType(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout(), LDMAttr::get(type.getContext()));
}

//===----------------------------------------------------------------------===//
// SunwayHardware
//===----------------------------------------------------------------------===//

SunwayHardware SunwayHardware::get(HardwareAttr hardware) {
  SunwayHardware hw;
  if (!hardware)
    return hw;
  hw.cpes = hardware.getTargetInt("cpes", hw.cpes);
  hw.meshRows = hardware.getTargetInt("mesh_rows", hw.meshRows);
  hw.meshCols = hardware.getTargetInt("mesh_cols", hw.meshCols);
  hw.clockHz = hardware.getTargetFloat("clock_hz", hw.clockHz);
  hw.ldmBytes = hardware.getTargetInt("ldm_bytes", hw.ldmBytes);
  hw.stackReserveBytes =
      hardware.getTargetInt("stack_reserve_bytes", hw.stackReserveBytes);
  hw.simdAlignBytes =
      hardware.getTargetInt("simd_align_bytes", hw.simdAlignBytes);
  hw.vectorLanes = hardware.getTargetInt("vector_lanes", hw.vectorLanes);
  hw.maxDmaBytes = hardware.getTargetInt("max_dma_bytes", hw.maxDmaBytes);
  hw.dmaAlignmentBytes =
      hardware.getTargetInt("dma_alignment_bytes", hw.dmaAlignmentBytes);
  SmallVector<double> blocks = hardware.getTargetArray("dma_curve_block_bytes");
  SmallVector<double> rates =
      hardware.getTargetArray("dma_curve_bytes_per_second");
  if (!blocks.empty())
    hw.dmaCurveBlockBytes = blocks;
  if (!rates.empty())
    hw.dmaCurveBytesPerSecond = rates;
  hw.spawnOverheadCycles =
      hardware.getTargetFloat("spawn_overhead_cycles", hw.spawnOverheadCycles);
  hw.barrierCycles =
      hardware.getTargetFloat("barrier_cycles", hw.barrierCycles);
  hw.regcommLatencyCycles = hardware.getTargetFloat("regcomm_latency_cycles",
                                                    hw.regcommLatencyCycles);
  hw.regcommFifoDepth =
      hardware.getTargetInt("regcomm_fifo_depth", hw.regcommFifoDepth);
  hw.divideCycles = hardware.getTargetFloat("divide_cycles", hw.divideCycles);
  hw.mainMemoryAccessCycles = hardware.getTargetFloat(
      "main_memory_access_cycles", hw.mainMemoryAccessCycles);
  return hw;
}

SunwayHardware SunwayHardware::get(Operation *op) {
  return get(HardwareAttr::lookup(op));
}

DictionaryAttr SunwayHardware::toTargetDictionary(MLIRContext *context) const {
  Builder b(context);
  auto array = [&](ArrayRef<double> values) {
    SmallVector<Attribute> elements;
    for (double value : values)
      elements.push_back(b.getF64FloatAttr(value));
    return b.getArrayAttr(elements);
  };
  return b.getDictionaryAttr({
      b.getNamedAttr("cpes", b.getI64IntegerAttr(cpes)),
      b.getNamedAttr("mesh_rows", b.getI64IntegerAttr(meshRows)),
      b.getNamedAttr("mesh_cols", b.getI64IntegerAttr(meshCols)),
      b.getNamedAttr("clock_hz", b.getF64FloatAttr(clockHz)),
      b.getNamedAttr("ldm_bytes", b.getI64IntegerAttr(ldmBytes)),
      b.getNamedAttr("stack_reserve_bytes",
                     b.getI64IntegerAttr(stackReserveBytes)),
      b.getNamedAttr("simd_align_bytes", b.getI64IntegerAttr(simdAlignBytes)),
      b.getNamedAttr("vector_lanes", b.getI64IntegerAttr(vectorLanes)),
      b.getNamedAttr("max_dma_bytes", b.getI64IntegerAttr(maxDmaBytes)),
      b.getNamedAttr("dma_alignment_bytes",
                     b.getI64IntegerAttr(dmaAlignmentBytes)),
      b.getNamedAttr("dma_curve_block_bytes", array(dmaCurveBlockBytes)),
      b.getNamedAttr("dma_curve_bytes_per_second",
                     array(dmaCurveBytesPerSecond)),
      b.getNamedAttr("spawn_overhead_cycles",
                     b.getF64FloatAttr(spawnOverheadCycles)),
      b.getNamedAttr("barrier_cycles", b.getF64FloatAttr(barrierCycles)),
      b.getNamedAttr("regcomm_latency_cycles",
                     b.getF64FloatAttr(regcommLatencyCycles)),
      b.getNamedAttr("regcomm_fifo_depth",
                     b.getI64IntegerAttr(regcommFifoDepth)),
      b.getNamedAttr("divide_cycles", b.getF64FloatAttr(divideCycles)),
      b.getNamedAttr("main_memory_access_cycles",
                     b.getF64FloatAttr(mainMemoryAccessCycles)),
  });
}

LogicalResult
SunwayHardware::verify(function_ref<InFlightDiagnostic()> emitError) const {
  if (meshRows < 1 || meshCols < 1 || cpes != meshRows * meshCols)
    return emitError() << "sunway: cpes (" << cpes
                       << ") must be mesh_rows x mesh_cols (" << meshRows
                       << " x " << meshCols << ")";
  if (!(clockHz > 0))
    return emitError() << "sunway: clock_hz must be positive";
  if (simdAlignBytes < 1 || !llvm::isPowerOf2_64(simdAlignBytes))
    return emitError() << "sunway: simd_align_bytes must be a power of two, "
                          "got "
                       << simdAlignBytes;
  if (stackReserveBytes < 0 || ldmBytes <= stackReserveBytes)
    return emitError() << "sunway: ldm_bytes (" << ldmBytes
                       << ") must exceed stack_reserve_bytes ("
                       << stackReserveBytes << ")";
  if (vectorLanes < 1)
    return emitError() << "sunway: vector_lanes must be positive";
  if (dmaCurveBlockBytes.empty() ||
      dmaCurveBlockBytes.size() != dmaCurveBytesPerSecond.size())
    return emitError() << "sunway: dma_curve_block_bytes and "
                          "dma_curve_bytes_per_second must have the same, "
                          "non-zero number of points";
  for (size_t i = 0; i < dmaCurveBlockBytes.size(); ++i) {
    if (!(dmaCurveBytesPerSecond[i] > 0) || !(dmaCurveBlockBytes[i] > 0) ||
        (i > 0 && dmaCurveBlockBytes[i] <= dmaCurveBlockBytes[i - 1]))
      return emitError() << "sunway: the DMA curve needs increasing block "
                            "sizes and positive bandwidths";
  }
  if (dmaAlignmentBytes < 1)
    return emitError() << "sunway: dma_alignment_bytes must be positive";
  if (regcommFifoDepth < 1)
    return emitError() << "sunway: regcomm_fifo_depth must be positive";
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  Block &body = getBody().front();
  unsigned expected = kNumIdArguments + getBuffers().size();
  if (body.getNumArguments() != expected)
    return emitOpError("expects ")
           << expected << " block arguments (id, row, column, then one per "
           << "buffer), got " << body.getNumArguments();
  for (unsigned i = 0; i < kNumIdArguments; ++i)
    if (!body.getArgument(i).getType().isIndex())
      return emitOpError("block argument ") << i << " must be an index";
  for (auto [i, buffer] : llvm::enumerate(getBuffers())) {
    if (getBufferArgument(i).getType() != buffer.getType())
      return emitOpError("block argument ")
             << kNumIdArguments + i << " must have the type of buffer " << i
             << ", " << buffer.getType();
    if (isLDM(buffer.getType()))
      return emitOpError("buffer ")
             << i << " is in LDM: a kernel's arguments live in main memory";
  }
  SunwayHardware hw = SunwayHardware::get(*this);
  if (getLdmBytes() < 0 || getLdmBytes() > hw.getBufferBytes())
    return emitOpError("uses ")
           << getLdmBytes() << " bytes of LDM per CPE, more than the "
           << hw.getBufferBytes() << " bytes left to buffers (ldm_bytes "
           << hw.ldmBytes << " minus stack_reserve_bytes "
           << hw.stackReserveBytes << ")";
  return success();
}

int64_t LDMAllocOp::getBytes() {
  MemRefType type = getBuffer().getType();
  int64_t bits = type.getElementTypeBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

LogicalResult LDMAllocOp::verify() {
  MemRefType type = getBuffer().getType();
  if (!isLDM(type))
    return emitOpError("result must be in #sunway.ldm, got ") << type;
  if (!type.getLayout().isIdentity())
    return emitOpError("result must have the identity layout, got ") << type;
  if (!type.getElementType().isIntOrIndexOrFloat() ||
      type.getElementType().isIndex())
    return emitOpError("element type must be an integer or a float, got ")
           << type.getElementType();
  SunwayHardware hw = SunwayHardware::get(*this);
  int64_t offset = getOffset();
  if (offset < 0 || offset % hw.simdAlignBytes != 0)
    return emitOpError("offset ")
           << offset << " must be a non-negative multiple of "
           << hw.simdAlignBytes << " (simd_align_bytes)";
  int64_t end = offset + getBytes();
  if (end > hw.getBufferBytes())
    return emitOpError("ends at LDM byte ")
           << end << ", beyond the " << hw.getBufferBytes()
           << " bytes left to buffers (ldm_bytes " << hw.ldmBytes
           << " minus stack_reserve_bytes " << hw.stackReserveBytes << ")";
  auto launch = (*this)->getParentOfType<LaunchOp>();
  if (!launch)
    return emitOpError("must be inside a sunway.launch: only CPEs have LDM");
  if (end > launch.getLdmBytes())
    return emitOpError("ends at LDM byte ")
           << end << ", beyond the kernel's ldm_bytes (" << launch.getLdmBytes()
           << ")";
  return success();
}

/// The constant value of `value`, if it has one.
static std::optional<int64_t> getConstant(Value value) {
  if (!value)
    return std::nullopt;
  APInt constant;
  if (auto op = value.getDefiningOp<arith::ConstantIndexOp>())
    return op.value();
  return std::nullopt;
}

template <typename DMAOp>
static LogicalResult verifyDMA(DMAOp op, Value main, Value ldm) {
  auto mainType = cast<MemRefType>(main.getType());
  auto ldmType = cast<MemRefType>(ldm.getType());
  if (isLDM(mainType))
    return op.emitOpError("main-memory side must not be in LDM, got ")
           << mainType;
  if (!isLDM(ldmType))
    return op.emitOpError("LDM side must be in #sunway.ldm, got ") << ldmType;
  if (mainType.getElementType() != ldmType.getElementType())
    return op.emitOpError("moves ")
           << mainType.getElementType() << " into " << ldmType.getElementType();
  if (op.getSrcIndices().size() !=
          static_cast<size_t>(
              cast<MemRefType>(op.getSrc().getType()).getRank()) ||
      op.getDstIndices().size() !=
          static_cast<size_t>(
              cast<MemRefType>(op.getDst().getType()).getRank()))
    return op.emitOpError("needs one index per dimension of each buffer");
  auto replyType = cast<MemRefType>(op.getReply().getType());
  if (!isLDM(replyType) || replyType.getRank() != 1 ||
      !replyType.getElementType().isInteger(32))
    return op.emitOpError("reply must be a memref<Nxi32, #sunway.ldm>, got ")
           << replyType;
  if (!op->template getParentOfType<LaunchOp>())
    return op.emitOpError("must be inside a sunway.launch: only CPEs have DMA");

  SunwayHardware hw = SunwayHardware::get(op);
  int64_t elementBytes = op.getElementBytes();
  std::optional<int64_t> elements = getConstant(op.getElements());
  std::optional<int64_t> block = getConstant(op.getBlockElements());
  std::optional<int64_t> stride = getConstant(op.getStrideElements());
  if (elements && (*elements < 1 || *elements * elementBytes > hw.maxDmaBytes))
    return op.emitOpError("length of ")
           << *elements << " elements is outside 1 to " << hw.maxDmaBytes
           << " bytes";
  if (block && (*block < 1 || (elements && *block > *elements)))
    return op.emitOpError("block of ")
           << *block << " elements must be positive and at most the length";
  if (block && elements && *elements % *block != 0)
    return op.emitOpError("length of ")
           << *elements << " elements is not a whole number of blocks of "
           << *block;
  if (stride && block && *stride < *block)
    return op.emitOpError("stride of ")
           << *stride << " elements is shorter than the block of " << *block
           << ": blocks would overlap";
  // The DMA engine moves whole words: every length it is given is a
  // multiple of dma_alignment_bytes.
  int64_t align = hw.dmaAlignmentBytes;
  for (auto [what, count] :
       {std::pair<const char *, std::optional<int64_t>>{"length", elements},
        {"block", block},
        {"stride", stride}})
    if (count && (*count * elementBytes) % align != 0)
      return op.emitOpError()
             << what << " of " << *count << " x " << elementBytes
             << " bytes is not a multiple of the " << align
             << "-byte DMA granularity (dma_alignment_bytes)";
  if (!elements && elementBytes % align != 0)
    return op.emitOpError()
           << "moves " << elementBytes << "-byte elements in a number only "
           << "known at run time: it may not be a multiple of the " << align
           << "-byte DMA granularity (dma_alignment_bytes)";
  if (stride && (*stride * elementBytes > hw.maxDmaBytes))
    return op.emitOpError("stride of ")
           << *stride << " elements exceeds " << hw.maxDmaBytes << " bytes";
  return success();
}

#define DEFINE_DMA(Op)                                                         \
  int64_t Op::getElementBytes() {                                              \
    Type element = cast<MemRefType>(getSrc().getType()).getElementType();      \
    return std::max<int64_t>(element.getIntOrFloatBitWidth() / 8, 1);          \
  }                                                                            \
  LogicalResult Op::verify() {                                                 \
    return verifyDMA(*this, getMainMemRef(), getLDMMemRef());                  \
  }
DEFINE_DMA(DMAGetOp)
DEFINE_DMA(DMAPutOp)
#undef DEFINE_DMA

LogicalResult WaitReplyOp::verify() {
  auto replyType = cast<MemRefType>(getReply().getType());
  if (!isLDM(replyType) || replyType.getRank() != 1 ||
      !replyType.getElementType().isInteger(32))
    return emitOpError("reply must be a memref<Nxi32, #sunway.ldm>, got ")
           << replyType;
  if (!(*this)->getParentOfType<LaunchOp>())
    return emitOpError("must be inside a sunway.launch");
  return success();
}

LogicalResult BarrierOp::verify() {
  if (!(*this)->getParentOfType<LaunchOp>())
    return emitOpError("must be inside a sunway.launch: barriers "
                       "synchronise CPEs");
  return success();
}

LogicalResult LoadSplatOp::verify() {
  auto type = cast<MemRefType>(getMemref().getType());
  if (!isLDM(type))
    return emitOpError("memref must be in #sunway.ldm (simd_loade reads the "
                       "CPE's LDM), got ")
           << type;
  if (!type.getElementType().isF32())
    return emitOpError("memref must hold f32 (a floatv4 lane), got ")
           << type.getElementType();
  if (static_cast<int64_t>(getIndices().size()) != type.getRank())
    return emitOpError("expects ")
           << type.getRank() << " indices, got " << getIndices().size();
  return success();
}
