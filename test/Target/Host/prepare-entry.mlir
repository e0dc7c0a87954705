// RUN: dlc-opt %s --split-input-file --dlc-host-prepare-entry --verify-diagnostics | FileCheck %s

// The entry gets the C interface.
// CHECK-LABEL: func.func @main
// CHECK-SAME: attributes {llvm.emit_c_interface}
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %a : tensor<2x3xf32>
}

// -----

// Without @main, the only function with a body is the entry.
// CHECK: func.func private @helper(tensor<4xf32>) -> tensor<4xf32>{{$}}
// CHECK: func.func @only({{.*}}) -> tensor<4xf32> attributes {llvm.emit_c_interface}
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
