func.func @main(%x: tensor<3x4xf32> {dlc.name = "x"}) -> (tensor<i64> {dlc.name = "n"}) {
  %n = dlc.size %x : tensor<3x4xf32> -> tensor<i64>
  return %n : tensor<i64>
}
