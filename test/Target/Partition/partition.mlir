// RUN: dlc-opt %s --split-input-file --dlc-partition-for-target=target=snowflake | FileCheck %s

// A Resize between two convolutions: three segments, a transfer at every
// crossing, the inputs and outputs on the host.
// CHECK-LABEL: func.func @main
// CHECK-SAME: dlc.segment = "snowflake"
// CHECK: %[[IN:.*]] = dlc.transfer %arg0 {destination = "snowflake", source = "host"}
// CHECK: %[[C1:.*]] = call @main_segment0_snowflake(%[[IN]])
// CHECK: %[[OUT1:.*]] = dlc.transfer %[[C1]] {destination = "host", source = "snowflake"}
// CHECK: %[[UP:.*]] = call @main_segment1_host(%[[OUT1]])
// CHECK: %[[IN2:.*]] = dlc.transfer %[[UP]] {destination = "snowflake", source = "host"}
// CHECK: %[[C2:.*]] = call @main_segment2_snowflake(%[[IN2]])
// CHECK: %[[OUT2:.*]] = dlc.transfer %[[C2]] {destination = "host", source = "snowflake"}
// CHECK: return %[[OUT2]]
// CHECK: func.func private @main_segment0_snowflake(%{{.*}}: tensor<1x3x8x8xf32> {dlc.name = "x"}) -> (tensor<1x8x8x8xf32> {dlc.name = "relu1"})
// CHECK-SAME: dlc.segment = "snowflake"
// CHECK: dlc.constant
// CHECK: dlc.conv
// CHECK: dlc.relu
// CHECK: func.func private @main_segment1_host({{.*}} {dlc.name = "relu1"}) -> (tensor<1x8x16x16xf32> {dlc.name = "up"})
// CHECK-SAME: dlc.segment = "host"
// CHECK: dlc.resize {{.*}}dlc.fallback = "'dlc.resize' has no layer on the accelerator"
// CHECK: func.func private @main_segment2_snowflake({{.*}}) -> (tensor<1x8x16x16xf32> {dlc.name = "y"})
// CHECK: dlc.constant
// CHECK: dlc.conv
func.func @main(%x: tensor<1x3x8x8xf32> {dlc.name = "x"}) -> (tensor<1x8x16x16xf32> {dlc.name = "y"}) {
  %w1 = dlc.constant dense<0.125> : tensor<8x3x3x3xf32>
  %w2 = dlc.constant dense<0.0625> : tensor<8x8x3x3xf32>
  %c1 = dlc.conv %x, %w1 {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32> loc("conv1"("Conv"))
  %r1 = dlc.relu %c1 : tensor<1x8x8x8xf32> loc("relu1"("Relu"))
  %u = dlc.resize %r1 {coordinate_transformation_mode = "asymmetric", mode = "nearest", nearest_mode = "floor", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x8x8x8xf32>) -> tensor<1x8x16x16xf32> loc("up"("Resize"))
  %c2 = dlc.conv %u, %w2 {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32> loc("conv2"("Conv"))
  return %c2 : tensor<1x8x16x16xf32>
}

// -----

// Nothing falls back: the module is left as it is.
// CHECK-LABEL: func.func @main
// CHECK-NOT: dlc.segment
// CHECK-NEXT: %[[R:.*]] = dlc.relu %arg0
// CHECK-NEXT: return %[[R]]
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %r = dlc.relu %x : tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

// A reason already on an op (the driver's, or a user's) is kept; the
// ready op of the current side goes first, so the two ReLUs share a
// segment although the Sigmoid comes between them in the input; a tensor
// used by two later segments crosses once.
// CHECK-LABEL: func.func @main
// CHECK: %[[IN:.*]] = dlc.transfer %arg0 {destination = "snowflake", source = "host"}
// CHECK: %[[A:.*]]:2 = call @main_segment0_snowflake(%[[IN]])
// CHECK: %[[A0:.*]] = dlc.transfer %[[A]]#0 {destination = "host", source = "snowflake"}
// CHECK: %[[H:.*]] = call @main_segment1_host(%[[A0]])
// CHECK: %[[A1:.*]] = dlc.transfer %[[A]]#1 {destination = "host", source = "snowflake"}
// CHECK: return %[[A1]], %[[H]], %[[A0]]
// CHECK: func.func private @main_segment0_snowflake
// CHECK-COUNT-2: dlc.relu
// CHECK: func.func private @main_segment1_host
// CHECK: dlc.sigmoid {{.*}}{dlc.fallback = "forced by the user"}
func.func @main(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %a = dlc.relu %x : tensor<1x4xf32> loc("a"("Relu"))
  %s = dlc.sigmoid %a {dlc.fallback = "forced by the user"} : tensor<1x4xf32> loc("s"("Sigmoid"))
  %b = dlc.relu %a : tensor<1x4xf32> loc("b"("Relu"))
  return %b, %s, %a : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// An integer tensor falls back by its type; a returned constant is asked
// about too (Snowflake writes only what its layers compute), and both
// share a host segment.
// CHECK-LABEL: func.func @main
// CHECK: %[[H:.*]]:2 = call @main_segment0_host(%arg0)
// CHECK: return %[[H]]#0, %[[H]]#1
// CHECK: func.func private @main_segment0_host({{.*}}) -> (tensor<2xf32> {dlc.name = "y"}, tensor<2xf32> {dlc.name = "k"})
// CHECK: dlc.cast {{.*}}dlc.fallback = "a tensor of type tensor<2xi64>: the accelerator computes on float32 tensors of rank 1 to 4"
// CHECK: dlc.constant {dlc.fallback = "a constant output of the model: the accelerator writes only what its layers compute"}
func.func @main(%x: tensor<2xi64>) -> (tensor<2xf32> {dlc.name = "y"}, tensor<2xf32> {dlc.name = "k"}) {
  %c = dlc.cast %x : tensor<2xi64> -> tensor<2xf32> loc("c"("Cast"))
  %k = dlc.constant dense<1.0> : tensor<2xf32> loc("k"("Constant"))
  return %c, %k : tensor<2xf32>, tensor<2xf32>
}

// -----

// A target segment that only moves data does not pay: a Reshape between two
// Resizes (which fall back) would cost a transfer each way, so it joins the
// host and the three make one host segment.
// CHECK-LABEL: func.func @main
// CHECK-NOT: dlc.transfer
// CHECK: %[[Y:.*]] = call @main_segment0_host(%arg0)
// CHECK-NEXT: return %[[Y]]
// CHECK: func.func private @main_segment0_host
// CHECK: dlc.resize
// CHECK: dlc.reshape {{.*}}dlc.fallback = "does not pay on snowflake: it only moves data, between host segments"
// CHECK: dlc.resize
// CHECK-NOT: func.func
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x16x16xf32> {
  %u = dlc.resize %x {coordinate_transformation_mode = "asymmetric", mode = "nearest", nearest_mode = "floor", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x8x8xf32>
  %r = dlc.reshape %u : tensor<1x2x8x8xf32> -> tensor<1x2x8x8xf32>
  %v = dlc.resize %r {coordinate_transformation_mode = "asymmetric", mode = "nearest", nearest_mode = "floor", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x16x16xf32>
  return %v : tensor<1x2x16x16xf32>
}
