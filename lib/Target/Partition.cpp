//===- Partition.cpp - host fallback: segments, transfers, the plan -------===//
//
// dlc-partition-for-target and what runs a partitioned model (Partition.h).
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Partition.h"

#include "dlc/Target/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace dlc {
#define GEN_PASS_DEF_PARTITIONFORTARGET
#include "dlc/Target/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

using FallbackAttr = DLCDialect::FallbackAttrHelper;
using SegmentAttr = DLCDialect::SegmentAttrHelper;

/// Constants are copied into every segment that uses them instead of being
/// moved between memories.
bool isCopiedIntoSegments(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>();
}

int64_t getTensorBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  std::optional<ElementKind> kind =
      getElementKindFromType(tensor.getElementType());
  return tensor.getNumElements() *
         static_cast<int64_t>(kind ? getElementSize(*kind) : 4);
}

/// Ops in the order they run, grouped into runs on one side: a list
/// schedule that keeps to the current side while an op of that side is
/// ready (the earliest in the original order first), so independent ops do
/// not split a segment needlessly.
std::vector<std::pair<std::string, std::vector<Operation *>>>
scheduleSegments(ArrayRef<Operation *> ops,
                 const DenseMap<Operation *, std::string> &placement) {
  DenseMap<Operation *, unsigned> position, waitingOn;
  DenseMap<Operation *, SmallVector<Operation *>> users;
  for (auto [index, op] : llvm::enumerate(ops))
    position[op] = index;
  for (Operation *op : ops) {
    llvm::SmallDenseSet<Operation *> producers;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        if (position.count(producer) && producers.insert(producer).second)
          users[producer].push_back(op);
    waitingOn[op] = producers.size();
  }
  std::set<unsigned> ready;
  for (Operation *op : ops)
    if (waitingOn[op] == 0)
      ready.insert(position[op]);
  std::vector<std::pair<std::string, std::vector<Operation *>>> segments;
  while (!ready.empty()) {
    auto next = llvm::find_if(ready, [&](unsigned index) {
      return !segments.empty() &&
             placement.lookup(ops[index]) == segments.back().first;
    });
    if (next == ready.end()) {
      next = ready.begin();
      segments.push_back({placement.lookup(ops[*next]), {}});
    }
    Operation *op = ops[*next];
    ready.erase(next);
    segments.back().second.push_back(op);
    for (Operation *user : users.lookup(op))
      if (--waitingOn[user] == 0)
        ready.insert(position[user]);
  }
  return segments;
}

/// The name a segment's input or output gets: the ONNX tensor's when it is
/// an entry input or output, else its producer's node name.
std::string getTensorName(Value value, func::FuncOp entry) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto name = entry.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                       kONNXNameAttr))
      return name.str();
  for (OpOperand &use : value.getUses())
    if (isa<func::ReturnOp>(use.getOwner()))
      if (auto name = entry.getResultAttrOfType<StringAttr>(
              use.getOperandNumber(), kONNXNameAttr))
        return name.str();
  Operation *producer = value.getDefiningOp();
  std::string name = producer ? getNodeName(producer) : "";
  if (name.empty())
    name = "tensor";
  if (producer && producer->getNumResults() > 1)
    name += ":" + std::to_string(cast<OpResult>(value).getResultNumber());
  return name;
}

} // namespace

FailureOr<bool> dlc::partitionForTarget(ModuleOp module, const Target &target) {
  func::FuncOp entry = getEntryFunction(module);
  if (!entry)
    return module.emitError("the module has no entry function to partition");
  if (!getSegments(module).empty())
    return module.emitError("the module is partitioned already");
  MLIRContext *context = module.getContext();
  std::string targetName = target.getName().str();
  if (targetName == kFallbackTargetName)
    return false;

  Block &body = entry.getBody().front();
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  std::vector<Operation *> ops;
  DenseMap<Operation *, std::string> placement;
  bool anyFallback = false;
  for (Operation &op : body.without_terminator()) {
    // A returned constant has nothing to compute, but it must come out of a
    // segment like every other output: the target's unless it says
    // otherwise.
    bool returned =
        llvm::is_contained(returnOp->getOperands(),
                           op.getNumResults() ? op.getResult(0) : Value());
    if (isCopiedIntoSegments(&op) && !returned)
      continue;
    ops.push_back(&op);
    StringAttr reason = FallbackAttr(context).getAttr(&op);
    if (!reason)
      if (std::optional<std::string> why = target.getUnsupportedReason(&op))
        reason = StringAttr::get(context, *why);
    if (reason) {
      FallbackAttr(context).setAttr(&op, reason);
      anyFallback = true;
    }
    placement[&op] = reason ? kFallbackTargetName.str() : targetName;
  }
  if (!anyFallback) {
    for (Operation *op : ops)
      if (FallbackAttr(context).isAttrPresent(op))
        FallbackAttr(context).removeAttr(op);
    return false;
  }

  // The entry records the target it was partitioned for.
  SegmentAttr(context).setAttr(entry, StringAttr::get(context, targetName));
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
  OpBuilder entryBuilder(returnOp);
  IRMapping entryValues; // Old values of the entry -> their new values.
  DenseMap<Value, std::string> home; // New values -> the memory holding them.
  for (BlockArgument arg : body.getArguments()) {
    entryValues.map(arg, arg);
    home[arg] = kFallbackTargetName.str();
  }
  DenseMap<std::pair<Value, StringRef>, Value> transferred;
  auto moveTo = [&](Value value, StringRef side) -> Value {
    if (home.lookup(value) == side)
      return value;
    Value &moved = transferred[{value, side}];
    if (!moved) {
      moved = TransferOp::create(entryBuilder, value.getLoc(), value,
                                 home.lookup(value), side);
      home[moved] = side.str();
    }
    return moved;
  };

  // A target segment that only moves data does not pay: its neighbours are
  // host segments (or the entry's inputs and outputs, which live on the
  // host), so it would cost a transfer each way for work the host does in
  // one copy. It joins the host, which may merge segments and leave
  // another such segment; repeat until none is left.
  auto segments = scheduleSegments(ops, placement);
  for (bool moved = true; moved;) {
    moved = false;
    for (auto &[side, segmentOps] : segments) {
      if (side != targetName || !llvm::all_of(segmentOps, isDataMovementOp))
        continue;
      StringAttr reason = StringAttr::get(
          context, "does not pay on " + targetName +
                       ": it only moves data, between host segments");
      for (Operation *op : segmentOps) {
        FallbackAttr(context).setAttr(op, reason);
        placement[op] = kFallbackTargetName.str();
      }
      moved = true;
    }
    if (moved)
      segments = scheduleSegments(ops, placement);
  }
  llvm::DenseSet<Operation *> scheduled;
  int segmentIndex = 0;
  for (auto &[side, segmentOps] : segments) {
    llvm::SmallPtrSet<Operation *, 16> inSegment(segmentOps.begin(),
                                                 segmentOps.end());
    // Inputs: values from outside the segment that are not constants.
    llvm::SetVector<Value> inputs;
    for (Operation *op : segmentOps)
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          bool inside = producer && (inSegment.contains(producer) ||
                                     op->isProperAncestor(producer));
          if (!inside && !(producer && isCopiedIntoSegments(producer)))
            inputs.insert(operand);
        }
      });
    // Outputs: values used after the segment.
    SmallVector<Value> outputs;
    for (Operation *op : segmentOps)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !inSegment.contains(user);
            }))
          outputs.push_back(result);

    SmallVector<Type> inputTypes, outputTypes;
    for (Value input : inputs)
      inputTypes.push_back(input.getType());
    for (Value output : outputs)
      outputTypes.push_back(output.getType());
    auto function = func::FuncOp::create(
        moduleBuilder, entry.getLoc(),
        llvm::formatv("{0}_segment{1}_{2}", entry.getSymName(), segmentIndex++,
                      side)
            .str(),
        FunctionType::get(context, inputTypes, outputTypes));
    function.setPrivate();
    SegmentAttr(context).setAttr(function, StringAttr::get(context, side));
    // Names unique within the segment (one node may make several tensors
    // that cross, such as QLinearConv's dequantized operands).
    llvm::StringSet<> inputNames, outputNames;
    auto uniqueName = [&](Value value, llvm::StringSet<> &taken) {
      std::string base = getTensorName(value, entry), name = base;
      for (int suffix = 1; !taken.insert(name).second; ++suffix)
        name = base + "#" + std::to_string(suffix);
      return StringAttr::get(context, name);
    };
    for (auto [index, input] : llvm::enumerate(inputs))
      function.setArgAttr(index, kONNXNameAttr, uniqueName(input, inputNames));
    for (auto [index, output] : llvm::enumerate(outputs))
      function.setResultAttr(index, kONNXNameAttr,
                             uniqueName(output, outputNames));

    Block *segmentBody = function.addEntryBlock();
    OpBuilder segmentBuilder = OpBuilder::atBlockEnd(segmentBody);
    IRMapping segmentValues;
    for (auto [input, arg] : llvm::zip(inputs, segmentBody->getArguments()))
      segmentValues.map(input, arg);
    for (Operation *op : segmentOps) {
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *producer = operand.getDefiningOp())
            if (isCopiedIntoSegments(producer) &&
                !segmentValues.contains(operand) && !inSegment.count(producer))
              segmentBuilder.clone(*producer, segmentValues);
      });
      segmentBuilder.clone(*op, segmentValues);
    }
    SmallVector<Value> returned;
    for (Value output : outputs)
      returned.push_back(segmentValues.lookup(output));
    func::ReturnOp::create(segmentBuilder, entry.getLoc(), returned);

    // The call, with each input moved to the segment's side.
    SmallVector<Value> arguments;
    for (Value input : inputs) {
      Value value = entryValues.lookupOrNull(input);
      if (!value) // A constant of the entry itself.
        value = entryBuilder.clone(*input.getDefiningOp())->getResult(0);
      arguments.push_back(moveTo(value, side));
    }
    auto call =
        func::CallOp::create(entryBuilder, entry.getLoc(), function, arguments);
    for (auto [output, result] : llvm::zip(outputs, call.getResults())) {
      entryValues.map(output, result);
      home[result] = side;
    }
    scheduled.insert(segmentOps.begin(), segmentOps.end());
  }

  for (OpOperand &operand : returnOp->getOpOperands()) {
    Value value = entryValues.lookupOrNull(operand.get());
    if (!value)
      return returnOp.emitError("an output of the entry comes from no segment");
    operand.set(moveTo(value, kFallbackTargetName));
  }
  // The original ops are all in segments now; erase them users first.
  SmallVector<Operation *> original;
  for (Operation &op : body.without_terminator())
    if (scheduled.contains(&op) || isCopiedIntoSegments(&op))
      original.push_back(&op);
  for (Operation *op : llvm::reverse(original))
    if (scheduled.contains(op) || op->use_empty())
      op->erase();
  return true;
}

std::vector<func::FuncOp> dlc::getSegments(ModuleOp module) {
  std::vector<func::FuncOp> segments;
  func::FuncOp entry = getEntryFunction(module);
  if (!entry)
    return segments;
  entry.walk([&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (callee && SegmentAttr(module.getContext()).isAttrPresent(callee))
      segments.push_back(callee);
  });
  return segments;
}

llvm::StringRef dlc::getSegmentTarget(func::FuncOp function) {
  StringAttr side = SegmentAttr(function.getContext()).getAttr(function);
  return side ? side.getValue() : "";
}

OwningOpRef<ModuleOp> dlc::extractSegment(ModuleOp module,
                                          func::FuncOp function) {
  OpBuilder builder(module.getContext());
  OwningOpRef<ModuleOp> segmentModule = ModuleOp::create(function.getLoc());
  for (NamedAttribute attr : module->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      (*segmentModule)->setAttr(attr.getName(), attr.getValue());
  builder.setInsertionPointToEnd(segmentModule->getBody());
  auto entry = cast<func::FuncOp>(builder.clone(*function));
  entry.setSymName("main");
  entry.setPublic();
  SegmentAttr(module.getContext()).removeAttr(entry);
  return segmentModule;
}

//===----------------------------------------------------------------------===//
// The plan, the report and the executable
//===----------------------------------------------------------------------===//

/// The ops that fell back, with their reasons, in the order they run.
static std::vector<FallbackNode> getFallbackNodes(ModuleOp module) {
  std::vector<FallbackNode> nodes;
  std::vector<func::FuncOp> segments = getSegments(module);
  std::vector<Operation *> roots(segments.begin(), segments.end());
  if (roots.empty())
    if (func::FuncOp entry = getEntryFunction(module))
      roots.push_back(entry);
  // One entry per node (an ONNX node may be several dlc ops, such as
  // QLinearConv's), its distinct reasons joined.
  for (Operation *root : roots)
    root->walk([&](Operation *op) {
      StringAttr reason = FallbackAttr(module.getContext()).getAttr(op);
      if (!reason)
        return;
      std::string name = getNodeName(op);
      auto node = llvm::find_if(
          nodes, [&](const FallbackNode &n) { return n.name == name; });
      if (node == nodes.end()) {
        nodes.push_back({name, getNodeOpType(op->getLoc()), reason.str()});
        return;
      }
      SmallVector<StringRef> known;
      StringRef(node->reason).split(known, "; ");
      if (!llvm::is_contained(known, reason.getValue()))
        node->reason += "; " + reason.str();
    });
  // Nodes with ops on the target too (QLinearConv's convolution) run there
  // in part.
  for (func::FuncOp segment : segments)
    if (getSegmentTarget(segment) != kFallbackTargetName)
      segment.walk([&](Operation *op) {
        std::string name = getNodeName(op);
        for (FallbackNode &node : nodes)
          node.partly |= node.name == name;
      });
  return nodes;
}

FailureOr<PartitionPlan> PartitionPlan::build(ModuleOp module) {
  PartitionPlan plan;
  func::FuncOp entry = getEntryFunction(module);
  if (!entry)
    return module.emitError("the module has no entry function");
  if (StringAttr target = SegmentAttr(module.getContext()).getAttr(entry))
    plan.target = target.str();
  DenseMap<Value, int> tensors;
  for (BlockArgument arg : entry.getArguments())
    tensors[arg] = plan.numTensors++;
  plan.numInputs = plan.numTensors;
  auto lookup = [&](Value value, SmallVectorImpl<int> &into) {
    auto it = tensors.find(value);
    if (it == tensors.end())
      return failure();
    into.push_back(it->second);
    return success();
  };
  for (Operation &op : entry.getBody().front()) {
    Step step;
    SmallVector<int> inputs;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || getSegmentTarget(callee).empty())
        return call.emitError("a partitioned entry calls only its segments");
      step.segment = plan.segmentTargets.size();
      plan.segmentTargets.push_back(getSegmentTarget(callee).str());
    } else if (auto transfer = dyn_cast<TransferOp>(op)) {
      step.toHost = transfer.getDestination() == kFallbackTargetName;
      int64_t bytes = getTensorBytes(transfer.getType());
      ++plan.transfers;
      (step.toHost ? plan.targetToHostBytes : plan.hostToTargetBytes) += bytes;
    } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<int> results;
      for (Value value : ret.getOperands())
        if (failed(lookup(value, results)))
          return ret.emitError("an output of the entry comes from no segment");
      plan.results.assign(results.begin(), results.end());
      continue;
    } else {
      return op.emitError("a partitioned entry holds only calls of its "
                          "segments and transfers");
    }
    for (Value operand : op.getOperands())
      if (failed(lookup(operand, inputs)))
        return op.emitError("an operand comes from no segment");
    step.inputs.assign(inputs.begin(), inputs.end());
    for (Value result : op.getResults()) {
      tensors[result] = plan.numTensors;
      step.outputs.push_back(plan.numTensors++);
    }
    plan.steps.push_back(std::move(step));
  }
  plan.fallbackNodes = getFallbackNodes(module);
  if (plan.target.empty())
    return entry.emitError("the entry is not partitioned (no dlc.segment)");
  return plan;
}

llvm::json::Object PartitionPlan::toJSON() const {
  int64_t hostSegments = llvm::count(segmentTargets, kFallbackTargetName);
  llvm::json::Array nodes;
  for (const FallbackNode &node : fallbackNodes)
    nodes.push_back(llvm::json::Object{{"name", node.name},
                                       {"op", node.opType},
                                       {"reason", node.reason},
                                       {"partly", node.partly}});
  return llvm::json::Object{
      {"host_segments", hostSegments},
      {"target_segments",
       static_cast<int64_t>(segmentTargets.size()) - hostSegments},
      {"nodes", std::move(nodes)},
      {"transfers", transfers},
      {"host_to_target_bytes", hostToTargetBytes},
      {"target_to_host_bytes", targetToHostBytes}};
}

/// `a + b` for numbers and elementwise for arrays of equal length; `a` for
/// anything else (a figure that does not add, such as a name).
static llvm::json::Value addFigures(const llvm::json::Value &a,
                                    const llvm::json::Value &b) {
  if (a.getAsInteger() && b.getAsInteger())
    return *a.getAsInteger() + *b.getAsInteger();
  if (a.getAsNumber() && b.getAsNumber())
    return *a.getAsNumber() + *b.getAsNumber();
  const llvm::json::Array *left = a.getAsArray(), *right = b.getAsArray();
  if (left && right && left->size() == right->size()) {
    llvm::json::Array sum;
    for (auto [x, y] : llvm::zip(*left, *right))
      sum.push_back(addFigures(x, y));
    return sum;
  }
  return a;
}

TargetReport dlc::mergeSegmentReports(const PartitionPlan &plan,
                                      ArrayRef<TargetReport> reports) {
  TargetReport merged;
  merged.target = plan.target;
  // The accelerator's machine and clock when it runs anything, else the
  // host's.
  const TargetReport *base = nullptr;
  for (auto [report, side] : llvm::zip(reports, plan.segmentTargets))
    if (!base && side != kFallbackTargetName)
      base = &report;
  if (!base && !reports.empty())
    base = &reports.front();
  if (base) {
    merged.source = base->source;
    merged.hardware = llvm::json::Object(base->hardware);
    merged.clockHz = base->clockHz;
    merged.peakMacsPerCycle = base->peakMacsPerCycle;
    merged.peakDramBytesPerSecond = base->peakDramBytesPerSecond;
  }
  double measured = 0;
  bool anyMeasured = false;
  for (auto [report, side] : llvm::zip(reports, plan.segmentTargets)) {
    bool onHost = side == kFallbackTargetName;
    double scale = merged.clockHz / report.clockHz;
    double segmentCycles = 0;
    for (const LayerFigures &layer : report.layers) {
      LayerFigures converted = layer;
      converted.cycles = layer.cycles * scale;
      converted.extra["on"] = side;
      if (onHost) {
        // The host's memory is not the accelerator's DRAM.
        converted.extra["host_read_bytes"] = layer.dramReadBytes;
        converted.extra["host_write_bytes"] = layer.dramWriteBytes;
        converted.dramReadBytes = converted.dramWriteBytes = 0;
      }
      segmentCycles += converted.cycles;
      merged.layers.push_back(std::move(converted));
    }
    if (report.measuredCycles) {
      anyMeasured = true;
      measured += *report.measuredCycles * scale;
    } else {
      measured += segmentCycles;
    }
    merged.compulsoryDramBytes += onHost ? 0 : report.compulsoryDramBytes;
    if (onHost)
      continue;
    // The accelerator's own summary figures (numbers and arrays of them, per
    // unit), summed over its segments.
    for (auto &[key, value] : report.summaryExtra) {
      auto it = merged.summaryExtra.find(key);
      if (it == merged.summaryExtra.end())
        merged.summaryExtra[key] = value;
      else
        it->second = addFigures(it->second, value);
    }
  }
  if (anyMeasured)
    merged.measuredCycles = measured;
  merged.summaryExtra["fallback"] = plan.toJSON();
  return merged;
}

namespace {

class PartitionedExecutable : public Executable {
public:
  PartitionedExecutable(PartitionPlan plan, EntrySignature signature,
                        std::vector<std::unique_ptr<Executable>> segments)
      : plan(std::move(plan)), signature(std::move(signature)),
        segments(std::move(segments)) {}

  const EntrySignature &getSignature() const override { return signature; }

  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) override {
    if (llvm::Error error = signature.checkInputs(inputs))
      return std::move(error);
    std::vector<Tensor> tensors(plan.numTensors);
    llvm::copy(inputs, tensors.begin());
    for (const PartitionPlan::Step &step : plan.steps) {
      if (step.segment < 0) {
        // What crosses between the memories: one copy of the tensor.
        tensors[step.outputs[0]] = tensors[step.inputs[0]];
        continue;
      }
      std::vector<Tensor> arguments;
      for (int input : step.inputs)
        arguments.push_back(tensors[input]);
      llvm::Expected<std::vector<Tensor>> results =
          segments[step.segment]->run(arguments);
      if (!results)
        return results.takeError();
      for (auto [index, output] : llvm::enumerate(step.outputs))
        tensors[output] = std::move((*results)[index]);
    }
    std::vector<Tensor> outputs;
    for (int result : plan.results)
      outputs.push_back(tensors[result]);
    return outputs;
  }

  llvm::Expected<TargetReport> getReport() const override {
    std::vector<TargetReport> reports;
    for (const std::unique_ptr<Executable> &segment : segments) {
      llvm::Expected<TargetReport> report = segment->getReport();
      if (!report)
        return report.takeError();
      reports.push_back(std::move(*report));
    }
    return mergeSegmentReports(plan, reports);
  }

private:
  PartitionPlan plan;
  EntrySignature signature;
  std::vector<std::unique_ptr<Executable>> segments;
};

struct PartitionForTargetPass
    : public dlc::impl::PartitionForTargetBase<PartitionForTargetPass> {
  using PartitionForTargetBase::PartitionForTargetBase;

  void runOnOperation() override {
    const Target *target = lookupTarget(targetName);
    if (!target) {
      getOperation().emitError("unknown target '") << targetName << "'";
      return signalPassFailure();
    }
    if (failed(partitionForTarget(getOperation(), *target)))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Executable> dlc::makePartitionedExecutable(
    PartitionPlan plan, EntrySignature signature,
    std::vector<std::unique_ptr<Executable>> segments) {
  return std::make_unique<PartitionedExecutable>(
      std::move(plan), std::move(signature), std::move(segments));
}
