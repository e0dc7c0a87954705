// RUN: dlc-opt %s -canonicalize -split-input-file | FileCheck %s

// Numbers used below: filter w = [[1, 2]], [[3, 4]] (2 features of 1x1x2), conv bias b = [1, -1];
// BatchNorm scale = [4, 3], beta = [0.5, 0], mean = [1, 2], variance = [3, 0], epsilon = 1,
// so s = scale / sqrt(variance + epsilon) = [2, 3],
//    w' = w * s = [[2, 4]], [[9, 12]],
//    b' = (b - mean) * s + beta = [0.5, -9]      (without conv bias: [-1.5, -6]).

// BatchNorm after a conv with constant filter and bias becomes one conv with new constants.
// CHECK-LABEL: func.func @fold_with_bias
// CHECK-SAME:    %[[X:.*]]: tensor<1x1x4x4xf32>
// CHECK-DAG:     %[[W:.*]] = dlc.constant dense<{{\[}}{{\[}}{{\[}}[2.000000e+00, 4.000000e+00]]], {{\[}}{{\[}}[9.000000e+00, 1.200000e+01]]]]> : tensor<2x1x1x2xf32>
// CHECK-DAG:     %[[B:.*]] = dlc.constant dense<[5.000000e-01, -9.000000e+00]> : tensor<2xf32>
// CHECK:         %[[Y:.*]] = dlc.conv %[[X]], %[[W]], %[[B]] {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}
// CHECK-NOT:     dlc.batch_norm
// CHECK:         return %[[Y]]
func.func @fold_with_bias(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x3xf32> {
  %w = dlc.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %b = dlc.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %scale = dlc.constant dense<[4.0, 3.0]> : tensor<2xf32>
  %beta = dlc.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = dlc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %0 = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x2x4x3xf32>
  %1 = dlc.batch_norm %0, %scale, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x4x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x3xf32>
  return %1 : tensor<1x2x4x3xf32>
}

// -----

// A conv without bias gets one: b' = -mean * s + beta.
// CHECK-LABEL: func.func @fold_without_bias
// CHECK-SAME:    %[[X:.*]]: tensor<1x1x4x4xf32>
// CHECK-DAG:     %[[W:.*]] = dlc.constant dense<{{\[}}{{\[}}{{\[}}[2.000000e+00, 4.000000e+00]]], {{\[}}{{\[}}[9.000000e+00, 1.200000e+01]]]]> : tensor<2x1x1x2xf32>
// CHECK-DAG:     %[[B:.*]] = dlc.constant dense<[-1.500000e+00, -6.000000e+00]> : tensor<2xf32>
// CHECK:         %[[Y:.*]] = dlc.conv %[[X]], %[[W]], %[[B]]
// CHECK:         return %[[Y]]
func.func @fold_without_bias(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x3xf32> {
  %w = dlc.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %scale = dlc.constant dense<[4.0, 3.0]> : tensor<2xf32>
  %beta = dlc.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = dlc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x4x3xf32>
  %1 = dlc.batch_norm %0, %scale, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x4x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x3xf32>
  return %1 : tensor<1x2x4x3xf32>
}

// -----

// dense_resource weights (as the importer makes them) give new dense_resource blobs; the old ones are dropped.
// w = [1, 2, 3, 4] and b = [1, -1] as little-endian f32; w' = [2, 4, 9, 12], b' = [0.5, -9].
// CHECK-LABEL: func.func @fold_resource
// CHECK-DAG:     %[[W:.*]] = dlc.constant dense_resource<conv_w_bn> : tensor<2x1x1x2xf32>
// CHECK-DAG:     %[[B:.*]] = dlc.constant dense_resource<conv_w_bn_bias> : tensor<2xf32>
// CHECK:         dlc.conv %{{.*}}, %[[W]], %[[B]]
// CHECK:         conv_w_bn: "0x0800000000000040000080400000104100004041"
// CHECK:         conv_w_bn_bias: "0x080000000000003F000010C1"
func.func @fold_resource(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x3xf32> {
  %w = dlc.constant dense_resource<conv_w> : tensor<2x1x1x2xf32>
  %b = dlc.constant dense_resource<conv_b> : tensor<2xf32>
  %scale = dlc.constant dense<[4.0, 3.0]> : tensor<2xf32>
  %beta = dlc.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = dlc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %0 = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x2x4x3xf32>
  %1 = dlc.batch_norm %0, %scale, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x4x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x3xf32>
  return %1 : tensor<1x2x4x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      conv_w: "0x040000000000803F000000400000404000008040",
      conv_b: "0x040000000000803F000080BF"
    }
  }
#-}

// -----

// Splat parameters and a grouped conv (2 groups of 1 channel): s = 2 / sqrt(3 + 1) = 1, b' = (0 - 1) * 1 + 0.25.
// CHECK-LABEL: func.func @fold_grouped_splat
// CHECK-DAG:     %[[W:.*]] = dlc.constant dense<{{\[}}{{\[}}{{\[}}[1.000000e+00]]], {{\[}}{{\[}}[2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG:     %[[B:.*]] = dlc.constant dense<-7.500000e-01> : tensor<2xf32>
// CHECK:         dlc.conv %{{.*}}, %[[W]], %[[B]] {{.*}}group = 2 : i64
func.func @fold_grouped_splat(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = dlc.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %scale = dlc.constant dense<2.0> : tensor<2xf32>
  %beta = dlc.constant dense<0.25> : tensor<2xf32>
  %mean = dlc.constant dense<1.0> : tensor<2xf32>
  %var = dlc.constant dense<3.0> : tensor<2xf32>
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = dlc.batch_norm %0, %scale, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}

// -----

// The conv result has another use: folding would need both convs, so nothing changes.
// CHECK-LABEL: func.func @no_fold_other_use
// CHECK:         %[[C:.*]] = dlc.conv
// CHECK:         %[[N:.*]] = dlc.batch_norm %[[C]]
// CHECK:         return %[[C]], %[[N]]
func.func @no_fold_other_use(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = dlc.constant dense<1.0> : tensor<2x1x1x1xf32>
  %p = dlc.constant dense<1.0> : tensor<2xf32>
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = dlc.batch_norm %0, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0, %1 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// A filter that is not a constant cannot be rescaled.
// CHECK-LABEL: func.func @no_fold_dynamic_filter
// CHECK:         dlc.batch_norm
func.func @no_fold_dynamic_filter(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %p = dlc.constant dense<1.0> : tensor<2xf32>
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = dlc.batch_norm %0, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// BatchNorm parameters that are not constants cannot be folded either.
// CHECK-LABEL: func.func @no_fold_dynamic_params
// CHECK:         dlc.batch_norm
func.func @no_fold_dynamic_params(%x: tensor<1x1x4x4xf32>, %mean: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %w = dlc.constant dense<1.0> : tensor<2x1x1x1xf32>
  %p = dlc.constant dense<1.0> : tensor<2xf32>
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = dlc.batch_norm %0, %p, %p, %mean, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// BatchNorm on something other than a conv stays.
// CHECK-LABEL: func.func @no_fold_not_conv
// CHECK:         dlc.batch_norm
func.func @no_fold_not_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %p = dlc.constant dense<1.0> : tensor<2xf32>
  %0 = dlc.relu %x : tensor<1x2x4x4xf32>
  %1 = dlc.batch_norm %0, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}
