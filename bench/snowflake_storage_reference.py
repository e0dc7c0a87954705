#!/usr/bin/python3
"""What 16-bit storage alone costs a torchvision model: the model exported
by scripts/export_torchvision.py (AlexNet or a ResNet), recomputed in
PyTorch with every tensor the Snowflake stores in the machine's operand
format (the input, each layer's weights and bias after batch-norm folding,
each layer's output, each residual sum, average pooling's 1 / window
weights) and the sums as the vMACs do them: fp32 for fp16, exact for
fixed point (float64 holds these integers exactly), with halves rounded up
and 16-bit saturation (docs/Targets/Snowflake.md, "Number formats"). Its
distance from PyTorch's float32 output is the error the target's
tolerance has to allow; the simulator's own error against the recorded
output (bench/snowflake.sh) should be about the same.

  /usr/bin/python3 bench/snowflake_storage_reference.py resnet50 [--fraction-bits 8] [--models DIR] [--simulated OUT.pb]

With --simulated (an output `dlc run --write-outputs` wrote), it also
prints how far the simulator's output is from this recomputation.
"""
import argparse
import os
import sys

import onnx
import torch
import torchvision
from onnx import numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
import export_torchvision as ex  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("model")
parser.add_argument("--fraction-bits", type=int, default=0,
                    help="0: fp16 (the default); 8: Q8.8")
parser.add_argument("--models", default=os.path.join(
    os.path.dirname(__file__), "..", "build", "models"))
parser.add_argument("--simulated", help="the simulator's output (.pb)")
args = parser.parse_args()
F = torch.nn.functional
data = os.path.join(args.models, args.model, "test_data_set_0")
bits = args.fraction_bits
dtype = torch.float64 if bits else torch.float32


def store(t):
    """`t` as the buffers hold it."""
    if not bits:
        return t.half().float()
    scale = 2.0 ** bits
    return torch.clamp(torch.floor(t.double() * scale + 0.5),
                       -32768, 32767) / scale


def conv(t, c, bn=None):
    w, b = c.weight, c.bias
    if bn is not None:
        scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        w = w * scale[:, None, None, None]
        b = bn.bias - bn.running_mean * scale
    b = torch.zeros(w.shape[0]) if b is None else b
    return store(F.conv2d(t, store(w), store(b), stride=c.stride,
                          padding=c.padding, dilation=c.dilation,
                          groups=c.groups))


def linear(t, fc):
    return store(F.linear(t, store(fc.weight), store(fc.bias)))


def average(t, k):
    """Average pooling as the vMACs run it: a depthwise kernel of the
    stored 1 / window."""
    w = store(torch.full((t.shape[1], 1, k, k), 1.0 / (k * k))).to(dtype)
    return store(F.conv2d(t, w, stride=k, groups=t.shape[1]))


def resnet(model, x):
    y = F.max_pool2d(torch.relu(conv(x, model.conv1, model.bn1)), 3, 2, 1)
    for layer in (model.layer1, model.layer2, model.layer3, model.layer4):
        for block in layer:
            t = torch.relu(conv(y, block.conv1, block.bn1))
            if hasattr(block, "conv3"):
                t = torch.relu(conv(t, block.conv2, block.bn2))
                t = conv(t, block.conv3, block.bn3)
            else:
                t = conv(t, block.conv2, block.bn2)
            d = (conv(y, block.downsample[0], block.downsample[1])
                 if block.downsample is not None else y)
            y = torch.relu(store(t + d))
    y = torch.flatten(average(y, y.shape[-1]), 1)
    return linear(y, model.fc)


def alexnet(model, x):
    for m in model.features:
        if isinstance(m, torch.nn.Conv2d):
            x = conv(x, m)
        elif isinstance(m, torch.nn.ReLU):
            x = torch.relu(x)
        else:
            x = F.max_pool2d(x, m.kernel_size, m.stride, m.padding)
    assert x.shape[-2:] == (6, 6), "the adaptive pooling is the identity"
    x = torch.flatten(x, 1)
    for m in model.classifier:
        if isinstance(m, torch.nn.Linear):
            x = linear(x, m)
        elif isinstance(m, torch.nn.ReLU):
            x = torch.relu(x)
    return x


torch.manual_seed(0)
model = getattr(torchvision.models, args.model)()
ex.calibrate_batch_norm(model, torch.Generator().manual_seed(0))
model.eval()
x = torch.from_numpy(numpy_helper.to_array(
    onnx.load_tensor(os.path.join(data, "input_0.pb"))).copy())
recorded = torch.from_numpy(numpy_helper.to_array(
    onnx.load_tensor(os.path.join(data, "output_0.pb"))).copy())
with torch.no_grad():
    reference = model(x)
    assert torch.equal(reference, recorded), "not the exported model"
    run = alexnet if args.model == "alexnet" else resnet
    out = run(model, store(x)).float()
name = "Q%d.%d" % (16 - bits, bits) if bits else "fp16"
print("%s: %s storage changes the output by at most %.3e (max |output| "
      "%.3f)" % (args.model, name, float((out - reference).abs().max()),
                 float(reference.abs().max())))
if args.simulated:
    simulated = torch.from_numpy(numpy_helper.to_array(
        onnx.load_tensor(args.simulated)).copy())
    print("%s: the simulator's output is within %.3e of that recomputation"
          % (args.model, float((simulated - out).abs().max())))
