//===- SnowflakeEmission.cpp - snowflake.program to a binary image --------===//
//
// The last lowering: scf.for becomes a counted loop (initial copies, an
// optional guard, the body, the copies of the yielded values, the
// increment and a blt back), arith ops become scalar instructions and every
// snowflake op the instruction of its name, encoded by ISA.def.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Snowflake/SnowflakeEmission.h"

#include "RegisterRules.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Target/Snowflake/ISA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/Endian.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

namespace {

class Emitter {
public:
  explicit Emitter(ProgramOp program) : program(program) {
    for (auto [i, layer] : llvm::enumerate(program.getLayers()))
      layerIndex[cast<LayerAttr>(layer).getName().getValue()] = i;
  }

  FailureOr<EmittedProgram> run();

private:
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitLoop(scf::ForOp loop);
  FailureOr<unsigned> reg(Value value, Operation *user);
  /// Appends one instruction; its operands in ISA.def field order.
  LogicalResult push(Operation *at, StringRef mnemonic,
                     ArrayRef<int64_t> operands);
  /// dst[i] = src (a register, or an immediate when `immediate[i]`), all at
  /// once: moves that would overwrite a pending source go through r31.
  LogicalResult parallelCopy(Operation *at, ArrayRef<unsigned> dsts,
                             ArrayRef<int64_t> srcs, ArrayRef<bool> immediate);
  LogicalResult loadImmediate(Operation *at, unsigned rd, int64_t value);

  ProgramOp program;
  EmittedProgram out;
  llvm::StringMap<uint32_t> layerIndex;
};

FailureOr<unsigned> Emitter::reg(Value value, Operation *user) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    auto regs = loop ? loop->getAttrOfType<DenseI32ArrayAttr>(
                           SnowflakeDialect::RegsAttrHelper::getNameStr())
                     : DenseI32ArrayAttr();
    if (!regs)
      return user->emitOpError("uses a loop value without a register; run "
                               "dlc-snowflake-allocate-registers first");
    return static_cast<unsigned>(regs[arg.getArgNumber()]);
  }
  Operation *def = value.getDefiningOp();
  if (auto loop = dyn_cast<scf::ForOp>(def)) {
    auto regs = loop->getAttrOfType<DenseI32ArrayAttr>(
        SnowflakeDialect::RegsAttrHelper::getNameStr());
    if (!regs)
      return user->emitOpError("uses a loop result without a register; run "
                               "dlc-snowflake-allocate-registers first");
    return static_cast<unsigned>(
        regs[1 + cast<OpResult>(value).getResultNumber()]);
  }
  if (auto reg = def->getAttrOfType<IntegerAttr>(
          SnowflakeDialect::RegAttrHelper::getNameStr()))
    return static_cast<unsigned>(reg.getInt());
  if (getConstantValue(value) == 0)
    return 0u;
  return user->emitOpError("uses a value without a register; run "
                           "dlc-snowflake-allocate-registers first");
}

LogicalResult Emitter::push(Operation *at, StringRef mnemonic,
                            ArrayRef<int64_t> operands) {
  Instruction inst;
  inst.info = lookupMnemonic(mnemonic);
  inst.operands.assign(operands.begin(), operands.end());
  llvm::Expected<uint32_t> word = encode(inst);
  if (!word)
    return at->emitOpError() << llvm::toString(word.takeError());
  out.program.text.push_back(*word);
  std::string name = getNodeName(at->getLoc());
  std::string type = getNodeOpType(at->getLoc());
  auto it = layerIndex.find(name);
  out.layerOfPc.push_back(it == layerIndex.end() ? layerIndex.size()
                                                 : it->second);
  out.comments.push_back(
      name.empty() || type.empty() ? name : name + " (" + type + ")");
  return success();
}

LogicalResult Emitter::loadImmediate(Operation *at, unsigned rd,
                                     int64_t value) {
  if (fitsSigned(value, 21))
    return push(at, "movi", {rd, value});
  if (value < INT32_MIN || value > UINT32_MAX)
    return at->emitOpError()
           << "needs the constant " << value << ", which does not fit 32 bits";
  uint32_t bits = static_cast<uint32_t>(value);
  if (failed(push(at, "movi", {rd, bits & 0xffff})))
    return failure();
  return push(at, "movhi", {rd, bits >> 16});
}

LogicalResult Emitter::parallelCopy(Operation *at, ArrayRef<unsigned> dsts,
                                    ArrayRef<int64_t> srcs,
                                    ArrayRef<bool> immediate) {
  struct Move {
    unsigned dst;
    int64_t src;
  };
  SmallVector<Move> moves;
  for (auto [dst, src, imm] : llvm::zip(dsts, srcs, immediate))
    if (!imm && static_cast<int64_t>(dst) != src)
      moves.push_back({dst, src});
  // Register moves: one whose destination no pending move reads goes now;
  // a cycle is broken by parking one source in the scratch register.
  while (!moves.empty()) {
    auto ready = llvm::find_if(moves, [&](const Move &m) {
      return llvm::none_of(moves, [&](const Move &other) {
        return other.src == static_cast<int64_t>(m.dst);
      });
    });
    if (ready == moves.end()) {
      int64_t parked = moves.front().src;
      if (failed(push(at, "add", {kScratchRegister, parked, 0})))
        return failure();
      for (Move &m : moves)
        if (m.src == parked)
          m.src = kScratchRegister;
      continue;
    }
    if (failed(push(at, "add", {ready->dst, ready->src, 0})))
      return failure();
    moves.erase(ready);
  }
  // Immediates read no register: they go last.
  for (auto [dst, src, imm] : llvm::zip(dsts, srcs, immediate))
    if (imm && failed(loadImmediate(at, dst, src)))
      return failure();
  return success();
}

LogicalResult Emitter::emitLoop(scf::ForOp loop) {
  auto regs = loop->getAttrOfType<DenseI32ArrayAttr>(
      SnowflakeDialect::RegsAttrHelper::getNameStr());
  if (!regs)
    return loop.emitOpError("has no registers; run "
                            "dlc-snowflake-allocate-registers first");
  Operation *op = loop;
  // Entry: the induction variable and the iteration arguments, at once.
  SmallVector<unsigned> dsts;
  SmallVector<int64_t> srcs;
  SmallVector<bool> immediate;
  auto addSource = [&](OpOperand &use) -> LogicalResult {
    std::optional<int64_t> value = getConstantValue(use.get());
    if (value && isImmediateUse(use, *value)) {
      srcs.push_back(*value);
      immediate.push_back(true);
      return success();
    }
    FailureOr<unsigned> r = reg(use.get(), op);
    if (failed(r))
      return failure();
    srcs.push_back(*r);
    immediate.push_back(false);
    return success();
  };
  dsts.push_back(regs[0]);
  if (failed(addSource(loop->getOpOperand(0))))
    return failure();
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    dsts.push_back(regs[1 + i]);
    if (failed(addSource(loop->getOpOperand(3 + i))))
      return failure();
  }
  if (failed(parallelCopy(op, dsts, srcs, immediate)))
    return failure();

  std::optional<int64_t> lb = getConstantValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantValue(loop.getStep());
  if (step && *step <= 0)
    return loop.emitOpError("needs a positive step");
  if (lb && ub && *lb >= *ub)
    return success(); // No iteration: the results are the initial values.
  FailureOr<unsigned> ubReg = reg(loop.getUpperBound(), op);
  if (failed(ubReg))
    return failure();
  // A loop that may run zero times jumps over itself.
  std::optional<size_t> guard;
  if (!(lb && ub)) {
    guard = out.program.text.size();
    if (failed(push(op, "bge", {regs[0], *ubReg, 0})))
      return failure();
  }
  size_t top = out.program.text.size();
  if (failed(emitBlock(*loop.getBody())))
    return failure();
  // Latch.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  dsts.clear();
  srcs.clear();
  immediate.clear();
  for (auto [i, next] : llvm::enumerate(yield.getOperands())) {
    FailureOr<unsigned> r = reg(next, op);
    if (failed(r))
      return failure();
    dsts.push_back(regs[1 + i]);
    srcs.push_back(*r);
    immediate.push_back(false);
  }
  if (failed(parallelCopy(op, dsts, srcs, immediate)))
    return failure();
  OpOperand &stepUse = loop->getOpOperand(2);
  if (step && isImmediateUse(stepUse, *step)) {
    if (failed(push(op, "addi", {regs[0], regs[0], *step})))
      return failure();
  } else {
    FailureOr<unsigned> stepReg = reg(loop.getStep(), op);
    if (failed(stepReg) ||
        failed(push(op, "add", {regs[0], regs[0], *stepReg})))
      return failure();
  }
  int64_t back =
      static_cast<int64_t>(top) - static_cast<int64_t>(out.program.text.size());
  if (failed(push(op, "blt", {regs[0], *ubReg, back})))
    return failure();
  if (guard) {
    Instruction inst;
    inst.info = lookupMnemonic("bge");
    inst.operands = {regs[0], *ubReg,
                     static_cast<int64_t>(out.program.text.size() - *guard)};
    llvm::Expected<uint32_t> word = encode(inst);
    if (!word)
      return loop.emitOpError() << llvm::toString(word.takeError());
    out.program.text[*guard] = *word;
  }
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return emitLoop(loop);
  if (isa<scf::YieldOp>(op))
    return success();
  if (isa<HaltOp>(op))
    return push(op, "halt", {});
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto r = constant->getAttrOfType<IntegerAttr>(
        SnowflakeDialect::RegAttrHelper::getNameStr());
    if (!r)
      return success(); // r0 or immediates only.
    return loadImmediate(op, r.getInt(), *getConstantValue(constant));
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    FailureOr<unsigned> rd = reg(op->getResult(0), op);
    if (failed(rd))
      return failure();
    bool isAdd = isa<arith::AddIOp>(op), isSub = isa<arith::SubIOp>(op);
    for (unsigned i : {1u, 0u}) {
      OpOperand &use = op->getOpOperand(i);
      std::optional<int64_t> value = getConstantValue(use.get());
      if (!(isAdd || (isSub && i == 1)) || !value || *value == 0 ||
          !isImmediateUse(use, *value))
        continue;
      FailureOr<unsigned> rs = reg(op->getOperand(1 - i), op);
      if (failed(rs))
        return failure();
      return push(op, "addi", {*rd, *rs, isSub ? -*value : *value});
    }
    FailureOr<unsigned> a = reg(op->getOperand(0), op),
                        b = reg(op->getOperand(1), op);
    if (failed(a) || failed(b))
      return failure();
    return push(op, isAdd ? "add" : isSub ? "sub" : "mul", {*rd, *a, *b});
  }
  const InstructionInfo *info = getInstructionInfo(op);
  if (!info)
    return op->emitOpError("cannot be emitted as a Snowflake instruction");
  SmallVector<int64_t> operands;
  unsigned next = 0;
  for (const FieldInfo &field : info->fields) {
    if (field.kind == FieldKind::Reg) {
      FailureOr<unsigned> r = reg(op->getOperand(next++), op);
      if (failed(r))
        return failure();
      operands.push_back(*r);
      continue;
    }
    operands.push_back(op->getAttrOfType<IntegerAttr>(field.name).getInt());
  }
  return push(op, info->mnemonic, operands);
}

LogicalResult Emitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

FailureOr<EmittedProgram> Emitter::run() {
  if (failed(emitBlock(program.getBody().front())))
    return failure();
  out.program.dataAddress = program.getDataAddress();
  ElementsAttr data = program.getData();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(data)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return program.emitOpError("has a data resource without a blob");
    ArrayRef<char> bytes = blob->getData();
    out.program.data.assign(bytes.begin(), bytes.end());
  } else if (auto dense = dyn_cast<DenseIntElementsAttr>(data)) {
    for (const APInt &value : dense.getValues<APInt>()) {
      uint16_t bits = static_cast<uint16_t>(value.getZExtValue());
      out.program.data.push_back(bits & 0xff);
      out.program.data.push_back(bits >> 8);
    }
  } else {
    return program.emitOpError("has data that is neither dense nor a "
                               "resource");
  }
  return std::move(out);
}

} // namespace

FailureOr<EmittedProgram> dlc::snowflake::emitProgram(ProgramOp program) {
  return Emitter(program).run();
}

FailureOr<ProgramOp> dlc::snowflake::getProgram(ModuleOp module) {
  auto programs = module.getOps<ProgramOp>();
  if (std::distance(programs.begin(), programs.end()) != 1)
    return module.emitError("expected exactly one snowflake.program");
  return *programs.begin();
}

/// The emitted program of a translation's input module.
static FailureOr<EmittedProgram> emitModule(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  FailureOr<ProgramOp> program = getProgram(module);
  if (failed(program))
    return failure();
  return emitProgram(*program);
}

void dlc::snowflake::registerSnowflakeEmissionTranslations() {
  auto dialects = [](DialectRegistry &registry) {
    registry.insert<SnowflakeDialect, arith::ArithDialect, scf::SCFDialect>();
  };
  TranslateFromMLIRRegistration binary(
      "snowflake-emit-binary",
      "A snowflake.program with registers to its binary image",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<EmittedProgram> emitted = emitModule(op);
        if (failed(emitted))
          return failure();
        writeImage(emitted->program, os);
        return success();
      },
      dialects);
  TranslateFromMLIRRegistration listing(
      "snowflake-emit-listing",
      "A snowflake.program with registers to its listing (address, "
      "encoding, instruction, ONNX node)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<EmittedProgram> emitted = emitModule(op);
        if (failed(emitted))
          return failure();
        if (llvm::Error error =
                disassemble(emitted->program, os, emitted->comments))
          return op->emitError() << llvm::toString(std::move(error));
        return success();
      },
      dialects);
}
