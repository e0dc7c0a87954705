// RUN: dlc-opt --dlc-host-flatten-memref-globals --split-input-file %s | FileCheck %s

// A rank-4 resource global is stored 1-D (same blob); each get_global reads
// it back through an expand_shape view of the original shape.
// CHECK: memref.global "private" constant @w : memref<8xf32> = dense_resource<blob>
// CHECK-LABEL: func.func @weights
// CHECK: %[[FLAT:.*]] = memref.get_global @w : memref<8xf32>
// CHECK: %[[VIEW:.*]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1, 2, 3]] output_shape [4, 2, 1, 1] : memref<8xf32> into memref<4x2x1x1xf32>
// CHECK: %[[V:.*]] = memref.load %[[VIEW]]
// CHECK: return %[[V]]
memref.global "private" constant @w : memref<4x2x1x1xf32> = dense_resource<blob>
func.func @weights(%i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %0 = memref.get_global @w : memref<4x2x1x1xf32>
  %1 = memref.load %0[%i, %c0, %c0, %c0] : memref<4x2x1x1xf32>
  return %1 : f32
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040000000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Dense values are reshaped; rank-1 and uninitialised globals are left alone.
// CHECK-DAG: memref.global "private" constant @d : memref<4xi32> = dense<[1, 2, 3, 4]>
// CHECK-DAG: memref.global "private" constant @v : memref<3xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-DAG: memref.global "private" @buf : memref<2x2xf32> = uninitialized
// CHECK-LABEL: func.func @others
// CHECK: memref.get_global @d : memref<4xi32>
// CHECK: memref.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 2] : memref<4xi32> into memref<2x2xi32>
// CHECK: memref.get_global @v : memref<3xf32>
// CHECK: memref.get_global @buf : memref<2x2xf32>
memref.global "private" constant @d : memref<2x2xi32> = dense<[[1, 2], [3, 4]]>
memref.global "private" constant @v : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
memref.global "private" @buf : memref<2x2xf32> = uninitialized
func.func @others() -> (memref<2x2xi32>, memref<3xf32>, memref<2x2xf32>) {
  %0 = memref.get_global @d : memref<2x2xi32>
  %1 = memref.get_global @v : memref<3xf32>
  %2 = memref.get_global @buf : memref<2x2xf32>
  return %0, %1, %2 : memref<2x2xi32>, memref<3xf32>, memref<2x2xf32>
}
