//===- InferentiaExecutor.h - the simulator as executor ---------*- C++ -*-===//
//
// The executor of `dlc run --target inferentia`: a trace and its weights
// on lib/Simulator/Inferentia, and the report of what the simulator
// counted. The copy figures are shared with the compiler's prediction.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_INFERENTIA_INFERENTIAEXECUTOR_H
#define DLC_TARGET_INFERENTIA_INFERENTIAEXECUTOR_H

#include "dlc/Target/Inferentia/Trace.h"
#include "dlc/Target/Target.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace dlc::inferentia {

/// Runs `trace` with `weights` (the bytes of its weights file) on the
/// simulator (lib/Simulator/Inferentia). The model's inputs and outputs
/// are the header's, matched to `manifest.signature` by name (by position
/// when the names differ but the counts agree); the report's hardware is
/// `manifest.extra["hardware"]`. Errors (weights that are not the header's
/// size, a signature the trace does not have) are emitted at `loc`.
mlir::FailureOr<std::unique_ptr<Executable>>
loadInferentiaTrace(mlir::Location loc, Trace trace,
                    std::vector<uint8_t> weights,
                    const ArtifactManifest &manifest);

/// The report fields of an instruction stream that the compiler knows
/// without running it: which instructions are copies (on-chip: TensorCopy
/// and Transpose with a cause, DmaCopy from SBUF to SBUF; off-chip: DmaCopy
/// to or from DRAM; bytes written), by cause.
struct CopyCount {
  int64_t count = 0, bytes = 0;
};
struct CopyFigures {
  /// Indexed by Cause.
  CopyCount onchip[5], offchip[5];

  void add(const Instruction &instruction);
  /// `onchip_copies`, `offchip_copies`, `onchip_copy_bytes`,
  /// `offchip_copy_bytes` and the same `..._by_cause`.
  void addTo(llvm::json::Object &object) const;
};

} // namespace dlc::inferentia

#endif // DLC_TARGET_INFERENTIA_INFERENTIAEXECUTOR_H
