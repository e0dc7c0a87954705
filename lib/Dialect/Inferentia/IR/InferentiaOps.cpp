//===- InferentiaOps.cpp - the NeuronCore instruction dialect -------------===//
//
// Attributes, types and verifiers. An instruction op is verified by turning
// it into the trace instruction it stands for and asking the machine's own
// legality rules (Trace.h: checkInstruction), so the dialect, the emitter
// and the simulator agree on what is legal by construction.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/Inferentia/IR/InferentiaOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;

#include "dlc/Dialect/Inferentia/IR/InferentiaOpsDialect.cpp.inc"

void InferentiaDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dlc/Dialect/Inferentia/IR/InferentiaAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dlc/Dialect/Inferentia/IR/InferentiaOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dlc/Dialect/Inferentia/IR/InferentiaOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// The machine of a module
//===----------------------------------------------------------------------===//

Machine dlc::inferentia::getMachine(HardwareAttr hardware) {
  Machine machine;
  if (!hardware)
    return machine;
#define INFERENTIA_READ(member, type, name, value)                             \
  hardware.readTarget(name, machine.member);
  INFERENTIA_PARAMETERS(INFERENTIA_READ)
#undef INFERENTIA_READ
  return machine;
}

Machine dlc::inferentia::getMachine(Operation *op) {
  return getMachine(HardwareAttr::lookup(op));
}

DictionaryAttr dlc::inferentia::getTargetDictionary(MLIRContext *context,
                                                    const Machine &machine) {
  Builder b(context);
  SmallVector<NamedAttribute> entries;
#define INFERENTIA_WRITE(member, type, name, value)                            \
  entries.push_back(b.getNamedAttr(                                            \
      name, HardwareAttr::getTargetValue(context, machine.member)));
  INFERENTIA_PARAMETERS(INFERENTIA_WRITE)
#undef INFERENTIA_WRITE
  return b.getDictionaryAttr(entries);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

LogicalResult MappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, int64_t partitionDim,
                                  int64_t partitionTile) {
  for (int64_t d : shape)
    if (d < 1)
      return emitError() << "mapping: every dimension must be positive";
  if (partitionDim < -1 || partitionDim >= static_cast<int64_t>(shape.size()))
    return emitError() << "mapping: partition_dim " << partitionDim
                       << " is not a dimension of a rank-" << shape.size()
                       << " tensor (or -1)";
  if (partitionDim == -1
          ? partitionTile != 1
          : (partitionTile < 1 || partitionTile > shape[partitionDim]))
    return emitError() << "mapping: partition_tile " << partitionTile
                       << " must be between 1 and the partition dimension's "
                          "size (1 without one)";
  return success();
}

int64_t MappingAttr::getPartitions() const {
  return getPartitionDim() < 0 ? 1 : getPartitionTile();
}

int64_t MappingAttr::getFreeElements() const {
  int64_t inner = 1;
  for (auto [d, size] : llvm::enumerate(getShape()))
    if (static_cast<int64_t>(d) != getPartitionDim())
      inner *= size;
  if (getPartitionDim() < 0)
    return inner;
  return llvm::divideCeil(getShape()[getPartitionDim()], getPartitionTile()) *
         inner;
}

int64_t MappingAttr::getFreeStride(int64_t dim) const {
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(getShape().size()) - 1; d > dim; --d)
    if (d != getPartitionDim())
      stride *= getShape()[d];
  return stride;
}

int64_t MappingAttr::getTileStride() const {
  int64_t inner = 1;
  for (auto [d, size] : llvm::enumerate(getShape()))
    if (static_cast<int64_t>(d) != getPartitionDim())
      inner *= size;
  return inner;
}

std::pair<int64_t, int64_t> MappingAttr::locate(ArrayRef<int64_t> index) const {
  int64_t free = 0, partition = 0;
  for (auto [d, i] : llvm::enumerate(index)) {
    if (static_cast<int64_t>(d) == getPartitionDim()) {
      partition = i % getPartitionTile();
      free += (i / getPartitionTile()) * getTileStride();
    } else {
      free += i * getFreeStride(d);
    }
  }
  return {partition, free};
}

LogicalResult
AccessPatternAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t start, int64_t partitions,
                          int64_t partitionStride, int64_t offset,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> sizes) {
  if (start < 0 || partitions < 1)
    return emitError() << "access pattern: partitions " << start << " : "
                       << partitions << " are not a range";
  if (strides.size() != sizes.size())
    return emitError() << "access pattern: " << strides.size()
                       << " strides for " << sizes.size() << " sizes";
  if (llvm::any_of(sizes, [](int64_t s) { return s < 1; }))
    return emitError() << "access pattern: sizes must be positive";
  (void)partitionStride;
  (void)offset;
  return success();
}

int64_t AccessPatternAttr::getFreeElements() const {
  int64_t n = 1;
  for (int64_t s : getSizes())
    n *= s;
  return n;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef memory, int64_t partitions,
                                 int64_t freeElements, Type elementType,
                                 MappingAttr mapping) {
  std::optional<Memory> kind = parseEnum<Memory>(memory);
  if (!kind)
    return emitError() << "buffer: unknown memory '" << memory
                       << "' (sbuf, psum or dram)";
  if (!elementType.isF32() && !elementType.isBF16())
    return emitError() << "buffer: elements must be f32 or bf16, not "
                       << elementType;
  if (*kind == Memory::Dram && partitions != 1)
    return emitError() << "buffer: a DRAM buffer has one partition";
  if (partitions < 1 || freeElements < 1)
    return emitError() << "buffer: " << partitions << " partitions of "
                       << freeElements << " elements";
  // DRAM holds a partitioned mapping's partitions one after the other.
  if (mapping && *kind == Memory::Dram &&
      mapping.getPartitions() * mapping.getFreeElements() > freeElements)
    return emitError() << "buffer: its mapping needs "
                       << mapping.getPartitions() * mapping.getFreeElements()
                       << " elements of DRAM";
  if (mapping && *kind != Memory::Dram &&
      (mapping.getPartitions() > partitions ||
       mapping.getFreeElements() > freeElements))
    return emitError() << "buffer: its mapping needs "
                       << mapping.getPartitions() << " partitions of "
                       << mapping.getFreeElements() << " elements";
  return success();
}

int64_t BufferType::getElementBytes() const {
  return getElementType().isF32() ? 4 : 2;
}

#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/Inferentia/IR/InferentiaAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dlc/Dialect/Inferentia/IR/InferentiaOpsTypes.cpp.inc"

//===----------------------------------------------------------------------===//
// Operand lists: `%dst<ap>, %src<ap>, ...`
//===----------------------------------------------------------------------===//

static ParseResult
parseOperands(OpAsmParser &parser, OpAsmParser::UnresolvedOperand &dst,
              AccessPatternAttr &dstAp,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &srcs,
              ArrayAttr &srcAps) {
  auto parseOne = [&](OpAsmParser::UnresolvedOperand &operand,
                      AccessPatternAttr &ap) -> ParseResult {
    if (parser.parseOperand(operand))
      return failure();
    Attribute attr = AccessPatternAttr::parse(parser, Type());
    ap = dyn_cast_or_null<AccessPatternAttr>(attr);
    return success(ap != nullptr);
  };
  if (parseOne(dst, dstAp))
    return failure();
  SmallVector<Attribute> aps;
  while (succeeded(parser.parseOptionalComma())) {
    AccessPatternAttr ap;
    if (parseOne(srcs.emplace_back(), ap))
      return failure();
    aps.push_back(ap);
  }
  srcAps = parser.getBuilder().getArrayAttr(aps);
  return success();
}

static void printOperands(OpAsmPrinter &printer, Operation *, Value dst,
                          AccessPatternAttr dstAp, OperandRange srcs,
                          ArrayAttr srcAps) {
  printer << dst;
  dstAp.print(printer);
  for (auto [src, ap] : llvm::zip(srcs, srcAps)) {
    printer << ", " << src;
    cast<AccessPatternAttr>(ap).print(printer);
  }
}

//===----------------------------------------------------------------------===//
// The program and its buffers
//===----------------------------------------------------------------------===//

/// An error on `op` when the module's machine breaks its own rules: the
/// instructions' checks divide by its sizes.
static LogicalResult verifyMachine(Operation *op) {
  if (llvm::Error error = getMachine(op).verify())
    return op->emitOpError("runs on a machine that cannot exist: ")
           << llvm::toString(std::move(error));
  return success();
}

// Before the instructions are verified (they are verified after their
// parent's own verifier, which stops verification when it fails).
LogicalResult ProgramOp::verify() { return verifyMachine(*this); }

LogicalResult ProgramOp::verifyRegions() {
  if (getLayoutMode() != "global" && getLayoutMode() != "local")
    return emitOpError("layout_mode must be 'global' or 'local', not '")
           << getLayoutMode() << "'";
  int64_t layers = static_cast<int64_t>(getLayers().size());
  for (Operation &op : getBody().front()) {
    auto layer = op.getAttrOfType<IntegerAttr>("layer");
    if (layer && (layer.getInt() < -1 || layer.getInt() >= layers))
      return op.emitOpError("layer ")
             << layer.getInt() << " is not one of the program's " << layers
             << " layers";
  }
  return success();
}

LogicalResult DramTensorOp::verify() {
  BufferType type = getBuffer().getType();
  if (type.getMemory() != "dram")
    return emitOpError("a DRAM tensor's buffer must be in dram");
  StringRef role = getRole();
  if (role != "input" && role != "output" && role != "weights" &&
      role != "scratch")
    return emitOpError("role must be input, output, weights or scratch, not '")
           << role << "'";
  if ((role == "weights") != getValue().has_value())
    return emitOpError("weights, and only weights, carry a value");
  if (getValue() && !getValue()->getElementType().isF32() &&
      !getValue()->getElementType().isBF16())
    return emitOpError("value must hold f32 or bf16 elements, not ")
           << getValue()->getElementType();
  if (getValue() && getValue()->getNumElements() != type.getFreeElements())
    return emitOpError("value has ")
           << getValue()->getNumElements() << " elements, the buffer "
           << type.getFreeElements();
  int64_t address = static_cast<int64_t>(getAddress());
  if (address % type.getElementBytes())
    return emitOpError("address ")
           << address << " is not a multiple of the element size ("
           << type.getElementBytes() << " bytes)";
  if (address < 0 ||
      address + type.getPartitionBytes() > getMachine(*this).dramBytes)
    return emitOpError("bytes [")
           << address << ", " << address + type.getPartitionBytes()
           << ") are not within DRAM (" << getMachine(*this).dramBytes
           << " bytes)";
  return success();
}

LogicalResult AllocOp::verify() {
  BufferType type = getBuffer().getType();
  Machine machine = getMachine(*this);
  int64_t capacity;
  if (type.getMemory() == "sbuf")
    capacity = machine.sbufPartitionBytes;
  else if (type.getMemory() == "psum")
    capacity = machine.psumPartitionBytes;
  else
    return emitOpError("allocates SBUF or PSUM; DRAM is a dram_tensor");
  if (type.getPartitions() > machine.partitions)
    return emitOpError("needs ")
           << type.getPartitions() << " partitions, the machine has "
           << machine.partitions;
  int64_t address = static_cast<int64_t>(getAddress());
  if (address < 0 || address + type.getPartitionBytes() > capacity)
    return emitOpError("bytes [")
           << address << ", " << address + type.getPartitionBytes()
           << ") of each partition exceed the " << type.getMemory() << "'s "
           << capacity << " bytes per partition";
  return success();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

namespace {
/// Where a buffer is: its memory and the byte address of its start.
FailureOr<std::pair<Memory, int64_t>> getPlace(Operation *user, Value buffer) {
  auto type = cast<BufferType>(buffer.getType());
  std::optional<Memory> memory = parseEnum<Memory>(type.getMemory());
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    return std::make_pair(*memory, static_cast<int64_t>(alloc.getAddress()));
  if (auto tensor = buffer.getDefiningOp<DramTensorOp>())
    return std::make_pair(*memory, static_cast<int64_t>(tensor.getAddress()));
  return user->emitOpError("operand is not an inferentia.alloc or "
                           "inferentia.dram_tensor");
}

FailureOr<AccessPattern> toAccessPattern(Operation *user, Value buffer,
                                         AccessPatternAttr ap) {
  FailureOr<std::pair<Memory, int64_t>> place = getPlace(user, buffer);
  if (failed(place))
    return failure();
  auto type = cast<BufferType>(buffer.getType());
  AccessPattern pattern;
  pattern.memory = place->first;
  pattern.type = type.getElementType().isF32() ? DataType::F32 : DataType::BF16;
  pattern.startPartition = ap.getStart();
  pattern.partitions = ap.getPartitions();
  pattern.partitionStride = ap.getPartitionStride();
  pattern.address = place->second + ap.getOffset() * type.getElementBytes();
  for (auto [stride, size] : llvm::zip(ap.getStrides(), ap.getSizes()))
    pattern.dims.emplace_back(stride, size);
  return pattern;
}

/// Empty when `ap` stays within a buffer of `type`: its partitions (SBUF,
/// PSUM) and the elements of each (DRAM: of its one partition, the
/// pattern's lines included).
std::string checkWithinBuffer(BufferType type, AccessPatternAttr ap) {
  bool dram = type.getMemory() == "dram";
  if (!dram && ap.getStart() + ap.getPartitions() > type.getPartitions())
    return llvm::formatv("partitions {0}..{1} are outside the buffer's {2}",
                         ap.getStart(), ap.getStart() + ap.getPartitions() - 1,
                         type.getPartitions())
        .str();
  // Wide enough for any product of two int64 values.
  __int128 lo = ap.getOffset(), hi = ap.getOffset();
  for (auto [stride, size] : llvm::zip(ap.getStrides(), ap.getSizes())) {
    __int128 span = static_cast<__int128>(stride) * (size - 1);
    (span < 0 ? lo : hi) += span;
  }
  if (dram) {
    __int128 spread = static_cast<__int128>(ap.getPartitionStride()) *
                      (ap.getPartitions() - 1);
    (spread < 0 ? lo : hi) += spread;
  }
  if (lo >= 0 && hi < type.getFreeElements())
    return "";
  auto clamp = [](__int128 v) {
    return static_cast<int64_t>(
        std::clamp<__int128>(v, std::numeric_limits<int64_t>::min(),
                             std::numeric_limits<int64_t>::max()));
  };
  return llvm::formatv("elements {0}..{1}{2} are outside the buffer's {3}",
                       clamp(lo), clamp(hi), dram ? "" : " of each partition",
                       type.getFreeElements())
      .str();
}

template <typename E>
FailureOr<E> parseAttr(Operation *op, StringRef attrName,
                       std::optional<E> (*parse)(StringRef)) {
  auto name = op->getAttrOfType<StringAttr>(attrName);
  if (!name)
    return static_cast<E>(0);
  if (std::optional<E> value = parse(name.getValue()))
    return *value;
  return op->emitOpError() << attrName << " '" << name.getValue()
                           << "' is not one the trace knows";
}
} // namespace

FailureOr<Instruction>
dlc::inferentia::toInstruction(Operation *op,
                               function_ref<int64_t(Operation *)> indexOf) {
  Instruction inst;
  std::optional<Opcode> opcode =
      llvm::TypeSwitch<Operation *, std::optional<Opcode>>(op)
          .Case([](DmaCopyOp) { return Opcode::DmaCopy; })
          .Case([](MatmulOp) { return Opcode::Matmul; })
          .Case([](TransposeOp) { return Opcode::Transpose; })
          .Case([](ActivationOp) { return Opcode::Activation; })
          .Case([](TensorTensorOp) { return Opcode::TensorTensor; })
          .Case([](TensorScalarOp) { return Opcode::TensorScalar; })
          .Case([](TensorReduceOp) { return Opcode::TensorReduce; })
          .Case([](TensorCopyOp) { return Opcode::TensorCopy; })
          .Case([](MemsetOp) { return Opcode::Memset; })
          .Case([](SelectOp) { return Opcode::Select; })
          .Default([](Operation *) { return std::nullopt; });
  if (!opcode)
    return op->emitOpError("is not an instruction");
  inst.opcode = *opcode;
  FailureOr<Engine> engine = parseAttr<Engine>(op, "engine", parseEnum<Engine>);
  FailureOr<Cause> cause = parseAttr<Cause>(op, "cause", parseEnum<Cause>);
  FailureOr<AluOp> alu0 = parseAttr<AluOp>(op, "alu0", parseEnum<AluOp>);
  FailureOr<AluOp> alu1 = parseAttr<AluOp>(op, "alu1", parseEnum<AluOp>);
  FailureOr<ActivationFunction> function = parseAttr<ActivationFunction>(
      op, "function", parseEnum<ActivationFunction>);
  if (failed(engine) || failed(cause) || failed(alu0) || failed(alu1) ||
      failed(function))
    return failure();
  inst.engine = *engine;
  inst.cause = *cause;
  inst.alu0 = *alu0;
  inst.alu1 = *alu1;
  inst.function = *function;
  if (auto layer = op->getAttrOfType<IntegerAttr>("layer"))
    inst.layer = layer.getInt();
  if (auto queue = op->getAttrOfType<IntegerAttr>("queue"))
    inst.queue = queue.getInt();
  if (auto imm = op->getAttrOfType<FloatAttr>("imm0"))
    inst.imm0 = static_cast<float>(imm.getValueAsDouble());
  if (auto imm = op->getAttrOfType<FloatAttr>("imm1"))
    inst.imm1 = static_cast<float>(imm.getValueAsDouble());
  if (auto scale = op->getAttrOfType<FloatAttr>("scale"))
    inst.scale = static_cast<float>(scale.getValueAsDouble());
  if (auto dims = op->getAttrOfType<IntegerAttr>("reduce_dims"))
    inst.reduceDims = dims.getInt();
  inst.accumulate = op->hasAttr("accumulate");

  // Every instruction op has the common operands first: dst, srcs..., deps.
  auto dstAp = op->getAttrOfType<AccessPatternAttr>("dst_ap");
  auto srcAps = op->getAttrOfType<ArrayAttr>("src_aps");
  auto segments = op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes");
  if (!dstAp || !srcAps || !segments || segments.size() != 3)
    return op->emitOpError("lacks its operands' access patterns");
  int32_t numSrcs = segments[1];
  if (static_cast<int64_t>(srcAps.size()) != numSrcs)
    return op->emitOpError("has ")
           << numSrcs << " sources and " << srcAps.size()
           << " source access patterns";
  FailureOr<AccessPattern> dst = toAccessPattern(op, op->getOperand(0), dstAp);
  if (failed(dst))
    return failure();
  inst.dst = *dst;
  for (int32_t i = 0; i < numSrcs; ++i) {
    FailureOr<AccessPattern> src = toAccessPattern(
        op, op->getOperand(1 + i), cast<AccessPatternAttr>(srcAps[i]));
    if (failed(src))
      return failure();
    inst.srcs.push_back(*src);
  }
  for (Value dep : op->getOperands().drop_front(1 + numSrcs))
    inst.deps.push_back(indexOf(dep.getDefiningOp()));
  return inst;
}

LogicalResult dlc::inferentia::verifyInstructionOp(Operation *op) {
  if (failed(verifyMachine(op)))
    return failure();
  // Dependencies are earlier by dominance; number them before this one.
  FailureOr<Instruction> inst =
      toInstruction(op, [](Operation *) -> int64_t { return 0; });
  if (failed(inst))
    return failure();
  std::string why = checkInstruction(getMachine(op), *inst, /*index=*/1);
  if (!why.empty())
    return op->emitOpError(why);
  // The machine would run an access past its buffer (into a neighbour's
  // bytes); the buffer's type says where it ends.
  auto srcAps = op->getAttrOfType<ArrayAttr>("src_aps");
  for (int64_t i = -1; i < static_cast<int64_t>(srcAps.size()); ++i) {
    auto ap = i < 0 ? op->getAttrOfType<AccessPatternAttr>("dst_ap")
                    : cast<AccessPatternAttr>(srcAps[i]);
    auto type = cast<BufferType>(op->getOperand(1 + i).getType());
    std::string outside = checkWithinBuffer(type, ap);
    if (!outside.empty())
      return op->emitOpError() << (i < 0 ? std::string("dst")
                                         : llvm::formatv("srcs[{0}]", i).str())
                               << ": " << outside;
  }
  return success();
}

#define GET_OP_CLASSES
#include "dlc/Dialect/Inferentia/IR/InferentiaOps.cpp.inc"
