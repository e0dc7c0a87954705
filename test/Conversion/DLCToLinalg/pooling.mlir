// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// MaxPool pads with -inf; ceil_mode is extra end padding up to the last
// window (5 -> 6 for three 2-wide windows of stride 2).
// CHECK-LABEL: func.func @maxpool_ceil
// CHECK-SAME: %[[X:.*]]: tensor<1x2x5x5xf32>
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NINF]]
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: %[[R:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PAD]], %[[WIN]] : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%[[INIT]] : tensor<1x2x3x3xf32>)
// CHECK: return %[[R]]
func.func @maxpool_ceil(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Dilated 1-D max pooling with pads uses the NCW named op; integer inputs
// pad with the type's minimum.
// CHECK-LABEL: func.func @maxpool_1d_int
// CHECK: %[[MIN:.*]] = arith.constant -128 : i8
// CHECK: tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 1]
// CHECK: tensor.yield %[[MIN]]
// CHECK: linalg.pooling_ncw_max {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x1x9xi8>, tensor<3xi8>)
func.func @maxpool_1d_int(%x: tensor<1x1x7xi8>) -> tensor<1x1x5xi8> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3>, strides = array<i64: 1>, pads = array<i64: 1, 1>, dilations = array<i64: 2>} : tensor<1x1x7xi8> -> tensor<1x1x5xi8>
  return %0 : tensor<1x1x5xi8>
}

// -----

// 3-D pooling has no NCDHW named op: a generic over (n, c, o..., k...)
// reading a kernel-shaped operand for the window ranges.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @maxpool_3d
// CHECK: %[[W:.*]] = tensor.empty() : tensor<2x2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %[[W]] : tensor<1x2x4x4x4xf32>, tensor<2x2x2xf32>)
// CHECK: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK: arith.maximumf %[[V]], %[[ACC]]
func.func @maxpool_3d(%x: tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>} : tensor<1x2x4x4x4xf32> -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// -----

// AveragePool without count_include_pad: zero padding, a sum pool, then a
// division by the per-position count of real elements (corners 4, edges 6,
// centre 9), a compile-time constant broadcast over N and C.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[DIV:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-LABEL: func.func @avgpool_exclude_pad
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PAD]], %{{.*}} : tensor<1x2x7x7xf32>, tensor<3x3xf32>)
// CHECK: %[[COUNTS:.*]] = arith.constant dense<{{\[\[\[\[}}4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]]]> : tensor<1x1x3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[DIV]], #[[ID]]], {{.*}}} ins(%[[SUM]], %[[COUNTS]] : tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>)
// CHECK: arith.divf
func.func @avgpool_exclude_pad(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = false} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// With count_include_pad every window here covers 9 input-or-pad elements:
// the divisor is one scalar.
// CHECK-LABEL: func.func @avgpool_include_pad
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.generic
// CHECK: %[[NINE:.*]] = arith.constant 9.000000e+00 : f32
// CHECK: arith.divf %{{.*}}, %[[NINE]]
func.func @avgpool_include_pad(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// ceil_mode padding is never counted, even with count_include_pad: the last
// window of 6 (pads 1, 1, kernel 3, stride 2) reaches one past the end pad
// and averages over 2 rows, not 3.
// CHECK-LABEL: func.func @avgpool_ceil_include_pad
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant dense<{{\[\[\[\[}}9.000000e+00, 9.000000e+00, 9.000000e+00, 6.000000e+00], {{.*}}, [6.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00]]]]> : tensor<1x1x4x4xf32>
func.func @avgpool_ceil_include_pad(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32> {
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = true, count_include_pad = true} : tensor<1x1x6x6xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// 1-D average pooling uses pooling_ncw_sum.
// CHECK-LABEL: func.func @avgpool_1d
// CHECK: linalg.pooling_ncw_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
func.func @avgpool_1d(%x: tensor<1x2x8xf32>) -> tensor<1x2x4xf32> {
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 2>, strides = array<i64: 2>, pads = array<i64: 0, 0>} : tensor<1x2x8xf32> -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}
