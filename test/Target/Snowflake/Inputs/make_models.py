#!/usr/bin/python3
"""Regenerates concat/, depthwise/ and tail/: small PyTorch models (a
channel concatenation of a 3x3 and a 1x1 convolution, 16 + 80 channels,
then a 1x1 convolution; a dilated depthwise convolution on a batch of 2;
two padded convolutions whose output rows leave a last round of bands
short, so that their tails run in column pieces) as ONNX
backend-test directories with PyTorch's outputs. Run with /usr/bin/python3;
the directories are committed."""
import os, torch
from onnx import numpy_helper
torch.manual_seed(0)
nn = torch.nn
class Cat(nn.Module):
    def __init__(s): super().__init__(); s.a = nn.Conv2d(8, 16, 3, padding=1); s.b = nn.Conv2d(8, 80, 1); s.c = nn.Conv2d(96, 8, 1)
    def forward(s, x): return s.c(torch.cat([torch.relu(s.a(x)), s.b(x)], 1))
class Dw(nn.Module):
    def __init__(s): super().__init__(); s.a = nn.Conv2d(32, 32, 3, padding=2, dilation=2, groups=32)
    def forward(s, x): return s.a(x)
class Tail(nn.Module):
    def __init__(s): super().__init__(); s.a = nn.Conv2d(96, 64, 3, padding=1); s.b = nn.Conv2d(64, 64, 5, stride=2, padding=2)
    def forward(s, x): return s.b(torch.relu(s.a(x)))
out = os.path.dirname(os.path.abspath(__file__))
for name, model, shape in (("concat", Cat(), (1, 8, 12, 12)), ("depthwise", Dw(), (2, 32, 9, 9)), ("tail", Tail(), (1, 96, 11, 11))):
    d = f"{out}/{name}"; os.makedirs(d + "/test_data_set_0", exist_ok=True)
    x = torch.randn(*shape)
    with torch.no_grad(): y = model.eval()(x)
    torch.onnx.export(model, x, d + "/model.onnx", input_names=["x"], output_names=["y"], opset_version=13)
    open(f"{d}/test_data_set_0/input_0.pb", "wb").write(numpy_helper.from_array(x.numpy()).SerializeToString())
    open(f"{d}/test_data_set_0/output_0.pb", "wb").write(numpy_helper.from_array(y.numpy()).SerializeToString())
