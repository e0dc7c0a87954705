#!/usr/bin/python3
"""Exports a Parallel WaveNet student as an ONNX backend-test directory.

    /usr/bin/python3 scripts/export_wavenet.py -o OUT_DIR

The model goes to OUT_DIR/wavenet/{model.onnx, test_data_set_0/input_0.pb,
input_1.pb, output_0.pb}: opset 13, batch 1, float32, inputs `noise`
[1, 1, T] and `conditioning` [1, C_cond, T], output `audio` [1, 1, T], and
PyTorch's own output as the recorded one, so `dlc run OUT_DIR/wavenet
--target X` checks dlc against an independent implementation.

The model is the student of Parallel WaveNet (van den Oord et al., "Parallel
WaveNet: Fast High-Fidelity Speech Synthesis", 2017), written here from the
papers' description (the teacher is WaveNet, van den Oord et al. 2016); it
is the network whose data movement Zheng et al. ("Optimizing Memory-Access
Patterns for Deep Learning Accelerators", 2020) report: data-movement
elimination removed 123 of 124 load-store pairs and took its intermediate
storage from 146 MB to 1 MB. It is a stack of inverse-autoregressive flows;
each flow is a WaveNet that reads the previous flow's output z:
  - a causal convolution in: z without its last sample, left-padded by
    KERNEL (a Slice and a Pad), convolved to RESIDUAL channels, so that
    sample t sees z_(t-KERNEL) .. z_(t-1): the flow's mu_t and s_t depend
    on z_<t only, which is what makes it an inverse-autoregressive flow;
  - residual layers, in blocks of 10 with the dilation doubling 1, 2, 4,
    ..., 512 and restarting each block: the layer's input left-padded by
    (KERNEL - 1) * dilation (a Pad node: torch.nn.functional.pad(x,
    (pad, 0)), not Conv's own symmetric pads followed by a slice), a
    dilated convolution to 2 * RESIDUAL channels, plus the conditioning
    through a 1x1 convolution, split into halves f and g, the gated unit
    tanh(f) * sigmoid(g); a 1x1 convolution of it added back to the layer's
    input (every layer but the flow's last) and another one summed over the
    layers as the skip output;
  - ReLU, 1x1, ReLU, 1x1 on the skip sum giving two channels, the per-sample
    mu and log-scale s; the flow's output is z * exp(s) + mu.
The noise is the first flow's z; the last flow's output is the audio.

Configuration (DEFAULTS below):
  - the papers': 4 flows of 10, 10, 10 and 30 layers, the dilation doubling
    from 1 to 512 and restarting every 10 layers, the gated units with the
    conditioning through 1x1 convolutions, the residual and skip 1x1s, the
    ReLU-1x1-ReLU-1x1 output, z * exp(s) + mu;
  - ours: kernel 3 for the convolutions (the original WaveNet's is 2;
    Parallel WaveNet's are wider, 3 as far as we know), 64
    residual channels (128 in the gate), 64 skip channels, 80 conditioning
    channels (an 80-bin mel-spectrogram upsampled to the audio rate; the
    paper conditions on linguistic features), and T = 672 samples (28 ms at
    the paper's 24 kHz; with kernel 3 and dilation 512 a block's receptive
    field is 2047 samples, so the widest layers read mostly padding). The
    AWS paper gives neither the sequence length nor the channels behind
    its 146 MB: T is chosen so that dlc's own count of the intermediate
    storage is of that order, which also keeps `dlc run` fast.
Measured with `dlc compile OUT_DIR/wavenet/model.onnx --target inferentia`
(report.json, "summary"): intermediate_bytes_total 148,421,024 (148 MB; it
grows by about 216 KB a sample: 141.5 MB at T = 640, 446 MB at T = 2048),
intermediate_bytes_removed 13,475,360, load_store_pairs 64 removed of 64.
The 64 pairs are the Pads (60 before the dilated convolutions, 4 before
the flows' input convolutions); the Slices (the one-sample shift, the gate
halves, mu and s) are views in dlc, never copies, so they are not pairs.
dlc's total counts every intermediate buffer plus the removed copies' ones,
so it does not fall to 1 MB after the elimination as the paper's does.
1.73 GMACs (1.60 G executed: taps entirely in padding are clipped).
`dlc run` takes about 27 s on the host target (25 s of it compiling) and
12 s on inferentia (11 s compiling; simulated latency 2.18 ms).

There are no trained weights (nothing is downloaded): the weights are
PyTorch's default initialisation under torch.manual_seed(SEED), except that
the last 1x1 of each flow is scaled down (OUTPUT_SCALE) so that exp(s) stays
near 1 through the four flows, as it does in a trained IAF. The noise is
seeded logistic noise (the paper's z ~ Logistic(0, 1)), the conditioning
seeded standard normal. The output must be finite and not constant, or the
export fails.

The model is generated at test time into the build tree and never
committed. An existing directory whose export-info.json matches the
configuration, seed, opset and torch version is kept.

--samples, --residual, --skip, --cond, --kernel and --flow-layers override
the configuration (for finding the smallest model that shows a problem);
then the directory is --name (default: wavenet plus the overrides).
"""

import argparse
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_test_directory import (  # noqa: E402
    check_meaningful, export_once, print_exported)

OPSET = 13
DEFAULTS = {
    "flow_layers": [10, 10, 10, 30],
    "block": 10,
    "kernel": 3,
    "residual": 64,
    "skip": 64,
    "cond": 80,
    "samples": 672,
}
OUTPUT_SCALE = 0.1


class Flow(torch.nn.Module):
    """One IAF flow: a WaveNet from z (and the conditioning) to mu and s."""

    def __init__(self, layers, block, kernel, residual, skip, cond):
        super().__init__()
        self.kernel = kernel
        self.channels = residual
        self.dilations = [2 ** (i % block) for i in range(layers)]
        self.input = torch.nn.Conv1d(1, residual, kernel)
        self.dilated = torch.nn.ModuleList(
            torch.nn.Conv1d(residual, 2 * residual, kernel, dilation=d)
            for d in self.dilations)
        self.conditioning = torch.nn.ModuleList(
            torch.nn.Conv1d(cond, 2 * residual, 1) for _ in self.dilations)
        # The flow's last layer has no residual output (nothing reads it).
        self.residual = torch.nn.ModuleList(
            torch.nn.Conv1d(residual, residual, 1) for _ in self.dilations[:-1])
        self.skip = torch.nn.ModuleList(
            torch.nn.Conv1d(residual, skip, 1) for _ in self.dilations)
        self.hidden = torch.nn.Conv1d(skip, skip, 1)
        self.output = torch.nn.Conv1d(skip, 2, 1)
        with torch.no_grad():
            self.output.weight.mul_(OUTPUT_SCALE)
            self.output.bias.mul_(OUTPUT_SCALE)

    def forward(self, z, c):
        # z_<t: shift right by one sample, then the causal left padding.
        shifted = z[:, :, :-1]
        x = self.input(F.pad(shifted, (self.kernel, 0)))
        skips = None
        for i, d in enumerate(self.dilations):
            h = self.dilated[i](F.pad(x, ((self.kernel - 1) * d, 0)))
            h = h + self.conditioning[i](c)
            # Halves by constant slices (torch.chunk exports a Shape-based
            # computation of the bounds).
            f, g = h[:, :self.channels], h[:, self.channels:]
            gated = torch.tanh(f) * torch.sigmoid(g)
            s = self.skip[i](gated)
            skips = s if skips is None else skips + s
            if i < len(self.residual):
                x = x + self.residual[i](gated)
        out = self.output(F.relu(self.hidden(F.relu(skips))))
        mu, log_scale = out[:, :1], out[:, 1:]
        return z * torch.exp(log_scale) + mu


class ParallelWaveNetStudent(torch.nn.Module):
    def __init__(self, config):
        super().__init__()
        self.flows = torch.nn.ModuleList(
            Flow(layers, config["block"], config["kernel"], config["residual"],
                 config["skip"], config["cond"])
            for layers in config["flow_layers"])

    def forward(self, noise, conditioning):
        z = noise
        for flow in self.flows:
            z = flow(z, conditioning)
        return z


def constant_pad(g, input, pad, mode, value):
    """aten::pad (torch.nn.functional.pad) as one Pad node with constant
    pads: PyTorch's own symbolic computes them with a dozen shape ops
    (ConstantOfShape, Concat, a reversing Slice, Transpose, ...) that the
    compiler would have to fold first."""
    from torch.onnx import symbolic_helper
    if symbolic_helper._parse_arg(mode, "s") != "constant":
        raise RuntimeError("pad: only constant padding is exported")
    pad = symbolic_helper._maybe_get_const(pad, "is")
    rank = symbolic_helper._get_tensor_rank(input)
    if not isinstance(pad, (list, tuple)) or rank is None:
        raise RuntimeError("pad: the pads and the rank must be constants")
    # PyTorch: (last begin, last end, second-to-last begin, ...); ONNX: all
    # the begins, then all the ends, from the first dimension on.
    begins, ends = [0] * rank, [0] * rank
    for i in range(len(pad) // 2):
        begins[rank - 1 - i] = pad[2 * i]
        ends[rank - 1 - i] = pad[2 * i + 1]
    pads = g.op("Constant",
                value_t=torch.tensor(begins + ends, dtype=torch.int64))
    fill = 0.0
    if value is not None and not symbolic_helper._is_none(value):
        fill = float(symbolic_helper._maybe_get_const(value, "f"))
    fill = g.op("Constant", value_t=torch.tensor(fill, dtype=torch.float32))
    return g.op("Pad", input, pads, fill, mode_s="constant")


def export_info(name, config, seed):
    return {"model": name, "config": config, "seed": seed, "opset": OPSET,
            "output_scale": OUTPUT_SCALE, "torch": torch.__version__}


def export(name, config, out_dir, seed):
    info = export_info(name, config, seed)
    result = {}

    def produce(tmp_dir):
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        model = ParallelWaveNetStudent(config)
        model.eval()
        samples = config["samples"]
        # Logistic(0, 1) noise: log(u) - log(1 - u), u uniform in (0, 1).
        u = torch.rand(1, 1, samples,
                       generator=generator).clamp(1e-5, 1 - 1e-5)
        noise = torch.log(u) - torch.log1p(-u)
        conditioning = torch.randn(1, config["cond"], samples,
                                   generator=generator)
        with torch.no_grad():
            y = model(noise, conditioning)
        output = y.numpy()
        check_meaningful(name, output)
        torch.onnx.register_custom_op_symbolic("aten::pad", constant_pad, OPSET)
        torch.onnx.export(model, (noise, conditioning),
                          os.path.join(tmp_dir, "model.onnx"),
                          opset_version=OPSET,
                          input_names=["noise", "conditioning"],
                          output_names=["audio"],
                          training=torch.onnx.TrainingMode.EVAL,
                          do_constant_folding=True)
        result["output"] = output
        return [("input_0.pb", noise.numpy(), "noise"),
                ("input_1.pb", conditioning.numpy(), "conditioning"),
                ("output_0.pb", output, "audio")]

    model_dir = export_once(out_dir, name, info, produce)
    if model_dir is None:
        return
    print_exported(name, model_dir, result["output"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output-dir", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name",
                        help="directory name (default: wavenet, plus the "
                             "overridden settings)")
    parser.add_argument("--samples", type=int, help="T")
    parser.add_argument("--residual", type=int,
                        help="residual channels (the gate has twice as many)")
    parser.add_argument("--skip", type=int, help="skip channels")
    parser.add_argument("--cond", type=int, help="conditioning channels")
    parser.add_argument("--kernel", type=int,
                        help="kernel of the convolutions over time")
    parser.add_argument("--flow-layers",
                        help="layers of each flow, comma-separated")
    args = parser.parse_args()
    config = dict(DEFAULTS)
    suffix = ""
    for key in ("samples", "residual", "skip", "cond", "kernel"):
        value = getattr(args, key)
        if value is not None and value != config[key]:
            config[key] = value
            suffix += "_%s%d" % (key, value)
    if args.flow_layers:
        layers = [int(n) for n in args.flow_layers.split(",")]
        if layers != config["flow_layers"]:
            config["flow_layers"] = layers
            suffix += "_layers" + "-".join(str(n) for n in layers)
    export(args.name or "wavenet" + suffix, config, args.output_dir,
           args.seed)


if __name__ == "__main__":
    main()
