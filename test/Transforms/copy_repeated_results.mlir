// RUN: dlc-opt --dlc-copy-repeated-results --split-input-file %s | FileCheck %s

// A value returned twice: the second result becomes a copy of its own.
// CHECK-LABEL: func.func @same_twice
// CHECK: %[[RELU:.*]] = dlc.relu
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[RELU]]) : tensor<2xf32>
// CHECK: return %[[RELU]], %[[COPY]]
func.func @same_twice(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = dlc.relu %x : tensor<2xf32>
  return %0, %0 : tensor<2xf32>, tensor<2xf32>
}

// -----

// A returned argument and a returned constant, each twice: every repeat gets
// its own copy, the first occurrences stay as they are.
// CHECK-LABEL: func.func @argument_and_constant
// CHECK-SAME: %[[X:.*]]: tensor<2xf32>
// CHECK: %[[CST:.*]] = arith.constant
// CHECK: %[[XCOPY:.*]] = bufferization.alloc_tensor() copy(%[[X]])
// CHECK: %[[CSTCOPY:.*]] = bufferization.alloc_tensor() copy(%[[CST]])
// CHECK: return %[[X]], %[[XCOPY]], %[[CST]], %[[CSTCOPY]]
func.func @argument_and_constant(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %cst = arith.constant dense<1.0> : tensor<2xf32>
  return %x, %x, %cst, %cst : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Distinct values and repeated scalars are left alone.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: return
func.func @distinct(%x: tensor<2xf32>, %i: index) -> (tensor<2xf32>, tensor<2xf32>, index, index) {
  %0 = dlc.relu %x : tensor<2xf32>
  return %x, %0, %i, %i : tensor<2xf32>, tensor<2xf32>, index, index
}
