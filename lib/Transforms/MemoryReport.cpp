//===- MemoryReport.cpp - compute, local memory and transfers per node ----===//

#include "LocalMemory.h"

#include "dlc/Analysis/AccessAnalysis.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>

namespace dlc {
#define GEN_PASS_DEF_MEMORYREPORT
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

/// The figures of one ONNX node.
struct NodeReport {
  std::string op;
  int64_t nests = 0;
  int64_t macs = 0;
  int64_t footprintBytes = 0;
  int64_t bytesIn = 0;
  int64_t bytesOut = 0;
  int64_t transfers = 0;
  /// Block bytes -> transfers.
  std::map<int64_t, int64_t> transferSizes;
  llvm::json::Array tiling;
  int64_t relayoutCopies = 0;
  int64_t relayoutBytes = 0;
  int64_t copiesRemoved = 0;
  int64_t copyBytesRemoved = 0;

  /// Adds the counts of `other`; the footprint is the peak of both.
  void accumulate(const NodeReport &other) {
    nests += other.nests;
    macs += other.macs;
    footprintBytes = std::max(footprintBytes, other.footprintBytes);
    bytesIn += other.bytesIn;
    bytesOut += other.bytesOut;
    transfers += other.transfers;
    for (auto [bytes, count] : other.transferSizes)
      transferSizes[bytes] += count;
    relayoutCopies += other.relayoutCopies;
    relayoutBytes += other.relayoutBytes;
    copiesRemoved += other.copiesRemoved;
    copyBytesRemoved += other.copyBytesRemoved;
  }

  llvm::json::Object toJSON() const {
    llvm::json::Object sizes;
    for (auto [bytes, count] : transferSizes)
      sizes[std::to_string(bytes)] = count;
    return llvm::json::Object{{"nests", nests},
                              {"macs", macs},
                              {"footprint_bytes", footprintBytes},
                              {"bytes_in", bytesIn},
                              {"bytes_out", bytesOut},
                              {"transfers", transfers},
                              {"transfer_sizes", std::move(sizes)},
                              {"relayout_copies", relayoutCopies},
                              {"relayout_bytes", relayoutBytes},
                              {"copies_removed", copiesRemoved},
                              {"copy_bytes_removed", copyBytesRemoved}};
  }
};

/// One `affine.dma_start` as its nest's `dlc.transfers` describes it.
struct Transfer {
  bool isIn;
  int64_t count;
  int64_t elements;
  int64_t block;
};

class ReportBuilder {
public:
  ReportBuilder(ModuleOp module, int64_t localSpace)
      : module(module), localSpace(localSpace) {}

  LogicalResult addFunction(func::FuncOp function);
  llvm::json::Array takeNodes(NodeReport &total);

private:
  NodeReport &getNode(const std::string &name);
  LogicalResult addNest(affine::AffineForOp nest, int64_t peak);
  LogicalResult addTransfer(affine::AffineDmaStartOp dma);
  LogicalResult addEliminatedCopies(func::FuncOp function);
  /// Number of times `op` runs per run of the function.
  FailureOr<int64_t> countRuns(Operation *op);
  FailureOr<Transfer> getTransfer(affine::AffineDmaStartOp dma);
  std::string getTransferNode(affine::AffineDmaStartOp dma, bool isIn);

  ModuleOp module;
  int64_t localSpace;
  /// Built on the first domain that is not a box of constant-bound loops.
  std::optional<AnalysisContext> analysis;
  std::vector<NodeReport> nodes;
  llvm::StringMap<size_t> nodeIndex;
};

} // namespace

NodeReport &ReportBuilder::getNode(const std::string &name) {
  auto [it, inserted] = nodeIndex.try_emplace(name, nodes.size());
  if (inserted)
    nodes.emplace_back().op = name;
  return nodes[it->second];
}

FailureOr<int64_t> ReportBuilder::countRuns(Operation *op) {
  Block &body = op->getParentOfType<func::FuncOp>().getBody().front();
  Operation *topLevel = body.findAncestorOpInBlock(*op);
  if (topLevel == op)
    return 1;
  // Constant-bound loops all the way up (the common case): the product of
  // their trip counts.
  int64_t runs = 1;
  for (Operation *parent = op->getParentOp();; parent = parent->getParentOp()) {
    auto loop = dyn_cast<affine::AffineForOp>(parent);
    std::optional<uint64_t> tripCount;
    if (loop && loop.hasConstantBounds())
      tripCount = affine::getConstantTripCount(loop);
    if (!tripCount || llvm::MulOverflow(runs, int64_t(*tripCount), runs)) {
      runs = -1;
      break;
    }
    if (parent == topLevel)
      break;
  }
  if (runs >= 0)
    return runs;
  std::string reason = "it is inside '" +
                       topLevel->getName().getStringRef().str() +
                       "', which is not an affine nest";
  if (auto nest = dyn_cast<affine::AffineForOp>(topLevel)) {
    if (!analysis)
      analysis.emplace(module);
    FailureOr<int64_t> count = countExecutions(*analysis, nest, op, reason);
    if (succeeded(count))
      return *count;
  }
  return op->emitError("cannot count how many times this op runs: ") << reason;
}

/// A MAC is a multiplication feeding an addition; index arithmetic is not.
static bool isMultiplyAccumulate(Operation *op) {
  if (!isa<arith::MulFOp, arith::MulIOp>(op) ||
      getElementTypeOrSelf(op->getResult(0).getType()).isIndex())
    return false;
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    return isa<arith::AddFOp, arith::AddIOp>(user);
  });
}

/// The value of an integer attribute that fits in 64 bits.
static std::optional<int64_t> getInt64(IntegerAttr attr) {
  if (!attr || attr.getValue().getSignificantBits() > 64)
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

/// JSON for an attribute of `dlc.tiling` (integers, strings, arrays,
/// dictionaries; anything else as it prints).
static llvm::json::Value toJSON(Attribute attr) {
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (isa<UnitAttr>(attr))
    return true;
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    if (std::optional<int64_t> value = getInt64(integer))
      return *value;
  if (auto number = dyn_cast<FloatAttr>(attr))
    return number.getValueAsDouble();
  if (auto string = dyn_cast<StringAttr>(attr))
    return string.getValue().str();
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array elements;
    for (Attribute element : array)
      elements.push_back(toJSON(element));
    return elements;
  }
  if (auto array = dyn_cast<DenseI64ArrayAttr>(attr))
    return llvm::json::Array(array.asArrayRef());
  if (auto dictionary = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dictionary)
      object[entry.getName().getValue()] = toJSON(entry.getValue());
    return object;
  }
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.print(os);
  return printed;
}

LogicalResult ReportBuilder::addNest(affine::AffineForOp nest, int64_t peak) {
  NodeReport &node = getNode(getNodeName(nest));
  ++node.nests;
  node.footprintBytes = std::max(node.footprintBytes, peak);
  if (Attribute tiling =
          nest->getAttr(DLCDialect::TilingAttrHelper::getNameStr()))
    node.tiling.push_back(toJSON(tiling));
  bool isRelayout = nest->hasAttr(DLCDialect::RelayoutAttrHelper::getNameStr());
  if (isRelayout)
    ++node.relayoutCopies;
  WalkResult result = nest->walk([&](Operation *op) {
    if (isMultiplyAccumulate(op)) {
      FailureOr<int64_t> runs = countRuns(op);
      if (failed(runs))
        return WalkResult::interrupt();
      int64_t width = 1;
      if (auto vector = dyn_cast<VectorType>(op->getResult(0).getType()))
        width = vector.getNumElements();
      node.macs += *runs * width;
    }
    if (isRelayout &&
        isa<affine::AffineWriteOpInterface, memref::StoreOp>(op)) {
      Type stored = isa<memref::StoreOp>(op)
                        ? cast<memref::StoreOp>(op).getValueToStore().getType()
                        : cast<affine::AffineWriteOpInterface>(op)
                              .getValueToStore()
                              .getType();
      std::optional<int64_t> bytes = getElementBytes(stored);
      if (!bytes) {
        op->emitError("stores a value of type ")
            << stored << ", which has no known size";
        return WalkResult::interrupt();
      }
      FailureOr<int64_t> runs = countRuns(op);
      if (failed(runs))
        return WalkResult::interrupt();
      node.relayoutBytes += *runs * *bytes;
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<Transfer> ReportBuilder::getTransfer(affine::AffineDmaStartOp dma) {
  // What dlc-generate-transfers recorded on the local buffer, if anything.
  Value local = isLocalMemRef(dma.getSrcMemRefType(), localSpace)
                    ? dma.getSrcMemRef()
                    : dma.getDstMemRef();
  if (Operation *alloc = local.getDefiningOp())
    if (Attribute attr =
            alloc->getAttr(DLCDialect::TransfersAttrHelper::getNameStr())) {
      auto records = dyn_cast<ArrayAttr>(attr);
      SmallVector<affine::AffineDmaStartOp> transfers =
          getBufferTransfers(local);
      if (!records || records.size() != transfers.size())
        return alloc->emitError("'dlc.transfers' must list one dictionary "
                                "per transfer of the buffer (")
               << transfers.size() << "); got " << attr;
      Attribute record =
          records[llvm::find(transfers, dma) - transfers.begin()];
      auto transfer = dyn_cast<DictionaryAttr>(record);
      auto direction =
          transfer ? transfer.getAs<StringAttr>("direction") : StringAttr();
      auto getInt = [&](StringRef name) -> std::optional<int64_t> {
        auto value =
            transfer ? transfer.getAs<IntegerAttr>(name) : IntegerAttr();
        std::optional<int64_t> number = getInt64(value);
        if (!number || *number < 0)
          return std::nullopt;
        return number;
      };
      std::optional<int64_t> count = getInt("count"),
                             elements = getInt("elements"),
                             block = getInt("block");
      if (!direction ||
          (direction.getValue() != "in" && direction.getValue() != "out") ||
          !count || !elements || !block)
        return alloc->emitError("'dlc.transfers' entries must be "
                                "dictionaries with direction = \"in\" or "
                                "\"out\" and non-negative integers count, "
                                "elements and block; got ")
               << record;
      return Transfer{direction.getValue() == "in", *count, *elements, *block};
    }
  // Hand-written IR: what the transfer pass would have recorded.
  bool srcIsLocal = isLocalMemRef(dma.getSrcMemRefType(), localSpace);
  bool dstIsLocal = isLocalMemRef(dma.getDstMemRefType(), localSpace);
  if (srcIsLocal == dstIsLocal)
    return dma.emitError(
               "is not listed in a 'dlc.transfers' and its direction is "
               "unknown: exactly one side must be in the local "
               "memory space ")
           << localSpace;
  APInt numElements;
  if (!matchPattern(dma.getNumElements(), m_ConstantInt(&numElements)))
    return dma.emitError(
        "is not listed in a 'dlc.transfers' and a non-constant number "
        "of elements");
  if (numElements.isNegative())
    return dma.emitError(
        "is not listed in a 'dlc.transfers' and a negative number of "
        "elements");
  int64_t block = numElements.getSExtValue();
  APInt perStride;
  if (dma.isStrided()) {
    if (!matchPattern(dma.getNumElementsPerStride(), m_ConstantInt(&perStride)))
      return dma.emitError(
          "is not listed in a 'dlc.transfers' and a non-constant "
          "number of elements per stride");
    if (!perStride.isStrictlyPositive())
      return dma.emitError(
          "is not listed in a 'dlc.transfers' and a non-positive number "
          "of elements per stride");
    block = perStride.getSExtValue();
  }
  FailureOr<int64_t> count = countRuns(dma);
  if (failed(count))
    return failure();
  int64_t elements;
  if (llvm::MulOverflow(*count, numElements.getSExtValue(), elements))
    return dma.emitError("moves more elements than fit in 64 bits");
  return Transfer{dstIsLocal, *count, elements, block};
}

std::string ReportBuilder::getTransferNode(affine::AffineDmaStartOp dma,
                                           bool isIn) {
  Block &body = dma->getParentOfType<func::FuncOp>().getBody().front();
  Operation *topLevel = body.findAncestorOpInBlock(*dma);
  if (topLevel != dma.getOperation())
    return getNodeName(topLevel);
  bool isNamed = false;
  dma->getLoc()->walk([&](Location loc) {
    isNamed |= isa<NameLoc>(loc);
    return isNamed ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (isNamed)
    return getNodeName(dma);
  // Staged around its nest: inputs before it, outputs after it.
  for (Operation *other = isIn ? dma->getNextNode() : dma->getPrevNode(); other;
       other = isIn ? other->getNextNode() : other->getPrevNode())
    if (isa<affine::AffineForOp>(other))
      return getNodeName(other);
  return getNodeName(dma);
}

LogicalResult ReportBuilder::addTransfer(affine::AffineDmaStartOp dma) {
  std::optional<int64_t> elementBytes =
      getElementBytes(dma.getSrcMemRefType().getElementType());
  if (!elementBytes)
    return dma.emitError("moves elements of type ")
           << dma.getSrcMemRefType().getElementType()
           << ", which has no known size";
  FailureOr<Transfer> transfer = getTransfer(dma);
  if (failed(transfer))
    return failure();
  int64_t bytes, blockBytes;
  if (llvm::MulOverflow(transfer->elements, *elementBytes, bytes) ||
      llvm::MulOverflow(transfer->block, *elementBytes, blockBytes))
    return dma.emitError("moves more bytes than fit in 64 bits");
  NodeReport &node = getNode(getTransferNode(dma, transfer->isIn));
  (transfer->isIn ? node.bytesIn : node.bytesOut) += bytes;
  node.transfers += transfer->count;
  node.transferSizes[blockBytes] += transfer->count;
  return success();
}

LogicalResult ReportBuilder::addEliminatedCopies(func::FuncOp function) {
  // The dialect verifier has checked that it is an array.
  auto records = DLCDialect::EliminatedCopiesAttrHelper(function.getContext())
                     .getAttr(function);
  if (!records)
    return success();
  for (Attribute record : records) {
    auto entry = dyn_cast<DictionaryAttr>(record);
    auto op = entry ? entry.getAs<StringAttr>("op") : StringAttr();
    auto bytes =
        getInt64(entry ? entry.getAs<IntegerAttr>("bytes") : IntegerAttr());
    if (!op || !bytes)
      return function.emitError("'dlc.eliminated_copies' entries must be "
                                "dictionaries with a string 'op' and an "
                                "integer 'bytes'; got ")
             << record;
    NodeReport &node = getNode(op.getValue().str());
    ++node.copiesRemoved;
    node.copyBytesRemoved += *bytes;
  }
  return success();
}

LogicalResult ReportBuilder::addFunction(func::FuncOp function) {
  if (function.isExternal())
    return success();
  LocalMemoryOptions options;
  options.localSpace = localSpace;
  FailureOr<DenseMap<Operation *, int64_t>> peaks =
      computeLocalMemoryPeaks(function, options);
  if (failed(peaks))
    return failure();
  for (Operation &op : function.getBody().front()) {
    if (auto nest = dyn_cast<affine::AffineForOp>(op))
      if (failed(addNest(nest, peaks->lookup(nest))))
        return failure();
    WalkResult result = op.walk([&](affine::AffineDmaStartOp dma) {
      return failed(addTransfer(dma)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return addEliminatedCopies(function);
}

llvm::json::Array ReportBuilder::takeNodes(NodeReport &total) {
  llvm::json::Array entries;
  for (NodeReport &node : nodes) {
    total.accumulate(node);
    llvm::json::Object entry = node.toJSON();
    entry["op"] = node.op;
    entry["tiling"] = std::move(node.tiling);
    entries.push_back(std::move(entry));
  }
  return entries;
}

namespace {
struct MemoryReportPass : public dlc::impl::MemoryReportBase<MemoryReportPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareAttr hardware = HardwareAttr::lookup(module);
    // Without a description, buffers in the default local space are local.
    int64_t localSpace = hardware ? hardware.getLocalMemorySpace() : 1;
    ReportBuilder builder(module, localSpace);
    for (auto function : module.getOps<func::FuncOp>())
      if (failed(builder.addFunction(function)))
        return signalPassFailure();

    NodeReport total;
    llvm::json::Array nodes = builder.takeNodes(total);
    llvm::json::Object totalJSON = total.toJSON();
    totalJSON["nodes"] = static_cast<int64_t>(nodes.size());
    llvm::json::Value hardwareJSON = nullptr;
    if (hardware)
      hardwareJSON = llvm::json::Object{
          {"local_memory_bytes", hardware.getLocalMemoryBytes()},
          {"local_memory_space", hardware.getLocalMemorySpace()},
          {"banks", hardware.getBanks()},
          {"double_buffering", hardware.getDoubleBuffering()},
          {"dma_block_overhead_bytes", hardware.getDmaBlockOverheadBytes()}};
    llvm::json::Value report =
        llvm::json::Object{{"hardware", std::move(hardwareJSON)},
                           {"nodes", std::move(nodes)},
                           {"total", std::move(totalJSON)}};

    if (output == "-") {
      llvm::outs() << llvm::formatv("{0:2}", report) << "\n";
      return;
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      module.emitError("cannot write the memory report to '")
          << output << "': " << error;
      return signalPassFailure();
    }
    file->os() << llvm::formatv("{0:2}", report) << "\n";
    file->keep();
  }
};
} // namespace
