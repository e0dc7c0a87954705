//===- Passes.td - dlc conversion passes -------------------*- tablegen -*-===//
#ifndef DLC_CONVERSION_PASSES_TD
#define DLC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertDLCToLinalg : Pass<"convert-dlc-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower dlc tensor ops to linalg, tensor, arith and math";
  let description = [{
    Rewrites every `dlc` op into upstream ops on tensors: linalg named ops
    where one exists (`linalg.conv_2d_nchw_fchw`, `linalg.matmul`,
    `linalg.batch_matmul`, `linalg.pooling_nchw_max`, ...), `linalg.generic`
    for elementwise ops with broadcasting, reductions and normalisations,
    `tensor` ops for data movement. The result is ready for one-shot
    bufferization.

    Semantics follow ONNX in float32 exactly: conv and pool padding is an
    explicit `tensor.pad` (0, -inf), `ceil_mode` is extra end padding that is
    never counted, average pooling divides by per-position counts computed
    at compile time, softmax subtracts the maximum, integer division never
    traps. Unsigned integers (`ui8`...) compute on signless values with the
    unsigned arith ops (`divui`, `maxui`, `uitofp`, ...); the functions'
    signatures become signless.

    Before:
    ```mlir
    %0 = dlc.relu %x : tensor<4xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %in, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect"
  ];
}

#endif // DLC_CONVERSION_PASSES_TD
