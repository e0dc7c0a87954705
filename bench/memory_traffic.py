#!/usr/bin/env python3
"""Per-layer traffic of the shared memory passes against its bounds.

Reads the two reports `dlc compile --hw local_memory_bytes=C` writes:
report.json (per ONNX node: MACs, bytes of its operands and results) and
memory_report.json (per node: peak local bytes as the independent
dlc-verify-local-memory accounting measures it, bytes moved in and out of
global memory). For every conv and fully connected layer it prints

  footprint   peak local bytes (<= capacity)
  traffic     bytes in + bytes out of global memory
  /compul.    traffic over the compulsory traffic (every input, weight and
              output moved once)
  /HK         traffic over the Hong-Kung I/O lower bound for a fast memory
              of C bytes: 2 x MACs / sqrt(C / 4) elements of 4 bytes
  /bound      traffic over max(compulsory, Hong-Kung): the goal is <= 2
  B/block     traffic over the contiguous DMA blocks the tiling model
              counted (`dma_blocks` of the node's nests): what a DMA engine
              that is slow on small blocks cares about
"""
import json
import math
import sys


def main(directory, capacity):
    cost = json.load(open(directory + "/report.json"))
    memory = json.load(open(directory + "/memory_report.json"))
    by_name = {node["op"]: node for node in memory["nodes"]}
    elements = capacity / 4
    rows = []
    for op in cost["ops"]:
        if op["op"] not in ("dlc.conv", "dlc.gemm", "dlc.matmul"):
            continue
        node = by_name.get(op["name"])
        if node is None:
            continue
        traffic = node["bytes_in"] + node["bytes_out"]
        compulsory = op["bytes_read"] + op["bytes_written"]
        hong_kung = 2 * op["macs"] / math.sqrt(elements) * 4
        bound = max(compulsory, hong_kung)
        blocks = sum(t["dma_blocks"] for t in node["tiling"])
        rows.append((op["name"], op["op"][4:], node["footprint_bytes"], traffic,
                     traffic / compulsory, traffic / hong_kung, traffic / bound,
                     traffic / max(blocks, 1)))
    print("%-36s %-6s %9s %12s %8s %8s %8s %8s" % (
        "layer", "op", "footprint", "traffic", "/compul.", "/HK", "/bound",
        "B/block"))
    for row in rows:
        print("%-36s %-6s %9d %12d %8.2f %8.2f %8.2f %8.0f" % row)
    worst = max(rows, key=lambda r: r[6])
    over = [r[0] for r in rows if r[6] > 2]
    print("capacity %d bytes: %d layers, every footprint <= capacity: %s, "
          "worst /bound %.2f (%s), layers over 2x: %d" % (
              capacity, len(rows), all(r[2] <= capacity for r in rows),
              worst[6], worst[0], len(over)))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
