// RUN: dlc-opt %s -split-input-file | dlc-opt -split-input-file | FileCheck %s
// RUN: dlc-opt %s -split-input-file -mlir-print-op-generic | dlc-opt -split-input-file | FileCheck %s

// Round trip of every dlc op through the custom and the generic assembly.

// Constants: dense and dense_resource.
// CHECK-LABEL: func.func @constant
// CHECK:         %[[D:.*]] = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
// CHECK:         %[[R:.*]] = dlc.constant dense_resource<blob> : tensor<2xf32>
// CHECK:         return %[[D]], %[[R]]
func.func @constant() -> (tensor<3xi64>, tensor<2xf32>) {
  %0 = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %1 = dlc.constant dense_resource<blob> : tensor<2xf32>
  return %0, %1 : tensor<3xi64>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Shape (with and without start/end), cast, identity and dropout.
// CHECK-LABEL: func.func @shape_cast_identity
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>
// CHECK:         dlc.shape %[[X]] : tensor<2x3xf32> -> tensor<2xi64>
// CHECK:         dlc.shape %[[X]] {end = 2 : i64, start = 1 : i64} : tensor<2x3xf32> -> tensor<1xi64>
// CHECK:         dlc.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi32>
// CHECK:         dlc.identity %[[X]] : tensor<2x3xf32>
// CHECK:         dlc.dropout %[[X]] {ratio = 2.500000e-01 : f32} : tensor<2x3xf32>
func.func @shape_cast_identity(%x: tensor<2x3xf32>) {
  %0 = dlc.shape %x : tensor<2x3xf32> -> tensor<2xi64>
  %1 = dlc.shape %x {start = 1 : i64, end = 2 : i64} : tensor<2x3xf32> -> tensor<1xi64>
  %2 = dlc.cast %x : tensor<2x3xf32> -> tensor<2x3xi32>
  %3 = dlc.identity %x : tensor<2x3xf32>
  %4 = dlc.dropout %x {ratio = 0.25 : f32} : tensor<2x3xf32>
  return
}

// -----

// Broadcasting binary ops.
// CHECK-LABEL: func.func @binary
// CHECK-SAME:    %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<3xf32>
// CHECK:         dlc.add %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.sub %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.mul %[[B]], %[[A]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.div %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.pow %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.max %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.min %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.prelu %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  %0 = dlc.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = dlc.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = dlc.mul %b, %a : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = dlc.div %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = dlc.pow %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = dlc.max %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = dlc.min %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %7 = dlc.prelu %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Integer ops take unsigned integers (ONNX's uint types) as well as signless
// ones; Pow takes integers.
// CHECK-LABEL: func.func @integer_types
// CHECK-SAME:    %[[U:[^:]*]]: tensor<4xui8>, %[[I:[^:]*]]: tensor<4xi32>
// CHECK:         dlc.max %[[U]], %[[U]] : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
// CHECK:         dlc.pow %[[U]], %[[U]] : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
// CHECK:         dlc.pow %[[I]], %[[I]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK:         dlc.cast %[[U]] : tensor<4xui8> -> tensor<4xf32>
func.func @integer_types(%u: tensor<4xui8>, %i: tensor<4xi32>) {
  %0 = dlc.max %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = dlc.pow %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = dlc.pow %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = dlc.cast %u : tensor<4xui8> -> tensor<4xf32>
  return
}

// -----

// Unary activations, with their attributes where they have some.
// CHECK-LABEL: func.func @unary
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>
// CHECK:         dlc.relu %[[X]] : tensor<4xf32>
// CHECK:         dlc.leaky_relu %[[X]] {alpha = 1.000000e-01 : f32} : tensor<4xf32>
// CHECK:         dlc.sigmoid %[[X]] : tensor<4xf32>
// CHECK:         dlc.tanh %[[X]] : tensor<4xf32>
// CHECK:         dlc.clip %[[X]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<4xf32>
// CHECK:         dlc.exp %[[X]] : tensor<4xf32>
// CHECK:         dlc.log %[[X]] : tensor<4xf32>
// CHECK:         dlc.sqrt %[[X]] : tensor<4xf32>
// CHECK:         dlc.neg %[[X]] : tensor<4xf32>
// CHECK:         dlc.abs %[[X]] : tensor<4xf32>
// CHECK:         dlc.reciprocal %[[X]] : tensor<4xf32>
// CHECK:         dlc.erf %[[X]] : tensor<4xf32>
// CHECK:         dlc.hard_sigmoid %[[X]] {alpha = 2.500000e-01 : f32} : tensor<4xf32>
// CHECK:         dlc.hard_swish %[[X]] : tensor<4xf32>
// CHECK:         dlc.elu %[[X]] {alpha = 2.000000e+00 : f32} : tensor<4xf32>
// CHECK:         dlc.selu %[[X]] : tensor<4xf32>
// CHECK:         dlc.softplus %[[X]] : tensor<4xf32>
func.func @unary(%x: tensor<4xf32>) {
  %0 = dlc.relu %x : tensor<4xf32>
  %1 = dlc.leaky_relu %x {alpha = 0.1 : f32} : tensor<4xf32>
  %2 = dlc.sigmoid %x : tensor<4xf32>
  %3 = dlc.tanh %x : tensor<4xf32>
  %4 = dlc.clip %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<4xf32>
  %5 = dlc.exp %x : tensor<4xf32>
  %6 = dlc.log %x : tensor<4xf32>
  %7 = dlc.sqrt %x : tensor<4xf32>
  %8 = dlc.neg %x : tensor<4xf32>
  %9 = dlc.abs %x : tensor<4xf32>
  %10 = dlc.reciprocal %x : tensor<4xf32>
  %11 = dlc.erf %x : tensor<4xf32>
  %12 = dlc.hard_sigmoid %x {alpha = 0.25 : f32} : tensor<4xf32>
  %13 = dlc.hard_swish %x : tensor<4xf32>
  %14 = dlc.elu %x {alpha = 2.0 : f32} : tensor<4xf32>
  %15 = dlc.selu %x : tensor<4xf32>
  %16 = dlc.softplus %x : tensor<4xf32>
  return
}

// -----

// Integer element types where ONNX allows them.
// CHECK-LABEL: func.func @integer_elementwise
// CHECK:         dlc.relu %{{.*}} : tensor<4xi32>
// CHECK:         dlc.clip %{{.*}} {max = 1.000000e+02 : f64, min = -1.000000e+02 : f64} : tensor<4xi32>
// CHECK:         dlc.abs %{{.*}} : tensor<4xi32>
// CHECK:         dlc.max %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
func.func @integer_elementwise(%x: tensor<4xi32>, %y: tensor<i32>) {
  %0 = dlc.relu %x : tensor<4xi32>
  %1 = dlc.clip %x {min = -100.0 : f64, max = 100.0 : f64} : tensor<4xi32>
  %2 = dlc.abs %x : tensor<4xi32>
  %3 = dlc.max %x, %y : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----

// Softmax and LogSoftmax along an axis.
// CHECK-LABEL: func.func @softmax
// CHECK:         dlc.softmax %{{.*}} {axis = 1 : i64} : tensor<2x5xf32>
// CHECK:         dlc.log_softmax %{{.*}} {axis = 0 : i64} : tensor<2x5xf32>
func.func @softmax(%x: tensor<2x5xf32>) {
  %0 = dlc.softmax %x {axis = 1 : i64} : tensor<2x5xf32>
  %1 = dlc.log_softmax %x {axis = 0 : i64} : tensor<2x5xf32>
  return
}

// -----

// Conv with and without bias, 1-D and 2-D with groups, strides, dilations and pads.
// CHECK-LABEL: func.func @conv
// CHECK:         dlc.conv %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
// CHECK:         dlc.conv %{{.*}}, %{{.*}} {dilations = array<i64: 2>, group = 2 : i64, pads = array<i64: 0, 1>, strides = array<i64: 1>} : (tensor<1x4x10xf32>, tensor<6x2x3xf32>) -> tensor<1x6x7xf32>
func.func @conv(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>, %x1: tensor<1x4x10xf32>, %w1: tensor<6x2x3xf32>) {
  %0 = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %1 = dlc.conv %x1, %w1 {dilations = array<i64: 2>, group = 2 : i64, pads = array<i64: 0, 1>, strides = array<i64: 1>} : (tensor<1x4x10xf32>, tensor<6x2x3xf32>) -> tensor<1x6x7xf32>
  return
}

// -----

// Gemm (transposes, alpha/beta, optional C) and batched, broadcasting and vector MatMul.
// CHECK-LABEL: func.func @gemm_matmul
// CHECK:         dlc.gemm %{{.*}}, %{{.*}}, %{{.*}} {alpha = 5.000000e-01 : f32, trans_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK:         dlc.gemm %{{.*}}, %{{.*}} {trans_a = true} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK:         dlc.matmul %{{.*}}, %{{.*}} : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK:         dlc.matmul %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<3x8x5xf32>) -> tensor<3x5xf32>
// CHECK:         dlc.matmul %{{.*}}, %{{.*}} : (tensor<3x8x5xf32>, tensor<5xf32>) -> tensor<3x8xf32>
func.func @gemm_matmul(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %c: tensor<16xf32>, %at: tensor<8x4xf32>, %b: tensor<8x16xf32>,
                       %l: tensor<2x1x4x8xf32>, %r: tensor<3x8x5xf32>, %v: tensor<8xf32>, %u: tensor<5xf32>) {
  %0 = dlc.gemm %a, %bt, %c {alpha = 0.5 : f32, trans_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %1 = dlc.gemm %at, %b {trans_a = true} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %2 = dlc.matmul %l, %r : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %3 = dlc.matmul %v, %r : (tensor<8xf32>, tensor<3x8x5xf32>) -> tensor<3x5xf32>
  %4 = dlc.matmul %r, %u : (tensor<3x8x5xf32>, tensor<5xf32>) -> tensor<3x8xf32>
  return
}

// -----

// Pools (ceil_mode, count_include_pad), BatchNorm and LRN.
// CHECK-LABEL: func.func @pool_norm
// CHECK:         dlc.max_pool %{{.*}} {ceil_mode = true, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
// CHECK:         dlc.average_pool %{{.*}} {count_include_pad = true, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
// CHECK:         dlc.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32} : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
// CHECK:         dlc.lrn %{{.*}} {size = 3 : i64} : tensor<1x3x8x8xf32>
func.func @pool_norm(%x: tensor<1x3x8x8xf32>, %p: tensor<3xf32>) {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  %1 = dlc.average_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  %2 = dlc.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-3 : f32} : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  %3 = dlc.lrn %x {size = 3 : i64} : tensor<1x3x8x8xf32>
  return
}

// -----

// Reductions with and without keepdims.
// CHECK-LABEL: func.func @reductions
// CHECK:         dlc.reduce_mean %{{.*}} {axes = array<i64: 2, 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x1x1xf32>
// CHECK:         dlc.reduce_sum %{{.*}} {axes = array<i64: 1>, keepdims = false} : tensor<1x3x8x8xf32> -> tensor<1x8x8xf32>
// CHECK:         dlc.reduce_max %{{.*}} {axes = array<i64: 0, 1, 2, 3>, keepdims = false} : tensor<1x3x8x8xf32> -> tensor<f32>
// CHECK:         dlc.reduce_min %{{.*}} {axes = array<i64: 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x1xf32>
func.func @reductions(%x: tensor<1x3x8x8xf32>) {
  %0 = dlc.reduce_mean %x {axes = array<i64: 2, 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x1x1xf32>
  %1 = dlc.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : tensor<1x3x8x8xf32> -> tensor<1x8x8xf32>
  %2 = dlc.reduce_max %x {axes = array<i64: 0, 1, 2, 3>, keepdims = false} : tensor<1x3x8x8xf32> -> tensor<f32>
  %3 = dlc.reduce_min %x {axes = array<i64: 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x1xf32>
  return
}

// -----

// Data movement.
// CHECK-LABEL: func.func @data_movement
// CHECK:         dlc.reshape %{{.*}} : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK:         dlc.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK:         dlc.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
// CHECK:         dlc.slice %{{.*}} {ends = array<i64: 2, -1, 4>, starts = array<i64: 0, 2, 1>, steps = array<i64: 1, -1, 2>} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>
// CHECK:         dlc.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi64>) -> tensor<2x5x4xf32>
// CHECK:         dlc.pad %{{.*}} {pads = array<i64: 0, 1, 2, 0, 1, 2>, value = 1.500000e+00 : f64} : tensor<2x3x4xf32> -> tensor<2x5x8xf32>
// CHECK:         dlc.pad %{{.*}} {mode = #dlc<pad_mode reflect>, pads = array<i64: 0, 1, 1, 0, 1, 1>} : tensor<2x3x4xf32> -> tensor<2x5x6xf32>
// CHECK:         dlc.pad %{{.*}} {mode = #dlc<pad_mode edge>, pads = array<i64: 0, 0, -1, 0, 0, 3>} : tensor<2x3x4xf32> -> tensor<2x3x6xf32>
// CHECK:         dlc.expand %{{.*}} : tensor<3x1xf32> -> tensor<2x3x4xf32>
// CHECK:         dlc.tile %{{.*}} {repeats = array<i64: 1, 2, 3>} : tensor<2x3x4xf32> -> tensor<2x6x12xf32>
func.func @data_movement(%x: tensor<2x3x4xf32>, %i: tensor<5xi64>, %e: tensor<3x1xf32>) {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = dlc.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %2 = dlc.concat %x, %x {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %3 = dlc.slice %x {starts = array<i64: 0, 2, 1>, ends = array<i64: 2, -1, 4>, steps = array<i64: 1, -1, 2>} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>
  %4 = dlc.gather %x, %i {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi64>) -> tensor<2x5x4xf32>
  %5 = dlc.pad %x {pads = array<i64: 0, 1, 2, 0, 1, 2>, value = 1.5 : f64} : tensor<2x3x4xf32> -> tensor<2x5x8xf32>
  %6 = dlc.pad %x {pads = array<i64: 0, 1, 1, 0, 1, 1>, mode = #dlc<pad_mode reflect>} : tensor<2x3x4xf32> -> tensor<2x5x6xf32>
  %7 = dlc.pad %x {pads = array<i64: 0, 0, -1, 0, 0, 3>, mode = #dlc<pad_mode edge>} : tensor<2x3x4xf32> -> tensor<2x3x6xf32>
  %8 = dlc.expand %e : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %9 = dlc.tile %x {repeats = array<i64: 1, 2, 3>} : tensor<2x3x4xf32> -> tensor<2x6x12xf32>
  return
}

// -----

// Comparisons, logic, Where, Mod, BitShift and the float classifications.
// CHECK-LABEL: func.func @logic
// CHECK:         %[[E:.*]] = dlc.equal %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK:         %[[A:.*]] = dlc.and %[[E]], %[[E]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK:         %[[N:.*]] = dlc.not %[[A]] : tensor<2x3xi1>
// CHECK:         dlc.where %[[N]], %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK:         dlc.mod %{{.*}}, %{{.*}} {fmod = true} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK:         dlc.bit_shift %{{.*}}, %{{.*}} {left = false} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
// CHECK:         dlc.is_inf %{{.*}} {detect_positive = false} : (tensor<3xf32>) -> tensor<3xi1>
func.func @logic(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %u: tensor<3xui8>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8>, tensor<3xi1>) {
  %0 = dlc.equal %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = dlc.and %0, %0 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = dlc.not %1 : tensor<2x3xi1>
  %3 = dlc.where %2, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = dlc.mod %y, %y {fmod = true} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %5 = dlc.bit_shift %u, %u {left = false} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  %6 = dlc.is_inf %y {detect_positive = false} : (tensor<3xf32>) -> tensor<3xi1>
  return %3, %4, %5, %6 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8>, tensor<3xi1>
}

// -----

// Unary math and activations keep the operand type.
// CHECK-LABEL: func.func @math
// CHECK:         dlc.floor
// CHECK:         dlc.atanh
// CHECK:         dlc.shrink %{{.*}} {bias = 1.000000e+00 : f32} : tensor<3xi32>
func.func @math(%x: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %0 = dlc.floor %x : tensor<3xf32>
  %1 = dlc.atanh %0 : tensor<3xf32>
  %2 = dlc.shrink %i {bias = 1.0 : f32} : tensor<3xi32>
  return %1, %2 : tensor<3xf32>, tensor<3xi32>
}

// -----

// Issue 11's structured ops: reductions, arg reductions, normalisations,
// Trilu, Hardmax, Size and ConvTranspose.
// CHECK-LABEL: func.func @structured
// CHECK:         dlc.reduce_log_sum_exp %{{.*}} {axes = array<i64: 1>} : tensor<2x3x4x4xf32> -> tensor<2x1x4x4xf32>
// CHECK:         dlc.arg_min %{{.*}} {axis = 1 : i64, select_last_index = true} : tensor<2x3x4x4xf32> -> tensor<2x1x4x4xi64>
// CHECK:         dlc.layer_norm %{{.*}}, %{{.*}} {axis = 3 : i64} : (tensor<2x3x4x4xf32>, tensor<4xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x1xf32>, tensor<2x3x4x1xf32>)
// CHECK:         dlc.instance_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
// CHECK:         dlc.mean_variance_norm %{{.*}} {axes = array<i64: 0, 2, 3>} : tensor<2x3x4x4xf32>
// CHECK:         dlc.trilu %{{.*}}, %{{.*}} {upper = true} : (tensor<2x3x4x4xf32>, tensor<i64>) -> tensor<2x3x4x4xf32>
// CHECK:         dlc.hardmax %{{.*}} {axis = 3 : i64} : tensor<2x3x4x4xf32>
// CHECK:         dlc.size %{{.*}} : tensor<2x3x4x4xf32> -> tensor<i64>
// CHECK:         dlc.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<2x2x8x8xf32>
func.func @structured(%x: tensor<2x3x4x4xf32>, %s: tensor<4xf32>, %c: tensor<3xf32>, %k: tensor<i64>, %w: tensor<3x2x3x3xf32>) -> (tensor<2x1x4x4xf32>, tensor<2x1x4x4xi64>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<i64>, tensor<2x2x8x8xf32>) {
  %0 = dlc.reduce_log_sum_exp %x {axes = array<i64: 1>} : tensor<2x3x4x4xf32> -> tensor<2x1x4x4xf32>
  %1 = dlc.arg_min %x {axis = 1 : i64, select_last_index = true} : tensor<2x3x4x4xf32> -> tensor<2x1x4x4xi64>
  %2:3 = dlc.layer_norm %x, %s {axis = 3 : i64} : (tensor<2x3x4x4xf32>, tensor<4xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x1xf32>, tensor<2x3x4x1xf32>)
  %3 = dlc.instance_norm %x, %c, %c : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %4 = dlc.mean_variance_norm %x {axes = array<i64: 0, 2, 3>} : tensor<2x3x4x4xf32>
  %5 = dlc.trilu %x, %k {upper = true} : (tensor<2x3x4x4xf32>, tensor<i64>) -> tensor<2x3x4x4xf32>
  %6 = dlc.hardmax %x {axis = 3 : i64} : tensor<2x3x4x4xf32>
  %7 = dlc.size %x : tensor<2x3x4x4xf32> -> tensor<i64>
  %8 = dlc.conv_transpose %x, %w {dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<2x2x8x8xf32>
  return %0, %1, %2#0, %3, %4, %5, %6, %7, %8 : tensor<2x1x4x4xf32>, tensor<2x1x4x4xi64>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<i64>, tensor<2x2x8x8xf32>
}

// -----

// CumSum keeps its type; exclusive and reverse default to false.
// CHECK-LABEL: func.func @cumsum
// CHECK: dlc.cumsum %{{.*}} {axis = 1 : i64, reverse = true} : tensor<2x3xf32>
// CHECK: dlc.cumsum %{{.*}} {axis = 0 : i64} : tensor<2x3xf32>
func.func @cumsum(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = dlc.cumsum %x {axis = 1 : i64, reverse = true} : tensor<2x3xf32>
  %1 = dlc.cumsum %x {axis = 0 : i64, exclusive = false} : tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Einsum, the gathers and scatters by index tuples, OneHot and TopK.
// CHECK-LABEL: func.func @indexing
// CHECK: dlc.einsum %{{.*}}, %{{.*}} {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK: dlc.gather_nd %{{.*}}, %{{.*}} {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
// CHECK: dlc.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = "add"} : (tensor<2x3x4xf32>, tensor<2x1x4xi64>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK: dlc.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<1x2xi64>, tensor<1x4xf32>) -> tensor<2x3x4xf32>
// CHECK: dlc.one_hot %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2xi64>, tensor<2xf32>) -> tensor<2x5xf32>
// CHECK: dlc.top_k %{{.*}} {axis = 2 : i64, largest = false} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>, tensor<2x3x2xi64>
// CHECK: dlc.reverse_sequence %{{.*}}, %{{.*}} {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
func.func @indexing(%x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>, %i: tensor<2x1xi64>, %e: tensor<2x1x4xi64>, %u: tensor<2x1x4xf32>, %t: tensor<1x2xi64>, %v: tensor<1x4xf32>, %h: tensor<2xi64>, %o: tensor<2xf32>, %l: tensor<3xi64>) -> (tensor<2x3x5xf32>, tensor<2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x5xf32>, tensor<2x3x2xi64>, tensor<2x3x4xf32>) {
  %0 = dlc.einsum %x, %y {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = dlc.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  %2 = dlc.scatter_elements %x, %e, %u {axis = 1 : i64, reduction = "add"} : (tensor<2x3x4xf32>, tensor<2x1x4xi64>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %3 = dlc.scatter_nd %x, %t, %v : (tensor<2x3x4xf32>, tensor<1x2xi64>, tensor<1x4xf32>) -> tensor<2x3x4xf32>
  %4 = dlc.one_hot %h, %o {axis = 1 : i64} : (tensor<2xi64>, tensor<2xf32>) -> tensor<2x5xf32>
  %5:2 = dlc.top_k %x {axis = 2 : i64, largest = false} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>, tensor<2x3x2xi64>
  %6 = dlc.reverse_sequence %x, %l {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %0, %1, %2, %3, %4, %5#1, %6 : tensor<2x3x5xf32>, tensor<2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x5xf32>, tensor<2x3x2xi64>, tensor<2x3x4xf32>
}

// -----

// A transfer between the host's memory and a target's round-trips.
// CHECK-LABEL: func.func @transfer
// CHECK: dlc.transfer %{{.*}} {destination = "snowflake", source = "host"} : tensor<4xf32>
func.func @transfer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.transfer %x {source = "host", destination = "snowflake"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// QuantizeLinear and DequantizeLinear round-trip with broadcasting operands.
// CHECK-LABEL: func.func @quantization
// CHECK: dlc.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x2x3xf32>, tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<1x2x3xui8>
// CHECK: dlc.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x2x3xui8>, tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<1x2x3xf32>
func.func @quantization(%x: tensor<1x2x3xf32>, %s: tensor<2x1xf32>, %z: tensor<2x1xui8>) -> tensor<1x2x3xf32> {
  %q = dlc.quantize_linear %x, %s, %z : (tensor<1x2x3xf32>, tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<1x2x3xui8>
  %d = dlc.dequantize_linear %q, %s, %z : (tensor<1x2x3xui8>, tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<1x2x3xf32>
  return %d : tensor<1x2x3xf32>
}
