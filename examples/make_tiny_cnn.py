#!/usr/bin/python3
"""Exports examples/tiny_cnn: a small CNN as an ONNX backend-test directory.

Run with Debian's /usr/bin/python3 (torch, onnx). The weights are seeded
random values; the recorded output is PyTorch's own, so the example checks
dlc against an independent implementation. The directory is committed (it is
small) so the example runs without torch; this script documents how it was
made and regenerates it.
"""
import os
import sys

import onnx
import torch
from onnx import numpy_helper


class TinyCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1, bias=False),
            torch.nn.BatchNorm2d(8),
            torch.nn.ReLU(),
            torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(8, 16, 3, stride=2, padding=1, groups=2),
            torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = torch.flatten(self.features(x), 1)
        return torch.softmax(self.classifier(x), dim=1)


def main(out_dir):
    torch.manual_seed(0)
    model = TinyCNN().eval()
    # Non-trivial batch-norm statistics, so that folding it into the conv
    # is actually exercised.
    with torch.no_grad():
        bn = model.features[1]
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.2, 0.2)
    x = torch.randn(1, 3, 16, 16)
    with torch.no_grad():
        y = model(x)
    os.makedirs(os.path.join(out_dir, "test_data_set_0"), exist_ok=True)
    torch.onnx.export(model, x, os.path.join(out_dir, "model.onnx"),
                      input_names=["image"], output_names=["probabilities"],
                      opset_version=13)
    for name, tensor in (("input_0.pb", x), ("output_0.pb", y)):
        proto = numpy_helper.from_array(tensor.numpy())
        with open(os.path.join(out_dir, "test_data_set_0", name), "wb") as f:
            f.write(proto.SerializeToString())
    onnx.checker.check_model(onnx.load(os.path.join(out_dir, "model.onnx")))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny_cnn"))
