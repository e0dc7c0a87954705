// RUN: dlc-opt --split-input-file --dlc-sunway-broadcast-shared-gets --canonicalize --cse %s | FileCheck %s

// Every CPE reads the same 1000 floats of %x at each step of the
// distributed loop (two steps per CPE): CPE k reads floats
// [1000k/64, 1000(k+1)/64) into every CPE's LDM, between barriers; only
// issuers count the transfer. The tile of %y depends on the loop: it stays
// a PE-mode get.
// CHECK-LABEL: func.func @shared
// CHECK: affine.for %[[T:.*]] = %[[ID:.*]] to 128 step 64 {
// CHECK: sunway.barrier array
// CHECK: affine.if #[[HAS:.*]]()[%[[ID]]] {
// CHECK: memref.store
// CHECK: %[[START:.*]] = affine.apply #{{.*}}()[%[[ID]]]
// CHECK: %[[COUNT:.*]] = affine.apply #{{.*}}()[%[[ID]]]
// CHECK: sunway.dma_get bcast %{{.*}}[%[[START]]], %{{.*}}[%[[START]]], %[[COUNT]] reply
// CHECK-SAME: memref<1000xf32>, memref<1000xf32, #sunway.ldm>
// CHECK: }
// CHECK: sunway.wait_reply
// CHECK: sunway.barrier array
// CHECK: sunway.dma_get pe %{{.*}}[%[[T]], %{{.*}}]
module {
  func.func @shared(%x: memref<10x100xf32>, %y: memref<128x16xf32>) {
    sunway.launch "k0" (%x, %y) : memref<10x100xf32>, memref<128x16xf32>
        attributes {node = "n", ldm_bytes = 4160 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<10x100xf32>, %gy: memref<128x16xf32>):
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1000 = arith.constant 1000 : index
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
      %issued = sunway.ldm_alloc offset 16 : memref<1xi32, #sunway.ldm>
      %buf = sunway.ldm_alloc offset 32 : memref<10x100xf32, #sunway.ldm>
      %tile = sunway.ldm_alloc offset 4032 : memref<1x16xf32, #sunway.ldm>
      affine.for %t = %id to 128 step 64 {
        %n0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        %n1 = arith.addi %n0, %one : i32
        memref.store %n1, %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.dma_get pe %gx[%c0, %c0], %buf[%c0, %c0], %c1000 reply %reply[%c0]
            : memref<10x100xf32>, memref<10x100xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
        %n2 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.wait_reply %reply[%c0], %n2 : memref<1xi32, #sunway.ldm>
        %m0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        %m1 = arith.addi %m0, %one : i32
        memref.store %m1, %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.dma_get pe %gy[%t, %c0], %tile[%c0, %c0], %c16 reply %reply[%c0]
            : memref<128x16xf32>, memref<1x16xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
        %m2 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.wait_reply %reply[%c0], %m2 : memref<1xi32, #sunway.ldm>
      } {dlc.distributed = {trips = 128 : i64, units = 64 : i64}}
    }
    return
  }
}

// -----

// 100 tiles over 64 CPEs: some CPEs run one step, some two, so a barrier
// inside the loop would not be reached by all: the get stays PE-mode.
// CHECK-LABEL: func.func @uneven
// CHECK-NOT: bcast
// CHECK-NOT: sunway.barrier
module {
  func.func @uneven(%x: memref<1000xf32>) {
    sunway.launch "k0" (%x) : memref<1000xf32> attributes {node = "n", ldm_bytes = 4032 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<1000xf32>):
      %c0 = arith.constant 0 : index
      %c1000 = arith.constant 1000 : index
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
      %issued = sunway.ldm_alloc offset 16 : memref<1xi32, #sunway.ldm>
      %buf = sunway.ldm_alloc offset 32 : memref<1000xf32, #sunway.ldm>
      affine.for %t = %id to 100 step 64 {
        %n0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        %n1 = arith.addi %n0, %one : i32
        memref.store %n1, %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.dma_get pe %gx[%c0], %buf[%c0], %c1000 reply %reply[%c0]
            : memref<1000xf32>, memref<1000xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
        %n2 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.wait_reply %reply[%c0], %n2 : memref<1xi32, #sunway.ldm>
      } {dlc.distributed = {trips = 100 : i64, units = 64 : i64}}
    }
    return
  }
}

// -----

// A get of several blocks is split by whole blocks (10 blocks: CPEs with
// a block each, the rest issue nothing); a get of one block is contiguous
// and split by elements, not given whole to one CPE.
// CHECK-LABEL: func.func @blocks
// CHECK: sunway.dma_get bcast %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} block %{{.*}} stride %{{.*}} reply
// CHECK-SAME: memref<1000xf32>, memref<200xf32, #sunway.ldm>
// CHECK: sunway.dma_get bcast
// CHECK-NOT: block
// CHECK-SAME: memref<2000xf32>, memref<400xf32, #sunway.ldm>
module {
  func.func @blocks(%x: memref<10x100xf32>, %y: memref<20x100xf32>) {
    sunway.launch "k0" (%x, %y) : memref<10x100xf32>, memref<20x100xf32>
        attributes {node = "n", ldm_bytes = 2432 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<10x100xf32>, %gy: memref<20x100xf32>):
      %c0 = arith.constant 0 : index
      %c20 = arith.constant 20 : index
      %c100 = arith.constant 100 : index
      %c200 = arith.constant 200 : index
      %c400 = arith.constant 400 : index
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
      %issued = sunway.ldm_alloc offset 16 : memref<1xi32, #sunway.ldm>
      %a = sunway.ldm_alloc offset 32 : memref<10x20xf32, #sunway.ldm>
      %b = sunway.ldm_alloc offset 832 : memref<4x100xf32, #sunway.ldm>
      affine.for %t = %id to 64 step 64 {
        %n0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        %n1 = arith.addi %n0, %one : i32
        memref.store %n1, %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.dma_get pe %gx[%c0, %c0], %a[%c0, %c0], %c200 block %c20 stride %c100 reply %reply[%c0]
            : memref<10x100xf32>, memref<10x20xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
        %m0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        %m1 = arith.addi %m0, %one : i32
        memref.store %m1, %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.dma_get pe %gy[%c0, %c0], %b[%c0, %c0], %c400 block %c400 stride %c400 reply %reply[%c0]
            : memref<20x100xf32>, memref<4x100xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
        %n2 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.wait_reply %reply[%c0], %n2 : memref<1xi32, #sunway.ldm>
      } {dlc.distributed = {trips = 64 : i64, units = 64 : i64}}
    }
    return
  }
}

// -----

// The rows of a clipped transfer (one get per row under a positive-length
// guard, one wait after the rows): row r of the source goes to CPE r mod 64
// as a broadcast, after a barrier; each CPE's wait covers its own rows,
// and the barrier after it everyone's.
// CHECK-LABEL: func.func @rows
// CHECK: affine.for %{{.*}} = 0 to 16 step 4 {
// CHECK-NEXT: sunway.barrier array
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 {
// CHECK: affine.for %[[H:.*]] = max
// CHECK: affine.if #{{.*}}(%{{.*}})[%[[ID:.*]]] {
// CHECK: sunway.dma_get bcast
// CHECK-NOT: sunway.wait_reply
// CHECK: sunway.wait_reply
// CHECK-NEXT: sunway.barrier array
#lower = affine_map<(d0) -> (0, d0 - 1)>
#upper = affine_map<(d0) -> (d0 + 3, 16)>
module {
  func.func @rows(%x: memref<3x16x16xf32>) {
    sunway.launch "k0" (%x) : memref<3x16x16xf32> attributes {node = "n", ldm_bytes = 800 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<3x16x16xf32>):
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
      %issued = sunway.ldm_alloc offset 16 : memref<1xi32, #sunway.ldm>
      %buf = sunway.ldm_alloc offset 32 : memref<3x4x16xf32, #sunway.ldm>
      affine.for %t = %id to 64 step 64 {
        affine.for %oh = 0 to 16 step 4 {
          affine.for %c = 0 to 3 {
            affine.for %h = max #lower(%oh) to min #upper(%oh) {
              affine.for %w = 0 to 16 step 16 {
                %n = affine.min affine_map<(d0) -> (16 - d0, 16)>(%w)
                %positive = arith.cmpi sgt, %n, %c0 : index
                %lh = affine.apply affine_map<(d0, d1) -> (d1 - d0 + 1)>(%oh, %h)
                scf.if %positive {
                  %n0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
                  %n1 = arith.addi %n0, %one : i32
                  memref.store %n1, %issued[%c0] : memref<1xi32, #sunway.ldm>
                  sunway.dma_get pe %gx[%c, %h, %w], %buf[%c, %lh, %w], %n reply %reply[%c0]
                      : memref<3x16x16xf32>, memref<3x4x16xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
                }
              }
            }
          }
          %n2 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
          sunway.wait_reply %reply[%c0], %n2 : memref<1xi32, #sunway.ldm>
        }
      } {dlc.distributed = {trips = 64 : i64, units = 64 : i64}}
    }
    return
  }
}

// -----

// The machine reads no broadcasts (`broadcast_reads = false`, as the
// directive-style baseline of bench/sunway_layers.sh): the shared get of
// @shared stays a PE-mode get on every CPE.
// CHECK-LABEL: func.func @no_broadcast_reads
// CHECK-NOT: bcast
// CHECK-NOT: sunway.barrier
// CHECK: sunway.dma_get pe
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 56832, processing_units = 64, broadcast_reads = false>} {
  func.func @no_broadcast_reads(%x: memref<10x100xf32>) {
    sunway.launch "k0" (%x) : memref<10x100xf32>
        attributes {node = "n", ldm_bytes = 4032 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<10x100xf32>):
      %c0 = arith.constant 0 : index
      %c1000 = arith.constant 1000 : index
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
      %issued = sunway.ldm_alloc offset 16 : memref<1xi32, #sunway.ldm>
      %buf = sunway.ldm_alloc offset 32 : memref<10x100xf32, #sunway.ldm>
      affine.for %t = %id to 128 step 64 {
        %n0 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        %n1 = arith.addi %n0, %one : i32
        memref.store %n1, %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.dma_get pe %gx[%c0, %c0], %buf[%c0, %c0], %c1000 reply %reply[%c0]
            : memref<10x100xf32>, memref<10x100xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
        %n2 = memref.load %issued[%c0] : memref<1xi32, #sunway.ldm>
        sunway.wait_reply %reply[%c0], %n2 : memref<1xi32, #sunway.ldm>
      } {dlc.distributed = {trips = 128 : i64, units = 64 : i64}}
    }
    return
  }
}

// -----

// Double-buffered clipped rows: the first tile's rows before the loop, the
// next tile's as the prefetch, the wait for the current half at the top of
// each step. Both groups of rows go round-robin after a barrier; the wait
// is followed by one.
// CHECK-LABEL: func.func @rows_double_buffered
// CHECK: sunway.barrier array
// CHECK: sunway.dma_get bcast
// CHECK: affine.for %[[OH:.*]] = 0 to 16 step 4 {
// CHECK: sunway.wait_reply
// CHECK-NEXT: sunway.barrier array
// CHECK: affine.if
// CHECK: sunway.barrier array
// CHECK: affine.if #{{.*}}(%{{.*}})[%{{.*}}] {
// CHECK: sunway.dma_get bcast
// CHECK-NOT: sunway.dma_get pe
#lower = affine_map<(d0) -> (0, d0 - 1)>
#upper = affine_map<(d0) -> (d0 + 3, 16)>
#half = affine_map<(d0) -> ((d0 floordiv 4) mod 2)>
module {
  func.func @rows_double_buffered(%x: memref<16x16xf32>) {
    sunway.launch "k0" (%x) : memref<16x16xf32> attributes {node = "n", ldm_bytes = 576 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<16x16xf32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<2xi32, #sunway.ldm>
      %issued = sunway.ldm_alloc offset 16 : memref<2xi32, #sunway.ldm>
      %buf = sunway.ldm_alloc offset 32 : memref<2x4x16xf32, #sunway.ldm>
      affine.for %t = %id to 64 step 64 {
        affine.for %h = max #lower(%c0) to min #upper(%c0) {
          affine.for %w = 0 to 16 step 16 {
            %n = affine.min affine_map<(d0) -> (16 - d0, 16)>(%w)
            %positive = arith.cmpi sgt, %n, %c0 : index
            %lh = affine.apply affine_map<(d0) -> (d0 + 1)>(%h)
            scf.if %positive {
              %n0 = memref.load %issued[%c0] : memref<2xi32, #sunway.ldm>
              %n1 = arith.addi %n0, %one : i32
              memref.store %n1, %issued[%c0] : memref<2xi32, #sunway.ldm>
              sunway.dma_get pe %gx[%h, %w], %buf[%c0, %lh, %w], %n reply %reply[%c0]
                  : memref<16x16xf32>, memref<2x4x16xf32, #sunway.ldm>, memref<2xi32, #sunway.ldm>
            }
          }
        }
        affine.for %oh = 0 to 16 step 4 {
          %cur = affine.apply #half(%oh)
          %m = memref.load %issued[%cur] : memref<2xi32, #sunway.ldm>
          sunway.wait_reply %reply[%cur], %m : memref<2xi32, #sunway.ldm>
          affine.if affine_set<(d0) : (11 - d0 >= 0)>(%oh) {
            %next = affine.apply affine_map<(d0) -> (d0 + 4)>(%oh)
            %nh = affine.apply #half(%next)
            affine.for %h = max #lower(%next) to min #upper(%next) {
              affine.for %w = 0 to 16 step 16 {
                %n = affine.min affine_map<(d0) -> (16 - d0, 16)>(%w)
                %positive = arith.cmpi sgt, %n, %c0 : index
                %lh = affine.apply affine_map<(d0, d1) -> (d1 - d0 + 1)>(%next, %h)
                scf.if %positive {
                  %n0 = memref.load %issued[%nh] : memref<2xi32, #sunway.ldm>
                  %n1 = arith.addi %n0, %one : i32
                  memref.store %n1, %issued[%nh] : memref<2xi32, #sunway.ldm>
                  sunway.dma_get pe %gx[%h, %w], %buf[%nh, %lh, %w], %n reply %reply[%nh]
                      : memref<16x16xf32>, memref<2x4x16xf32, #sunway.ldm>, memref<2xi32, #sunway.ldm>
                }
              }
            }
          }
        }
      } {dlc.distributed = {trips = 64 : i64, units = 64 : i64}}
    }
    return
  }
}
