//===- DLCAttrs.td - dlc attributes ------------------------*- tablegen -*-===//
#ifndef DLC_DIALECT_DLC_IR_DLCATTRS_TD
#define DLC_DIALECT_DLC_IR_DLCATTRS_TD

include "dlc/Dialect/DLC/IR/DLCDialect.td"
include "mlir/IR/AttrTypeBase.td"

def DLC_HardwareAttr : AttrDef<DLC_Dialect, "Hardware"> {
  let mnemonic = "hardware";
  let summary = "What the shared memory passes know about a target machine";
  let description = [{
    Attached to the module as `dlc.hardware` by the first pass of every
    target pipeline (`dlc-attach-hardware`): the target's defaults, then the
    user's overrides (`dlc compile --hw local_memory_bytes=16384,...`). Every
    shared memory pass reads the machine from here and from nowhere else, so
    a lit test states the machine it assumes and a user can describe a
    variant of a chip without touching dlc.

    - `local_memory_bytes`: capacity of the software-managed local memory a
      compute nest stages its data through (SW26010 LDM, Snowflake buffers,
      Inferentia state buffer). 0 means the machine computes on global
      memory directly, and the memory passes leave the module alone.
    - `local_memory_space`: memref memory space of local buffers.
    - `banks`: number of banks (partitions) of the local memory; 1 when it
      is not banked. Each bank holds `local_memory_bytes / banks`.
    - `double_buffering`: streamed tiles get two buffers, so the transfer
      of the next tile overlaps the compute of the current one; capacity
      checks count both.
    - `dma_block_overhead_bytes`: what one contiguous block of a DMA costs
      beyond its bytes, in bytes' worth of transfer time (descriptor setup,
      partial bursts). The tiling model minimises bytes moved plus blocks
      times this, so a machine whose DMA is slow on small blocks gets
      larger contiguous ones. 0 (the default) counts bytes alone. The
      SW26010 figures (8 GB/s at 256 B blocks, 22 GB/s at 16 KiB) fit about
      470 bytes per block.
    - `processing_units`: units that each compute on a local memory of
      their own (SW26010 CPEs, Snowflake compute units); 1 when there is
      one. The tiling model first makes the outermost tile loop of a
      nest parallel with at least this many tiles where it can, so that a
      target can spread the tiles over the units.
    - `broadcast_reads`: one read can fill every unit's local memory at
      once (SW26010 DMA `BCAST_MODE`). Where the outermost tile loop is
      spread over the units and a read-only box does not depend on it,
      every unit needs the same box in the same step: the tiling model
      counts its bytes once per step of all units instead of once per
      unit, and the target broadcasts it. false (the default): every unit
      reads its own copy.
    - `strided_read_copies`: the units compute on vectors of consecutive
      elements, and a read-only box whose innermost index moves by more
      than one with the loop of the output's innermost index (a strided
      convolution's input) is first copied, in local memory, into phase
      planes where those elements are consecutive (Sunway's
      micro-kernels): the tiling reserves room for one more copy of such
      a box. false (the default): no copies.
    - `target`: the rest of the machine, the parameters only the target's
      own lowering, cost model and executor read (clock, core counts,
      bandwidth curves, ...), as a dictionary of integers, floats, booleans
      and arrays of numbers. The target supplies the defaults and checks
      them (`Target::verifyHardware`); `--hw name=value` overrides them
      like the fields above (arrays as `a:b:c`).

    ```mlir
    module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536,
        local_memory_space = 1, banks = 1, double_buffering = true,
        dma_block_overhead_bytes = 0>} { ... }
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"int64_t", "0">:$local_memory_bytes,
    DefaultValuedParameter<"int64_t", "1">:$local_memory_space,
    DefaultValuedParameter<"int64_t", "1">:$banks,
    DefaultValuedParameter<"bool", "true">:$double_buffering,
    DefaultValuedParameter<"int64_t", "0">:$dma_block_overhead_bytes,
    DefaultValuedParameter<"int64_t", "1">:$processing_units,
    DefaultValuedParameter<"bool", "false">:$broadcast_reads,
    DefaultValuedParameter<"bool", "false">:$strided_read_copies,
    OptionalParameter<"mlir::DictionaryAttr">:$target
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute that holds the description.
    static constexpr llvm::StringLiteral kAttrName =
        DLCDialect::HardwareAttrHelper::getNameStr();
    /// The integer parameter `name` of `target`, or `fallback`.
    int64_t getTargetInt(llvm::StringRef name, int64_t fallback) const;
    /// The numeric parameter `name` of `target`, or `fallback`.
    double getTargetFloat(llvm::StringRef name, double fallback) const;
    /// Overwrites `value` with the parameter `name` of `target`, if any:
    /// how a target reads its X-macro list of parameters.
    void readTarget(llvm::StringRef name, int64_t &value) const {
      value = getTargetInt(name, value);
    }
    void readTarget(llvm::StringRef name, double &value) const {
      value = getTargetFloat(name, value);
    }
    /// A parameter's value as an entry of `target`.
    static mlir::Attribute getTargetValue(mlir::MLIRContext *context,
                                          int64_t value);
    static mlir::Attribute getTargetValue(mlir::MLIRContext *context,
                                          double value);
    /// The numeric array parameter `name` of `target` (empty if absent).
    llvm::SmallVector<double> getTargetArray(llvm::StringRef name) const;
    /// True when the machine has a software-managed local memory.
    bool hasLocalMemory() const { return getLocalMemoryBytes() > 0; }
    /// The description of the module enclosing `op` (or of `op` itself when
    /// it is the module), or null.
    static HardwareAttr lookup(mlir::Operation *op);
    /// `base` with `overrides` applied: comma-separated `name=value` entries
    /// naming parameters (`local_memory_bytes=16384,banks=4`). Errors name
    /// the entry.
    static mlir::FailureOr<HardwareAttr>
    applyOverrides(HardwareAttr base, llvm::StringRef overrides,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);
  }];
}

#endif // DLC_DIALECT_DLC_IR_DLCATTRS_TD
