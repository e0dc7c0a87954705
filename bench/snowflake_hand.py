"""Data for bench/snowflake_hand.sh. For a hand-written layer NAME
(bench/snowflake_hand/NAME.s): a seeded PyTorch Conv2d + ReLU of its shape
as an ONNX test directory; its input as raw fp16 in the program's DRAM
layout (depth-minor); its weights and bias as the program's .data section;
and, given the program's dumped output, the error against PyTorch.

  snowflake_hand.py prepare OUT_DIR NAME   (writes OUT_DIR/model, input.f16, program.s)
  snowflake_hand.py check OUT_DIR NAME     (reads OUT_DIR/output.f16)
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

# name: (in channels, out channels, kernel, size, padding,
#        DRAM element addresses of the output and of the weights)
LAYERS = {
    "conv3x3_64": (64, 64, 3, 16, 1, 16384, 32768),
    "conv1x1_256": (256, 128, 1, 14, 0, 50176, 75264),
}

mode, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
cin, cout, k, size, pad, out_address, data_address = LAYERS[name]
model_dir = os.path.join(out, "model")
if mode == "prepare":
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(cin, cout, k, padding=pad)
    model = torch.nn.Sequential(conv, torch.nn.ReLU()).eval()
    x = torch.randn(1, cin, size, size)
    with torch.no_grad():
        y = model(x)
    os.makedirs(os.path.join(model_dir, "test_data_set_0"), exist_ok=True)
    torch.onnx.export(model, x, os.path.join(model_dir, "model.onnx"),
                      input_names=["x"], output_names=["y"], opset_version=13)
    for file, t in (("input_0.pb", x), ("output_0.pb", y)):
        with open(os.path.join(model_dir, "test_data_set_0", file), "wb") as f:
            f.write(numpy_helper.from_array(t.numpy()).SerializeToString())
    x.numpy()[0].transpose(1, 2, 0).astype(np.float16).tofile(
        os.path.join(out, "input.f16"))
    # Block b, vMAC v: row (kh k + kw) cin + c, lane l = W[64 b + 16 v + l,
    # c, kh, kw]; then the bias row.
    w = conv.weight.detach().numpy()
    b = conv.bias.detach().numpy()
    data = []
    for block in range(cout // 64):
        for v in range(4):
            lanes = slice(64 * block + 16 * v, 64 * block + 16 * v + 16)
            data.append(w[lanes].transpose(2, 3, 1, 0).reshape(k * k * cin, 16))
            data.append(b[lanes].reshape(1, 16))
    halves = np.concatenate(data).astype(np.float16).view(np.uint16).ravel()
    with open(os.path.join(os.path.dirname(__file__), "snowflake_hand",
                           name + ".s")) as f:
        lines = [f.read(), ".data %d\n" % data_address]
    for i in range(0, len(halves), 8):
        lines.append("    .half " + ", ".join("0x%04x" % h for h in halves[i:i + 8]) + "\n")
    with open(os.path.join(out, "program.s"), "w") as f:
        f.write("".join(lines))
    print("%d:%d" % (out_address, size * size * cout))
else:
    got = np.fromfile(os.path.join(out, "output.f16"), dtype=np.float16)
    got = got.astype(np.float32).reshape(size, size, cout).transpose(2, 0, 1)
    want = numpy_helper.to_array(onnx.load_tensor(
        os.path.join(model_dir, "test_data_set_0", "output_0.pb")))[0]
    print("by hand: max abs error against PyTorch %.3e" %
          float(np.abs(got - want).max()))
