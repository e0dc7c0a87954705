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

def VerifyLocalMemory : Pass<"dlc-verify-local-memory", "mlir::ModuleOp"> {
  let summary = "Check that the local memory is never over-committed";
  let description = [{
    The independent check of the shared memory passes' result: it trusts
    no decision of the tiling pass and looks only at the IR. At every point
    of every function, the local buffers live there (`memref.alloc` /
    `memref.alloca` results in the module's `local_memory_space`, from the
    allocation to their `memref.dealloc`, an alloca to the end of its
    allocation scope) must fit in `local_memory_bytes`: each counts its
    static shape times its element bytes, and a buffer allocated in a loop
    body and not freed there counts once per live instance (once per
    iteration run). The error is on the allocation that crosses the
    capacity and names the nest's ONNX node, the bytes live, every live
    buffer with its size, and the capacity.

    Every other use of a local buffer (load, store, DMA, view) must happen
    while it is live; a local buffer must come from an allocation of the
    function, have a static shape, and be deallocated once, in the block
    that allocates it. DMA tags (`memref<1xi32>` in the default space) are
    not local memory. A no-op when the module's `#dlc.hardware` is missing
    or has `local_memory_bytes = 0`.

    With `print=true`, prints one line per top-level nest (an `affine.for`
    in a function body) to stdout: `<node name>: peak local bytes N of C`,
    N counting the buffers allocated before the nest and still live.

    Before (`local_memory_bytes = 4096`):
    ```mlir
    %a = memref.alloc() : memref<32x32xf32, 1> loc("mm")
    %b = memref.alloc() : memref<32x32xf32, 1> loc("mm")
    affine.for %i = 0 to 32 { ... } loc("mm")
    ```
    After: the IR is unchanged, with on `%b`
    ```
    error: local memory over-committed in 'mm': 8192 bytes live, capacity
    4096 bytes; live buffers: %alloc (memref<32x32xf32, 1>) 4096 bytes,
    %alloc_0 (memref<32x32xf32, 1>) 4096 bytes
    ```
  }];
  let options = [
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the peak local bytes of every top-level nest">,
  ];
}

def MemoryReport : Pass<"dlc-memory-report", "mlir::ModuleOp"> {
  let summary = "Write a JSON report of compute, local memory and transfers "
                "per ONNX node";
  let description = [{
    Writes to `output` (`-` is stdout) a JSON document with the module's
    `hardware` description and one entry per ONNX node in `nodes`: the
    top-level nests (`affine.for` in a function body) grouped by the node
    name of their location, in program order, then the nodes that only
    appear in a function's `dlc.eliminated_copies`. Each entry has

    - `op`: the node name; `nests`: its top-level nests;
    - `macs`: per nest, each `arith.mulf`/`arith.muli` (not on index)
      whose result feeds an `arith.addf`/`arith.addi`, times the exact
      number of times it runs (isl counts non-rectangular domains: tiled
      loops, guards), times its vector width;
    - `footprint_bytes`: the most local bytes live while one of its nests
      runs (as `dlc-verify-local-memory` counts them);
    - `bytes_in`, `bytes_out`, `transfers`: sums of `elements` x element
      bytes and of `count` of its `affine.dma_start`s by `direction`;
      `transfer_sizes`: `{"<block bytes>": <transfers>}`;
    - `tiling`: the `dlc.tiling` dictionaries of its nests, in order;
    - `relayout_copies`, `relayout_bytes`: its nests marked `dlc.relayout`
      and the bytes they store;
    - `copies_removed`, `copy_bytes_removed`: its entries of the function's
      `dlc.eliminated_copies` and the sum of their `bytes`.

    `total` sums every count over the nodes (`nodes` is their number,
    `transfer_sizes` merges the histograms) except `footprint_bytes`,
    which is the peak over the nodes. A `dma_start` belongs to the node of
    its top-level nest; one in a function body to its own node name when
    its location has one, else to the next nest (in) or the previous one
    (out). Without `dlc.transfer` (hand-written IR) its direction comes from
    the memory spaces, `count` is the number of times it runs, `elements`
    is `count` x its constant number of elements and `block` its constant
    elements per stride (else its number of elements); a non-constant
    number of elements is an error. Output is deterministic: keys sorted,
    nodes in program order. The IR is not changed.

    Before (`output=-`):
    ```mlir
    affine.for %i = 0 to 16 {
      // dlc.transfer = {direction = "in", count = 16, elements = 256,
      //                 block = 16}
      affine.dma_start %A[%i, 0], %a[0], %tag[0], %c16 : ...
      affine.for %k = 0 to 16 {
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        ...
    } loc("mm")
    ```
    Printed (abridged):
    ```json
    {
      "hardware": {"local_memory_bytes": 16384, ...},
      "nodes": [
        {"op": "mm", "nests": 1, "macs": 256, "bytes_in": 1024,
         "transfers": 16, "transfer_sizes": {"64": 16}, ...}
      ],
      "total": {"nodes": 1, "macs": 256, ...}
    }
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File the JSON report is written to (`-` for stdout)">,
  ];
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
