// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// QuantizeLinear to ui8: x / scale rounded half to even, plus the zero
// point, clipped to [0, 255], converted unsigned.
// CHECK-LABEL: func.func @quantize_unsigned
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[DIV:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK: %[[R:.*]] = math.roundeven %[[DIV]] : f32
// CHECK: %[[ZF:.*]] = arith.uitofp %[[Z]] : i8 to f32
// CHECK: %[[SUM:.*]] = arith.addf %[[R]], %[[ZF]] : f32
// CHECK: %[[LO:.*]] = arith.maximumf %[[SUM]], %{{.*}} : f32
// CHECK: %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: %[[Q:.*]] = arith.fptoui %[[HI]] : f32 to i8
// CHECK: linalg.yield %[[Q]] : i8
func.func @quantize_unsigned(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xui8> {
  %0 = dlc.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// To i8 the conversions are signed and the range is [-128, 127].
// CHECK-LABEL: func.func @quantize_signed
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK-DAG: arith.constant 1.270000e+02 : f32
// CHECK-DAG: arith.constant -1.280000e+02 : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i8
func.func @quantize_signed(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xi8> {
  %0 = dlc.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// DequantizeLinear: (x - zero point) * scale in float32; a per-axis scale
// broadcasts along its axis.
// CHECK-LABEL: func.func @dequantize_per_axis
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: i8, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: f32):
// CHECK-DAG: %[[ZF:.*]] = arith.sitofp %[[Z]] : i8 to f32
// CHECK-DAG: %[[XF:.*]] = arith.sitofp %[[X]] : i8 to f32
// CHECK: %[[D:.*]] = arith.subf %[[XF]], %[[ZF]] : f32
// CHECK: %[[Y:.*]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK: linalg.yield %[[Y]] : f32
func.func @dequantize_per_axis(%x: tensor<2x3xi8>, %s: tensor<2x1xf32>, %z: tensor<2x1xi8>) -> tensor<2x3xf32> {
  %0 = dlc.dequantize_linear %x, %s, %z : (tensor<2x3xi8>, tensor<2x1xf32>, tensor<2x1xi8>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
