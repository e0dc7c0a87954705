//===- Passes.td - passes shared by every target -----------*- tablegen -*-===//
#ifndef DLC_TARGET_PASSES_TD
#define DLC_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartitionForTarget
    : Pass<"dlc-partition-for-target", "mlir::ModuleOp"> {
  let summary = "Split the entry into segments for a target and the host";
  let description = [{
    Host fallback. Every op of the entry that the target cannot run gets
    `dlc.fallback = "<why>"` (the target's `getUnsupportedReason`, or a
    reason already on the op: the driver puts there what the target's
    pipeline rejected, and a user may set one to force an op to the host).
    When any op falls back, the entry's ops are scheduled into as few
    segments as their dependences allow (a list schedule that stays on one
    side while it can), each segment is outlined into a private function
    tagged `dlc.segment = "<target>"` or `"host"`, and the entry becomes
    the calls of the segments in order, with a `dlc.transfer` wherever a
    tensor crosses between the host's memory and the target's (the
    entry's inputs and outputs live on the host). A target segment that
    only moves data (reshape, transpose, slice, concat, gather, pad, ...)
    does not pay, since it sits between host segments and would cost a
    transfer each way: it falls back too (`does not pay on <target>`), and
    the schedule is made again. Constants are copied
    into every segment that uses them. A module with nothing to fall back
    is left as it is.

    Before (`target=snowflake`, which has no Resize):
    ```mlir
    func.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32> {
      %0 = dlc.relu %x : tensor<1x4x8x8xf32>
      %1 = dlc.resize %0 {...} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
      return %1 : tensor<1x4x16x16xf32>
    }
    ```
    After:
    ```mlir
    func.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32> {
      %0 = dlc.transfer %x {destination = "snowflake", source = "host"} : ...
      %1 = call @main_segment0_snowflake(%0) : ...
      %2 = dlc.transfer %1 {destination = "host", source = "snowflake"} : ...
      %3 = call @main_segment1_host(%2) : ...
      return %3 : tensor<1x4x16x16xf32>
    }
    func.func private @main_segment0_snowflake(%arg0: tensor<1x4x8x8xf32>)
        -> tensor<1x4x8x8xf32> attributes {dlc.segment = "snowflake"} {...}
    func.func private @main_segment1_host(%arg0: tensor<1x4x8x8xf32>)
        -> tensor<1x4x16x16xf32> attributes {dlc.segment = "host"} {
      %0 = dlc.resize %arg0 {..., dlc.fallback = "..."} : ...
      return %0 : tensor<1x4x16x16xf32>
    }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"\"",
           "The target the model is partitioned for (see `dlc targets`)">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "::dlc::DLCDialect"];
}

#endif // DLC_TARGET_PASSES_TD
