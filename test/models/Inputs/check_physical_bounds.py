"""Checks that no layer of a report beats the machine's physical bounds:
its cycles are at least its MACs at the peak MAC rate, and its seconds at
least its DRAM bytes at the peak bandwidth (when the report gives one).
Layers that fell back to the host ("on": "host") are not checked.
Prints the number of layers checked and 'within bounds', or each
violation."""
import json
import sys

report = json.load(open(sys.argv[1]))
summary = report["summary"]
peak_macs = summary["peak_macs_per_cycle"]
peak_bandwidth = summary["peak_dram_bytes_per_second"]
problems = []
# Layers that fell back ran on the host, whose bounds dlc does not model.
on_target = [layer for layer in report["layers"] if layer.get("on") != "host"]
for layer in on_target:
    if layer["cycles"] * peak_macs < layer["macs"] * (1 - 1e-9):
        problems.append("%s: %d MACs in %g cycles beats %g MACs per cycle"
                        % (layer["name"], layer["macs"], layer["cycles"],
                           peak_macs))
    moved = layer["dram_read_bytes"] + layer["dram_write_bytes"]
    if peak_bandwidth and layer["seconds"] * peak_bandwidth < moved * (1 - 1e-9):
        problems.append("%s: %d bytes in %g s beats %g bytes/s"
                        % (layer["name"], moved, layer["seconds"],
                           peak_bandwidth))
print("%d layers checked" % len(on_target))
print("\n".join(problems) if problems else "within bounds")
sys.exit(1 if problems else 0)
