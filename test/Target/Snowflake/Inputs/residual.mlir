// A residual sum with its ReLU over 64 x 64 x 64 elements: several rounds
// of the four CUs.
func.func @main(%a: tensor<1x64x64x64xf32> {dlc.name = "a"}, %b: tensor<1x64x64x64xf32> {dlc.name = "b"}) -> (tensor<1x64x64x64xf32> {dlc.name = "y"}) {
  %s = dlc.add %a, %b : (tensor<1x64x64x64xf32>, tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32> loc("add"("Add"))
  %r = dlc.relu %s : tensor<1x64x64x64xf32> loc("relu"("Relu"))
  return %r : tensor<1x64x64x64xf32>
}
