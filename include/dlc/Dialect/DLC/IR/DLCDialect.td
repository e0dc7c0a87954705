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
}

#endif // DLC_DIALECT_DLC_IR_DLCDIALECT_TD
