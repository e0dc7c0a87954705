// RUN: dlc-opt %s --split-input-file | dlc-opt --split-input-file | FileCheck %s

// A kernel: LDM buffers, a strided get, a put, waits and a barrier round-trip.
// CHECK-LABEL: func.func @kernel
// CHECK: sunway.launch "k0"(%[[A:.*]], %[[B:.*]]) : memref<64x256xf32>, memref<1024xf32> attributes {ldm_bytes = 4160 : i64, node = "mm"} {
// CHECK: ^bb0(%[[ID:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[GA:.*]]: memref<64x256xf32>, %[[GB:.*]]: memref<1024xf32>):
// CHECK: %[[R:.*]] = sunway.ldm_alloc offset 0 : memref<2xi32, #sunway.ldm>
// CHECK: %[[T:.*]] = sunway.ldm_alloc offset 64 : memref<16x64xf32, #sunway.ldm>
// CHECK: sunway.dma_get pe %[[GA]][%[[ID]], %{{.*}}], %[[T]][%{{.*}}, %{{.*}}], %{{.*}} block %{{.*}} stride %{{.*}} reply %[[R]][%{{.*}}] : memref<64x256xf32>, memref<16x64xf32, #sunway.ldm>, memref<2xi32, #sunway.ldm>
// CHECK: sunway.wait_reply %[[R]][%{{.*}}], %{{.*}} : memref<2xi32, #sunway.ldm>
// CHECK: sunway.dma_put pe %[[T]][%{{.*}}, %{{.*}}], %[[GB]][%{{.*}}], %{{.*}} reply %[[R]][%{{.*}}]
// CHECK: sunway.barrier array
func.func @kernel(%A: memref<64x256xf32>, %B: memref<1024xf32>) {
  sunway.launch "k0" (%A, %B) : memref<64x256xf32>, memref<1024xf32>
      attributes {node = "mm", ldm_bytes = 4160 : i64} {
  ^bb0(%id: index, %row: index, %col: index, %a: memref<64x256xf32>, %b: memref<1024xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %one = arith.constant 1 : i32
    %reply = sunway.ldm_alloc offset 0 : memref<2xi32, #sunway.ldm>
    %tile = sunway.ldm_alloc offset 64 : memref<16x64xf32, #sunway.ldm>
    sunway.dma_get pe %a[%id, %c0], %tile[%c0, %c0], %c1024 block %c64 stride %c256
        reply %reply[%c0] : memref<64x256xf32>, memref<16x64xf32, #sunway.ldm>, memref<2xi32, #sunway.ldm>
    sunway.wait_reply %reply[%c0], %one : memref<2xi32, #sunway.ldm>
    sunway.dma_put pe %tile[%c0, %c0], %b[%c0], %c1024 reply %reply[%c0]
        : memref<16x64xf32, #sunway.ldm>, memref<1024xf32>, memref<2xi32, #sunway.ldm>
    sunway.barrier array
  }
  return
}

// -----

// Row and column barriers.
// CHECK-LABEL: func.func @barriers
// CHECK: sunway.barrier row
// CHECK: sunway.barrier col
func.func @barriers() {
  sunway.launch "k1" () attributes {node = "", ldm_bytes = 0 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    sunway.barrier row
    sunway.barrier col
  }
  return
}

// -----

// simd_loade: one LDM float into the four lanes.
// CHECK-LABEL: func.func @load_splat
// CHECK: sunway.load_splat %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x8xf32, #sunway.ldm> -> vector<4xf32>
func.func @load_splat() {
  sunway.launch "k0" () attributes {node = "n", ldm_bytes = 128 : i64} {
  ^bb0(%id: index, %row: index, %col: index):
    %c1 = arith.constant 1 : index
    %t = sunway.ldm_alloc offset 0 : memref<4x8xf32, #sunway.ldm>
    %v = sunway.load_splat %t[%c1, %c1] : memref<4x8xf32, #sunway.ldm> -> vector<4xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @select_negative
// CHECK: sunway.select_negative %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
func.func @select_negative(%m: vector<4xf32>, %a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %r = sunway.select_negative %m, %a, %b : vector<4xf32>
  return %r : vector<4xf32>
}
