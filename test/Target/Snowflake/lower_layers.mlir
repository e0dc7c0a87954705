// RUN: dlc-opt %s --split-input-file --dlc-snowflake-lower-layers | FileCheck %s

// A convolution with its ReLU is one layer. Its 16 filters are one block of
// 64 channels, so the four CUs split the 8 x 8 outputs (the model's choice:
// bands of 3 rows, the three of them in column pieces so that each CU
// takes one) and share the weights, which go to every CU at once (buffer
// 8 + v). The input is depth-minor in DRAM (strides [192, 1, 24, 3]); a
// tile is zero-padded in the maps buffer; a pixel is the bias row, three
// traces of 3 x 3 elements (one per kernel row) and a write-back with
// ReLU. The tiles after the first load between the first tile's pixels.
// CHECK-LABEL: snowflake.program @main
// CHECK-SAME: data = dense_resource<snowflake_data> : tensor<1792xi16>
// CHECK-SAME: inputs = [#snowflake.dram_tensor<"input0", address = 0, shape = [1, 3, 8, 8], strides = [192, 1, 24, 3]>]
// CHECK-SAME: layers = [#snowflake.layer<name = "conv1", op = "Conv", fused = ["relu1"], macs = 27648, hardware_macs = 110592, loop_order = "{{[mk]}}loop", schedule = "1 block x 4 bands of 3 rows per round, 2 input slots, 1 weights chunk, the last bands in column pieces"
// CHECK-SAME: outputs = [#snowflake.dram_tensor<"output0", address = 192, shape = [1, 16, 8, 8], strides = [1024, 1, 128, 16]>]
// The first tiles fill their own padding (CU 0's left column, its top row).
// CHECK: snowflake.vfill cus(1)
// CHECK-DAG: snowflake.ld unit({{[0-3]}}) buffer(0)
// CHECK-DAG: snowflake.ld unit({{[0-3]}}) buffer(3)
// CHECK-DAG: snowflake.ld unit({{[0-3]}}) buffer(8)
// CHECK-DAG: snowflake.ld unit({{[0-3]}}) buffer(11)
// CHECK: snowflake.sync 4095
// CHECK: snowflake.vbias cus(15)
// CHECK-COUNT-3: snowflake.vmac cus(15)
// CHECK: snowflake.vwb cus(15) %{{.*}}, %{{.*}} {relu = 1 : i32}
// CHECK: snowflake.ld unit({{[0-3]}}) buffer(0)
// CHECK: snowflake.sync 4095
// CHECK: snowflake.st unit({{[0-3]}}) buffer({{[0-3]}})
// CHECK-NOT: func.func
func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %w = dlc.constant dense<0.5> : tensor<16x3x3x3xf32>
  %b = dlc.constant dense<0.25> : tensor<16xf32>
  %y = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32> loc("conv1"("Conv"))
  %r = dlc.relu %y : tensor<1x16x8x8xf32> loc("relu1"("Relu"))
  return %r : tensor<1x16x8x8xf32>
}

// -----

// A kernel of 3 x 3 x 128 rows does not fit half a weights buffer (511
// rows): it is summed in chunks, the partial sums saved and restored
// exactly.
// CHECK-LABEL: snowflake.program @deep
// CHECK-SAME: hardware_macs = 4718592
// CHECK: snowflake.vsave cus(15)
// CHECK: snowflake.vrestore cus(15)
// CHECK: snowflake.vwb cus(15)
func.func @deep(%x: tensor<1x128x4x4xf32>) -> tensor<1x256x4x4xf32> {
  %w = dlc.constant dense<0.01> : tensor<256x128x3x3xf32>
  %y = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x128x4x4xf32>, tensor<256x128x3x3xf32>) -> tensor<1x256x4x4xf32> loc("conv2"("Conv"))
  return %y : tensor<1x256x4x4xf32>
}

// -----

// Max pooling runs on the MAX units: three vmax per 2 x 2 window, the pad
// value is minus infinity (0xfc00 = 64512).
// CHECK-LABEL: snowflake.program @pool
// CHECK-SAME: layers = [#snowflake.layer<name = "pool", op = "MaxPool"
// CHECK-COUNT-3: snowflake.vmax cus(
func.func @pool(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32> {
  %y = dlc.max_pool %x {dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x8x8x8xf32> -> tensor<1x8x4x4xf32> loc("pool"("MaxPool"))
  return %y : tensor<1x8x4x4xf32>
}

// -----

// With Q8.8 operands the pad value of max pooling is the most negative
// number, 0x8000 = 32768, in both input slots and in the first tiles.
// CHECK-LABEL: snowflake.program @pool_q88
// CHECK: %[[LOWEST:.*]] = arith.constant 32768 : i32
// CHECK: snowflake.vfill cus(15) %{{.*}}, %[[LOWEST]], %{{.*}}
// CHECK-NOT: 64512
module attributes {dlc.hardware = #dlc.hardware<target = {operand_fraction_bits = 8 : i64}>} {
  func.func @pool_q88(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32> {
    %y = dlc.max_pool %x {dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x8x8x8xf32> -> tensor<1x8x4x4xf32> loc("pool"("MaxPool"))
    return %y : tensor<1x8x4x4xf32>
  }
}

// -----

// A residual sum with its ReLU: vadd with relu over each CU's piece.
// CHECK-LABEL: snowflake.program @residual
// CHECK-SAME: fused = ["relu"]
// CHECK: snowflake.vadd cus(15) {{.*}} {relu = 1 : i32}
func.func @residual(%a: tensor<1x16x16x16xf32>, %b: tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32> {
  %s = dlc.add %a, %b : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32> loc("add"("Add"))
  %r = dlc.relu %s : tensor<1x16x16x16xf32> loc("relu"("Relu"))
  return %r : tensor<1x16x16x16xf32>
}

// -----

// A Gemm after a flatten is a kernel over the whole depth-minor input: the
// output of the flatten is a view, and the graph output [1, 10] is placed
// with 4-D strides.
// CHECK-LABEL: snowflake.program @classifier
// CHECK-SAME: layers = [#snowflake.layer<name = "fc", op = "Gemm", fused = [], macs = 320
// CHECK-SAME: outputs = [#snowflake.dram_tensor<"output0", address = {{[0-9]+}}, shape = [1, 10, 1, 1], strides = [10, 1, 10, 10]>]
func.func @classifier(%x: tensor<1x2x4x4xf32>) -> tensor<1x10xf32> {
  %f = dlc.reshape %x : tensor<1x2x4x4xf32> -> tensor<1x32xf32> loc("flatten"("Flatten"))
  %w = dlc.constant dense<0.1> : tensor<10x32xf32>
  %y = dlc.gemm %f, %w {trans_b = true} : (tensor<1x32xf32>, tensor<10x32xf32>) -> tensor<1x10xf32> loc("fc"("Gemm"))
  return %y : tensor<1x10xf32>
}
