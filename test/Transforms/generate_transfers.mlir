// RUN: dlc-opt --split-input-file --dlc-generate-transfers %s | FileCheck %s

// A tiled matmul: C's 16x32 box moves at the j tile loop (in, and out
// before the loop ends), A's 16x4 and B's 4x32 boxes at the k tile loop,
// each as one strided DMA (rows of the box are blocks, a row of the buffer
// apart). Accesses move to the local buffers, shifted by the box origin.
// CHECK-LABEL: func.func @tiled_matmul
// CHECK-SAME: (%[[A:.*]]: memref<64x64xf32>, %[[B:.*]]: memref<64x64xf32>, %[[C:.*]]: memref<64x64xf32>)
// CHECK-DAG: %[[TAG:.*]] = memref.alloc() : memref<1xi32>
// CHECK-DAG: %[[LA:.*]] = memref.alloc() {dlc.transfers = [{block = 4 : i64, count = 128 : i64, direction = "in", element_bytes = 4 : i64, elements = 8192 : i64, memref = memref<64x64xf32>}]} : memref<16x4xf32, 1>
// CHECK-DAG: %[[LB:.*]] = memref.alloc() {dlc.transfers = [{block = 32 : i64, count = 128 : i64, direction = "in", element_bytes = 4 : i64, elements = 16384 : i64, memref = memref<64x64xf32>}]} : memref<4x32xf32, 1>
// CHECK-DAG: %[[LC:.*]] = memref.alloc() {dlc.transfers = [{block = 32 : i64, count = 8 : i64, direction = "in"{{.*}}}, {block = 32 : i64, count = 8 : i64, direction = "out"{{.*}}}]} : memref<16x32xf32, 1>
// CHECK: affine.for %[[I:.*]] = 0 to 64 step 16 {
// CHECK: affine.for %[[J:.*]] = 0 to 64 step 32 {
// CHECK: affine.dma_start %[[C]][%[[I]], %[[J]]], %[[LC]][0, 0], %[[TAG]][0], %{{.*}}, %{{.*}}, %{{.*}} : memref<64x64xf32>, memref<16x32xf32, 1>, memref<1xi32>
// CHECK: affine.for %[[K:.*]] = 0 to 64 step 4 {
// CHECK-DAG: affine.dma_start %[[A]][%[[I]], %[[K]]], %[[LA]][0, 0]
// CHECK-DAG: affine.dma_start %[[B]][%[[K]], %[[J]]], %[[LB]][0, 0]
// CHECK: affine.load %[[LA]][%{{.*}} - %[[I]], %{{.*}} - %[[K]]] : memref<16x4xf32, 1>
// CHECK: affine.store %{{.*}}, %[[LC]][%{{.*}} - %[[I]], %{{.*}} - %[[J]]] : memref<16x32xf32, 1>
// CHECK: } {dlc.tile_loop}
// CHECK: affine.dma_start %[[LC]][0, 0], %[[C]][%[[I]], %[[J]]], %[[TAG]][0]
// CHECK: memref.dealloc %[[LC]]
#lb = affine_map<(d0) -> (d0)>
#ub16 = affine_map<(d0) -> (d0 + 16)>
#ub32 = affine_map<(d0) -> (d0 + 32)>
#ub4 = affine_map<(d0) -> (d0 + 4)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @tiled_matmul(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    affine.for %i0 = 0 to 64 step 16 {
      affine.for %j0 = 0 to 64 step 32 {
        affine.for %k0 = 0 to 64 step 4 {
          affine.for %i = #lb(%i0) to #ub16(%i0) {
            affine.for %j = #lb(%j0) to #ub32(%j0) {
              affine.for %k = #lb(%k0) to #ub4(%k0) {
                %x = affine.load %a[%i, %k] : memref<64x64xf32>
                %y = affine.load %b[%k, %j] : memref<64x64xf32>
                %z = affine.load %c[%i, %j] : memref<64x64xf32>
                %p = arith.mulf %x, %y : f32
                %s = arith.addf %z, %p : f32
                affine.store %s, %c[%i, %j] : memref<64x64xf32>
              }
            }
          }
        } {dlc.tile_loop}
      } {dlc.tile_loop}
    } {dlc.tile_loop}
    return
  }
}

// -----

// A nest without tile loops stages whole buffers around itself: one
// contiguous DMA each; the written buffer is dense, so it is not read in.
// CHECK-LABEL: func.func @whole
// CHECK: %[[LX:.*]] = memref.alloc() {{.*}} : memref<4x8xf32, 1>
// CHECK: affine.dma_start %{{.*}}[0, 0], %[[LX]][0, 0], %{{.*}}[0], %{{.*}} : memref<4x8xf32>, memref<4x8xf32, 1>
// CHECK-NEXT: affine.dma_wait
// CHECK-NEXT: %[[LY:.*]] = memref.alloc() {{.*}} : memref<4x8xf32, 1>
// CHECK-NEXT: affine.for
// CHECK: affine.load %[[LX]]
// CHECK: affine.store %{{.*}}, %[[LY]]
// CHECK: affine.dma_start %[[LY]][0, 0], %{{.*}}[0, 0]
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @whole(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 {
        %v = affine.load %x[%i, %j] : memref<4x8xf32>
        %r = arith.negf %v : f32
        affine.store %r, %y[%i, %j] : memref<4x8xf32>
      }
    }
    return
  }
}

// -----

// A guarded read through a padding (what data-movement elimination makes
// of a padded conv): the box can reach outside the input, so it moves row
// by row, clipped to the buffer, each row's length computed.
// CHECK-LABEL: func.func @clipped
// CHECK: affine.for %[[T:.*]] = 0 to 8 step 4 {
// CHECK: affine.for %[[ROW:.*]] = max #{{.*}}(%[[T]]) to min #{{.*}}(%[[T]]) step 6 {
// CHECK: %[[N:.*]] = affine.min #{{.*}}(%[[T]], %[[ROW]])
// CHECK: affine.dma_start %{{.*}}[%[[ROW]]], %{{.*}}[-%[[T]] + %[[ROW]] + 1], %{{.*}}[0], %[[N]]
#set = affine_set<(d0, d1) : (d0 + d1 - 1 >= 0, 8 - d0 - d1 >= 0)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @clipped(%x: memref<8xf32>, %y: memref<8xf32>) {
    %zero = arith.constant 0.0 : f32
    affine.for %t = 0 to 8 step 4 {
      affine.for %i = affine_map<(d0) -> (d0)>(%t) to affine_map<(d0) -> (d0 + 4)>(%t) {
        affine.for %k = 0 to 3 {
          %v = affine.if #set(%i, %k) -> f32 {
            %l = affine.load %x[%i + %k - 1] : memref<8xf32>
            affine.yield %l : f32
          } else {
            affine.yield %zero : f32
          }
          %o = affine.load %y[%i] : memref<8xf32>
          %s = arith.addf %o, %v : f32
          affine.store %s, %y[%i] : memref<8xf32>
        }
      }
    } {dlc.tile_loop}
    return
  }
}

// -----

// A buffer read through a non-affine access stays in global memory, with a
// remark; the others are staged.
// CHECK-LABEL: func.func @unstaged
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<8xf32>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @unstaged(%x: memref<8xf32>, %idx: memref<8xindex>, %y: memref<8xf32>) {
    affine.for %i = 0 to 8 {
      %j = affine.load %idx[%i] : memref<8xindex>
      %v = memref.load %x[%j] : memref<8xf32>
      affine.store %v, %y[%i] : memref<8xf32>
    }
    return
  }
}

// -----

// A stride-2 subsample (what a 1x1 stride-2 convolution reads): the box
// holds only the elements the accesses touch, every other row and column.
// The columns move as one DMA with an element stride of 2 and one element
// per block, the rows as a loop stepping two rows of the input; local
// indices are the global ones over the step.
// CHECK-LABEL: func.func @stride_two
// CHECK-SAME: (%[[IN:.*]]: memref<32x32xf32>, %[[OUT:.*]]: memref<16x16xf32>)
// CHECK: %[[LIN:.*]] = memref.alloc() {dlc.transfers = [{block = 1 : i64, count = 16 : i64, direction = "in", element_bytes = 4 : i64, elements = 256 : i64, memref = memref<32x32xf32>}]} : memref<4x16xf32, 1>
// The rows are in flight together: one wait for the box after their loop.
// CHECK: affine.for %[[I0:.*]] = 0 to 16 step 4 {
// CHECK-NEXT: %[[BOX:.*]] = arith.constant 64 : index
// CHECK-NEXT: affine.for %[[ROW:.*]] = 0 to 4 {
// CHECK-NEXT: %[[COUNT:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[STRIDE:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[PER:.*]] = arith.constant 1 : index
// CHECK-NEXT: affine.dma_start %[[IN]][%[[I0]] * 2 + %[[ROW]] * 2, 0], %[[LIN]][%[[ROW]], 0], %{{.*}}[0], %[[COUNT]], %[[STRIDE]], %[[PER]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.dma_wait %{{.*}}[0], %[[BOX]]
// CHECK: affine.load %[[LIN]][%{{.*}} - %[[I0]], %{{.*}}] : memref<4x16xf32, 1>
#lb = affine_map<(d0) -> (d0)>
#ub4 = affine_map<(d0) -> (d0 + 4)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @stride_two(%in: memref<32x32xf32>, %out: memref<16x16xf32>) {
    affine.for %i0 = 0 to 16 step 4 {
      affine.for %i = #lb(%i0) to #ub4(%i0) {
        affine.for %j = 0 to 16 {
          %x = affine.load %in[%i * 2, %j * 2] : memref<32x32xf32>
          affine.store %x, %out[%i, %j] : memref<16x16xf32>
        }
      }
    } {dlc.tile_loop}
    return
  }
}

// -----

// A guarded stride-2 read with the kernel loop fixed (a padded stride-2
// convolution tiled one kernel column at a time): the box holds every other
// element; the row starts at the first index inside the buffer that the
// stride reaches and moves with an element stride of 2.
// CHECK-LABEL: func.func @clipped_stride_two
// CHECK: %[[LX:.*]] = memref.alloc() {dlc.transfers = [{block = 1 : i64, count = 6 : i64, direction = "in", element_bytes = 4 : i64, elements = 23 : i64, memref = memref<16xf32>}]} : memref<4xf32, 1>
// CHECK: affine.for %[[K:.*]] = 0 to 3 {
// CHECK: affine.for %[[T:.*]] = 0 to 8 step 4 {
// CHECK: affine.for %[[ROW:.*]] = max #{{.*}}(%[[K]], %[[T]]) to min #{{.*}}(%[[K]], %[[T]]) step 8 {
// CHECK: %[[N:.*]] = affine.min #{{.*}}(%[[K]], %[[T]], %[[ROW]])
// CHECK: %[[STRIDE:.*]] = arith.constant 2 : index
// CHECK: %[[PER:.*]] = arith.constant 1 : index
// CHECK: affine.dma_start %{{.*}}[%[[ROW]]], %[[LX]][(-%[[K]] - %[[T]] * 2 + %[[ROW]] + 1) floordiv 2], %{{.*}}[0], %[[N]], %[[STRIDE]], %[[PER]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.dma_wait
// CHECK: affine.load %[[LX]][%{{.*}} - %[[T]]]
#set = affine_set<(d0, d1) : (d0 * 2 + d1 - 1 >= 0, 16 - d0 * 2 - d1 >= 0)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @clipped_stride_two(%x: memref<16xf32>, %y: memref<8xf32>) {
    %zero = arith.constant 0.0 : f32
    affine.for %k = 0 to 3 {
      affine.for %t = 0 to 8 step 4 {
        affine.for %i = affine_map<(d0) -> (d0)>(%t) to affine_map<(d0) -> (d0 + 4)>(%t) {
          %v = affine.if #set(%i, %k) -> f32 {
            %l = affine.load %x[%i * 2 + %k - 1] : memref<16xf32>
            affine.yield %l : f32
          } else {
            affine.yield %zero : f32
          }
          %a = affine.load %y[%i] : memref<8xf32>
          %s = arith.addf %a, %v : f32
          affine.store %s, %y[%i] : memref<8xf32>
        }
      } {dlc.tile_loop}
    } {dlc.tile_loop}
    return
  }
}

// -----

// The stride-2 subsample on a machine whose DMA blocks cost 64 bytes each:
// a 16-element row with a stride costs 16 blocks, the 31 elements around it
// one, so the columns move densely; the rows still step.
// CHECK-LABEL: func.func @stride_two_block_overhead
// CHECK: %[[LIN:.*]] = memref.alloc() {dlc.transfers = [{block = 31 : i64, count = 4 : i64, direction = "in", element_bytes = 4 : i64, elements = 496 : i64, memref = memref<32x32xf32>}]} : memref<4x31xf32, 1>
// CHECK: affine.for %[[I0:.*]] = 0 to 16 step 4 {
// CHECK: affine.dma_start %{{.*}}[%[[I0]] * 2, 0], %[[LIN]][0, 0], %{{.*}}[0], %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: affine.load %[[LIN]][%{{.*}} - %[[I0]], %{{.*}} * 2] : memref<4x31xf32, 1>
#lb = affine_map<(d0) -> (d0)>
#ub4 = affine_map<(d0) -> (d0 + 4)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096, dma_block_overhead_bytes = 64>} {
  func.func @stride_two_block_overhead(%in: memref<32x32xf32>, %out: memref<16x16xf32>) {
    affine.for %i0 = 0 to 16 step 4 {
      affine.for %i = #lb(%i0) to #ub4(%i0) {
        affine.for %j = 0 to 16 {
          %x = affine.load %in[%i * 2, %j * 2] : memref<32x32xf32>
          affine.store %x, %out[%i, %j] : memref<16x16xf32>
        }
      }
    } {dlc.tile_loop}
    return
  }
}
