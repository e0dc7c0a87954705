//===- AllocateRegisters.cpp - control-core registers for a program -------===//
//
// Linear scan over the program in emission order (Passes.td says what is
// live when). The emitter (SnowflakeEmission.cpp) reads the registers this
// pass records and shares its rules for what needs no register
// (RegisterRules.h).
//
//===----------------------------------------------------------------------===//

#include "RegisterRules.h"

#include "dlc/Target/Snowflake/ISA.h"
#include "dlc/Target/Snowflake/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <set>

namespace dlc::snowflake {
#define GEN_PASS_DEF_ALLOCATEREGISTERS
#include "dlc/Target/Snowflake/Passes.h.inc"
} // namespace dlc::snowflake

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

namespace {

/// Program-order positions: every op has one; a loop also has the position
/// of its latch (the copies, the increment and the branch back).
struct Positions {
  DenseMap<Operation *, int64_t> of;
  DenseMap<Operation *, int64_t> latch;
  int64_t next = 0;

  void number(Block &block) {
    for (Operation &op : block) {
      of[&op] = next++;
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          number(inner);
      if (isa<scf::ForOp>(op))
        latch[&op] = next++;
    }
  }
};

struct Interval {
  int64_t start, end;
  /// What gets the register: an op result, or a loop's induction variable
  /// (-1) or iteration argument i, with its result.
  Operation *owner;
  int index;
  int reg = -1;
};

class Allocator {
public:
  explicit Allocator(ProgramOp program) : program(program) {
    positions.number(program.getBody().front());
  }

  LogicalResult run();

private:
  /// The last position at which `value`, defined at `defPos` in `defOp`'s
  /// block nest, is read: a use inside a loop that does not contain the
  /// definition reads it on every iteration, up to that loop's latch.
  int64_t lastUse(Value value) {
    Operation *defScope = value.getParentRegion()->getParentOp();
    int64_t end = -1;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      int64_t at = positions.of[user];
      if (auto loop = dyn_cast<scf::ForOp>(user);
          loop && use.get() == loop.getUpperBound())
        at = positions.latch[user];
      for (Operation *scope = user->getParentOp(); scope && scope != defScope;
           scope = scope->getParentOp())
        if (isa<scf::ForOp>(scope))
          at = std::max(at, positions.latch[scope]);
      end = std::max(end, at);
    }
    return end;
  }

  ProgramOp program;
  Positions positions;
};

LogicalResult Allocator::run() {
  std::vector<Interval> intervals;
  // Yielded values that take their iteration argument's register.
  DenseMap<Value, std::pair<Operation *, int>> coalesced;
  bool failedWalk = false;
  // Loops first: whether a yielded value takes its argument's register
  // decides whether it gets an interval of its own.
  program.getBody().walk([&](scf::ForOp loop) {
    Operation *op = loop;
    {
      int64_t start = positions.of[op], latch = positions.latch[op];
      intervals.push_back({start, latch, op, -1});
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [i, iter] : llvm::enumerate(loop.getRegionIterArgs())) {
        int64_t end = std::max(latch, lastUse(loop.getResult(i)));
        intervals.push_back({start, end, op, static_cast<int>(i)});
        // The value yielded back can live in the argument's register when
        // it is defined after the argument's last read in the body.
        Value next = yield.getOperand(i);
        Operation *def = next.getDefiningOp();
        if (def && def->getBlock() == loop.getBody() &&
            !coalesced.count(next) && getsRegister(def) &&
            positions.of[def] >= lastUse(iter))
          coalesced[next] = {op, static_cast<int>(i)};
      }
    }
  });
  program.getBody().walk([&](Operation *op) {
    if (!isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp>(
            op))
      return;
    if (!getsRegister(op)) {
      op->removeAttr(SnowflakeDialect::RegAttrHelper::getNameStr());
      return;
    }
    Value result = op->getResult(0);
    if (result.use_empty()) {
      op->emitOpError("defines a value nothing uses; a program keeps only "
                      "what it needs");
      failedWalk = true;
      return;
    }
    if (coalesced.count(result))
      return;
    intervals.push_back({positions.of[op], lastUse(result), op, 0});
  });
  if (failedWalk)
    return failure();

  std::sort(intervals.begin(), intervals.end(),
            [](const Interval &a, const Interval &b) {
              return a.start != b.start ? a.start < b.start : a.end < b.end;
            });
  std::set<int> free;
  for (int r = 1; r <= kLastAllocatableRegister; ++r)
    free.insert(r);
  std::vector<Interval *> active;
  DenseMap<std::pair<Operation *, int>, int> loopRegs;
  for (Interval &interval : intervals) {
    // An interval ending where another starts can share its register (the
    // instruction reads before it writes), except at a loop's entry, whose
    // copies are parallel.
    bool atLoop = isa<scf::ForOp>(interval.owner) &&
                  positions.of[interval.owner] == interval.start;
    llvm::erase_if(active, [&](Interval *other) {
      bool expired = other->end < interval.start ||
                     (!atLoop && other->end == interval.start);
      if (expired)
        free.insert(other->reg);
      return expired;
    });
    if (free.empty()) {
      InFlightDiagnostic diag = interval.owner->emitOpError()
                                << "needs more than "
                                << kLastAllocatableRegister
                                << " values in registers at once (r0 reads "
                                   "zero, r31 is the emitter's scratch)";
      return diag;
    }
    interval.reg = *free.begin();
    free.erase(free.begin());
    active.push_back(&interval);
    if (isa<scf::ForOp>(interval.owner))
      loopRegs[{interval.owner, interval.index}] = interval.reg;
    else
      interval.owner->setAttr(SnowflakeDialect::RegAttrHelper::getNameStr(),
                              Builder(program).getI64IntegerAttr(interval.reg));
  }
  for (auto [value, loopAndIndex] : coalesced)
    value.getDefiningOp()->setAttr(
        SnowflakeDialect::RegAttrHelper::getNameStr(),
        Builder(program).getI64IntegerAttr(loopRegs[loopAndIndex]));
  program.getBody().walk([&](scf::ForOp loop) {
    SmallVector<int32_t> regs;
    for (int i = -1; i < static_cast<int>(loop.getNumRegionIterArgs()); ++i)
      regs.push_back(loopRegs[{loop, i}]);
    loop->setAttr(SnowflakeDialect::RegsAttrHelper::getNameStr(),
                  DenseI32ArrayAttr::get(loop.getContext(), regs));
  });
  return success();
}

struct AllocateRegistersPass
    : public snowflake::impl::AllocateRegistersBase<AllocateRegistersPass> {
  void runOnOperation() override {
    if (failed(Allocator(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
