//===- Partition.h - host fallback: a model split across two targets -*- C++
//-*-===//
//
// An accelerator target runs what it can; the rest of the model runs on the
// host as part of the same compiled model (ARCHITECTURE.md, "Host
// fallback"). `dlc-partition-for-target` splits the entry into segments
// (functions tagged `dlc.segment`) called in order, with `dlc.transfer`
// wherever a tensor crosses between the two memories; each segment is then
// compiled by its own target's pipeline as a model of its own, and the
// partitioned executable runs the entry's calls and transfers.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_PARTITION_H
#define DLC_TARGET_PARTITION_H

#include "dlc/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <string>
#include <vector>

namespace dlc {

/// The target fallback segments run on.
inline constexpr llvm::StringLiteral kFallbackTargetName = "host";

/// Splits the entry of `module` between `target` and the host (see the pass
/// `dlc-partition-for-target`). True when anything fell back, false when the
/// module was left as it is.
mlir::FailureOr<bool> partitionForTarget(mlir::ModuleOp module,
                                         const Target &target);

/// The segments of a partitioned module in the order the entry calls them
/// (empty for a module that is not partitioned).
std::vector<mlir::func::FuncOp> getSegments(mlir::ModuleOp module);

/// The target segment `function` runs on.
llvm::StringRef getSegmentTarget(mlir::func::FuncOp function);

/// A new module holding segment `function` of `module` as its public entry
/// `main`, with the module's attributes and names for its inputs and
/// outputs (the ONNX tensor when there is one): a model of its own for the
/// segment's target pipeline.
mlir::OwningOpRef<mlir::ModuleOp> extractSegment(mlir::ModuleOp module,
                                                 mlir::func::FuncOp function);

/// The ops of the entry that fell back, with their reasons.
struct FallbackNode {
  std::string name, opType, reason;
  /// Some of the node's ops run on the target (a QLinearConv's convolution
  /// does, its quantization does not).
  bool partly = false;
};

/// What the entry of a partitioned module does, as plain data (the
/// executable outlives the module): the calls of the segments and the
/// transfers between them, over numbered tensors.
struct PartitionPlan {
  struct Step {
    /// A call of segment `segment`, or (segment < 0) a transfer of
    /// `inputs[0]` into `outputs[0]`.
    int segment = -1;
    std::vector<int> inputs, outputs;
    bool toHost = false; // A transfer's direction.
  };
  std::string target;
  /// The target of each segment, in call order.
  std::vector<std::string> segmentTargets;
  /// Tensors 0..numInputs-1 are the entry's inputs.
  int numInputs = 0, numTensors = 0;
  std::vector<Step> steps;
  std::vector<int> results;
  std::vector<FallbackNode> fallbackNodes;
  int64_t transfers = 0, hostToTargetBytes = 0, targetToHostBytes = 0;

  /// The plan of a module partitioned for `target`; an error on the entry
  /// for anything the entry may not hold.
  static mlir::FailureOr<PartitionPlan> build(mlir::ModuleOp module);

  /// The summary's `fallback` record: segments per side, fallen-back nodes
  /// with their reasons, transfers and their bytes.
  llvm::json::Object toJSON() const;
};

/// One report for the whole partitioned model from the segments' reports (in
/// call order, each from its own target): layers in call order in the
/// accelerator's clock (host layers converted through their seconds and
/// marked `"on": "host"`), the accelerator segments' own summary figures
/// summed, and the plan's `fallback` record.
TargetReport mergeSegmentReports(const PartitionPlan &plan,
                                 llvm::ArrayRef<TargetReport> reports);

/// The executable of a partitioned model: `segments[i]` runs segment i.
std::unique_ptr<Executable>
makePartitionedExecutable(PartitionPlan plan, EntrySignature signature,
                          std::vector<std::unique_ptr<Executable>> segments);

} // namespace dlc

#endif // DLC_TARGET_PARTITION_H
