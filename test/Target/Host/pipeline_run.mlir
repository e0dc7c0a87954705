// RUN: dlc-opt --dlc-host-pipeline %s \
// RUN:   | mlir-runner -e test --entry-point-result=void \
// RUN:       --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   | FileCheck %s

// Runs the whole host pipeline (dlc -> linalg -> affine -> LLVM) on the
// corner cases the host must get exactly right, and prints the numbers:
// x = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]].

// AveragePool 3x3 / 2, pads 1, ceil_mode, count_include_pad: the windows of
// the last row and column reach into ceil_mode's padding, which never
// counts (divisors 6 and 4 there, 9 elsewhere).
// CHECK: rank = 4 offset = 0 sizes = [1, 1, 3, 3]
// CHECK-NEXT: [1.11111,   2.66667,   1.66667]
// CHECK-NEXT: [5.66667,   10,   5.5]
// CHECK-NEXT: [4.16667,   7,   3.75]

// Reflect padding of 2 at the start of the last dimension.
// CHECK: sizes = [1, 1, 4, 6]
// CHECK-NEXT: [2,   1,   0,   1,   2,   3]
// CHECK-NEXT: [6,   5,   4,   5,   6,   7]
// CHECK-NEXT: [10,   9,   8,   9,   10,   11]
// CHECK-NEXT: [14,   13,   12,   13,   14,   15]

// Slice [3:0:-2] in both spatial dimensions.
// CHECK: sizes = [1, 1, 2, 2]
// CHECK-NEXT: [15,   13]
// CHECK-NEXT: [7,   5]

// Gather rows [0, -1, 2]: -1 wraps to the last row.
// CHECK: sizes = [1, 1, 3, 4]
// CHECK-NEXT: [0,   1,   2,   3]
// CHECK-NEXT: [12,   13,   14,   15]
// CHECK-NEXT: [8,   9,   10,   11]

// Integer division truncates toward zero; by zero gives 0 instead of a trap.
// CHECK: sizes = [4]
// CHECK-NEXT: [3,  -3,  0,  -2147483648]

// Erf has no LLVM intrinsic and calls libm's erff: erf of [2, 2, 0, -1].
// CHECK: sizes = [4]
// CHECK-NEXT: [0.995322,  0.995322,  0,  -0.842701]
func.func @main(%x: tensor<1x1x4x4xf32>, %i: tensor<3xi64>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x4x6xf32>, tensor<1x1x2x2xf32>, tensor<1x1x3x4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = true, count_include_pad = true} : tensor<1x1x4x4xf32> -> tensor<1x1x3x3xf32>
  %1 = dlc.pad %x {pads = array<i64: 0, 0, 0, 2, 0, 0, 0, 0>, mode = #dlc<pad_mode reflect>} : tensor<1x1x4x4xf32> -> tensor<1x1x4x6xf32>
  %2 = dlc.slice %x {starts = array<i64: 0, 0, 3, 3>, ends = array<i64: 1, 1, 0, 0>, steps = array<i64: 1, 1, -2, -2>} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  %3 = dlc.gather %x, %i {axis = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<3xi64>) -> tensor<1x1x3x4xf32>
  %4 = dlc.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %f = dlc.cast %b : tensor<4xi32> -> tensor<4xf32>
  %5 = dlc.erf %f : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x1x3x3xf32>, tensor<1x1x4x6xf32>, tensor<1x1x2x2xf32>, tensor<1x1x3x4xf32>, tensor<4xi32>, tensor<4xf32>
}

func.func @test() {
  %x = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]]]> : tensor<1x1x4x4xf32>
  %i = arith.constant dense<[0, -1, 2]> : tensor<3xi64>
  %a = arith.constant dense<[7, -7, 5, -2147483648]> : tensor<4xi32>
  %b = arith.constant dense<[2, 2, 0, -1]> : tensor<4xi32>
  %r:6 = call @main(%x, %i, %a, %b) : (tensor<1x1x4x4xf32>, tensor<3xi64>, tensor<4xi32>, tensor<4xi32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x4x6xf32>, tensor<1x1x2x2xf32>, tensor<1x1x3x4xf32>, tensor<4xi32>, tensor<4xf32>)
  %m0 = bufferization.to_buffer %r#0 : tensor<1x1x3x3xf32> to memref<1x1x3x3xf32>
  %u0 = memref.cast %m0 : memref<1x1x3x3xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %m1 = bufferization.to_buffer %r#1 : tensor<1x1x4x6xf32> to memref<1x1x4x6xf32>
  %u1 = memref.cast %m1 : memref<1x1x4x6xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %m2 = bufferization.to_buffer %r#2 : tensor<1x1x2x2xf32> to memref<1x1x2x2xf32>
  %u2 = memref.cast %m2 : memref<1x1x2x2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %m3 = bufferization.to_buffer %r#3 : tensor<1x1x3x4xf32> to memref<1x1x3x4xf32>
  %u3 = memref.cast %m3 : memref<1x1x3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %m4 = bufferization.to_buffer %r#4 : tensor<4xi32> to memref<4xi32>
  %u4 = memref.cast %m4 : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u4) : (memref<*xi32>) -> ()
  %m5 = bufferization.to_buffer %r#5 : tensor<4xf32> to memref<4xf32>
  %u5 = memref.cast %m5 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
