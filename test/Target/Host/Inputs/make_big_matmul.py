"""Writes a test directory: model.mlir, y = x * W with a 64x64 seeded random
W (16 KiB, above the size from which the host serializer writes weights as
byte strings), and a data set with an all-ones x and y computed by numpy."""
import os
import sys

import numpy as np
from onnx import numpy_helper

out_dir = sys.argv[1]
os.makedirs(os.path.join(out_dir, "test_data_set_0"), exist_ok=True)
w = np.random.default_rng(0).uniform(-1, 1, (64, 64)).astype("<f4")
x = np.ones((1, 64), np.float32)
y = (x.astype(np.float64) @ w.astype(np.float64)).astype(np.float32)
with open(os.path.join(out_dir, "model.mlir"), "w") as f:
    f.write('func.func @main(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {\n'
            '  %w = dlc.constant dense<"0x' + w.tobytes().hex().upper() +
            '"> : tensor<64x64xf32>\n'
            '  %y = dlc.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>)'
            ' -> tensor<1x64xf32>\n'
            '  return %y : tensor<1x64xf32>\n}\n')
for name, array in (("input_0.pb", x), ("output_0.pb", y)):
    with open(os.path.join(out_dir, "test_data_set_0", name), "wb") as f:
        f.write(numpy_helper.from_array(array).SerializeToString())
