#!/usr/bin/env bash
# Import cost of a large model: CPU time of `dlc-translate --import-onnx`
# (parse, ONNX checker, ONNX shape inference, building the dlc module with
# the weights as dense_resource blobs, printing it with the blobs elided),
# whole process included, so an upper bound of the importer's own cost.
#
#   bash bench/import_time.sh [MODEL]   (default: resnet50)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model=${1:-resnet50}
out="$root/build/models"
/usr/bin/python3 "$root/scripts/export_torchvision.py" -o "$out" "$model" >/dev/null
onnx="$out/$model/model.onnx"
size=$(du -m "$onnx" | cut -f1)
for i in 1 2 3; do
  /usr/bin/time -f "$model ($size MB): user %U s, system %S s, wall %e s, max RSS %M KB" \
    "$root/build/bin/dlc-translate" --import-onnx "$onnx" \
    --mlir-elide-resource-strings-if-larger=64 -o /dev/null
done
