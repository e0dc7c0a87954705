//===- SunwayOps.td - the SW26010 core-group dialect -------*- tablegen -*-===//
//
// One core group of the SW26010: the MPE runs the function bodies, a
// `sunway.launch` runs its region on the 64 CPEs, each with its private
// 64 KiB local device memory (LDM). Data moves between main memory and LDM
// only by asynchronous DMA whose completion is counted in a reply word.
// See docs/Dialects/Sunway/Rationale.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_SUNWAY_IR_SUNWAYOPS_TD
#define DLC_DIALECT_SUNWAY_IR_SUNWAYOPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sunway_Dialect : Dialect {
  let name = "sunway";
  let summary = "One SW26010 core group: CPE kernels, LDM, DMA and barriers";
  let description = [{
    The level of the athread API: what the emitted C does, op for op. A
    `sunway.launch` is one `athread_spawn`/`athread_join` of a kernel on
    the 64 CPEs of a core group; inside it, buffers in `#sunway.ldm` are
    the CPE's private LDM, placed at fixed offsets (`sunway.ldm_alloc`),
    and `sunway.dma_get`/`sunway.dma_put` are `athread_get`/`athread_put`
    with their mode, length, block size and stride. Everything else
    (loops, arithmetic, loads and stores) stays in upstream dialects.
    Verifiers check what the hardware checks: LDM offsets inside the LDM
    budget, alignment, DMA block sizes and strides.
  }];
  let cppNamespace = "::dlc::sunway";
  let useDefaultAttributePrinterParser = 1;

  // The attributes the emission leaves on EmitC operations for the C
  // emitter and the report, declared once and checked by the verifier.
  let discardableAttrs = (ins
    // func: a CPE kernel; the value is the ONNX node it computes.
    "::mlir::StringAttr":$kernel,
    // func: the kernel's LDM footprint in bytes (sunway.launch's ldm_bytes).
    "::mlir::IntegerAttr":$ldm_bytes,
    // emitc.global: the constant's byte offset in the weights file.
    "::mlir::IntegerAttr":$weights_offset,
    // module: the weights file's payload size in bytes.
    "::mlir::IntegerAttr":$weights_bytes,
    // sunway.launch: where its work runs and why (the report's
    // "placement"), set by dlc-sunway-outline-kernels.
    "::mlir::StringAttr":$placement
  );
  let hasOperationAttrVerify = 1;
}

class Sunway_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sunway_Dialect, mnemonic, traits>;

def Sunway_LDMAttr : AttrDef<Sunway_Dialect, "LDM"> {
  let mnemonic = "ldm";
  let summary = "The memory space of a CPE's local device memory";
  let description = [{
    The memory space of memrefs that live in the LDM of the CPE running the
    enclosing `sunway.launch`: `memref<16x64xf32, #sunway.ldm>`. Every CPE
    has its own copy; main memory is the default memory space.
  }];
}

def Sunway_DMAMode : I32EnumAttr<"DMAMode", "athread DMA mode", [
    I32EnumAttrCase<"pe", 0>,
    I32EnumAttrCase<"bcast", 1>,
    I32EnumAttrCase<"row", 2>,
    I32EnumAttrCase<"brow", 3>,
    I32EnumAttrCase<"rank", 4>]> {
  let cppNamespace = "::dlc::sunway";
  let genSpecializedAttr = 0;
}
def Sunway_DMAModeAttr : EnumAttr<Sunway_Dialect, Sunway_DMAMode, "dma_mode">;

def Sunway_Scope : I32EnumAttr<"Scope", "athread_syn scope", [
    I32EnumAttrCase<"row", 0>,
    I32EnumAttrCase<"col", 1>,
    I32EnumAttrCase<"array", 2>]> {
  let cppNamespace = "::dlc::sunway";
  let genSpecializedAttr = 0;
}
def Sunway_ScopeAttr : EnumAttr<Sunway_Dialect, Sunway_Scope, "scope">;

def Sunway_LaunchOp : Sunway_Op<"launch", [IsolatedFromAbove, AffineScope,
    SingleBlockImplicitTerminator<"EndOp">]> {
  let summary = "Run a kernel on the 64 CPEs of the core group";
  let description = [{
    `athread_spawn` of the region as the kernel `kernel` on every CPE,
    then `athread_join`: the MPE continues when all CPEs have finished.
    The region's block arguments are the CPE id (0 to 63), its row and
    its column in the 8x8 mesh (id = 8 x row + column), then one per
    operand: the main-memory buffers the kernel reads and writes (the
    region is isolated from above, so what it uses is explicit, as the
    argument block the MPE passes). `node` names the ONNX node, `ldm_bytes`
    the LDM the kernel's buffers occupy per CPE.

    ```mlir
    sunway.launch "k0" (%in, %out) : memref<64xf32>, memref<64xf32>
        attributes {node = "relu1", ldm_bytes = 512 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %a: memref<64xf32>, %b: memref<64xf32>):
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$kernel, Variadic<AnyType>:$buffers,
                       StrAttr:$node, I64Attr:$ldm_bytes);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kernel `(` $buffers `)` (`:` type($buffers)^)? attr-dict-with-keyword
    $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    mlir::BlockArgument getCpeId() { return getBody().getArgument(0); }
    mlir::BlockArgument getRow() { return getBody().getArgument(1); }
    mlir::BlockArgument getCol() { return getBody().getArgument(2); }
    /// The block argument standing for operand `i`.
    mlir::BlockArgument getBufferArgument(unsigned i) {
      return getBody().getArgument(3 + i);
    }
    static constexpr unsigned kNumIdArguments = 3;
  }];
}

def Sunway_EndOp : Sunway_Op<"end", [Terminator, HasParent<"LaunchOp">,
    Pure]> {
  let summary = "End of a kernel";
  let assemblyFormat = "attr-dict";
}

def Sunway_LDMAllocOp : Sunway_Op<"ldm_alloc"> {
  let summary = "A buffer at a fixed offset of the CPE's LDM";
  let description = [{
    A `__thread_local` buffer of the kernel: `offset` bytes into the LDM
    area that every kernel of the program shares (static LDM data is
    allocated for the whole slave program, so kernels reuse one area).
    The verifier checks the shape is static, the memory space is
    `#sunway.ldm`, the offset is aligned to `simd_align_bytes` and that the
    buffer ends within the LDM the hardware description leaves to buffers
    (`ldm_bytes` minus `stack_reserve_bytes`).

    ```mlir
    %tile = sunway.ldm_alloc offset 1024 : memref<16x64xf32, #sunway.ldm>
    ```
  }];
  let arguments = (ins I64Attr:$offset);
  let results = (outs AnyStaticShapeMemRef:$buffer);
  let assemblyFormat = "`offset` $offset attr-dict `:` type($buffer)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes the buffer occupies.
    int64_t getBytes();
  }];
}

class Sunway_DMAOp<string mnemonic> : Sunway_Op<mnemonic,
    [AttrSizedOperandSegments]> {
  let arguments = (ins Sunway_DMAModeAttr:$mode,
                       AnyMemRef:$src, Variadic<Index>:$src_indices,
                       AnyMemRef:$dst, Variadic<Index>:$dst_indices,
                       Index:$elements,
                       Optional<Index>:$block_elements,
                       Optional<Index>:$stride_elements,
                       AnyMemRef:$reply, Index:$reply_index);
  let assemblyFormat = [{
    $mode $src `[` $src_indices `]` `,` $dst `[` $dst_indices `]` `,`
    $elements (`block` $block_elements^ `stride` $stride_elements)?
    `reply` $reply `[` $reply_index `]` attr-dict `:` type($src) `,` type($dst)
    `,` type($reply)
  }];
  let hasVerifier = 1;
  code extraBaseClassDeclaration = [{
    /// Bytes per element of the buffers.
    int64_t getElementBytes();
  }];
}

def Sunway_DMAGetOp : Sunway_DMAOp<"dma_get"> {
  let summary = "athread_get: main memory to LDM, asynchronous";
  let description = [{
    Starts moving `elements` elements from `src` (main memory) at
    `src_indices` to `dst` (LDM) at `dst_indices`. With `block` and
    `stride`, the main-memory side is strided: `block` elements taken,
    then the next block starts `stride` elements after the start of this
    one (athread's `bsize` and `stride`, which counts the bytes skipped
    between blocks, are derived from these); the LDM side is contiguous.
    The reply word `reply[reply_index]` (a `memref<Nxi32, #sunway.ldm>`
    holds a kernel's reply words) is incremented when the transfer
    completes; until a `sunway.wait_reply` has seen it,
    the destination's contents are undefined.

    ```mlir
    sunway.dma_get pe %A[%i, %c0], %a[%c0, %c0], %c1024 block %c64 stride %c256
        reply %r[%c0] : memref<64x256xf32>, memref<16x64xf32, #sunway.ldm>, memref<2xi32, #sunway.ldm>
    ```
  }];
  let extraClassDeclaration = extraBaseClassDeclaration # [{
    /// The main-memory side and the LDM side.
    mlir::Value getMainMemRef() { return getSrc(); }
    mlir::Value getLDMMemRef() { return getDst(); }
  }];
}

def Sunway_DMAPutOp : Sunway_DMAOp<"dma_put"> {
  let summary = "athread_put: LDM to main memory, asynchronous";
  let description = [{
    The reverse of `sunway.dma_get`: `src` is in LDM (contiguous), `dst`
    in main memory (strided with `block` and `stride`). The source must
    not change until the reply has been waited for.

    ```mlir
    sunway.dma_put pe %c[%c0], %C[%i], %c64 reply %r[%c0]
        : memref<64xf32, #sunway.ldm>, memref<4096xf32>, memref<1xi32, #sunway.ldm>
    ```
  }];
  let extraClassDeclaration = extraBaseClassDeclaration # [{
    /// The main-memory side and the LDM side.
    mlir::Value getMainMemRef() { return getDst(); }
    mlir::Value getLDMMemRef() { return getSrc(); }
  }];
}

def Sunway_WaitReplyOp : Sunway_Op<"wait_reply"> {
  let summary = "Wait until a reply word reaches a count";
  let description = [{
    Blocks the CPE until the reply word `reply[index]` equals `count`, i.e. until
    `count` transfers on it have completed since it was last reset. The
    emitted C is `dlc_wait_reply(&reply, count)`: a poll on the SW26010,
    a call that completes the transfers in the emulation (where a wait for
    more transfers than were issued is an error instead of a hang).

    ```mlir
    sunway.wait_reply %r[%c0], %n : memref<2xi32, #sunway.ldm>
    ```
  }];
  let arguments = (ins AnyMemRef:$reply, Index:$index, I32:$count);
  let assemblyFormat =
      "$reply `[` $index `]` `,` $count attr-dict `:` type($reply)";
  let hasVerifier = 1;
}

def Sunway_BarrierOp : Sunway_Op<"barrier"> {
  let summary = "athread_syn: synchronise a row, a column or all CPEs";
  let description = [{
    Every CPE of the calling CPE's row (`row`), column (`col`) or of the
    whole mesh (`array`) waits until all of them have arrived.

    ```mlir
    sunway.barrier array
    ```
  }];
  let arguments = (ins Sunway_ScopeAttr:$scope);
  let assemblyFormat = "$scope attr-dict";
  let hasVerifier = 1;
}

def Sunway_SelectNegativeOp : Sunway_Op<"select_negative",
    [Pure, AllTypesMatch<["mask", "negative", "other", "result"]>]> {
  let summary = "simd_vsellts: per lane, mask < 0 ? negative : other";
  let description = [{
    Lane by lane, `negative` where `mask` is negative and `other` where it
    is not (`simd_vsellts`, one floating-point instruction). The
    micro-kernels of `dlc-sunway-vectorize-kernels` take a vector across
    a padding border from one load and a mask of -1 (inside) and +1
    (padding) lanes, instead of lane by lane.

    ```mlir
    %v = sunway.select_negative %mask, %loaded, %zero : vector<4xf32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[4], [F32]>:$mask,
                   VectorOfLengthAndType<[4], [F32]>:$negative,
                   VectorOfLengthAndType<[4], [F32]>:$other);
  let results = (outs VectorOfLengthAndType<[4], [F32]>:$result);
  let assemblyFormat = [{
    $mask `,` $negative `,` $other attr-dict `:` type($result)
  }];
}

def Sunway_LoadSplatOp : Sunway_Op<"load_splat",
    [MemoryEffects<[MemRead]>]> {
  let summary = "simd_loade: one float of LDM broadcast to the four lanes";
  let description = [{
    Loads `memref[indices]`, a float in the CPE's LDM, into every lane of a
    `floatv4` (`simd_loade`): one memory instruction, where a scalar load
    and a broadcast would take five. The micro-kernels of
    `dlc-sunway-vectorize-kernels` load the operand a tile row shares this
    way (a weight of a convolution, an element of a matrix row).

    ```mlir
    %w = sunway.load_splat %buf[%i, %k] : memref<16x64xf32, #sunway.ldm> -> vector<4xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$memref, Variadic<Index>:$indices);
  let results = (outs VectorOfLengthAndType<[4], [F32]>:$result);
  let assemblyFormat = [{
    $memref `[` $indices `]` attr-dict `:` type($memref) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // DLC_DIALECT_SUNWAY_IR_SUNWAYOPS_TD
