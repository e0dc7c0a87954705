#!/usr/bin/env bash
# The main job, end to end: install what is missing, build, then compile the
# example model (examples/tiny_cnn, exported from PyTorch) for the host, run
# it and compare its output with the one PyTorch recorded.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
# Every tool the README's tour uses.
bash "$root/scripts/build.sh" dlc dlc-opt dlc-translate dlc-snowflake-sim dlc-inferentia-sim
out="$root/build/examples/tiny_cnn"
echo "== dlc compile examples/tiny_cnn/model.onnx --target host -o $out"
"$root/build/bin/dlc" compile "$root/examples/tiny_cnn/model.onnx" --target host -o "$out"
ls "$out"
echo "== dlc run examples/tiny_cnn --target host"
"$root/build/bin/dlc" run "$root/examples/tiny_cnn" --target host --print-outputs
