// relu(x W + b) with x 128x256 and W 256x128: large enough that the tiles
// spread over the 64 CPEs.
func.func @main(%x: tensor<128x256xf32> {dlc.name = "x"})
    -> (tensor<128x128xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.01> : tensor<256x128xf32> loc("w")
  %b = dlc.constant dense<-0.5> : tensor<128xf32> loc("b")
  %mm = dlc.gemm %x, %w, %b : (tensor<128x256xf32>, tensor<256x128xf32>, tensor<128xf32>) -> tensor<128x128xf32> loc("fc"("Gemm"))
  %y = dlc.relu %mm : tensor<128x128xf32> loc("relu"("Relu"))
  return %y : tensor<128x128xf32>
}
