// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-tile-for-local-memory %s

// Even one iteration of every loop needs a value of each buffer: 3 x 4
// bytes, one of them twice (double-buffered), do not fit in 8 bytes.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 8>} {
  func.func @too_small(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
    // expected-error @below {{for local memory: even the smallest tile (1 iteration of each of the 1 tiled loops) needs 20 bytes of local memory, more than its capacity of 8 bytes: memref<16xf32> box 1 (8 bytes) memref<16xf32> box 1 (8 bytes) memref<16xf32> box 1 (4 bytes)}}
    affine.for %i = 0 to 16 {
      %x = affine.load %a[%i] : memref<16xf32>
      %y = affine.load %b[%i] : memref<16xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %c[%i] : memref<16xf32>
    }
    return
  }
}
