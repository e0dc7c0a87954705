"""Tables of bench/snowflake.sh from the reports it wrote: MODEL
PREDICTED_REPORT PREFIX (PREFIX.auto.json, .mloop.json, .kloop.json,
.unbalanced.json are `dlc run --report` outputs)."""
import json
import sys

model, predicted_path, prefix = sys.argv[1:4]
PAPER = {"alexnet": "93.6 fps at 1.2 GB/s", "resnet18": "21.4 fps at 2.2 GB/s",
         "resnet50": "218.6 ms per frame (4.6 fps)"}


def load(name):
    return json.load(open("%s.%s.json" % (prefix, name)))


auto, mloop, kloop, unbalanced = (load(n) for n in
                                  ("auto", "mloop", "kloop", "unbalanced"))
predicted = json.load(open(predicted_path))
clock = auto["summary"]["clock_hz"]
peak = auto["summary"]["peak_macs_per_cycle"]


def conv_layers(report):
    return [l for l in report["layers"] if l["op"] == "Conv"]


def totals(report, layers):
    cycles = sum(l["cycles"] for l in layers)
    moved = sum(l["dram_read_bytes"] + l["dram_write_bytes"] for l in layers)
    return cycles, moved


s = auto["summary"]
print("whole model: %.2f fps, %.3f ms, %.2f GB/s, MAC utilization %.3f"
      % (s["frames_per_second"], s["seconds"] * 1e3,
         (s["dram_read_bytes"] + s["dram_write_bytes"]) / s["seconds"] / 1e9,
         s["mac_utilization"]))
convs = conv_layers(auto)
cycles, moved = totals(auto, convs)
macs = sum(l["macs"] for l in convs)
bound = clock / (macs / peak)
print("conv layers: %.2f fps, %.2f GB/s; compute bound %.2f fps; %.1f%% of "
      "the bound; paper: %s" % (clock / cycles, moved / (cycles / clock) / 1e9,
                                bound, 100 * (macs / peak) / cycles,
                                PAPER.get(model, "-")))

print("\n%-40s %10s %10s %10s %7s %s" % ("conv layer", "mloop", "kloop",
                                         "chosen", "order", "best?"))
right = 0
for a, m, k in zip(convs, conv_layers(mloop), conv_layers(kloop)):
    order = a.get("loop_order", "?")
    best = min(m["cycles"], k["cycles"])
    ok = a["cycles"] <= best * 1.0005
    right += ok
    print("%-40s %10.0f %10.0f %10.0f %7s %s" % (a["name"][-40:], m["cycles"],
                                                  k["cycles"], a["cycles"],
                                                  order, "yes" if ok else "no"))
mt = sum(l["cycles"] for l in conv_layers(mloop))
kt = sum(l["cycles"] for l in conv_layers(kloop))
print("total: mloop %.0f, kloop %.0f, model's choice %.0f; the choice is the "
      "faster (or equal) in %d of %d layers" % (mt, kt, cycles, right,
                                                len(convs)))

ub = unbalanced["summary"]
print("\nload/store units: balanced %.0f cycles, unbalanced %.0f cycles: "
      "%.3fx" % (s["cycles"], ub["cycles"], ub["cycles"] / s["cycles"]))
for name, report in (("balanced", auto), ("unbalanced", unbalanced)):
    lsu = report["summary"]["lsu_bytes"]
    mean = sum(lsu) / len(lsu)
    print("  %-10s bytes per unit %s, imbalance (max / mean - 1) %.1f%%"
          % (name, [round(b / 1e6, 2) for b in lsu],
             100 * (max(lsu) / mean - 1) if mean else 0))

print("\n%-40s %12s %12s %8s" % ("layer", "predicted", "simulated", "ratio"))
for p, a in zip(predicted["layers"], auto["layers"]):
    if p["cycles"] == 0:
        continue
    print("%-40s %12.0f %12.0f %8.3f" % (a["name"][-40:], p["cycles"],
                                         a["cycles"], a["cycles"] / p["cycles"]))
