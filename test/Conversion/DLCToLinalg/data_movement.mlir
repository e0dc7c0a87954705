// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// Constants become arith.constant; a dense_resource blob is kept as it is.
// CHECK-LABEL: func.func @constants
// CHECK: %[[W:.*]] = arith.constant dense_resource<weights> : tensor<2xf32>
// CHECK: %[[C:.*]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK: return %[[W]], %[[C]]
func.func @constants() -> (tensor<2xf32>, tensor<2xi64>) {
  %0 = dlc.constant dense_resource<weights> : tensor<2xf32>
  %1 = dlc.constant dense<[1, 2]> : tensor<2xi64>
  return %0, %1 : tensor<2xf32>, tensor<2xi64>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Identity and Dropout forward their operand; Shape is a constant.
// CHECK-LABEL: func.func @identity_dropout_shape
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>
// CHECK: %[[S:.*]] = arith.constant dense<[3, 4]> : tensor<2xi64>
// CHECK: return %[[X]], %[[X]], %[[S]]
func.func @identity_dropout_shape(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) {
  %0 = dlc.identity %x : tensor<2x3x4xf32>
  %1 = dlc.dropout %x {ratio = 0.3 : f32} : tensor<2x3x4xf32>
  %2 = dlc.shape %x {start = -2 : i64} : tensor<2x3x4xf32> -> tensor<2xi64>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>
}

// -----

// Reshape: one collapse_shape or expand_shape when the dims group, else a
// collapse to 1-D and an expand.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>
// CHECK: %[[A:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: %[[B:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2], [3]] output_shape [1, 2, 3, 4]
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK: %[[C:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [4, 6]
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<1x2x3x4xf32>, tensor<4x6xf32>) {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<1x2x3x4xf32>
  %2 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<4x6xf32>
  return %0, %1, %2 : tensor<6x4xf32>, tensor<1x2x3x4xf32>, tensor<4x6xf32>
}

// -----

// Transpose is linalg.transpose with the same permutation.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi64>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xi64>
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x3x4xi64>) outs(%[[E]] : tensor<4x2x3xi64>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xi64>) -> tensor<4x2x3xi64> {
  %0 = dlc.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
  return %0 : tensor<4x2x3xi64>
}

// -----

// Concat inserts each input at its offset; empty inputs are skipped.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x0xf32>, %[[C:.*]]: tensor<2x1xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK-NOT: %[[B]]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[C]] into %[[I0]][0, 3] [2, 1] [1, 1]
// CHECK: return %[[I1]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x0xf32>, %c: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = dlc.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Positive steps: a strided extract_slice.
// CHECK-LABEL: func.func @slice_strided
// CHECK: tensor.extract_slice %{{.*}}[1, 0, 1] [1, 2, 2] [1, 2, 2] : tensor<2x3x4xf32> to tensor<1x2x2xf32>
func.func @slice_strided(%x: tensor<2x3x4xf32>) -> tensor<1x2x2xf32> {
  %0 = dlc.slice %x {starts = array<i64: 1, 0, 1>, ends = array<i64: 2, 3, 4>, steps = array<i64: 1, 2, 2>} : tensor<2x3x4xf32> -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// Negative steps: a copy generic reading start + step * i through its map.
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1, d2) -> (d0, -d1 + 2, d2 * -2 + 3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @slice_reversed
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[V]]
func.func @slice_reversed(%x: tensor<2x3x4xf32>) -> tensor<2x3x2xf32> {
  %0 = dlc.slice %x {starts = array<i64: 0, 2, 3>, ends = array<i64: 2, -1, 0>, steps = array<i64: 1, -1, -2>} : tensor<2x3x4xf32> -> tensor<2x3x2xf32>
  return %0 : tensor<2x3x2xf32>
}

// -----

// Gather with runtime indices: the indices are read at the result dims they
// occupy; negative ones wrap, all are clamped, and tensor.extract reads data.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: %[[DATA:.*]]: tensor<2x3x4xf32>, %[[IND:.*]]: tensor<2x2xi64>
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OUT]]], {{.*}}} ins(%[[IND]] : tensor<2x2xi64>)
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[II:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[SIZE:.*]] = arith.constant 3 : index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[II]], %[[ZERO]]
// CHECK: %[[WRAP:.*]] = arith.addi %[[II]], %[[SIZE]]
// CHECK: %[[SEL:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[II]]
// CHECK-DAG: %[[LOW:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 2 : index
// CHECK: %[[LO:.*]] = arith.maxsi %[[SEL]], %[[LOW]]
// CHECK: %[[CL:.*]] = arith.minsi %[[LO]], %[[LAST]]
// CHECK: %[[D0:.*]] = linalg.index 0
// CHECK: %[[D3:.*]] = linalg.index 3
// CHECK: %[[V:.*]] = tensor.extract %[[DATA]][%[[D0]], %[[CL]], %[[D3]]]
// CHECK: linalg.yield %[[V]]
func.func @gather(%x: tensor<2x3x4xf32>, %i: tensor<2x2xi64>) -> tensor<2x2x2x4xf32> {
  %0 = dlc.gather %x, %i {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x2xi64>) -> tensor<2x2x2x4xf32>
  return %0 : tensor<2x2x2x4xf32>
}

// -----

// Constant Pad: negative pads crop first (extract_slice), positive ones are
// a tensor.pad with the value converted to the element type.
// CHECK-LABEL: func.func @pad_constant
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi32>
// CHECK: %[[CROP:.*]] = tensor.extract_slice %[[X]][0, 0, 1] [2, 3, 3] [1, 1, 1]
// CHECK: %[[V:.*]] = arith.constant 7 : i32
// CHECK: tensor.pad %[[CROP]] low[0, 1, 0] high[1, 0, 2]
// CHECK: tensor.yield %[[V]]
// CHECK: } : tensor<2x3x3xi32> to tensor<3x4x5xi32>
func.func @pad_constant(%x: tensor<2x3x4xi32>) -> tensor<3x4x5xi32> {
  %0 = dlc.pad %x {pads = array<i64: 0, 1, -1, 1, 0, 2>, value = 7.0 : f64} : tensor<2x3x4xi32> -> tensor<3x4x5xi32>
  return %0 : tensor<3x4x5xi32>
}

// -----

// Reflect Pad: each padded dim mirrors i - pad into range (-i before the
// start, 2 * (n - 1) - i after the end); unpadded dims read i.
// CHECK-LABEL: func.func @pad_reflect
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x6xf32>)
// CHECK: %[[I0:.*]] = linalg.index 0
// CHECK: %[[I1:.*]] = linalg.index 1
// CHECK: %[[P:.*]] = arith.constant 2 : index
// CHECK: %[[S:.*]] = arith.subi %[[I1]], %[[P]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[LAST:.*]] = arith.constant 2 : index
// CHECK: %[[BEFORE:.*]] = arith.cmpi slt, %[[S]], %[[ZERO]]
// CHECK: %[[NEGS:.*]] = arith.subi %[[ZERO]], %[[S]]
// CHECK: %[[M:.*]] = arith.select %[[BEFORE]], %[[NEGS]], %[[S]]
// CHECK: %[[AFTER:.*]] = arith.cmpi sgt, %[[M]], %[[LAST]]
// CHECK: %[[TWICE:.*]] = arith.constant 4 : index
// CHECK: %[[MIR:.*]] = arith.subi %[[TWICE]], %[[M]]
// CHECK: %[[SRC:.*]] = arith.select %[[AFTER]], %[[MIR]], %[[M]]
// CHECK: tensor.extract %[[X]][%[[I0]], %[[SRC]]]
func.func @pad_reflect(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %0 = dlc.pad %x {pads = array<i64: 0, 2, 0, 1>, mode = #dlc<pad_mode reflect>} : tensor<2x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// Edge Pad clamps i - pad into [0, n - 1].
// CHECK-LABEL: func.func @pad_edge
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[S:.*]] = arith.subi %[[I]], %{{.*}}
// CHECK: %[[LO:.*]] = arith.maxsi %[[S]], %{{.*}}
// CHECK: %[[CL:.*]] = arith.minsi %[[LO]], %{{.*}}
// CHECK: tensor.extract %{{.*}}[%[[CL]]]
func.func @pad_edge(%x: tensor<3xf32>) -> tensor<7xf32> {
  %0 = dlc.pad %x {pads = array<i64: 1, 3>, mode = #dlc<pad_mode edge>} : tensor<3xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// Expand drops the broadcast unit dims and runs linalg.broadcast.
// CHECK-LABEL: func.func @expand
// CHECK-SAME: %[[X:.*]]: tensor<3x1xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK: linalg.broadcast ins(%[[C]] : tensor<3xf32>) outs(%{{.*}} : tensor<2x3x4xf32>) dimensions = [0, 2]
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Tile reads index i mod n in each repeated dim.
// CHECK-DAG: #[[MOD:.*]] = affine_map<(d0, d1, d2) -> (d0 mod 2, d1, d2 mod 4)>
// CHECK-LABEL: func.func @tile
// CHECK: linalg.generic {indexing_maps = [#[[MOD]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x3x12xf32>)
func.func @tile(%x: tensor<2x3x4xf32>) -> tensor<4x3x12xf32> {
  %0 = dlc.tile %x {repeats = array<i64: 2, 1, 3>} : tensor<2x3x4xf32> -> tensor<4x3x12xf32>
  return %0 : tensor<4x3x12xf32>
}

// -----

// Data movement works for any element type, bool included.
// CHECK-LABEL: func.func @bool_movement
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xi1>)
func.func @bool_movement(%x: tensor<2x3xi1>) -> tensor<3x2xi1> {
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xi1> -> tensor<3x2xi1>
  return %0 : tensor<3x2xi1>
}

// -----

// Resize, linear, half_pixel: per resized dimension the source coordinate
// (x + 0.5) / scale - 0.5 in f64, its floor and ratio, two edge-clamped
// neighbours read with tensor.extract; dimensions that keep their size
// keep their index.
// CHECK-LABEL: func.func @resize_linear
// CHECK: linalg.generic
// CHECK: %[[I2:.*]] = linalg.index 2
// CHECK: %[[I3:.*]] = linalg.index 3
// CHECK: arith.sitofp %{{.*}} : i64 to f64
// CHECK: math.floor %{{.*}} : f64
// CHECK: arith.maxsi
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x1x2x4xf32>
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @resize_linear(%x: tensor<1x1x2x4xf32>) -> tensor<1x1x4x8xf32> {
  %0 = dlc.resize %x {coordinate_transformation_mode = "half_pixel", mode = "linear", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x4xf32>) -> tensor<1x1x4x8xf32>
  return %0 : tensor<1x1x4x8xf32>
}

// -----

// Nearest with run-time scales: the scale is read from the operand; the
// element is copied, no arithmetic on it.
// CHECK-LABEL: func.func @resize_nearest_dynamic
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<4xf32>
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: %[[V:.*]] = tensor.extract %{{.*}} : tensor<1x1x2x2xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
func.func @resize_nearest_dynamic(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x6xf32> {
  %0 = dlc.resize %x, %s {coordinate_transformation_mode = "asymmetric", mode = "nearest", nearest_mode = "floor"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x6xf32>
  return %0 : tensor<1x1x4x6xf32>
}

// -----

// GatherElements: each element reads data at its own position with the
// axis coordinate from indices (negative ones wrap, the rest clamped).
// CHECK-LABEL: func.func @gather_elements
// CHECK: linalg.generic
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[IDX:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: arith.cmpi slt, %[[IDX]]
// CHECK: %[[C:.*]] = arith.minsi
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: tensor.extract %{{.*}}[%[[C]], %[[J]]] : tensor<3x3xf32>
func.func @gather_elements(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = dlc.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// GatherND reads each coordinate of the tuple with tensor.extract (wrapped,
// clamped), then the data element.
// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME: %[[DATA:.*]]: tensor<2x3x4xf32>, %[[IND:.*]]: tensor<2x1xi64>
// CHECK: linalg.generic {{.*}} outs(
// CHECK: %[[B:.*]] = linalg.index 0
// CHECK: %[[RAW:.*]] = tensor.extract %[[IND]][%[[B]], %{{.*}}]
// CHECK: arith.index_cast %[[RAW]]
// CHECK: %[[CL:.*]] = arith.minsi
// CHECK: %[[IN:.*]] = linalg.index 1
// CHECK: tensor.extract %[[DATA]][%[[B]], %[[CL]], %[[IN]]]
func.func @gather_nd(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %0 = dlc.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ScatterElements is a reduction into the data over a loop along the axis;
// indices smaller than the data are padded with an index that lands nowhere
// (the axis length), updates with 0.
// CHECK-DAG: #[[UPD:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @scatter_elements
// CHECK-SAME: %[[DATA:.*]]: tensor<2x3xf32>
// CHECK: %[[NOWHERE:.*]] = arith.constant 3 : i64
// CHECK: %[[IND:.*]] = tensor.pad %{{.*}} low[0, 0] high[1, 0]
// CHECK: tensor.yield %[[NOWHERE]]
// CHECK: %[[UPDATES:.*]] = tensor.pad
// CHECK: linalg.generic {indexing_maps = [#[[UPD]], #[[UPD]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[IND]], %[[UPDATES]] : tensor<2x2xi64>, tensor<2x2xf32>) outs(%[[DATA]] : tensor<2x3xf32>)
// CHECK: %[[AXIS:.*]] = linalg.index 1
// CHECK: %[[HERE:.*]] = arith.cmpi eq, %{{.*}}, %[[AXIS]]
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: arith.select %[[HERE]], %[[SUM]]
func.func @scatter_elements(%x: tensor<2x3xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> tensor<2x3xf32> {
  %0 = dlc.scatter_elements %x, %i, %u {axis = 1 : i64, reduction = "add"} : (tensor<2x3xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ScatterND: a reduction into the data over the update tuples; a tuple
// lands where its coordinates equal the position's first ones.
// CHECK-DAG: #[[UPD:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @scatter_nd
// CHECK-SAME: %[[IND:[^:]*]]: tensor<2x1xi64>
// CHECK: linalg.generic {indexing_maps = [#[[UPD]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[U:.*]] = linalg.index 2
// CHECK: tensor.extract %[[IND]][%[[U]], %{{.*}}]
// CHECK: %[[ROW:.*]] = linalg.index 0
// CHECK: %[[HERE:.*]] = arith.cmpi eq, %{{.*}}, %[[ROW]]
// CHECK: arith.select %[[HERE]]
func.func @scatter_nd(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = dlc.scatter_nd %x, %i, %u : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// OneHot reads the index away from the axis and the two values through
// constant maps.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[OFF:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG: #[[ON:.*]] = affine_map<(d0, d1) -> (1)>
// CHECK-LABEL: func.func @one_hot
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OFF]], #[[ON]], #{{.*}}]
// CHECK: ^bb0(%{{.*}}: i64, %[[OFFV:.*]]: f32, %[[ONV:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[HOT:.*]] = arith.cmpi eq
// CHECK: arith.select %[[HOT]], %[[ONV]], %[[OFFV]]
func.func @one_hot(%i: tensor<2xi64>, %v: tensor<2xf32>) -> tensor<2x5xf32> {
  %0 = dlc.one_hot %i, %v {axis = 1 : i64} : (tensor<2xi64>, tensor<2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Resize, tf_crop_and_resize: the output maps onto the roi box (here rows
// 0.4 to 0.6 and columns 0.6 to 0.8 of a 4x4 input: 1.2 + x * 0.3 and
// 1.8 + x * 0.3); a source outside the input gives extrapolation_value.
// CHECK-LABEL: func.func @resize_crop
// CHECK: arith.constant 0.29999{{[0-9]*}} : f64
// CHECK: arith.constant 1.2000{{[0-9]*}} : f64
// CHECK: %[[LAST:.*]] = arith.constant 3.000000e+00 : f64
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %{{.*}}, %[[LAST]]
// CHECK: %[[BELOW:.*]] = arith.cmpf olt
// CHECK: arith.ori %[[BELOW]], %[[ABOVE]]
// CHECK: arith.constant 1.7999{{[0-9]*}} : f64
// CHECK: %[[EXTRAPOLATION:.*]] = arith.constant 1.000000e+01 : f32
// CHECK: arith.select %{{.*}}, %[[EXTRAPOLATION]], %{{.*}} : f32
func.func @resize_crop(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %0 = dlc.resize %x {coordinate_transformation_mode = "tf_crop_and_resize", mode = "linear", scales = array<f64: 1.0, 1.0, 0.75, 0.75>, roi = array<f64: 0.0, 0.0, 0.4, 0.6, 1.0, 1.0, 0.6, 0.8>, extrapolation_value = 10.0 : f32} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// ReverseSequence: the length is read at the batch index; steps below it
// read length - 1 - t, the others their own step (clamped).
// CHECK-DAG: #[[LEN:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @reverse_sequence
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[LEN]], #{{.*}}]
// CHECK: %[[T:.*]] = linalg.index 0
// CHECK: %[[B:.*]] = linalg.index 1
// CHECK: %[[L:.*]] = arith.index_cast
// CHECK: %[[LAST:.*]] = arith.subi %[[L]], %{{.*}}
// CHECK: %[[REV:.*]] = arith.subi %[[LAST]], %[[T]]
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[T]], %[[L]]
// CHECK: %[[SRC:.*]] = arith.select %[[IN]], %[[REV]], %[[T]]
// CHECK: %[[CL:.*]] = arith.minsi
// CHECK: tensor.extract %[[X]][%[[CL]], %[[B]]]
func.func @reverse_sequence(%x: tensor<4x3xf32>, %l: tensor<3xi64>) -> tensor<4x3xf32> {
  %0 = dlc.reverse_sequence %x, %l {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
