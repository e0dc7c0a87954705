// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file %s | FileCheck %s

// ReduceMean: one reduction generic over the listed axes from zero, the
// division by the element count, and an expand_shape back to keepdims.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @reduce_mean
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[RED]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[ACC]] : tensor<2xf32>)
// CHECK: ^bb0(%[[V:.*]]: f32, %[[A:.*]]: f32):
// CHECK: arith.addf %[[V]], %[[A]]
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2xf32>)
// CHECK: %[[COUNT:.*]] = arith.constant 1.200000e+01 : f32
// CHECK: arith.divf %{{.*}}, %[[COUNT]]
// CHECK: %[[R:.*]] = tensor.expand_shape %[[MEAN]] {{\[}}[0, 1, 2]] output_shape [2, 1, 1]
// CHECK: return %[[R]]
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %0 = dlc.reduce_mean %x {axes = array<i64: 1, 2>} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

// ReduceMax starts from -inf (floats) and ReduceMin from the largest integer;
// without keepdims the reduced dims are simply gone.
// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @reduce_max_min
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[RED]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: %[[IMAX:.*]] = arith.constant 2147483647 : i32
// CHECK: linalg.fill ins(%[[IMAX]] : i32)
// CHECK: arith.minsi
func.func @reduce_max_min(%x: tensor<2x3x4xf32>, %y: tensor<2x3xi32>) -> (tensor<3xf32>, tensor<2xi32>) {
  %0 = dlc.reduce_max %x {axes = array<i64: 0, 2>, keepdims = false} : tensor<2x3x4xf32> -> tensor<3xf32>
  %1 = dlc.reduce_min %y {axes = array<i64: 1>, keepdims = false} : tensor<2x3xi32> -> tensor<2xi32>
  return %0, %1 : tensor<3xf32>, tensor<2xi32>
}

// -----

// ReduceSum over every axis with keepdims ends in a rank-0 accumulator.
// CHECK-LABEL: func.func @reduce_sum_all
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: tensor.expand_shape %[[S]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reduce_sum_all(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = dlc.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// Softmax subtracts the max along the axis before exp (numerically stable),
// then divides by the sum; both reductions come back in keepdims form.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[KEEP:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]]
// CHECK: arith.maximumf
// CHECK: %[[MAXK:.*]] = tensor.expand_shape %[[MAX]] {{\[}}[0, 1]] output_shape [2, 1]
// CHECK: %[[EXP:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEEP]], #[[ID]]], {{.*}}} ins(%[[X]], %[[MAXK]] : tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK: %[[D:.*]] = arith.subf
// CHECK: math.exp %[[D]]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK: %[[SUMK:.*]] = tensor.expand_shape %[[SUM]]
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUMK]] : tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.softmax %x {axis = 1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// LogSoftmax is (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func.func @log_softmax
// CHECK: arith.maximumf
// CHECK: %[[SHIFTED:.*]] = linalg.generic
// CHECK: arith.subf
// CHECK-NOT: math.exp
// CHECK: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[SHIFTED]] : tensor<3x2xf32>)
// CHECK: %[[E:.*]] = math.exp
// CHECK: arith.addf %[[E]]
// CHECK: linalg.generic
// CHECK: %[[L:.*]] = math.log
// CHECK: arith.subf %{{.*}}, %[[L]]
func.func @log_softmax(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = dlc.log_softmax %x {axis = 0 : i64} : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// BatchNormalization: the per-channel parameters become C x 1 x 1 views
// read along dim 1 in one generic: (x - mean) / sqrt(var + eps) * scale + bias.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CHAN:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4x5xf32>, %[[S:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<3xf32>
// CHECK: %[[S3:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2]] output_shape [3, 1, 1]
// CHECK: %[[B3:.*]] = tensor.expand_shape %[[B]]
// CHECK: %[[M3:.*]] = tensor.expand_shape %[[M]]
// CHECK: %[[V3:.*]] = tensor.expand_shape %[[V]]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CHAN]], #[[CHAN]], #[[CHAN]], #[[CHAN]], #[[ID]]]
// CHECK-SAME: ins(%[[X]], %[[S3]], %[[B3]], %[[M3]], %[[V3]] :
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f32, %[[BV:.*]]: f32, %[[MV:.*]]: f32, %[[VV:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[VE:.*]] = arith.addf %[[VV]], %[[EPS]]
// CHECK: %[[SD:.*]] = math.sqrt %[[VE]]
// CHECK: %[[C:.*]] = arith.subf %[[XV]], %[[MV]]
// CHECK: %[[N:.*]] = arith.divf %[[C]], %[[SD]]
// CHECK: %[[SC:.*]] = arith.mulf %[[N]], %[[SV]]
// CHECK: arith.addf %[[SC]], %[[BV]]
func.func @batch_norm(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = dlc.batch_norm %x, %s, %b, %m, %v : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// LRN with an even size: squares, zero padding of the channels by
// floor((size-1)/2) before and ceil((size-1)/2) after, a windowed sum over
// k (whose range comes from a size-long operand), then
// x / (bias + alpha / size * sum)^beta.
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d4, d2, d3)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @lrn
// CHECK-SAME: %[[X:.*]]: tensor<1x5x2x2xf32>
// CHECK: %[[SQ:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: %[[PAD:.*]] = tensor.pad %[[SQ]] low[0, 1, 0, 0] high[0, 2, 0, 0]
// CHECK: %[[W:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[WIN]], #[[K]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[PAD]], %[[W]] : tensor<1x8x2x2xf32>, tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[SUM]] :
// CHECK: %[[AOS:.*]] = arith.constant 2.500000e-04 : f32
// CHECK: arith.mulf %[[AOS]]
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: %[[BETA:.*]] = arith.constant 6.000000e-01 : f32
// CHECK: math.powf %{{.*}}, %[[BETA]]
// CHECK: arith.divf
func.func @lrn(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %0 = dlc.lrn %x {size = 4 : i64, alpha = 0.001 : f32, beta = 0.6 : f32, bias = 2.0 : f32} : tensor<1x5x2x2xf32>
  return %0 : tensor<1x5x2x2xf32>
}

// -----

// LRN with a size far beyond the channel count: the padding is clamped to C-1
// on each side (every window covers all channels), alpha / size still uses
// the original size (2^40).
// CHECK-LABEL: func.func @lrn_huge_size
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 2, 0] high[0, 2, 0]
// CHECK: %[[W:.*]] = tensor.empty() : tensor<5xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[PAD]], %[[W]] : tensor<1x7x2xf32>, tensor<5xf32>)
// CHECK: arith.constant 9.09494702E-13 : f32
func.func @lrn_huge_size(%x: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
  %0 = dlc.lrn %x {size = 1099511627776 : i64, alpha = 1.0 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}

// -----

// ReduceL2 squares each element, sums, and takes the root; ReduceLogSumExp
// is log(sum(exp(x))) as the ONNX reference (no max shift); ReduceProd
// multiplies from 1.
// CHECK-LABEL: func.func @reduce_family
// CHECK: arith.mulf %[[A:.*]], %[[A]] : f32
// CHECK: arith.addf
// CHECK: math.sqrt
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: math.log
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ONE]]
// CHECK: arith.mulf
func.func @reduce_family(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = dlc.reduce_l2 %x {axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %1 = dlc.reduce_log_sum_exp %x {axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %2 = dlc.reduce_prod %x {axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// ArgMax in two single-result reductions: the maximum along the axis, then
// the smallest index whose element equals it or is NaN (the axis size when
// none, which cannot happen).
// CHECK-LABEL: func.func @arg_max
// CHECK: arith.maximumf
// CHECK: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %{{.*}}: i64):
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[M]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[HIT:.*]] = arith.ori %[[EQ]], %[[NAN]]
// CHECK: %[[I:.*]] = linalg.index 1
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: arith.select %[[HIT]], %[[I64]]
// CHECK: arith.minsi
// CHECK: tensor.expand_shape {{.*}} : tensor<2xi64> into tensor<2x1xi64>
func.func @arg_max(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  %0 = dlc.arg_max %x {axis = 1 : i64} : tensor<2x3xf32> -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

// LayerNormalization in two passes over the normalised dimensions: the
// mean, then the mean of the squared deviations; rsqrt(var + epsilon) is
// the third result; scale and bias broadcast in the final elementwise nest.
// CHECK-LABEL: func.func @layer_norm
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.constant 1.200000e+01 : f32
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: math.rsqrt
// CHECK: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %[[I:.*]]: f32, %[[S:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[M]]
// CHECK: %[[NORM:.*]] = arith.mulf %[[D]], %[[I]]
// CHECK: %[[SC:.*]] = arith.mulf %[[NORM]], %[[S]]
// CHECK: arith.addf %[[SC]], %[[B]]
func.func @layer_norm(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>) {
  %0:3 = dlc.layer_norm %x, %s, %b {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %0#0, %0#2 : tensor<2x3x4xf32>, tensor<2x1x1xf32>
}

// -----

// InstanceNormalization reads its per-channel parameters as [C, 1, 1].
// CHECK-LABEL: func.func @instance_norm
// CHECK: math.rsqrt
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
func.func @instance_norm(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = dlc.instance_norm %x, %s, %b : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// MeanVarianceNormalization as the ONNX reference: sqrt(E[x^2] - E[x]^2)
// plus 1e-9 divides the deviation.
// CHECK-LABEL: func.func @mvn
// CHECK: %[[EPS:.*]] = arith.constant 9.99999971E-10 : f32
// CHECK: %[[ROOT:.*]] = math.sqrt
// CHECK: arith.addf %[[ROOT]], %[[EPS]]
// CHECK: arith.divf
func.func @mvn(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %0 = dlc.mean_variance_norm %x {axes = array<i64: 0, 2, 3>} : tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// Hardmax: 1 where the index along the axis is the first maximum's.
// CHECK-LABEL: func.func @hardmax
// CHECK: arith.maximumf
// CHECK: arith.minsi
// CHECK: ^bb0(%[[FIRST:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[I:.*]] = linalg.index 1
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]]
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[I64]], %[[FIRST]]
// CHECK: arith.select %[[EQ]]
func.func @hardmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.hardmax %x {axis = 1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CumSum: a reduction over a second loop along the axis (d2), adding the
// elements whose index is at most the output's (at least, reversed; strictly
// when exclusive).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @cumsum
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[I:.*]] = linalg.index 1
// CHECK: %[[J:.*]] = linalg.index 2
// CHECK: %[[IN_RANGE:.*]] = arith.cmpi sle, %[[J]], %[[I]]
// CHECK: arith.select %[[IN_RANGE]]
// CHECK: arith.addf
// CHECK-LABEL: func.func @cumsum_reverse_exclusive
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : index
func.func @cumsum(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.cumsum %x {axis = 1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @cumsum_reverse_exclusive(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.cumsum %x {axis = 1 : i64, exclusive = true, reverse = true} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// TopK by ranks: the rank of element i counts the elements j (a second loop
// along the axis) that are larger, or equal with j < i; output position r
// then selects the element of rank r and its index.
// CHECK-DAG: #[[I:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[J:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @top_k
// CHECK: %[[RANKS:.*]] = linalg.generic {indexing_maps = [#[[I]], #[[J]], #[[I]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: ^bb0(%[[X:.*]]: f32, %[[OTHER:.*]]: f32, %{{.*}}: i64):
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[OTHER]], %[[X]]
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[OTHER]], %[[X]]
// CHECK: %[[EARLIER:.*]] = arith.cmpi ult
// CHECK: %[[TIE:.*]] = arith.andi %[[EQ]], %[[EARLIER]]
// CHECK: arith.ori %[[GT]], %[[TIE]]
// CHECK: linalg.generic {indexing_maps = [#[[J]], #[[J]], #[[I]], #[[I]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[RANKS]] : tensor<3x4xf32>, tensor<3x4xi64>)
// CHECK: %[[HIT:.*]] = arith.cmpi eq
// CHECK: arith.select %[[HIT]]
// CHECK: arith.select %[[HIT]]
func.func @top_k(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %0:2 = dlc.top_k %x {axis = 1 : i64} : tensor<3x4xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// -----

// The smallest compare the other way.
// CHECK-LABEL: func.func @top_k_smallest
// CHECK: arith.cmpf olt
func.func @top_k_smallest(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<1xi64>) {
  %0:2 = dlc.top_k %x {axis = 0 : i64, largest = false} : tensor<4xf32> -> tensor<1xf32>, tensor<1xi64>
  return %0#0, %0#1 : tensor<1xf32>, tensor<1xi64>
}

// -----

// ArgMax of unsigned integers compares them as unsigned, from 0.
// CHECK-LABEL: func.func @arg_max_unsigned
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK: linalg.fill ins(%[[ZERO]] : i8)
// CHECK: arith.maxui
func.func @arg_max_unsigned(%x: tensor<4xui8>) -> tensor<1xi64> {
  %0 = dlc.arg_max %x {axis = 0 : i64} : tensor<4xui8> -> tensor<1xi64>
  return %0 : tensor<1xi64>
}
