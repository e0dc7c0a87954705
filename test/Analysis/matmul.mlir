// RUN: dlc-opt --dlc-test-access-analysis=tile-sizes=16,16,16 %s -o /dev/null | FileCheck %s --check-prefix=TILE16
// RUN: dlc-opt --dlc-test-access-analysis=tile-sizes=1,16,0 %s -o /dev/null | FileCheck %s --check-prefix=ROW

// Matmul C[64x48] += A[64x32] * B[32x48]: loops, access relations, whole-nest
// footprints (every element once) and the footprint of one 16x16x16 tile,
// checked by hand: A[i0:16, k0:16], B[k0:16, j0:16], C[i0:16, j0:16] are
// 256 elements (1 KiB of f32) each.
// TILE16-LABEL: nest 0 in @matmul: 3 loops, band depth 3
// TILE16: loop [[I:[a-z0-9_]+]]: depth 0, trip count 64
// TILE16: loop [[J:[a-z0-9_]+]]: depth 1, trip count 48
// TILE16: loop [[K:[a-z0-9_]+]]: depth 2, trip count 32
// TILE16: load [[A:[a-z0-9_]+]]: { [[S:S[0-9]+]][[[I]], [[J]], [[K]]] -> [[A]][([[I]]), ([[K]])] : 0 <= [[I]] <= 63 and 0 <= [[J]] <= 47 and 0 <= [[K]] <= 31 }
// TILE16: load [[B:[a-z0-9_]+]]: { [[S]][[[I]], [[J]], [[K]]] -> [[B]][([[K]]), ([[J]])] :
// TILE16: load [[C:[a-z0-9_]+]]: { [[S]][[[I]], [[J]], [[K]]] -> [[C]][([[I]]), ([[J]])] :
// The accumulator store revisits C[i, j] for every k.
// TILE16: store [[C]]: { [[S]][[[I]], [[J]], [[K]]] -> [[C]][([[I]]), ([[J]])] : {{.*}} } not injective
// TILE16: footprint [[A]]: 2048 elements, 8192 bytes, box 64x32 (2048 elements, 8192 bytes)
// TILE16: footprint [[B]]: 1536 elements, 6144 bytes, box 32x48 (1536 elements, 6144 bytes)
// TILE16: footprint [[C]]: 3072 elements, 12288 bytes, box 64x48 (3072 elements, 12288 bytes)
// TILE16: tile 16x16x16 footprint [[A]]: 256 elements, 1024 bytes, box 16x16 (256 elements, 1024 bytes)
// TILE16: tile 16x16x16 footprint [[B]]: 256 elements, 1024 bytes, box 16x16 (256 elements, 1024 bytes)
// TILE16: tile 16x16x16 footprint [[C]]: 256 elements, 1024 bytes, box 16x16 (256 elements, 1024 bytes)
// TILE16: pure copy: no

// One row of A against a 16-column panel of B over the whole k range: A is
// 1x32, B 32x16, C 1x16.
// ROW-LABEL: nest 0 in @matmul
// ROW: tile 1x16x0 footprint {{.*}}: 32 elements, 128 bytes, box 1x32 (32 elements, 128 bytes)
// ROW: tile 1x16x0 footprint {{.*}}: 512 elements, 2048 bytes, box 32x16 (512 elements, 2048 bytes)
// ROW: tile 1x16x0 footprint {{.*}}: 16 elements, 64 bytes, box 1x16 (16 elements, 64 bytes)
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<64x32xf32>
        %y = affine.load %b[%k, %j] : memref<32x48xf32>
        %z = affine.load %c[%i, %j] : memref<64x48xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<64x48xf32>
      }
    }
  }
  return
}
