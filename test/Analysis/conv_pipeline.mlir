// RUN: dlc-opt --split-input-file --dlc-to-affine-pipeline %s | dlc-opt --split-input-file --dlc-test-access-analysis=tile-sizes=1,2,2,2 -o /dev/null | FileCheck %s

// A 3x3 stride-2 conv with padding 1, as the host pipeline lowers it: a fill
// nest for the padded buffer, a copy of the input into its interior (a
// subview, resolved to the buffer), the output initialisation and the 7-deep
// conv nest. Tile 1x2x2x2 (one image, 2 output channels, 2x2 output pixels,
// all input channels and kernel taps), checked by hand: the padded input
// window is 3 channels x (2*2-1+3)^2 = 3x5x5 = 75 elements, the weights
// 2x3x3x3 = 54, the output 2x2x2 = 8. Seen through the copy, the conv reads
// the input at (2*oh + kh - 1, 2*ow + kw - 1) where that is inside it; the
// border comes from the fill nest, so the copy covers only part of the read.
// As an affine piece (simplified within the conv's loops) only the two
// lower-border conditions remain: the last window ends at 2*3 + 2 - 1 = 7,
// inside the input.
// CHECK-LABEL: nest 0 in @main: 4 loops, band depth 4
// CHECK: store [[PADDED:alloc]]: {{.*}} injective
// CHECK: footprint [[PADDED]]: 243 elements, 972 bytes, box 1x3x9x9 (243 elements, 972 bytes)
// CHECK: pure copy: no
// CHECK-LABEL: nest 1 in @main
// CHECK: load [[X:arg0]]: {{.*}}
// CHECK-NEXT: store subview: {{.*}} injective
// CHECK-NEXT: on [[PADDED]]: { [[S1:S[0-9]+]][[[N:[a-z0-9_]+]], [[C:[a-z0-9_]+]], [[H:[a-z0-9_]+]], [[W:[a-z0-9_]+]]] -> [[PADDED]][(0), ([[C]]), (1 + [[H]]), (1 + [[W]])] : [[N]] = 0 and 0 <= [[C]] <= 2 and 0 <= [[H]] <= 7 and 0 <= [[W]] <= 7 }
// CHECK: pure copy: yes
// CHECK-LABEL: nest 3 in @main: 7 loops, band depth 7
// CHECK: load [[PADDED]]: { [[S3:S[0-9]+]][[[N:[a-z0-9_]+]], [[OC:[a-z0-9_]+]], [[OH:[a-z0-9_]+]], [[OW:[a-z0-9_]+]], [[IC:[a-z0-9_]+]], [[KH:[a-z0-9_]+]], [[KW:[a-z0-9_]+]]] -> [[PADDED]][(0), ([[IC]]), (2[[OH]] + [[KH]]), (2[[OW]] + [[KW]])] :
// CHECK: load [[WEIGHTS:arg1]]: { [[S3]][{{.*}}] -> [[WEIGHTS]][([[OC]]), ([[IC]]), ([[KH]]), ([[KW]])] :
// CHECK: store [[OUT:arg2]]: {{.*}} not injective
// CHECK: footprint [[PADDED]]: 243 elements, 972 bytes, box 1x3x9x9 (243 elements, 972 bytes)
// CHECK: footprint [[WEIGHTS]]: 108 elements, 432 bytes, box 4x3x3x3 (108 elements, 432 bytes)
// CHECK: footprint [[OUT]]: 64 elements, 256 bytes, box 1x4x4x4 (64 elements, 256 bytes)
// CHECK: tile 1x2x2x2 footprint [[PADDED]]: 75 elements, 300 bytes, box 1x3x5x5 (75 elements, 300 bytes)
// CHECK: tile 1x2x2x2 footprint [[WEIGHTS]]: 54 elements, 216 bytes, box 2x3x3x3 (54 elements, 216 bytes)
// CHECK: tile 1x2x2x2 footprint [[OUT]]: 8 elements, 32 bytes, box 1x2x2x2 (8 elements, 32 bytes)
// CHECK: pure copy: no
// CHECK: nest 3 load [[PADDED]] through copy nest 1:
// CHECK-NEXT: from [[X]]: { [[S3]][{{.*}}] -> [[X]][(0), ([[IC]]), (-1 + 2[[OH]] + [[KH]]), (-1 + 2[[OW]] + [[KW]])] : {{.*}} } (1 affine piece)
// CHECK-NEXT: piece (d0, d1, d2, d3, d4, d5, d6) : (d3 * 2 + d6 - 1 >= 0, d2 * 2 + d5 - 1 >= 0): (d0, d1, d2, d3, d4, d5, d6) -> (0, d4, d2 * 2 + d5 - 1, d3 * 2 + d6 - 1)
// CHECK-NEXT: covers part of the read
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A 1x1 stride-2 conv reads every other row and column: the exact footprint
// (2 channels x 4 x 4 = 32 elements, and 2x2x2 = 8 per tile) is smaller than
// the bounding box a rectangular transfer moves (2x7x7 = 98, 2x3x3 = 18).
// CHECK-LABEL: nest 1 in @main: 7 loops, band depth 7
// CHECK: footprint [[X:arg0]]: 32 elements, 128 bytes, box 1x2x7x7 (98 elements, 392 bytes)
// CHECK: tile 1x2x2x2 footprint [[X]]: 8 elements, 32 bytes, box 1x2x3x3 (18 elements, 72 bytes)
func.func @main(%x: tensor<1x2x7x7xf32>, %w: tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32> {
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
