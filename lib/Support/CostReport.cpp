//===- CostReport.cpp - per-op MACs and bytes of a dlc module -------------===//

#include "dlc/Support/CostReport.h"

#include "dlc/Dialect/DLC/IR/DLCDialect.h"
#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace dlc;
using namespace mlir;

static int64_t getNumElements(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : 0;
}

static int64_t getNumBytes(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return 0;
  int64_t bytesPerElement = (type.getElementTypeBitWidth() + 7) / 8;
  return type.getNumElements() * bytesPerElement;
}

static int64_t getDim(Value value, int64_t index) {
  auto type = cast<ShapedType>(value.getType());
  return type.getDimSize(index);
}

int64_t dlc::computeMACs(Operation *op) {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([](ConvOp conv) {
        // Every output element accumulates C/group * prod(kernel) products.
        auto filterType = cast<ShapedType>(conv.getFilter().getType());
        int64_t perOutput = 1;
        for (int64_t dim : filterType.getShape().drop_front())
          perOutput *= dim;
        return getNumElements(conv.getResult()) * perOutput;
      })
      .Case([](GemmOp gemm) {
        int64_t k = getDim(gemm.getA(), gemm.getTransA() ? 0 : 1);
        return getNumElements(gemm.getResult()) * k;
      })
      .Case([](MatMulOp matmul) {
        // The contracted dimension is the last of lhs (also when 1-D).
        auto lhsType = cast<ShapedType>(matmul.getLhs().getType());
        int64_t k = lhsType.getShape().empty() ? 1 : lhsType.getShape().back();
        return getNumElements(matmul.getResult()) * k;
      })
      .Default([](Operation *) { return int64_t(0); });
}

ModelCost dlc::computeModelCost(ModuleOp module) {
  ModelCost cost;
  module.walk([&](Operation *op) {
    if (!isa<DLCDialect>(op->getDialect()) || isa<ConstantOp>(op))
      return;
    OpCost &entry = cost.ops.emplace_back();
    entry.name = getNodeName(op->getLoc());
    entry.opName = op->getName().getStringRef().str();
    entry.opType = getNodeOpType(op->getLoc());
    llvm::raw_string_ostream locationStream(entry.location);
    op->getLoc().print(locationStream);
    entry.macs = computeMACs(op);
    for (Value operand : op->getOperands())
      entry.bytesRead += getNumBytes(operand);
    for (Value result : op->getResults())
      entry.bytesWritten += getNumBytes(result);
    cost.totalMacs += entry.macs;
    cost.totalBytesRead += entry.bytesRead;
    cost.totalBytesWritten += entry.bytesWritten;
  });
  return cost;
}

llvm::json::Object dlc::toJSON(const ModelCost &cost) {
  llvm::json::Array ops;
  for (const OpCost &op : cost.ops)
    ops.push_back(llvm::json::Object{{"name", op.name},
                                     {"op", op.opName},
                                     {"location", op.location},
                                     {"macs", op.macs},
                                     {"bytes_read", op.bytesRead},
                                     {"bytes_written", op.bytesWritten}});
  llvm::json::Object totals{{"ops", static_cast<int64_t>(cost.ops.size())},
                            {"macs", cost.totalMacs},
                            {"bytes_read", cost.totalBytesRead},
                            {"bytes_written", cost.totalBytesWritten}};
  return llvm::json::Object{{"ops", std::move(ops)},
                            {"totals", std::move(totals)}};
}
