//===- DLCOps.td - dlc tensor operators --------------------*- tablegen -*-===//
//
// One op per ONNX operator family. Conventions shared by every op:
//  - operands and results are statically shaped ranked tensors;
//  - axes are non-negative (the importer normalises ONNX's negative axes);
//  - spatial attributes (`pads`, `strides`, ...) are complete: no `auto_pad`,
//    no defaults left for the lowering to guess; `pads` lists the begin
//    paddings of every spatial dimension, then the end paddings (ONNX order);
//  - result types are inferred (InferTypeOpInterface) wherever the operands
//    and attributes determine them, and the verifier checks the inferred type
//    against the written one, so shape inference and verification are one
//    piece of code.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_DLC_IR_DLCOPS_TD
#define DLC_DIALECT_DLC_IR_DLCOPS_TD

include "dlc/Dialect/DLC/IR/DLCAttrs.td"
include "dlc/Dialect/DLC/IR/DLCDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

// Static shapes are part of the dialect's contract: shape inference, the
// verifiers and the folders compute with the dimension sizes.
def DLC_FloatTensor : StaticShapeTensorOf<[AnyFloat]>;
def DLC_NumericTensor : StaticShapeTensorOf<[AnyFloat, AnyInteger]>;
def DLC_IndexTensor : StaticShapeTensorOf<[I32, I64]>;
def DLC_BoolTensor : StaticShapeTensorOf<[I1]>;
def DLC_UnsignedTensor : StaticShapeTensorOf<[AnyUnsignedInteger]>;
def DLC_AnyTensor : StaticShapeTensorOf<[AnyType]>;

def DLC_PadMode : I32EnumAttr<"PadMode", "how Pad fills the border", [
    I32EnumAttrCase<"constant", 0>,
    I32EnumAttrCase<"reflect", 1>,
    I32EnumAttrCase<"edge", 2>]> {
  let cppNamespace = "::dlc";
  let genSpecializedAttr = 0;
}
def DLC_PadModeAttr : EnumAttr<DLC_Dialect, DLC_PadMode, "pad_mode">;

class DLC_Op<string mnemonic, list<Trait> traits = []>
    : Op<DLC_Dialect, mnemonic, !listconcat([Pure], traits)>;

// Ops whose result type is a function of operands and attributes. The
// `inferBody` is the body of the op's static `inferReturnTypes`; it sees
// `context`, `location`, `adaptor` and `inferredReturnTypes`.
class DLC_InferredOp<string mnemonic, list<Trait> traits = []>
    : DLC_Op<mnemonic, !listconcat([InferTypeOpAdaptor], traits)>;

//===----------------------------------------------------------------------===//
// Constants and shape queries
//===----------------------------------------------------------------------===//

def DLC_ConstantOp : DLC_Op<"constant", [ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "constant tensor (ONNX Constant and initializers)";
  let description = [{
    Weights are imported as `dense_resource` blobs so that a 100 MB model is
    not copied element by element; small constants are plain `dense`.

    ```mlir
    %w = dlc.constant dense_resource<conv1_w> : tensor<64x3x7x7xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def DLC_ShapeOp : DLC_InferredOp<"shape"> {
  let summary = "ONNX Shape: the static shape as an i64 tensor";
  let description = [{
    Returns dimensions `[start, end)` of the operand's shape. Shapes are
    static, so this always folds to a constant.
  }];
  let arguments = (ins DLC_AnyTensor:$input,
                   DefaultValuedAttr<I64Attr, "0">:$start,
                   OptionalAttr<I64Attr>:$end);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def DLC_SizeOp : DLC_InferredOp<"size"> {
  let summary = "ONNX Size: the number of elements as an i64 scalar";
  let description = [{
    Shapes are static, so this always folds to a constant.
  }];
  let arguments = (ins DLC_AnyTensor:$input);
  let results = (outs 0DTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location>,
        Adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      types.push_back(::mlir::RankedTensorType::get(
          {}, ::mlir::IntegerType::get(context, 64)));
      return ::mlir::success();
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      return ::mlir::DenseElementsAttr::get(
          getType(), {getInput().getType().getNumElements()});
    }
  }];
  let hasFolder = 1;
}

def DLC_CastOp : DLC_Op<"cast"> {
  let summary = "ONNX Cast: element type conversion";
  let description = [{
    Converts every element to the result's element type with ONNX semantics
    (float to integer truncates toward zero). Folds on constant operands.
  }];
  let arguments = (ins DLC_NumericTensor:$input);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def DLC_IdentityOp : DLC_Op<"identity", [SameOperandsAndResultType]> {
  let summary = "ONNX Identity; folded away";
  let arguments = (ins DLC_AnyTensor:$input);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def DLC_DropoutOp : DLC_Op<"dropout", [SameOperandsAndResultType]> {
  let summary = "ONNX Dropout in inference mode; folded away";
  let description = [{
    In inference Dropout is the identity whatever its ratio; the op is kept
    by the importer only so that the IR mirrors the model before
    canonicalisation. Its optional mask output is not supported.
  }];
  let arguments = (ins DLC_AnyTensor:$input,
                   DefaultValuedAttr<F32Attr, "0.5">:$ratio);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def DLC_TransferOp : DLC_Op<"transfer", [Pure, SameOperandsAndResultType]> {
  let summary = "a tensor moved between the host and an accelerator";
  let description = [{
    The value of `input`, moved from the memory of target `source` to that
    of target `destination` (a target name, `host` included). Only a model
    partitioned by `dlc-partition-for-target` has transfers, between the
    calls of its segments: each is one copy of the whole tensor, which the
    partitioned executor performs and counts in the report (`fallback` in
    the summary).

    ```mlir
    %t = dlc.transfer %x {source = "host", destination = "snowflake"}
        : tensor<1x3x8x8xf32>
    ```
  }];
  let arguments = (ins DLC_AnyTensor:$input, StrAttr:$source,
                   StrAttr:$destination);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

// Binary ops with numpy (multidirectional) broadcasting.
class DLC_BroadcastBinaryOp<string mnemonic, Type operandType,
                            list<Trait> traits = []>
    : DLC_InferredOp<mnemonic, !listconcat([SameOperandsElementType,
                                            SameOperandsAndResultElementType],
                                           traits)> {
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let description = [{
    Elementwise with numpy broadcasting: the result shape is the broadcast of
    both operand shapes, aligned at the trailing dimension.
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastBinaryType(location, adaptor.getLhs(),
                                      adaptor.getRhs(), types);
    }
  }];
}

def DLC_AddOp : DLC_BroadcastBinaryOp<"add", DLC_NumericTensor, [Commutative]> {
  let summary = "ONNX Add (also Sum of two operands)";
  let hasFolder = 1;
}
def DLC_SubOp : DLC_BroadcastBinaryOp<"sub", DLC_NumericTensor> {
  let summary = "ONNX Sub";
  let hasFolder = 1;
}
def DLC_MulOp : DLC_BroadcastBinaryOp<"mul", DLC_NumericTensor, [Commutative]> {
  let summary = "ONNX Mul";
  let hasFolder = 1;
}
def DLC_DivOp : DLC_BroadcastBinaryOp<"div", DLC_NumericTensor> {
  let summary = "ONNX Div (integer division truncates toward zero)";
  let hasFolder = 1;
}
def DLC_PowOp : DLC_BroadcastBinaryOp<"pow", DLC_NumericTensor> {
  let summary = "ONNX Pow (integers: exact, wrapping; a negative exponent "
                "gives the truncated 1 / x^-y)";
}
def DLC_MaxOp : DLC_BroadcastBinaryOp<"max", DLC_NumericTensor, [Commutative]> {
  let summary = "ONNX Max of two operands (NaN-propagating for floats)";
}
def DLC_MinOp : DLC_BroadcastBinaryOp<"min", DLC_NumericTensor, [Commutative]> {
  let summary = "ONNX Min of two operands (NaN-propagating for floats)";
}
def DLC_PReluOp : DLC_BroadcastBinaryOp<"prelu", DLC_FloatTensor> {
  let summary = "ONNX PRelu: x < 0 ? slope * x : x";
  let description = [{
    `lhs` is the input, `rhs` the slope, broadcast unidirectionally to the
    input's shape (the verifier requires the result shape to be the input's).
  }];
  let hasVerifier = 1;
}

def DLC_ModOp : DLC_BroadcastBinaryOp<"mod", DLC_NumericTensor> {
  let summary = "ONNX Mod: the remainder with the divisor's sign, or with "
                "the dividend's (C's fmod) when `fmod`";
  let description = [{
    Integers: `fmod = false` is Python's `%` (the result has the divisor's
    sign), `fmod = true` C's `%`. Floats require `fmod` (ONNX does). A zero
    integer divisor gives 0 (undefined in ONNX) instead of trapping.
  }];
  let arguments = (ins DLC_NumericTensor:$lhs, DLC_NumericTensor:$rhs,
                   DefaultValuedAttr<BoolAttr, "false">:$fmod);
  let hasVerifier = 1;
  let hasFolder = 1;
}
def DLC_BitShiftOp : DLC_BroadcastBinaryOp<"bit_shift", DLC_UnsignedTensor> {
  let summary = "ONNX BitShift: lhs shifted left or right by rhs bits";
  let description = [{
    A shift by the element width or more gives 0 (numpy's result), not C's
    undefined behaviour.
  }];
  let arguments = (ins DLC_UnsignedTensor:$lhs, DLC_UnsignedTensor:$rhs,
                   BoolAttr:$left);
}

// Comparisons and logic: numpy broadcasting, a bool (i1) result.
class DLC_PredicateOp<string mnemonic, Type operandType, list<Trait> traits = []>
    : DLC_InferredOp<mnemonic, !listconcat([SameOperandsElementType], traits)> {
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs DLC_BoolTensor:$result);
  // Constants fold (shape computations exported by PyTorch compare them).
  let hasFolder = 1;
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastType(location, {adaptor.getLhs(), adaptor.getRhs()},
                                ::mlir::IntegerType::get(context, 1), types);
    }
  }];
}
def DLC_EqualOp : DLC_PredicateOp<"equal", DLC_NumericTensor, [Commutative]> {
  let summary = "ONNX Equal";
}
def DLC_LessOp : DLC_PredicateOp<"less", DLC_NumericTensor> {
  let summary = "ONNX Less";
}
def DLC_LessOrEqualOp : DLC_PredicateOp<"less_or_equal", DLC_NumericTensor> {
  let summary = "ONNX LessOrEqual";
}
def DLC_GreaterOp : DLC_PredicateOp<"greater", DLC_NumericTensor> {
  let summary = "ONNX Greater";
}
def DLC_GreaterOrEqualOp : DLC_PredicateOp<"greater_or_equal",
                                           DLC_NumericTensor> {
  let summary = "ONNX GreaterOrEqual";
}
def DLC_AndOp : DLC_PredicateOp<"and", DLC_BoolTensor, [Commutative]> {
  let summary = "ONNX And";
}
def DLC_OrOp : DLC_PredicateOp<"or", DLC_BoolTensor, [Commutative]> {
  let summary = "ONNX Or";
}
def DLC_XorOp : DLC_PredicateOp<"xor", DLC_BoolTensor, [Commutative]> {
  let summary = "ONNX Xor";
}

def DLC_WhereOp : DLC_InferredOp<"where", [AllElementTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "ONNX Where: condition ? lhs : rhs, with numpy broadcasting "
                "of all three";
  let arguments = (ins DLC_BoolTensor:$condition, DLC_AnyTensor:$lhs,
                   DLC_AnyTensor:$rhs);
  let results = (outs DLC_AnyTensor:$result);
  let hasFolder = 1;
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastType(
          location, {adaptor.getCondition(), adaptor.getLhs(), adaptor.getRhs()},
          ::mlir::cast<::mlir::RankedTensorType>(adaptor.getLhs().getType())
              .getElementType(),
          types);
    }
  }];
}

def DLC_QuantizeLinearOp : DLC_InferredOp<"quantize_linear", []> {
  let summary = "ONNX QuantizeLinear: saturate(round(input / scale) + "
                "zero_point), with numpy broadcasting of all three";
  let description = [{
    Rounds halves to even and saturates to the range of the zero point's
    8-bit type (ui8 or i8), whose element type the result has. ONNX's
    per-axis form (1-D scale and zero point along `axis`) is imported with
    both reshaped to broadcast along that axis, so this op has one form.

    ```mlir
    %q = dlc.quantize_linear %x, %scale, %zp
        : (tensor<1x8x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x4x4xui8>
    ```
  }];
  let arguments = (ins DLC_AnyTensor:$input, DLC_AnyTensor:$scale,
                   DLC_AnyTensor:$zero_point);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastType(
          location, {adaptor.getInput(), adaptor.getScale(),
                     adaptor.getZeroPoint()},
          ::mlir::cast<::mlir::RankedTensorType>(
              adaptor.getZeroPoint().getType()).getElementType(),
          types);
    }
  }];
}

def DLC_DequantizeLinearOp : DLC_InferredOp<"dequantize_linear", []> {
  let summary = "ONNX DequantizeLinear: (input - zero_point) * scale in "
                "float32, with numpy broadcasting of all three";
  let description = [{
    `input` and `zero_point` are 8-bit integers (ui8 or i8) or i32 of one
    element type; `scale` is f32, the result's element type. Per-axis
    scales are imported reshaped, as for `dlc.quantize_linear`.

    ```mlir
    %x = dlc.dequantize_linear %q, %scale, %zp
        : (tensor<8x3x3x3xi8>, tensor<8x1x1x1xf32>, tensor<8x1x1x1xi8>) -> tensor<8x3x3x3xf32>
    ```

    Folds when all three are constants (an int8 model's weights), so that
    targets compile the float weights in.
  }];
  let hasFolder = 1;
  let arguments = (ins DLC_AnyTensor:$input, DLC_AnyTensor:$scale,
                   DLC_AnyTensor:$zero_point);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastType(
          location, {adaptor.getInput(), adaptor.getScale(),
                     adaptor.getZeroPoint()},
          ::mlir::cast<::mlir::RankedTensorType>(
              adaptor.getScale().getType()).getElementType(),
          types);
    }
  }];
}

// Unary ops: the result type is the operand type.
class DLC_UnaryOp<string mnemonic, Type operandType, dag attrs = (ins),
                  list<Trait> traits = []>
    : DLC_Op<mnemonic, !listconcat([SameOperandsAndResultType], traits)> {
  let arguments = !con((ins operandType:$input), attrs);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def DLC_ReluOp : DLC_UnaryOp<"relu", DLC_NumericTensor, (ins), [Idempotent]> {
  let summary = "ONNX Relu: max(x, 0)";
}
def DLC_LeakyReluOp : DLC_UnaryOp<"leaky_relu", DLC_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "0.01">:$alpha)> {
  let summary = "ONNX LeakyRelu: x < 0 ? alpha * x : x";
}
def DLC_SigmoidOp : DLC_UnaryOp<"sigmoid", DLC_FloatTensor> {
  let summary = "ONNX Sigmoid: 1 / (1 + exp(-x))";
}
def DLC_TanhOp : DLC_UnaryOp<"tanh", DLC_FloatTensor> {
  let summary = "ONNX Tanh";
}
def DLC_ClipOp : DLC_UnaryOp<"clip", DLC_NumericTensor,
    (ins F64Attr:$min, F64Attr:$max)> {
  let summary = "ONNX Clip: min(max(x, min), max)";
  let description = [{
    Bounds are attributes whatever the opset: from opset 11 on the importer
    requires the `min`/`max` inputs to be constants. An absent bound is the
    element type's lowest/highest value.
  }];
}
def DLC_ExpOp : DLC_UnaryOp<"exp", DLC_FloatTensor> { let summary = "ONNX Exp"; }
def DLC_LogOp : DLC_UnaryOp<"log", DLC_FloatTensor> { let summary = "ONNX Log"; }
def DLC_SqrtOp : DLC_UnaryOp<"sqrt", DLC_FloatTensor> { let summary = "ONNX Sqrt"; }
def DLC_NegOp : DLC_UnaryOp<"neg", DLC_NumericTensor, (ins), [Involution]> {
  let summary = "ONNX Neg";
  let hasFolder = 1;
}
def DLC_AbsOp : DLC_UnaryOp<"abs", DLC_NumericTensor, (ins), [Idempotent]> {
  let summary = "ONNX Abs";
}
def DLC_ReciprocalOp : DLC_UnaryOp<"reciprocal", DLC_FloatTensor> {
  let summary = "ONNX Reciprocal: 1 / x";
}
def DLC_ErfOp : DLC_UnaryOp<"erf", DLC_FloatTensor> { let summary = "ONNX Erf"; }
def DLC_HardSigmoidOp : DLC_UnaryOp<"hard_sigmoid", DLC_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "0.2">:$alpha,
         DefaultValuedAttr<F32Attr, "0.5">:$beta)> {
  let summary = "ONNX HardSigmoid: max(0, min(1, alpha * x + beta))";
}
def DLC_HardSwishOp : DLC_UnaryOp<"hard_swish", DLC_FloatTensor> {
  let summary = "ONNX HardSwish: x * max(0, min(1, x / 6 + 1 / 2))";
}
def DLC_EluOp : DLC_UnaryOp<"elu", DLC_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)> {
  let summary = "ONNX Elu: x < 0 ? alpha * (exp(x) - 1) : x";
}
def DLC_SeluOp : DLC_UnaryOp<"selu", DLC_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "1.67326319217681884765625">:$alpha,
         DefaultValuedAttr<F32Attr, "1.05070102214813232421875">:$gamma)> {
  let summary = "ONNX Selu: gamma * (x <= 0 ? alpha * (exp(x) - 1) : x)";
}
def DLC_SoftplusOp : DLC_UnaryOp<"softplus", DLC_FloatTensor> {
  let summary = "ONNX Softplus: log(exp(x) + 1)";
}
def DLC_SoftsignOp : DLC_UnaryOp<"softsign", DLC_FloatTensor> {
  let summary = "ONNX Softsign: x / (1 + |x|)";
}
def DLC_ThresholdedReluOp : DLC_UnaryOp<"thresholded_relu", DLC_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)> {
  let summary = "ONNX ThresholdedRelu: x > alpha ? x : 0";
}
def DLC_CeluOp : DLC_UnaryOp<"celu", DLC_FloatTensor,
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)> {
  let summary = "ONNX Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))";
}
def DLC_ShrinkOp : DLC_UnaryOp<"shrink", DLC_NumericTensor,
    (ins DefaultValuedAttr<F32Attr, "0.0">:$bias,
         DefaultValuedAttr<F32Attr, "0.5">:$lambd)> {
  let summary = "ONNX Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0";
}
def DLC_SignOp : DLC_UnaryOp<"sign", DLC_NumericTensor, (ins), [Idempotent]> {
  let summary = "ONNX Sign: -1, 0 or 1 (NaN stays NaN)";
}

def DLC_NotOp : DLC_UnaryOp<"not", DLC_BoolTensor, (ins), [Involution]> {
  let summary = "ONNX Not";
  let hasFolder = 1;
}

// Float classification: a bool result of the operand's shape.
class DLC_ClassifyOp<string mnemonic, dag attrs = (ins)>
    : DLC_Op<mnemonic, [AllShapesMatch<["input", "result"]>]> {
  let arguments = !con((ins DLC_FloatTensor:$input), attrs);
  let results = (outs DLC_BoolTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def DLC_IsNaNOp : DLC_ClassifyOp<"is_nan"> { let summary = "ONNX IsNaN"; }
def DLC_IsInfOp : DLC_ClassifyOp<"is_inf",
    (ins DefaultValuedAttr<BoolAttr, "true">:$detect_negative,
         DefaultValuedAttr<BoolAttr, "true">:$detect_positive)> {
  let summary = "ONNX IsInf: which infinities count is configurable";
}

// Rounding and the trigonometric and hyperbolic functions: one scalar
// function each, computed as C's libm does.
class DLC_MathOp<string mnemonic, string onnxName, list<Trait> traits = []>
    : DLC_UnaryOp<mnemonic, DLC_FloatTensor, (ins), traits> {
  let summary = "ONNX " # onnxName;
}
def DLC_FloorOp : DLC_MathOp<"floor", "Floor", [Idempotent]>;
def DLC_CeilOp : DLC_MathOp<"ceil", "Ceil", [Idempotent]>;
def DLC_RoundOp : DLC_MathOp<"round", "Round (halves to even)", [Idempotent]>;
def DLC_SinOp : DLC_MathOp<"sin", "Sin">;
def DLC_CosOp : DLC_MathOp<"cos", "Cos">;
def DLC_TanOp : DLC_MathOp<"tan", "Tan">;
def DLC_AsinOp : DLC_MathOp<"asin", "Asin">;
def DLC_AcosOp : DLC_MathOp<"acos", "Acos">;
def DLC_AtanOp : DLC_MathOp<"atan", "Atan">;
def DLC_SinhOp : DLC_MathOp<"sinh", "Sinh">;
def DLC_CoshOp : DLC_MathOp<"cosh", "Cosh">;
def DLC_AsinhOp : DLC_MathOp<"asinh", "Asinh">;
def DLC_AcoshOp : DLC_MathOp<"acosh", "Acosh">;
def DLC_AtanhOp : DLC_MathOp<"atanh", "Atanh">;

// Normalisations along one axis (opset-13 semantics; the importer rewrites
// the older "coerce to 2-D" form with reshapes).
class DLC_AxisNormOp<string mnemonic> : DLC_Op<mnemonic,
    [SameOperandsAndResultType]> {
  let arguments = (ins DLC_FloatTensor:$input, I64Attr:$axis);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyAxisInRange(getOperation(), getAxis(),
                               getInput().getType().getRank());
    }
  }];
}
def DLC_SoftmaxOp : DLC_AxisNormOp<"softmax"> {
  let summary = "ONNX Softmax along one axis";
}
def DLC_LogSoftmaxOp : DLC_AxisNormOp<"log_softmax"> {
  let summary = "ONNX LogSoftmax along one axis";
}

//===----------------------------------------------------------------------===//
// Linear algebra and convolution
//===----------------------------------------------------------------------===//

def DLC_ConvOp : DLC_InferredOp<"conv"> {
  let summary = "ONNX Conv (1-D, 2-D, 3-D; groups, dilations, strides)";
  let description = [{
    `input` is N x C x D1 x ... x Dk, `filter` is M x C/group x K1 x ... x
    Kk, the optional `bias` has M elements. `pads` holds k begin paddings
    then k end paddings; `auto_pad` has been resolved to explicit pads by the
    importer.

    ```mlir
    %y = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64,
           pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>}
         : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>)
         -> tensor<1x64x112x112xf32>
    ```
  }];
  let arguments = (ins DLC_FloatTensor:$input, DLC_FloatTensor:$filter,
                   Optional<DLC_FloatTensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def DLC_ConvTransposeOp : DLC_InferredOp<"conv_transpose"> {
  let summary = "ONNX ConvTranspose (1-D, 2-D, 3-D; groups, dilations, "
                "strides, output padding)";
  let description = [{
    `input` is N x C x D1 x ... x Dk, `filter` is C x M/group x K1 x ... x
    Kk, the optional `bias` has M elements. Output dimension i is
    `strides[i] * (D_i - 1) + output_padding[i] + (K_i - 1) * dilations[i]
    + 1 - pads[i] - pads[k + i]`. The importer resolves `auto_pad` and
    `output_shape` to explicit `pads`, which may be negative (an
    `output_shape` beyond the natural size adds zero rows).
  }];
  let arguments = (ins DLC_FloatTensor:$input, DLC_FloatTensor:$filter,
                   Optional<DLC_FloatTensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$output_padding,
                   DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def DLC_GemmOp : DLC_InferredOp<"gemm"> {
  let summary = "ONNX Gemm: alpha * op(A) * op(B) + beta * C";
  let description = [{
    `A` and `B` are 2-D, `op` transposes when `trans_a`/`trans_b` is set, and
    the optional `C` broadcasts unidirectionally to the M x N result.
  }];
  let arguments = (ins DLC_FloatTensor:$a, DLC_FloatTensor:$b,
                   Optional<DLC_FloatTensor>:$c,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta,
                   DefaultValuedAttr<BoolAttr, "false">:$trans_a,
                   DefaultValuedAttr<BoolAttr, "false">:$trans_b);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = [{
    $a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)
  }];
}

def DLC_MatMulOp : DLC_InferredOp<"matmul"> {
  let summary = "ONNX MatMul (numpy matmul: batched, broadcast batch dims)";
  let description = [{
    1-D operands are promoted as in numpy (a leading or trailing 1 that is
    removed from the result); batch dimensions broadcast.
  }];
  let arguments = (ins DLC_NumericTensor:$lhs, DLC_NumericTensor:$rhs);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling and normalisation
//===----------------------------------------------------------------------===//

def DLC_MaxPoolOp : DLC_InferredOp<"max_pool"> {
  let summary = "ONNX MaxPool (the Indices output is not supported)";
  let description = [{
    Pads count as minus infinity. With `ceil_mode` the output size rounds up,
    but a window that would start in the end padding is dropped (ONNX rule).
  }];
  let arguments = (ins DLC_NumericTensor:$input,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def DLC_AveragePoolOp : DLC_InferredOp<"average_pool"> {
  let summary = "ONNX AveragePool";
  let description = [{
    With `count_include_pad` the divisor is the window size clipped to the
    padded input; otherwise only the real input elements count.
  }];
  let arguments = (ins DLC_FloatTensor:$input,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                   DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def DLC_BatchNormOp : DLC_Op<"batch_norm", [AllTypesMatch<["input", "result"]>]> {
  let summary = "ONNX BatchNormalization in inference mode";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * scale + bias`, per channel (dim 1).
    Canonicalisation folds it into a preceding `dlc.conv` whose filter and
    bias are constants.
  }];
  let arguments = (ins DLC_FloatTensor:$input, DLC_FloatTensor:$scale,
                   DLC_FloatTensor:$bias, DLC_FloatTensor:$mean,
                   DLC_FloatTensor:$variance,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def DLC_LayerNormOp : DLC_InferredOp<"layer_norm",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "ONNX LayerNormalization";
  let description = [{
    Normalises over dimensions `axis` to the last: `(x - mean) * inv_std_dev
    * scale + bias`, with `inv_std_dev = 1 / sqrt(var + epsilon)` and the
    variance of the deviations from the mean (two passes). `scale` and
    `bias` broadcast to the normalised dimensions. `mean` and `inv_std_dev`
    are the optional outputs of ONNX: the input's shape with the normalised
    dimensions 1.
  }];
  let arguments = (ins DLC_FloatTensor:$input, DLC_FloatTensor:$scale,
                   Optional<DLC_FloatTensor>:$bias, I64Attr:$axis,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs DLC_FloatTensor:$result, DLC_FloatTensor:$mean,
                 DLC_FloatTensor:$inv_std_dev);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_InstanceNormOp : DLC_Op<"instance_norm",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "ONNX InstanceNormalization";
  let description = [{
    Normalises every (batch, channel) over the spatial dimensions (2 on):
    `(x - mean) / sqrt(var + epsilon) * scale[c] + bias[c]`.
  }];
  let arguments = (ins DLC_FloatTensor:$input, DLC_FloatTensor:$scale,
                   DLC_FloatTensor:$bias,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_MeanVarianceNormOp : DLC_Op<"mean_variance_norm",
    [SameOperandsAndResultType]> {
  let summary = "ONNX MeanVarianceNormalization";
  let description = [{
    `(x - mean) / (sqrt(mean(x^2) - mean^2) + 1e-9)` over `axes`, as the
    ONNX reference computes it.
  }];
  let arguments = (ins DLC_FloatTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def DLC_LRNOp : DLC_Op<"lrn", [SameOperandsAndResultType]> {
  let summary = "ONNX LRN (local response normalisation across channels)";
  let arguments = (ins DLC_FloatTensor:$input, I64Attr:$size,
                   DefaultValuedAttr<F32Attr, "0.0001">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.75">:$beta,
                   DefaultValuedAttr<F32Attr, "1.0">:$bias);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions (also GlobalAveragePool and GlobalMaxPool)
//===----------------------------------------------------------------------===//

class DLC_ReduceOp<string mnemonic, Type operandType>
    : DLC_InferredOp<mnemonic, [SameOperandsAndResultElementType]> {
  let arguments = (ins operandType:$input, DenseI64ArrayAttr:$axes,
                   DefaultValuedAttr<BoolAttr, "true">:$keepdims);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let description = [{
    Reduces the listed axes (sorted, non-negative, unique; the importer turns
    ONNX's "no axes" into all axes). GlobalAveragePool and GlobalMaxPool are
    imported as reductions over the spatial axes with `keepdims`. An empty
    `axes` list reduces nothing (ONNX's `noop_with_empty_axes`): the op folds
    to its input.
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferReductionType(location, adaptor.getInput(),
                                adaptor.getAxes(), adaptor.getKeepdims(),
                                types);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      return foldEmptyReduction(getInput(), getAxes(), getType());
    }
  }];
  let hasFolder = 1;
}
def DLC_ReduceMeanOp : DLC_ReduceOp<"reduce_mean", DLC_FloatTensor> {
  let summary = "ONNX ReduceMean";
}
def DLC_ReduceSumOp : DLC_ReduceOp<"reduce_sum", DLC_NumericTensor> {
  let summary = "ONNX ReduceSum";
}
def DLC_ReduceMaxOp : DLC_ReduceOp<"reduce_max", DLC_NumericTensor> {
  let summary = "ONNX ReduceMax";
}
def DLC_ReduceMinOp : DLC_ReduceOp<"reduce_min", DLC_NumericTensor> {
  let summary = "ONNX ReduceMin";
}
def DLC_ReduceProdOp : DLC_ReduceOp<"reduce_prod", DLC_NumericTensor> {
  let summary = "ONNX ReduceProd";
}
def DLC_ReduceSumSquareOp : DLC_ReduceOp<"reduce_sum_square",
                                         DLC_NumericTensor> {
  let summary = "ONNX ReduceSumSquare: sum(x * x)";
}
def DLC_ReduceL1Op : DLC_ReduceOp<"reduce_l1", DLC_NumericTensor> {
  let summary = "ONNX ReduceL1: sum(|x|)";
}
def DLC_ReduceL2Op : DLC_ReduceOp<"reduce_l2", DLC_FloatTensor> {
  let summary = "ONNX ReduceL2: sqrt(sum(x * x))";
}
def DLC_ReduceLogSumOp : DLC_ReduceOp<"reduce_log_sum", DLC_FloatTensor> {
  let summary = "ONNX ReduceLogSum: log(sum(x))";
}
def DLC_ReduceLogSumExpOp : DLC_ReduceOp<"reduce_log_sum_exp",
                                         DLC_FloatTensor> {
  let summary = "ONNX ReduceLogSumExp: log(sum(exp(x))), as the ONNX "
                "reference computes it (no max shift)";
}

// The index of the extreme element along one axis.
class DLC_ArgReduceOp<string mnemonic> : DLC_InferredOp<mnemonic> {
  let arguments = (ins DLC_NumericTensor:$input, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "true">:$keepdims,
                   DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let description = [{
    The i64 index along `axis` of the first extreme element (the last with
    `select_last_index`); a NaN is the extreme where there is one, as in
    numpy.
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      // getAxis is unsigned; clang rejects narrowing it in a braced list.
      int64_t axis = static_cast<int64_t>(adaptor.getAxis());
      if (::mlir::failed(inferReductionType(location, adaptor.getInput(),
                                            {axis}, adaptor.getKeepdims(),
                                            types)))
        return ::mlir::failure();
      types.back() = ::mlir::cast<::mlir::RankedTensorType>(types.back())
                         .clone(::mlir::IntegerType::get(context, 64));
      return ::mlir::success();
    }
  }];
}
def DLC_HardmaxOp : DLC_Op<"hardmax", [SameOperandsAndResultType]> {
  let summary = "ONNX Hardmax: 1 at the first maximum along `axis`, else 0";
  let arguments = (ins DLC_FloatTensor:$input, I64Attr:$axis);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}
def DLC_ArgMaxOp : DLC_ArgReduceOp<"arg_max"> { let summary = "ONNX ArgMax"; }
def DLC_ArgMinOp : DLC_ArgReduceOp<"arg_min"> { let summary = "ONNX ArgMin"; }

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def DLC_ReshapeOp : DLC_Op<"reshape", [SameOperandsAndResultElementType]> {
  let summary = "ONNX Reshape, Flatten, Squeeze and Unsqueeze";
  let description = [{
    Row-major reinterpretation with the same number of elements; the target
    shape is the result type (shapes are static, so ONNX's shape input,
    `0` and `-1` entries are resolved by the importer).
  }];
  let arguments = (ins DLC_AnyTensor:$input);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def DLC_TransposeOp : DLC_InferredOp<"transpose",
    [SameOperandsAndResultElementType]> {
  let summary = "ONNX Transpose: result dim i is input dim perm[i]";
  let arguments = (ins DLC_AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def DLC_ConcatOp : DLC_InferredOp<"concat",
    [SameOperandsAndResultElementType]> {
  let summary = "ONNX Concat along one axis";
  let description = [{
    Canonicalisation splices a nested concat along the same axis into its
    user and drops inputs that are empty along the axis.
  }];
  let arguments = (ins Variadic<DLC_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, results)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def DLC_SliceOp : DLC_InferredOp<"slice", [SameOperandsAndResultElementType]> {
  let summary = "ONNX Slice and Split (one slice per Split output)";
  let description = [{
    For every dimension `d`, result index `i` reads input index
    `starts[d] + i * steps[d]`. The importer clamps ONNX's starts/ends, so
    `starts` is a valid index (when the result is not empty) and the size is
    `max(0, ceil((ends[d] - starts[d]) / steps[d]))`; a negative step walks
    backwards and `ends[d]` may then be -1.
  }];
  let arguments = (ins DLC_AnyTensor:$input, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def DLC_GatherOp : DLC_InferredOp<"gather"> {
  let summary = "ONNX Gather along one axis (negative indices wrap)";
  let description = [{
    The result shape is `data.shape[:axis] + indices.shape +
    data.shape[axis+1:]`. Out-of-range indices read an unspecified element
    (ONNX leaves them undefined); constant indices are checked at import.
  }];
  let arguments = (ins DLC_AnyTensor:$data, DLC_IndexTensor:$indices,
                   I64Attr:$axis);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def DLC_ResizeOp : DLC_Op<"resize"> {
  let summary = "ONNX Resize and Upsample (nearest, n-linear, cubic)";
  let description = [{
    Each output element maps back to a source coordinate per dimension
    (`coordinate_transformation_mode`: half_pixel, pytorch_half_pixel,
    align_corners, asymmetric, tf_half_pixel_for_nn, tf_crop_and_resize)
    with that dimension's
    scale: `scales` when known at compile time (constant scales, or output
    size / input size from `sizes`), otherwise the run-time `dynamic_scales`
    operand. The value there is the nearest element (`nearest_mode`), the
    linear or the cubic (`cubic_coeff_a`, `exclude_outside`) interpolation
    of its neighbours, edge values outside, computed in f64 as ONNX's
    reference does. Dimensions whose size does not change keep their index.
    tf_crop_and_resize maps the output onto the `roi` box (rank starts,
    then rank ends, as fractions of the input) and gives
    `extrapolation_value` where the source coordinate leaves the input.
  }];
  let arguments = (ins DLC_FloatTensor:$input,
                   Optional<1DTensorOf<[F32]>>:$dynamic_scales,
                   OptionalAttr<DenseF64ArrayAttr>:$scales,
                   StrAttr:$mode, StrAttr:$coordinate_transformation_mode,
                   DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:$nearest_mode,
                   DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
                   DefaultValuedAttr<BoolAttr, "false">:$exclude_outside,
                   OptionalAttr<DenseF64ArrayAttr>:$roi,
                   DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value);
  let results = (outs DLC_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`,` $dynamic_scales^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_TriluOp : DLC_Op<"trilu", [AllTypesMatch<["input", "result"]>]> {
  let summary = "ONNX Trilu: the upper or lower triangle of the last two "
                "dimensions, zeros elsewhere";
  let description = [{
    Keeps element (i, j) of each matrix where `j - i >= k` (upper) or
    `j - i <= k` (lower). `k` is an i64 scalar tensor that may be computed
    at run time (the shape does not depend on it); without it k = 0.
  }];
  let arguments = (ins DLC_NumericTensor:$input,
                   Optional<0DTensorOf<[I64]>>:$k, BoolAttr:$upper);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = [{
    $input (`,` $k^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_CumSumOp : DLC_Op<"cumsum", [AllTypesMatch<["input", "result"]>]> {
  let summary = "ONNX CumSum: running sums along `axis`";
  let description = [{
    Element i along `axis` is the sum of the elements up to and including i
    (from i to the end with `reverse`; without i itself with `exclusive`).
    ONNX passes the axis as a tensor; the importer requires it constant
    (the conformance runner binds it) and normalises it.

    ```mlir
    %y = dlc.cumsum %x {axis = 1 : i64, reverse = true} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins DLC_NumericTensor:$input, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def DLC_EinsumOp : DLC_InferredOp<"einsum",
    [SameOperandsAndResultElementType]> {
  let summary = "ONNX Einsum: a sum of products over labelled dimensions";
  let description = [{
    `equation` is explicit and made of letters only: one comma-separated
    term per input, `->`, the output's term (the importer expands ONNX's
    `...` into letters and writes out an implicit output). Each label is one
    loop; labels missing from the output are summed over; a label repeated
    in one term reads that term's diagonal; a dimension of size 1
    broadcasts against the label's other sizes. It lowers to one
    linalg.generic whose indexing maps are the terms.

    ```mlir
    %c = dlc.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Variadic<DLC_NumericTensor>:$inputs, StrAttr:$equation);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, results)
  }];
}

def DLC_GatherElementsOp : DLC_Op<"gather_elements"> {
  let summary = "ONNX GatherElements: data at each index position with the "
                "axis coordinate taken from indices (negative ones wrap)";
  let description = [{
    The result has the indices' shape and the data's element type; `indices`
    has the data's rank and no dimension larger than the data's, except
    along `axis`. Out-of-range indices (undefined in ONNX) read a clamped
    element.
  }];
  let arguments = (ins DLC_AnyTensor:$data, DLC_IndexTensor:$indices,
                   I64Attr:$axis);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_GatherNDOp : DLC_Op<"gather_nd"> {
  let summary = "ONNX GatherND: slices of data at index tuples";
  let description = [{
    The last dimension of `indices` holds tuples of `q` coordinates into
    data's dimensions `batch_dims .. batch_dims + q - 1`; the first
    `batch_dims` dimensions of data and indices are shared. The result is
    indices' shape without its last dimension, followed by data's
    dimensions after the indexed ones. Negative coordinates wrap;
    out-of-range ones (undefined in ONNX) read a clamped element.
  }];
  let arguments = (ins DLC_AnyTensor:$data, StaticShapeTensorOf<[I64]>:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_ScatterElementsOp : DLC_Op<"scatter_elements",
    [AllTypesMatch<["data", "result"]>]> {
  let summary = "ONNX ScatterElements (and Scatter): data with elements "
                "replaced or combined at index positions";
  let description = [{
    `indices` and `updates` have one shape, of data's rank; update `u` goes
    to data's position `u` with the `axis` coordinate replaced by
    `indices[u]` (negative ones wrap). `reduction` is how it combines with
    what is there: `none` (replace; the last of duplicates wins, ONNX leaves
    it undefined), `add`, `mul`, `max` or `min`. Out-of-range indices write
    nothing.
  }];
  let arguments = (ins DLC_NumericTensor:$data,
                   StaticShapeTensorOf<[I32, I64]>:$indices,
                   DLC_NumericTensor:$updates, I64Attr:$axis,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_ScatterNDOp : DLC_Op<"scatter_nd",
    [AllTypesMatch<["data", "result"]>]> {
  let summary = "ONNX ScatterND: data with slices replaced or combined at "
                "index tuples";
  let description = [{
    The last dimension of `indices` holds tuples of `q` coordinates into
    data's first `q` dimensions; `updates` has indices' shape without its
    last dimension followed by data's dimensions after the first `q`.
    `reduction` as in dlc.scatter_elements.
  }];
  let arguments = (ins DLC_NumericTensor:$data,
                   StaticShapeTensorOf<[I64]>:$indices,
                   DLC_NumericTensor:$updates,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs DLC_NumericTensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def DLC_ReverseSequenceOp : DLC_Op<"reverse_sequence",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "ONNX ReverseSequence: the first `sequence_lens[b]` steps "
                "of each batch entry reversed along the time axis";
  let description = [{
    `batch_axis` and `time_axis` are 0 and 1 in some order; steps at or past
    the length keep their place. Lengths beyond the time axis (invalid in
    ONNX) read a clamped step.
  }];
  let arguments = (ins DLC_AnyTensor:$input,
                   StaticShapeTensorOf<[I64]>:$sequence_lens,
                   I64Attr:$batch_axis, I64Attr:$time_axis);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $sequence_lens attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_OneHotOp : DLC_Op<"one_hot"> {
  let summary = "ONNX OneHot: `values[1]` where the index is, else `values[0]`";
  let description = [{
    The result is the indices' shape with a dimension of size `depth`
    inserted at `axis`; element `k` along it is `values[1]` where the index
    (negative ones count from `depth`) is `k`, `values[0]` elsewhere (also
    for out-of-range indices).
  }];
  let arguments = (ins DLC_NumericTensor:$indices, DLC_AnyTensor:$values,
                   I64Attr:$axis);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = [{
    $indices `,` $values attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def DLC_TopKOp : DLC_Op<"top_k"> {
  let summary = "ONNX TopK: the k largest (or smallest) elements along an "
                "axis, sorted, and their i64 indices";
  let description = [{
    The results have the input's shape with `k` along `axis`. Of equal
    elements the one with the lower index comes first (ONNX's rule).
  }];
  let arguments = (ins DLC_NumericTensor:$input, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs DLC_NumericTensor:$values,
                      StaticShapeTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
}

def DLC_PadOp : DLC_InferredOp<"pad", [SameOperandsAndResultElementType]> {
  let summary = "ONNX Pad (constant, reflect, edge)";
  let description = [{
    `pads` holds rank begin paddings then rank end paddings; negative pads
    crop. `value` is the constant-mode fill, converted to the element type.
  }];
  let arguments = (ins DLC_AnyTensor:$input, DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<DLC_PadModeAttr, "PadMode::constant">:$mode,
                   DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def DLC_ExpandOp : DLC_Op<"expand", [SameOperandsAndResultElementType]> {
  let summary = "ONNX Expand: numpy broadcast to the result shape";
  let arguments = (ins DLC_AnyTensor:$input);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def DLC_TileOp : DLC_InferredOp<"tile", [SameOperandsAndResultElementType]> {
  let summary = "ONNX Tile: repeat the input `repeats[d]` times along d";
  let arguments = (ins DLC_AnyTensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs DLC_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

#endif // DLC_DIALECT_DLC_IR_DLCOPS_TD
