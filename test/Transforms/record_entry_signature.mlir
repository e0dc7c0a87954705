// RUN: dlc-opt %s --split-input-file --dlc-record-entry-signature --verify-diagnostics | FileCheck %s

// The ONNX names move from the entry to the module's record of the tensor
// signature (no lowering after this point has a place for them).
// CHECK-LABEL: module attributes {dlc.entry = {arg_attrs = [{dlc.name = "a"}, {dlc.name = "b"}], function = "main", res_attrs = [{dlc.name = "y"}], type = (tensor<2x3xf32>, tensor<3xi64>) -> tensor<2x3xf32>}}
// CHECK: func.func @main(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3xi64>) -> tensor<2x3xf32> {
func.func @main(%a: tensor<2x3xf32> {dlc.name = "a"}, %b: tensor<3xi64> {dlc.name = "b"})
    -> (tensor<2x3xf32> {dlc.name = "y"}) {
  return %a : tensor<2x3xf32>
}

// -----

// Without @main, the only function with a body is the entry.
// CHECK-LABEL: module attributes {dlc.entry = {function = "only", type = (tensor<4xf32>) -> tensor<4xf32>}}
// CHECK: func.func private @helper(tensor<4xf32>) -> tensor<4xf32>
func.func private @helper(tensor<4xf32>) -> tensor<4xf32>
func.func @only(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Two candidates and no @main: there is no entry.
// expected-error @+1 {{no entry function: expected @main or exactly one function with a body}}
module {
  func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// A dynamically shaped input cannot be passed by any executor.
// expected-error @+1 {{input 0 has type 'tensor<?xf32>'; only statically shaped tensors can be passed}}
func.func @main(%x: tensor<?xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Nor can a non-tensor result.
// expected-error @+1 {{output 0 has type 'f32'; only statically shaped tensors can be passed}}
func.func @main(%x: tensor<4xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}

// -----

// Nor an element type without an ElementKind.
// expected-error @+1 {{input 0 has unsupported element type 'bf16'}}
func.func @main(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  return %x : tensor<4xbf16>
}
