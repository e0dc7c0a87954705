// RUN: not dlc-opt %s --split-input-file --dlc-inferentia-pipeline 2>&1 | FileCheck %s
// RUN: not dlc-opt %s --split-input-file --dlc-inferentia-pipeline="hw=psum_bank_bytes=0" 2>&1 | FileCheck %s --check-prefix=MACHINE

// The engines compute in float32: an integer tensor is refused, naming it.
// CHECK: error: inferentia: tensor 'x' of type 'memref<4xi32>': the engines compute on static float32 tensors only
func.func @integers(%x: tensor<4xi32> {dlc.name = "x"}) -> (tensor<4xi32> {dlc.name = "y"}) {
  %r = dlc.add %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> loc("add"("Add"))
  return %r : tensor<4xi32>
}

// -----

// An operation no engine has an instruction for, on its ONNX node.
// CHECK: error: loc("erf"("Erf")): inferentia: node 'erf' (Erf): math.erf has no engine instruction
func.func @erf(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %r = dlc.erf %x : tensor<4x8xf32> loc("erf"("Erf"))
  return %r : tensor<4x8xf32>
}

// -----

// A machine that contradicts itself is refused before anything is placed.
// MACHINE: error: {{.*}}psum_bank_bytes
func.func @machine(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %r = dlc.relu %x : tensor<4x8xf32> loc("relu"("Relu"))
  return %r : tensor<4x8xf32>
}
