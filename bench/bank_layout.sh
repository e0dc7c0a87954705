#!/usr/bin/env bash
# Bank layout assignment, local against global mode, in one run: for an
# attention block (bench/models/attention.onnxtxt, written by hand: three
# projections, Q K^T, softmax, P V, a residual add), AlexNet and ResNet-18
# on a 64 KiB local memory in 4 banks (or the bank count given as $1), the
# relayout copies each mode inserts, the bytes they copy, and the traffic
# between global and local memory (from each compile's memory_report.json).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dlc="$root/build/bin/dlc"
banks="${1:-4}"
models="$root/build/models"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# The exporter skips models already in build/models.
/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$models" alexnet resnet18 >/dev/null
printf "%-10s %-7s %9s %15s %15s\n" model mode relayouts "relayout bytes" "traffic bytes"
for file in "$root/bench/models/attention.onnxtxt" "$models"/{alexnet,resnet18}/model.onnx; do
  case "$file" in
    *.onnxtxt) model="$(basename "$file" .onnxtxt)" ;;
    *) model="$(basename "$(dirname "$file")")" ;;
  esac
  for mode in local global; do
    "$dlc" compile "$file" --target host -o "$out/$model-$mode" \
      --hw "local_memory_bytes=64K,banks=$banks" --layout-mode "$mode" >/dev/null
    python3 - "$out/$model-$mode/memory_report.json" "$model" "$mode" <<'PY'
import json, sys
total = json.load(open(sys.argv[1]))["total"]
print("%-10s %-7s %9d %15d %15d" % (sys.argv[2], sys.argv[3],
      total["relayout_copies"], total["relayout_bytes"],
      total["bytes_in"] + total["bytes_out"]))
PY
  done
done
