// RUN: dlc-opt --dlc-memref-copy-to-linalg --split-input-file %s | FileCheck %s

// A copy into a strided subview (what bufferization makes of tensor.pad and
// tensor.insert_slice) becomes linalg.copy with the same operands.
// CHECK-LABEL: func.func @copy_into_subview
// CHECK-SAME: %[[SRC:.*]]: memref<2x3xf32>, %[[DST:.*]]: memref<4x5xf32>
// CHECK: %[[VIEW:.*]] = memref.subview %[[DST]][1, 1] [2, 3] [1, 1]
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[SRC]] : memref<2x3xf32>) outs(%[[VIEW]] : memref<2x3xf32, strided<[5, 1], offset: 6>>)
func.func @copy_into_subview(%src: memref<2x3xf32>, %dst: memref<4x5xf32>) {
  %view = memref.subview %dst[1, 1] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %src, %view : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  return
}

// -----

// Rank-0 and integer copies are rewritten alike.
// CHECK-LABEL: func.func @copy_scalar
// CHECK: linalg.copy ins(%{{.*}} : memref<i64>) outs(%{{.*}} : memref<i64>)
func.func @copy_scalar(%src: memref<i64>, %dst: memref<i64>) {
  memref.copy %src, %dst : memref<i64> to memref<i64>
  return
}
