// RUN: dlc-opt %S/Inputs/matmul_relu.mlir --dlc-sunway-pipeline | FileCheck %s

// The whole pipeline: every staged nest is a kernel; the Gemm's outermost
// tile loop runs on all 64 CPEs (lower bound from the CPE id, step 64
// tiles); its buffers sit at LDM offsets within the 57344 bytes the stack
// leaves; transfers are athread DMA with reply words.
// CHECK: module attributes {dlc.entry = {{.*}}, dlc.hardware = #dlc.hardware<local_memory_bytes = 56832, dma_block_overhead_bytes = 470, processing_units = 64, broadcast_reads = true, strided_read_copies = true, target = {{.*}}cpes = 64 : i64
// CHECK-LABEL: func.func @main
// CHECK: sunway.launch "k0"
// CHECK: sunway.launch "k[[FC:[0-9]+]]"({{.*}}) : {{.*}} attributes {ldm_bytes = [[LDM:[0-9]+]] : i64, node = "fc", sunway.placement = "CPEs: {{.*}}"} {
// CHECK-NEXT: ^bb0(%[[ID:[^:]*]]: index,
// CHECK: sunway.ldm_alloc offset 0 : memref<{{[0-9]+}}xi32, #sunway.ldm>
// CHECK: affine.for %{{.*}} = #{{.*}}()[%[[ID]]] to 128 step
// CHECK: sunway.dma_get pe
// CHECK: sunway.wait_reply
// CHECK: sunway.dma_put pe
// CHECK: dlc.distributed = {trips = {{[0-9]+}} : i64, units = 64 : i64}
// CHECK: sunway.launch {{.*}} node = "relu"
