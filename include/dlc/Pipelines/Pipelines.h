//===- Pipelines.h - pipelines every target starts from --------*- C++ -*-===//
#ifndef DLC_PIPELINES_PIPELINES_H
#define DLC_PIPELINES_PIPELINES_H

#include "dlc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <functional>

namespace dlc {

/// Options of every target pipeline (`dlc compile`/`dlc run` flags, and the
/// options of `--dlc-<target>-pipeline` in dlc-opt).
struct PipelineOptions : public mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> hardware{
      *this, "hw",
      llvm::cl::desc("Overrides of the target's hardware description, "
                     "comma-separated name=value entries "
                     "(local_memory_bytes=64K,banks=4)"),
      llvm::cl::init("")};
  Option<LoopOrder> loopOrder{
      *this, "loop-order",
      llvm::cl::desc("Order of the tile loops of nests that read maps and "
                     "kernels (dlc-tile-for-local-memory)"),
      llvm::cl::init(LoopOrder::Auto), getLoopOrderValues()};
  Option<BankLayoutMode> layoutMode{
      *this, "layout-mode",
      llvm::cl::desc("How bank layouts are chosen (dlc-assign-bank-layout)"),
      llvm::cl::init(BankLayoutMode::Global), getBankLayoutModeValues()};
  Option<bool> balanceLoads{
      *this, "balance-loads",
      llvm::cl::desc("Give each transfer to the least loaded load/store unit "
                     "(Snowflake); false gives each kind of transfer its own "
                     "unit"),
      llvm::cl::init(true)};
  Option<bool> eliminateCopies{
      *this, "eliminate-copies",
      llvm::cl::desc("Run the data-movement elimination; false keeps every "
                     "copy (to measure what the elimination saves)"),
      llvm::cl::init(true)};
  Option<std::string> memoryReport{
      *this, "memory-report",
      llvm::cl::desc("Write the per-node memory report (JSON) of the shared "
                     "memory passes to this file ('-': stdout)"),
      llvm::cl::init("")};
};

/// Tensor-level clean-up every target starts with: canonicalisation (which
/// folds constant shape subgraphs, BatchNorm into Conv, Identity and
/// Dropout) and CSE.
void buildDLCCleanupPipeline(mlir::OpPassManager &pm);

/// dlc -> linalg on tensors -> one-shot bufferization -> affine loops. The
/// shared affine memory passes of the accelerators start from this IR.
void buildDLCToAffinePipeline(mlir::OpPassManager &pm);

/// The shared affine memory passes: data-movement elimination, then, for
/// the machine in the module's `#dlc.hardware` (they do nothing without a
/// local memory), bank layout, tiling for the capacity, explicit transfers and
/// the independent capacity check; the report when asked for.
/// Where a target adds its own passes to the memory pipeline.
struct MemoryPipelineHooks {
  /// After the transfers exist, before double buffering: the tiled nests
  /// with their DMAs, where a target spreads tiles over its processing
  /// units (double buffering then works per unit).
  std::function<void(mlir::OpPassManager &)> beforeDoubleBuffering;
};

void buildDLCMemoryPipeline(mlir::OpPassManager &pm,
                            const PipelineOptions &options,
                            const MemoryPipelineHooks &hooks = {});

/// Registers `--dlc-to-affine-pipeline` with dlc-opt.
void registerDLCPipelines();

} // namespace dlc

#endif // DLC_PIPELINES_PIPELINES_H
