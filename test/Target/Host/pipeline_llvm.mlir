// RUN: dlc-opt --dlc-host-pipeline --split-input-file %s | FileCheck %s

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

// -----

// Weights become flat LLVM arrays (one constant each, however many rows).
// CHECK: llvm.mlir.global private constant @{{.*}}(dense_resource<weights> : tensor<6xf32>) {{.*}} : !llvm.array<6 x f32>
// CHECK-LABEL: llvm.func @main
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = dlc.constant dense_resource<weights> : tensor<2x3xf32>
  %0 = dlc.mul %x, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
