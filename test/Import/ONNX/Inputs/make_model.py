"""Writes binary ONNX models for the importer's tests: the cases that ONNX's
text syntax cannot express (raw_data, float16, node names, external data,
sequences) and broken files.

usage: make_model.py KIND OUTPUT
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path):
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def weights_model():
    """Conv with raw_data weights (dense_resource), float16 and int64 raw
    initializers, a large Constant node and named nodes."""
    w = numpy_helper.from_array(
        np.arange(8 * 3 * 3 * 3, dtype=np.float32).reshape(8, 3, 3, 3) / 100,
        "conv.weight")
    b = numpy_helper.from_array(np.arange(8, dtype=np.float32), "conv.bias")
    h = numpy_helper.from_array(np.array([1.0, -2.0], dtype=np.float16), "half")
    s = numpy_helper.from_array(np.array([1, 8 * 36], dtype=np.int64), "shape")
    big = numpy_helper.from_array(np.full((1, 8 * 36), 0.5, dtype=np.float32))
    nodes = [
        helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"],
                         name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Reshape", ["c", "shape"], ["r"], name="flat"),
        helper.make_node("Constant", [], ["k"], name="scale_const", value=big),
        helper.make_node("Mul", ["r", "k"], ["y"]),
        helper.make_node("Cast", ["half"], ["h32"], name="cast_half", to=1),
    ]
    graph = helper.make_graph(
        nodes, "weights",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 288]),
         helper.make_tensor_value_info("h32", TensorProto.FLOAT, [2])],
        [w, b, h, s])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def add_model(initializer):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", initializer.name], ["y"], name="add")],
        "add", [x], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
        [initializer])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "weights":
        save(weights_model(), path)
    elif kind == "truncated":
        data = weights_model().SerializeToString()
        with open(path, "wb") as f:
            f.write(data[: len(data) // 2])
    elif kind == "garbage":
        with open(path, "wb") as f:
            f.write(bytes((i * 151 + 7) % 256 for i in range(1000)))
    elif kind == "empty":
        open(path, "wb").close()
    elif kind == "raw-size":
        t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                        raw_data=np.zeros(3, np.float32).tobytes())
        save(add_model(t), path)
    elif kind == "typed-count":
        t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                        float_data=[1.0, 2.0, 3.0])
        save(add_model(t), path)
    elif kind == "external":
        # The checker wants the data file to exist, next to the model.
        t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                        data_location=TensorProto.EXTERNAL)
        t.external_data.add(key="location", value="w.bin")
        save(add_model(t), path)
        with open(path + ".bin", "wb") as f:
            f.write(np.ones(4, np.float32).tobytes())
        t.external_data[0].value = path.rsplit("/", 1)[-1] + ".bin"
        save(add_model(t), path)
    elif kind == "sequence":
        x = helper.make_tensor_sequence_value_info("x", TensorProto.FLOAT, [4])
        graph = helper.make_graph(
            [helper.make_node("SequenceLength", ["x"], ["y"])], "seq", [x],
            [helper.make_tensor_value_info("y", TensorProto.INT64, [])])
        save(helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    else:
        sys.exit("unknown kind " + kind)


if __name__ == "__main__":
    main()
