#!/usr/bin/python3
"""Exports torchvision classifiers as ONNX backend-test directories.

    /usr/bin/python3 scripts/export_torchvision.py -o OUT_DIR MODEL...

MODEL is alexnet, vgg19, resnet18, resnet50 or all. Each model goes to
OUT_DIR/MODEL/{model.onnx, test_data_set_0/input_0.pb, output_0.pb}: opset
13, batch 1, a 3x224x224 input, and PyTorch's own output as the recorded
one, so `dlc run OUT_DIR/MODEL --target T` checks dlc against an
independent implementation.

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

MODELS = {
    "alexnet": torchvision.models.alexnet,
    "vgg19": torchvision.models.vgg19,
    "resnet18": torchvision.models.resnet18,
    "resnet50": torchvision.models.resnet50,
}
OPSET = 13
INPUT_SHAPE = (1, 3, 224, 224)
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


def export_info(name, seed, keep_batchnorm):
    return {"model": name, "seed": seed, "opset": OPSET,
            "keep_batchnorm": keep_batchnorm,
            "input_shape": list(INPUT_SHAPE), "torch": torch.__version__,
            "torchvision": torchvision.__version__}


def export(name, out_dir, seed, keep_batchnorm):
    dir_name = name + "_bn" if keep_batchnorm else name
    info = export_info(name, seed, keep_batchnorm)
    result = {}

    def produce(tmp_dir):
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        model = MODELS[name](weights=None)
        calibrate_batch_norm(model, generator)
        model.eval()
        x = torch.randn(*INPUT_SHAPE, generator=generator)
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
                          opset_version=OPSET, input_names=["input"],
                          output_names=["output"], training=training,
                          do_constant_folding=not keep_batchnorm)
        result["output"] = output
        return [("input_0.pb", x.numpy(), "input"),
                ("output_0.pb", output, "output")]

    model_dir = export_once(out_dir, dir_name, info, produce)
    if model_dir is None:
        return
    output = result["output"]
    top5 = np.argsort(output[0])[::-1][:5].tolist()
    print("%s: exported to %s; output %s min %.4g max %.4g std %.4g, top-5 %s"
          % (name, model_dir, output.shape, output.min(), output.max(),
             output.std(), top5))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+",
                        choices=sorted(MODELS) + ["all"])
    parser.add_argument("-o", "--output-dir", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep-batchnorm", action="store_true",
                        help="keep BatchNormalization nodes (into MODEL_bn)")
    args = parser.parse_args()
    names = sorted(MODELS) if "all" in args.models else args.models
    for name in names:
        export(name, args.output_dir, args.seed, args.keep_batchnorm)


if __name__ == "__main__":
    main()
