// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// Comparisons are ordered for floats (NaN compares false, as numpy) and
// give an i1 result of the broadcast shape.
// CHECK-LABEL: func.func @compare_float
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: i1):
// CHECK: %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK: linalg.yield %[[C]] : i1
// CHECK: -> tensor<2x3xi1>
func.func @compare_float(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = dlc.less %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// Integer comparisons follow the operands' signedness.
// CHECK-LABEL: func.func @compare_int
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi ugt
func.func @compare_int(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xui8>, %d: tensor<4xui8>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = dlc.greater_or_equal %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = dlc.greater %c, %d : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Logic on i1; Not is xor with true.
// CHECK-LABEL: func.func @logic
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %{{.*}}, %[[TRUE]] : i1
func.func @logic(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = dlc.and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = dlc.or %0, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = dlc.xor %1, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = dlc.not %2 : tensor<4xi1>
  return %3 : tensor<4xi1>
}

// -----

// Where: one select over the broadcast of its three operands.
// CHECK-DAG: #[[COND:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @where
// CHECK: linalg.generic {indexing_maps = [#[[COND]], #{{.*}}, #[[ROW]], #{{.*}}]
// CHECK: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f32
// CHECK: linalg.yield %[[R]]
func.func @where(%c: tensor<2x1xi1>, %x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.where %c, %x, %y : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// IsNaN is an unordered self-comparison; IsInf compares with the
// infinities it detects.
// CHECK-LABEL: func.func @classify
// CHECK: arith.cmpf uno, %[[X:.*]], %[[X]] : f32
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: arith.cmpf oeq, %{{.*}}, %[[INF]]
// CHECK-NOT: 0xFF800000
func.func @classify(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = dlc.is_nan %x : (tensor<4xf32>) -> tensor<4xi1>
  %1 = dlc.is_inf %x {detect_negative = false} : (tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Integer Mod without fmod is Python's %: a nonzero remainder whose sign
// differs from the divisor's gets the divisor added; a zero divisor gives 0.
// CHECK-LABEL: func.func @mod_int
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[BYZERO:.*]] = arith.cmpi eq, %[[Y]], %{{.*}}
// CHECK: %[[REM:.*]] = arith.remsi %[[X]], %{{.*}}
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[REM]]
// CHECK: %[[DNEG:.*]] = arith.cmpi slt, %[[Y]]
// CHECK: arith.xori %[[NEG]], %[[DNEG]]
// CHECK: %[[ADJ:.*]] = arith.addi %[[REM]], %[[Y]]
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %[[ADJ]], %[[REM]]
// CHECK: arith.select %[[BYZERO]], %{{.*}}, %[[R]]
func.func @mod_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = dlc.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Float Mod is C's fmod (arith.remf).
// CHECK-LABEL: func.func @mod_float
// CHECK: arith.remf
func.func @mod_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.mod %a, %b {fmod = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// BitShift by the width or more gives 0.
// CHECK-LABEL: func.func @bit_shift
// CHECK: %[[W:.*]] = arith.constant 8 : i8
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %[[Y:.*]], %[[W]]
// CHECK: %[[S:.*]] = arith.shli %{{.*}}, %[[Y]] : i8
// CHECK: arith.select %[[FAR]], %{{.*}}, %[[S]]
func.func @bit_shift(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = dlc.bit_shift %a, %b {left = true} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// One math function per op; Round rounds halves to even.
// CHECK-LABEL: func.func @math
// CHECK: math.floor
// CHECK: math.ceil
// CHECK: math.roundeven
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.tan
// CHECK: math.asin
// CHECK: math.acos
// CHECK: math.atan
// CHECK: math.sinh
// CHECK: math.cosh
// CHECK: math.asinh
// CHECK: math.acosh
// CHECK: math.atanh
func.func @math(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.floor %x : tensor<4xf32>
  %1 = dlc.ceil %0 : tensor<4xf32>
  %2 = dlc.round %1 : tensor<4xf32>
  %3 = dlc.sin %2 : tensor<4xf32>
  %4 = dlc.cos %3 : tensor<4xf32>
  %5 = dlc.tan %4 : tensor<4xf32>
  %6 = dlc.asin %5 : tensor<4xf32>
  %7 = dlc.acos %6 : tensor<4xf32>
  %8 = dlc.atan %7 : tensor<4xf32>
  %9 = dlc.sinh %8 : tensor<4xf32>
  %10 = dlc.cosh %9 : tensor<4xf32>
  %11 = dlc.asinh %10 : tensor<4xf32>
  %12 = dlc.acosh %11 : tensor<4xf32>
  %13 = dlc.atanh %12 : tensor<4xf32>
  return %13 : tensor<4xf32>
}

// -----

// Sign keeps NaN and zeros (selects fall through to x); Softsign is
// x / (1 + |x|); ThresholdedRelu keeps x above alpha.
// CHECK-LABEL: func.func @activations
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: math.absf
// CHECK: arith.divf
// CHECK: %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: arith.cmpf ogt, %{{.*}}, %[[ALPHA]]
func.func @activations(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.sign %x : tensor<4xf32>
  %1 = dlc.softsign %0 : tensor<4xf32>
  %2 = dlc.thresholded_relu %1 {alpha = 0.5 : f32} : tensor<4xf32>
  %3 = dlc.celu %2 : tensor<4xf32>
  %4 = dlc.shrink %3 : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Trilu compares the column minus the row with the run-time k (a rank-0
// operand broadcast through an empty map).
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @trilu
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[K]], #{{.*}}]
// CHECK: ^bb0(%[[X:.*]]: f32, %[[KV:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK: %[[KEEP:.*]] = arith.cmpi sle, %[[D]], %[[KV]]
// CHECK: arith.select %[[KEEP]], %[[X]]
func.func @trilu(%x: tensor<3x4xf32>, %k: tensor<i64>) -> tensor<3x4xf32> {
  %0 = dlc.trilu %x, %k {upper = false} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
