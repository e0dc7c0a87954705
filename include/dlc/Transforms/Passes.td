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

def DataMovementElimination
    : Pass<"dlc-data-movement-elimination", "mlir::func::FuncOp"> {
  let summary = "Read through pure copy nests and delete them with their "
                "buffers";
  let description = [{
    Runs on bufferized affine IR (after `--dlc-to-affine-pipeline`): one
    top-level `affine.for` nest per operation, intermediate buffers from
    `memref.alloc` freed at the end. Transposes, non-contiguous reshapes and
    flattens, strided slices, concatenations, pads, constant-index gathers,
    expands and tiles lower to *pure copy* nests: every iteration loads one
    element and stores it unchanged into a buffer. When such a buffer is
    written only by copies (and, for a pad, by a fill nest storing one
    constant to every element before them), each read of it is rewritten
    to read the copies' sources directly, and the copies, the fill, the
    buffer and its views are erased.

    The access analysis (lib/Analysis, isl) composes each read with the
    inverse of the copy's store (which must be injective) and with the
    copy's load, giving a piecewise quasi-affine function from the reader's
    iterations to source elements; its pieces become an `affine.load` (one
    piece), or an `affine.if` chain yielding one load per piece (concat,
    pad), with the pad's constant where no copy wrote. Copies are visited
    from the last one up: each buffer's readers are rewritten before the
    copies feeding that buffer's sources are, so chains (reshape ->
    transpose -> reshape of a channel shuffle) collapse onto the first
    source, and a concatenation or pad feeding a transpose goes too (visited
    first, it would turn the transpose into a piecewise copy, which is not a
    pure copy). A copy into a function argument (an output) stays, but reads
    its source through the earlier copies.

    Legality, per buffer (otherwise every copy nest writing it gets a
    remark `copy kept: <reason>` and nothing changes): the buffer is a
    `memref.alloc` used only by affine nests, views the analysis resolves
    and its dealloc; its writers are the copies and at most one fill before
    them, its readers come after them and all their accesses are affine;
    no copy's source is written (by a nest, a call or any op with unknown
    effects) from the copy up to the last reader; each read needs at most
    `max-pieces` pieces. Gathers whose indices come from a constant table
    that is an affine function of the loop indices are first rewritten to
    affine loads, so they are copies too.

    The function gets `dlc.eliminated_copies`: one dictionary per erased
    copy nest, `{op = <node name from the nest's location>, elements =
    <elements it copied>, bytes = <bytes of the buffer it wrote>}` (the
    copies of one concatenation share their buffer).

    Before (a transpose feeding a ReLU):
    ```mlir
    %t = memref.alloc() : memref<8x4xf32>
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 4 {
        %v = affine.load %a[%j, %i] : memref<4x8xf32>
        affine.store %v, %t[%i, %j] : memref<8x4xf32>
      }
    }
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 4 {
        %v = affine.load %t[%i, %j] : memref<8x4xf32>
        %r = arith.maximumf %v, %zero : f32
        affine.store %r, %out[%i, %j] : memref<8x4xf32>
      }
    }
    memref.dealloc %t : memref<8x4xf32>
    ```
    After:
    ```mlir
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 4 {
        %v = affine.load %a[%j, %i] : memref<4x8xf32>
        %r = arith.maximumf %v, %zero : f32
        affine.store %r, %out[%i, %j] : memref<8x4xf32>
      }
    }
    ```
    A read of a pad's buffer becomes
    `affine.if #interior(%i, %j) -> f32 { affine.load %src[%i - 1, %j - 1] }
    else { %pad_value }`.
  }];
  let options = [
    Option<"maxPieces", "max-pieces", "unsigned", /*default=*/"8",
           "Most pieces (loads and the fill value) one rewritten read may "
           "need; more keeps the copy">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Emit a remark on each function with the totals of the "
           "statistics below (the statistics themselves stay empty with an "
           "LLVM built without LLVM_ENABLE_STATS, such as Debian's)">,
  ];
  let statistics = [
    Statistic<"numCopiesRemoved", "copies-removed",
              "Pure copy nests erased">,
    Statistic<"numCopiesKept", "copies-kept",
              "Pure copy nests kept (each has a remark)">,
    Statistic<"numFillsRemoved", "fills-removed",
              "Fill nests of padded buffers erased">,
    Statistic<"numPairsRemoved", "load-store-pairs-removed",
              "Load-store pairs erased (static count, one per copy nest)">,
    Statistic<"numElementCopiesRemoved", "element-copies-removed",
              "Element copies no longer executed (dynamic count)">,
    Statistic<"numBytesRemoved", "intermediate-bytes-removed",
              "Bytes of intermediate buffers erased">,
    Statistic<"numReadsRewritten", "reads-rewritten",
              "Loads rewritten to read the copies' sources">,
    Statistic<"numGathersMadeAffine", "gathers-made-affine",
              "Constant-index gather loads rewritten as affine loads">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // DLC_TRANSFORMS_PASSES_TD
