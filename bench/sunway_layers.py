"""Per conv/fc layer of a Sunway run report (dlc run --report): modeled
time, fraction of the core group's peak (742 GFLOPS at the defaults) and of
the DMA bound (the bytes it moved at the best block bandwidth), for fully
connected layers also of the weights' bound (a batch-1 layer reads each
weight once: 4 bytes per MAC at the best bandwidth, what no tiling can beat),
mean DMA block, LDM per CPE (the largest kernel of the layer), load
balance; with a baseline report, the speed-up per
layer class.

usage: sunway_layers.py RUN_REPORT COMPILED_DIR [BASELINE_REPORT]"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def layers(report):
    return [l for l in report["layers"] if l["op"] in ("Conv", "Gemm", "MatMul")]


report = load(sys.argv[1])
manifest = load(sys.argv[2] + "/dlc-artifacts.json")
baseline = load(sys.argv[3]) if len(sys.argv) > 3 else None
hw = report["hardware"]
clock = hw["clock_hz"]
peak_flops = hw["cpes"] * hw["vector_lanes"] * 2 * clock
best_bandwidth = max(hw["dma_curve_bytes_per_second"])
print("peak %.0f GFLOPS, best DMA bandwidth %.1f GB/s" %
      (peak_flops / 1e9, best_bandwidth / 1e9))
print("%-32s %-4s %9s %7s %7s %7s %8s %7s %6s %s" %
      ("layer", "op", "ms", "%peak", "%dma", "%wts", "B/block", "LDM KiB", "bal",
       "x baseline" if baseline else ""))
base = {l["name"]: l for l in layers(baseline)} if baseline else {}
classes = {}
for l in layers(report):
    seconds = l["seconds"]
    flops = 2 * l["macs"]
    bytes_moved = l["dram_read_bytes"] + l["dram_write_bytes"]
    peak_fraction = flops / (seconds * peak_flops) if seconds else 0
    dma_fraction = bytes_moved / (seconds * best_bandwidth) if seconds else 0
    weights_fraction = ("%6.1f%%" % (100 * 4 * l["macs"] /
                                     (seconds * best_bandwidth))
                        if l["op"] != "Conv" and seconds else "     -")
    speedup = ""
    if l["name"] in base and seconds:
        ratio = base[l["name"]]["seconds"] / seconds
        speedup = "%.2f" % ratio
        classes.setdefault(l["op"], []).append(ratio)
    print("%-32s %-4s %9.3f %6.1f%% %6.1f%% %s %8.0f %7.1f %6.2f %s" %
          (l["name"][-32:], l["op"], seconds * 1e3, 100 * peak_fraction,
           100 * dma_fraction, weights_fraction, l["mean_dma_block_bytes"],
           l.get("ldm_bytes", 0) / 1024, l["load_balance"], speedup))
s = report["summary"]
print("model: %.2f ms modeled, %.2f frames/s, MAC utilization %.4f" %
      (s["seconds"] * 1e3, s["frames_per_second"], s["mac_utilization"]))
convs = [l for l in layers(report) if l["op"] == "Conv" and l["seconds"]]
if convs:
    print("convolutions: %.1f%% of peak on average (layer mean), %.1f%% over "
          "their total time" %
          (100 * sum(2 * l["macs"] / (l["seconds"] * peak_flops)
                     for l in convs) / len(convs),
           100 * sum(2 * l["macs"] for l in convs) /
           (sum(l["seconds"] for l in convs) * peak_flops)))
for op, ratios in sorted(classes.items()):
    print("speed-up over the baseline, %s layers: mean %.2fx" %
          (op, sum(ratios) / len(ratios)))
