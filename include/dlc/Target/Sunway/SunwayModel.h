//===- SunwayModel.h - the compiler's SW26010 prediction --------*- C++ -*-===//
//
// What `dlc compile --target sunway` predicts for the sunway-level module
// (report.json, source "predicted"): per CPE of every kernel, the DMA
// transfers with their bytes and blocks and the counted instructions of
// its code (the scalar accessors and SIMD intrinsics the emitted C
// executes), from exact trip counts; SW26010 time from them with the
// hardware description's rates. The emulation counts the same quantities
// independently when the code runs (`dlc run --report`); this code shares
// nothing with it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SUNWAY_SUNWAYMODEL_H
#define DLC_TARGET_SUNWAY_SUNWAYMODEL_H

#include "dlc/Support/CostReport.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Support/TargetReport.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace dlc::sunway {

/// One ONNX node of the compiled model: where it runs and its kernels.
struct SunwayLayer {
  std::string name, op;
  /// "cpe" (kernels on the core group) or "mpe".
  std::string unit;
  /// Where each part of the layer runs and why, in program order, each
  /// once (a launch's sunway.placement, kMPEPlacement).
  std::vector<std::string> placements;
  int64_t macs = 0;
  std::vector<std::string> kernels;
  /// LDM per CPE of the layer's largest kernel (buffers, reply words).
  int64_t ldmBytes = 0;
};

/// The layers of a sunway-level module in program order; MACs and op types
/// from `cost` (the tensor-level figures of each node).
std::vector<SunwayLayer> getSunwayLayers(mlir::ModuleOp module,
                                         const ModelCost &cost);

/// The bytes of every input and output and of the weights: what any
/// execution moves at least once.
int64_t getCompulsoryBytes(const EntrySignature &signature,
                           int64_t weightsBytes);

/// The compiler's prediction for a sunway-level module.
mlir::FailureOr<TargetReport> predictSunwayReport(mlir::ModuleOp module,
                                                  const ModelCost &cost);

} // namespace dlc::sunway

#endif // DLC_TARGET_SUNWAY_SUNWAYMODEL_H
