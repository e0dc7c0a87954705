#!/usr/bin/env bash
# Data-movement elimination on the benchmark models: for each model, the
# copy nests the pass removed out of all copy nests after the dlc -> affine
# pipeline, the bytes of intermediate buffers it removed, and every copy it
# kept with the reason (its remark).
#
#   bash bench/data_movement_elimination.sh [MODEL.onnx|MODEL.onnxtxt ...]
#
# Without arguments: bench/models/*.onnxtxt (a ShuffleNet-style block and a
# synthetic mix of data-movement ops; bench/models/generate.py writes them),
# plus the torchvision models of build/models when they were exported
# (scripts/export_torchvision.py, run by the model tests).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" dlc-opt dlc-translate >/dev/null
bin="$root/build/bin"

models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  models=("$root"/bench/models/*.onnxtxt)
  for name in resnet18 alexnet; do
    model="$root/build/models/$name/model.onnx"
    [ -f "$model" ] && models+=("$model")
  done
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for model in "${models[@]}"; do
  name="$(basename "$(dirname "$model")")"
  case "$model" in *.onnxtxt) name="$(basename "$model" .onnxtxt)" ;; esac
  # Node names (the importer's locations) name the copies in the remarks.
  "$bin/dlc-translate" --import-onnx --mlir-print-debuginfo "$model" \
    >"$work/model.mlir"
  "$bin/dlc-opt" --dlc-to-affine-pipeline --mlir-print-debuginfo "$work/model.mlir" \
    -o "$work/affine.mlir"
  start=$(date +%s%N)
  "$bin/dlc-opt" --dlc-data-movement-elimination=summary \
    --mlir-print-op-on-diagnostic=false "$work/affine.mlir" \
    -o /dev/null 2>"$work/remarks.txt"
  milliseconds=$((($(date +%s%N) - start) / 1000000))
  summary="$(grep -o 'removed .*' "$work/remarks.txt" | tail -1)"
  removed="$(echo "$summary" | sed -E 's/removed ([0-9]+) of ([0-9]+) copy nests.*/\1/')"
  total="$(echo "$summary" | sed -E 's/removed ([0-9]+) of ([0-9]+) copy nests.*/\2/')"
  elements="$(echo "$summary" | sed -E 's/.* ([0-9]+) element copies.*/\1/')"
  fills="$(echo "$summary" | sed -E 's/.* and ([0-9]+) fill nests.*/\1/')"
  bytes="$(echo "$summary" | sed -E 's/.* ([0-9]+) bytes of intermediate.*/\1/')"
  echo "== $name"
  printf '  copy nests removed: %s of %s (and %s pad fills)\n' \
    "$removed" "$total" "$fills"
  printf '  element copies removed: %s; intermediate bytes removed: %s\n' \
    "$elements" "$bytes"
  printf '  pass time: %d ms\n' "$milliseconds"
  # `<unknown>:0: remark: loc("Concat_1"): copy kept: REASON`
  grep 'copy kept:' "$work/remarks.txt" |
    sed -E 's/.*loc\("([^"]*)"\): copy kept: /  kept \1: /; s/^.*remark: copy kept: /  kept: /' ||
    echo "  (no copy kept)"
done
