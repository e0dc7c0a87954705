// RUN: dlc-opt %s -split-input-file -verify-diagnostics

// Shapes must be static.
func.func @dynamic_shape(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor}}
  %0 = dlc.relu %x : tensor<?x3xf32>
  return
}

// -----

// Float-only ops reject integer tensors.
func.func @float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating-point values}}
  %0 = dlc.sigmoid %x : tensor<4xi32>
  return
}

// -----

// A constant's value has the result's type.
func.func @constant_type() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "dlc.constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<3xi64>
  return
}

// -----

// A dense_resource blob holds exactly the bytes its type needs.
func.func @constant_blob_size() {
  // expected-error @+1 {{'dlc.constant' op resource 'short' holds 8 bytes but 'tensor<3xf32>' needs 12}}
  %0 = dlc.constant dense_resource<short> : tensor<3xf32>
  return
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040"
    }
  }
#-}


// -----

// Shape's result length is the number of selected dimensions.
func.func @shape_length(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'dlc.shape' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  %0 = dlc.shape %x : tensor<2x3xf32> -> tensor<3xi64>
  return
}

// -----

// Cast keeps the shape.
func.func @cast_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{operand and result shapes differ}}
  %0 = dlc.cast %x : tensor<2x3xf32> -> tensor<3x2xi32>
  return
}

// -----

// Identity keeps the type.
func.func @identity_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "dlc.identity"(%x) : (tensor<2xf32>) -> tensor<2xf16>
  return
}

// -----

// Dropout keeps the type.
func.func @dropout_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "dlc.dropout"(%x) : (tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

// Broadcasting needs equal or unit dimensions.
func.func @broadcast_incompatible(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{operand shapes [2, 3] and [2] are not broadcast-compatible}}
  %0 = dlc.add %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// The result of a binary op is the broadcast shape.
func.func @broadcast_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'dlc.mul' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = dlc.mul %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Binary operands share an element type.
func.func @binary_element_types(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{requires the same element type for all operands}}
  %0 = dlc.sub %a, %b : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

// PRelu's slope broadcasts to the input, not the other way round.
func.func @prelu_slope(%x: tensor<3xf32>, %slope: tensor<2x3xf32>) {
  // expected-error @+1 {{slope must broadcast to the input shape}}
  %0 = dlc.prelu %x, %slope : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Comparisons give a bool tensor of the broadcast shape.
func.func @compare_result(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = dlc.less %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Logic operands are bools.
func.func @logic_operands(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = dlc.and %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  return
}

// -----

// Where's condition is a bool tensor and its branches share an element type.
func.func @where_types(%c: tensor<3xi1>, %x: tensor<3xf32>, %y: tensor<3xf16>) {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = dlc.where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

// Float Mod is C's fmod only.
func.func @mod_float(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{float operands require fmod}}
  %0 = dlc.mod %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// BitShift shifts unsigned integers.
func.func @bit_shift_signed(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{must be statically shaped tensor of unsigned integer values}}
  %0 = dlc.bit_shift %a, %b {left = true} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

// IsNaN's result has the input's shape.
func.func @is_nan_shape(%x: tensor<3xf32>) {
  // expected-error @+1 {{all of {input, result} have same shape}}
  %0 = dlc.is_nan %x : (tensor<3xf32>) -> tensor<4xi1>
  return
}

// -----

// LayerNormalization's scale broadcasts to the normalised dimensions.
func.func @layer_norm_scale(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{scale and bias must broadcast to the normalised dimensions [3, 4]}}
  %0:3 = dlc.layer_norm %x, %s {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return
}

// -----

// InstanceNormalization has one scale and bias per channel.
func.func @instance_norm_params(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{scale and bias hold one value per channel (3)}}
  %0 = dlc.instance_norm %x, %s, %s : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

// ArgMax's axis is a dimension of the input.
func.func @arg_max_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = dlc.arg_max %x {axis = 2 : i64} : tensor<2x3xf32> -> tensor<2x3x1xi64>
  return
}

// -----

// Resize takes its scales either statically or at run time.
func.func @resize_scales(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{needs either static scales or dynamic_scales}}
  %0 = dlc.resize %x {coordinate_transformation_mode = "half_pixel", mode = "linear"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

// Resize's modes are ONNX's.
func.func @resize_mode(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{mode 'bicubic' is not nearest, linear or cubic}}
  %0 = dlc.resize %x {coordinate_transformation_mode = "half_pixel", mode = "bicubic", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

// GatherElements' indices have the data's rank.
func.func @gather_elements_rank(%d: tensor<3x3xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{indices must have the data's rank (2)}}
  %0 = dlc.gather_elements %d, %i {axis = 0 : i64} : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

// Softmax's axis is a dimension of the input.
func.func @softmax_axis(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = dlc.softmax %x {axis = 2 : i64} : tensor<2x5xf32>
  return
}

// -----

// LogSoftmax's axis is a dimension of the input.
func.func @log_softmax_axis(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{axis 3 is out of range for rank 2}}
  %0 = dlc.log_softmax %x {axis = 3 : i64} : tensor<2x5xf32>
  return
}

// -----

// Conv operands share an element type.
func.func @conv_element_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{operand element types differ: 'f32' vs 'f16'}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Conv's filter has the input's rank.
func.func @conv_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{filter rank 3 differs from input rank 4}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Conv needs at least one spatial dimension.
func.func @conv_input_rank(%x: tensor<1x3xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected an N x C x D1... input}}
  %0 = dlc.conv %x, %w {dilations = array<i64>, pads = array<i64>, strides = array<i64>} : (tensor<1x3xf32>, tensor<4x3xf32>) -> tensor<1x4xf32>
  return
}

// -----

// The group count divides input and output channels.
func.func @conv_group(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{group 4 must divide the input channels (4) and the output channels (6)}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 4 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// The filter's channel count is the input's per group.
func.func @conv_filter_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{filter has 4 channels per group but the input has 4 channels in 2 group(s)}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// Conv's bias has one element per output channel.
func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{bias must have 4 elements, got shape [3]}}
  %0 = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Conv has one stride and dilation per spatial dimension and two pads.
func.func @conv_attribute_sizes(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected 2 kernel dims, strides and dilations and 4 pads for a rank-4 input}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Strides are positive and pads non-negative.
func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{kernel sizes, strides and dilations must be positive and pads non-negative}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: -1, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// The (dilated) window fits the padded input.
func.func @conv_window(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{window of size 3 (dilation 2) does not fit spatial dimension 0 of size 4 with pads 0, 0}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

// Conv's result shape follows from the window arithmetic.
func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'dlc.conv' op inferred type(s) 'tensor<1x4x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x6x6xf32>'}}
  %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Gemm's A and B are matrices.
func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{A and B must be 2-D, got [2, 3, 4] and [4, 5]}}
  %0 = dlc.gemm %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// Gemm's inner dimensions agree (after the transposes).
func.func @gemm_inner(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{inner dimensions differ: 3 vs 4}}
  %0 = dlc.gemm %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// Gemm's C broadcasts to the M x N result.
func.func @gemm_c(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<3x5xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{C of shape [3, 5] does not broadcast to [2, 5]}}
  %0 = dlc.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// Gemm operands share an element type.
func.func @gemm_element_types(%a: tensor<2x3xf32>, %b: tensor<3x5xf64>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{operand element types differ: 'f32' vs 'f64'}}
  %0 = dlc.gemm %a, %b : (tensor<2x3xf32>, tensor<3x5xf64>) -> tensor<2x5xf32>
  return
}

// -----

// MatMul does not take scalars.
func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{matmul operands must not be scalars}}
  %0 = dlc.matmul %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// MatMul operands share an element type.
func.func @matmul_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xi32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{operand element types differ}}
  %0 = dlc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xi32>) -> tensor<2x4xf32>
  return
}

// -----

// MatMul's contraction dimensions agree.
func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{contraction dimensions differ: [2, 3] x [4, 5]}}
  %0 = dlc.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// MatMul's batch dimensions broadcast.
func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{batch dimensions of [2, 2, 3] and [3, 3, 4] do not broadcast}}
  %0 = dlc.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x3x4xf32>) -> tensor<2x2x4xf32>
  return
}

// -----

// MaxPool needs at least one spatial dimension.
func.func @max_pool_rank(%x: tensor<1x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected an N x C x D1... input}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64>, strides = array<i64>, pads = array<i64>, dilations = array<i64>} : tensor<1x3xf32> -> tensor<1x3xf32>
  return
}

// -----

// MaxPool has one kernel size per spatial dimension.
func.func @max_pool_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected 2 kernel dims, strides and dilations and 4 pads for a rank-4 input}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// MaxPool's window fits the padded input.
func.func @max_pool_window(%x: tensor<1x3x2x2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{window of size 3 (dilation 1) does not fit spatial dimension 0 of size 2 with pads 0, 0}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : tensor<1x3x2x2xf32> -> tensor<1x3x1x1xf32>
  return
}

// -----

// ceil_mode rounds the output size up (and the result type must say so).
func.func @max_pool_ceil(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'dlc.max_pool' op inferred type(s) 'tensor<1x3x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x3x3x3xf32>'}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : tensor<1x3x8x8xf32> -> tensor<1x3x3x3xf32>
  return
}

// -----

// AveragePool needs at least one spatial dimension.
func.func @average_pool_rank(%x: tensor<1x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected an N x C x D1... input}}
  %0 = dlc.average_pool %x {kernel_shape = array<i64>, strides = array<i64>, pads = array<i64>} : tensor<1x3xf32> -> tensor<1x3xf32>
  return
}

// -----

// AveragePool has two pads per spatial dimension.
func.func @average_pool_pads(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected 2 kernel dims, strides and dilations and 4 pads for a rank-4 input}}
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// AveragePool strides are positive.
func.func @average_pool_stride(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{kernel sizes, strides and dilations must be positive and pads non-negative}}
  %0 = dlc.average_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 0, 2>, pads = array<i64: 0, 0, 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// BatchNorm needs a channel dimension.
func.func @batch_norm_rank(%x: tensor<4xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{expected an N x C x ... input}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// BatchNorm parameters have one element per channel.
func.func @batch_norm_params(%x: tensor<1x3x4x4xf32>, %p: tensor<3xf32>, %q: tensor<4xf32>) {
  // expected-error @+1 {{scale, bias, mean and variance must have 3 elements, got shape [4]}}
  %0 = dlc.batch_norm %x, %p, %p, %q, %p : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// BatchNorm parameters have the input's element type.
func.func @batch_norm_element_types(%x: tensor<1x3x4x4xf32>, %p: tensor<3xf32>, %q: tensor<3xf16>) {
  // expected-error @+1 {{operand element types differ: 'f32' vs 'f16'}}
  %0 = dlc.batch_norm %x, %p, %q, %p, %p : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// BatchNorm keeps the input type.
func.func @batch_norm_result(%x: tensor<1x3x4x4xf32>, %p: tensor<3xf32>) {
  // expected-error @+1 {{failed to verify that all of {input, result} have same type}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x5xf32>
  return
}

// -----

// LRN works across the channels of an N x C x D... input.
func.func @lrn_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{expected an N x C x D1... input}}
  %0 = dlc.lrn %x {size = 3 : i64} : tensor<2x3xf32>
  return
}

// -----

// LRN's size is positive.
func.func @lrn_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{size must be positive, got 0}}
  %0 = dlc.lrn %x {size = 0 : i64} : tensor<1x3x4x4xf32>
  return
}

// -----

// A negative LRN size is rejected too (the attribute is read as signed).
func.func @lrn_negative_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{size must be positive, got -1}}
  %0 = dlc.lrn %x {size = -1 : i64} : tensor<1x3x4x4xf32>
  return
}

// -----

// Reduction axes are dimensions of the input.
func.func @reduce_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = dlc.reduce_sum %x {axes = array<i64: 2>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Reduction axes are sorted and unique.
func.func @reduce_axes_order(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{axes must be sorted and unique, got [1, 0]}}
  %0 = dlc.reduce_mean %x {axes = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<1x1xf32>
  return
}

// -----

// keepdims decides the result rank.
func.func @reduce_keepdims(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'dlc.reduce_max' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  %0 = dlc.reduce_max %x {axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

// ReduceMin keeps the element type.
func.func @reduce_min_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = dlc.reduce_min %x {axes = array<i64: 1>} : tensor<2x3xf32> -> tensor<2x1xf16>
  return
}

// -----

// Reshape keeps the element count.
func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape [2, 3] to [4, 2]: element counts differ}}
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<4x2xf32>
  return
}

// -----

// Transpose's perm has one entry per dimension.
func.func @transpose_perm_size(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{perm has 3 entries for a rank-2 input}}
  %0 = dlc.transpose %x {perm = array<i64: 0, 1, 2>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Transpose's perm is a permutation.
func.func @transpose_perm(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{perm [1, 1] is not a permutation}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

// Concat needs an input.
func.func @concat_empty() {
  // expected-error @+1 {{expected 1 or more operands}}
  %0 = dlc.concat {axis = 0 : i64} : () -> tensor<0xf32>
  return
}

// -----

// Concat's axis is a dimension of the inputs.
func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = dlc.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Concat inputs have one rank.
func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{inputs have different ranks}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Concat inputs agree outside the axis.
func.func @concat_shapes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{inputs [2, 3] and [2, 4] differ outside axis 0}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Concat inputs share the element type.
func.func @concat_element_types(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return
}

// -----

// Slice has starts, ends and steps for every dimension.
func.func @slice_sizes(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{starts, ends and steps need 2 entries each}}
  %0 = dlc.slice %x {starts = array<i64: 0>, ends = array<i64: 2>, steps = array<i64: 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Slice steps are not zero.
func.func @slice_step(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{step of dimension 1 is zero}}
  %0 = dlc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 2, 3>, steps = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Slice bounds are clamped by the importer: reading outside the input is an error.
func.func @slice_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{slice [1:5:1] leaves dimension 1 of size 3}}
  %0 = dlc.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 2, 5>, steps = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<2x4xf32>
  return
}

// -----

// Gather's axis is a dimension of the data.
func.func @gather_axis(%x: tensor<2x3xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = dlc.gather %x, %i {axis = 2 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<2x3x4xf32>
  return
}

// -----

// Gather indices are i32 or i64.
func.func @gather_index_type(%x: tensor<2x3xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = dlc.gather %x, %i {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Gather's result is data.shape[:axis] + indices.shape + data.shape[axis+1:].
func.func @gather_result(%x: tensor<2x3xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'dlc.gather' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  %0 = dlc.gather %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return
}

// -----

// Pad has a begin and an end pad per dimension.
func.func @pad_count(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected 4 pads for a rank-2 input, got 2}}
  %0 = dlc.pad %x {pads = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Negative pads crop, but not below zero.
func.func @pad_crop(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{pads -2, -1 crop dimension 0 of size 2 below zero}}
  %0 = dlc.pad %x {pads = array<i64: -2, 0, -1, 0>} : tensor<2x3xf32> -> tensor<0x3xf32>
  return
}

// -----

// Reflect pads are smaller than the dimension they pad.
func.func @pad_reflect(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{reflect pads must be smaller than the dimension they pad (dimension 0 of size 2)}}
  %0 = dlc.pad %x {pads = array<i64: 2, 0, 0, 0>, mode = #dlc<pad_mode reflect>} : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Edge padding needs an element to repeat.
func.func @pad_edge_empty(%x: tensor<0x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{cannot edge-pad an empty dimension}}
  %0 = dlc.pad %x {pads = array<i64: 1, 0, 0, 0>, mode = #dlc<pad_mode edge>} : tensor<0x3xf32> -> tensor<1x3xf32>
  return
}

// -----

// Expand broadcasts to the result shape.
func.func @expand_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot broadcast [2, 3] to [4, 3]}}
  %0 = dlc.expand %x : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Expand does not drop dimensions.
func.func @expand_rank(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{cannot broadcast [1, 3] to [3]}}
  %0 = dlc.expand %x : tensor<1x3xf32> -> tensor<3xf32>
  return
}

// -----

// Tile has one repeat count per dimension.
func.func @tile_count(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{expected 2 repeats, got 1}}
  %0 = dlc.tile %x {repeats = array<i64: 2>} : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Tile repeat counts are not negative.
func.func @tile_negative(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{repeats must be non-negative}}
  %0 = dlc.tile %x {repeats = array<i64: 1, -1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Values that enter shape arithmetic stay within the int32 range (no overflow).
func.func @extent_range(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{dilations entry 9223372036854775807 is outside the supported range [-2147483647, 2147483647]}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 9223372036854775807, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// Slice bounds stay within the int32 range.
func.func @slice_extent_range(%x: tensor<4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{steps entry -9223372036854775808 is outside the supported range}}
  %0 = dlc.slice %x {starts = array<i64: 3>, ends = array<i64: -1>, steps = array<i64: -9223372036854775808>} : tensor<4xf32> -> tensor<1xf32>
  return
}

// -----

// A transfer moves a tensor between two different memories.
func.func @transfer_to_itself(%x: tensor<4xf32>) {
  // expected-error @+1 {{moves a tensor from 'host' to itself}}
  %0 = dlc.transfer %x {source = "host", destination = "host"} : tensor<4xf32>
  return
}

// -----

func.func @transfer_unnamed(%x: tensor<4xf32>) {
  // expected-error @+1 {{needs the names of both targets}}
  %0 = dlc.transfer %x {source = "", destination = "host"} : tensor<4xf32>
  return
}

// -----

// dlc.fallback and dlc.segment are strings.
func.func @fallback_not_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.fallback' must be a string}}
  %0 = dlc.relu %x {dlc.fallback = 1 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// QuantizeLinear's zero point is an 8-bit integer.
func.func @quantize_wide_zero(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<4xi32> {
  // expected-error @+1 {{needs an 8-bit zero point, not 'i32'}}
  %0 = dlc.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The scale is f32.
func.func @dequantize_f16_scale(%x: tensor<4xi8>, %s: tensor<f16>, %z: tensor<i8>) -> tensor<4xf16> {
  // expected-error @+1 {{needs an f32 scale, not 'f16'}}
  %0 = dlc.dequantize_linear %x, %s, %z : (tensor<4xi8>, tensor<f16>, tensor<i8>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// The zero point has the quantized tensor's type.
func.func @dequantize_mixed(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf32> {
  // expected-error @+1 {{quantizes to 'ui8' with a zero point of type 'i8'}}
  %0 = dlc.dequantize_linear %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CumSum's axis is a dimension of the input.
func.func @cumsum_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = dlc.cumsum %x {axis = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

// Einsum's equation has a term per input.
func.func @einsum_terms(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{equation 'ij,jk->ik' has 2 input terms for 1 inputs}}
  %0 = dlc.einsum %x {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// A label has one size (or 1) wherever it occurs.
func.func @einsum_sizes(%x: tensor<2x3xf32>, %y: tensor<4x5xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{label 'j' has sizes 3 and 4}}
  %0 = dlc.einsum %x, %y {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// The output names no label twice.
func.func @einsum_output(%x: tensor<2x2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{is not of the form 'ab,bc->ac'}}
  %0 = dlc.einsum %x {equation = "ij->ii"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

// GatherND's tuples fit the data after the batch dimensions.
func.func @gather_nd_tuple(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{index tuples of 3 coordinates do not fit data of rank 2 after 0 batch dimensions}}
  %0 = dlc.gather_nd %x, %i : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  return
}

// -----

// ScatterElements' indices and updates share one shape.
func.func @scatter_elements_shapes(%x: tensor<2x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x2xf32>) {
  // expected-error @+1 {{indices and updates must have one shape}}
  %0 = dlc.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// The scatter reductions are ONNX's.
func.func @scatter_nd_reduction(%x: tensor<2x3xf32>, %i: tensor<1x1xi64>, %u: tensor<1x3xf32>) {
  // expected-error @+1 {{reduction 'sub' is not none, add, mul, max or min}}
  %0 = dlc.scatter_nd %x, %i, %u {reduction = "sub"} : (tensor<2x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// OneHot's values are (off, on).
func.func @one_hot_values(%i: tensor<2xi64>, %v: tensor<3xf32>) {
  // expected-error @+1 {{values must hold two elements (off, on)}}
  %0 = dlc.one_hot %i, %v {axis = 1 : i64} : (tensor<2xi64>, tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

// TopK's k is at most the axis length.
func.func @top_k_k(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{k must be in [1, 3]}}
  %0:2 = dlc.top_k %x {axis = 1 : i64} : tensor<2x3xf32> -> tensor<2x4xf32>, tensor<2x4xi64>
  return
}

// -----

// tf_crop_and_resize needs its box (rank starts, then rank ends).
func.func @resize_roi(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{tf_crop_and_resize, and only it, needs a roi of 8 values}}
  %0 = dlc.resize %x {coordinate_transformation_mode = "tf_crop_and_resize", mode = "linear", scales = array<f64: 1.0, 1.0, 2.0, 2.0>, roi = array<f64: 0.0, 1.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

// ReverseSequence has one length per batch entry.
func.func @reverse_sequence_lengths(%x: tensor<4x3xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{sequence_lens must hold one length per batch entry (3)}}
  %0 = dlc.reverse_sequence %x, %l {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return
}
