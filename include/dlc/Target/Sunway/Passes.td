//===- Passes.td - the Sunway target's passes --------------*- tablegen -*-===//
//
// Affine IR with explicit transfers (the shared memory pipeline's result)
// -> sunway dialect -> EmitC. See docs/Targets/Sunway.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SUNWAY_PASSES_TD
#define DLC_TARGET_SUNWAY_PASSES_TD

include "mlir/Pass/PassBase.td"

def OutlineKernels : Pass<"dlc-sunway-outline-kernels", "mlir::func::FuncOp"> {
  let summary = "Run every staged nest as a kernel on the 64 CPEs";
  let description = [{
    Runs inside the shared memory pipeline, after `dlc-generate-transfers`
    and before double buffering. Every stretch of the function body that
    stages data in local memory (from the first local buffer or DMA tag
    allocated to the point where none is live any more: one nest with its
    buffers and transfers) becomes a `sunway.launch` whose operands are
    the main-memory buffers it uses; constants are cloned in and
    main-memory allocations are moved out (the MPE allocates). Nests that
    stage nothing stay in the function body and run on the MPE, with a
    remark.

    Inside the kernel, the nest's outermost tile loop is spread over the
    CPEs when it is parallel (`dlc.parallel`) and nothing outside it writes
    main memory: CPE `id` runs iterations `id`, `id + 64`, ... (the loop
    gets lower bound `lb + id * step`, step `64 * step`, and
    `dlc.distributed = {units, trips}` for double buffering). Otherwise CPE
    0 runs the kernel alone, with a remark saying why.

    Before:
    ```mlir
    %tag = memref.alloc() : memref<1xi32>
    %a = memref.alloc() : memref<16x64xf32, 1>
    affine.for %i0 = 0 to 256 step 16 {   // dlc.tile_loop, dlc.parallel
      affine.dma_start %A[%i0, 0], %a[0, 0], %tag[0], %c1024 ...
      ...
    }
    memref.dealloc %a : memref<16x64xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    ```
    After:
    ```mlir
    sunway.launch "k0" (%A) : memref<256x64xf32> attributes {ldm_bytes = 0, node = "mm"} {
    ^bb0(%id: index, %row: index, %col: index, %A_: memref<256x64xf32>):
      %tag = memref.alloc() : memref<1xi32>
      %a = memref.alloc() : memref<16x64xf32, 1>
      affine.for %i0 = affine_map<()[s0] -> (s0 * 16)>()[%id] to 256 step 1024 {
        ...
    ```
  }];
  let dependentDialects = ["dlc::sunway::SunwayDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def AssignLDM : Pass<"dlc-sunway-assign-ldm", "mlir::func::FuncOp"> {
  let summary = "Place each kernel's local buffers in LDM and lower its DMA to athread's";
  let description = [{
    In every `sunway.launch`: each local buffer (`memref.alloc` in the
    hardware's `local_memory_space`) becomes a `sunway.ldm_alloc` at a
    fixed offset (first fit over the buffers' lifetimes, aligned to
    `simd_align_bytes`); the DMA tags become reply words in LDM with a
    count of the transfers started on each; `affine.dma_start` becomes
    `sunway.dma_get` or `sunway.dma_put` in PE mode with the block size
    and stride of the transfer, and `affine.dma_wait` a
    `sunway.wait_reply` for every transfer started on its tag. The
    kernel's `ldm_bytes` is the end of its last buffer, its reply words
    included. A kernel whose buffers do not fit the LDM left to buffers
    (`ldm_bytes` minus `stack_reserve_bytes`) is an error naming the ONNX
    node, the bytes and the budget.

    Before:
    ```mlir
    %tag = memref.alloc() : memref<1xi32>
    %a = memref.alloc() : memref<64xf32, 1>
    affine.dma_start %A[0], %a[0], %tag[0], %c64 : ...
    affine.dma_wait %tag[0], %c64 : memref<1xi32>
    ```
    After:
    ```mlir
    %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
    %issued = sunway.ldm_alloc offset 16 : memref<1xi32, #sunway.ldm>
    %a = sunway.ldm_alloc offset 32 : memref<64xf32, #sunway.ldm>
    sunway.dma_get pe %A[%c0], %a[%c0], %c64 reply %reply[%c0] : ...
    sunway.wait_reply %reply[%c0], %n : memref<1xi32, #sunway.ldm>
    ```
  }];
  let dependentDialects = ["dlc::sunway::SunwayDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def BroadcastSharedGets : Pass<"dlc-sunway-broadcast-shared-gets", "mlir::func::FuncOp"> {
  let summary = "Read once, as broadcasts spread over the CPEs, what every CPE loads";
  let description = [{
    A DMA get that every CPE of a kernel issues identically (its addresses,
    length and block do not depend on the CPE id or the distributed loop,
    nor do the loops and guards around it, and every CPE runs as many
    iterations of the distributed loop) reads the same bytes 64 times:
    the input of a convolution whose output channels are spread over the
    CPEs, a vector every row of a matrix multiplies. It becomes 64
    broadcast gets (`BCAST_MODE`): CPE k reads the k-th 64th of it (whole
    blocks when it has them) into every CPE's LDM, between two
    `athread_syn` barriers of the whole array (before: every CPE is done
    with the buffer's previous contents; after: every piece is in place).
    The bytes cross the memory interface once, and the time to move them
    is spread over the CPEs. A clipped transfer (one get per row under a
    positive-length guard, each followed by its wait, as the memory passes
    write a convolution input reaching into its padding) goes row by row:
    row r of the source to CPE r mod 64, one wait after the rows.
    A module whose `dlc.hardware` says `broadcast_reads = false` (every
    CPE reads its own copy, e.g. a directive-compiler baseline) is left
    alone; the tiling model reads the same field.

    Before:
    ```mlir
    sunway.dma_get pe %x[%c0, %c0], %buf[%c0, %c0], %c4096 reply %r[%c0] : ...
    sunway.wait_reply %r[%c0], %n : memref<1xi32, #sunway.ldm>
    ```
    After:
    ```mlir
    sunway.barrier array
    affine.if #has_piece()[%id] {
      sunway.dma_get bcast %x_flat[%start], %buf_flat[%start], %count reply %r[%c0] : ...
    }
    sunway.wait_reply %r[%c0], %n : memref<1xi32, #sunway.ldm>
    sunway.barrier array
    ```
  }];
  let dependentDialects = ["dlc::sunway::SunwayDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def VectorizeKernels : Pass<"dlc-sunway-vectorize-kernels", "mlir::func::FuncOp"> {
  let summary = "Register-blocked floatv4 micro-kernels for the kernels' compute nests";
  let description = [{
    Rewrites every innermost perfect band of point loops in a
    `sunway.launch` that computes `C[h] = f(C[h], loads...)` (or
    `C[h] = f(loads...)`) on f32 LDM buffers, where `h` names every
    parallel loop once, into a micro-kernel on `floatv4`, the way swDNN's
    hand-written kernels are built:
      * one parallel loop `v` whose IV is the last index of `C` (unit
        stride) runs four lanes per vector and `V` vectors per block;
      * a second parallel loop `u` is unrolled `U` times (register
        blocking: a `U` x `V` block of accumulators, at most 16 of the 32
        vector registers), chosen so operands that do not depend on `u`
        are loaded once for all `U` rows;
      * the reduction loops run inside the block with the accumulators in
        registers (`affine.for` iter_args), so `C` is loaded and stored
        once per block instead of once per multiply-add;
      * an operand is a vector load where its last index moves with `v`
        (aligned `simd_load` where the offset is provably a multiple of 16
        bytes, `simd_loadu` otherwise), a `sunway.load_splat`
        (`simd_loade`) where it does not depend on `v`, and four scalar
        loads into `simd_set_floatv4` where it moves with another stride;
      * an operand whose lanes are `s` > 1 apart along the last index of
        an LDM buffer the band only reads (a strided convolution's input)
        reads a copy of that buffer in `s` phase planes instead (element
        `w` of a row at plane `w mod s`, position `w floordiv s`), made
        before the band in LDM the kernel leaves free, where its lanes
        are adjacent: when the copy (a load and a store per element)
        costs less than the gathers it saves;
      * a padding guard (`affine.if` yielding the load or a constant) is
        checked for the first and the last lane of a vector (the guard is
        affine in `v`, so that covers the lanes between): a whole vector
        loads as one, a vector across the border lane by lane;
      * `mulf` feeding an `addf` becomes `vector.fma` (`simd_vmas`).
    `U`, `V` and the choice of `u` and `v` minimise the cycles per output
    element over the whole `u` x `v` space, tail blocks included (the CPE
    issues one memory and one floating-point instruction per cycle). Rows
    beyond the last whole block run as a smaller block; lanes beyond it as
    a block whose last vector is partial (lanes inside the loop loaded one
    by one, the others zero, stored by lane).
    Reduction order is preserved, so only the fused multiply-add changes
    rounding. Nests of other shapes stay scalar.

    Before:
    ```mlir
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 16 {
        affine.for %k = 0 to 64 {
          %a = affine.load %A[%i, %k] : memref<4x64xf32, #sunway.ldm>
          %b = affine.load %B[%k, %j] : memref<64x16xf32, #sunway.ldm>
          %c = affine.load %C[%i, %j] : memref<4x16xf32, #sunway.ldm>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%i, %j] : memref<4x16xf32, #sunway.ldm>
        }
      }
    }
    ```
    After (a 4 x 4 block of accumulators):
    ```mlir
    %c0 = vector.load %C[%i0, %j0] {alignment = 16 : i64} : ..., vector<4xf32>
    ...
    %acc:16 = affine.for %k = 0 to 64 iter_args(%c00 = %c0, ...) {
      %a0 = sunway.load_splat %A[%i0, %k] : ... -> vector<4xf32>
      %b0 = vector.load %B[%k, %j0] {alignment = 16 : i64} : ..., vector<4xf32>
      %s00 = vector.fma %a0, %b0, %c00 : vector<4xf32>
      ...
      affine.yield %s00, ...
    }
    vector.store %acc#0, %C[%i0, %j0] {alignment = 16 : i64} : ...
    ```
  }];
  let options = [
    Option<"maxAccumulators", "max-accumulators", "int64_t", /*default=*/"16",
           "Vector registers a block may keep as accumulators (of 32)">
  ];
  let dependentDialects = ["dlc::sunway::SunwayDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::vector::VectorDialect"];
}

def ConvertSunwayToEmitC : Pass<"dlc-sunway-convert-to-emitc", "mlir::ModuleOp"> {
  let summary = "Lower the sunway-level module to EmitC: an MPE file and a CPE file";
  let description = [{
    The module becomes two `emitc.file`s, `host` (the MPE program: the
    model's entry `dlc_model_run`, main-memory allocation, the nests that
    run on the MPE, one `athread_spawn`/`athread_join` per kernel) and
    `slave` (one `void k<N>(void *)` per `sunway.launch`, the LDM area as
    one `__thread_local` array, athread DMA and waits). Memrefs become
    element pointers (every memref is static, so an access is the pointer
    indexed by its linearised position); constants of the model become
    pointers into the weights blob that `dlc_model_run` loads and checks.
    Loops, arithmetic and math go through upstream's SCF, arith and func
    conversions; ops upstream does not lower (`arith.maximumf`, math
    functions, ...) call the helpers of the ABI header `dlc_sunway.h`.

    Before:
    ```mlir
    sunway.dma_get pe %A[%c0], %a[%c0], %c64 reply %r[%c0] : ...
    ```
    After (printed by `dlc-translate --sunway-to-slave-c`):
    ```c
    athread_get(PE_MODE, v1 + 0, v2 + 0, 256, (void *)&v3[0], 0, 0, 0);
    ```
  }];
  let dependentDialects = ["mlir::emitc::EmitCDialect"];
}

#endif // DLC_TARGET_SUNWAY_PASSES_TD
