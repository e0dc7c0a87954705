// RUN: dlc-opt --dlc-host-lower-local-memory --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | mlir-runner -e strided_round_trip --entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=EXEC

// Runs a strided transfer in and a contiguous one out: the global rows 1..2
// get columns 2..3 of the input's rows 1..2 at
// columns 3..4, the rest stays zero.
// EXEC: {{\[\[}}0,   0,   0,   0,   0,   0,   0,   0],
// EXEC-NEXT: [0,   0,   0,   11,   12,   0,   0,   0],
// EXEC-NEXT: [0,   0,   0,   19,   20,   0,   0,   0],
// EXEC-NEXT: [0,   0,   0,   0,   0,   0,   0,   0]]
module @round_trip attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 1024>} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @strided_round_trip() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %in = memref.alloc() : memref<4x8xf32>
    %out = memref.alloc() : memref<4x8xf32>
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 {
        %k = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 + 1)>(%i, %j)
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        affine.store %kf, %in[%i, %j] : memref<4x8xf32>
        affine.store %zero, %out[%i, %j] : memref<4x8xf32>
      }
    }
    %local = memref.alloc() : memref<2x2xf32, 1>
    %tag = memref.alloc() : memref<1xi32>
    affine.dma_start %in[1, 2], %local[0, 0], %tag[0], %c4, %c8, %c2 : memref<4x8xf32>, memref<2x2xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %c4 : memref<1xi32>
    affine.dma_start %local[0, 0], %out[1, 3], %tag[0], %c4, %c8, %c2 : memref<2x2xf32, 1>, memref<4x8xf32>, memref<1xi32>
    affine.dma_wait %tag[0], %c4 : memref<1xi32>
    %cast = memref.cast %out : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    return
  }
}
