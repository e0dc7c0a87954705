#!/usr/bin/env bash
# against_host.sh DLC MODEL DIR TARGET...: makes DIR an ONNX test directory of
# MODEL whose inputs are dlc's seeded random ones and whose expected outputs
# are the host's (the numerical reference), then runs it on each TARGET.
# Every target's `dlc run` output is printed, each run preceded by
# "== TARGET"; the script fails if any run fails.
set -euo pipefail
dlc=$1 model=$2 dir=$3
shift 3
rm -rf "$dir"
mkdir -p "$dir"
cp "$model" "$dir/model.${model##*.}"
"$dlc" run "$dir/model.${model##*.}" --target host \
  --write-outputs "$dir/test_data_set_0" >/dev/null
status=0
for target in "$@"; do
  echo "== $target"
  "$dlc" run "$dir" --target "$target" 2>&1 || status=1
done
exit $status
