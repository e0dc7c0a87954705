//===- CostReport.h - per-op MACs and bytes of a dlc module -----*- C++ -*-===//
//
// The figures of `dlc compile`'s report.json, computed once on the
// tensor-level (dlc dialect) IR so that every target starts from the same
// numbers; targets add their own fields (transfers, modeled cycles) to the
// JSON object.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_COSTREPORT_H
#define DLC_SUPPORT_COSTREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlc {

struct OpCost {
  /// The ONNX node name (from the op's NameLoc), or empty.
  std::string name;
  /// "dlc.conv", ...
  std::string opName;
  /// The ONNX op type of the node ("Conv"), or empty.
  std::string opType;
  /// The op's location, printed.
  std::string location;
  /// Multiply-accumulates of the contractions (conv, gemm, matmul); zero
  /// for every other op.
  int64_t macs = 0;
  /// Sizes of all operand tensors (weights included) and of all results:
  /// the traffic of the op run alone, without any reuse across ops.
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
};

struct ModelCost {
  std::vector<OpCost> ops;
  int64_t totalMacs = 0;
  int64_t totalBytesRead = 0;
  int64_t totalBytesWritten = 0;
};

/// Multiply-accumulates of one dlc op (see OpCost::macs).
int64_t computeMACs(mlir::Operation *op);

/// The cost of every dlc op of `module` except constants, in IR order.
ModelCost computeModelCost(mlir::ModuleOp module);

/// {"ops": [{"name", "op", "location", "macs", "bytes_read",
/// "bytes_written"}...], "totals": {"ops", "macs", "bytes_read",
/// "bytes_written"}}.
llvm::json::Object toJSON(const ModelCost &cost);

} // namespace dlc

#endif // DLC_SUPPORT_COSTREPORT_H
