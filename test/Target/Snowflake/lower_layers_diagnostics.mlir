// RUN: not dlc-opt %s --split-input-file --dlc-snowflake-lower-layers 2>&1 | FileCheck %s
// (FileCheck, not -verify-diagnostics: the errors are at the ONNX nodes'
// name locations.)

// An op the accelerator has no unit for.
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  // CHECK: error: {{.*}}snowflake: 'sig' (Sigmoid): 'dlc.sigmoid' does not run on the accelerator
  %y = dlc.sigmoid %x : tensor<1x16xf32> loc("sig"("Sigmoid"))
  return %y : tensor<1x16xf32>
}

// -----

// Weights are compiled into the data section: they must be constants.
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK: error: {{.*}}snowflake: 'conv' (Conv): needs its weights as an f32 constant
  %y = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> loc("conv"("Conv"))
  return %y : tensor<1x4x6x6xf32>
}

// -----

// One output row of this convolution needs two tiles of 3 rows of 130
// padded columns of 64 channels: more than a 16 Ki-element maps buffer.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 32768, target = {maps_buffer_elements = 16384 : i64}>} {
  func.func @main(%x: tensor<1x64x128x128xf32>) -> tensor<1x64x128x128xf32> {
    %w = dlc.constant dense<0.1> : tensor<64x64x3x3xf32>
    // CHECK: error: {{.*}}snowflake: 'wide' (Conv) does not fit: one output row needs 45248 elements of maps buffer (two input tiles of 3 rows x 130 columns x 16 channels (the window's 64 in 4 groups), two output rows and the partial sums), more than the 16384 a CU has
    %y = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x64x128x128xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x128x128xf32> loc("wide"("Conv"))
    return %y : tensor<1x64x128x128xf32>
  }
}

// -----

// A sum that broadcasts.
func.func @main(%x: tensor<1x4x2x2xf32>, %y: tensor<1x4x1x1xf32>) -> tensor<1x4x2x2xf32> {
  // CHECK: error: {{.*}}snowflake: 'add' (Add): only a sum of two tensors of one shape runs on the accelerator (no broadcasting)
  %s = dlc.add %x, %y : (tensor<1x4x2x2xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x2x2xf32> loc("add"("Add"))
  return %s : tensor<1x4x2x2xf32>
}

// -----

// A reshape that is not a flatten reorders the depth-minor layout.
func.func @main(%x: tensor<1x4x2x2xf32>) -> tensor<1x2x8xf32> {
  // CHECK: error: {{.*}}snowflake: 'r' (Reshape): only a flatten to {{\[}}N, C x H x W] (or adding or dropping unit spatial dimensions) runs on the accelerator, which keeps tensors depth-minor
  %r = dlc.reshape %x : tensor<1x4x2x2xf32> -> tensor<1x2x8xf32> loc("r"("Reshape"))
  return %r : tensor<1x2x8xf32>
}

// -----

// The hardware description is checked.
// CHECK: error: {{.*}}snowflake: weights_buffer_elements must be a multiple of 16 and at least 1024, got 1000
module attributes {dlc.hardware = #dlc.hardware<target = {weights_buffer_elements = 1000 : i64}>} {
  func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
    return %x : tensor<1x16xf32>
  }
}

// -----

// Weights beyond Q8.8's range saturate, as on the hardware: a warning, not
// an error (16 filters x 27 weights of 200).
// CHECK: warning: {{.*}}snowflake: 432 weights or biases of 'big' (Conv) lie outside Q8.8's range [-128.0000, 127.9961] and saturate
module attributes {dlc.hardware = #dlc.hardware<target = {operand_fraction_bits = 8 : i64}>} {
  func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x16x6x6xf32> {
    %w = dlc.constant dense<200.0> : tensor<16x3x3x3xf32>
    %y = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32> loc("big"("Conv"))
    return %y : tensor<1x16x6x6xf32>
  }
}

// -----

// A fixed-point format needs a sign bit.
// CHECK: error: {{.*}}snowflake: operand_fraction_bits must be 0 (fp16) or 1..15 (fixed point; 8 is Q8.8), got 16
module attributes {dlc.hardware = #dlc.hardware<target = {operand_fraction_bits = 16 : i64}>} {
  func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
    return %x : tensor<1x16xf32>
  }
}
