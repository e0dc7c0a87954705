#!/usr/bin/env bash
# Sunway figures (issue 8), per conv and fc layer of AlexNet (and of the
# models given as arguments, e.g. vgg19 resnet18): modeled SW26010 time
# from the emulation's counts (dlc run --report), fraction of peak and of
# the DMA bound, mean DMA block, load balance; and, in the same run, a
# baseline compiled the way a directive compiler does it by default: no
# reuse tiling (a 1 KiB local memory, so operands come in small DMAs per
# few iterations), no DMA block cost in the tiling, no double buffering,
# no SIMD (vector_lanes=1: scalar code), every CPE reading its own copy of
# shared operands (broadcast_reads=false). The baseline's figures are the
# compiler's prediction (report.json of `dlc compile`), which agrees with
# the emulation's counts exactly (test/Target/Sunway/run.test); emulating
# its tens of millions of small DMAs would take most of an hour.
# Also the compile time and the emulation's wall time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dlc="$root/build/bin/dlc"
models="$root/build/models"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
list=("${@:-alexnet}")
/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$models" "${list[@]}" >/dev/null
for model in "${list[@]}"; do
  echo "== $model on sunway"
  start=$(date +%s.%N)
  "$dlc" compile "$models/$model/model.onnx" --target sunway -o "$out/$model" >/dev/null
  echo "compile: $(echo "$(date +%s.%N) - $start" | bc) s"
  start=$(date +%s.%N)
  "$dlc" run "$out/$model" --report "$out/$model.json" >/dev/null
  echo "emulation run: $(echo "$(date +%s.%N) - $start" | bc) s"
  "$dlc" compile "$models/$model/model.onnx" --target sunway -o "$out/$model-base" \
    --hw local_memory_bytes=1K,dma_block_overhead_bytes=0,double_buffering=false,vector_lanes=1,broadcast_reads=false >/dev/null
  /usr/bin/python3 "$root/bench/sunway_layers.py" "$out/$model.json" "$out/$model" "$out/$model-base/report.json"
done
