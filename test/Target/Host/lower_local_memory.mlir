// RUN: dlc-opt --split-input-file --dlc-host-lower-local-memory %s | FileCheck %s

// A strided transfer in: 4 blocks of 2 elements, 8 apart on the global side,
// contiguous in the local buffer. It becomes a call of the host's DMA
// engine on the flattened buffers: source blocks 8 apart, destination
// blocks 2 apart. The local buffer moves to the default memory space and
// the module keeps its hardware description as text only (LLVM IR has no
// use for the attribute).
// CHECK-LABEL: module @strided_in
// CHECK-SAME: attributes {dlc.hardware_text = "#dlc.hardware<local_memory_bytes = 1024>"}
// CHECK-LABEL: func.func @transfer_in
// CHECK-SAME: %[[GLOBAL:.*]]: memref<4x8xf32>
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[LOCAL:.*]] = memref.alloc() : memref<4x2xf32>
// CHECK-DAG: %[[FLAT_GLOBAL:.*]] = memref.reinterpret_cast %[[GLOBAL]] to offset: [0], sizes: [32], strides: [1]
// CHECK-DAG: %[[FLAT_LOCAL:.*]] = memref.reinterpret_cast %[[LOCAL]] to offset: [0], sizes: [8], strides: [1]
// CHECK-DAG: %[[SRC:.*]] = memref.cast %[[FLAT_GLOBAL]] : memref<32xf32> to memref<?xf32>
// CHECK-DAG: %[[DST:.*]] = memref.cast %[[FLAT_LOCAL]] : memref<8xf32> to memref<?xf32>
// CHECK: call @dlc_host_dma_f32(%[[SRC]], %{{.*}}, %[[C8]], %[[DST]], %{{.*}}, %[[C2]], %[[C8]], %[[C2]])
// CHECK-NOT: affine.dma_wait
// The engine: blocks of `block size` elements, each at its offset plus the
// block's index times the side's stride; kept out of line.
// CHECK-LABEL: func.func private @dlc_host_dma_f32
// CHECK-SAME: (%[[S:.*]]: memref<?xf32>, %[[SO:.*]]: index, %[[SS:.*]]: index, %[[D:.*]]: memref<?xf32>, %[[DO:.*]]: index, %[[DS:.*]]: index, %[[N:.*]]: index, %[[B:.*]]: index) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[N]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[BLOCKS]]
// CHECK: arith.muli %[[K]], %[[SS]]
// CHECK: arith.muli %[[K]], %[[DS]]
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[S]]
// CHECK: memref.store %[[V]], %[[D]]
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

// -----

// Transfers out, unstrided (one block of all the elements): the global side
// is the destination. One engine per element type, shared by every
// transfer of that type.
// CHECK-LABEL: module @two_types
// CHECK: call @dlc_host_dma_f32(%{{.*}}, %{{.*}}, %[[N:.*]], %{{.*}}, %{{.*}}, %[[N]], %[[N]], %[[N]])
// CHECK: call @dlc_host_dma_i64(
// CHECK: call @dlc_host_dma_f32(
// CHECK-COUNT-1: func.func private @dlc_host_dma_f32
// CHECK-COUNT-1: func.func private @dlc_host_dma_i64
module @two_types attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 1024>} {
  func.func @transfer_out(%a: memref<8xf32>, %b: memref<8xi64>, %c: memref<8xf32>) {
    %c8 = arith.constant 8 : index
    %la = memref.alloc() : memref<8xf32, 1>
    %lb = memref.alloc() : memref<8xi64, 1>
    %tag = memref.alloc() : memref<1xi32>
    affine.dma_start %la[0], %a[0], %tag[0], %c8 : memref<8xf32, 1>, memref<8xf32>, memref<1xi32>
    affine.dma_wait %tag[0], %c8 : memref<1xi32>
    affine.dma_start %lb[0], %b[0], %tag[0], %c8 : memref<8xi64, 1>, memref<8xi64>, memref<1xi32>
    affine.dma_wait %tag[0], %c8 : memref<1xi32>
    affine.dma_start %la[0], %c[0], %tag[0], %c8 : memref<8xf32, 1>, memref<8xf32>, memref<1xi32>
    affine.dma_wait %tag[0], %c8 : memref<1xi32>
    return
  }
}
