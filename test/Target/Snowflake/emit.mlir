// RUN: dlc-opt %s --pass-pipeline='builtin.module(snowflake.program(dlc-snowflake-allocate-registers))' --mlir-print-debuginfo -o %t.mlir
// RUN: dlc-translate --snowflake-emit-listing %t.mlir | FileCheck %s
// RUN: dlc-translate --snowflake-emit-binary %t.mlir -o %t.bin
// RUN: dlc-snowflake-sim %t.bin --dump 200:16=%t.out | FileCheck %s --check-prefix=SIM
// RUN: od -A n -t x2 -v %t.out | FileCheck %s --check-prefix=OUT

// A loop of four one-element traces: the loop becomes the induction
// variable's movi, the body, the copies, the increment and a blt back (no
// guard: the bounds are constants); constants become movi, a constant
// operand of addi its immediate, zero r0. Every instruction names its ONNX
// node.
// CHECK:      .text
// CHECK:      ld 1, 16, r0, r0, r{{[0-9]+}} # 0004: {{[0-9a-f]+}}  fc (Gemm)
// CHECK:      movi r[[IV:[0-9]+]], 0
// CHECK-NEXT: movi r[[M:[0-9]+]], 64
// CHECK-NEXT: movi r[[W:[0-9]+]], 0
// CHECK-NEXT: L[[TOP:[0-9]+]]:
// CHECK-NEXT: vmac 0x1, r[[M]], r[[W]], r{{[0-9]+}}
// CHECK-NEXT: addi r[[M]], r[[M]], 1
// CHECK-NEXT: addi r[[W]], r[[W]], 16
// CHECK-NEXT: addi r[[IV]], r[[IV]], 1
// CHECK-NEXT: blt r[[IV]], r{{[0-9]+}}, L[[TOP]]
// CHECK:      vwb 0x1
// CHECK:      halt

// Lane l of vMAC 0: 1 + 2 + 3 + 4 = 10 (0x4900); 11 instructions, then
// 5 per iteration, then 7.
// SIM: halted after 38 instructions
// SIM: MACs 256,
// OUT: 4900 4900 4900 4900 4900 4900 4900 4900
// OUT: 4900 4900 4900 4900 4900 4900 4900 4900
snowflake.program @fc attributes {
    maps_buffer_elements = 65536 : i64, weights_buffer_elements = 16384 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<[15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360,
                  15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360,
                  15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360,
                  15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360, 15360,
                  15360, 16384, 16896, 17408]> : tensor<68xi16>,
    inputs = [], outputs = [], layers = [#snowflake.layer<name = "fc", op = "Gemm", fused = [], macs = 64, hardware_macs = 256, loop_order = "none", schedule = "", predicted_cycles = 0, dram_read_bytes = 136, dram_write_bytes = 32>]} {
  %c0 = arith.constant 0 : i32 loc("fc"("Gemm"))
  %c1 = arith.constant 1 : i32 loc("fc"("Gemm"))
  %c4 = arith.constant 4 : i32 loc("fc"("Gemm"))
  %c64 = arith.constant 64 : i32 loc("fc"("Gemm"))
  snowflake.lscfg unit(1) %c1, %c0, %c0 loc("fc"("Gemm"))
  snowflake.ld unit(1) buffer(16) %c0, %c0, %c64 loc("fc"("Gemm"))
  snowflake.ld unit(1) buffer(0) %c64, %c64, %c4 loc("fc"("Gemm"))
  snowflake.sync 2 loc("fc"("Gemm"))
  snowflake.vclear cus(1) loc("fc"("Gemm"))
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %c64, %w = %c0) -> (i32, i32) : i32 {
    snowflake.vmac cus(1) %m, %w, %c1 loc("fc"("Gemm"))
    %m2 = arith.addi %m, %c1 : i32 loc("fc"("Gemm"))
    %c16 = arith.constant 16 : i32 loc("fc"("Gemm"))
    %w2 = arith.addi %w, %c16 : i32 loc("fc"("Gemm"))
    scf.yield %m2, %w2 : i32, i32 loc("fc"("Gemm"))
  } loc("fc"("Gemm"))
  %c100 = arith.constant 100 : i32 loc("fc"("Gemm"))
  %c16 = arith.constant 16 : i32 loc("fc"("Gemm"))
  snowflake.vwb cus(1) %c100, %c16 loc("fc"("Gemm"))
  snowflake.sync 16 loc("fc"("Gemm"))
  %c200 = arith.constant 200 : i32 loc("fc"("Gemm"))
  snowflake.st unit(1) buffer(0) %c100, %c200, %c16 loc("fc"("Gemm"))
}
