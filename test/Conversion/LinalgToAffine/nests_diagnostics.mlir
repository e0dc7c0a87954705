// RUN: dlc-opt --convert-linalg-to-affine-nests --split-input-file --verify-diagnostics %s

// Loops need buffers: an op on tensors is a pipeline ordering error.
func.func @on_tensors(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot lower a linalg op on tensors to loops; bufferize first}}
  %0 = linalg.copy ins(%x : tensor<4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
