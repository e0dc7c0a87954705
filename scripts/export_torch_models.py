#!/usr/bin/python3
"""Exports PyTorch models beyond classification as ONNX backend-test
directories.

    /usr/bin/python3 scripts/export_torch_models.py -o OUT_DIR MODEL...

MODEL is one of:
  fcn_resnet50         torchvision's FCN segmentation model (ResNet-50
                       backbone with dilated convolutions, a bilinear Resize
                       back to the input size), on a 1x3x64x64 image; opset 13
  transformer_encoder  torch.nn.TransformerEncoder, 2 layers, d_model 64,
                       4 heads, feed-forward 128, on a 1x16x64 sequence;
                       opset 17 (LayerNormalization, attention as MatMul,
                       Softmax, Transpose, Reshape)
  all                  every model above

Each goes to OUT_DIR/MODEL/{model.onnx, test_data_set_0/input_0.pb,
output_0.pb} with PyTorch's own output as the recorded one. There are no
pretrained weights (nothing is downloaded): the weights are PyTorch's random
initialisation under torch.manual_seed(SEED); FCN's batch-norm statistics
are calibrated on random batches, as in export_torchvision.py, so that the
folded parameters are not trivial. An existing directory whose
export-info.json matches is kept.
"""

import argparse
import os
import sys

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_torchvision import calibrate_batch_norm  # noqa: E402
from onnx_test_directory import check_meaningful, export_once  # noqa: E402


class SegmentationOutput(torch.nn.Module):
    """torchvision's segmentation models return a dict; ONNX wants a
    tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def fcn_resnet50(generator):
    model = torchvision.models.segmentation.fcn_resnet50(
        weights=None, weights_backbone=None, aux_loss=False)
    calibrate_batch_norm(model, generator, input_shape=(3, 64, 64))
    return SegmentationOutput(model), (1, 3, 64, 64), 13


def transformer_encoder(generator):
    layer = torch.nn.TransformerEncoderLayer(
        d_model=64, nhead=4, dim_feedforward=128, dropout=0.0,
        batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=2,
                                        enable_nested_tensor=False)
    return model, (1, 16, 64), 17


MODELS = {
    "fcn_resnet50": fcn_resnet50,
    "transformer_encoder": transformer_encoder,
}


def export(name, out_dir, seed):
    info = {"model": name, "seed": seed, "torch": torch.__version__,
            "torchvision": torchvision.__version__}
    result = {}

    def produce(tmp_dir):
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        model, input_shape, opset = MODELS[name](generator)
        model.eval()
        x = torch.randn(*input_shape, generator=generator)
        with torch.no_grad():
            y = model(x)
        output = y.numpy()
        check_meaningful(name, output)
        torch.onnx.export(model, x, os.path.join(tmp_dir, "model.onnx"),
                          opset_version=opset, input_names=["input"],
                          output_names=["output"])
        result["output"] = output
        return [("input_0.pb", x.numpy(), "input"),
                ("output_0.pb", output, "output")]

    model_dir = export_once(out_dir, name, info, produce)
    if model_dir is None:
        return
    output = result["output"]
    print("%s: exported to %s; output %s min %.4g max %.4g std %.4g"
          % (name, model_dir, output.shape, output.min(), output.max(),
             output.std()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", choices=sorted(MODELS) + ["all"])
    parser.add_argument("-o", "--output-dir", required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = sorted(MODELS) if "all" in args.models else args.models
    for name in names:
        export(name, args.output_dir, args.seed)


if __name__ == "__main__":
    main()
