// RUN: not dlc-opt %s --split-input-file --dlc-inferentia-pipeline 2>&1 | FileCheck %s
// RUN: not dlc-opt %s --split-input-file --dlc-inferentia-lower 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not dlc-opt %s --split-input-file --dlc-inferentia-pipeline="hw=psum_bank_bytes=0" 2>&1 | FileCheck %s --check-prefix=MACHINE

// The engines compute in float32: an integer tensor is refused, naming it.
// CHECK: error: inferentia: tensor 'x' of type 'memref<4xi32>': the engines compute on static float32 tensors only
func.func @integers(%x: tensor<4xi32> {dlc.name = "x"}) -> (tensor<4xi32> {dlc.name = "y"}) {
  %r = dlc.add %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> loc("add"("Add"))
  return %r : tensor<4xi32>
}

// -----

// An operation no engine has an instruction for, on its ONNX node (the
// pass alone, on affine IR written by hand).
// PASS: error: inferentia: node 'sine' (Sin): math.sin has no engine instruction
module attributes {dlc.entry = {arg_attrs = [{dlc.name = "x"}], function = "main", res_attrs = [{dlc.name = "y"}], type = (tensor<8xf32>) -> tensor<8xf32>}} {
  func.func @main(%x: memref<8xf32>, %y: memref<8xf32>) {
    affine.for %i = 0 to 8 {
      %v = affine.load %x[%i] : memref<8xf32>
      %s = math.sin %v : f32
      affine.store %s, %y[%i] : memref<8xf32>
    } loc("sine"("Sin"))
    return
  }
}

// -----

// A machine that contradicts itself is refused before anything is placed.
// MACHINE: error: {{.*}}psum_bank_bytes
func.func @machine(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %r = dlc.relu %x : tensor<4x8xf32> loc("relu"("Relu"))
  return %r : tensor<4x8xf32>
}
