// RUN: dlc-opt --split-input-file --dlc-double-buffer %s | FileCheck %s

// A streamed read-only tile (A's 16x4 box at the k tile loop) gets two
// halves and two tags: the first tile's transfer before the loop, then in
// each iteration a wait for the current half and the next tile's transfer
// into the other half. The record splits: 4 prologue transfers (one per i
// tile), 60 in the loop.
// CHECK-LABEL: func.func @streamed
// CHECK-SAME: (%[[A:.*]]: memref<64x64xf32>
// CHECK: %[[LA:.*]] = memref.alloc() {dlc.transfers = [{block = 4 : i64, count = 4 : i64, direction = "in", double_buffered = true, element_bytes = 4 : i64, elements = 256 : i64, memref = memref<64x64xf32>}, {block = 4 : i64, count = 60 : i64, direction = "in", double_buffered = true, element_bytes = 4 : i64, elements = 3840 : i64, memref = memref<64x64xf32>}]} : memref<2x16x4xf32, 1>
// CHECK: %[[TAGS:.*]] = memref.alloc() : memref<2xi32>
// CHECK: affine.for %[[I:.*]] = 0 to 64 step 16 {
// CHECK: %[[FIRST:.*]] = arith.constant 0 : index
// CHECK: affine.dma_start %[[A]][%[[I]], %[[FIRST]]], %[[LA]][(%[[FIRST]] floordiv 4) mod 2, 0, 0], %[[TAGS]][(%[[FIRST]] floordiv 4) mod 2]
// CHECK-NOT: affine.dma_wait
// CHECK: affine.for %[[K:.*]] = 0 to 64 step 4 {
// CHECK-NEXT: affine.dma_wait %[[TAGS]][(%[[K]] floordiv 4) mod 2]
// CHECK-NEXT: affine.if #{{.*}}(%[[K]]) {
// CHECK-NEXT: %[[NEXT:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK-NEXT: affine.dma_start %[[A]][%[[I]], %[[NEXT]]], %[[LA]][(%[[NEXT]] floordiv 4) mod 2, 0, 0], %[[TAGS]][(%[[NEXT]] floordiv 4) mod 2]
// CHECK: affine.load %[[LA]][(%[[K]] floordiv 4) mod 2, %{{.*}} - %[[I]], %{{.*}} - %[[K]]] : memref<2x16x4xf32, 1>
// CHECK: memref.dealloc %[[LA]]
// CHECK-NEXT: memref.dealloc %[[TAGS]]
#lb = affine_map<(d0) -> (d0)>
#ub16 = affine_map<(d0) -> (d0 + 16)>
#ub4 = affine_map<(d0) -> (d0 + 4)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @streamed(%a: memref<64x64xf32>, %out: memref<64xf32>) {
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    %tag = memref.alloc() : memref<1xi32>
    %la = memref.alloc() {dlc.transfers = [{block = 4 : i64, count = 64 : i64, direction = "in", element_bytes = 4 : i64, elements = 4096 : i64, memref = memref<64x64xf32>}]} : memref<16x4xf32, 1>
    affine.for %i0 = 0 to 64 step 16 {
      affine.for %k0 = 0 to 64 step 4 {
        affine.dma_start %a[%i0, %k0], %la[0, 0], %tag[0], %c64, %c64, %c4 : memref<64x64xf32>, memref<16x4xf32, 1>, memref<1xi32>
        affine.dma_wait %tag[0], %c64 : memref<1xi32>
        affine.for %i = #lb(%i0) to #ub16(%i0) {
          affine.for %k = #lb(%k0) to #ub4(%k0) {
            %v = affine.load %la[%i - %i0, %k - %k0] : memref<16x4xf32, 1>
            affine.store %v, %out[%i] : memref<64xf32>
          }
        }
      } {dlc.tile_loop}
    } {dlc.tile_loop}
    memref.dealloc %la : memref<16x4xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// A transfer outside any tile loop (the whole buffer, moved once) stays
// single-buffered.
// CHECK-LABEL: func.func @not_streamed
// CHECK: memref.alloc() {{.*}} : memref<4xf32, 1>
// CHECK-NOT: memref<2x
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @not_streamed(%a: memref<4xf32>) {
    %c4 = arith.constant 4 : index
    %tag = memref.alloc() : memref<1xi32>
    %la = memref.alloc() {dlc.transfers = [{block = 4 : i64, count = 1 : i64, direction = "in", element_bytes = 4 : i64, elements = 4 : i64, memref = memref<4xf32>}]} : memref<4xf32, 1>
    affine.dma_start %a[0], %la[0], %tag[0], %c4 : memref<4xf32>, memref<4xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %c4 : memref<1xi32>
    affine.for %i = 0 to 4 {
      %v = affine.load %la[%i] : memref<4xf32, 1>
      %w = arith.negf %v : f32
      affine.store %w, %a[%i] : memref<4xf32>
    }
    memref.dealloc %la : memref<4xf32, 1>
    return
  }
}

// -----

// The transfer's sizes defined in the loop body (as dlc-generate-transfers
// emits them) move before the loop, where the prologue needs them.
// CHECK-LABEL: func.func @sizes_in_loop
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.constant 0 : index
// CHECK-NEXT: affine.dma_start %{{.*}}[%[[FIRST]]], %{{.*}}[(%[[FIRST]] floordiv 8) mod 2, 0], %{{.*}}[(%[[FIRST]] floordiv 8) mod 2], %[[C8]]
// CHECK-NEXT: affine.for
#lb = affine_map<(d0) -> (d0)>
#ub8 = affine_map<(d0) -> (d0 + 8)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @sizes_in_loop(%a: memref<64xf32>, %out: memref<64xf32>) {
    %tag = memref.alloc() : memref<1xi32>
    %la = memref.alloc() {dlc.transfers = [{block = 8 : i64, count = 8 : i64, direction = "in", element_bytes = 4 : i64, elements = 64 : i64, memref = memref<64xf32>}]} : memref<8xf32, 1>
    affine.for %k0 = 0 to 64 step 8 {
      %c8 = arith.constant 8 : index
      affine.dma_start %a[%k0], %la[0], %tag[0], %c8 : memref<64xf32>, memref<8xf32, 1>, memref<1xi32>
      affine.dma_wait %tag[0], %c8 : memref<1xi32>
      affine.for %k = #lb(%k0) to #ub8(%k0) {
        %v = affine.load %la[%k - %k0] : memref<8xf32, 1>
        affine.store %v, %out[%k] : memref<64xf32>
      }
    } {dlc.tile_loop}
    memref.dealloc %la : memref<8xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// A tile loop a target spread over processing units (`dlc.distributed`):
// its lower bound depends on the unit, so the first tile's transfer starts
// at that bound, and the records split by the 4 units that each run a
// prologue out of the 16 tiles.
// CHECK-LABEL: func.func @distributed
// CHECK-SAME: (%[[A:.*]]: memref<256xf32>, %{{.*}}: memref<256xf32>, %[[UNIT:.*]]: index)
// CHECK: memref.alloc() {dlc.transfers = [{block = 16 : i64, count = 4 : i64, direction = "in", double_buffered = true, element_bytes = 4 : i64, elements = 64 : i64, memref = memref<256xf32>}, {block = 16 : i64, count = 12 : i64, direction = "in", double_buffered = true, element_bytes = 4 : i64, elements = 192 : i64, memref = memref<256xf32>}]} : memref<2x16xf32, 1>
// CHECK: %[[FIRST:.*]] = affine.apply #{{.*}}()[%[[UNIT]]]
// A unit without a tile starts no transfer.
// CHECK: affine.if #{{.*}}()[%[[UNIT]]] {
// CHECK-NEXT: affine.dma_start %[[A]][%[[FIRST]]]
// CHECK: affine.for %{{.*}} = #{{.*}}()[%[[UNIT]]] to 256 step 64 {
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @distributed(%a: memref<256xf32>, %out: memref<256xf32>, %unit: index) {
    %c16 = arith.constant 16 : index
    %tag = memref.alloc() : memref<1xi32>
    %la = memref.alloc() {dlc.transfers = [{block = 16 : i64, count = 16 : i64, direction = "in", element_bytes = 4 : i64, elements = 256 : i64, memref = memref<256xf32>}]} : memref<16xf32, 1>
    affine.for %i0 = affine_map<()[s0] -> (s0 * 16)>()[%unit] to 256 step 64 {
      affine.dma_start %a[%i0], %la[0], %tag[0], %c16 : memref<256xf32>, memref<16xf32, 1>, memref<1xi32>
      affine.dma_wait %tag[0], %c16 : memref<1xi32>
      affine.for %i = 0 to 16 {
        %v = affine.load %la[%i] : memref<16xf32, 1>
        affine.store %v, %out[%i0 + %i] : memref<256xf32>
      }
    } {dlc.distributed = {trips = 16 : i64, units = 4 : i64}, dlc.tile_loop}
    memref.dealloc %la : memref<16xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}
