func.func @main(%x: tensor<1x1x3x4x5xf32> {dlc.name = "x"}, %w: tensor<1x2x3x3x3xf32> {dlc.name = "w"}) -> (tensor<1x2x5x6x7xf32> {dlc.name = "y"}) {
  %y = dlc.conv_transpose %x, %w {dilations = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>} : (tensor<1x1x3x4x5xf32>, tensor<1x2x3x3x3xf32>) -> tensor<1x2x5x6x7xf32>
  return %y : tensor<1x2x5x6x7xf32>
}
