// A conv, a matmul and a gemm with weights: the model of the compile tests.
func.func @main(%x: tensor<1x2x5x5xf32> {dlc.name = "x"})
    -> (tensor<1x4xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = dlc.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %conv = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64,
            pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
          : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>)
          -> tensor<1x3x3x3xf32> loc("conv_node")
  %flat = dlc.reshape %conv : tensor<1x3x3x3xf32> -> tensor<1x27xf32>
  %m = dlc.constant dense<0.25> : tensor<27x8xf32>
  %mm = dlc.matmul %flat, %m : (tensor<1x27xf32>, tensor<27x8xf32>)
        -> tensor<1x8xf32> loc("matmul_node")
  %g = dlc.constant dense<-0.125> : tensor<4x8xf32>
  %y = dlc.gemm %mm, %g {trans_b = true} : (tensor<1x8xf32>, tensor<4x8xf32>)
       -> tensor<1x4xf32> loc("gemm_node")
  return %y : tensor<1x4xf32>
}
