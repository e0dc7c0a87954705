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
    traps. Ops on element types the lowering cannot compute on (unsigned
    integers) are reported on the op, and the pass fails.

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

def MemRefCopyToLinalg : Pass<"dlc-memref-copy-to-linalg"> {
  let summary = "Rewrite memref.copy as linalg.copy";
  let description = [{
    One-shot bufferization materialises tensor.pad, tensor.insert_slice and
    returned values as `memref.copy`. As `linalg.copy` they lower to affine
    loops like every other op, so the affine IR that the shared memory
    passes start from has no opaque copies left.

    Before:
    ```mlir
    memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
    ```
    After:
    ```mlir
    linalg.copy ins(%a : memref<4xf32>)
                outs(%b : memref<4xf32, strided<[1], offset: 2>>)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def FlattenMemRefGlobals : Pass<"dlc-flatten-memref-globals", "mlir::ModuleOp"> {
  let summary = "Store constant memref globals as 1-D arrays";
  let description = [{
    The LLVM translation of a rank-k global builds one LLVM constant per
    innermost row: a 2048x512x1x1 weight becomes a million one-element
    arrays, which makes translation and JIT compilation of a model like
    ResNet-50 take minutes. Stored 1-D, each global is one flat constant
    (the dense_resource blob is reused as it is); every `memref.get_global`
    gets the original shape back through a `memref.expand_shape` view.

    Before:
    ```mlir
    memref.global "private" constant @w : memref<8x4x1x1xf32> = dense_resource<w>
    %0 = memref.get_global @w : memref<8x4x1x1xf32>
    ```
    After:
    ```mlir
    memref.global "private" constant @w : memref<32xf32> = dense_resource<w>
    %flat = memref.get_global @w : memref<32xf32>
    %0 = memref.expand_shape %flat [[0, 1, 2, 3]] output_shape [8, 4, 1, 1]
        : memref<32xf32> into memref<8x4x1x1xf32>
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

#endif // DLC_CONVERSION_PASSES_TD
