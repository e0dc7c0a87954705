// relu on f16: not supported by the Sunway target.
func.func @main(%x: tensor<8xf16> {dlc.name = "x"}) -> (tensor<8xf16> {dlc.name = "y"}) {
  %y = dlc.relu %x : tensor<8xf16>
  return %y : tensor<8xf16>
}
