// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(snowflake.program(dlc-snowflake-allocate-registers))' | FileCheck %s

// Constants that are only immediates (addi, loop bounds and steps) and
// zero (r0) get no register; a value read inside a loop stays live to its
// end; the value yielded back takes its iteration argument's register.
// CHECK-LABEL: snowflake.program @loop
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[N:.*]] = arith.constant {snowflake.reg = 1 : i64} 8 : i32
// CHECK: %[[L:.*]] = arith.constant {snowflake.reg = 2 : i64} 16 : i32
// CHECK: scf.for {{.*}} iter_args(%[[M:.*]] = %[[C0]]) -> (i32) : i32 {
// CHECK:   snowflake.vmac cus(1) %[[M]], %[[C0]], %[[L]]
// CHECK:   %[[NEXT:.*]] = arith.addi %[[M]], %{{.*}} {snowflake.reg = 4 : i64} : i32
// CHECK:   scf.yield %[[NEXT]]
// CHECK: } {snowflake.regs = array<i32: 3, 4>}
snowflake.program @loop attributes {
    maps_buffer_elements = 65536 : i64, weights_buffer_elements = 16384 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = arith.constant 8 : i32
  %len = arith.constant 16 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %c0) -> (i32) : i32 {
    snowflake.vmac cus(1) %m, %c0, %len
    %step = arith.constant 16 : i32
    %next = arith.addi %m, %step : i32
    scf.yield %next : i32
  }
}

// -----

// Straight-line values share a register once their last use is behind.
// CHECK-LABEL: snowflake.program @reuse
// CHECK: arith.constant {snowflake.reg = 1 : i64} 16 : i32
// CHECK: snowflake.vclear
// CHECK: arith.constant {snowflake.reg = 1 : i64} 32 : i32
snowflake.program @reuse attributes {
    maps_buffer_elements = 65536 : i64, weights_buffer_elements = 16384 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 16 : i32
  snowflake.vbias cus(1) %a
  snowflake.vclear cus(1)
  %b = arith.constant 32 : i32
  snowflake.vbias cus(1) %b
}
