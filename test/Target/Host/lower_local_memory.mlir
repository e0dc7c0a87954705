// RUN: dlc-opt --split-input-file --dlc-host-lower-local-memory %s | FileCheck %s

// A strided transfer in: 4 blocks of 2 elements, 8 apart on the global side,
// contiguous in the local buffer. The local buffer moves to the default
// memory space and the module loses its hardware description.
// CHECK-LABEL: module @strided_in
// CHECK-NOT: dlc.hardware
// CHECK-LABEL: func.func @transfer_in
// CHECK-SAME: %[[GLOBAL:.*]]: memref<4x8xf32>
// CHECK: %[[LOCAL:.*]] = memref.alloc() : memref<4x2xf32>
// CHECK-DAG: %[[FLAT_GLOBAL:.*]] = memref.reinterpret_cast %[[GLOBAL]] to offset: [0], sizes: [32], strides: [1]
// CHECK-DAG: %[[FLAT_LOCAL:.*]] = memref.reinterpret_cast %[[LOCAL]] to offset: [0], sizes: [8], strides: [1]
// CHECK: scf.for %[[E:.*]] =
// CHECK: %[[BLOCK:.*]] = arith.divui %[[E]]
// CHECK: %[[WITHIN:.*]] = arith.remui %[[E]]
// CHECK: %[[V:.*]] = memref.load %[[FLAT_GLOBAL]]
// CHECK: memref.store %[[V]], %[[FLAT_LOCAL]]
// CHECK-NOT: affine.dma_wait
module @strided_in attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 1024>} {
  func.func @transfer_in(%global: memref<4x8xf32>) -> f32 {
    %c8 = arith.constant 8 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %local = memref.alloc() : memref<4x2xf32, 1>
    %tag = memref.alloc() : memref<1xi32>
    affine.dma_start %global[0, 3], %local[0, 0], %tag[0], %c8, %c8, %c2 : memref<4x8xf32>, memref<4x2xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %c8 : memref<1xi32>
    %v = affine.load %local[1, 1] : memref<4x2xf32, 1>
    memref.dealloc %local : memref<4x2xf32, 1>
    return %v : f32
  }
}
