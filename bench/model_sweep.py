#!/usr/bin/python3
"""The model sweep: every torchvision classification and segmentation model
on every target, against PyTorch.

    /usr/bin/python3 bench/model_sweep.py
        [MODEL|classification|segmentation|representatives|all ...]
        [--targets host,sunway,snowflake,inferentia] [--size 224]
        [--models-dir build/models] [--timeout 1800] [--jobs 1]
        [--json bench/results/model_sweep.json]

Each model is exported once (scripts/export_torchvision.py: seeded random
weights, PyTorch's own output recorded), then `dlc run MODEL_DIR --target T`
runs it on each target. A run is one of

  pass      the output is within the sweep's tolerance of PyTorch's
  mismatch  it ran, and the output is not
  error     dlc stopped with a diagnostic (exit code 1): a compile-time
            refusal such as a capacity error names the node
  crash     dlc died of a signal, an assertion or an abort: always a bug
  timeout   no result within --timeout seconds

The error is measured here, not by dlc's per-element check: the largest
|got - want| over the output divided by the largest |want|, so one figure
compares models whose outputs have different scales. The tolerance is 1e-3
for the float32 targets (host, sunway, inferentia: float32 rounding over up
to 150 layers) and 5e-2 for snowflake (16-bit fixed or half-precision
storage, docs/Targets/Snowflake.md). Whether a layer fell back to the host
is counted from dlc's `fallback:` lines.

Not a test and not asserted anywhere: it prints a table (Markdown, models
by targets) and writes the figures as JSON. The whole sweep at 224x224 takes
days on two cores; `representatives` (the smallest model of each of the
25 architecture families) takes hours; name models or groups to run part
of it. Results accumulate in the JSON file across runs.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPORTER = os.path.join(ROOT, "scripts", "export_torchvision.py")
TARGETS = ["host", "sunway", "snowflake", "inferentia"]
TOLERANCE = {"host": 1e-3, "sunway": 1e-3, "inferentia": 1e-3,
             "snowflake": 5e-2}
CRASH_MARKERS = ("Stack dump", "PLEASE submit a bug report", "Assertion",
                 "Segmentation fault", "Aborted", "terminate called",
                 "runtime error:", "AddressSanitizer")


def list_models(groups):
    out = subprocess.run([sys.executable, EXPORTER, "--list"] + groups,
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def export(name, models_dir, size):
    """Exports `name`; returns (model directory, None) or (None, reason)."""
    args = [sys.executable, EXPORTER, "-o", models_dir, name]
    if size != 224:
        args += ["--size", str(size)]
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = [l for l in (proc.stderr + proc.stdout).splitlines()
                 if l.strip() and "Warning" not in l]
        return None, lines[-1] if lines else "export failed"
    return os.path.join(models_dir, name if size == 224 else
                        "%s_%d" % (name, size)), None


def read_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def first_diagnostic(text):
    for line in text.splitlines():
        if "error:" in line or any(m in line for m in CRASH_MARKERS):
            return line.strip()[:300]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:300] if lines else ""


def run_one(model_dir, target, timeout):
    """Runs the model on `target`; returns the run's record."""
    record = {"target": target}
    with tempfile.TemporaryDirectory() as outputs:
        args = [os.path.join(ROOT, "build", "bin", "dlc"), "run", model_dir,
                "--target", target, "--write-outputs", outputs]
        start = time.monotonic()
        try:
            proc = subprocess.run(args, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            record.update(outcome="timeout", wall_s=timeout)
            return record
        record["wall_s"] = round(time.monotonic() - start, 2)
        text = proc.stdout + proc.stderr
        record["fallback_lines"] = text.count("fallback:")
        times = re.search(r"time: import ([\d.]+) s, compile ([\d.]+) s, "
                          r"run ([\d.]+) s", text)
        if times:
            record.update(import_s=float(times.group(1)),
                          compile_s=float(times.group(2)),
                          run_s=float(times.group(3)))
        crashed = proc.returncode < 0 or proc.returncode > 1 or any(
            m in text for m in CRASH_MARKERS)
        got_path = os.path.join(outputs, "test_data_set_0", "output_0.pb")
        if crashed:
            record.update(outcome="crash", exit=proc.returncode,
                          message=first_diagnostic(text))
            return record
        if not os.path.exists(got_path):
            record.update(outcome="error", exit=proc.returncode,
                          message=first_diagnostic(text))
            return record
        got = read_tensor(got_path)
        want = read_tensor(os.path.join(model_dir, "test_data_set_0",
                                        "output_0.pb"))
        scale = float(np.abs(want).max()) or 1.0
        error = (float(np.abs(got.astype(np.float64) - want).max()) / scale
                 if got.shape == want.shape else float("inf"))
        record.update(error=error, max_abs_error=error * scale,
                      dlc_verdict="ok" if proc.returncode == 0 else "mismatch")
        ok = error <= TOLERANCE[target]
        record["outcome"] = "pass" if ok else "mismatch"
        return record


def cell(record):
    if record["outcome"] in ("pass", "mismatch"):
        text = "%s %.1e" % (record["outcome"], record["error"])
        if record.get("fallback_lines"):
            text += " (%d fallback)" % record["fallback_lines"]
        return text
    return record["outcome"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", default=["all"])
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--models-dir",
                        default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", default=os.path.join(
        ROOT, "bench", "results", "model_sweep.json"))
    args = parser.parse_args()
    targets = args.targets.split(",")
    names = list_models(args.models)

    results = {}
    if os.path.exists(args.json):
        with open(args.json) as f:
            results = json.load(f).get("models", {})

    def sweep(name):
        model_dir, reason = export(name, args.models_dir, args.size)
        entry = {"size": args.size}
        if model_dir is None:
            entry["export"] = reason
            print("%s: not exported: %s" % (name, reason), flush=True)
            return name, entry
        for target in targets:
            record = run_one(model_dir, target, args.timeout)
            entry[target] = record
            print("%s on %s: %s%s" % (name, target, cell(record),
                                      (": " + record["message"])
                                      if "message" in record else ""),
                  flush=True)
        return name, entry

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, entry in pool.map(sweep, names):
            results.setdefault(name, {}).update(entry)
            os.makedirs(os.path.dirname(args.json), exist_ok=True)
            with open(args.json, "w") as f:
                json.dump({"targets": TARGETS, "tolerance": TOLERANCE,
                           "models": results}, f, indent=1, sort_keys=True)

    print("\n| model | " + " | ".join(targets) + " |")
    print("|---|" + "---|" * len(targets))
    counts = {t: 0 for t in targets}
    for name in names:
        entry = results.get(name, {})
        if "export" in entry:
            print("| %s | not exported: %s |" % (name, entry["export"]))
            continue
        row = []
        for t in targets:
            record = entry.get(t)
            row.append(cell(record) if record else "-")
            counts[t] += bool(record and record["outcome"] == "pass")
        print("| %s | %s |" % (name, " | ".join(row)))
    print("\npassing: " + ", ".join("%s %d of %d" % (t, counts[t], len(names))
                                    for t in targets))


if __name__ == "__main__":
    main()
