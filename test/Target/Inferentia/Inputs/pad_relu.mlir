// A zero padding read by a ReLU: the data-movement elimination reads the
// input through the padding instead of copying it.
func.func @main(%x: tensor<1x8x6x6xf32> {dlc.name = "x"}) -> (tensor<1x8x8x8xf32> {dlc.name = "y"}) {
  %p = dlc.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : tensor<1x8x6x6xf32> -> tensor<1x8x8x8xf32> loc("pad"("Pad"))
  %r = dlc.relu %p : tensor<1x8x8x8xf32> loc("relu"("Relu"))
  return %r : tensor<1x8x8x8xf32>
}
