// relu(a + b) with b broadcast along the rows: the model of the driver tests.
func.func @main(%a: tensor<2x3xf32> {dlc.name = "a"},
                %b: tensor<3xf32> {dlc.name = "b"})
    -> (tensor<2x3xf32> {dlc.name = "y"}) {
  %sum = dlc.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = dlc.relu %sum : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
