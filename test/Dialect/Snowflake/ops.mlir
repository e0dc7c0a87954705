// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// Every instruction op, printed and parsed back; registers are i32 values,
// the other fields attributes.
// CHECK-LABEL: snowflake.program @all
// CHECK-SAME: inputs = [#snowflake.dram_tensor<"x", address = 0, shape = [1, 16], strides = [16, 1]>]
// CHECK-SAME: layers = [#snowflake.layer<name = "fc", op = "Gemm", fused = [], macs = 16, hardware_macs = 64, loop_order = "mloop", schedule = "", predicted_cycles = 10, dram_read_bytes = 64, dram_write_bytes = 2>]
// CHECK: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: snowflake.lscfg unit(1) %[[C1:.*]], %[[C0:.*]], %[[C0]]
// CHECK: snowflake.ld unit(1) buffer(4) %[[C0]], %[[C0]], %[[C16]]
// CHECK: snowflake.ld unit(2) buffer(8) %[[C0]], %[[C16]], %[[C16]]
// CHECK: snowflake.sync 6
// CHECK: snowflake.vclear cus(15)
// CHECK: snowflake.vbias cus(1) %[[C16]]
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[M:.*]] = %[[C0]]) -> (i32) : i32 {
// CHECK:   snowflake.vmac cus(3) %[[M]], %[[C0]], %[[C1]]
// CHECK: snowflake.vwb cus(1) %[[C16]], %[[C16]] {relu = 1 : i32}
// CHECK: snowflake.vsave cus(1) %[[C16]]
// CHECK: snowflake.vrestore cus(1) %[[C16]]
// CHECK: snowflake.vmax cus(1) %[[C0]], %[[C0]], %[[C16]], %[[C16]]
// CHECK: snowflake.vadd cus(2) %[[C0]], %[[C0]], %[[C16]], %[[C16]] {relu = 1 : i32}
// CHECK: snowflake.vmov cus(4) %[[C0]], %[[C16]], %[[C16]]
// CHECK: snowflake.vfill cus(8) %[[C0]], %[[C1]], %[[C16]]
// CHECK: snowflake.st unit(3) buffer(0) %[[C16]], %{{.*}}, %[[C1]]
snowflake.program @all attributes {
    maps_buffer_elements = 65536 : i64, weights_buffer_elements = 16384 : i64,
    dram_elements = 65536 : i64, data_address = 32 : i64,
    data = dense<[15360, 16384]> : tensor<2xi16>,
    inputs = [#snowflake.dram_tensor<"x", address = 0, shape = [1, 16], strides = [16, 1]>],
    outputs = [#snowflake.dram_tensor<"y", address = 16, shape = [1, 1], strides = [1, 1]>],
    layers = [#snowflake.layer<name = "fc", op = "Gemm", fused = [], macs = 16, hardware_macs = 64, loop_order = "mloop", schedule = "", predicted_cycles = 10, dram_read_bytes = 64, dram_write_bytes = 2>]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  snowflake.lscfg unit(1) %c1, %c0, %c0
  snowflake.ld unit(1) buffer(4) %c0, %c0, %c16
  snowflake.ld unit(2) buffer(8) %c0, %c16, %c16
  snowflake.sync 6
  snowflake.vclear cus(15)
  snowflake.vbias cus(1) %c16
  %end = scf.for %i = %c0 to %c16 step %c1 iter_args(%m = %c0) -> (i32) : i32 {
    snowflake.vmac cus(3) %m, %c0, %c1
    %next = arith.addi %m, %c1 : i32
    scf.yield %next : i32
  }
  snowflake.vwb cus(1) %c16, %c16 {relu = 1 : i32}
  snowflake.vsave cus(1) %c16
  snowflake.vrestore cus(1) %c16
  snowflake.vmax cus(1) %c0, %c0, %c16, %c16
  snowflake.vadd cus(2) %c0, %c0, %c16, %c16 {relu = 1 : i32}
  snowflake.vmov cus(4) %c0, %c16, %c16
  snowflake.vfill cus(8) %c0, %c1, %c16
  %c17 = arith.constant 17 : i32
  snowflake.st unit(3) buffer(0) %c16, %c17, %c1
}
