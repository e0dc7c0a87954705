#!/usr/bin/env bash
# Snowflake figures (issue 9) for AlexNet, ResNet-18 and ResNet-50 (or the
# models given as arguments), all from the simulator's counts (`dlc run
# --report`):
#   - frames per second and DRAM bandwidth, whole model and conv layers
#     alone, against the paper and the conv layers' compute bound;
#   - per conv layer, cycles with --loop-order mloop, kloop and the model's
#     choice, and how often the choice is the faster one;
#   - balanced against unbalanced load/store units (--balance-loads=false);
#   - the compiler's predicted cycles per layer against the simulator's;
#   - the error of fp16 and of Q8.8 storage, and the simulator's distance
#     from a PyTorch recomputation of each format's rules.
# Also the compile time and the simulator's wall time. Prints figures,
# never fails on a time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dlc="$root/build/bin/dlc"
models="$root/build/models"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
list=("${@:-alexnet resnet18 resnet50}")
# shellcheck disable=SC2206
list=(${list[@]})
/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$models" "${list[@]}" >/dev/null
for model in "${list[@]}"; do
  echo "== $model on snowflake"
  start=$(date +%s.%N)
  "$dlc" compile "$models/$model/model.onnx" --target snowflake -o "$out/$model" >/dev/null
  echo "compile: $(echo "$(date +%s.%N) - $start" | bc) s"
  start=$(date +%s.%N)
  # ResNet-50's 53 layers of fp16 storage: see bench/snowflake_storage_reference.py.
  tolerance=""; [ "$model" = resnet50 ] && tolerance="--atol 0.06"
  # shellcheck disable=SC2086
  "$dlc" run "$models/$model" --target snowflake $tolerance --report "$out/$model.auto.json" | grep -E "max abs|PASSED|FAILED" || true
  echo "compile + simulation: $(echo "$(date +%s.%N) - $start" | bc) s"
  # The number formats: what 16-bit storage alone does to PyTorch's output,
  # and how far the simulator is from that recomputation (fp16 and Q8.8).
  for bits in 0 8; do
    "$dlc" run "$models/$model" --target snowflake --hw "operand_fraction_bits=$bits" --atol 1 --write-outputs "$out/$model.bits$bits" >/dev/null
    /usr/bin/python3 "$root/bench/snowflake_storage_reference.py" "$model" --fraction-bits "$bits" --models "$models" --simulated "$out/$model.bits$bits/test_data_set_0/output_0.pb"
  done
  for variant in mloop kloop; do
    "$dlc" run "$models/$model/model.onnx" --target snowflake --loop-order "$variant" --report "$out/$model.$variant.json" >/dev/null
  done
  "$dlc" run "$models/$model/model.onnx" --target snowflake --balance-loads=false --report "$out/$model.unbalanced.json" >/dev/null
  /usr/bin/python3 "$root/bench/snowflake.py" "$model" "$out/$model/report.json" "$out/$model"
done
