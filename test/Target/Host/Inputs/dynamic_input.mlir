// An entry taking a dynamically shaped tensor, which no executor can feed.
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
