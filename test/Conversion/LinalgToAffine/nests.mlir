// RUN: dlc-opt --convert-linalg-to-affine-nests --split-input-file %s | FileCheck %s

// A matmul is a contraction over (i, j, k) with k the reduction; the record
// sits on the outermost loop only.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // CHECK:      affine.for %[[I:.*]] = 0 to 4 {
  // CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 16 {
  // CHECK-NEXT:     affine.for %[[K:.*]] = 0 to 8 {
  // CHECK-NOT:        dlc.nest
  // CHECK:            affine.load %{{.*}}[%[[I]], %[[K]]]
  // CHECK:      } {dlc.nest = {class = "contraction", loops = array<i64: 4, 16, 8>, maps = [#[[A]], #[[B]], #[[C]]], op = "matmul", reductions = array<i64: 2>}}
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// A strided, dilated convolution records its strides and dilations with the
// seven loops (n, f, oh, ow, c, kh, kw) and the three reductions.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5 * 3, d3 * 2 + d6 * 3)>
// CHECK-LABEL: func.func @conv_strided_dilated
func.func @conv_strided_dilated(%x: memref<1x3x20x20xf32>, %w: memref<8x3x3x3xf32>, %y: memref<1x8x7x7xf32>) {
  // CHECK: } {dlc.nest = {class = "convolution", dilations = array<i64: 3, 3>, loops = array<i64: 1, 8, 7, 7, 3, 3, 3>, maps = [#[[IN]], #{{.*}}, #{{.*}}], op = "conv_2d_nchw_fchw", reductions = array<i64: 4, 5, 6>, strides = array<i64: 2, 2>}}
  linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<3> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x20x20xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x7x7xf32>)
  return
}

// -----

// A max pooling window is a pooling, not a convolution, though both match
// the convolution interface.
// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: memref<1x4x8x8xf32>, %window: memref<2x2xf32>, %y: memref<1x4x4x4xf32>) {
  // CHECK: } {dlc.nest = {class = "pooling", dilations = array<i64: 1, 1>, loops = array<i64: 1, 4, 4, 4, 2, 2>, maps = [#{{.*}}, #{{.*}}, #{{.*}}], op = "pooling_nchw_max", reductions = array<i64: 4, 5>, strides = array<i64: 2, 2>}}
  linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%x, %window : memref<1x4x8x8xf32>, memref<2x2xf32>) outs(%y : memref<1x4x4x4xf32>)
  return
}

// -----

// An elementwise generic has no reduction loop.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @relu
func.func @relu(%x: memref<4x6xf32>, %y: memref<4x6xf32>) {
  // CHECK: } {dlc.nest = {class = "elementwise", loops = array<i64: 4, 6>, maps = [#[[ID]], #[[ID]]], op = "generic", reductions = array<i64>}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x6xf32>) outs(%y : memref<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A row sum is a reduction, and so is not elementwise.
// CHECK-LABEL: func.func @row_sum
func.func @row_sum(%x: memref<4x6xf32>, %y: memref<4xf32>) {
  // CHECK: } {dlc.nest = {class = "reduction", loops = array<i64: 4, 6>, maps = [#{{.*}}, #{{.*}}], op = "generic", reductions = array<i64: 1>}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x6xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Fills and copies are told apart from elementwise generics.
// CHECK-LABEL: func.func @fill_then_copy
func.func @fill_then_copy(%x: memref<3x5xf32>, %y: memref<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  // CHECK: } {dlc.nest = {class = "fill", loops = array<i64: 3, 5>, {{.*}}op = "fill", reductions = array<i64>}}
  linalg.fill ins(%zero : f32) outs(%x : memref<3x5xf32>)
  // CHECK: } {dlc.nest = {class = "copy", loops = array<i64: 3, 5>, {{.*}}op = "copy", reductions = array<i64>}}
  linalg.copy ins(%x : memref<3x5xf32>) outs(%y : memref<3x5xf32>)
  return
}

// -----

// A zero-dimensional op becomes straight-line code: no loop, no record.
// CHECK-LABEL: func.func @rank0
func.func @rank0(%x: memref<f32>, %y: memref<f32>) {
  // CHECK-NOT: affine.for
  // CHECK-NOT: dlc.nest
  // CHECK:     affine.load %{{.*}}[] : memref<f32>
  linalg.copy ins(%x : memref<f32>) outs(%y : memref<f32>)
  return
}

// -----

// Dynamic ranges lower to loops, but without a record: a description needs
// static trip counts.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  // CHECK:     affine.for
  // CHECK-NOT: dlc.nest
  // CHECK:     return
  linalg.copy ins(%x : memref<?xf32>) outs(%y : memref<?xf32>)
  return
}
