#!/usr/bin/env python3
"""Writes the data-movement benchmark models in ONNX text syntax.

shufflenet_block.onnxtxt: two ShuffleNet-v2 units (channel split, 1x1 conv,
3x3 depthwise conv, 1x1 conv, concat, channel shuffle as reshape ->
transpose -> reshape) on a 1x24x28x28 input.
movement_mix.onnxtxt: a synthetic graph of reshape, transpose, slice,
split, concat, pad, flatten, squeeze/unsqueeze, expand and tile between a
few elementwise ops.

Weights are deterministic (a fixed formula), so the files are stable.
Run from anywhere: python3 bench/models/generate.py
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def values(count, seed):
    return ", ".join(
        f"{0.25 * math.sin(seed * 7.1 + i * 0.37):.4f}" for i in range(count)
    )


def shufflenet_block():
    c, half = 24, 12
    inits, nodes = [], []

    def conv_weight(name, shape, seed):
        count = math.prod(shape)
        inits.append(f"float[{','.join(map(str, shape))}] {name} = {{{values(count, seed)}}}")

    inits.append("int64[2] SplitSizes = {12, 12}")
    inits.append(f"int64[5] Grouped = {{1, 2, {half}, 28, 28}}")
    inits.append(f"int64[4] Flat = {{1, {c}, 28, 28}}")
    x = "X"
    for unit in range(2):
        p = f"u{unit}_"
        conv_weight(f"{p}W1", [half, half, 1, 1], 3 * unit + 1)
        conv_weight(f"{p}W2", [half, 1, 3, 3], 3 * unit + 2)
        conv_weight(f"{p}W3", [half, half, 1, 1], 3 * unit + 3)
        nodes += [
            f"{p}a, {p}b = Split <axis = 1> ({x}, SplitSizes)",
            f"{p}c1 = Conv <kernel_shape = [1, 1]> ({p}b, {p}W1)",
            f"{p}r1 = Relu({p}c1)",
            f"{p}c2 = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], group = {half}> ({p}r1, {p}W2)",
            f"{p}c3 = Conv <kernel_shape = [1, 1]> ({p}c2, {p}W3)",
            f"{p}r3 = Relu({p}c3)",
            f"{p}cat = Concat <axis = 1> ({p}a, {p}r3)",
            f"{p}g = Reshape({p}cat, Grouped)",
            f"{p}t = Transpose <perm = [0, 2, 1, 3, 4]> ({p}g)",
            f"{p}s = Reshape({p}t, Flat)",
        ]
        x = f"{p}s"
    nodes.append(f"Y = Relu({x})")
    return (
        '<ir_version: 8, opset_import: ["" : 13]>\n'
        f"shufflenet_block (float[1,{c},28,28] X) => (float[1,{c},28,28] Y)\n"
        "  <" + ",\n   ".join(inits) + ">\n{\n  "
        + "\n  ".join(nodes)
        + "\n}\n"
    )


def movement_mix():
    inits = [
        "int64[3] Rows = {1, 256, 8}",
        "int64[2] Halves = {4, 4}",
        "int64[1] Axis0 = {0}",
        "int64[6] PadLast = {0, 0, 1, 0, 0, 1}",
        "int64[1] S0 = {0}",
        "int64[1] E16 = {16}",
        "int64[1] Ax2 = {2}",
        "int64[1] Ax3 = {3}",
        "int64[1] Step2 = {2}",
        "int64[1] SRev = {-1}",
        "int64[1] ERev = {-1000}",
        "int64[1] StepRev = {-1}",
        "int64[4] Grid = {1, 8, 2, 64}",
        "int64[3] Wide = {2, 8, 64}",
        "int64[3] Repeats = {1, 1, 2}",
            ]
    nodes = [
        # NCHW -> NHWC, pixels as rows, channels split in halves and glued
        # back in the other order, padded, flattened.
        "T1 = Transpose <perm = [0, 2, 3, 1]> (X)",
        "R1 = Reshape(T1, Rows)",
        "L, H = Split <axis = 2> (R1, Halves)",
        "Lsq = Squeeze(L, Axis0)",
        "Lun = Unsqueeze(Lsq, Axis0)",
        "C1 = Concat <axis = 2> (H, Lun)",
        "P1 = Pad(C1, PadLast)",
        "F1 = Flatten <axis = 1> (P1)",
        "Y1 = Relu(F1)",
        # Every other row of the image, reversed along the width, regrouped
        # and transposed, then broadcast and tiled.
        "S1 = Slice(X, S0, E16, Ax2, Step2)",
        "Rev = Slice(S1, SRev, ERev, Ax3, StepRev)",
        "G = Reshape(Rev, Grid)",
        "T2 = Transpose <perm = [0, 2, 1, 3]> (G)",
        "W = Reshape(T2, Wide)",
        "Tl = Tile(W, Repeats)",
        "A = Add(Tl, Tl)",
        "Y2 = Sigmoid(A)",
        # A transpose and its inverse around an elementwise op's input.
        "T3 = Transpose <perm = [0, 3, 1, 2]> (X)",
        "T4 = Transpose <perm = [0, 2, 3, 1]> (T3)",
        "Y3 = Neg(T4)",
    ]
    return (
        '<ir_version: 8, opset_import: ["" : 13]>\n'
        "movement_mix (float[1,8,16,16] X) => "
        "(float[1,2560] Y1, float[2,8,128] Y2, float[1,8,16,16] Y3)\n"
        "  <" + ",\n   ".join(inits) + ">\n{\n  "
        + "\n  ".join(nodes)
        + "\n}\n"
    )


for name, text in [
    ("shufflenet_block", shufflenet_block()),
    ("movement_mix", movement_mix()),
]:
    with open(os.path.join(HERE, name + ".onnxtxt"), "w") as f:
        f.write(text)
