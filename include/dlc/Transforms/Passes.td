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

def AssignBankLayout : Pass<"dlc-assign-bank-layout", "mlir::func::FuncOp"> {
  let summary = "Decide which dimension of every global buffer goes across banks";
  let description = [{
    For a local memory split into `banks` partitions (`#dlc.hardware`; the
    pass does nothing when `banks` is 1 or there is no local memory), every
    global buffer (function argument, `memref.alloc`, `memref.get_global`;
    views count as their root) of rank >= 1 with at least `banks` elements
    gets the dimension spread across banks: `dlc.bank_dim = k` on its
    allocation or `memref.get_global`, or in the argument's attributes. It
    runs on the affine IR of `--dlc-to-affine-pipeline`, before tiling.

    What each top-level nest needs is read off its access relations (which
    loops index which dimensions), never off op names:
    - a contraction nest has a reduction loop (indexing no written buffer)
      that indexes two read-only buffers. Each read-only buffer that loop
      indexes wants the dimension the outermost such loop indexes; the
      written buffer wants the dimension of the outermost loop that indexes
      the second of those buffers (the weights) but not the first (the
      input). A tensor engine contracting over partitions reads and writes
      this way.
    - every other nest is flexible: it works partition-parallel along one
      loop that indexes a written buffer, and each of its buffers wants the
      dimension that loop indexes.

    `mode=local`: contraction nests get their requirement; flexible nests
    read every buffer in a fixed default layout (the outermost dimension of
    size >= banks, else 0) and write in the layout of the buffer. A buffer
    takes the layout of its contraction writer, else the default when a
    nest writes it, else the layout its first reader wants.
    `mode=global`: the contraction requirements (writers first; the first
    one wins on a buffer) are propagated through the flexible nests along
    data dependences, both ways, to a fixed point: a flexible nest takes its
    partition loop from a buffer with a layout (written ones first) and
    passes it on to its other buffers. Flexible nests no requirement
    reaches start from the default layout of what they write.

    Where a nest wants another layout than the buffer's, a relayout copy is
    made: a top-level copy nest (outermost loop marked `dlc.relayout`, at
    the nest's location) into a new `memref.alloc` with the wanted
    `dlc.bank_dim`, which the nest then accesses instead (views rebuilt on
    it), freed after its last use. A nest that writes the buffer in another
    layout writes the new buffer, copied back after it (and filled from the
    original first when the nest reads it or writes only part of it).
    Local mode copies for every such reader; global mode shares a copy
    between the readers that want it until the buffer is written again.
    The host executes the copies as plain copies: results do not change.
    Nests that are not affine are left alone.

    The function gets a summary, `dlc.bank_layout = {mode = "global",
    relayouts = N, relayout_bytes = N}`; the pass statistics count the same
    (when LLVM is built with statistics).

    Before (`banks = 4`): a matmul whose result is transposed, then added
    to itself untransposed.
    ```mlir
    affine.for %i = 0 to 8 {          // C = A * B: C wants dim 1 (j)
      affine.for %j ... affine.for %k ...
    }
    affine.for %i = 0 to 8 {          // T[i, j] = C[j, i]
      ...
    }
    affine.for %i = 0 to 8 {          // D[i, j] = C[i, j] + T[i, j]
      ...
    }
    ```
    After (`mode=global`): C is banked on dim 1, the transpose on its loop
    i, so T on dim 0; the add cannot read C and T alike without a copy.
    ```mlir
    %C = memref.alloc() {dlc.bank_dim = 1 : i64} : memref<8x8xf32>
    %T = memref.alloc() {dlc.bank_dim = 0 : i64} : memref<8x8xf32>
    ...
    %T1 = memref.alloc() {dlc.bank_dim = 1 : i64} : memref<8x8xf32>
    affine.for %i = 0 to 8 {          // the relayout copy
      affine.for %j = 0 to 8 {
        %v = affine.load %T[%i, %j] : memref<8x8xf32>
        affine.store %v, %T1[%i, %j] : memref<8x8xf32>
      }
    } {dlc.relayout}
    affine.for %i = 0 to 8 {          // D[i, j] = C[i, j] + T1[i, j]
      ...
    }
    memref.dealloc %T1 : memref<8x8xf32>
    ```
  }];
  let options = [
    Option<"mode", "mode", "dlc::BankLayoutMode", "dlc::BankLayoutMode::Global",
           "How layouts are chosen", [{::llvm::cl::values(
             clEnumValN(dlc::BankLayoutMode::Local, "local",
                        "each nest picks its layouts, copies at every edge "
                        "that disagrees"),
             clEnumValN(dlc::BankLayoutMode::Global, "global",
                        "requirements propagated along data dependences, "
                        "copies only where they conflict"))}]>,
  ];
  let statistics = [
    Statistic<"numRelayouts", "relayouts", "Relayout copies inserted">,
    Statistic<"numRelayoutBytes", "relayout-bytes",
              "Bytes the relayout copies move">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif // DLC_TRANSFORMS_PASSES_TD
