#!/usr/bin/env bash
# Inferentia figures (issue 10), from the simulator's counts (`dlc run
# --report`), in one run:
#   - ResNet-50, local against global partition mapping: on-chip and
#     off-chip copies (instructions and bytes, by cause), DRAM bytes against
#     the compulsory traffic, simulated latency, tensor-engine utilisation
#     overall and per layer;
#   - Parallel WaveNet (scripts/export_wavenet.py): load-store pairs and
#     intermediate bytes the data-movement elimination removes, on-chip and
#     off-chip copies with and without it;
#   - the compile time of ResNet-50 and the simulator's wall time.
# Prints figures, never fails on a time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dlc="$root/build/bin/dlc"
sim="$root/build/bin/dlc-inferentia-sim"
models="$root/build/models"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$models" resnet50 >/dev/null
seconds() { echo "$(date +%s.%N) - $1" | bc; }

echo "== resnet50 on inferentia"
start=$(date +%s.%N)
"$dlc" compile "$models/resnet50/model.onnx" --target inferentia -o "$out/resnet50" >/dev/null 2>&1
echo "compile: $(seconds "$start") s"
start=$(date +%s.%N)
"$sim" "$out/resnet50/trace.jsonl" --weights "$out/resnet50/weights.bin" >/dev/null
echo "simulator alone (dlc-inferentia-sim, zero inputs): $(seconds "$start") s"
for mode in global local; do
  # The host itself is 5.3e-5 away from PyTorch on ResNet-50
  # (test/models/resnet50_inferentia.test).
  "$dlc" run "$models/resnet50" --target inferentia --layout-mode "$mode" --atol 1e-4 \
    --report "$out/resnet50.$mode.json" 2>/dev/null | grep -E "max abs|PASSED|FAILED" | sed "s/^/$mode: /" || true
done
/usr/bin/python3 "$root/bench/inferentia.py" mapping "$out/resnet50.local.json" "$out/resnet50.global.json"

if [ -f "$root/scripts/export_wavenet.py" ]; then
  echo "== Parallel WaveNet on inferentia"
  /usr/bin/python3 "$root/scripts/export_wavenet.py" -o "$models" >/dev/null
  "$dlc" run "$models/wavenet" --target inferentia --report "$out/wavenet.json" 2>/dev/null | grep -E "max abs|PASSED|FAILED" || true
  "$dlc" run "$models/wavenet" --target inferentia --eliminate-copies=false --report "$out/wavenet.kept.json" 2>/dev/null | grep -E "max abs|PASSED|FAILED" | sed "s/^/without elimination: /" || true
  /usr/bin/python3 "$root/bench/inferentia.py" elimination "$out/wavenet.kept.json" "$out/wavenet.json"
fi
