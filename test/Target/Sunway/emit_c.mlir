// RUN: dlc-translate --sunway-to-slave-c %s | FileCheck %s --check-prefix=SLAVE
// RUN: dlc-translate --sunway-to-host-c %s | FileCheck %s --check-prefix=HOST
// RUN: dlc-translate --sunway-to-header %s | FileCheck %s --check-prefix=HEADER

// A kernel that copies x into y through LDM, 16 elements per CPE.
module attributes {dlc.entry = {arg_attrs = [{dlc.name = "x"}], function = "main", res_attrs = [{dlc.name = "y"}], type = (tensor<1024xf32>) -> tensor<1024xf32>}, dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  memref.global "private" constant @scale : memref<4xf32> = dense<2.0>
  func.func @main(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %s = memref.get_global @scale : memref<4xf32>
    sunway.launch "k0" (%x, %y, %s) : memref<1024xf32>, memref<1024xf32>, memref<4xf32>
        attributes {node = "copy", ldm_bytes = 96 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<1024xf32>, %gy: memref<1024xf32>, %gs: memref<4xf32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %reply = sunway.ldm_alloc offset 0 : memref<1xi32, #sunway.ldm>
      %tile = sunway.ldm_alloc offset 32 : memref<16xf32, #sunway.ldm>
      memref.store %zero, %reply[%c0] : memref<1xi32, #sunway.ldm>
      %base = arith.muli %id, %c16 : index
      sunway.dma_get pe %gx[%base], %tile[%c0], %c16 block %c4 stride %c64 reply %reply[%c0]
          : memref<1024xf32>, memref<16xf32, #sunway.ldm>, memref<1xi32, #sunway.ldm>
      sunway.wait_reply %reply[%c0], %one : memref<1xi32, #sunway.ldm>
      %v = memref.load %tile[%c4] : memref<16xf32, #sunway.ldm>
      %k = memref.load %gs[%c0] : memref<4xf32>
      %w = arith.mulf %v, %k : f32
      memref.store %w, %tile[%c4] : memref<16xf32, #sunway.ldm>
      sunway.dma_put pe %tile[%c0], %gy[%base], %c16 reply %reply[%c0]
          : memref<16xf32, #sunway.ldm>, memref<1024xf32>, memref<1xi32, #sunway.ldm>
      %two = arith.constant 2 : i32
      sunway.wait_reply %reply[%c0], %two : memref<1xi32, #sunway.ldm>
      sunway.barrier array
    }
    return
  }
}

// The CPE file: the LDM area, the kernel unpacking its buffers, athread's
// get with its block and gap in bytes (4 x 4 taken, (64 - 4) x 4 skipped),
// waits through the ABI header, counted scalar accesses (LDM and, for the
// constant, main memory) and arithmetic.
// SLAVE: #include <slave.h>
// SLAVE: #include "dlc_sunway.h"
// SLAVE: static __thread_local unsigned char dlc_ldm[96] __attribute__((aligned(32)));
// SLAVE-LABEL: void k0(
// SLAVE-SAME: void* [[ARG:v[0-9]+]]) {
// SLAVE: athread_get_id(-1);
// SLAVE: (void**) [[ARG]];
// SLAVE: athread_get(PE_MODE, {{.*}}, 0, {{.*}}, {{.*}});
// SLAVE: dlc_wait_reply(
// SLAVE: DLC_LDM_LOAD(
// SLAVE: DLC_GLOBAL_LOAD(
// SLAVE: DLC_FOP(
// SLAVE: DLC_LDM_STORE(
// SLAVE: athread_put(PE_MODE,
// SLAVE: athread_syn(ARRAY_SCOPE, 0xffff);

// The MPE file: constants from the weights blob, the kernel spawned with
// its argument block and joined, the model's entry points.
// HOST: #include <athread.h>
// HOST: extern void SLAVE_FUN(k0)(void *);
// HOST-LABEL: static int32_t dlc_model_compute(unsigned char* {{.*}}, float* {{.*}}, float* {{.*}}) {
// HOST: athread_init();
// HOST: athread_spawn(k0,
// HOST: athread_join();
// HOST: dlc_record_join(
// HOST: athread_halt();
// HOST: return
// HOST-LABEL: int32_t dlc_model_run(const char* {{.*}}, const float* {{.*}}, float* {{.*}}) {
// HOST: dlc_load_weights({{.*}}, 16ull, {{[0-9]+}}ull,
// HOST-LABEL: int32_t dlc_model_run_packed(

// The header: one entry point, inputs and outputs described.
// HEADER: input  x: f32[1024]
// HEADER: output y: f32[1024]
// HEADER: int dlc_model_run(const char *weights_path,
// HEADER-NEXT: const float *input0,
// HEADER-NEXT: float *output0);
