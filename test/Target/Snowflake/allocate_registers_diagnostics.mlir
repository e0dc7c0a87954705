// RUN: dlc-opt %s --pass-pipeline='builtin.module(snowflake.program(dlc-snowflake-allocate-registers))' --verify-diagnostics

// 31 values live at once (all read by the loop) do not fit r1..r30.
snowflake.program @pressure attributes {
    maps_buffer_elements = 65536 : i64, weights_buffer_elements = 16384 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %v0 = arith.constant 16 : i32
  %v1 = arith.constant 32 : i32
  %v2 = arith.constant 48 : i32
  %v3 = arith.constant 64 : i32
  %v4 = arith.constant 80 : i32
  %v5 = arith.constant 96 : i32
  %v6 = arith.constant 112 : i32
  %v7 = arith.constant 128 : i32
  %v8 = arith.constant 144 : i32
  %v9 = arith.constant 160 : i32
  %v10 = arith.constant 176 : i32
  %v11 = arith.constant 192 : i32
  %v12 = arith.constant 208 : i32
  %v13 = arith.constant 224 : i32
  %v14 = arith.constant 240 : i32
  %v15 = arith.constant 256 : i32
  %v16 = arith.constant 272 : i32
  %v17 = arith.constant 288 : i32
  %v18 = arith.constant 304 : i32
  %v19 = arith.constant 320 : i32
  %v20 = arith.constant 336 : i32
  %v21 = arith.constant 352 : i32
  %v22 = arith.constant 368 : i32
  %v23 = arith.constant 384 : i32
  %v24 = arith.constant 400 : i32
  %v25 = arith.constant 416 : i32
  %v26 = arith.constant 432 : i32
  %v27 = arith.constant 448 : i32
  %v28 = arith.constant 464 : i32
  %v29 = arith.constant 480 : i32
  // expected-error @+1 {{needs more than 30 values in registers at once (r0 reads zero, r31 is the emitter's scratch)}}
  %v30 = arith.constant 496 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    snowflake.vbias cus(1) %v0
    snowflake.vbias cus(1) %v1
    snowflake.vbias cus(1) %v2
    snowflake.vbias cus(1) %v3
    snowflake.vbias cus(1) %v4
    snowflake.vbias cus(1) %v5
    snowflake.vbias cus(1) %v6
    snowflake.vbias cus(1) %v7
    snowflake.vbias cus(1) %v8
    snowflake.vbias cus(1) %v9
    snowflake.vbias cus(1) %v10
    snowflake.vbias cus(1) %v11
    snowflake.vbias cus(1) %v12
    snowflake.vbias cus(1) %v13
    snowflake.vbias cus(1) %v14
    snowflake.vbias cus(1) %v15
    snowflake.vbias cus(1) %v16
    snowflake.vbias cus(1) %v17
    snowflake.vbias cus(1) %v18
    snowflake.vbias cus(1) %v19
    snowflake.vbias cus(1) %v20
    snowflake.vbias cus(1) %v21
    snowflake.vbias cus(1) %v22
    snowflake.vbias cus(1) %v23
    snowflake.vbias cus(1) %v24
    snowflake.vbias cus(1) %v25
    snowflake.vbias cus(1) %v26
    snowflake.vbias cus(1) %v27
    snowflake.vbias cus(1) %v28
    snowflake.vbias cus(1) %v29
    snowflake.vbias cus(1) %v30
  }
}
