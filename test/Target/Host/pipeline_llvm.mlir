// RUN: dlc-opt --dlc-host-pipeline %s | FileCheck %s

// The host pipeline ends in the LLVM dialect: the entry takes inputs then
// outputs, math ops with an LLVM intrinsic use it (llvm.intr.exp), erf and
// log1p call libm (no approximation), and no affine, memref, math or linalg
// op is left.
// CHECK-DAG: llvm.func @erff(f32) -> f32
// CHECK-DAG: llvm.func @log1pf(f32) -> f32
// CHECK-LABEL: llvm.func @main
// CHECK-NOT: -> !llvm.struct
// CHECK: llvm.intr.exp
// CHECK: llvm.call @log1pf
// CHECK: llvm.call @erff
// CHECK: llvm.return
// CHECK-NOT: affine.
// CHECK-NOT: memref.
// CHECK-NOT: math.
// CHECK-NOT: linalg.
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.softplus %x : tensor<2x3xf32>
  %1 = dlc.erf %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
