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

def CopyRepeatedResults : Pass<"dlc-copy-repeated-results", "mlir::ModuleOp"> {
  let summary = "Give every repeated function result a copy of its own";
  let description = [{
    Runs on tensors, just before one-shot bufferization. A function that
    returns the same value twice (an ONNX graph whose outputs `Y` and
    `Z = Identity(Y)` fold to one value) would return one buffer for two
    results, which buffer-results-to-out-params cannot turn into two
    out-parameters. Each repeated operand of `func.return` becomes a
    `bufferization.alloc_tensor` copy, so every result is computed into, or
    copied to, a buffer of its own and the entry keeps its
    inputs-then-outputs ABI.

    Before:
    ```mlir
    %0 = linalg.generic ... -> tensor<2xf32>
    return %0, %0 : tensor<2xf32>, tensor<2xf32>
    ```
    After:
    ```mlir
    %0 = linalg.generic ... -> tensor<2xf32>
    %1 = bufferization.alloc_tensor() copy(%0) : tensor<2xf32>
    return %0, %1 : tensor<2xf32>, tensor<2xf32>
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def AttachHardware : Pass<"dlc-attach-hardware", "mlir::ModuleOp"> {
  let summary = "Attach the target's hardware description to the module";
  let description = [{
    The first pass of every target pipeline. Sets the module's
    `dlc.hardware` attribute (see `#dlc.hardware` in the dlc dialect) to the
    description the module already carries, else to `hardware`, and then
    applies `overrides`, comma-separated `name=value` entries
    (`local_memory_bytes=16K,double_buffering=false`). The shared memory
    passes read the machine only from this attribute.

    Before (`overrides=local_memory_bytes=16K`):
    ```mlir
    module { ... }
    ```
    After:
    ```mlir
    module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384>} { ... }
    ```
  }];
  let options = [
    Option<"hardware", "hardware", "std::string", "\"#dlc.hardware<>\"",
           "Description used when the module carries none (attribute syntax)">,
    Option<"overrides", "overrides", "std::string", "\"\"",
           "Comma-separated name=value entries applied on top">,
  ];
  let dependentDialects = ["dlc::DLCDialect"];
}

#endif // DLC_TRANSFORMS_PASSES_TD
