#!/usr/bin/env bash
# Builds the libFuzzer targets (tools/fuzz) with clang-22, ASan and UBSan
# into build-sanitize/ (scripts/build-sanitize.sh), seeds them from real artifacts, and runs each for
# SECONDS (default 60):
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
#
# TARGETs: onnx-binary onnx-text snowflake-sim inferentia-sim sunway-weights
# (default: all). Prints per target the executions and the crashes of this
# run; crash, timeout and out-of-memory inputs are kept in
# build-sanitize/crashes/TARGET/ (reproduce one: build-sanitize/bin/dlc-fuzz-TARGET
# FILE). The corpus a run grows is kept in build-sanitize/corpus/TARGET/.
# Installs what is missing (as root, or with sudo); the seeds need dlc's
# release build (build/), which is built when it has no dlc yet.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz="$root/build-sanitize"
all_targets=(onnx-binary onnx-text snowflake-sim inferentia-sim sunway-weights)

seconds=60
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] ||
    { echo "fuzz: unknown target '$t' (known: ${all_targets[*]})" >&2; exit 2; }
done

# The release build makes the seeds (dlc compile, the Snowflake assembler).
[ -x "$root/build/bin/dlc" ] && [ -x "$root/build/bin/dlc-translate" ] ||
  bash "$root/scripts/build.sh" dlc dlc-translate
bash "$root/scripts/build-sanitize.sh" dlc-fuzz-onnx-to-text \
  $(printf 'dlc-fuzz-%s ' "${targets[@]}")

python3 "$root/scripts/fuzz_seeds.py" "$root" "$fuzz/seeds" \
  "$root/build/bin" "$fuzz/bin"

# Sanitizer findings end the run as crashes; leaks are not looked for (the
# fuzzers look for crashes, and libonnx keeps allocations on some errors).
# allow_user_poisoning=0: LLVM's headers poison BumpPtrAllocator slabs in
# instrumented code, which the uninstrumented MLIR libraries then use
# (a false use-after-poison in every MLIRContext).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0:abort_on_error=0:detect_leaks=0:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

summary=()
for t in "${targets[@]}"; do
  bin="$fuzz/bin/dlc-fuzz-$t"
  seeds="$fuzz/seeds/$t"
  corpus="$fuzz/corpus/$t"
  crashes="$fuzz/crashes/$t"
  logs="$fuzz/logs/$t"
  mkdir -p "$corpus" "$crashes" "$logs" "$seeds"
  rm -f "$logs"/*.log
  before=$(ls "$crashes" | wc -l)
  executions=0
  start=$(date +%s)
  # libFuzzer stops at the first crash: run again for the time left, a new
  # process each time (so one crash does not hide the next).
  # -timeout is above the importer's own 60 s limit on ONNX shape
  # inference, which ends a libonnx hang with an error.
  for run in $(seq 1 50); do
    left=$(( seconds - ($(date +%s) - start) ))
    [ "$left" -ge 1 ] || break
    log="$logs/run-$run.log"
    set +e
    "$bin" -max_total_time="$left" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
      -timeout=90 -print_final_stats=1 -detect_leaks=0 \
      -artifact_prefix="$crashes/" "$corpus" "$seeds" >"$log" 2>&1
    status=$?
    set -e
    n=$(awk '/^stat::number_of_executed_units:/ { n = $2 } END { print n + 0 }' "$log")
    executions=$(( executions + n ))
    [ "$status" -eq 0 ] && break
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    echo "fuzz: $t: $(grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:' "$log" || echo "exit $status")"
    echo "fuzz: $t:   input $input (log $log)"
    # A seed that crashes would stop every later run before it fuzzes:
    # without the seeds (an INITED line), drop the one that crashed.
    if ! grep -q "INITED" "$log" && [ -n "$input" ] && [ -f "$input" ]; then
      sum=$(sha1sum "$input" | cut -d' ' -f1)
      rm -f "$seeds/$sum" "$corpus/$sum"
    fi
  done
  after=$(ls "$crashes" | wc -l)
  found=$(( after - before ))
  summary+=("$(printf '%-15s %10d executions %4d crashes' "$t" "$executions" "$found")")
done

echo "== fuzz: ${seconds}s per target (crash inputs in $fuzz/crashes/TARGET/)"
printf '%s\n' "${summary[@]}"
