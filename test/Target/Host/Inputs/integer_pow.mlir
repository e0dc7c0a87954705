// Integer Pow: exact and wrapping like numpy; a negative exponent gives the
// truncated 1 / x^-y.
func.func @main(%x: tensor<10xi32>, %e: tensor<10xi32>, %u: tensor<3xui8>,
                %v: tensor<3xui8>) -> (tensor<10xi32>, tensor<3xui8>) {
  %0 = dlc.pow %x, %e : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi32>
  %1 = dlc.pow %u, %v : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0, %1 : tensor<10xi32>, tensor<3xui8>
}
