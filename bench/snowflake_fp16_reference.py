#!/usr/bin/python3
"""What fp16 storage alone costs a torchvision ResNet: the model exported by
scripts/export_torchvision.py, recomputed in PyTorch with every tensor the
Snowflake stores rounded to fp16 (the input, each convolution's weights and
bias after batch-norm folding, each layer's output, each residual sum) and
the sums in fp32, as the vMACs do. Its distance from PyTorch's float32
output is the error the target's tolerance has to allow; the simulator's
own error against the recorded output (bench/snowflake.sh) should be about
the same.

  /usr/bin/python3 bench/snowflake_fp16_reference.py resnet50 [MODELS_DIR]
"""
import os
import sys

import onnx
import torch
import torchvision
from onnx import numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
import export_torchvision as ex  # noqa: E402

F = torch.nn.functional
name = sys.argv[1]
models = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(__file__), "..", "build", "models")
data = os.path.join(models, name, "test_data_set_0")

torch.manual_seed(0)
model = getattr(torchvision.models, name)()
ex.calibrate_batch_norm(model, torch.Generator().manual_seed(0))
model.eval()
x = torch.from_numpy(numpy_helper.to_array(
    onnx.load_tensor(os.path.join(data, "input_0.pb"))).copy())
recorded = torch.from_numpy(numpy_helper.to_array(
    onnx.load_tensor(os.path.join(data, "output_0.pb"))).copy())


def half(t):
    return t.half().float()


def conv(t, c, bn, relu=True):
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = half(c.weight * scale[:, None, None, None])
    b = half(bn.bias - bn.running_mean * scale)
    y = half(F.conv2d(t, w, b, stride=c.stride, padding=c.padding))
    return torch.relu(y) if relu else y


with torch.no_grad():
    reference = model(x)
    assert torch.equal(reference, recorded), "not the exported model"
    y = F.max_pool2d(conv(half(x), model.conv1, model.bn1), 3, 2, 1)
    for layer in (model.layer1, model.layer2, model.layer3, model.layer4):
        for block in layer:
            t = conv(y, block.conv1, block.bn1)
            if hasattr(block, "conv3"):
                t = conv(t, block.conv2, block.bn2)
                t = conv(t, block.conv3, block.bn3, relu=False)
            else:
                t = conv(t, block.conv2, block.bn2, relu=False)
            d = (conv(y, block.downsample[0], block.downsample[1], relu=False)
                 if block.downsample is not None else y)
            y = torch.relu(half(t + d))
    y = half(torch.flatten(F.adaptive_avg_pool2d(y, 1), 1))
    out = half(F.linear(y, half(model.fc.weight), half(model.fc.bias)))
print("%s: fp16 storage changes the output by at most %.3e (max |output| "
      "%.3f)" % (name, float((out - reference).abs().max()),
                 float(reference.abs().max())))
