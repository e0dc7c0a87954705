// RUN: dlc-opt %s --split-input-file --verify-diagnostics

// An LDM buffer past what the CPE stack leaves (65536 - 8192 bytes).
func.func @past_budget() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 57344 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    // expected-error @+1 {{ends at LDM byte 65536, beyond the 57344 bytes left to buffers (ldm_bytes 65536 minus stack_reserve_bytes 8192)}}
    %t = sunway.ldm_alloc offset 0 : memref<16384xf32, #sunway.ldm>
  }
  return
}

// -----

// A misaligned LDM buffer: aligned floatv4 loads need 16 bytes.
func.func @misaligned() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 1024 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    // expected-error @+1 {{offset 8 must be a non-negative multiple of 16 (simd_align_bytes)}}
    %t = sunway.ldm_alloc offset 8 : memref<4xf32, #sunway.ldm>
  }
  return
}

// -----

// A buffer beyond the kernel's own LDM figure.
func.func @beyond_kernel() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 16 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    // expected-error @+1 {{ends at LDM byte 64, beyond the kernel's ldm_bytes (16)}}
    %t = sunway.ldm_alloc offset 0 : memref<16xf32, #sunway.ldm>
  }
  return
}

// -----

// An LDM buffer must be in #sunway.ldm.
func.func @main_memory() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 64 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    // expected-error @+1 {{result must be in #sunway.ldm, got 'memref<16xf32>'}}
    %t = sunway.ldm_alloc offset 0 : memref<16xf32>
  }
  return
}

// -----

// The kernel's LDM use is checked against the budget too.
func.func @kernel_budget() {
  // expected-error @+1 {{uses 60000 bytes of LDM per CPE, more than the 57344 bytes left to buffers}}
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 60000 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
  }
  return
}

// -----

// The region must have the ids and one argument per buffer.
func.func @arguments(%a: memref<4xf32>) {
  // expected-error @+1 {{expects 4 block arguments (id, row, column, then one per buffer), got 3}}
  sunway.launch "k0" (%a) : memref<4xf32> attributes {node = "n", ldm_bytes = 0 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
  }
  return
}

// -----

// Blocks longer than the transfer.
func.func @block_too_long(%a: memref<64xf32>) {
  sunway.launch "k0" (%a) : memref<64xf32> attributes {node = "n", ldm_bytes = 512 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %g: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %r = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
    %t = sunway.ldm_alloc offset 16 : memref<16xf32, #sunway.ldm>
    // expected-error @+1 {{block of 32 elements must be positive and at most the length}}
    sunway.dma_get pe %g[%c0], %t[%c0], %c16 block %c32 stride %c32 reply %r[%c0]
        : memref<64xf32>, memref<16xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
  }
  return
}

// -----

// Overlapping blocks: the stride is shorter than the block.
func.func @overlap(%a: memref<64xf32>) {
  sunway.launch "k0" (%a) : memref<64xf32> attributes {node = "n", ldm_bytes = 512 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %g: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %r = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
    %t = sunway.ldm_alloc offset 16 : memref<16xf32, #sunway.ldm>
    // expected-error @+1 {{stride of 4 elements is shorter than the block of 8: blocks would overlap}}
    sunway.dma_get pe %g[%c0], %t[%c0], %c16 block %c8 stride %c4 reply %r[%c0]
        : memref<64xf32>, memref<16xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
  }
  return
}

// -----

// A length that is not a whole number of blocks.
func.func @partial_block(%a: memref<64xf32>) {
  sunway.launch "k0" (%a) : memref<64xf32> attributes {node = "n", ldm_bytes = 512 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %g: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %r = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
    %t = sunway.ldm_alloc offset 16 : memref<16xf32, #sunway.ldm>
    // expected-error @+1 {{length of 16 elements is not a whole number of blocks of 6}}
    sunway.dma_get pe %g[%c0], %t[%c0], %c16 block %c6 stride %c32 reply %r[%c0]
        : memref<64xf32>, memref<16xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
  }
  return
}

// -----

// A get into main memory.
func.func @get_to_main(%a: memref<64xf32>, %b: memref<16xf32>) {
  sunway.launch "k0" (%a, %b) : memref<64xf32>, memref<16xf32> attributes {node = "n", ldm_bytes = 16 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %g: memref<64xf32>, %h: memref<16xf32>):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %r = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
    // expected-error @+1 {{LDM side must be in #sunway.ldm, got 'memref<16xf32>'}}
    sunway.dma_get pe %g[%c0], %h[%c0], %c16 reply %r[%c0]
        : memref<64xf32>, memref<16xf32>, memref<1xi32, #sunway.ldm>
  }
  return
}

// -----

// The reply word lives in LDM.
func.func @reply_in_main(%a: memref<64xf32>, %r: memref<1xi32>) {
  sunway.launch "k0" (%a, %r) : memref<64xf32>, memref<1xi32> attributes {node = "n", ldm_bytes = 64 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %g: memref<64xf32>, %rr: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %t = sunway.ldm_alloc offset 0 : memref<16xf32, #sunway.ldm>
    // expected-error @+1 {{reply must be a memref<Nxi32, #sunway.ldm>, got 'memref<1xi32>'}}
    sunway.dma_get pe %g[%c0], %t[%c0], %c16 reply %rr[%c0]
        : memref<64xf32>, memref<16xf32, #sunway.ldm>, memref<1xi32>
  }
  return
}

// -----

// Barriers synchronise CPEs: only inside a kernel.
func.func @barrier_on_mpe() {
  // expected-error @+1 {{'sunway.barrier' op must be inside a sunway.launch: barriers synchronise CPEs}}
  sunway.barrier array
  return
}

// -----

// The DMA engine moves whole 4-byte words (dma_alignment_bytes).
func.func @odd_bytes(%a: memref<64xi8>) {
  sunway.launch "k0" (%a) : memref<64xi8> attributes {node = "n", ldm_bytes = 32 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %g: memref<64xi8>):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %r = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
    %t = sunway.ldm_alloc offset 16 : memref<16xi8, #sunway.ldm>
    // expected-error @+1 {{length of 3 x 1 bytes is not a multiple of the 4-byte DMA granularity (dma_alignment_bytes)}}
    sunway.dma_get pe %g[%c0], %t[%c0], %c3 reply %r[%c0]
        : memref<64xi8>, memref<16xi8, #sunway.ldm>, memref<1xi32, #sunway.ldm>
  }
  return
}

// -----

// simd_loade reads the CPE's LDM, not main memory.
func.func @load_splat_main(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{memref must be in #sunway.ldm (simd_loade reads the CPE's LDM)}}
  %v = sunway.load_splat %m[%c0] : memref<8xf32> -> vector<4xf32>
  return
}

// -----

// A floatv4 lane is an f32.
func.func @load_splat_int() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 64 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    %c0 = arith.constant 0 : index
    %t = sunway.ldm_alloc offset 0 : memref<8xi32, #sunway.ldm>
    // expected-error @+1 {{memref must hold f32 (a floatv4 lane)}}
    %v = sunway.load_splat %t[%c0] : memref<8xi32, #sunway.ldm> -> vector<4xf32>
  }
  return
}

// -----

// One index per dimension.
func.func @load_splat_rank() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 64 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    %c0 = arith.constant 0 : index
    %t = sunway.ldm_alloc offset 0 : memref<2x8xf32, #sunway.ldm>
    // expected-error @+1 {{expects 2 indices, got 1}}
    %v = sunway.load_splat %t[%c0] : memref<2x8xf32, #sunway.ldm> -> vector<4xf32>
  }
  return
}
