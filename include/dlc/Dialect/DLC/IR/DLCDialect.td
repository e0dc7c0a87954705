//===- DLCDialect.td - the dlc tensor dialect --------------*- tablegen -*-===//
#ifndef DLC_DIALECT_DLC_IR_DLCDIALECT_TD
#define DLC_DIALECT_DLC_IR_DLCDIALECT_TD

include "mlir/IR/OpBase.td"

def DLC_Dialect : Dialect {
  let name = "dlc";
  let summary = "Tensor-level deep-learning operators with ONNX semantics";
  let description = [{
    The `dlc` dialect is the one tensor-level IR of dlc. Every op has value
    semantics on statically shaped ranked tensors and follows the ONNX
    operator of the same name (NCHW layout, numpy broadcasting, negative axes
    already normalised by the importer). Attributes that ONNX lets vary with
    the opset (pads as inputs, `auto_pad`, `axes` as an input) are resolved
    at import time, so each op has exactly one canonical form. See
    docs/Dialects/DLC/Rationale.md.
  }];
  let cppNamespace = "::dlc";
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;

  // Every `dlc.*` attribute that the importer and the shared passes put on
  // operations, arguments and results, declared once: passes use the
  // generated helpers (`DLCDialect::TileLoopAttrHelper`, ...) and the
  // verifier rejects a `dlc.*` name not listed here or a value of the wrong
  // kind, so a typo in a test or a pass fails instead of being ignored.
  // docs/Architecture.md ("Attributes between the passes") says what each
  // one means.
  let discardableAttrs = (ins
    // Module: the target's `#dlc.hardware` description (checked to be one).
    "::mlir::Attribute":$hardware,
    // Module: the hardware description's text, kept by the host after the
    // attribute's own dialect state is lowered away.
    "::mlir::StringAttr":$hardware_text,
    // Module: the tensor-level entry signature (dlc-record-entry-signature).
    "::mlir::DictionaryAttr":$entry,
    // Entry argument or result: the ONNX graph input or output name.
    "::mlir::StringAttr":$name,
    // Outermost loop of a compute nest: what it computes (NestDescription.h).
    "::mlir::DictionaryAttr":$nest,
    // affine.for: a tile loop of dlc-tile-for-local-memory.
    "::mlir::UnitAttr":$tile_loop,
    // affine.for: an outermost tile loop with independent iterations.
    "::mlir::UnitAttr":$parallel,
    // affine.for: the tiling chosen for the nest (sizes, order, traffic).
    "::mlir::DictionaryAttr":$tiling,
    // affine.for: the loop spread over the target's processing units.
    "::mlir::DictionaryAttr":$distributed,
    // memref.alloc in local memory: the transfers that fill and drain it.
    "::mlir::ArrayAttr":$transfers,
    // memref.alloc or entry argument: the dimension spread over the banks.
    "::mlir::IntegerAttr":$bank_dim,
    // affine.for: a nest that changes a buffer's bank layout.
    "::mlir::UnitAttr":$relayout,
    // func.func: the bank-layout summary (mode, relayout count and bytes).
    "::mlir::DictionaryAttr":$bank_layout,
    // func.func: the copies dlc-data-movement-elimination removed.
    "::mlir::ArrayAttr":$eliminated_copies,
    // Op of the entry: why it runs on the host and not on the target
    // (dlc-partition-for-target sets it; a user may set it to force one).
    "::mlir::StringAttr":$fallback,
    // func.func: the target a segment of a partitioned model runs on; on
    // the entry, the target the model was partitioned for.
    "::mlir::StringAttr":$segment
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

#endif // DLC_DIALECT_DLC_IR_DLCDIALECT_TD
