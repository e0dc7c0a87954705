// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// 2-D conv, one group: zero tensor.pad, the bias broadcast as the
// accumulator, linalg.conv_2d_nchw_fchw with strides and dilations.
// CHECK-LABEL: func.func @conv2d_bias
// CHECK-SAME: %[[X:.*]]: tensor<1x3x7x7xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 2] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: } : tensor<1x3x7x7xf32> to tensor<1x3x9x9xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x2xf32>
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xf32>) outs(%[[E]] : tensor<1x4x4x2xf32>) dimensions = [0, 2, 3]
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PAD]], %[[W]] : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x2xf32>)
// CHECK: return %[[C]]
func.func @conv2d_bias(%x: tensor<1x3x7x7xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x2xf32> {
  %0 = dlc.conv %x, %w, %b {dilations = array<i64: 1, 2>, group = 1 : i64, pads = array<i64: 1, 2, 1, 0>, strides = array<i64: 2, 3>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// End padding the last window never reads is not materialised, and no pad
// at all means no tensor.pad; without bias the accumulator is zero-filled.
// CHECK-LABEL: func.func @conv2d_unused_pad
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: outs(%[[INIT]] : tensor<1x1x2x2xf32>)
func.func @conv2d_unused_pad(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// 1-D and 3-D convs with one group use the NCW / NCDHW named ops.
// CHECK-LABEL: func.func @conv1d_conv3d
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
// CHECK: linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
func.func @conv1d_conv3d(%x: tensor<1x2x9xf32>, %w: tensor<3x2x3xf32>, %y: tensor<1x2x4x4x4xf32>, %v: tensor<3x2x2x2x2xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x3x3x3xf32>) {
  %0 = dlc.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads = array<i64: 0, 0>, strides = array<i64: 2>} : (tensor<1x2x9xf32>, tensor<3x2x3xf32>) -> tensor<1x3x4xf32>
  %1 = dlc.conv %y, %v {dilations = array<i64: 1, 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x3x3x3xf32>
  return %0, %1 : tensor<1x3x4xf32>, tensor<1x3x3x3x3xf32>
}

// -----

// Groups: the channels split into (group, per group) with expand_shape and
// linalg.conv_2d_ngchw_gfchw runs on the views; the bias is broadcast as
// (group, features per group).
// CHECK-LABEL: func.func @conv2d_groups
// CHECK-SAME: %[[X:.*]]: tensor<1x4x5x5xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>, %[[B:.*]]: tensor<6xf32>
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[GX:.*]] = tensor.expand_shape %[[PAD]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 7, 7]
// CHECK: %[[GW:.*]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK: %[[GB:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [2, 3]
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[GB]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<1x2x3x3x3xf32>) dimensions = [0, 3, 4]
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[GX]], %[[GW]] : tensor<1x2x2x7x7xf32>, tensor<2x3x2x3x3xf32>) outs(%[[INIT]] : tensor<1x2x3x3x3xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x3x3xf32> into tensor<1x6x3x3xf32>
// CHECK: return %[[R]]
func.func @conv2d_groups(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x3x3xf32> {
  %0 = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// -----

// Grouped 1-D conv runs as a 2-D grouped conv with a unit height.
// CHECK-LABEL: func.func @conv1d_groups
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 2, 2, 1, 9]
// CHECK: linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME: -> tensor<1x2x2x1x5xf32>
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x2x2x1x5xf32> into tensor<1x4x5xf32>
func.func @conv1d_groups(%x: tensor<1x4x9xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x5xf32> {
  %0 = dlc.conv %x, %w {dilations = array<i64: 2>, group = 2 : i64, pads = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x4x9xf32>, tensor<4x2x3xf32>) -> tensor<1x4x5xf32>
  return %0 : tensor<1x4x5xf32>
}

// -----

// Grouped 3-D conv has no named op: one generic whose input channel is
// (m floordiv features-per-group) * channels-per-group + c.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, (d1 floordiv 2) * 2 + d5, d2 * 2 + d6, d3 + d7, d4 + d8)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv3d_groups
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK: arith.addf %[[ACC]], %[[P]]
func.func @conv3d_groups(%x: tensor<1x4x5x4x4xf32>, %w: tensor<4x2x2x2x2xf32>) -> tensor<1x4x2x3x3xf32> {
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1, 1>, group = 2 : i64, pads = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 2, 1, 1>} : (tensor<1x4x5x4x4xf32>, tensor<4x2x2x2x2xf32>) -> tensor<1x4x2x3x3xf32>
  return %0 : tensor<1x4x2x3x3xf32>
}

// -----

// Gemm: transposed operands through linalg.transpose, linalg.matmul from
// zero, then alpha * AB + beta * C with C broadcast along the rows.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: %[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<5x4xf32>, %[[C:.*]]: tensor<5xf32>
// CHECK: %[[BT:.*]] = linalg.transpose ins(%[[B]] : tensor<5x4xf32>) outs(%{{.*}} : tensor<4x5xf32>) permutation = [1, 0]
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[BT]] : tensor<3x4xf32>, tensor<4x5xf32>) outs(%[[ACC]] : tensor<3x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}}} ins(%[[MM]], %[[C]] : tensor<3x5xf32>, tensor<5xf32>)
// CHECK: ^bb0(%[[P:.*]]: f32, %[[Q:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[SP:.*]] = arith.mulf %[[ALPHA]], %[[P]]
// CHECK: %[[BETA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[SQ:.*]] = arith.mulf %[[BETA]], %[[Q]]
// CHECK: arith.addf %[[SP]], %[[SQ]]
func.func @gemm(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = dlc.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_b = true} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Gemm without C and with alpha = 1 is the matmul alone.
// CHECK-LABEL: func.func @gemm_plain
// CHECK: %[[AT:.*]] = linalg.transpose
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[AT]], %{{.*}} : tensor<3x4xf32>, tensor<4x5xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[MM]]
func.func @gemm_plain(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = dlc.gemm %a, %b {trans_a = true} : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// MatMul with a 2-D right operand folds the left batch into the rows of
// one linalg.matmul.
// CHECK-LABEL: func.func @matmul_shared_rhs
// CHECK-SAME: %[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<4x5xf32>
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[ROWS]], %[[B]] : tensor<6x4xf32>, tensor<4x5xf32>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2]] output_shape [2, 3, 5]
// CHECK: return %[[R]]
func.func @matmul_shared_rhs(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = dlc.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Batch dimensions broadcast (linalg.broadcast), flatten into one and feed
// linalg.batch_matmul.
// CHECK-LABEL: func.func @matmul_batch_broadcast
// CHECK-SAME: %[[A:.*]]: tensor<2x1x3x4xf32>, %[[B:.*]]: tensor<5x4x2xf32>
// CHECK: %[[A3:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0], [1, 2], [3]] : tensor<2x1x3x4xf32> into tensor<2x3x4xf32>
// CHECK: %[[AB:.*]] = linalg.broadcast ins(%[[A3]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<2x5x3x4xf32>) dimensions = [1]
// CHECK: %[[AF:.*]] = tensor.collapse_shape %[[AB]] {{\[}}[0, 1], [2], [3]] : tensor<2x5x3x4xf32> into tensor<10x3x4xf32>
// CHECK: %[[BB:.*]] = linalg.broadcast ins(%[[B]] : tensor<5x4x2xf32>) outs(%{{.*}} : tensor<2x5x4x2xf32>) dimensions = [0]
// CHECK: %[[BF:.*]] = tensor.collapse_shape %[[BB]] {{\[}}[0, 1], [2], [3]] : tensor<2x5x4x2xf32> into tensor<10x4x2xf32>
// CHECK: %[[BMM:.*]] = linalg.batch_matmul ins(%[[AF]], %[[BF]] : tensor<10x3x4xf32>, tensor<10x4x2xf32>)
// CHECK: tensor.expand_shape %[[BMM]] {{\[}}[0, 1], [2], [3]] output_shape [2, 5, 3, 2]
func.func @matmul_batch_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %0 = dlc.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  return %0 : tensor<2x5x3x2xf32>
}

// -----

// 1-D operands get a unit dimension that the result drops again.
// CHECK-LABEL: func.func @matmul_vectors
// CHECK-SAME: %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>
// CHECK: %[[L:.*]] = tensor.expand_shape %[[A]] {{\[}}[0, 1]] output_shape [1, 4]
// CHECK: %[[R:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [4, 1]
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[L]], %[[R]] : tensor<1x4xf32>, tensor<4x1xf32>)
// CHECK: tensor.collapse_shape %[[MM]] [] : tensor<1x1xf32> into tensor<f32>
func.func @matmul_vectors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %0 = dlc.matmul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Integer matmul uses the same named op.
// CHECK-LABEL: func.func @matmul_int
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[Z]] : i32)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xi32>, tensor<3x2xi32>)
func.func @matmul_int(%a: tensor<2x3xi32>, %b: tensor<3x2xi32>) -> tensor<2x2xi32> {
  %0 = dlc.matmul %a, %b : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// ConvTranspose as a convolution: the input inserted with its strides into
// zeros padded by (k - 1) * dilation - pad, the filter flipped with its
// channel dimensions swapped, a stride-1 convolution.
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, -d2 + 2, -d3 + 2)>
// CHECK-LABEL: func.func @conv_transpose
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x2x7x7xf32>
// CHECK: %[[S:.*]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 0, 1, 1] [1, 2, 3, 3] [1, 1, 2, 2] : tensor<1x2x3x3xf32> into tensor<1x2x7x7xf32>
// CHECK: %[[F:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #{{.*}}]
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[S]], %[[F]] : tensor<1x2x7x7xf32>, tensor<4x2x3x3xf32>)
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %0 = dlc.conv_transpose %x, %w {dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x4x3x3xf32>) -> tensor<1x4x5x5xf32>
  return %0 : tensor<1x4x5x5xf32>
}

// -----

// Einsum is one generic: a loop per label, the output's first (parallel),
// then the summed ones (reduction); each input is read through its term.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @einsum_batch_matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.addf %{{.*}}, %[[P]]
func.func @einsum_batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = dlc.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A repeated label reads the diagonal; a size-1 dimension reads index 0.
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0, d1) -> (0, d1, d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_diagonal_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
func.func @einsum_diagonal_broadcast(%a: tensor<1x3x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.einsum %a, %b {equation = "Aii,Ai->Ai"} : (tensor<1x3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
