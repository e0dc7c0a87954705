#!/usr/bin/python3
"""Exports torchvision classification and segmentation models as ONNX
backend-test directories.

    /usr/bin/python3 scripts/export_torchvision.py -o OUT_DIR MODEL...
    /usr/bin/python3 scripts/export_torchvision.py --list [all|classification|segmentation|representatives]

MODEL is any name of torchvision.models.list_models() (classification) or
of torchvision.models.segmentation, `classification`, `segmentation` or
`all`. Each model goes to OUT_DIR/MODEL/{model.onnx,
test_data_set_0/input_0.pb, output_0.pb}: opset 13 (17 where the model
needs LayerNormalization), batch 1, a 3x224x224 input, and PyTorch's own
output as the recorded one, so `dlc run OUT_DIR/MODEL --target T` checks dlc
against an independent implementation.

--size S exports at a 3xSxS input instead (into OUT_DIR/MODEL_S), raised to
the smallest size the model accepts; models whose architecture fixes the
resolution (ViT, MaxViT) keep 224. A segmentation model returns its `out`
head only (no auxiliary classifier), resized to the input by the model.

With --keep-batchnorm the BatchNormalization nodes stay in the graph
(OUT_DIR/MODEL_bn), so dlc's own BatchNorm-into-Conv fold is exercised.

There are no pretrained weights (nothing is downloaded): the weights are
torchvision's random initialisation under torch.manual_seed(SEED). So that
the recorded outputs are meaningful rather than blown up or collapsed:
  - batch-norm statistics are calibrated on random batches in training mode
    (running averages over the batches) before switching to eval mode, which
    also makes the folded BatchNorm parameters non-trivial;
  - the input is a seeded standard-normal image;
  - the output must be finite and not constant, or the export fails.

The models are large (ResNet-18 47 MB, VGG-19 575 MB), so they are generated
at test time into the build tree and never committed. An existing directory
whose export-info.json matches (model, seed, opset, torch version) is kept.
"""

import argparse
import os
import sys

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_test_directory import check_meaningful, export_once  # noqa: E402

CLASSIFICATION = torchvision.models.list_models(module=torchvision.models)
SEGMENTATION = torchvision.models.list_models(
    module=torchvision.models.segmentation)
MODELS = CLASSIFICATION + SEGMENTATION
# The smallest model of each architecture family: the sweep that fits in an
# afternoon on two cores (the whole of MODELS takes days).
REPRESENTATIVES = [
    "alexnet", "convnext_tiny", "densenet121", "efficientnet_b0",
    "efficientnet_v2_s", "googlenet", "inception_v3", "maxvit_t",
    "mnasnet0_5", "mobilenet_v2", "mobilenet_v3_small", "regnet_x_400mf",
    "regnet_y_400mf", "resnet18", "resnext50_32x4d", "shufflenet_v2_x0_5",
    "squeezenet1_1", "swin_t", "swin_v2_t", "vgg11_bn", "vit_b_32",
    "wide_resnet50_2", "deeplabv3_mobilenet_v3_large", "fcn_resnet50",
    "lraspp_mobilenet_v3_large"]
GROUPS = {"classification": CLASSIFICATION, "segmentation": SEGMENTATION,
          "representatives": REPRESENTATIVES, "all": MODELS}
OPSET = 13
# LayerNormalization is an ONNX operator from opset 17; older opsets spell
# it out in ReduceMean/Sub/Pow/Sqrt/Div, which PyTorch 1.13 exports too.
OPSET_17 = ("convnext", "swin", "vit_", "maxvit")
DEFAULT_SIZE = 224
INPUT_SHAPE = (1, 3, DEFAULT_SIZE, DEFAULT_SIZE)
# The architecture fixes the resolution (position embeddings, window
# partitions), or a window needs at least this much input.
FIXED_SIZE = {"vit_": 224, "maxvit": 224}
MIN_SIZE = {"inception_v3": 75, "alexnet": 63, "squeezenet": 33}
CALIBRATION_BATCHES = 2
CALIBRATION_BATCH_SIZE = 4


def calibrate_batch_norm(model, generator, input_shape=INPUT_SHAPE[1:]):
    """Sets every BatchNorm's running statistics to the cumulative average
    over a few random batches of `input_shape` images (momentum None), in
    training mode."""
    batch_norms = [m for m in model.modules()
                   if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not batch_norms:
        return
    for bn in batch_norms:
        bn.reset_running_stats()
        bn.momentum = None
        # Non-trivial affine parameters, so folding them is exercised.
        with torch.no_grad():
            bn.weight.uniform_(0.5, 1.5, generator=generator)
            bn.bias.uniform_(-0.2, 0.2, generator=generator)
    model.train()
    with torch.no_grad():
        for _ in range(CALIBRATION_BATCHES):
            model(torch.randn(CALIBRATION_BATCH_SIZE, *input_shape,
                              generator=generator))


class SegmentationOutput(torch.nn.Module):
    """torchvision's segmentation models return a dict; ONNX wants a
    tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def by_prefix(table, name, default):
    return next((v for k, v in table.items() if name.startswith(k)), default)


def input_size(name, size):
    """The square input size `name` is exported at, given the asked one."""
    return by_prefix(FIXED_SIZE, name, max(size, by_prefix(MIN_SIZE, name, 1)))


def opset_for(name):
    return 17 if name.startswith(OPSET_17) else OPSET


def build_model(name):
    """torchvision's `name` with random weights and no download."""
    if name in SEGMENTATION:
        builder = getattr(torchvision.models.segmentation, name)
        return SegmentationOutput(builder(weights=None, weights_backbone=None,
                                          aux_loss=False))
    builder = getattr(torchvision.models, name)
    if name in ("googlenet", "inception_v3"):
        # Without auxiliary heads, which only training uses.
        return builder(weights=None, aux_logits=False, init_weights=True)
    model = builder(weights=None)
    # ViT initialises its classifier to zeros (a constant output): give
    # every all-zero weight seeded random values instead.
    with torch.no_grad():
        for module in model.modules():
            weight = getattr(module, "weight", None)
            if (isinstance(module, (torch.nn.Linear, torch.nn.Conv2d))
                    and not weight.any()):
                torch.nn.init.normal_(weight, std=0.02)
    return model


def export_info(name, seed, keep_batchnorm, size=DEFAULT_SIZE):
    info = {"model": name, "seed": seed, "opset": opset_for(name),
            "keep_batchnorm": keep_batchnorm,
            "input_shape": [1, 3, size, size], "torch": torch.__version__,
            "torchvision": torchvision.__version__}
    return info


def export(name, out_dir, seed, keep_batchnorm, size=DEFAULT_SIZE):
    dir_name = name + "_bn" if keep_batchnorm else name
    if size != DEFAULT_SIZE:
        dir_name += "_%d" % size
    size = input_size(name, size)
    info = export_info(name, seed, keep_batchnorm, size)
    result = {}

    def produce(tmp_dir):
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        model = build_model(name)
        calibrate_batch_norm(model, generator, input_shape=(3, size, size))
        model.eval()
        x = torch.randn(1, 3, size, size, generator=generator)
        with torch.no_grad():
            y = model(x)
        output = y.numpy()
        check_meaningful(name, output)
        # PyTorch folds eval-mode batch norms into the convolutions while
        # exporting; PRESERVE keeps them as BatchNormalization nodes, so that
        # dlc's own fold is what removes them.
        training = (torch.onnx.TrainingMode.PRESERVE if keep_batchnorm
                    else torch.onnx.TrainingMode.EVAL)
        torch.onnx.export(model, x, os.path.join(tmp_dir, "model.onnx"),
                          opset_version=opset_for(name),
                          input_names=["input"],
                          output_names=["output"], training=training,
                          do_constant_folding=not keep_batchnorm)
        result["output"] = output
        return [("input_0.pb", x.numpy(), "input"),
                ("output_0.pb", output, "output")]

    model_dir = export_once(out_dir, dir_name, info, produce)
    if model_dir is None:
        return
    output = result["output"]
    top5 = np.argsort(output.reshape(output.shape[0], -1)[0])[::-1][:5]
    print("%s: exported to %s; output %s min %.4g max %.4g std %.4g, top-5 %s"
          % (name, model_dir, output.shape, output.min(), output.max(),
             output.std(), top5.tolist()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*",
                        choices=sorted(MODELS) + sorted(GROUPS))
    parser.add_argument("-o", "--output-dir")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE,
                        help="square input size (default 224)")
    parser.add_argument("--keep-batchnorm", action="store_true",
                        help="keep BatchNormalization nodes (into MODEL_bn)")
    parser.add_argument("--list", action="store_true",
                        help="print the models' names, one per line")
    args = parser.parse_args()
    names = []
    for model in args.models or (["all"] if args.list else []):
        names += GROUPS.get(model, [model])
    if args.list:
        print("\n".join(names))
        return
    if not names or not args.output_dir:
        parser.error("MODEL and -o are required")
    for name in names:
        export(name, args.output_dir, args.seed, args.keep_batchnorm,
               args.size)


if __name__ == "__main__":
    main()
