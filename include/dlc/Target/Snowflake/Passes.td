//===- Passes.td - the Snowflake target's passes -----------*- tablegen -*-===//
//
// The imported dlc module -> one snowflake.program -> registers. See
// docs/Targets/Snowflake.md ("The compiler").
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SNOWFLAKE_PASSES_TD
#define DLC_TARGET_SNOWFLAKE_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerLayers : Pass<"dlc-snowflake-lower-layers", "mlir::ModuleOp"> {
  let summary = "Compile the entry function's layers into one snowflake.program";
  let description = [{
    Takes the entry function at the dlc level (after clean-up: batch
    normalisation folded into convolutions) and writes one
    `snowflake.program` that computes it, then erases the function. Each
    ONNX node, with the ReLU that follows it, becomes a layer:

    - convolutions (any kernel, stride, padding, dilation and groups),
      Gemm/MatMul with constant weights and ReduceMean/AveragePool over
      the spatial axes are traces through the vMACs; a CU computes 64
      output channels of a band of output rows, the four CUs run the same
      instructions on four (block, band) pairs;
    - MaxPool, Relu and residual Add run on the vector MAX units;
    - Reshape/Flatten and Concat cost nothing: they choose where the
      producers write.

    Activations live in DRAM depth-minor (`[N][H][W][C]`), so a row of a
    convolution window is one trace of `kW x C` elements; the weights are
    laid out in the data section in the order the weights buffers take
    them. Per layer, the compiler's own model chooses the channel groups a
    tile holds, the band height, how the CUs split the work (output-channel
    blocks or bands), how the bands and blocks that do not fill a round
    run (column pieces; a phase of fewer blocks over all CUs), the input
    slots and the loop order: Mloop keeps each CU's weights and reloads the
    maps, Kloop keeps the maps and reloads the weights (`loop-order` forces
    one). The choice knows what the neighbouring convolutions need: a
    convolution's first weights load during the previous one's last step
    when that hides them. Maps, weights and outputs are double-buffered;
    `snowflake.sync` orders the units, and a step's transfers are spread
    between its pixels (the in-order control core stalls on a full unit
    queue). With `balance-loads`, each transfer goes to the load/store unit
    with the fewest bytes so far; without, maps go to unit 0, weights to
    unit 1 and stores to unit 2.

    A node the accelerator cannot run, or a layer that does not fit the
    buffers even one output row at a time, is an error naming the node and
    the limit.

    Before:
    ```mlir
    func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x16x8x8xf32> {
      %w = dlc.constant dense<...> : tensor<16x3x3x3xf32>
      %y = dlc.conv %x, %w {pads = array<i64: 1, 1, 1, 1>, ...}
      %r = dlc.relu %y : tensor<1x16x8x8xf32>
      return %r : tensor<1x16x8x8xf32>
    }
    ```

    After:
    ```mlir
    snowflake.program @main attributes {data = dense<...> : tensor<Nxi16>,
        inputs = [#snowflake.dram_tensor<"x", address = ..., shape = [1, 3, 8, 8],
                  strides = [192, 1, 24, 3]>], layers = [...], ...} {
      snowflake.lscfg unit(0) ...
      snowflake.ld unit(0) buffer(4) ...
      snowflake.sync 1
      scf.for %ow = %c0 to %c8 step %c1 iter_args(%m = ...) -> (i32) : i32 {
        snowflake.vbias cus(1) %bias
        snowflake.vmac cus(1) %m, %c0, %c9
        ...
        snowflake.vwb cus(1) %out, %c64 {relu = 1 : i32}
      }
      ...
    }
    ```
  }];
  let options = [
    Option<"loopOrder", "loop-order", "dlc::LoopOrder", "dlc::LoopOrder::Auto",
           "Mloop (maps reloaded), Kloop (kernels reloaded) or the model's "
           "choice per layer",
           [{dlc::getLoopOrderValues()}]>,
    Option<"balanceLoads", "balance-loads", "bool", "true",
           "Give each transfer to the least loaded load/store unit">,
  ];
  let dependentDialects = ["dlc::snowflake::SnowflakeDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def AllocateRegisters : Pass<"dlc-snowflake-allocate-registers",
                             "dlc::snowflake::ProgramOp"> {
  let summary = "Give every i32 value of a program a control-core register";
  let description = [{
    Linear scan over the program in emission order. A value is live from
    its definition to its last use; a value used inside a loop it is
    defined outside of stays live to the end of that loop; an `scf.for`'s
    induction variable, iteration arguments and results share registers
    for the whole loop. Constant 0 is `r0`; a constant used only as the
    immediate of `arith.addi`/`arith.subi` (16-bit) needs no register.
    Registers r1..r30 are given out; r31 is the emitter's scratch for the
    copies at the end of a loop body. More than 30 values live at once is
    an error on the value that does not fit (the lowering keeps pressure
    low: it materialises constants where they are used).

    Before:
    ```mlir
    %c4 = arith.constant 4 : i32
    snowflake.vmac cus(1) %c0, %c0, %c4
    ```

    After:
    ```mlir
    %c4 = arith.constant {snowflake.reg = 1 : i64} 4 : i32
    snowflake.vmac cus(1) %c0, %c0, %c4
    ```
  }];
}

#endif // DLC_TARGET_SNOWFLAKE_PASSES_TD
