// A 3x3 convolution with bias and the ReLU after it, 16 channels of 8x8.
func.func @main(%x: tensor<1x3x8x8xf32> {dlc.name = "x"}) -> (tensor<1x16x8x8xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<16x3x3x3xf32> loc("w")
  %b = dlc.constant dense<0.25> : tensor<16xf32> loc("b")
  %y = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32> loc("conv1"("Conv"))
  %r = dlc.relu %y : tensor<1x16x8x8xf32> loc("relu1"("Relu"))
  return %r : tensor<1x16x8x8xf32>
}
