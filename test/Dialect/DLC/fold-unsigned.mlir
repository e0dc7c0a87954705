// RUN: dlc-opt %s -canonicalize -split-input-file | FileCheck %s

// Unsigned values >= 2^(w-1) keep their meaning when cast: ui8 200 is 200.0 and extends to i16 200, not -56.
// CHECK-LABEL: func.func @cast_unsigned
// CHECK-DAG:     dlc.constant dense<[2.000000e+02, 2.550000e+02]> : tensor<2xf32>
// CHECK-DAG:     dlc.constant dense<[200, 255]> : tensor<2xi16>
// CHECK-DAG:     dlc.constant dense<[-56, -1]> : tensor<2xi8>
// CHECK-DAG:     dlc.constant dense<1.84467441E+19> : tensor<1xf32>
// CHECK-NOT:     dlc.cast
func.func @cast_unsigned() -> (tensor<2xf32>, tensor<2xi16>, tensor<2xi8>, tensor<1xf32>) {
  %u = dlc.constant dense<[200, 255]> : tensor<2xui8>
  %big = dlc.constant dense<18446744073709551615> : tensor<1xui64>
  %0 = dlc.cast %u : tensor<2xui8> -> tensor<2xf32>
  %1 = dlc.cast %u : tensor<2xui8> -> tensor<2xi16>
  %2 = dlc.cast %u : tensor<2xui8> -> tensor<2xi8>
  %3 = dlc.cast %big : tensor<1xui64> -> tensor<1xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xi16>, tensor<2xi8>, tensor<1xf32>
}

// -----

// Unsigned arithmetic wraps modulo 2^w and divides unsigned: 200 / 3 is 66 (as i8, -56 / 3 would be -18).
// CHECK-LABEL: func.func @arith_unsigned
// CHECK-DAG:     dlc.constant dense<[44, 144]> : tensor<2xui8>
// CHECK-DAG:     dlc.constant dense<[66, 0]> : tensor<2xui8>
// CHECK-DAG:     dlc.constant dense<[56, 0]> : tensor<2xui8>
// CHECK-NOT:     dlc.add
// CHECK-NOT:     dlc.div
// CHECK-NOT:     dlc.neg
func.func @arith_unsigned() -> (tensor<2xui8>, tensor<2xui8>, tensor<2xui8>) {
  %a = dlc.constant dense<[200, 16]> : tensor<2xui8>
  %b = dlc.constant dense<[100, 128]> : tensor<2xui8>
  %c = dlc.constant dense<[3, 128]> : tensor<2xui8>
  %z = dlc.constant dense<[200, 0]> : tensor<2xui8>
  %0 = dlc.add %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %1 = dlc.div %z, %c : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %2 = dlc.neg %z : tensor<2xui8>
  return %0, %1, %2 : tensor<2xui8>, tensor<2xui8>, tensor<2xui8>
}
