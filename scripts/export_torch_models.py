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
  quantized_cnn        a small CNN (two Conv+ReLU, average pooling, Linear)
                       quantized to int8 by PyTorch's own tools (FX graph
                       mode, its default x86 configuration: per-channel int8
                       weights, uint8 activations calibrated on random
                       batches), on a 1x3x16x16 image, written as ONNX's
                       quantized operators (QuantizeLinear, QLinearConv,
                       DequantizeLinear; the Linear with its float bias as
                       DequantizeLinear, MatMul, Add, QuantizeLinear), since
                       torch.onnx cannot export quantized modules; the
                       recorded output is PyTorch's quantized model's
  lstm_classifier      a 2-layer bidirectional torch.nn.LSTM (input 32,
                       hidden 48, batch-first) over a 1x20x32 sequence and
                       a Linear layer on its last step; opset 14 (LSTM)
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
from export_torchvision import (  # noqa: E402
    SegmentationOutput, calibrate_batch_norm)
from onnx_test_directory import (  # noqa: E402
    check_meaningful, export_once, print_exported)


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


class LSTMClassifier(torch.nn.Module):
    """A 2-layer bidirectional LSTM over a sequence, classified from its
    last step."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(32, 48, num_layers=2, batch_first=True,
                                  bidirectional=True)
        self.fc = torch.nn.Linear(96, 10)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.fc(y[:, -1])


def lstm_classifier(generator):
    return LSTMClassifier(), (1, 20, 32), 14


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.r1 = torch.nn.ReLU()
        self.c2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.r2 = torch.nn.ReLU()
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = self.r2(self.c2(self.r1(self.c1(x))))
        return self.fc(self.pool(x).flatten(1))


def quantized_cnn_onnx(quantized, path):
    """Writes the int8 model `quantized` (SmallCNN after PyTorch's FX
    convert_fx) as an ONNX graph of quantized operators."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, initializers = [], []

    def constant(name, array):
        initializers.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def qparams(name, scale, zero_point):
        return (constant(name + "_scale", np.float32(scale)),
                constant(name + "_zero_point", np.uint8(zero_point)))

    def weight(name, module):
        w = module.weight()
        return (constant(name + "_w", w.int_repr().numpy()),
                constant(name + "_w_scale",
                         w.q_per_channel_scales().numpy().astype(np.float32)),
                constant(name + "_w_zero_point",
                         w.q_per_channel_zero_points().numpy()
                         .astype(np.int8)))

    x_scale, x_zero = qparams("input", float(quantized.c1_input_scale_0),
                              int(quantized.c1_input_zero_point_0))
    nodes.append(helper.make_node("QuantizeLinear", ["input", x_scale, x_zero],
                                  ["input_q"], name="quantize_input"))
    previous = ("input_q", x_scale, x_zero, float(quantized.c1_input_scale_0))
    for name, stride in (("c1", 1), ("c2", 2)):
        module = getattr(quantized, name)
        # A fused ConvReLU2d: its output zero point is 0, so quantizing
        # clips at 0 and the ReLU is implicit.
        assert module.zero_point == 0
        w, w_scale, w_zero = weight(name, module)
        in_name, in_scale, in_zero, in_scale_value = previous
        bias = np.round(module.bias().detach().numpy() /
                        (in_scale_value *
                         module.weight().q_per_channel_scales().numpy()))
        b = constant(name + "_b", bias.astype(np.int32))
        y_scale, y_zero = qparams(name, module.scale, module.zero_point)
        nodes.append(helper.make_node(
            "QLinearConv",
            [in_name, in_scale, in_zero, w, w_scale, w_zero, y_scale, y_zero,
             b], [name + "_q"], name=name, pads=[1, 1, 1, 1],
            strides=[stride, stride]))
        previous = (name + "_q", y_scale, y_zero, module.scale)
    # Average pooling keeps its input's quantization.
    in_name, in_scale, in_zero, _ = previous
    nodes += [
        helper.make_node("DequantizeLinear", [in_name, in_scale, in_zero],
                         ["c2_f"], name="dequantize_c2"),
        helper.make_node("GlobalAveragePool", ["c2_f"], ["pool_f"],
                         name="pool"),
        helper.make_node("QuantizeLinear", ["pool_f", in_scale, in_zero],
                         ["pool_q"], name="quantize_pool"),
        helper.make_node("DequantizeLinear", ["pool_q", in_scale, in_zero],
                         ["pool_d"], name="dequantize_pool"),
        helper.make_node("Flatten", ["pool_d"], ["flat"], name="flatten")]
    f_scale, f_zero = qparams("flat", float(quantized._scale_0),
                              int(quantized._zero_point_0))
    fc = quantized.fc
    w = fc.weight()
    w_t = constant("fc_w", w.int_repr().numpy().T.copy())
    w_scale = constant("fc_w_scale",
                       w.q_per_channel_scales().numpy().astype(np.float32))
    w_zero = constant("fc_w_zero_point",
                      w.q_per_channel_zero_points().numpy().astype(np.int8))
    fc_b = constant("fc_b", fc.bias().detach().numpy().astype(np.float32))
    y_scale, y_zero = qparams("fc", fc.scale, fc.zero_point)
    nodes += [
        helper.make_node("QuantizeLinear", ["flat", f_scale, f_zero],
                         ["flat_q"], name="quantize_flat"),
        helper.make_node("DequantizeLinear", ["flat_q", f_scale, f_zero],
                         ["flat_d"], name="dequantize_flat"),
        helper.make_node("DequantizeLinear", [w_t, w_scale, w_zero],
                         ["fc_w_f"], name="dequantize_fc_w", axis=1),
        helper.make_node("MatMul", ["flat_d", "fc_w_f"], ["fc_mm"],
                         name="fc"),
        helper.make_node("Add", ["fc_mm", fc_b], ["fc_f"], name="fc_bias"),
        helper.make_node("QuantizeLinear", ["fc_f", y_scale, y_zero],
                         ["fc_q"], name="quantize_fc"),
        helper.make_node("DequantizeLinear", ["fc_q", y_scale, y_zero],
                         ["output"], name="dequantize_output")]
    graph = helper.make_graph(
        nodes, "quantized_cnn",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                       [1, 3, 16, 16])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 10])],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, path)


def quantized_cnn(generator):
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    model = SmallCNN().eval()
    example = torch.randn(1, 3, 16, 16, generator=generator)
    prepared = prepare_fx(model, get_default_qconfig_mapping("x86"),
                          (example,))
    with torch.no_grad():
        for _ in range(8):
            prepared(torch.randn(4, 3, 16, 16, generator=generator))
    return convert_fx(prepared), (1, 3, 16, 16), quantized_cnn_onnx


MODELS = {
    "fcn_resnet50": fcn_resnet50,
    "transformer_encoder": transformer_encoder,
    "quantized_cnn": quantized_cnn,
    "lstm_classifier": lstm_classifier,
}


def export(name, out_dir, seed):
    info = {"model": name, "seed": seed, "torch": torch.__version__,
            "torchvision": torchvision.__version__}
    result = {}

    def produce(tmp_dir):
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        # The third item: the opset for torch.onnx.export, or a function that
        # writes the ONNX graph itself.
        model, input_shape, opset = MODELS[name](generator)
        model.eval()
        x = torch.randn(*input_shape, generator=generator)
        with torch.no_grad():
            y = model(x)
        output = y.numpy()
        check_meaningful(name, output)
        path = os.path.join(tmp_dir, "model.onnx")
        if callable(opset):  # The model writes its own ONNX graph.
            opset(model, path)
        else:
            torch.onnx.export(model, x, path, opset_version=opset,
                              input_names=["input"], output_names=["output"])
        result["output"] = output
        return [("input_0.pb", x.numpy(), "input"),
                ("output_0.pb", output, "output")]

    model_dir = export_once(out_dir, name, info, produce)
    if model_dir is None:
        return
    print_exported(name, model_dir, result["output"])


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
