// RUN: dlc-opt --split-input-file --dlc-sunway-assign-ldm --canonicalize --cse --verify-diagnostics %s | FileCheck %s

// Local buffers get LDM offsets (16-byte aligned, first fit, reused after
// their deallocation); a two-word tag becomes two reply words and two
// transfer counts, set to zero; a DMA counts itself on its tag and becomes
// athread's get or put; a wait waits for every transfer counted so far.
// CHECK-LABEL: func.func @kernel
// CHECK: sunway.launch "k0"({{.*}}) : memref<64x64xf32>, memref<64x16xf32> attributes {ldm_bytes = 2080 : i64, node = "n"} {
// CHECK: %[[REPLY:.*]] = sunway.ldm_alloc offset 0 : memref<2xi32, #sunway.ldm>
// CHECK: %[[ISSUED:.*]] = sunway.ldm_alloc offset 16 : memref<2xi32, #sunway.ldm>
// CHECK: memref.store %{{.*}}, %[[REPLY]][%{{.*}}] : memref<2xi32, #sunway.ldm>
// CHECK: memref.store %{{.*}}, %[[ISSUED]][%{{.*}}] : memref<2xi32, #sunway.ldm>
// CHECK: %[[TILE:.*]] = sunway.ldm_alloc offset 32 : memref<2x16x16xf32, #sunway.ldm>
// CHECK: affine.for %[[K:.*]] = 0 to 64 step 16 {
// CHECK: %[[T:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK: %[[N:.*]] = memref.load %[[ISSUED]][%[[T]]]
// CHECK: %[[N1:.*]] = arith.addi %[[N]], %{{.*}} : i32
// CHECK: memref.store %[[N1]], %[[ISSUED]][%[[T]]]
// CHECK: sunway.dma_get pe %{{.*}}[%{{.*}}, %[[K]]], %[[TILE]][%[[T]], %{{.*}}, %{{.*}}], %{{.*}} block %{{.*}} stride %{{.*}} reply %[[REPLY]][%[[T]]] : memref<64x64xf32>, memref<2x16x16xf32, #sunway.ldm>, memref<2xi32, #sunway.ldm>
// CHECK: %[[COUNT:.*]] = memref.load %[[ISSUED]][%[[T]]]
// CHECK: sunway.wait_reply %[[REPLY]][%[[T]]], %[[COUNT]] : memref<2xi32, #sunway.ldm>
// CHECK: sunway.dma_put pe %[[TILE]]
// After the tile is freed, its bytes are reused.
// CHECK: sunway.ldm_alloc offset 32 : memref<16xf32, #sunway.ldm>
// CHECK-NOT: memref.dealloc
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @kernel(%a: memref<64x64xf32>, %out: memref<64x16xf32>) {
    sunway.launch "k0" (%a, %out) : memref<64x64xf32>, memref<64x16xf32>
        attributes {node = "n", ldm_bytes = 0 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %ga: memref<64x64xf32>, %go: memref<64x16xf32>):
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %tags = memref.alloc() : memref<2xi32>
      %tile = memref.alloc() : memref<2x16x16xf32, 1>
      affine.for %k = 0 to 64 step 16 {
        affine.dma_start %ga[0, %k], %tile[(%k floordiv 16) mod 2, 0, 0], %tags[(%k floordiv 16) mod 2], %c256, %c64, %c16
            : memref<64x64xf32>, memref<2x16x16xf32, 1>, memref<2xi32>
        affine.dma_wait %tags[(%k floordiv 16) mod 2], %c256 : memref<2xi32>
        affine.dma_start %tile[(%k floordiv 16) mod 2, 0, 0], %go[0, 0], %tags[(%k floordiv 16) mod 2], %c256
            : memref<2x16x16xf32, 1>, memref<64x16xf32>, memref<2xi32>
        affine.dma_wait %tags[(%k floordiv 16) mod 2], %c256 : memref<2xi32>
      }
      memref.dealloc %tile : memref<2x16x16xf32, 1>
      %small = memref.alloc() : memref<16xf32, 1>
      memref.dealloc %small : memref<16xf32, 1>
      memref.dealloc %tags : memref<2xi32>
    }
    return
  }
}

// -----

// A kernel whose buffers exceed the LDM left to them is an error naming
// the node, its bytes and the budget.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @too_big() {
    // expected-error @+1 {{the buffers of 'conv9' need 60000 bytes of LDM per CPE, more than the 57344 bytes left to buffers (ldm_bytes 65536 minus stack_reserve_bytes 8192)}}
    sunway.launch "k0" () attributes {node = "conv9", ldm_bytes = 0 : i64} {
    ^bb0(%id: index, %row: index, %col: index):
      %big = memref.alloc() : memref<15000xf32, 1>
      memref.dealloc %big : memref<15000xf32, 1>
    }
    return
  }
}

// -----

// A transfer between two local buffers has no main-memory side.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @local_to_local() {
    sunway.launch "k0" () attributes {node = "n", ldm_bytes = 0 : i64} {
    ^bb0(%id: index, %row: index, %col: index):
      %c4 = arith.constant 4 : index
      %tag = memref.alloc() : memref<1xi32>
      %x = memref.alloc() : memref<4xf32, 1>
      %y = memref.alloc() : memref<4xf32, 1>
      // expected-error @+1 {{a transfer must move data between a global and a local buffer; this one has two local side}}
      affine.dma_start %x[0], %y[0], %tag[0], %c4 : memref<4xf32, 1>, memref<4xf32, 1>, memref<1xi32>
      memref.dealloc %y : memref<4xf32, 1>
      memref.dealloc %x : memref<4xf32, 1>
      memref.dealloc %tag : memref<1xi32>
    }
    return
  }
}
