"""Prints a dlc model y = x * W with a 64x64 seeded random W (16 KiB, above
the size from which the host serializer writes weights as byte strings)."""
import numpy as np

w = np.random.default_rng(0).uniform(-1, 1, (64, 64)).astype("<f4")
print('func.func @main(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {')
print('  %w = dlc.constant dense<"0x' + w.tobytes().hex().upper() +
      '"> : tensor<64x64xf32>')
print('  %y = dlc.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> '
      'tensor<1x64xf32>')
print('  return %y : tensor<1x64xf32>')
print('}')
