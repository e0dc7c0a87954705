"""Writes one ONNX TensorProto file for the driver's lit tests.

    write_tensor.py OUT.pb TYPE SHAPE VALUES [--name NAME] [--typed]

TYPE is a numpy dtype name (float32, float16, int8, ..., bool), SHAPE is
comma-separated ("" for a scalar), VALUES comma-separated (nan, inf, -inf
allowed). With --typed the values go to the typed repeated field onnx.proto
assigns to TYPE (float_data, int32_data, ...) instead of raw_data, which is
how some ONNX test files store them. --dims and --data-type overwrite those
fields afterwards, to make inconsistent files for the error tests.
"""
import argparse
import sys

import numpy as np
from onnx import helper, mapping, numpy_helper

# The four positional arguments come first: values may start with '-'.
parser = argparse.ArgumentParser(usage=__doc__)
parser.add_argument("--name", default="")
parser.add_argument("--typed", action="store_true")
parser.add_argument("--dims", help="comma-separated dims to store instead")
parser.add_argument("--data-type", type=int, help="data_type to store instead")
if len(sys.argv) < 5:
    parser.error("expected OUT.pb TYPE SHAPE VALUES")
args = parser.parse_args(sys.argv[5:])
args.out, args.type, args.shape, args.values = sys.argv[1:5]
shape = [int(d) for d in args.shape.split(",") if d]
values = [float(v) for v in args.values.split(",") if v]
array = np.array(values, dtype=np.float64).astype(args.type).reshape(shape)
if args.typed:
    # make_tensor picks the field (float16 goes to int32_data as its bits).
    data_type = mapping.NP_TYPE_TO_TENSOR_TYPE[array.dtype]
    tensor = helper.make_tensor(args.name, data_type, shape,
                                array.flatten().tolist())
    assert not tensor.HasField("raw_data")
else:
    tensor = numpy_helper.from_array(array, args.name)
if args.dims is not None:
    del tensor.dims[:]
    tensor.dims.extend(int(d) for d in args.dims.split(",") if d)
if args.data_type is not None:
    tensor.data_type = args.data_type
with open(args.out, "wb") as f:
    f.write(tensor.SerializeToString())
