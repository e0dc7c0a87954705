// A convolution whose weights are one splat constant (folded into a scaled
// sum, not a product of two tensors) followed by a ReLU.
func.func @main(%arg0: tensor<1x8x16x16xf32> {dlc.name = "up"}) -> (tensor<1x8x16x16xf32> {dlc.name = "y"}) {
    %0 = dlc.constant dense<6.250000e-02> : tensor<8x8x3x3xf32>
    %1 = dlc.conv %arg0, %0 {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32>
    %2 = dlc.relu %1 : tensor<1x8x16x16xf32>
    return %2 : tensor<1x8x16x16xf32>
}
