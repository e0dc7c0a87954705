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

def ConvertLinalgToAffineNests
    : Pass<"convert-linalg-to-affine-nests", "mlir::func::FuncOp"> {
  let summary = "Lower linalg ops to affine loop nests that say what they "
                "compute";
  let description = [{
    Lowers every linalg op on buffers to an `affine.for` nest (as upstream's
    `convert-linalg-to-affine-loops`, whose per-op rewrite it calls) and
    records on the nest's outermost loop a `dlc.nest` dictionary: the op it
    came from, its class (`convolution`, `pooling`, `contraction`,
    `elementwise`, `reduction`, `fill`, `copy`, `other`), the static trip
    count of each loop (outermost first), the positions of the reduction
    loops, the indexing maps of its operands (inputs then outputs, over the
    nest's loops) and, for convolutions and poolings, strides and
    dilations. The tiling passes keep it on the outermost loop of the tiled
    nest, so a target's lowering maps a tile onto its instructions from
    what the nest is (`getNestDescription` in
    dlc/Conversion/NestDescription.h) instead of re-deriving it from the
    loop bodies. Zero-dimensional ops have no loop and record nothing.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
                  outs(%c : memref<4x16xf32>)
    ```
    After:
    ```mlir
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 16 {
        affine.for %k = 0 to 8 {
          ...
        }
      }
    } {dlc.nest = {class = "contraction", loops = array<i64: 4, 16, 8>,
                   maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, ...],
                   op = "matmul", reductions = array<i64: 2>}}
    ```
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::memref::MemRefDialect"
  ];
}

#endif // DLC_CONVERSION_PASSES_TD
