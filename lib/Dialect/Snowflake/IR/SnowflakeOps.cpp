//===- SnowflakeOps.cpp - the Snowflake ISA-level dialect -----------------===//

#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.h"

#include "dlc/Target/Snowflake/ISA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

#include "dlc/Dialect/Snowflake/IR/SnowflakeOpsDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dlc/Dialect/Snowflake/IR/SnowflakeAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.cpp.inc"

void SnowflakeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dlc/Dialect/Snowflake/IR/SnowflakeAttrs.cpp.inc"
      >();
}

LogicalResult SnowflakeDialect::verifyOperationAttribute(Operation *op,
                                                         NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto inRange = [](int64_t r) {
    return r >= 1 && r < static_cast<int64_t>(kNumRegisters);
  };
  if (name == RegAttrHelper::getNameStr()) {
    auto reg = dyn_cast<IntegerAttr>(attr.getValue());
    if (!reg || op->getNumResults() != 1 || !inRange(reg.getInt()))
      return op->emitOpError()
             << "'" << name << "' must be a register r1..r" << kNumRegisters - 1
             << " on an op with one result";
    return success();
  }
  if (name == RegsAttrHelper::getNameStr()) {
    auto regs = dyn_cast<DenseI32ArrayAttr>(attr.getValue());
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!regs || !loop ||
        regs.size() != static_cast<int64_t>(1 + loop.getNumRegionIterArgs()) ||
        !llvm::all_of(regs.asArrayRef(), inRange))
      return op->emitOpError()
             << "'" << name << "' must give an scf.for a register r1..r"
             << kNumRegisters - 1
             << " for its induction variable and each iteration argument";
    return success();
  }
  return op->emitOpError() << "unknown snowflake attribute '" << name << "'";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

LogicalResult
DramTensorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringAttr name, int64_t address,
                       ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
  if (shape.size() != strides.size())
    return emitError() << "a DRAM tensor needs one stride per dimension, not "
                       << strides.size() << " for " << shape.size();
  if (address < 0 ||
      llvm::any_of(
          shape, [](int64_t d) { return d < 1; }) ||
      llvm::any_of(strides, [](int64_t s) { return s < 0; }))
    return emitError() << "a DRAM tensor needs a non-negative address and "
                          "strides and positive dimensions";
  return success();
}

int64_t DramTensorAttr::getEnd() const {
  int64_t last = getAddress();
  for (auto [dim, stride] : llvm::zip(getShape(), getStrides()))
    last += (dim - 1) * stride;
  return last + 1;
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

LogicalResult ProgramOp::verify() {
  auto data = dyn_cast<ShapedType>(getData().getType());
  if (!data || data.getRank() != 1 || !data.getElementType().isInteger(16))
    return emitOpError("needs its data as a 1-D tensor of i16");
  int64_t dram = getDramElements();
  // The attribute is unsigned; an address past 2^63 reads as negative here.
  int64_t address = static_cast<int64_t>(getDataAddress());
  if (address < 0 || address + data.getNumElements() > dram)
    return emitOpError() << "has its data (elements " << getDataAddress()
                         << ".." << getDataAddress() + data.getNumElements()
                         << ") outside its " << dram << "-element DRAM";
  if (getMapsBufferElements() < 1 || getWeightsBufferElements() < 1)
    return emitOpError("needs positive buffer sizes");
  for (ArrayAttr tensors : {getInputs(), getOutputs()})
    for (auto tensor : tensors.getAsRange<DramTensorAttr>())
      if (tensor.getEnd() > dram)
        return emitOpError() << "places '" << tensor.getName().getValue()
                             << "' up to element " << tensor.getEnd()
                             << ", outside its " << dram << "-element DRAM";
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  WalkResult result = getBody().walk([&](Operation *op) {
    if (isa<HaltOp>(op) || getInstructionInfo(op))
      return WalkResult::advance();
    bool i32Only = llvm::all_of(op->getResultTypes(),
                                [](Type t) { return t.isInteger(32); });
    if (isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
            scf::ForOp, scf::YieldOp>(op) &&
        i32Only)
      return WalkResult::advance();
    op->emitOpError("cannot run on the Snowflake control core (a program "
                    "holds snowflake instructions, i32 arith.constant, addi, "
                    "subi, muli and scf.for)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

const InstructionInfo *dlc::snowflake::getInstructionInfo(Operation *op) {
  if (!isa<SnowflakeDialect>(op->getDialect()) || isa<ProgramOp, HaltOp>(op))
    return nullptr;
  return lookupMnemonic(op->getName().stripDialect());
}

std::optional<int64_t> dlc::snowflake::getConstantValue(Value value) {
  APInt bits;
  if (matchPattern(value, m_ConstantInt(&bits)))
    return bits.getSExtValue();
  return std::nullopt;
}

namespace {
/// The static checks of one instruction, on the operands that are
/// constants.
struct BoundsChecker {
  Operation *op;
  int64_t maps, weights;

  /// [base, base + length x scale) inside a buffer of `size` elements.
  LogicalResult range(Value base, Value length, int64_t scale, int64_t size,
                      StringRef what) {
    std::optional<int64_t> b = getConstantValue(base);
    std::optional<int64_t> n = length ? getConstantValue(length) : 1;
    if (n && *n < 1)
      return op->emitOpError() << "has length " << *n << ", not at least 1";
    if (b && *b < 0)
      return op->emitOpError() << "has " << what << " address " << *b;
    if (b && n && *b + *n * scale > size)
      return op->emitOpError()
             << "reaches " << what << " element " << *b + *n * scale
             << ", past the " << size << " elements of the buffer";
    return success();
  }

  LogicalResult weightsRow(Value row, Value length) {
    std::optional<int64_t> r = getConstantValue(row);
    if (r && *r % kLanes)
      return op->emitOpError() << "has weights address " << *r
                               << ", not a multiple of " << kLanes;
    return range(row, length, kLanes, weights, "weights");
  }
};
} // namespace

LogicalResult dlc::snowflake::verifyInstructionOp(Operation *op) {
  const InstructionInfo *info = getInstructionInfo(op);
  if (!info)
    return op->emitOpError("is not an instruction of the Snowflake ISA");
  auto program = op->getParentOfType<ProgramOp>();
  if (!program)
    return op->emitOpError("must be inside a snowflake.program");
  // The fields: register fields are the operands, in order; the others
  // are attributes of the same name.
  unsigned nextOperand = 0;
  for (const FieldInfo &field : info->fields) {
    if (field.kind == FieldKind::Reg) {
      if (nextOperand >= op->getNumOperands())
        return op->emitOpError()
               << "lacks the operand of field '" << field.name << "'";
      ++nextOperand;
      continue;
    }
    auto value = op->getAttrOfType<IntegerAttr>(field.name);
    if (!value)
      return op->emitOpError()
             << "lacks the attribute of field '" << field.name << "'";
    int64_t v = value.getInt();
    if (v < getFieldMin(field) || v > getFieldMax(field))
      return op->emitOpError()
             << "field '" << field.name << "' = " << v << " does not fit its "
             << field.width << " bits (" << getFieldMin(field) << ".."
             << getFieldMax(field) << ")";
  }
  if (nextOperand != op->getNumOperands())
    return op->emitOpError()
           << "has " << op->getNumOperands() << " operands for " << nextOperand
           << " register fields";
  if (auto cus = op->getAttrOfType<IntegerAttr>("cus"); cus && !cus.getInt())
    return op->emitOpError("has an empty CU mask");

  BoundsChecker check{op, static_cast<int64_t>(program.getMapsBufferElements()),
                      static_cast<int64_t>(program.getWeightsBufferElements())};
  int64_t maps = check.maps;
  constexpr int64_t kSaved = 2 * kVMACsPerUnit * kLanes;
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](VMacOp o) {
        if (failed(check.range(o.getRm(), o.getRl(), 1, maps, "maps")))
          return failure();
        return check.weightsRow(o.getRw(), o.getRl());
      })
      .Case([&](VBiasOp o) { return check.weightsRow(o.getRw(), Value()); })
      .Case([&](VWriteBackOp o) {
        std::optional<int64_t> n = getConstantValue(o.getRn());
        if (n && (*n < 1 || *n > kVMACsPerUnit * kLanes))
          return LogicalResult(o.emitOpError()
                               << "writes back " << *n << " channels, not 1.."
                               << kVMACsPerUnit * kLanes);
        return check.range(o.getRd(), o.getRn(), 1, maps, "maps");
      })
      .Case<VSaveOp, VRestoreOp>([&](Operation *o) {
        // The accumulators: 2 x 64 elements from the one register operand.
        return check.range(o->getOperand(0), Value(), kSaved, maps, "maps");
      })
      .Case<VMaxOp, VAddOp>([&](auto o) {
        for (Value base : {o.getRd(), o.getRs1(), o.getRs2()})
          if (failed(check.range(base, o.getRl(), 1, maps, "maps")))
            return failure();
        return success();
      })
      .Case([&](VMoveOp o) {
        for (Value base : {o.getRd(), o.getRs()})
          if (failed(check.range(base, o.getRl(), 1, maps, "maps")))
            return failure();
        std::optional<int64_t> d = getConstantValue(o.getRd()),
                               s = getConstantValue(o.getRs()),
                               n = getConstantValue(o.getRl());
        if (d && s && n && *s < *d + *n && *d < *s + *n)
          return LogicalResult(
              o.emitOpError("moves between overlapping ranges"));
        return success();
      })
      .Case([&](VFillOp o) {
        return check.range(o.getRd(), o.getRl(), 1, maps, "maps");
      })
      .Case<LoadOp, StoreOp>([&](auto o) {
        int64_t buffer = o.getBuffer();
        bool load = isa<LoadOp>(op);
        int64_t size = 0;
        if (buffer < static_cast<int64_t>(kComputeUnits) ||
            (load && buffer == kAllMapsBuffer))
          size = maps;
        else if (load && ((buffer >= kAllWeightsBuffer &&
                           buffer < kAllWeightsBuffer + kVMACsPerUnit) ||
                          (buffer >= kFirstWeightsBuffer &&
                           buffer < kFirstWeightsBuffer +
                                        kComputeUnits * kVMACsPerUnit)))
          size = check.weights;
        else
          return LogicalResult(o.emitOpError()
                               << "names buffer " << buffer
                               << ", which cannot be "
                               << (load ? "loaded" : "stored from"));
        return check.range(o.getRbuf(), o.getRl(), 1, size, "buffer");
      })
      .Default([](Operation *) { return success(); });
}
