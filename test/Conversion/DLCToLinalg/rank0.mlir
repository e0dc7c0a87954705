// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// Rank-0 tensors through every lowering that takes them (softmax and concat
// need an axis, which a rank-0 tensor does not have).

// A rank-0 transpose has nothing to move: the input is forwarded (a
// linalg.transpose of rank 0 has no valid permutation map).
// CHECK-LABEL: func.func @transpose_rank0
// CHECK-SAME: %[[X:.*]]: tensor<f32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[X]] : tensor<f32>
func.func @transpose_rank0(%x: tensor<f32>) -> tensor<f32> {
  %0 = dlc.transpose %x {perm = array<i64>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Any identity permutation forwards the input.
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[X]] : tensor<2x3xf32>
func.func @transpose_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Reductions over no axes of a rank-0 tensor: a rank-0 generic with no
// iterators (mean divides by a count of 1).
// CHECK-DAG: #[[ID:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @reduce_rank0
// CHECK-SAME: %[[X:.*]]: tensor<f32>
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = []} ins(%[[X]] : tensor<f32>)
// CHECK: arith.addf
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = []} ins(%[[X]] : tensor<f32>)
// CHECK: arith.maximumf
// CHECK: %[[MEANSUM:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<f32>)
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[MEANSUM]] : tensor<f32>)
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.divf
// CHECK: return %[[SUM]], %[[MAX]], %[[MEAN]]
func.func @reduce_rank0(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = dlc.reduce_sum %x {axes = array<i64>} : tensor<f32> -> tensor<f32>
  %1 = dlc.reduce_max %x {axes = array<i64>, keepdims = false} : tensor<f32> -> tensor<f32>
  %2 = dlc.reduce_mean %x {axes = array<i64>} : tensor<f32> -> tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// A rank-0 slice is an extract_slice without offsets.
// CHECK-LABEL: func.func @slice_rank0
// CHECK-SAME: %[[X:.*]]: tensor<f32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][] [] [] : tensor<f32> to tensor<f32>
// CHECK: return %[[S]]
func.func @slice_rank0(%x: tensor<f32>) -> tensor<f32> {
  %0 = dlc.slice %x {starts = array<i64>, ends = array<i64>, steps = array<i64>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Rank-0 pads: constant mode pads nothing (the input is the result), edge
// mode reads the one element.
// CHECK-LABEL: func.func @pad_rank0
// CHECK-SAME: %[[X:.*]]: tensor<f32>
// CHECK: %[[EDGE:.*]] = linalg.generic {{.*}} iterator_types = []
// CHECK: tensor.extract %[[X]][] : tensor<f32>
// CHECK: return %[[X]], %[[EDGE]]
func.func @pad_rank0(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = dlc.pad %x {pads = array<i64>, value = 1.5 : f64} : tensor<f32> -> tensor<f32>
  %1 = dlc.pad %x {pads = array<i64>, mode = #dlc<pad_mode edge>} : tensor<f32> -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// A rank-0 tile is a rank-0 copy.
// CHECK-LABEL: func.func @tile_rank0
// CHECK-SAME: %[[X:.*]]: tensor<f32>
// CHECK: %[[T:.*]] = linalg.generic {{.*}} iterator_types = []} ins(%[[X]] : tensor<f32>)
// CHECK: return %[[T]]
func.func @tile_rank0(%x: tensor<f32>) -> tensor<f32> {
  %0 = dlc.tile %x {repeats = array<i64>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Expanding a rank-0 tensor: to rank 0 it is forwarded, to 2x3 it is a
// broadcast along both dimensions.
// CHECK-LABEL: func.func @expand_rank0
// CHECK-SAME: %[[X:.*]]: tensor<f32>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%[[X]] : tensor<f32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [0, 1]
// CHECK: return %[[X]], %[[B]]
func.func @expand_rank0(%x: tensor<f32>) -> (tensor<f32>, tensor<2x3xf32>) {
  %0 = dlc.expand %x : tensor<f32> -> tensor<f32>
  %1 = dlc.expand %x : tensor<f32> -> tensor<2x3xf32>
  return %0, %1 : tensor<f32>, tensor<2x3xf32>
}

// -----

// Gather with rank-0 indices drops the axis: from a vector the result is
// rank 0, from a matrix the indices are read through a map with no results.
// CHECK-DAG: #[[ID0:.*]] = affine_map<() -> ()>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @gather_rank0_indices
// CHECK-SAME: %[[V:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<i64>
// CHECK: linalg.generic {indexing_maps = [#[[ID0]], #[[ID0]]], iterator_types = []} ins(%[[I]] : tensor<i64>)
// CHECK: tensor.extract %[[V]][%{{.*}}] : tensor<3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #[[ROW]]], iterator_types = ["parallel"]} ins(%[[I]] : tensor<i64>)
// CHECK: %[[ROWIDX:.*]] = linalg.index 0 : index
// CHECK: tensor.extract %[[M]][%[[ROWIDX]], %{{.*}}] : tensor<2x3xf32>
func.func @gather_rank0_indices(%v: tensor<3xf32>, %m: tensor<2x3xf32>, %i: tensor<i64>) -> (tensor<f32>, tensor<2xf32>) {
  %0 = dlc.gather %v, %i {axis = 0 : i64} : (tensor<3xf32>, tensor<i64>) -> tensor<f32>
  %1 = dlc.gather %m, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2xf32>
  return %0, %1 : tensor<f32>, tensor<2xf32>
}
