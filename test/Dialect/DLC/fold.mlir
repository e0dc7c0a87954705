// RUN: dlc-opt %s -canonicalize -split-input-file | FileCheck %s

// Shape folds to the static shape; start and end select (negative counts from the back).
// CHECK-LABEL: func.func @shape
// CHECK-DAG:     %[[ALL:.*]] = dlc.constant dense<[1, 3, 8, 5]> : tensor<4xi64>
// CHECK-DAG:     %[[MID:.*]] = dlc.constant dense<[3, 8]> : tensor<2xi64>
// CHECK:         return %[[ALL]], %[[MID]]
func.func @shape(%x: tensor<1x3x8x5xf32>) -> (tensor<4xi64>, tensor<2xi64>) {
  %0 = dlc.shape %x : tensor<1x3x8x5xf32> -> tensor<4xi64>
  %1 = dlc.shape %x {start = 1 : i64, end = -1 : i64} : tensor<1x3x8x5xf32> -> tensor<2xi64>
  return %0, %1 : tensor<4xi64>, tensor<2xi64>
}

// -----

// The importer's Flatten-style shape subgraph (Shape, Gather, Unsqueeze, Concat) becomes one constant.
// CHECK-LABEL: func.func @shape_subgraph
// CHECK:         %[[SHAPE:.*]] = dlc.constant dense<[2, -1]> : tensor<2xi64>
// CHECK-NOT:     dlc.gather
// CHECK:         return %[[SHAPE]]
func.func @shape_subgraph(%x: tensor<2x3x4xf32>) -> tensor<2xi64> {
  %shape = dlc.shape %x : tensor<2x3x4xf32> -> tensor<3xi64>
  %index = dlc.constant dense<-3> : tensor<i64>
  %batch = dlc.gather %shape, %index {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %unsqueezed = dlc.reshape %batch : tensor<i64> -> tensor<1xi64>
  %rest = dlc.constant dense<-1> : tensor<1xi64>
  %target = dlc.concat %unsqueezed, %rest {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %target : tensor<2xi64>
}

// -----

// Cast: int to float, float to int truncates toward zero, to bool tests non-zero, int to narrower int wraps.
// CHECK-LABEL: func.func @cast
// CHECK-DAG:     dlc.constant dense<[-3.000000e+00, 5.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     dlc.constant dense<[-2, 2, 0]> : tensor<3xi32>
// CHECK-DAG:     dlc.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG:     dlc.constant dense<[44, -1]> : tensor<2xi8>
// CHECK-DAG:     dlc.constant dense<[255, 1]> : tensor<2xui8>
// CHECK-NOT:     dlc.cast
func.func @cast() -> (tensor<2xf32>, tensor<3xi32>, tensor<3xi1>, tensor<2xi8>, tensor<2xui8>) {
  %i = dlc.constant dense<[-3, 5]> : tensor<2xi64>
  %f = dlc.constant dense<[-2.7, 2.9, 0.0]> : tensor<3xf32>
  %w = dlc.constant dense<[300, 255]> : tensor<2xi64>
  %n = dlc.constant dense<[-1, 1]> : tensor<2xi64>
  %0 = dlc.cast %i : tensor<2xi64> -> tensor<2xf32>
  %1 = dlc.cast %f : tensor<3xf32> -> tensor<3xi32>
  %2 = dlc.cast %f : tensor<3xf32> -> tensor<3xi1>
  %3 = dlc.cast %w : tensor<2xi64> -> tensor<2xi8>
  %4 = dlc.cast %n : tensor<2xi64> -> tensor<2xui8>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<3xi32>, tensor<3xi1>, tensor<2xi8>, tensor<2xui8>
}

// -----

// A cast to the same type is the input; a cast of a value out of the target's range is left alone.
// CHECK-LABEL: func.func @cast_noop_and_out_of_range
// CHECK-SAME:    %[[X:.*]]: tensor<2xf32>
// CHECK:         %[[BIG:.*]] = dlc.constant dense<3.000000e+10> : tensor<2xf32>
// CHECK:         %[[CAST:.*]] = dlc.cast %[[BIG]] : tensor<2xf32> -> tensor<2xi32>
// CHECK:         return %[[X]], %[[CAST]]
func.func @cast_noop_and_out_of_range(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0 = dlc.cast %x : tensor<2xf32> -> tensor<2xf32>
  %big = dlc.constant dense<3.0e10> : tensor<2xf32>
  %1 = dlc.cast %big : tensor<2xf32> -> tensor<2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2xi32>
}

// -----

// Integer add, sub and mul with numpy broadcasting.
// CHECK-LABEL: func.func @int_arith
// CHECK-DAG:     dlc.constant dense<{{\[}}[11, 22], [13, 24]]> : tensor<2x2xi64>
// CHECK-DAG:     dlc.constant dense<{{\[}}[-9, -18], [-7, -16]]> : tensor<2x2xi64>
// CHECK-DAG:     dlc.constant dense<{{\[}}[10, 40], [30, 80]]> : tensor<2x2xi64>
// CHECK-NOT:     dlc.add
func.func @int_arith() -> (tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>) {
  %a = dlc.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %b = dlc.constant dense<[10, 20]> : tensor<2xi64>
  %0 = dlc.add %a, %b : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %1 = dlc.sub %a, %b : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %2 = dlc.mul %a, %b : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  return %0, %1, %2 : tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>
}

// -----

// Integer division truncates toward zero (signed) and wraps nothing; unsigned divides unsigned.
// CHECK-LABEL: func.func @int_div
// CHECK-DAG:     dlc.constant dense<[-3, -3, 3]> : tensor<3xi32>
// CHECK-DAG:     dlc.constant dense<[127, 1]> : tensor<2xui8>
// CHECK-NOT:     dlc.div
func.func @int_div() -> (tensor<3xi32>, tensor<2xui8>) {
  %a = dlc.constant dense<[-7, 7, -7]> : tensor<3xi32>
  %b = dlc.constant dense<[2, -2, -2]> : tensor<3xi32>
  %0 = dlc.div %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %c = dlc.constant dense<[254, 255]> : tensor<2xui8>
  %d = dlc.constant dense<[2, 255]> : tensor<2xui8>
  %1 = dlc.div %c, %d : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0, %1 : tensor<3xi32>, tensor<2xui8>
}

// -----

// Integer division by zero is undefined: not folded.
// CHECK-LABEL: func.func @int_div_by_zero
// CHECK:         dlc.div
func.func @int_div_by_zero() -> tensor<2xi64> {
  %a = dlc.constant dense<[4, 6]> : tensor<2xi64>
  %b = dlc.constant dense<[2, 0]> : tensor<2xi64>
  %0 = dlc.div %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Integer results wrap around at the element width.
// CHECK-LABEL: func.func @int_wrap
// CHECK:         dlc.constant dense<[-128, 0]> : tensor<2xi8>
func.func @int_wrap() -> tensor<2xi8> {
  %a = dlc.constant dense<[127, -128]> : tensor<2xi8>
  %b = dlc.constant dense<[1, -128]> : tensor<2xi8>
  %0 = dlc.add %a, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

// Float arithmetic rounds once to the element type; splat operands give a splat.
// CHECK-LABEL: func.func @float_arith
// CHECK-DAG:     dlc.constant dense<{{\[}}[1.500000e+00, 2.500000e+00], [2.500000e+00, 3.500000e+00]]> : tensor<2x2xf32>
// CHECK-DAG:     dlc.constant dense<0.333333343> : tensor<4xf32>
// CHECK-DAG:     dlc.constant dense<3.332520e-01> : tensor<2xf16>
// CHECK-DAG:     dlc.constant dense<[-2.000000e+00, 3.000000e+00]> : tensor<2xf64>
func.func @float_arith() -> (tensor<2x2xf32>, tensor<4xf32>, tensor<2xf16>, tensor<2xf64>) {
  %a = dlc.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = dlc.constant dense<[0.5, 1.5]> : tensor<2xf32>
  %0 = dlc.add %a, %b : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %one = dlc.constant dense<1.0> : tensor<4xf32>
  %three = dlc.constant dense<3.0> : tensor<4xf32>
  %1 = dlc.div %one, %three : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %h1 = dlc.constant dense<1.0> : tensor<2xf16>
  %h3 = dlc.constant dense<3.0> : tensor<2xf16>
  %2 = dlc.div %h1, %h3 : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %d = dlc.constant dense<[2.0, 3.0]> : tensor<2xf64>
  %e = dlc.constant dense<[3.0, 2.0]> : tensor<2xf64>
  %3 = dlc.sub %d, %e : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %4 = dlc.mul %d, %3 : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return %0, %1, %2, %4 : tensor<2x2xf32>, tensor<4xf32>, tensor<2xf16>, tensor<2xf64>
}

// -----

// Neutral operands: x + 0 (integers), x - 0, x * 1 and x / 1 are x.
// CHECK-LABEL: func.func @neutral
// CHECK-SAME:    %[[I:[^:]*]]: tensor<3xi64>, %[[F:[^:]*]]: tensor<3xf32>
// CHECK-NOT:     dlc.add
// CHECK-NOT:     dlc.sub
// CHECK-NOT:     dlc.mul
// CHECK-NOT:     dlc.div
// CHECK:         return %[[I]], %[[F]], %[[F]], %[[F]]
func.func @neutral(%i: tensor<3xi64>, %f: tensor<3xf32>) -> (tensor<3xi64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %zero = dlc.constant dense<0> : tensor<3xi64>
  %fzero = dlc.constant dense<0.0> : tensor<3xf32>
  %fone = dlc.constant dense<1.0> : tensor<f32>
  %0 = dlc.add %i, %zero : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %1 = dlc.sub %f, %fzero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = dlc.mul %f, %fone : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = dlc.div %f, %fone : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xi64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Not neutral: float x + 0 (x = -0.0 would become +0.0), and x * 1 when broadcasting grows x.
// CHECK-LABEL: func.func @not_neutral
// CHECK:         dlc.add
// CHECK:         dlc.mul
func.func @not_neutral(%f: tensor<3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>) {
  %zero = dlc.constant dense<0.0> : tensor<3xf32>
  %one = dlc.constant dense<1.0> : tensor<2x3xf32>
  %0 = dlc.add %f, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = dlc.mul %f, %one : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<3xf32>, tensor<2x3xf32>
}

// -----

// Commutative ops move a constant left operand to the right, where the neutral-operand fold sees it.
// CHECK-LABEL: func.func @commutative
// CHECK-SAME:    %[[X:.*]]: tensor<3xi64>
// CHECK:         return %[[X]]
func.func @commutative(%x: tensor<3xi64>) -> tensor<3xi64> {
  %one = dlc.constant dense<1> : tensor<3xi64>
  %0 = dlc.mul %one, %x : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// Neg folds on constants (integers wrap) and neg(neg(x)) is x.
// CHECK-LABEL: func.func @neg
// CHECK-SAME:    %[[X:.*]]: tensor<2xf32>
// CHECK-DAG:     %[[C:.*]] = dlc.constant dense<[-5, -128]> : tensor<2xi8>
// CHECK:         return %[[X]], %[[C]]
func.func @neg(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi8>) {
  %0 = dlc.neg %x : tensor<2xf32>
  %1 = dlc.neg %0 : tensor<2xf32>
  %c = dlc.constant dense<[5, -128]> : tensor<2xi8>
  %2 = dlc.neg %c : tensor<2xi8>
  return %1, %2 : tensor<2xf32>, tensor<2xi8>
}

// -----

// relu and abs are idempotent.
// CHECK-LABEL: func.func @idempotent
// CHECK:         %[[R:.*]] = dlc.relu
// CHECK-NOT:     dlc.relu
// CHECK:         %[[A:.*]] = dlc.abs
// CHECK-NOT:     dlc.abs
// CHECK:         return %[[R]], %[[A]]
func.func @idempotent(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = dlc.relu %x : tensor<4xf32>
  %1 = dlc.relu %0 : tensor<4xf32>
  %2 = dlc.abs %x : tensor<4xf32>
  %3 = dlc.abs %2 : tensor<4xf32>
  return %1, %3 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Identity and Dropout disappear.
// CHECK-LABEL: func.func @identity_dropout
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK-NEXT:    return %[[X]], %[[X]]
func.func @identity_dropout(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = dlc.identity %x : tensor<2x3xf32>
  %1 = dlc.dropout %x {ratio = 0.2 : f32} : tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A reduction over no axes is the identity; one over some axes stays.
// CHECK-LABEL: func.func @empty_reduction
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK:         %[[R:.*]] = dlc.reduce_max %[[X]]
// CHECK:         return %[[X]], %[[R]]
func.func @empty_reduction(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x1xf32>) {
  %0 = dlc.reduce_sum %x {axes = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = dlc.reduce_max %x {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<2x1xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x1xf32>
}

// -----

// Reshape: to the same type is the input, reshape(reshape(x)) is one reshape.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>
// CHECK:         %[[R:.*]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK:         return %[[X]], %[[R]]
func.func @reshape(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<6x4xf32>) {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %1 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %2 = dlc.reshape %1 : tensor<24xf32> -> tensor<6x4xf32>
  return %0, %2 : tensor<2x3x4xf32>, tensor<6x4xf32>
}

// -----

// Reshape of a constant re-types it; a dense_resource keeps its blob (no copy).
// CHECK-LABEL: func.func @reshape_constant
// CHECK-DAG:     dlc.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
// CHECK-DAG:     dlc.constant dense_resource<weights> : tensor<4xf32>
// CHECK-NOT:     dlc.reshape
func.func @reshape_constant() -> (tensor<2x3xi64>, tensor<4xf32>) {
  %c = dlc.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  %0 = dlc.reshape %c : tensor<6xi64> -> tensor<2x3xi64>
  %w = dlc.constant dense_resource<weights> : tensor<2x2xf32>
  %1 = dlc.reshape %w : tensor<2x2xf32> -> tensor<4xf32>
  return %0, %1 : tensor<2x3xi64>, tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Transpose: identity perm is the input, transpose(transpose) composes (to the input when the perms cancel).
// CHECK-LABEL: func.func @transpose
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>
// CHECK:         %[[T:.*]] = dlc.transpose %[[X]] {perm = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK:         return %[[X]], %[[X]], %[[T]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4x3x2xf32>) {
  %0 = dlc.transpose %x {perm = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %1 = dlc.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %2 = dlc.transpose %1 {perm = array<i64: 2, 0, 1>} : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  %3 = dlc.transpose %1 {perm = array<i64: 1, 0, 2>} : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %0, %2, %3 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4x3x2xf32>
}

// -----

// Transpose of a constant, read from a dense_resource blob.
// CHECK-LABEL: func.func @transpose_constant
// CHECK:         dlc.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:     dlc.transpose
func.func @transpose_constant() -> tensor<2x2xf32> {
  %w = dlc.constant dense_resource<weights> : tensor<2x2xf32>
  %0 = dlc.transpose %w {perm = array<i64: 1, 0>} : tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Concat of one input is the input; constants concatenate (also with an empty input); equal splats give a splat.
// CHECK-LABEL: func.func @concat
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK-DAG:     %[[C:.*]] = dlc.constant dense<{{\[}}[1, 2, 5], [3, 4, 6]]> : tensor<2x3xi32>
// CHECK-DAG:     %[[S:.*]] = dlc.constant dense<7> : tensor<4xi64>
// CHECK:         return %[[X]], %[[C]], %[[S]]
func.func @concat(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<4xi64>) {
  %0 = dlc.concat %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = dlc.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %e = dlc.constant dense<> : tensor<2x0xi32>
  %b = dlc.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %1 = dlc.concat %a, %e, %b {axis = 1 : i64} : (tensor<2x2xi32>, tensor<2x0xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %s = dlc.constant dense<7> : tensor<2xi64>
  %2 = dlc.concat %s, %s {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xi32>, tensor<4xi64>
}

// -----

// A full slice is the input; constant slices with a step of 2 and a reversing step.
// CHECK-LABEL: func.func @slice
// CHECK-SAME:    %[[X:.*]]: tensor<3x4xf32>
// CHECK-DAG:     %[[STEP:.*]] = dlc.constant dense<[0, 2, 4]> : tensor<3xi64>
// CHECK-DAG:     %[[REV:.*]] = dlc.constant dense<[5, 4, 3, 2, 1, 0]> : tensor<6xi64>
// CHECK:         return %[[X]], %[[STEP]], %[[REV]]
func.func @slice(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xi64>, tensor<6xi64>) {
  %0 = dlc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 3, 4>, steps = array<i64: 1, 1>} : tensor<3x4xf32> -> tensor<3x4xf32>
  %c = dlc.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi64>
  %1 = dlc.slice %c {starts = array<i64: 0>, ends = array<i64: 6>, steps = array<i64: 2>} : tensor<6xi64> -> tensor<3xi64>
  %2 = dlc.slice %c {starts = array<i64: 5>, ends = array<i64: -1>, steps = array<i64: -1>} : tensor<6xi64> -> tensor<6xi64>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<3xi64>, tensor<6xi64>
}

// -----

// A reversing slice of the same shape is not the identity.
// CHECK-LABEL: func.func @slice_reverse_not_identity
// CHECK:         dlc.slice
func.func @slice_reverse_not_identity(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = dlc.slice %x {starts = array<i64: 2>, ends = array<i64: -1>, steps = array<i64: -1>} : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Gather from constants along axis 1 with 2-D and negative indices.
// CHECK-LABEL: func.func @gather
// CHECK:         dlc.constant dense<{{\[}}{{\[}}[3, 1], [2, 3]], {{\[}}[6, 4], [5, 6]]]> : tensor<2x2x2xi64>
func.func @gather() -> tensor<2x2x2xi64> {
  %data = dlc.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %indices = dlc.constant dense<[[-1, 0], [1, 2]]> : tensor<2x2xi32>
  %0 = dlc.gather %data, %indices {axis = 1 : i64} : (tensor<2x3xi64>, tensor<2x2xi32>) -> tensor<2x2x2xi64>
  return %0 : tensor<2x2x2xi64>
}

// -----

// An out-of-range constant index reads an unspecified element: not folded.
// CHECK-LABEL: func.func @gather_out_of_range
// CHECK:         dlc.gather
func.func @gather_out_of_range() -> tensor<1xi64> {
  %data = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %indices = dlc.constant dense<[3]> : tensor<1xi64>
  %0 = dlc.gather %data, %indices {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// Zero pads are the input; constant, edge and reflect padding of a constant; negative pads crop.
// CHECK-LABEL: func.func @pad
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK-DAG:     %[[CONST:.*]] = dlc.constant dense<[9, 1, 2, 3, 9, 9]> : tensor<6xi64>
// CHECK-DAG:     %[[EDGE:.*]] = dlc.constant dense<[1, 1, 2, 3, 3, 3]> : tensor<6xi64>
// CHECK-DAG:     %[[REFLECT:.*]] = dlc.constant dense<[2, 1, 2, 3, 2, 1]> : tensor<6xi64>
// CHECK-DAG:     %[[CROP:.*]] = dlc.constant dense<[2, 3, 0]> : tensor<3xi64>
// CHECK:         return %[[X]], %[[CONST]], %[[EDGE]], %[[REFLECT]], %[[CROP]]
func.func @pad(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xi64>, tensor<6xi64>, tensor<6xi64>, tensor<3xi64>) {
  %0 = dlc.pad %x {pads = array<i64: 0, 0, 0, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %c = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %1 = dlc.pad %c {pads = array<i64: 1, 2>, value = 9.0 : f64} : tensor<3xi64> -> tensor<6xi64>
  %2 = dlc.pad %c {pads = array<i64: 1, 2>, mode = #dlc<pad_mode edge>} : tensor<3xi64> -> tensor<6xi64>
  %3 = dlc.pad %c {pads = array<i64: 1, 2>, mode = #dlc<pad_mode reflect>} : tensor<3xi64> -> tensor<6xi64>
  %4 = dlc.pad %c {pads = array<i64: -1, 1>} : tensor<3xi64> -> tensor<3xi64>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<6xi64>, tensor<6xi64>, tensor<6xi64>, tensor<3xi64>
}

// -----

// Padding a 2-D float constant with a constant value.
// CHECK-LABEL: func.func @pad_2d
// CHECK:         dlc.constant dense<{{\[}}[-5.000000e-01, -5.000000e-01, -5.000000e-01], [1.000000e+00, 2.000000e+00, -5.000000e-01], [3.000000e+00, 4.000000e+00, -5.000000e-01]]> : tensor<3x3xf32>
func.func @pad_2d() -> tensor<3x3xf32> {
  %c = dlc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = dlc.pad %c {pads = array<i64: 1, 0, 0, 1>, value = -0.5 : f64} : tensor<2x2xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// The fill value is the pad value only outside the input: a splat input padded with another value is not a splat.
// CHECK-LABEL: func.func @pad_splat
// CHECK:         dlc.constant dense<[0.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<3xf32>
func.func @pad_splat() -> tensor<3xf32> {
  %c = dlc.constant dense<1.0> : tensor<2xf32>
  %0 = dlc.pad %c {pads = array<i64: 1, 0>} : tensor<2xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Expand: to the same shape is the input; a splat stays a splat; a constant broadcasts.
// CHECK-LABEL: func.func @expand
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK-DAG:     %[[S:.*]] = dlc.constant dense<2.500000e+00> : tensor<4x2x3xf32>
// CHECK-DAG:     %[[B:.*]] = dlc.constant dense<{{\[}}[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi64>
// CHECK:         return %[[X]], %[[S]], %[[B]]
func.func @expand(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x2x3xf32>, tensor<2x3xi64>) {
  %0 = dlc.expand %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %s = dlc.constant dense<2.5> : tensor<1xf32>
  %1 = dlc.expand %s : tensor<1xf32> -> tensor<4x2x3xf32>
  %c = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %2 = dlc.expand %c : tensor<3xi64> -> tensor<2x3xi64>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4x2x3xf32>, tensor<2x3xi64>
}

// -----

// Tile: all-one repeats are the input; a constant repeats.
// CHECK-LABEL: func.func @tile
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK-DAG:     %[[T:.*]] = dlc.constant dense<{{\[}}[1, 2, 1, 2], [3, 4, 3, 4]]> : tensor<2x4xi64>
// CHECK:         return %[[X]], %[[T]]
func.func @tile(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x4xi64>) {
  %0 = dlc.tile %x {repeats = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %c = dlc.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %1 = dlc.tile %c {repeats = array<i64: 1, 2>} : tensor<2x2xi64> -> tensor<2x4xi64>
  return %0, %1 : tensor<2x3xf32>, tensor<2x4xi64>
}

// -----

// Results with more than 64K elements are not folded unless they are splats.
// CHECK-LABEL: func.func @size_limit
// CHECK-DAG:     %[[S:.*]] = dlc.constant dense<1> : tensor<2x40000xi32>
// CHECK-DAG:     %[[T:.*]] = dlc.tile
// CHECK:         return %[[T]], %[[S]]
func.func @size_limit() -> (tensor<80000xi32>, tensor<2x40000xi32>) {
  %c = dlc.constant dense<[1, 2]> : tensor<2xi32>
  %0 = dlc.tile %c {repeats = array<i64: 40000>} : tensor<2xi32> -> tensor<80000xi32>
  %s = dlc.constant dense<1> : tensor<2x1xi32>
  %1 = dlc.tile %s {repeats = array<i64: 1, 40000>} : tensor<2x1xi32> -> tensor<2x40000xi32>
  return %0, %1 : tensor<80000xi32>, tensor<2x40000xi32>
}

// -----

// A dense_resource whose blob is not available (elided) is not folded.
// CHECK-LABEL: func.func @elided_resource
// CHECK:         dlc.transpose
func.func @elided_resource() -> tensor<2x2xf32> {
  %w = dlc.constant dense_resource<__elided__> : tensor<2x2xf32>
  %0 = dlc.transpose %w {perm = array<i64: 1, 0>} : tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// expand(expand(x)) is one expand of x (broadcasting is transitive).
// CHECK-LABEL: func.func @expand_of_expand
// CHECK-SAME:    %[[X:.*]]: tensor<3x1xf32>
// CHECK:         %[[E:.*]] = dlc.expand %[[X]] : tensor<3x1xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[E]]
func.func @expand_of_expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.expand %x : tensor<3x1xf32> -> tensor<1x3x4xf32>
  %1 = dlc.expand %0 : tensor<1x3x4xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// slice(slice(x)) is one slice of x: x[1:9:2][3:-1:-2] reads x[7], x[3], i.e. x[7:-1:-4].
// CHECK-LABEL: func.func @slice_of_slice
// CHECK-SAME:    %[[X:.*]]: tensor<10x6xf32>
// CHECK:         %[[S:.*]] = dlc.slice %[[X]] {ends = array<i64: -1, 5>, starts = array<i64: 7, 2>, steps = array<i64: -4, 1>} : tensor<10x6xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[S]]
func.func @slice_of_slice(%x: tensor<10x6xf32>) -> tensor<2x3xf32> {
  %0 = dlc.slice %x {starts = array<i64: 1, 1>, ends = array<i64: 9, 6>, steps = array<i64: 2, 1>} : tensor<10x6xf32> -> tensor<4x5xf32>
  %1 = dlc.slice %0 {starts = array<i64: 3, 1>, ends = array<i64: -1, 4>, steps = array<i64: -2, 1>} : tensor<4x5xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Composing slices of a constant gives the same elements as slicing twice.
// CHECK-LABEL: func.func @slice_of_slice_constant
// CHECK:         dlc.constant dense<[7, 3]> : tensor<2xi64>
func.func @slice_of_slice_constant() -> tensor<2xi64> {
  %c = dlc.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]> : tensor<10xi64>
  %0 = dlc.slice %c {starts = array<i64: 1>, ends = array<i64: 9>, steps = array<i64: 2>} : tensor<10xi64> -> tensor<4xi64>
  %1 = dlc.slice %0 {starts = array<i64: 3>, ends = array<i64: -1>, steps = array<i64: -2>} : tensor<4xi64> -> tensor<2xi64>
  return %1 : tensor<2xi64>
}

// -----

// DequantizeLinear of constants folds to the float32 values the host
// computes: (q - zero point) * scale, per channel here.
// CHECK-LABEL: func.func @fold_dequantize_per_channel
// CHECK: %[[C:.*]] = dlc.constant dense<{{\[}}[-1.000000e+00, 0.000000e+00, 5.000000e-01], [7.500000e-01, 2.500000e-01, -2.500000e-01]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_dequantize_per_channel() -> tensor<2x3xf32> {
  %q = dlc.constant dense<[[-2, 0, 1], [4, 2, 0]]> : tensor<2x3xi8>
  %s = dlc.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %z = dlc.constant dense<[[0], [1]]> : tensor<2x1xi8>
  %0 = dlc.dequantize_linear %q, %s, %z : (tensor<2x3xi8>, tensor<2x1xf32>, tensor<2x1xi8>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// An unsigned input: 255 is 255, not -1.
// CHECK-LABEL: func.func @fold_dequantize_unsigned
// CHECK: dlc.constant dense<[2.540000e+02, -1.000000e+00]> : tensor<2xf32>
func.func @fold_dequantize_unsigned() -> tensor<2xf32> {
  %q = dlc.constant dense<[255, 0]> : tensor<2xui8>
  %s = dlc.constant dense<1.0> : tensor<f32>
  %z = dlc.constant dense<1> : tensor<ui8>
  %0 = dlc.dequantize_linear %q, %s, %z : (tensor<2xui8>, tensor<f32>, tensor<ui8>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// PyTorch's Expand of a shape with -1 (ViT's class token): Equal and Where
// of constants fold, so the shape is static.
// CHECK-LABEL: func.func @expand_shape_where
// CHECK:         %[[SHAPE:.*]] = dlc.constant dense<[1, 1, 768]> : tensor<3xi64>
// CHECK-NOT:     dlc.where
// CHECK:         return %[[SHAPE]]
func.func @expand_shape_where() -> tensor<3xi64> {
  %shape = dlc.constant dense<[1, -1, -1]> : tensor<3xi64>
  %minus = dlc.constant dense<-1> : tensor<3xi64>
  %ones = dlc.constant dense<[1, 1, 768]> : tensor<3xi64>
  %is = dlc.equal %shape, %minus : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  %picked = dlc.where %is, %ones, %shape : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %picked : tensor<3xi64>
}

// -----

// Mod folds with Python's sign (the divisor's) or C's (fmod); a zero
// divisor stays.
// CHECK-LABEL: func.func @mod
// CHECK-DAG:     %[[PY:.*]] = dlc.constant dense<[1, -1, 0]> : tensor<3xi64>
// CHECK-DAG:     %[[C:.*]] = dlc.constant dense<[-2, 2, 0]> : tensor<3xi64>
// CHECK-DAG:     %[[F:.*]] = dlc.constant dense<[-1.500000e+00, 1.500000e+00]> : tensor<2xf32>
// CHECK:         %[[Z:.*]] = dlc.mod
// CHECK:         return %[[PY]], %[[C]], %[[F]], %[[Z]]
func.func @mod() -> (tensor<3xi64>, tensor<3xi64>, tensor<2xf32>, tensor<1xi64>) {
  %a = dlc.constant dense<[-5, 5, 6]> : tensor<3xi64>
  %b = dlc.constant dense<[3, -3, 3]> : tensor<3xi64>
  %py = dlc.mod %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %c = dlc.mod %a, %b {fmod = true} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %x = dlc.constant dense<[-5.5, 5.5]> : tensor<2xf32>
  %y = dlc.constant dense<2.0> : tensor<2xf32>
  %f = dlc.mod %x, %y {fmod = true} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %one = dlc.constant dense<1> : tensor<1xi64>
  %zero = dlc.constant dense<0> : tensor<1xi64>
  %z = dlc.mod %one, %zero : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %py, %c, %f, %z : tensor<3xi64>, tensor<3xi64>, tensor<2xf32>, tensor<1xi64>
}

// -----

// Comparisons fold with broadcasting, unsigned integers compared as such,
// NaN unordered; logic ops of constants fold too.
// CHECK-LABEL: func.func @comparisons
// CHECK-DAG:     %[[LT:.*]] = dlc.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG:     %[[GE:.*]] = dlc.constant dense<[false, true]> : tensor<2xi1>
// CHECK-DAG:     %[[NAN:.*]] = dlc.constant dense<false> : tensor<2xi1>
// CHECK-DAG:     %[[XOR:.*]] = dlc.constant dense<true> : tensor<3xi1>
// CHECK:         return %[[LT]], %[[GE]], %[[NAN]], %[[XOR]]
func.func @comparisons() -> (tensor<3xi1>, tensor<2xi1>, tensor<2xi1>, tensor<3xi1>) {
  %a = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %two = dlc.constant dense<2> : tensor<i64>
  %lt = dlc.less %a, %two : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
  %u = dlc.constant dense<[1, 255]> : tensor<2xui8>
  %v = dlc.constant dense<128> : tensor<2xui8>
  %ge = dlc.greater_or_equal %u, %v : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %n = dlc.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %m = dlc.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %eq = dlc.equal %n, %m : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %and = dlc.and %lt, %lt : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %not = dlc.constant dense<[false, true, true]> : tensor<3xi1>
  %and2 = dlc.and %not, %not : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %x = dlc.xor %and, %and2 : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %lt, %ge, %eq, %x : tensor<3xi1>, tensor<2xi1>, tensor<2xi1>, tensor<3xi1>
}

// -----

// ScatterND of constants folds (Swin's window masks): tuples in order,
// negative indices from the back, `add` combining; Not of a constant folds.
// CHECK-LABEL: func.func @scatter_nd
// CHECK-DAG:     %[[SET:.*]] = dlc.constant dense<{{\[}}[1, 2], [0, 0], [5, 6]]> : tensor<3x2xi64>
// CHECK-DAG:     %[[ADD:.*]] = dlc.constant dense<[2.000000e+00, 1.000000e+00, 1.500000e+00]> : tensor<3xf32>
// CHECK-DAG:     %[[NOT:.*]] = dlc.constant dense<[false, true]> : tensor<2xi1>
// CHECK:         %[[OUT:.*]] = dlc.scatter_nd
// CHECK:         return %[[SET]], %[[ADD]], %[[NOT]], %[[OUT]]
func.func @scatter_nd() -> (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi1>, tensor<3xf32>) {
  %data = dlc.constant dense<0> : tensor<3x2xi64>
  %rows = dlc.constant dense<[[0], [-1]]> : tensor<2x1xi64>
  %values = dlc.constant dense<[[1, 2], [5, 6]]> : tensor<2x2xi64>
  %set = dlc.scatter_nd %data, %rows, %values : (tensor<3x2xi64>, tensor<2x1xi64>, tensor<2x2xi64>) -> tensor<3x2xi64>
  %ones = dlc.constant dense<1.0> : tensor<3xf32>
  %at = dlc.constant dense<[[0], [2], [0]]> : tensor<3x1xi64>
  %half = dlc.constant dense<0.5> : tensor<3xf32>
  %add = dlc.scatter_nd %ones, %at, %half {reduction = "add"} : (tensor<3xf32>, tensor<3x1xi64>, tensor<3xf32>) -> tensor<3xf32>
  %b = dlc.constant dense<[true, false]> : tensor<2xi1>
  %not = dlc.not %b : tensor<2xi1>
  %outside = dlc.constant dense<[[3]]> : tensor<1x1xi64>
  %one = dlc.constant dense<2.0> : tensor<1xf32>
  %out = dlc.scatter_nd %ones, %outside, %one : (tensor<3xf32>, tensor<1x1xi64>, tensor<1xf32>) -> tensor<3xf32>
  return %set, %add, %not, %out : tensor<3x2xi64>, tensor<3xf32>, tensor<2xi1>, tensor<3xf32>
}
