//===- Passes.td - the inferentia target's passes ----------*- tablegen -*-===//
//
// Affine IR after the shared data-movement elimination and bank layout ->
// one inferentia.program. See docs/Targets/Inferentia.md ("The compiler").
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_INFERENTIA_PASSES_TD
#define DLC_TARGET_INFERENTIA_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToInferentia : Pass<"dlc-inferentia-lower", "mlir::ModuleOp"> {
  let summary = "Compile the entry function's affine nests into one "
                "inferentia.program";
  let description = [{
    Runs on the affine IR the shared passes leave (`--dlc-to-affine-pipeline`,
    `--dlc-data-movement-elimination`, `--dlc-assign-bank-layout` with the
    machine's 128 partitions as banks) and replaces the entry function with
    an `inferentia.program` of the same name.

    Every global buffer gets the partition mapping its `dlc.bank_dim` says
    (the dimension across the partitions, in tiles of at most
    `partitions`); model inputs, outputs and weights live in DRAM
    (`inferentia.dram_tensor`), and every buffer a nest reads or writes
    lives in SBUF from its first to its last use (loaded from DRAM before
    its first reader, stored after its last writer). Each top-level nest
    becomes engine instructions by what it computes (`dlc.nest`):
    convolutions and contractions are matmuls on the tensor engine
    (contraction loop on the partitions, stationary = weights, moving =
    activations, accumulating in a PSUM bank and evacuated to SBUF);
    elementwise bodies are one vector- or scalar-engine instruction per
    operation; reductions reduce along free dimensions; fills are memsets;
    copies that remain are on-chip copies (a relayout across partitions by
    DMA between SBUF ranges). Reads through a padding (`affine.if` pieces
    left by the data-movement elimination) split the iteration box by the
    pieces' conditions, and a padding that is the identity of the
    consuming reduction is skipped. Access patterns come from the affine
    accesses exactly: a box is split wherever a `floordiv` or `mod` of the
    index changes value inside it.

    Instructions depend on the earlier instructions of other engines and
    queues whose bytes they touch (tokens). A nest the engines cannot run,
    or buffers that do not fit SBUF, are errors naming the ONNX node.

    Before:
    ```mlir
    func.func @main(%x: memref<1x8x16x16xf32> {dlc.bank_dim = 1 : i64},
                    %y: memref<1x8x16x16xf32> {dlc.bank_dim = 1 : i64}) {
      affine.for %n = 0 to 1 { affine.for %c = 0 to 8 { ... 
        %v = affine.load %x[%n, %c, %h, %w] : memref<1x8x16x16xf32>
        %r = arith.maximumf %v, %zero : f32
        affine.store %r, %y[%n, %c, %h, %w] : memref<1x8x16x16xf32>
      } {dlc.nest = {class = "elementwise", ...}}
      return
    }
    ```
    After:
    ```mlir
    inferentia.program @main attributes {layers = [...], layout_mode = "global", ...} {
      %x = inferentia.dram_tensor "x" "input" address(0) : !inferentia.buffer<dram, 1, 2048, f32, ...>
      %xs = inferentia.alloc address(0) : !inferentia.buffer<sbuf, 8, 256, f32, #inferentia.mapping<shape = [1, 8, 16, 16], partition_dim = 1, partition_tile = 8>>
      %t0 = inferentia.dma_copy %xs<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %x<p = 0 : 8 step 256, offset = 0, strides = [1], sizes = [256]> queue(0) cause("load") {engine = "dma"} : ...
      %t1 = inferentia.tensor_scalar "max", "bypass" %ys<...>, %xs<...> deps(%t0) {engine = "vector", imm0 = 0.0 : f32} : ...
      ...
    }
    ```
  }];
  let dependentDialects = ["dlc::inferentia::InferentiaDialect"];
}

#endif // DLC_TARGET_INFERENTIA_PASSES_TD
