// A constant added to every element and the ReLU after it, 8 channels of
// 16x16: DMA in, two vector-engine instructions, DMA out.
func.func @main(%x: tensor<1x8x16x16xf32> {dlc.name = "x"}) -> (tensor<1x8x16x16xf32> {dlc.name = "y"}) {
  %b = dlc.constant dense<0.25> : tensor<1x8x1x1xf32> loc("b")
  %a = dlc.add %x, %b : (tensor<1x8x16x16xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x16x16xf32> loc("add1"("Add"))
  %r = dlc.relu %a : tensor<1x8x16x16xf32> loc("relu1"("Relu"))
  return %r : tensor<1x8x16x16xf32>
}
