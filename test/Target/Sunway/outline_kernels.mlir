// RUN: dlc-opt --split-input-file --dlc-sunway-outline-kernels --verify-diagnostics %s | FileCheck %s

// A staged nest whose outermost tile loop is parallel: one kernel with the
// buffers it uses as operands, the tile loop spread over the 64 CPEs (CPE
// id runs tiles id, id + 64, ...), constants cloned in.
// CHECK-LABEL: func.func @spread
// CHECK-SAME: (%[[A:.*]]: memref<2048x4xf32>, %[[OUT:.*]]: memref<2048x4xf32>)
// CHECK: sunway.launch "k0"(%[[A]], %[[OUT]]) : memref<2048x4xf32>, memref<2048x4xf32> attributes {ldm_bytes = 0 : i64, node = "copy", sunway.placement = "CPEs: the outermost tile loop (128 iterations) spread over the 64 CPEs"} {
// CHECK: ^bb0(%[[ID:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[KA:.*]]: memref<2048x4xf32>, %[[KOUT:.*]]: memref<2048x4xf32>):
// CHECK: arith.constant 64 : index
// CHECK: %[[TAG:.*]] = memref.alloc() : memref<1xi32>
// CHECK: affine.for %[[I:.*]] = #[[LB:.*]]()[%[[ID]]] to 2048 step 1024 {
// CHECK: affine.dma_start %[[KA]][%[[I]], 0]
// CHECK: affine.dma_start %{{.*}}, %[[KOUT]][%[[I]], 0]
// CHECK: } {dlc.distributed = {trips = 128 : i64, units = 64 : i64}, dlc.parallel, dlc.tile_loop, dlc.tiling = {}}
// CHECK: return
#lb = affine_map<(d0) -> (d0)>
#ub = affine_map<(d0) -> (d0 + 16)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @spread(%a: memref<2048x4xf32>, %out: memref<2048x4xf32>) {
    %c64 = arith.constant 64 : index
    %tag = memref.alloc() : memref<1xi32>
    %la = memref.alloc() : memref<16x4xf32, 1>
    %lo = memref.alloc() : memref<16x4xf32, 1>
    affine.for %i0 = 0 to 2048 step 16 {
      affine.dma_start %a[%i0, 0], %la[0, 0], %tag[0], %c64 : memref<2048x4xf32>, memref<16x4xf32, 1>, memref<1xi32>
      affine.dma_wait %tag[0], %c64 : memref<1xi32>
      affine.for %i = #lb(%i0) to #ub(%i0) {
        affine.for %j = 0 to 4 {
          %v = affine.load %la[%i - %i0, %j] : memref<16x4xf32, 1>
          affine.store %v, %lo[%i - %i0, %j] : memref<16x4xf32, 1>
        }
      }
      affine.dma_start %lo[0, 0], %out[%i0, 0], %tag[0], %c64 : memref<16x4xf32, 1>, memref<2048x4xf32>, memref<1xi32>
      affine.dma_wait %tag[0], %c64 : memref<1xi32>
    } {dlc.parallel, dlc.tile_loop, dlc.tiling = {}} loc("copy")
    memref.dealloc %lo : memref<16x4xf32, 1>
    memref.dealloc %la : memref<16x4xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// A nest that fits whole has no tile loop to spread: CPE 0 runs it. A nest
// that stages nothing stays on the MPE. Main-memory allocations inside the
// staged stretch move out of the kernel.
// CHECK-LABEL: func.func @whole
// CHECK: %[[G:.*]] = memref.alloc() : memref<8xf32>
// CHECK: sunway.launch "k0"(%{{.*}}, %[[G]])
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %[[ZERO]] : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: affine.dma_start
// CHECK: affine.for
// CHECK: memref.dealloc %[[G]] : memref<8xf32>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @whole(%a: memref<8xf32>, %out: memref<8xf32>) {
    %c8 = arith.constant 8 : index
    %tag = memref.alloc() : memref<1xi32>
    %g = memref.alloc() : memref<8xf32>
    %la = memref.alloc() : memref<8xf32, 1>
    affine.dma_start %a[0], %la[0], %tag[0], %c8 : memref<8xf32>, memref<8xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %c8 : memref<1xi32>
    // expected-remark @+1 {{runs on CPE 0 alone: its nest has no tile loop to spread}}
    affine.for %i = 0 to 8 {
      %v = affine.load %la[%i] : memref<8xf32, 1>
      affine.store %v, %g[%i] : memref<8xf32>
    } {dlc.tiling = {}}
    memref.dealloc %la : memref<8xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    // expected-remark @+1 {{runs on the MPE: the nest stages nothing in LDM}}
    affine.for %i = 0 to 8 {
      %v = affine.load %g[%i] : memref<8xf32>
      affine.store %v, %out[%i] : memref<8xf32>
    }
    memref.dealloc %g : memref<8xf32>
    return
  }
}

// -----

// An outermost tile loop that carries a dependence (a reduction tile) is
// not spread; the launch says why.
// CHECK-LABEL: func.func @reduction
// CHECK: sunway.placement = "CPE 0 alone: its outermost tile loop carries a dependence"
// CHECK: scf.if
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @reduction(%a: memref<64xf32>, %out: memref<1xf32>) {
    %c16 = arith.constant 16 : index
    %tag = memref.alloc() : memref<1xi32>
    %la = memref.alloc() : memref<16xf32, 1>
    // expected-remark @+1 {{runs on CPE 0 alone: its outermost tile loop carries a dependence}}
    affine.for %k0 = 0 to 64 step 16 {
      affine.dma_start %a[%k0], %la[0], %tag[0], %c16 : memref<64xf32>, memref<16xf32, 1>, memref<1xi32>
      affine.dma_wait %tag[0], %c16 : memref<1xi32>
      affine.for %k = 0 to 16 {
        %v = affine.load %la[%k] : memref<16xf32, 1>
        %s = affine.load %out[0] : memref<1xf32>
        %t = arith.addf %s, %v : f32
        affine.store %t, %out[0] : memref<1xf32>
      }
    } {dlc.tile_loop, dlc.tiling = {}}
    memref.dealloc %la : memref<16xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// A local buffer that is never freed: kernels cannot be delimited.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  // expected-error @+1 {{a local buffer or DMA tag is never deallocated: kernels cannot be delimited}}
  func.func @leak() {
    %la = memref.alloc() : memref<16xf32, 1>
    return
  }
}
