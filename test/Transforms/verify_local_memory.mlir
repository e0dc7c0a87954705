// RUN: dlc-opt --split-input-file --dlc-verify-local-memory="print=true" %s -o /dev/null | FileCheck %s
// RUN: dlc-opt --split-input-file --dlc-verify-local-memory %s | FileCheck %s --check-prefix=IR

// A tiled matmul staging one tile of each operand: three 4 KiB buffers
// allocated before the nest fit in 16 KiB. The DMA tag is in the default
// space and does not count. The IR is left unchanged.
// CHECK-LABEL: mm: peak local bytes 12288 of 16384
// IR-LABEL: func.func @tiled_matmul
// IR: affine.dma_start
// IR: memref.dealloc
#id = affine_map<(d0) -> (d0)>
#plus32 = affine_map<(d0) -> (d0 + 32)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384>} {
  func.func @tiled_matmul(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %a = memref.alloc() : memref<32x32xf32, 1> loc("mm")
    %b = memref.alloc() : memref<32x32xf32, 1> loc("mm")
    %c = memref.alloc() : memref<32x32xf32, 1> loc("mm")
    %tag = memref.alloc() : memref<1xi32>
    affine.for %ii = 0 to 64 step 32 {
      affine.for %jj = 0 to 64 step 32 {
        affine.dma_start %C[%ii, %jj], %c[0, 0], %tag[0], %c1024, %c64, %c32 : memref<64x64xf32>, memref<32x32xf32, 1>, memref<1xi32>
        affine.dma_wait %tag[0], %c1024 : memref<1xi32>
        affine.for %kk = 0 to 64 step 32 {
          affine.dma_start %A[%ii, %kk], %a[0, 0], %tag[0], %c1024, %c64, %c32 : memref<64x64xf32>, memref<32x32xf32, 1>, memref<1xi32>
          affine.dma_wait %tag[0], %c1024 : memref<1xi32>
          affine.dma_start %B[%kk, %jj], %b[0, 0], %tag[0], %c1024, %c64, %c32 : memref<64x64xf32>, memref<32x32xf32, 1>, memref<1xi32>
          affine.dma_wait %tag[0], %c1024 : memref<1xi32>
          affine.for %i = #id(%ii) to #plus32(%ii) {
            affine.for %j = #id(%jj) to #plus32(%jj) {
              affine.for %k = #id(%kk) to #plus32(%kk) {
                %x = affine.load %a[%i - %ii, %k - %kk] : memref<32x32xf32, 1>
                %y = affine.load %b[%k - %kk, %j - %jj] : memref<32x32xf32, 1>
                %z = affine.load %c[%i - %ii, %j - %jj] : memref<32x32xf32, 1>
                %p = arith.mulf %x, %y : f32
                %s = arith.addf %z, %p : f32
                affine.store %s, %c[%i - %ii, %j - %jj] : memref<32x32xf32, 1>
              }
            }
          }
        }
        affine.dma_start %c[0, 0], %C[%ii, %jj], %tag[0], %c1024, %c64, %c32 : memref<32x32xf32, 1>, memref<64x64xf32>, memref<1xi32>
        affine.dma_wait %tag[0], %c1024 : memref<1xi32>
      }
    } loc("mm")
    memref.dealloc %a : memref<32x32xf32, 1>
    memref.dealloc %b : memref<32x32xf32, 1>
    memref.dealloc %c : memref<32x32xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// Two nests in a row: the first nest's buffers are freed before the second
// allocates its own, so each peaks at its own buffers. A double-buffered
// buffer counts its leading dimension of 2.
// CHECK-LABEL: relu: peak local bytes 8192 of 16384
// CHECK-NEXT: add: peak local bytes 12288 of 16384
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384>} {
  func.func @sequence(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %in = memref.alloc() : memref<2x1024xf32, 1>
    affine.for %i = 0 to 1024 {
      %v = affine.load %in[0, %i] : memref<2x1024xf32, 1>
      affine.store %v, %in[1, %i] : memref<2x1024xf32, 1>
    } loc("relu")
    memref.dealloc %in : memref<2x1024xf32, 1>
    %a = memref.alloc() : memref<1024xf32, 1>
    %b = memref.alloc() : memref<1024xf32, 1>
    %out = memref.alloc() : memref<1024xf32, 1>
    affine.for %i = 0 to 1024 {
      %u = affine.load %a[%i] : memref<1024xf32, 1>
      %v = affine.load %b[%i] : memref<1024xf32, 1>
      %s = arith.addf %u, %v : f32
      affine.store %s, %out[%i] : memref<1024xf32, 1>
    } loc("add")
    memref.dealloc %a : memref<1024xf32, 1>
    memref.dealloc %b : memref<1024xf32, 1>
    memref.dealloc %out : memref<1024xf32, 1>
    return
  }
}

// -----

// A buffer allocated and freed in a loop body has one live instance at a
// time: 1 KiB on top of the 8 KiB allocated before the nest, whatever the
// trip count. An alloca in a loop body ends with the iteration.
// CHECK-LABEL: conv: peak local bytes 10240 of 16384
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384>} {
  func.func @per_iteration() {
    %w = memref.alloc() : memref<2048xf32, 1>
    affine.for %t = 0 to 100 {
      %tile = memref.alloc() : memref<256xf32, 1>
      %scratch = memref.alloca() : memref<256xf32, 1>
      affine.for %i = 0 to 256 {
        %v = affine.load %w[%i] : memref<2048xf32, 1>
        affine.store %v, %tile[%i] : memref<256xf32, 1>
        affine.store %v, %scratch[%i] : memref<256xf32, 1>
      }
      memref.dealloc %tile : memref<256xf32, 1>
    } loc("conv")
    memref.dealloc %w : memref<2048xf32, 1>
    return
  }
}

// -----

// A buffer allocated in a loop body and never freed there has one live
// instance per iteration run: 4 x 1 KiB after the loop. The next nest runs
// with them still live (they are never freed).
// CHECK-LABEL: leak: peak local bytes 4096 of 16384
// CHECK-NEXT: after_leak: peak local bytes 8192 of 16384
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384>} {
  func.func @leak() {
    affine.for %t = 0 to 4 {
      %tile = memref.alloc() : memref<256xf32, 1>
      affine.for %i = 0 to 256 {
        %v = affine.load %tile[%i] : memref<256xf32, 1>
        affine.store %v, %tile[%i] : memref<256xf32, 1>
      }
    } loc("leak")
    %more = memref.alloc() : memref<1024xf32, 1>
    affine.for %i = 0 to 1024 {
      %v = affine.load %more[%i] : memref<1024xf32, 1>
      affine.store %v, %more[%i] : memref<1024xf32, 1>
    } loc("after_leak")
    memref.dealloc %more : memref<1024xf32, 1>
    return
  }
}

// -----

// Views of a live buffer are uses of it; buffers in another memory space
// (global, 8 KiB here) are not local memory. A nest without a name gets its
// file location.
// CHECK: verify_local_memory.mlir:{{[0-9]+}}:{{[0-9]+}}: peak local bytes 4096 of 4096
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096, local_memory_space = 3>} {
  func.func @views() {
    %global = memref.alloc() : memref<2048xf32>
    %local = memref.alloc() : memref<32x32xf32, 3>
    %row = memref.subview %local[4, 0] [1, 32] [1, 1] : memref<32x32xf32, 3> to memref<32xf32, strided<[1], offset: 128>, 3>
    affine.for %i = 0 to 32 {
      %v = affine.load %row[%i] : memref<32xf32, strided<[1], offset: 128>, 3>
      affine.store %v, %global[%i] : memref<2048xf32>
    }
    memref.dealloc %local : memref<32x32xf32, 3>
    memref.dealloc %global : memref<2048xf32>
    return
  }
}

// -----

// Without local memory (no description, or local_memory_bytes = 0) the pass
// does nothing and prints nothing: even an over-sized buffer in space 1 is
// accepted.
// CHECK-NOT: peak local bytes
module {
  func.func @no_description() {
    %big = memref.alloc() : memref<1048576xf32, 1>
    affine.for %i = 0 to 4 {
      %v = affine.load %big[%i] : memref<1048576xf32, 1>
    } loc("unchecked")
    memref.dealloc %big : memref<1048576xf32, 1>
    return
  }
}

// -----

// CHECK-NOT: peak local bytes
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 0>} {
  func.func @no_local_memory() {
    %big = memref.alloc() : memref<1048576xf32, 1>
    affine.for %i = 0 to 4 {
      %v = affine.load %big[%i] : memref<1048576xf32, 1>
    } loc("unchecked")
    memref.dealloc %big : memref<1048576xf32, 1>
    return
  }
}
