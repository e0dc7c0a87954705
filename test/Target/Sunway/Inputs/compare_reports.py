"""Checks that the compiler's prediction (report.json) and the emulation's
count (dlc run --report) agree exactly on what both count: per layer, the
DMA bytes each way, the transfers, the floating-point instructions and the
LDM accesses. Prints one line per layer and 'agree' or the differences."""
import json
import sys

predicted = json.load(open(sys.argv[1]))
simulated = json.load(open(sys.argv[2]))
assert predicted["source"] == "predicted", predicted["source"]
assert simulated["source"] == "simulated", simulated["source"]
keys = ["dram_read_bytes", "dram_write_bytes", "dma_transfers",
        "fp_instructions", "ldm_accesses", "macs"]
problems = []
for p, s in zip(predicted["layers"], simulated["layers"]):
    assert p["name"] == s["name"], (p["name"], s["name"])
    for key in keys:
        if p[key] != s[key]:
            problems.append("%s %s: predicted %s, simulated %s"
                            % (p["name"], key, p[key], s[key]))
    print("%s: %d bytes in, %d out, %d transfers" %
          (p["name"], p["dram_read_bytes"], p["dram_write_bytes"],
           p["dma_transfers"]))
if len(predicted["layers"]) != len(simulated["layers"]):
    problems.append("layer counts differ")
print("\n".join(problems) if problems else "agree")
sys.exit(1 if problems else 0)
