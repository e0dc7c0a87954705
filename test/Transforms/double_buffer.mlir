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

// -----

// Clipped rows (a padded stride-2 read, as dlc-generate-transfers writes
// it: the rows' loop, then one wait for the box) double-buffer like any
// streamed tile: the first tile's rows before the tile loop, then per
// tile the wait for the current half and the next tile's rows. Tiles
// clip differently, so the records split the totals (6 transfers, 23
// elements) in proportion.
// CHECK-LABEL: func.func @clipped_rows
// CHECK: memref.alloc() {dlc.transfers = [{block = 1 : i64, count = 3 : i64, direction = "in", double_buffered = true, element_bytes = 4 : i64, elements = 11 : i64, memref = memref<16xf32>}, {block = 1 : i64, count = 3 : i64, direction = "in", double_buffered = true, element_bytes = 4 : i64, elements = 12 : i64, memref = memref<16xf32>}]} : memref<2x4xf32, 1>
// CHECK: %[[TAGS:.*]] = memref.alloc() : memref<2xi32>
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: affine.for %{{.*}} = max #{{.*}} step 8 {
// CHECK: affine.dma_start %{{.*}}, %[[TAGS]][(%{{.*}} floordiv 4) mod 2]
// CHECK: }
// CHECK: affine.for %[[T:.*]] = 0 to 8 step 4 {
// CHECK: affine.dma_wait %[[TAGS]][(%[[T]] floordiv 4) mod 2]
// CHECK-NEXT: affine.if #{{.*}}(%[[T]]) {
// CHECK: affine.for %{{.*}} = max #{{.*}} step 8 {
// CHECK: affine.dma_start %{{.*}}, %[[TAGS]][(%{{.*}} floordiv 4) mod 2]
#map = affine_map<(d0, d1) -> (d1 * 2 + d0 - 1, d1 * 2 + d0 + ((-(d1 * 2 + d0 - 1)) ceildiv 2) * 2 - 1)>
#map1 = affine_map<(d0, d1) -> (d1 * 2 + d0 + 6, 16)>
#map2 = affine_map<(d0, d1, d2) -> ((d1 * 2 + d0 - d2 + 6) ceildiv 2, (-d2 + 16) ceildiv 2)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0) -> (d0 + 4)>
#set = affine_set<(d0, d1) : (d0 * 2 + d1 - 1 >= 0, d0 * -2 - d1 + 16 >= 0)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @clipped_rows(%arg0: memref<16xf32>, %arg1: memref<8xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<1xi32>
    %alloc_0 = memref.alloc() {dlc.transfers = [{block = 1 : i64, count = 6 : i64, direction = "in", element_bytes = 4 : i64, elements = 23 : i64, memref = memref<16xf32>}]} : memref<4xf32, 1>
    %alloc_1 = memref.alloc() {dlc.transfers = [{block = 4 : i64, count = 6 : i64, direction = "in", element_bytes = 4 : i64, elements = 24 : i64, memref = memref<8xf32>}, {block = 4 : i64, count = 6 : i64, direction = "out", element_bytes = 4 : i64, elements = 24 : i64, memref = memref<8xf32>}]} : memref<4xf32, 1>
    affine.for %arg2 = 0 to 3 {
      affine.for %arg3 = 0 to 8 step 4 {
        %c4 = arith.constant 4 : index
        affine.dma_start %arg1[%arg3], %alloc_1[0], %alloc[0], %c4 : memref<8xf32>, memref<4xf32, 1>, memref<1xi32>
        affine.dma_wait %alloc[0], %c4 : memref<1xi32>
        %c4_2 = arith.constant 4 : index
        affine.for %arg4 = max #map(%arg2, %arg3) to min #map1(%arg2, %arg3) step 8 {
          %0 = affine.min #map2(%arg2, %arg3, %arg4)
          %c2 = arith.constant 2 : index
          %c1 = arith.constant 1 : index
          affine.dma_start %arg0[%arg4], %alloc_0[(-%arg2 - %arg3 * 2 + %arg4 + 1) floordiv 2], %alloc[0], %0, %c2, %c1 : memref<16xf32>, memref<4xf32, 1>, memref<1xi32>
        }
        affine.dma_wait %alloc[0], %c4_2 : memref<1xi32>
        affine.for %arg4 = #map3(%arg3) to #map4(%arg3) {
          %0 = affine.if #set(%arg4, %arg2) -> f32 {
            %3 = affine.load %alloc_0[%arg4 - %arg3] : memref<4xf32, 1>
            affine.yield %3 : f32
          } else {
            affine.yield %cst : f32
          }
          %1 = affine.load %alloc_1[%arg4 - %arg3] : memref<4xf32, 1>
          %2 = arith.addf %1, %0 : f32
          affine.store %2, %alloc_1[%arg4 - %arg3] : memref<4xf32, 1>
        }
        %c4_3 = arith.constant 4 : index
        affine.dma_start %alloc_1[0], %arg1[%arg3], %alloc[0], %c4_3 : memref<4xf32, 1>, memref<8xf32>, memref<1xi32>
        affine.dma_wait %alloc[0], %c4_3 : memref<1xi32>
      } {dlc.tile_loop}
    } {dlc.tile_loop}
    memref.dealloc %alloc_1 : memref<4xf32, 1>
    memref.dealloc %alloc_0 : memref<4xf32, 1>
    memref.dealloc %alloc : memref<1xi32>
    return
  }
}

