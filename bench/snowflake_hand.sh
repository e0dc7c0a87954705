#!/usr/bin/env bash
# Conv layers written by hand in Snowflake assembly
# (bench/snowflake_hand/*.s, each with its reasoning) against the
# compiler's code for the same layers: both run on the simulator; prints
# both cycle counts, their ratio and both errors against PyTorch.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
for name in conv3x3_64 conv1x1_256; do
  out="$(mktemp -d)"
  dump=$(/usr/bin/python3 "$root/bench/snowflake_hand.py" prepare "$out" "$name" 2>/dev/null | tail -1)
  echo "== $name"
  "$bin/dlc-translate" --snowflake-assemble "$out/program.s" -o "$out/hand.bin"
  "$bin/dlc-snowflake-sim" "$out/hand.bin" --load 0="$out/input.f16" \
    --dump "${dump}=$out/output.f16" > "$out/hand.txt"
  /usr/bin/python3 "$root/bench/snowflake_hand.py" check "$out" "$name"
  "$bin/dlc" run "$out/model" --target snowflake --report "$out/compiler.json" |
    sed -n 's/.*\(max abs error [^,]*\),.*/by the compiler: \1/p'
  /usr/bin/python3 - "$out/hand.txt" "$out/compiler.json" <<'PY'
import json, re, sys
hand = float(re.search(r"halted after \d+ instructions: (\d+) cycles",
                       open(sys.argv[1]).read()).group(1))
report = json.load(open(sys.argv[2]))
compiler = report["summary"]["cycles"]
bound = report["summary"]["macs"] / report["summary"]["peak_macs_per_cycle"]
print("cycles: by hand %.0f (%.1f%% of the bound), by the compiler %.0f "
      "(%.1f%%); compiler / hand %.4f" % (hand, 100 * bound / hand, compiler,
                                         100 * bound / compiler,
                                         compiler / hand))
PY
  rm -rf "$out"
done
