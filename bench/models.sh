#!/usr/bin/env bash
# Whole-model figures on one target: exports the torchvision models with
# seeded random weights (scripts/export_torchvision.py, cached in
# build/models), then for each prints the max errors against PyTorch and the
# import, compile and run times that `dlc run` measures. Not a test: it
# prints figures and never fails on a time.
#
#   bash bench/models.sh [--target T] [MODEL...]   (default: all four, host)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=host
if [ "${1:-}" = "--target" ]; then target=$2; shift 2; fi
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(alexnet resnet18 resnet50 vgg19)
dlc="$root/build/bin/dlc"
out="$root/build/models"

/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$out" "${models[@]}" >/dev/null
printf '%-10s %-7s %-12s %-12s %-10s %-10s %-10s %s\n' model target "max abs err" "max rel err" import_s compile_s run_s result
# ResNet-50's 53 layers accumulate float32 rounding: PyTorch's own float32
# output differs from its float64 one by 3e-5, more than the default atol.
tolerance() { case $1 in resnet50) echo --atol 1e-4 ;; esac; }
for m in "${models[@]}"; do
  log=$(mktemp)
  # shellcheck disable=SC2046
  if "$dlc" run "$out/$m" --target "$target" $(tolerance "$m") >"$log" 2>&1; then result=PASSED; else result=FAILED; fi
  abs=$(sed -n 's/.*max abs error \([^,]*\),.*/\1/p' "$log" | head -1)
  rel=$(sed -n 's/.*max rel error \([^:]*\):.*/\1/p' "$log" | head -1)
  read -r imp comp run < <(sed -n 's/^time: import \([^ ]*\) s, compile \([^ ]*\) s, run \([^ ]*\) s.*/\1 \2 \3/p' "$log")
  printf '%-10s %-7s %-12s %-12s %-10s %-10s %-10s %s\n' "$m" "$target" "${abs:-?}" "${rel:-?}" "${imp:-?}" "${comp:-?}" "${run:-?}" "$result"
  [ "$result" = PASSED ] || sed 's/^/    /' "$log" | tail -5
  rm -f "$log"
done
