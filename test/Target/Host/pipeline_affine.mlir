// RUN: dlc-opt --dlc-to-affine-pipeline --split-input-file %s | FileCheck %s

// The entry takes its inputs then its outputs as identity-layout memrefs and
// returns nothing. Results are computed straight into the out-parameters
// (concat writes its halves into subviews of %out), every op is an affine
// loop nest (no linalg, no memref.copy left), and every intermediate buffer
// is freed.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<1x2x4x4xf32>, %[[OUT:.*]]: memref<1x4x2x2xf32>, %[[OUT2:.*]]: memref<2xf32>)
// CHECK-NOT: -> memref
// CHECK-NOT: linalg.
// CHECK-NOT: memref.copy
// CHECK: %[[PADDED:.*]] = memref.alloc() {{.*}} : memref<1x2x6x6xf32>
// CHECK: affine.for
// CHECK: %[[HALF0:.*]] = memref.subview %[[OUT]][0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK: affine.store %{{.*}}, %[[HALF0]]
// CHECK: %[[HALF1:.*]] = memref.subview %[[OUT]][0, 2, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK: affine.store %{{.*}}, %[[HALF1]]
// CHECK: affine.store %{{.*}}, %[[OUT2]]
// CHECK: memref.dealloc %[[PADDED]]
// CHECK: return
// CHECK-NOT: linalg.
// CHECK-NOT: memref.copy
func.func @main(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x2x2xf32>, tensor<2xf32>) {
  %w = dlc.constant dense<0.5> : tensor<2x2x3x3xf32>
  %c = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %1 = dlc.relu %0 : tensor<1x2x4x4xf32>
  %2 = dlc.max_pool %1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %3 = dlc.concat %2, %2 {axis = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %3, %c : tensor<1x4x2x2xf32>, tensor<2xf32>
}

// -----

// Weights stay dense_resource blobs through bufferization (a memref.global
// that refers to the same blob), and Identity folds away.
// CHECK: memref.global "private" constant @{{.*}} : memref<2xf32> = dense_resource<weights>
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<2xf32>, %[[OUT:.*]]: memref<2xf32>)
// CHECK: memref.get_global
// CHECK: affine.for %[[I:.*]] = 0 to 2
// CHECK: arith.addf
// CHECK: affine.store %{{.*}}, %[[OUT]][%[[I]]]
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = dlc.constant dense_resource<weights> : tensor<2xf32>
  %0 = dlc.identity %x : tensor<2xf32>
  %1 = dlc.add %0, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
