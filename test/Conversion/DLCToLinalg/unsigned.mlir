// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// Unsigned tensors compute on their signless twin: the signature becomes
// signless, no bitcast is left, and Max compares unsigned.
// CHECK-LABEL: func.func @max
// CHECK-SAME:    (%[[A:.*]]: tensor<4xi8>, %[[B:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NOT:     tensor.bitcast
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4xi8>, tensor<4xi8>)
// CHECK:         ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK:           %[[M:.*]] = arith.maxui %[[X]], %[[Y]] : i8
// CHECK:           linalg.yield %[[M]]
// CHECK:         return %[[R]] : tensor<4xi8>
func.func @max(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = dlc.max %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Between two unsigned ops (and through data movement) the values stay
// signless: the bitcasts pairs are dropped. Div divides unsigned (a zero
// divisor gives 0), Min compares unsigned.
// CHECK-LABEL: func.func @chain
// CHECK-NOT:     tensor.bitcast
// CHECK:         %[[D:.*]] = linalg.generic
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK:           %[[ONE:.*]] = arith.constant 1 : i8
// CHECK:           %[[BYZERO:.*]] = arith.cmpi eq, %[[Y:.*]], %[[ZERO]] : i8
// CHECK:           %[[SAFE:.*]] = arith.select %[[BYZERO]], %[[ONE]], %[[Y]] : i8
// CHECK:           %[[Q:.*]] = arith.divui %{{.*}}, %[[SAFE]] : i8
// CHECK:           arith.select %[[BYZERO]], %[[ZERO]], %[[Q]] : i8
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[D]] : tensor<2x2xi8>)
// CHECK:         linalg.generic {{.*}} ins(%[[T]], %{{.*}} : tensor<2x2xi8>, tensor<2x2xi8>)
// CHECK:           arith.minui
func.func @chain(%a: tensor<2x2xui8>, %b: tensor<2x2xui8>) -> tensor<2x2xui8> {
  %0 = dlc.div %a, %b : (tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x2xui8>
  %1 = dlc.transpose %0 {perm = array<i64: 1, 0>} : tensor<2x2xui8> -> tensor<2x2xui8>
  %2 = dlc.min %1, %b : (tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x2xui8>
  return %2 : tensor<2x2xui8>
}

// -----

// Casts from unsigned zero-extend and convert with uitofp, casts to
// unsigned use fptoui; a cast between i8 and ui8 moves no bits.
// CHECK-LABEL: func.func @cast
// CHECK-SAME:    %[[A:[^:]*]]: tensor<4xi8>, %{{.*}}: tensor<4xf32>, %[[S:[^:]*]]: tensor<4xi8>)
// CHECK-SAME:    -> (tensor<4xf32>, tensor<4xi16>, tensor<4xi32>, tensor<4xi8>)
// CHECK:         arith.uitofp %{{.*}} : i8 to f32
// CHECK:         arith.fptoui %{{.*}} : f32 to i16
// CHECK:         arith.extui %{{.*}} : i8 to i32
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}}, %[[S]] :
func.func @cast(%a: tensor<4xui8>, %f: tensor<4xf32>, %s: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xui16>, tensor<4xi32>, tensor<4xui8>) {
  %0 = dlc.cast %a : tensor<4xui8> -> tensor<4xf32>
  %1 = dlc.cast %f : tensor<4xf32> -> tensor<4xui16>
  %2 = dlc.cast %a : tensor<4xui8> -> tensor<4xi32>
  %3 = dlc.cast %s : tensor<4xi8> -> tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xui16>, tensor<4xi32>, tensor<4xui8>
}

// -----

// Unsigned reductions start from the unsigned extremes: max from 0, min
// from 255 (-1 as i8).
// CHECK-LABEL: func.func @reduce
// CHECK:         %[[LOW:.*]] = arith.constant 0 : i8
// CHECK:         linalg.fill ins(%[[LOW]] : i8)
// CHECK:         arith.maxui
// CHECK:         %[[HIGH:.*]] = arith.constant -1 : i8
// CHECK:         linalg.fill ins(%[[HIGH]] : i8)
// CHECK:         arith.minui
func.func @reduce(%a: tensor<2x3xui8>) -> (tensor<2xui8>, tensor<2xui8>) {
  %0 = dlc.reduce_max %a {axes = array<i64: 1>, keepdims = false} : tensor<2x3xui8> -> tensor<2xui8>
  %1 = dlc.reduce_min %a {axes = array<i64: 1>, keepdims = false} : tensor<2x3xui8> -> tensor<2xui8>
  return %0, %1 : tensor<2xui8>, tensor<2xui8>
}

// -----

// Unsigned max-pooling pads with 0 and pools through a generic with maxui
// (the named NC* pooling ops compare signed).
// CHECK-LABEL: func.func @max_pool
// CHECK:         %[[LOW:.*]] = arith.constant 0 : i8
// CHECK:         tensor.pad
// CHECK:           tensor.yield %[[LOW]] : i8
// CHECK-NOT:     linalg.pooling_ncw_max
// CHECK:         linalg.generic
// CHECK:           arith.maxui
func.func @max_pool(%x: tensor<1x1x4xui8>) -> tensor<1x1x5xui8> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2>, strides = array<i64: 1>, pads = array<i64: 1, 1>, dilations = array<i64: 1>} : tensor<1x1x4xui8> -> tensor<1x1x5xui8>
  return %0 : tensor<1x1x5xui8>
}

// -----

// Unsigned constants keep their bits as signless constants; Clip's bounds
// are unsigned values (200 is -56 as i8) compared unsigned.
// CHECK-LABEL: func.func @constant_clip
// CHECK:         arith.constant dense<[-56, -1]> : tensor<2xi8>
// CHECK:         %[[LO:.*]] = arith.constant 10 : i8
// CHECK:         %[[HI:.*]] = arith.constant -56 : i8
// CHECK:         %[[M:.*]] = arith.maxui %{{.*}}, %[[LO]] : i8
// CHECK:         arith.minui %[[M]], %[[HI]] : i8
func.func @constant_clip(%x: tensor<2xui8>) -> tensor<2xui8> {
  %c = dlc.constant dense<[200, 255]> : tensor<2xui8>
  %0 = dlc.clip %x {min = 1.0e+01 : f64, max = 2.0e+02 : f64} : tensor<2xui8>
  %1 = dlc.add %0, %c : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %1 : tensor<2xui8>
}

// -----

// A dense_resource blob is retyped to signless, not copied.
// CHECK-LABEL: func.func @resource
// CHECK:         arith.constant dense_resource<blob1> : tensor<2xi8>
// CHECK:         arith.maxui
func.func @resource(%x: tensor<2xui8>) -> tensor<2xui8> {
  %c = dlc.constant dense_resource<blob1> : tensor<2xui8>
  %0 = dlc.max %x, %c : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x01000000C8FF"
    }
  }
#-}

// -----

// Relu of unsigned values is max(x, 0) unsigned (the identity); Abs is the
// identity.
// CHECK-LABEL: func.func @relu_abs
// CHECK:         arith.maxui
// CHECK-NOT:     math.absi
func.func @relu_abs(%x: tensor<2xui16>) -> tensor<2xui16> {
  %0 = dlc.relu %x : tensor<2xui16>
  %1 = dlc.abs %0 : tensor<2xui16>
  return %1 : tensor<2xui16>
}
