#!/usr/bin/python3
"""Regenerates concat/, depthwise/ and tail/: small PyTorch models (a
channel concatenation of a 3x3 and a 1x1 convolution, 16 + 80 channels,
then a 1x1 convolution; a dilated depthwise convolution on a batch of 2;
two padded convolutions whose output rows leave a last round of bands
short, so that their tails run in column pieces) as ONNX
backend-test directories with PyTorch's outputs; and q88/, a small CNN
(convolutions, padded max pooling over negative values, ReLU, a residual sum, average pooling
and a fully connected layer) whose outputs are what Q8.8 operands give
exactly, computed here from the machine's rules (docs/Targets/Snowflake.md,
"Number formats"). Run with /usr/bin/python3;
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


# Q8.8: every stored value is an integer number of 2^-8 steps (halves round
# up, saturating at 16 bits); products and sums are exact in the 32-bit
# accumulators, so float64 (exact for these integers) computes them in any
# order.
F = torch.nn.functional
def q(t): return torch.clamp(torch.floor(t * 256 + 0.5), -32768, 32767) / 256
class Q88(nn.Module):
    def __init__(s): super().__init__(); s.a = nn.Conv2d(8, 16, 3, padding=1); s.b = nn.Conv2d(16, 16, 1); s.fc = nn.Linear(16 * 3 * 3, 10)
    def forward(s, x):
        p = F.max_pool2d(s.a(x), 3, 2, 1)
        y = F.avg_pool2d(torch.relu(s.b(p) + p), 2)
        return s.fc(torch.flatten(y, 1))
    def fixed(s, x):
        conv = lambda t, c, **kw: q(F.conv2d(t, q(c.weight.double()), q(c.bias.double()), **kw))
        p = F.max_pool2d(conv(q(x.double()), s.a, padding=1), 3, 2, 1)
        y = torch.relu(q(conv(p, s.b) + p))
        y = q(F.conv2d(y, torch.full((16, 1, 2, 2), q(torch.tensor(0.25)).item(), dtype=torch.float64), stride=2, groups=16))
        return q(F.linear(torch.flatten(y, 1), q(s.fc.weight.double()), q(s.fc.bias.double()))).float()
model = Q88().eval()
d = f"{out}/q88"; os.makedirs(d + "/test_data_set_0", exist_ok=True)
x = torch.randn(1, 8, 12, 12)
with torch.no_grad(): y = model.fixed(x); print("q88: Q8.8 moves the output by %.3e" % float((y - model(x)).abs().max()))
torch.onnx.export(model, x, d + "/model.onnx", input_names=["x"], output_names=["y"], opset_version=13)
open(f"{d}/test_data_set_0/input_0.pb", "wb").write(numpy_helper.from_array(x.numpy()).SerializeToString())
open(f"{d}/test_data_set_0/output_0.pb", "wb").write(numpy_helper.from_array(y.numpy()).SerializeToString())
