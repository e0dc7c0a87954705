"""Writes a backend-test directory whose model computes on uint8 values
>= 128, where signed semantics give wrong answers (200 > 100 is false as
int8): Max, Div, Cast to and from float, ReduceMax and MaxPool. The
expected outputs come from numpy.

    make_unsigned_model.py OUT_DIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

out_dir = sys.argv[1]
u8 = TensorProto.UINT8
nodes = [
    helper.make_node("Max", ["a", "b"], ["max"]),
    helper.make_node("Div", ["a", "b"], ["quotient"]),
    helper.make_node("Cast", ["a"], ["as_float"], to=TensorProto.FLOAT),
    helper.make_node("Cast", ["f"], ["from_float"], to=u8),
    helper.make_node("ReduceMax", ["a"], ["reduce_max"], keepdims=0),
    helper.make_node("Reshape", ["a", "shape"], ["a3"]),
    helper.make_node("MaxPool", ["a3"], ["pooled"], kernel_shape=[2],
                     pads=[1, 1]),
]
shape = numpy_helper.from_array(np.array([1, 1, 6], np.int64), "shape")
graph = helper.make_graph(
    nodes, "unsigned",
    [helper.make_tensor_value_info("a", u8, [6]),
     helper.make_tensor_value_info("b", u8, [6]),
     helper.make_tensor_value_info("f", TensorProto.FLOAT, [6])],
    [helper.make_tensor_value_info("max", u8, [6]),
     helper.make_tensor_value_info("quotient", u8, [6]),
     helper.make_tensor_value_info("as_float", TensorProto.FLOAT, [6]),
     helper.make_tensor_value_info("from_float", u8, [6]),
     helper.make_tensor_value_info("reduce_max", u8, []),
     helper.make_tensor_value_info("pooled", u8, [1, 1, 7])],
    initializer=[shape])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
os.makedirs(os.path.join(out_dir, "test_data_set_0"), exist_ok=True)
save(model, os.path.join(out_dir, "model.onnx"))

a = np.array([200, 100, 255, 3, 128, 0], np.uint8)
b = np.array([100, 200, 2, 250, 127, 7], np.uint8)
f = np.array([200.7, 255.0, 128.5, 0.0, 3.9, 129.0], np.float32)
# MaxPool pads count as the lowest value, 0 for uint8.
padded = np.concatenate([[0], a, [0]]).astype(np.uint8)
pooled = np.maximum(padded[:-1], padded[1:]).reshape(1, 1, 7)
tensors = {
    "input_0": ("a", a), "input_1": ("b", b), "input_2": ("f", f),
    "output_0": ("max", np.maximum(a, b)),
    "output_1": ("quotient", a // b),
    "output_2": ("as_float", a.astype(np.float32)),
    "output_3": ("from_float", f.astype(np.uint8)),
    "output_4": ("reduce_max", np.array(a.max(), np.uint8)),
    "output_5": ("pooled", pooled),
}
for file_name, (name, array) in tensors.items():
    proto = numpy_helper.from_array(array, name)
    with open(os.path.join(out_dir, "test_data_set_0", file_name + ".pb"),
              "wb") as out:
        out.write(proto.SerializeToString())
