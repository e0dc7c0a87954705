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
    (out). A transfer listed in its local buffer's `dlc.transfers` (what
    `dlc-generate-transfers` records, counted exactly) takes its figures
    from there. Otherwise (hand-written IR) its direction comes from the
    memory spaces, `count` is the number of times it runs, `elements`
    is `count` x its constant number of elements and `block` its constant
    elements per stride (else its number of elements); a non-constant
    number of elements is an error. Output is deterministic: keys sorted,
    nodes in program order. The IR is not changed.

    Before (`output=-`):
    ```mlir
    affine.for %i = 0 to 16 {
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


def RecordEntrySignature : Pass<"dlc-record-entry-signature", "mlir::ModuleOp"> {
  let summary = "Record the entry function's tensor signature on the module";
  let description = [{
    Runs in every target pipeline right after `dlc-attach-hardware`, while
    the entry still has tensor types and ONNX names. The entry function
    (`@main`, or the only function with a body) is recorded in the module's
    `dlc.entry` attribute: its name, its tensor-level type and the ONNX
    names of its inputs and outputs. Lowering erases all three (results
    become out-parameters, memrefs become pointers or descriptors), and
    every executor (`Executable::getSignature()`) and serializer reads the
    signature back from here to check inputs and allocate outputs. The
    `dlc.name` argument and result attributes leave the function: no
    lowering after this point has a place for them. Fails with a
    diagnostic on a signature no executor can pass (a dynamic shape, a
    non-tensor, an element type without an `ElementKind`).

    Before:
    ```mlir
    func.func @main(%x: tensor<4xf32> {dlc.name = "x"}) -> (tensor<4xf32> {dlc.name = "y"})
    ```
    After:
    ```mlir
    module attributes {dlc.entry = {
        arg_attrs = [{dlc.name = "x"} ], function = "main",
        res_attrs = [{dlc.name = "y"} ],
        type = (tensor<4xf32>) -> tensor<4xf32>}} {
      func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
    }
    ```
  }];
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

def TileForLocalMemory : Pass<"dlc-tile-for-local-memory", "mlir::func::FuncOp"> {
  let summary = "Tile every loop nest so that its data fits the local memory, moving the fewest bytes";
  let description = [{
    For each top-level loop nest (conv, matmul, pooling, elementwise,
    reduction, copy alike), chooses tile sizes (divisors of the trip counts
    of the perfectly nested band) and the order of the tile loops with the
    traffic model of `dlc/Analysis/TilingModel.h`: every buffer the nest
    touches is transferred at the innermost tile loop its box depends on,
    the boxes (two per streamed read-only buffer with double buffering)
    must fit the module's `#dlc.hardware` `local_memory_bytes`, and the
    bytes moved between global and local memory, plus
    `dma_block_overhead_bytes` per contiguous block, are minimised. A box
    keeps only every step-th element of a dimension its accesses step
    through (a strided convolution's rows and columns).
    `loop-order` restricts the order for nests that read two buffers (maps
    and kernels): `mloop` keeps a kernel tile resident and streams the maps,
    `kloop` the reverse, `auto` lets the model choose. The nest's outermost
    loop records the choice in `dlc.tiling`; tile loops with more than one
    iteration get `dlc.tile_loop`. A nest whose smallest tile does not fit
    is an error naming the op, the footprint and the capacity. Does nothing
    when the machine has no local memory.

    Before (capacity 4 KiB):
    ```mlir
    affine.for %i = 0 to 64 {
      affine.for %j = 0 to 64 {
        affine.for %k = 0 to 64 {
          // C[i, j] += A[i, k] * B[k, j]
    ```
    After:
    ```mlir
    affine.for %i0 = 0 to 64 step 16 {        // dlc.tile_loop
      affine.for %j0 = 0 to 64 step 16 {      // dlc.tile_loop
        affine.for %k0 = 0 to 64 step 8 {     // dlc.tile_loop
          affine.for %i = %i0 to %i0 + 16 {
            affine.for %j = %j0 to %j0 + 16 {
              affine.for %k = %k0 to %k0 + 8 {
    } {dlc.tiling = {footprint_bytes = 4096, loop_order = "none", ...}}
    ```
  }];
  let options = [
    Option<"loopOrder", "loop-order", "dlc::LoopOrder", "dlc::LoopOrder::Auto",
           "Order of the tile loops of nests that read maps and kernels",
           [{dlc::getLoopOrderValues()}]>,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect"];
}

def GenerateTransfers : Pass<"dlc-generate-transfers", "mlir::func::FuncOp"> {
  let summary = "Stage every buffer of a nest in local memory with explicit DMA transfers";
  let description = [{
    Every global buffer a top-level nest reads or writes through affine
    accesses gets a local buffer (`memref.alloc` in the hardware's
    `local_memory_space`, live while the nest runs) that holds the box one
    iteration of its placement loop touches. The placement is the innermost
    tile loop (`dlc.tile_loop`, from `dlc-tile-for-local-memory`) the box
    depends on, which is the outermost loop where the data is reused; a
    nest without tile loops stages whole buffers around itself. Reads get an
    `affine.dma_start` in at the start of the placement's body, writes one
    out before its end (a written box that is not densely written is read
    in first). Transfers show their block size and stride: the contiguous
    trailing dimensions form a block, the next dimension a stride, the
    others loops of DMAs; boxes that can reach outside the buffer (guarded
    reads through a padding) are transferred row by row, clipped. A
    dimension the accesses step through keeps every step-th element: its
    DMA loop steps through the buffer, or, innermost, the DMA has an
    element stride (moved densely instead when the hardware's
    `dma_block_overhead_bytes` makes that cheaper, as the model decided);
    local indices are the global ones minus the origin, over the step. The
    local buffer's `memref.alloc` lists its transfers in `dlc.transfers`,
    one dictionary per `affine.dma_start` on it in program order (`memref`,
    `direction`, `count`: how often it runs, `elements`: what it moves in
    total, `block`, `element_bytes`), counted exactly.
    Accesses are rewritten to the local buffer at their index minus the
    box's origin. Buffers that cannot be staged (non-affine accesses,
    strided views, views of a buffer written in the nest) stay in global
    memory with a remark.

    Before:
    ```mlir
    affine.for %i0 = 0 to 64 step 16 {           // dlc.tile_loop
      affine.for %i = %i0 to %i0 + 16 {
        affine.for %k = 0 to 64 {
          %a = affine.load %A[%i, %k] : memref<64x64xf32>
    ```
    After:
    ```mlir
    %a_local = memref.alloc() : memref<16x64xf32, 1>
    affine.for %i0 = 0 to 64 step 16 {
      affine.dma_start %A[%i0, 0], %a_local[0, 0], %tag[0], %c1024
      affine.dma_wait %tag[0], %c1024
      affine.for %i = %i0 to %i0 + 16 {
        affine.for %k = 0 to 64 {
          %a = affine.load %a_local[%i - %i0, %k] : memref<16x64xf32, 1>
    ```
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
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

def AssignBankLayout : Pass<"dlc-assign-bank-layout", "mlir::func::FuncOp"> {
  let summary = "Decide which dimension of every global buffer goes across banks";
  let description = [{
    For a local memory split into `banks` partitions (`#dlc.hardware`; the
    pass does nothing when `banks` is 1 or there is no local memory), every
    global buffer (function argument, `memref.alloc`, `memref.get_global`;
    views count as their root) of rank >= 1
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
    read every buffer in a fixed default layout (the dimension that spreads
    over the most banks, the outermost of those: the most partitions in
    use) and write in the layout of the buffer. A buffer
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
           "How layouts are chosen", [{dlc::getBankLayoutModeValues()}]>,
  ];
  let statistics = [
    Statistic<"numRelayouts", "relayouts", "Relayout copies inserted">,
    Statistic<"numRelayoutBytes", "relayout-bytes",
              "Bytes the relayout copies move">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def DoubleBuffer : Pass<"dlc-double-buffer", "mlir::func::FuncOp"> {
  let summary = "Overlap the transfer of the next tile with the compute of the current one";
  let description = [{
    For a machine with `double_buffering` in its `#dlc.hardware`: every
    local buffer that a nest only reads, filled by one transfer inside a
    tile loop (`dlc.tile_loop`) of two or more iterations, gets two halves
    (a leading dimension of 2, indexed by the tile's parity) and a tag per
    half. The first tile's transfer moves before the loop; each iteration
    waits for its own tile, starts the next tile's transfer into the other
    half, then computes. The tiling model already counted both halves
    against the capacity. Transfers of clipped rows (their length varies
    from tile to tile) stay single-buffered. The buffer's `dlc.transfers`
    splits into the prologue's and the loop's figures, marked
    `double_buffered`.

    Before:
    ```mlir
    %a = memref.alloc() : memref<16x4xf32, 1>
    affine.for %k = 0 to 64 step 4 {             // dlc.tile_loop
      affine.dma_start %A[%i, %k], %a[0, 0], %tag[0], %c64, %c64, %c4
      affine.dma_wait %tag[0], %c64
      ... affine.load %a[%ii, %kk - %k] ...
    ```
    After:
    ```mlir
    %a = memref.alloc() : memref<2x16x4xf32, 1>
    %tags = memref.alloc() : memref<2xi32>
    affine.dma_start %A[%i, 0], %a[0, 0, 0], %tags[0], %c64, %c64, %c4
    affine.for %k = 0 to 64 step 4 {
      affine.dma_wait %tags[(%k floordiv 4) mod 2], %c64
      affine.if (%k) : (64 - 1 - 4 - %k >= 0) {
        %next = affine.apply (%k + 4)
        affine.dma_start %A[%i, %next], %a[(%next floordiv 4) mod 2, 0, 0], ...
      }
      ... affine.load %a[(%k floordiv 4) mod 2, %ii, %kk - %k] ...
    ```
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // DLC_TRANSFORMS_PASSES_TD
