// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// Numpy broadcasting lives in the indexing maps: the rank-2 operand aligns
// with the trailing dims and its size-1 dim reads index 0.
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: %[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<3x1xf32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[BCAST]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<2x3x4xf32>, tensor<3x1xf32>) outs(%[[INIT]] : tensor<2x3x4xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK: linalg.yield %[[SUM]] : f32
// CHECK: return %[[R]]
func.func @add_broadcast(%a: tensor<2x3x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.add %a, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A rank-0 operand broadcasts through a map with no results.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @mul_scalar
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #{{.*}}]
// CHECK: arith.mulf
func.func @mul_scalar(%a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %0 = dlc.mul %a, %b : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Integer division truncates, and never traps: a zero divisor gives 0 and
// INT_MIN / -1 wraps (the divisor is replaced by 1 in both cases).
// CHECK-LABEL: func.func @div_int
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[MONE:.*]] = arith.constant -1 : i32
// CHECK: %[[BYZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]]
// CHECK: %[[BYMONE:.*]] = arith.cmpi eq, %[[Y]], %[[MONE]]
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[BYZERO]], %[[BYMONE]]
// CHECK: %[[SAFE:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]]
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[SAFE]]
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[X]]
// CHECK: %[[R1:.*]] = arith.select %[[BYMONE]], %[[NEG]], %[[Q]]
// CHECK: %[[R2:.*]] = arith.select %[[BYZERO]], %[[ZERO]], %[[R1]]
// CHECK: linalg.yield %[[R2]]
func.func @div_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = dlc.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Float Max/Min propagate NaN (maximumf/minimumf), integer ones are signed.
// CHECK-LABEL: func.func @max_min
// CHECK: arith.maximumf
// CHECK: arith.minsi
func.func @max_min(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = dlc.max %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = dlc.min %c, %c : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// Pow maps to math.powf; PRelu selects slope * x below zero.
// CHECK-LABEL: func.func @pow_prelu
// CHECK: math.powf
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[SCALED:.*]] = arith.mulf %[[S]], %[[X]]
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[X]]
// CHECK: arith.select %[[NEG]], %[[SCALED]], %[[X]]
func.func @pow_prelu(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = dlc.pow %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = dlc.prelu %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Relu is max(x, 0): maximumf for floats, maxsi for integers.
// CHECK-LABEL: func.func @relu
// CHECK: %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.*}}, %[[ZF]] : f32
// CHECK: %[[ZI:.*]] = arith.constant 0 : i32
// CHECK: arith.maxsi %{{.*}}, %[[ZI]] : i32
func.func @relu(%a: tensor<4xf32>, %b: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = dlc.relu %a : tensor<4xf32>
  %1 = dlc.relu %b : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Clip bounds become constants of the element type; an absent (huge)
// integer bound saturates to the type's range.
// CHECK-LABEL: func.func @clip
// CHECK-DAG: %[[LO:.*]] = arith.constant -5.000000e-01 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[M:.*]] = arith.maximumf %{{.*}}, %[[LO]]
// CHECK: arith.minimumf %[[M]], %[[HI]]
// CHECK-DAG: %[[ILO:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[IHI:.*]] = arith.constant 5 : i8
// CHECK: %[[IM:.*]] = arith.maxsi %{{.*}}, %[[ILO]]
// CHECK: arith.minsi %[[IM]], %[[IHI]]
func.func @clip(%a: tensor<4xf32>, %b: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %0 = dlc.clip %a {min = -0.5 : f64, max = 6.0 : f64} : tensor<4xf32>
  %1 = dlc.clip %b {min = -1.0e300 : f64, max = 5.0 : f64} : tensor<4xi8>
  return %0, %1 : tensor<4xf32>, tensor<4xi8>
}

// -----

// The transcendental activations map to math ops (lowered by the host
// pipeline to LLVM intrinsics or libm).
// CHECK-LABEL: func.func @math_ops
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.erf
// CHECK: math.absf
func.func @math_ops(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = dlc.tanh %a : tensor<4xf32>
  %1 = dlc.exp %a : tensor<4xf32>
  %2 = dlc.log %a : tensor<4xf32>
  %3 = dlc.sqrt %a : tensor<4xf32>
  %4 = dlc.erf %a : tensor<4xf32>
  %5 = dlc.abs %a : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Sigmoid is 1 / (1 + exp(-x)) as in the ONNX reference.
// CHECK-LABEL: func.func @sigmoid
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[NX:.*]] = arith.negf %[[X]]
// CHECK: %[[E:.*]] = math.exp %[[NX]]
// CHECK: %[[D:.*]] = arith.addf %[[ONE]], %[[E]]
// CHECK: arith.divf %[[ONE]], %[[D]]
func.func @sigmoid(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.sigmoid %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Softplus is max(x, 0) + log1p(exp(-|x|)), which neither overflows nor
// cancels.
// CHECK-LABEL: func.func @softplus
// CHECK: %[[ABS:.*]] = math.absf
// CHECK: %[[NEG:.*]] = arith.negf %[[ABS]]
// CHECK: %[[E:.*]] = math.exp %[[NEG]]
// CHECK: %[[L:.*]] = math.log1p %[[E]]
// CHECK: %[[M:.*]] = arith.maximumf
// CHECK: arith.addf %[[M]], %[[L]]
func.func @softplus(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.softplus %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// LeakyRelu, Elu and Selu select on the sign; their attributes become
// constants.
// CHECK-LABEL: func.func @leaky_elu_selu
// CHECK: arith.constant 1.000000e-01 : f32
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: math.exp
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: math.exp
// CHECK: arith.cmpf ole
// CHECK: arith.select
func.func @leaky_elu_selu(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = dlc.leaky_relu %a {alpha = 0.1 : f32} : tensor<4xf32>
  %1 = dlc.elu %a {alpha = 2.0 : f32} : tensor<4xf32>
  %2 = dlc.selu %a : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// HardSigmoid and HardSwish clamp alpha * x + beta to [0, 1].
// CHECK-LABEL: func.func @hard_ops
// CHECK: arith.constant 3.000000e-01 : f32
// CHECK: arith.constant 4.000000e-01 : f32
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: arith.constant 0.166666672 : f32
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: arith.mulf
func.func @hard_ops(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = dlc.hard_sigmoid %a {alpha = 0.3 : f32, beta = 0.4 : f32} : tensor<4xf32>
  %1 = dlc.hard_swish %a : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Neg, Abs and Reciprocal; integer Neg is 0 - x and integer Abs is absi.
// CHECK-LABEL: func.func @neg_abs_reciprocal
// CHECK: arith.negf
// CHECK: arith.subi
// CHECK: math.absi
// CHECK: arith.divf
func.func @neg_abs_reciprocal(%a: tensor<4xf32>, %b: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = dlc.neg %a : tensor<4xf32>
  %1 = dlc.neg %b : tensor<4xi32>
  %2 = dlc.abs %b : tensor<4xi32>
  %3 = dlc.reciprocal %a : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}

// -----

// Cast: float -> int truncates (fptosi), int -> float is signed, bool -> int
// is zero-extended and anything -> bool compares with zero.
// CHECK-LABEL: func.func @casts
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: arith.extui %{{.*}} : i1 to i64
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une
// CHECK: arith.cmpi ne
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @casts(%f: tensor<4xf32>, %i: tensor<4xi64>, %b: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf16>, tensor<4xi8>) {
  %0 = dlc.cast %f : tensor<4xf32> -> tensor<4xi32>
  %1 = dlc.cast %i : tensor<4xi64> -> tensor<4xf32>
  %2 = dlc.cast %b : tensor<4xi1> -> tensor<4xi64>
  %3 = dlc.cast %b : tensor<4xi1> -> tensor<4xf32>
  %4 = dlc.cast %f : tensor<4xf32> -> tensor<4xi1>
  %5 = dlc.cast %i : tensor<4xi64> -> tensor<4xi1>
  %6 = dlc.cast %f : tensor<4xf32> -> tensor<4xf16>
  %7 = dlc.cast %i : tensor<4xi64> -> tensor<4xi8>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi32>, tensor<4xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf16>, tensor<4xi8>
}

// -----

// A cast to the same type is the operand itself.
// CHECK-LABEL: func.func @cast_same
// CHECK-SAME: %[[A:.*]]: tensor<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[A]]
func.func @cast_same(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.cast %a : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An op whose result has no element becomes tensor.empty.
// CHECK-LABEL: func.func @empty_result
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x3xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[E]]
func.func @empty_result(%a: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = dlc.exp %a : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

// Integer Pow is binary exponentiation unrolled over the exponent's bits
// (8 for i8); a negative exponent gives the truncated 1 / x^-y: 1 for
// x = 1, +-1 for x = -1, 0 otherwise.
// CHECK-LABEL: func.func @pow_int
// CHECK:         ^bb0(%[[X:.*]]: i8, %[[E:.*]]: i8, %{{.*}}: i8):
// CHECK-COUNT-8:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : i8
// CHECK:           %[[ISONE:.*]] = arith.cmpi eq, %[[X]], %{{.*}} : i8
// CHECK:           %[[ISMONE:.*]] = arith.cmpi eq, %[[X]], %{{.*}} : i8
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[E]], %{{.*}} : i8
// CHECK:           %[[R:.*]] = arith.select %[[NEG]], %{{.*}}, %{{.*}} : i8
// CHECK:           linalg.yield %[[R]] : i8
func.func @pow_int(%x: tensor<4xi8>, %e: tensor<4xi8>) -> tensor<4xi8> {
  %0 = dlc.pow %x, %e : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Unsigned Pow has no negative exponents: just the unrolled product.
// CHECK-LABEL: func.func @pow_unsigned
// CHECK-NOT:     arith.cmpi slt
// CHECK:         linalg.yield
func.func @pow_unsigned(%x: tensor<4xui8>, %e: tensor<4xui8>) -> tensor<4xui8> {
  %0 = dlc.pow %x, %e : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}
