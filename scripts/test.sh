#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite with lit:
# dialect, importer, conversion and target tests, the ONNX backend node tests
# on every target against its expectations file, and the torchvision models.
# Extra arguments go to lit (e.g. --filter e2e).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"

log="$root/build/test/lit-summary.log"
mkdir -p "$(dirname "$log")"
set +e
/usr/lib/llvm-22/bin/lit -sv --timeout 1200 "$@" "$root/build/test" | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One plain closing line: expected failures listed in an expectations file
# count as passes, unexpected passes as failures.
count() {
  awk -v k="$1" '{ name = $1; gsub(/^ +| +$/, "", name) }
                 name == k { n = $2 + 0 } END { print n + 0 }' FS=':' "$log"
}
passed=$(( $(count "Passed") + $(count "Expectedly Failed") ))
failed=$(( $(count "Failed") + $(count "Unexpectedly Passed") + $(count "Timed Out") ))
echo "$passed passed, $failed failed"
exit "$status"
