//===- InferentiaOps.td - the NeuronCore instruction dialect -*- tablegen -*-===//
//
// One inferentia program: buffers in DRAM, the state buffer (SBUF) and the
// accumulation buffer (PSUM), and the instructions of the engines and the
// DMA queues that move and compute on them, one op per instruction of the
// trace (include/dlc/Target/Inferentia/Trace.h). See
// docs/Dialects/Inferentia/Rationale.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_INFERENTIA_IR_INFERENTIAOPS_TD
#define DLC_DIALECT_INFERENTIA_IR_INFERENTIAOPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Inferentia_Dialect : Dialect {
  let name = "inferentia";
  let summary = "A NeuronCore at the level of its engines' instructions";
  let description = [{
    An `inferentia.program` holds the buffers a model uses and the
    instructions that compute it, in issue order. A buffer's type says
    which memory it is in, how many partitions it spans, how many elements
    each partition holds and how a tensor is laid out in it (the partition
    mapping: which tensor dimension goes across the partitions, which
    within). Instructions name their operands as a buffer and an access
    pattern (`#inferentia.ap`: a contiguous range of partitions and the
    same free-dimension pattern in each); each returns a token, and the
    tokens it takes are the instructions it waits for (the semaphores
    between engines and queues). Verifiers check the machine's rules (the
    start-partition rule, capacities, the tensor engine's and PSUM's
    limits, access-pattern limits) with the numbers of the module's
    `#dlc.hardware`; the emitter writes each op as one line of the trace.
  }];
  let cppNamespace = "::dlc::inferentia";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

class Inferentia_Op<string mnemonic, list<Trait> traits = []>
    : Op<Inferentia_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Inferentia_MappingAttr : AttrDef<Inferentia_Dialect, "Mapping"> {
  let mnemonic = "mapping";
  let summary = "How a tensor lies in a partitioned buffer";
  let description = [{
    Element `(i0, ..., in)` of a tensor of shape `shape` is in partition
    `i[partition_dim] mod partition_tile`, at free position
    `(i[partition_dim] div partition_tile) * inner + r`, where `r` is the
    row-major index of the other dimensions and `inner` their product: the
    partition dimension goes across the partitions in tiles of
    `partition_tile`, the tile number is the outermost free dimension and
    every other dimension lies within the partition, row-major.
    `partition_dim = -1` puts the whole tensor in one partition,
    row-major (a DRAM tensor is such a mapping).

    ```mlir
    #inferentia.mapping<shape = [1, 256, 56, 56], partition_dim = 1, partition_tile = 128>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "int64_t":$partition_dim, "int64_t":$partition_tile);
  let assemblyFormat = [{
    `<` `shape` `=` `[` $shape `]` `,` `partition_dim` `=` $partition_dim `,`
    `partition_tile` `=` $partition_tile `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Partitions the mapping uses.
    int64_t getPartitions() const;
    /// Free elements per partition.
    int64_t getFreeElements() const;
    /// The partition and free position of element `index`.
    std::pair<int64_t, int64_t> locate(::llvm::ArrayRef<int64_t> index) const;
    /// The free-position stride of dimension `dim` (not the partition
    /// dimension) and of the partition dimension's tile number.
    int64_t getFreeStride(int64_t dim) const;
    int64_t getTileStride() const;
  }];
}

def Inferentia_AccessPatternAttr : AttrDef<Inferentia_Dialect, "AccessPattern"> {
  let mnemonic = "ap";
  let summary = "A range of partitions and one free-dimension pattern";
  let description = [{
    Partitions `start` .. `start + partitions - 1` of a buffer (relative to
    the buffer's first partition), and in each the elements `offset +
    sum(k_j * strides[j])` for `k_j < sizes[j]`, outermost first, counted
    in elements from the buffer's start in that partition. In DRAM, where a
    buffer has one partition, partition `p` of the pattern starts
    `partition_stride * p` elements further: this is how a DMA lines DRAM
    elements up with the partitions of the SBUF side.

    ```mlir
    #inferentia.ap<p = 0 : 64, offset = 58, strides = [58, 1], sizes = [8, 56]>
    ```
  }];
  let parameters = (ins "int64_t":$start, "int64_t":$partitions,
                        DefaultValuedParameter<"int64_t", "0">:$partition_stride,
                        "int64_t":$offset,
                        ArrayRefParameter<"int64_t">:$strides,
                        ArrayRefParameter<"int64_t">:$sizes);
  let assemblyFormat = [{
    `<` `p` `=` $start `:` $partitions (`step` $partition_stride^)? `,`
    `offset` `=` $offset `,` `strides` `=` `[` $strides `]` `,`
    `sizes` `=` `[` $sizes `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getFreeElements() const;
  }];
}

def Inferentia_LayerAttr : AttrDef<Inferentia_Dialect, "Layer"> {
  let mnemonic = "layer";
  let summary = "One ONNX node as the program computes it";
  let description = [{
    The node's name and op type, the nodes fused into it, its
    multiply-accumulates as ONNX counts them, and the compiler's account of
    it: the cycles its model predicts and the DRAM bytes it moves.
    Instructions name their layer by index (`layer`).
  }];
  let parameters = (ins "::mlir::StringAttr":$name, "::mlir::StringAttr":$op,
                        "::mlir::ArrayAttr":$fused, "int64_t":$macs,
                        "int64_t":$predicted_cycles,
                        "int64_t":$dram_read_bytes,
                        "int64_t":$dram_write_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The memory of a buffer, written as a bare word (`sbuf`, `psum`, `dram`).
def Inferentia_MemoryParameter : StringRefParameter<"sbuf, psum or dram"> {
  let parser = [{
    [&]() -> ::mlir::FailureOr<std::string> {
      std::string memory;
      if ($_parser.parseKeywordOrString(&memory))
        return ::mlir::failure();
      return memory;
    }()
  }];
  let printer = [{$_printer.printKeywordOrString($_self);}];
}

def Inferentia_BufferType : TypeDef<Inferentia_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "A buffer in DRAM, SBUF or PSUM";
  let description = [{
    `partitions` partitions of `free_elements` elements each (DRAM: one
    partition), holding a tensor as `mapping` says.

    ```mlir
    !inferentia.buffer<sbuf, 64, 3136, f32, #inferentia.mapping<shape = [1, 64, 56, 56], partition_dim = 1, partition_tile = 64>>
    ```
  }];
  let parameters = (ins Inferentia_MemoryParameter:$memory,
                        "int64_t":$partitions, "int64_t":$free_elements,
                        "::mlir::Type":$element_type,
                        "MappingAttr":$mapping);
  let assemblyFormat = [{
    `<` $memory `,` $partitions `,` $free_elements `,` $element_type `,`
    qualified($mapping) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getElementBytes() const;
    /// Bytes per partition.
    int64_t getPartitionBytes() const {
      return getFreeElements() * getElementBytes();
    }
  }];
}

def Inferentia_TokenType : TypeDef<Inferentia_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "The completion of an instruction";
}

//===----------------------------------------------------------------------===//
// The program and its buffers
//===----------------------------------------------------------------------===//

def Inferentia_ProgramOp : Inferentia_Op<"program", [IsolatedFromAbove,
    Symbol, SingleBlock, NoTerminator]> {
  let summary = "One trace: buffers and instructions in issue order";
  let description = [{
    The region holds the DRAM tensors, the on-chip buffers and the
    instructions, in issue order. The attributes are what the trace's
    header records: the layers, the partition-mapping mode the program was
    compiled with and the data-movement elimination's counts.

    ```mlir
    inferentia.program @main attributes {layers = [...], layout_mode = "global",
        load_store_pairs_removed = 3 : i64, load_store_pairs_total = 3 : i64,
        intermediate_bytes_removed = 7120 : i64, intermediate_bytes_total = 9000 : i64} {
      %x = inferentia.dram_tensor "image" "input" address(0) : !inferentia.buffer<dram, ...>
      %s = inferentia.alloc address(0) : !inferentia.buffer<sbuf, ...>
      %t0 = inferentia.dma_copy %s<...>, %x<...> queue(0) cause("load") {engine = "dma"} : ...
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypedArrayAttrBase<Inferentia_LayerAttr, "layers">:$layers,
                       StrAttr:$layout_mode,
                       I64Attr:$load_store_pairs_removed,
                       I64Attr:$load_store_pairs_total,
                       I64Attr:$intermediate_bytes_removed,
                       I64Attr:$intermediate_bytes_total);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Inferentia_DramTensorOp : Inferentia_Op<"dram_tensor",
    [HasParent<"ProgramOp">]> {
  let summary = "A tensor in DRAM: an input, an output, weights or scratch";
  let description = [{
    `address` is its first byte. Inputs and outputs are the model's (the
    executor writes and reads them by `name`); weights carry their `value`,
    which the serializer writes to weights.bin; scratch is DRAM the program
    uses for spills and relayouts through DRAM.
  }];
  let arguments = (ins StrAttr:$name, StrAttr:$role, I64Attr:$address,
                       OptionalAttr<ElementsAttr>:$value);
  let results = (outs Inferentia_BufferType:$buffer);
  let assemblyFormat = [{
    $name $role `address` `(` $address `)` attr-dict
    `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def Inferentia_AllocOp : Inferentia_Op<"alloc", [HasParent<"ProgramOp">]> {
  let summary = "A buffer in SBUF or PSUM at a fixed place";
  let description = [{
    The buffer starts at partition 0 and byte `address` of every partition
    it spans. Buffers may share bytes when their lifetimes do not overlap:
    the tokens order their uses.
  }];
  let arguments = (ins I64Attr:$address);
  let results = (outs Inferentia_BufferType:$buffer);
  let assemblyFormat = [{
    `address` `(` $address `)` attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Instructions. Every one has a destination and source operands, each a
// buffer with an access pattern, waits for the tokens in `deps` and belongs
// to a layer (an index into the program's layers, -1 for none).
//===----------------------------------------------------------------------===//

class Inferentia_InstructionOp<string mnemonic, list<Trait> traits = []>
    : Inferentia_Op<mnemonic, !listconcat(traits, [HasParent<"ProgramOp">,
                                                   AttrSizedOperandSegments])> {
  dag commonArguments = (ins Inferentia_BufferType:$dst,
                             Inferentia_AccessPatternAttr:$dst_ap,
                             Variadic<Inferentia_BufferType>:$srcs,
                             TypedArrayAttrBase<Inferentia_AccessPatternAttr,
                                                "access patterns">:$src_aps,
                             Variadic<Inferentia_TokenType>:$deps,
                             DefaultValuedAttr<I64Attr, "-1">:$layer,
                             StrAttr:$engine);
  let results = (outs Inferentia_TokenType:$token);
  let hasVerifier = 1;
  code extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::dlc::inferentia::verifyInstructionOp(*this);
    }
  }];
}

def Inferentia_DmaCopyOp : Inferentia_InstructionOp<"dma_copy"> {
  let summary = "A DMA transfer on a queue: DRAM and SBUF, either way";
  let description = [{
    `cause` says why the data moves: `load` (an input or weights into
    SBUF), `store` (an output to DRAM), `spill` (an intermediate that does
    not fit SBUF, out and back), `relayout` (a change of partition mapping,
    through DRAM or SBUF to SBUF).
  }];
  let arguments = !con(commonArguments, (ins I64Attr:$queue, StrAttr:$cause));
  let assemblyFormat = [{
    custom<Operands>($dst, $dst_ap, $srcs, $src_aps) `queue` `(` $queue `)`
    `cause` `(` $cause `)` (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_MatmulOp : Inferentia_InstructionOp<"matmul"> {
  let summary = "Tensor engine: PSUM (+)= stationary^T x moving";
  let description = [{
    Sources: the stationary operand `[K partitions, M free]` and the moving
    operand `[K partitions, N free]` in SBUF; the destination `[M
    partitions, N free]` is fp32 in one PSUM bank. With `accumulate` the
    product adds to what the bank holds.
  }];
  let arguments = !con(commonArguments, (ins UnitAttr:$accumulate));
  let assemblyFormat = [{
    custom<Operands>($dst, $dst_ap, $srcs, $src_aps)
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_TransposeOp : Inferentia_InstructionOp<"transpose"> {
  let summary = "Tensor engine: PSUM [F, P] = source [P, F] transposed";
  let arguments = !con(commonArguments, (ins StrAttr:$cause));
  let assemblyFormat = [{
    custom<Operands>($dst, $dst_ap, $srcs, $src_aps) `cause` `(` $cause `)`
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_ActivationOp : Inferentia_InstructionOp<"activation"> {
  let summary = "Scalar engine: dst = function(src * scale + bias)";
  let description = [{
    `bias` is a second source of one element per partition, or `imm0`
    without one.
  }];
  let arguments = !con(commonArguments, (ins StrAttr:$function,
                       DefaultValuedAttr<F32Attr, "1.0">:$scale,
                       DefaultValuedAttr<F32Attr, "0.0">:$imm0));
  let assemblyFormat = [{
    $function custom<Operands>($dst, $dst_ap, $srcs, $src_aps)
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_TensorTensorOp : Inferentia_InstructionOp<"tensor_tensor"> {
  let summary = "dst = src0 alu0 src1, elementwise";
  let arguments = !con(commonArguments, (ins StrAttr:$alu0));
  let assemblyFormat = [{
    $alu0 custom<Operands>($dst, $dst_ap, $srcs, $src_aps)
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_TensorScalarOp : Inferentia_InstructionOp<"tensor_scalar"> {
  let summary = "dst = (src alu0 s0) alu1 s1, a scalar per partition";
  let description = [{
    `s0` is the second source (one element per partition) when there is
    one, else `imm0`; `s1` the third source, else `imm1`. `alu1 = bypass`
    applies one operation only.
  }];
  let arguments = !con(commonArguments, (ins StrAttr:$alu0, StrAttr:$alu1,
                       DefaultValuedAttr<F32Attr, "0.0">:$imm0,
                       DefaultValuedAttr<F32Attr, "0.0">:$imm1));
  let assemblyFormat = [{
    $alu0 `,` $alu1 custom<Operands>($dst, $dst_ap, $srcs, $src_aps)
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_TensorReduceOp : Inferentia_InstructionOp<"tensor_reduce"> {
  let summary = "dst = src reduced along its innermost free dimensions";
  let arguments = !con(commonArguments, (ins StrAttr:$alu0,
                       I64Attr:$reduce_dims));
  let assemblyFormat = [{
    $alu0 custom<Operands>($dst, $dst_ap, $srcs, $src_aps) `dims` `(`
    $reduce_dims `)` (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_TensorCopyOp : Inferentia_InstructionOp<"tensor_copy"> {
  let summary = "dst = src on a compute engine (same partitions)";
  let description = [{
    A PSUM result to SBUF (`cause("none")`: part of the computation), or
    a move within SBUF with a cause.
  }];
  let arguments = !con(commonArguments, (ins StrAttr:$cause));
  let assemblyFormat = [{
    custom<Operands>($dst, $dst_ap, $srcs, $src_aps) `cause` `(` $cause `)`
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($srcs))
  }];
}

def Inferentia_MemsetOp : Inferentia_InstructionOp<"memset"> {
  let summary = "dst = imm0";
  let arguments = !con(commonArguments, (ins F32Attr:$imm0));
  let assemblyFormat = [{
    custom<Operands>($dst, $dst_ap, $srcs, $src_aps) `value` `(` $imm0 `)`
    (`deps` `(` $deps^ `)`)? attr-dict
    `:` qualified(type($dst)) (`,` qualified(type($srcs))^)?
  }];
}

def Inferentia_SelectOp : Inferentia_InstructionOp<"select"> {
  let summary = "dst = src1 where src0 is not 0, else src2, elementwise";
  let description = [{
    The predicate `src0` is a mask of 1.0 and 0.0, such as a comparison
    (`tensor_tensor "is_gt"`) gives; NKI's `nl.where`.
  }];
  let arguments = commonArguments;
  let assemblyFormat = [{
    custom<Operands>($dst, $dst_ap, $srcs, $src_aps)
    (`deps` `(` $deps^ `)`)? attr-dict `:` qualified(type($dst)) `,`
    qualified(type($srcs))
  }];
}

#endif // DLC_DIALECT_INFERENTIA_IR_INFERENTIAOPS_TD
