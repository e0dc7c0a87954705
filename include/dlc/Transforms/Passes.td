//===- Passes.td - dlc's shared memref/affine passes -------*- tablegen -*-===//
//
// Passes on bufferized IR shared by every target's pipeline (the shared
// affine memory passes of ARCHITECTURE.md live here).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PASSES_TD
#define DLC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
#endif // DLC_TRANSFORMS_PASSES_TD
