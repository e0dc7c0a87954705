// A 2^50-element input: 4 PiB, more than any host's memory.
func.func @main(%x: tensor<1073741824x1048576xf32>) -> tensor<1073741824x1048576xf32> {
  %0 = dlc.relu %x : tensor<1073741824x1048576xf32>
  return %0 : tensor<1073741824x1048576xf32>
}
