// RUN: dlc-opt %s -canonicalize -split-input-file | FileCheck %s

// A concat feeding a concat along the same axis is spliced into it.
// CHECK-LABEL: func.func @concat_of_concat
// CHECK-SAME:    %[[A:[^:]*]]: tensor<1x2xf32>, %[[B:[^:]*]]: tensor<1x2xf32>, %[[C:[^:]*]]: tensor<1x2xf32>
// CHECK:         %[[R:.*]] = dlc.concat %[[A]], %[[B]], %[[C]], %[[A]] {axis = 0 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    return %[[R]]
func.func @concat_of_concat(%a: tensor<1x2xf32>, %b: tensor<1x2xf32>, %c: tensor<1x2xf32>) -> tensor<4x2xf32> {
  %0 = dlc.concat %b, %c {axis = 0 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %1 = dlc.concat %a, %0, %a {axis = 0 : i64} : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// -----

// Concats along different axes stay nested.
// CHECK-LABEL: func.func @concat_other_axis
// CHECK:         %[[INNER:.*]] = dlc.concat %{{.*}}, %{{.*}} {axis = 1 : i64}
// CHECK:         dlc.concat %{{.*}}, %[[INNER]] {axis = 0 : i64}
func.func @concat_other_axis(%a: tensor<1x4xf32>, %b: tensor<1x2xf32>) -> tensor<2x4xf32> {
  %0 = dlc.concat %b, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  %1 = dlc.concat %a, %0 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// Inputs that are empty along the axis are dropped; with one input left the concat disappears.
// CHECK-LABEL: func.func @concat_drop_empty
// CHECK-SAME:    %[[A:[^:]*]]: tensor<2x3xf32>, %[[E:[^:]*]]: tensor<2x0xf32>
// CHECK-NEXT:    return %[[A]]
func.func @concat_drop_empty(%a: tensor<2x3xf32>, %e: tensor<2x0xf32>) -> tensor<2x3xf32> {
  %0 = dlc.concat %e, %a, %e {axis = 1 : i64} : (tensor<2x0xf32>, tensor<2x3xf32>, tensor<2x0xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// When every input is empty one of them is kept.
// CHECK-LABEL: func.func @concat_all_empty
// CHECK:         dlc.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x0xf32>, tensor<2x0xf32>) -> tensor<2x0xf32>
func.func @concat_all_empty(%e: tensor<2x0xf32>, %f: tensor<2x0xf32>) -> tensor<2x0xf32> {
  %0 = dlc.concat %e, %f {axis = 1 : i64} : (tensor<2x0xf32>, tensor<2x0xf32>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// A chain of three transposes composes into one.
// CHECK-LABEL: func.func @transpose_chain
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4x5xf32>
// CHECK:         %[[T:.*]] = dlc.transpose %[[X]] {perm = array<i64: 0, 2, 3, 1>} : tensor<2x3x4x5xf32> -> tensor<2x4x5x3xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_chain(%x: tensor<2x3x4x5xf32>) -> tensor<2x4x5x3xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 3, 2, 1, 0>} : tensor<2x3x4x5xf32> -> tensor<5x4x3x2xf32>
  %1 = dlc.transpose %0 {perm = array<i64: 3, 0, 1, 2>} : tensor<5x4x3x2xf32> -> tensor<2x5x4x3xf32>
  %2 = dlc.transpose %1 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x5x4x3xf32> -> tensor<2x4x5x3xf32>
  return %2 : tensor<2x4x5x3xf32>
}

// -----

// Unsqueeze then squeeze (two reshapes) is the input.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-SAME:    %[[X:.*]]: tensor<3x4xf32>
// CHECK-NEXT:    return %[[X]]
func.func @reshape_round_trip(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = dlc.reshape %x : tensor<3x4xf32> -> tensor<1x3x1x4xf32>
  %1 = dlc.reshape %0 : tensor<1x3x1x4xf32> -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// A transpose of a reshape is not a reshape: both stay.
// CHECK-LABEL: func.func @reshape_transpose_kept
// CHECK:         dlc.reshape
// CHECK:         dlc.transpose
func.func @reshape_transpose_kept(%x: tensor<6xf32>) -> tensor<3x2xf32> {
  %0 = dlc.reshape %x : tensor<6xf32> -> tensor<2x3xf32>
  %1 = dlc.transpose %0 {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// Identity and Dropout in a chain with real work: only the work remains.
// CHECK-LABEL: func.func @identity_chain
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = dlc.relu %[[X]] : tensor<4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @identity_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.identity %x : tensor<4xf32>
  %1 = dlc.dropout %0 : tensor<4xf32>
  %2 = dlc.relu %1 : tensor<4xf32>
  %3 = dlc.identity %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
