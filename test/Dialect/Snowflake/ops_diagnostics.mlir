// RUN: dlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// What the ISA and the machine fix, checked where the operands are
// constants.
// A field wider than its bits.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %c = arith.constant 1 : i32
  // expected-error @+1 {{field 'cus' = 16 does not fit its 4 bits (0..15)}}
  snowflake.vmac cus(16) %c, %c, %c
}

// -----

// An empty CU mask.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  // expected-error @+1 {{has an empty CU mask}}
  snowflake.vclear cus(0)
}

// -----

// A sync mask past the 12 units.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  // expected-error @+1 {{field 'units' = 4096 does not fit its 12 bits (0..4095)}}
  snowflake.sync 4096
}

// -----

// A constant trace past the end of the maps buffer.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 1000 : i32
  %n = arith.constant 32 : i32
  %w = arith.constant 0 : i32
  // expected-error @+1 {{reaches maps element 1032, past the 1024 elements of the buffer}}
  snowflake.vmac cus(1) %a, %w, %n
}

// -----

// Weights rows past the weights buffer.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  %n = arith.constant 200 : i32
  // expected-error @+1 {{reaches weights element 3200, past the 2048 elements of the buffer}}
  snowflake.vmac cus(1) %a, %a, %n
}

// -----

// Weights rows start on a row of 16.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  %w = arith.constant 8 : i32
  %n = arith.constant 2 : i32
  // expected-error @+1 {{has weights address 8, not a multiple of 16}}
  snowflake.vmac cus(1) %a, %w, %n
}

// -----

// A trace of length 0.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  // expected-error @+1 {{has length 0, not at least 1}}
  snowflake.vmax cus(1) %a, %a, %a, %a
}

// -----

// More channels than a CU writes back.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  %n = arith.constant 65 : i32
  // expected-error @+1 {{writes back 65 channels, not 1..64}}
  snowflake.vwb cus(1) %a, %n
}

// -----

// A move between overlapping ranges.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  %b = arith.constant 8 : i32
  %n = arith.constant 16 : i32
  // expected-error @+1 {{moves between overlapping ranges}}
  snowflake.vmov cus(1) %a, %b, %n
}

// -----

// A store from a weights buffer.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  %n = arith.constant 4 : i32
  // expected-error @+1 {{names buffer 16, which cannot be stored from}}
  snowflake.st unit(0) buffer(16) %a, %a, %n
}

// -----

// A load into a buffer number no buffer has.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 0 : i32
  %n = arith.constant 4 : i32
  // expected-error @+1 {{names buffer 5, which cannot be loaded}}
  snowflake.ld unit(0) buffer(5) %a, %a, %n
}

// -----

// Saved accumulators past the maps buffer.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 1000 : i32
  // expected-error @+1 {{reaches maps element 1128, past the 1024 elements of the buffer}}
  snowflake.vsave cus(1) %a
}

// -----

// The control core computes on i32 with add, sub, mul only.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  %a = arith.constant 1 : i32
  // expected-error @+1 {{cannot run on the Snowflake control core}}
  %b = arith.divsi %a, %a : i32
}

// -----

// A register outside r1..r31.
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
  // expected-error @+1 {{'snowflake.reg' must be a register r1..r31 on an op with one result}}
  %a = arith.constant {snowflake.reg = 32 : i64} 1 : i32
  snowflake.vbias cus(1) %a
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{must be inside a snowflake.program}}
  snowflake.vclear cus(1)
  return
}

// -----

// Data outside the DRAM.
// expected-error @+1 {{has its data (elements 65534..65538) outside its 65536-element DRAM}}
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 65534 : i64,
    data = dense<0> : tensor<4xi16>, inputs = [], outputs = [], layers = []} {
}

// -----

// A tensor placed past the DRAM.
// expected-error @+1 {{places 'x' up to element 70000, outside its 65536-element DRAM}}
snowflake.program @p attributes {
    maps_buffer_elements = 1024 : i64, weights_buffer_elements = 2048 : i64,
    dram_elements = 65536 : i64, data_address = 0 : i64,
    data = dense<0> : tensor<4xi16>,
    inputs = [#snowflake.dram_tensor<"x", address = 60000, shape = [10000], strides = [1]>],
    outputs = [], layers = []} {
}

// -----

// expected-error @+1 {{a DRAM tensor needs one stride per dimension, not 1 for 2}}
"test.op"() {t = #snowflake.dram_tensor<"x", address = 0, shape = [1, 2], strides = [1]>} : () -> ()
