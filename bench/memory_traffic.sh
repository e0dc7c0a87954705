#!/usr/bin/env bash
# Per conv/fc layer of AlexNet and ResNet-18 at a 64 KiB local memory (or
# the capacity given as $1, in bytes; $2 adds --hw entries, e.g.
# dma_block_overhead_bytes=470): tile footprint, global-memory
# traffic, and its ratios to the compulsory traffic and to the Hong-Kung
# lower bound (bench/memory_traffic.py). Also times the memory passes on
# ResNet-50. Models are exported from torchvision into build/models.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dlc="$root/build/bin/dlc"
capacity="${1:-65536}"
extra="${2:+,$2}"
models="$root/build/models"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# The exporter skips models already in build/models.
/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$models" alexnet resnet18 resnet50 >/dev/null
for model in alexnet resnet18; do
  echo "== $model, local memory $capacity bytes"
  "$dlc" compile "$models/$model/model.onnx" --target host -o "$out/$model" \
    --hw "local_memory_bytes=$capacity$extra" >/dev/null
  python3 "$root/bench/memory_traffic.py" "$out/$model" "$capacity"
done
echo "== resnet50: compile time of the memory passes (--mlir-timing, wall s)"
"$dlc" compile "$models/resnet50/model.onnx" --target host -o "$out/r50" \
  --hw "local_memory_bytes=$capacity$extra" --mlir-timing 2>&1 >/dev/null |
  grep -E "Total Execution Time|DataMovementElimination|AssignBankLayout|TileForLocalMemory|GenerateTransfers|DoubleBuffer|VerifyLocalMemory|MemoryReport" |
  sed -E 's/^ +//'
