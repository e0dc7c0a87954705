//===- Passes.td - the host target's own passes ------------*- tablegen -*-===//
#ifndef DLC_TARGET_HOST_PASSES_TD
#define DLC_TARGET_HOST_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrepareHostEntry : Pass<"dlc-host-prepare-entry", "mlir::ModuleOp"> {
  let summary = "Export the entry with the C interface";
  let description = [{
    Runs after the shared `dlc-record-entry-signature`. The entry function
    (`@main`, or the only function with a body) gets
    `llvm.emit_c_interface`, so the LLVM module exports `_mlir_ciface_main`
    taking one memref descriptor per input and output: the one ABI shared
    by the JIT and the emitted object file.

    Before:
    ```mlir
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
    ```
    After:
    ```mlir
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
        attributes {llvm.emit_c_interface}
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def FlattenMemRefGlobals : Pass<"dlc-host-flatten-memref-globals", "mlir::ModuleOp"> {
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

def CheckHostMemory : Pass<"dlc-host-check-memory", "mlir::ModuleOp"> {
  let summary = "Refuse buffers larger than the host's memory";
  let description = [{
    Runs on bufferized IR. The lowered code calls malloc without checking
    its result, so a buffer larger than the machine's physical memory would
    crash the JIT code (or, with an element count beyond 64 bits, be
    allocated too small). Every statically shaped `memref.alloc`,
    `memref.alloca` and `memref.global` is checked against the physical
    memory (sysconf); one that does not fit is an error at the op, whose
    location is the ONNX node it comes from.

    Input:
    ```mlir
    %0 = memref.alloc() : memref<65536x65536x64xf32> loc("big")
    ```
    Output (the pass fails):
    ```
    error: buffer of type 'memref<65536x65536x64xf32>' needs 1099511627776
    bytes, more than the 8589934592 bytes of this machine's memory
    ```
  }];
}

def LowerLocalMemory : Pass<"dlc-host-lower-local-memory", "mlir::ModuleOp"> {
  let summary = "Run the shared memory passes' output on the host: local buffers become ordinary allocations, transfers copies";
  let description = [{
    The host has no software-managed memory, but it can run what the shared
    memory passes produce for one (`dlc run --target host --hw
    local_memory_bytes=64K`), which proves those passes keep the numbers
    right. Each `affine.dma_start` becomes a call of the host's DMA engine,
    one out-of-line function per element type (`dlc_host_dma_<type>`), with
    the DMA's meaning: `num_elements` elements, contiguous on the local
    side; on the global side (the slower memory space) in blocks of
    `num_elt_per_stride` elements, `stride` elements apart when strided.
    (Copy loops inlined at every transfer made LLVM's loop passes several
    times slower on the deep tile nests.)
    `affine.dma_wait` goes away (the copy is complete when it returns), and
    buffers in the local memory space move to the default one. The pass
    also drops the module's `dlc.hardware` and the arguments' `dlc.bank_dim`,
    which nothing below needs.

    Before:
    ```mlir
    affine.dma_start %a[%i, 0], %local[0, 0], %tag[0], %c64, %c16, %c8
        : memref<32x16xf32>, memref<8x8xf32, 1>, memref<1xi32, 1>
    affine.dma_wait %tag[0], %c64 : memref<1xi32, 1>
    ```
    After (schematically):
    ```mlir
    // source: flat %a from start(%a[%i, 0]), blocks 16 apart;
    // destination: flat %local from 0, blocks 8 apart; 64 elements in
    // blocks of 8
    call @dlc_host_dma_f32(%a_flat, %a_start, %c16, %local_flat, %c0, %c8,
                           %c64, %c8)
    ```
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

#endif // DLC_TARGET_HOST_PASSES_TD
