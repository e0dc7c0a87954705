#!/usr/bin/python3
"""Figures of two inferentia reports (`dlc run --report`) side by side.

    inferentia.py mapping LOCAL.json GLOBAL.json
        copies, DRAM traffic, latency and tensor-engine utilisation of the
        two partition-mapping modes, and utilisation per layer (global);
    inferentia.py elimination KEPT.json ELIMINATED.json
        the data-movement elimination's counts and the copies without and
        with it.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def change(before, after):
    if before == 0:
        return "n/a" if after == 0 else "+inf"
    return "%+.1f%%" % (100.0 * (after - before) / before)


def copies(summary):
    return {
        "on-chip copies": summary["onchip_copies"],
        "on-chip copy bytes": summary["onchip_copy_bytes"],
        "off-chip copies": summary["offchip_copies"],
        "off-chip copy bytes": summary["offchip_copy_bytes"],
    }


def compare(names, a, b):
    print("%-26s %16s %16s %10s" % ("", names[0], names[1], "change"))
    for key in a:
        print("%-26s %16d %16d %10s" % (key, a[key], b[key], change(a[key], b[key])))


def by_cause(summary):
    for kind in ("onchip", "offchip"):
        counts = summary.get(kind + "_copies_by_cause", {})
        listed = ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()) if v)
        print("  %s copies by cause: %s" % (kind, listed or "none"))


def mapping(local_path, global_path):
    local, glob = load(local_path)["summary"], load(global_path)["summary"]
    compare(("local", "global"), copies(local), copies(glob))
    for name, s in (("local", local), ("global", glob)):
        print("%s:" % name)
        by_cause(s)
        traffic = s["dram_read_bytes"] + s["dram_write_bytes"]
        print("  DRAM bytes %d, compulsory %d: %.3fx" %
              (traffic, s["compulsory_dram_bytes"],
               traffic / max(1, s["compulsory_dram_bytes"])))
        print("  latency %.3f ms (%.1f frames/s), tensor-engine utilisation %.2f%%"
              % (1e3 * s["latency_seconds"], 1.0 / s["latency_seconds"],
                 100.0 * s["tensor_engine_utilization"]))
        print("  engine busy (ms): " + ", ".join(
            "%s %.3f" % (e, 1e3 * v["busy_seconds"])
            for e, v in sorted(s["engines"].items())))
    print("global no slower than local: %s" %
          ("yes" if glob["latency_seconds"] <= local["latency_seconds"] else "NO"))
    print("tensor-engine utilisation per layer (global; MACs / (layer cycles x 128 x 128)):")
    for layer in load(global_path)["layers"]:
        if layer["macs"]:
            print("  %-40s %-6s %8.2f%%" % (layer["name"][:40], layer["op"],
                                        100.0 * layer["mac_utilization"]))


def elimination(kept_path, eliminated_path):
    kept, elim = load(kept_path)["summary"], load(eliminated_path)["summary"]
    print("load-store pairs removed: %d of %d" %
          (elim["load_store_pairs_removed"], elim["load_store_pairs_total"]))
    print("intermediate bytes removed: %d of %d (%.1f MB of %.1f MB)" %
          (elim["intermediate_bytes_removed"], elim["intermediate_bytes_total"],
           elim["intermediate_bytes_removed"] / 1e6,
           elim["intermediate_bytes_total"] / 1e6))
    compare(("without", "with"), copies(kept), copies(elim))
    for name, s in (("without", kept), ("with", elim)):
        print("%s elimination:" % name)
        by_cause(s)
        print("  latency %.3f ms" % (1e3 * s["latency_seconds"]))


if __name__ == "__main__":
    {"mapping": mapping, "elimination": elimination}[sys.argv[1]](*sys.argv[2:])
