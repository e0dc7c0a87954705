// Two functions and none called main: which one is the entry is ambiguous.
func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
