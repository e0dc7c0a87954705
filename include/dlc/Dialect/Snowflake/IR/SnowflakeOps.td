//===- SnowflakeOps.td - the Snowflake ISA-level dialect ---*- tablegen -*-===//
//
// One Snowflake program: the control core's instruction stream, one op per
// instruction of include/dlc/Target/Snowflake/ISA.def (the op's name is the
// mnemonic, its i32 operands the register fields, its attributes the other
// fields). Address bookkeeping is arith on i32 and loops are scf.for until
// the emitter lowers them to branches. See docs/Dialects/Snowflake/Rationale.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_SNOWFLAKE_IR_SNOWFLAKEOPS_TD
#define DLC_DIALECT_SNOWFLAKE_IR_SNOWFLAKEOPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Snowflake_Dialect : Dialect {
  let name = "snowflake";
  let summary = "The Snowflake CNN accelerator at the level of its ISA";
  let description = [{
    A `snowflake.program` holds what the control core executes: vector
    instructions on traces of the maps buffers (`snowflake.vmac`, ...),
    transfers on the load/store units (`snowflake.ld`, `snowflake.st`) and
    synchronisation (`snowflake.sync`), with the addresses and lengths they
    take from registers computed by `arith` ops on `i32` inside `scf.for`
    loops. `dlc-snowflake-allocate-registers` gives every such value one of
    the control core's registers; the emitter (`dlc-translate
    --snowflake-emit-binary`) turns loops into branches and each op into
    the instruction of the same name. Verifiers check what the ISA fixes
    (field widths, masks, buffer numbers) and, where an address or a
    length is a constant, the buffer bounds of the program's machine.
  }];
  let cppNamespace = "::dlc::snowflake";
  let useDefaultAttributePrinterParser = 1;

  let discardableAttrs = (ins
    // arith op: the control-core register holding its result.
    "::mlir::IntegerAttr":$reg,
    // scf.for: the registers of its induction variable, then of its
    // iteration arguments.
    "::mlir::DenseI32ArrayAttr":$regs
  );
  let hasOperationAttrVerify = 1;
}

class Snowflake_Op<string mnemonic, list<Trait> traits = []>
    : Op<Snowflake_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Snowflake_DramTensorAttr : AttrDef<Snowflake_Dialect, "DramTensor"> {
  let mnemonic = "dram_tensor";
  let summary = "Where a tensor lives in DRAM and how it is laid out";
  let description = [{
    Element `(i0, ..., in)` of a tensor of shape `shape` (the ONNX shape)
    is the 16-bit DRAM element `address + sum(ik * strides[k])`: the
    executor writes inputs and reads outputs through this view, so the
    program may keep activations depth-minor (channels innermost) while
    ONNX sees NCHW.

    ```mlir
    #snowflake.dram_tensor<"image", address = 4096, shape = [1, 3, 16, 16],
                           strides = [768, 1, 48, 3]>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name, "int64_t":$address,
                        ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$strides);
  let assemblyFormat = [{
    `<` $name `,` `address` `=` $address `,` `shape` `=` `[` $shape `]` `,`
    `strides` `=` `[` $strides `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// One past the highest DRAM element the view touches.
    int64_t getEnd() const;
  }];
}

def Snowflake_LayerAttr : AttrDef<Snowflake_Dialect, "Layer"> {
  let mnemonic = "layer";
  let summary = "One ONNX node as the program computes it";
  let description = [{
    What the lowering decided for one ONNX node (or a node with the ones
    fused into it): its name and op type, the names fused into it, its
    multiply-accumulates as ONNX counts them and as the vMACs perform them
    (zero weights of grouped convolutions included), the loop order, the
    rest of the schedule in words (how the CUs split the work, the band
    shape, the input slots, the weights chunks) and the cycles the
    compiler's model predicts. The report and the listing
    read it; instructions belong to a layer by their location.
  }];
  let parameters = (ins "::mlir::StringAttr":$name, "::mlir::StringAttr":$op,
                        "::mlir::ArrayAttr":$fused, "int64_t":$macs,
                        "int64_t":$hardware_macs,
                        "::mlir::StringAttr":$loop_order,
                        "::mlir::StringAttr":$schedule,
                        "int64_t":$predicted_cycles,
                        "int64_t":$dram_read_bytes,
                        "int64_t":$dram_write_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

def Snowflake_ProgramOp : Snowflake_Op<"program", [IsolatedFromAbove,
    Symbol, SingleBlockImplicitTerminator<"HaltOp">]> {
  let summary = "One Snowflake binary image: instructions and data";
  let description = [{
    The region is the instruction stream, in order; it ends with
    `snowflake.halt`. The attributes are the rest of the image and what
    the executor needs to run it: the machine's buffer sizes
    (`maps_buffer_elements` per CU, `weights_buffer_elements` per vMAC)
    and DRAM size, the data section (16-bit elements, usually the weights
    in the order the weights buffers take them) and its DRAM element
    address, where the model's inputs and outputs live, and the layers.

    ```mlir
    snowflake.program @model attributes {
        maps_buffer_elements = 65536 : i64, weights_buffer_elements = 16384 : i64,
        dram_elements = 134217728 : i64, data_address = 4096 : i64,
        data = dense<[15360, 16384]> : tensor<2xi16>,
        inputs = [#snowflake.dram_tensor<"x", address = 0, shape = [1, 16], strides = [16, 1]>],
        outputs = [...], layers = [...]} {
      %c16 = arith.constant 16 : i32
      snowflake.vclear cus(15)
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       I64Attr:$maps_buffer_elements,
                       I64Attr:$weights_buffer_elements,
                       I64Attr:$dram_elements,
                       I64Attr:$data_address,
                       ElementsAttr:$data,
                       TypedArrayAttrBase<Snowflake_DramTensorAttr,
                                          "DRAM tensors">:$inputs,
                       TypedArrayAttrBase<Snowflake_DramTensorAttr,
                                          "DRAM tensors">:$outputs,
                       TypedArrayAttrBase<Snowflake_LayerAttr,
                                          "layers">:$layers);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Snowflake_HaltOp : Snowflake_Op<"halt", [Terminator,
    HasParent<"ProgramOp">]> {
  let summary = "halt: stop once every unit has finished";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Instructions. Operands named like the ISA's register fields, attributes
// like its other fields; the shared verifier checks both against ISA.def.
//===----------------------------------------------------------------------===//

class Snowflake_InstructionOp<string mnemonic, list<Trait> traits = []>
    : Snowflake_Op<mnemonic, traits> {
  let hasVerifier = 1;
  code extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::dlc::snowflake::verifyInstructionOp(*this);
    }
  }];
}

def Snowflake_SyncOp : Snowflake_InstructionOp<"sync"> {
  let summary = "sync: wait until the units of the mask are idle";
  let description = [{
    Bits 0-3 name load/store units 0-3, bits 4-7 the MAC units of CU 0-3,
    bits 8-11 the MAX units of CU 0-3.
  }];
  let arguments = (ins I32Attr:$units);
  let assemblyFormat = "$units attr-dict";
}

def Snowflake_VClearOp : Snowflake_InstructionOp<"vclear"> {
  let summary = "vclear: zero the accumulators of the CUs of the mask";
  let arguments = (ins I32Attr:$cus);
  let assemblyFormat = "`cus` `(` $cus `)` attr-dict";
}

def Snowflake_VBiasOp : Snowflake_InstructionOp<"vbias"> {
  let summary = "vbias: accumulators = a row of each vMAC's weights";
  let arguments = (ins I32Attr:$cus, I32:$rw);
  let assemblyFormat = "`cus` `(` $cus `)` $rw attr-dict";
}

def Snowflake_VMacOp : Snowflake_InstructionOp<"vmac"> {
  let summary = "vmac: a trace of the maps buffer into the accumulators";
  let description = [{
    For i < rl: every vMAC v of every CU of the mask adds
    maps[rm + i] x weights[v][rw + 16 i + l] to accumulator lane l.
  }];
  let arguments = (ins I32Attr:$cus, I32:$rm, I32:$rw, I32:$rl);
  let assemblyFormat = "`cus` `(` $cus `)` $rm `,` $rw `,` $rl attr-dict";
}

def Snowflake_VWriteBackOp : Snowflake_InstructionOp<"vwb"> {
  let summary = "vwb: accumulators to the maps buffer as 16-bit operands";
  let arguments = (ins I32Attr:$cus, I32:$rd, I32:$rn,
                       DefaultValuedAttr<I32Attr, "0">:$relu);
  let assemblyFormat = "`cus` `(` $cus `)` $rd `,` $rn attr-dict";
}

def Snowflake_VSaveOp : Snowflake_InstructionOp<"vsave"> {
  let summary = "vsave: the 32-bit accumulators to the maps buffer, exactly";
  let arguments = (ins I32Attr:$cus, I32:$rd);
  let assemblyFormat = "`cus` `(` $cus `)` $rd attr-dict";
}

def Snowflake_VRestoreOp : Snowflake_InstructionOp<"vrestore"> {
  let summary = "vrestore: the accumulators from what vsave wrote";
  let arguments = (ins I32Attr:$cus, I32:$rs);
  let assemblyFormat = "`cus` `(` $cus `)` $rs attr-dict";
}

class Snowflake_BinaryVectorOp<string mnemonic>
    : Snowflake_InstructionOp<mnemonic> {
  let arguments = (ins I32Attr:$cus, I32:$rd, I32:$rs1, I32:$rs2, I32:$rl,
                       DefaultValuedAttr<I32Attr, "0">:$relu);
  let assemblyFormat = [{
    `cus` `(` $cus `)` $rd `,` $rs1 `,` $rs2 `,` $rl attr-dict
  }];
}

def Snowflake_VMaxOp : Snowflake_BinaryVectorOp<"vmax"> {
  let summary = "vmax: elementwise maximum of two traces";
}

def Snowflake_VAddOp : Snowflake_BinaryVectorOp<"vadd"> {
  let summary = "vadd: elementwise sum of two traces, rounded to 16 bits";
}

def Snowflake_VMoveOp : Snowflake_InstructionOp<"vmov"> {
  let summary = "vmov: copy a trace within each maps buffer";
  let arguments = (ins I32Attr:$cus, I32:$rd, I32:$rs, I32:$rl);
  let assemblyFormat = "`cus` `(` $cus `)` $rd `,` $rs `,` $rl attr-dict";
}

def Snowflake_VFillOp : Snowflake_InstructionOp<"vfill"> {
  let summary = "vfill: set a trace to one 16-bit value";
  let arguments = (ins I32Attr:$cus, I32:$rd, I32:$rv, I32:$rl);
  let assemblyFormat = "`cus` `(` $cus `)` $rd `,` $rv `,` $rl attr-dict";
}

def Snowflake_LsConfigOp : Snowflake_InstructionOp<"lscfg"> {
  let summary = "lscfg: the row shape of a load/store unit's transfers";
  let arguments = (ins I32Attr:$unit, I32:$rrows, I32:$rdstride,
                       I32:$rbstride);
  let assemblyFormat = [{
    `unit` `(` $unit `)` $rrows `,` $rdstride `,` $rbstride attr-dict
  }];
}

def Snowflake_LoadOp : Snowflake_InstructionOp<"ld"> {
  let summary = "ld: DRAM to a buffer on a load/store unit";
  let description = [{
    `buffer` 0-3: maps of CU k; 4: maps of every CU; 8 + v: weights of
    vMAC v of every CU; 16 + 4 c + v: weights of vMAC v of CU c.
  }];
  let arguments = (ins I32Attr:$unit, I32Attr:$buffer, I32:$rbuf, I32:$rdram,
                       I32:$rl);
  let assemblyFormat = [{
    `unit` `(` $unit `)` `buffer` `(` $buffer `)` $rbuf `,` $rdram `,` $rl
    attr-dict
  }];
}

def Snowflake_StoreOp : Snowflake_InstructionOp<"st"> {
  let summary = "st: a CU's maps buffer to DRAM on a load/store unit";
  let arguments = (ins I32Attr:$unit, I32Attr:$buffer, I32:$rbuf, I32:$rdram,
                       I32:$rl);
  let assemblyFormat = [{
    `unit` `(` $unit `)` `buffer` `(` $buffer `)` $rbuf `,` $rdram `,` $rl
    attr-dict
  }];
}

#endif // DLC_DIALECT_SNOWFLAKE_IR_SNOWFLAKEOPS_TD
