#!/usr/bin/env bash
# Runs the whole test suite in the sanitizer build (scripts/build-sanitize.sh):
# dlc, its simulators, the Sunway emulation and the Sunway C every test runs
# are built with AddressSanitizer and UBSan, and any finding fails its test.
# Extra arguments go to lit (e.g. --filter Sunway).
#
#   bash scripts/sanitize.sh [LIT ARGUMENT...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-sanitize"
bash "$root/scripts/build-sanitize.sh"

# A finding ends the process with a non-zero status and its report on
# stderr, which lit prints with the failing test. Leaks are findings too;
# the MLIR and protobuf singletons that live until exit are not leaks.
# allow_user_poisoning=0: LLVM's headers poison BumpPtrAllocator slabs in
# instrumented code, which the uninstrumented MLIR libraries then use
# (a false use-after-poison in every MLIRContext).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}"

# The exported torchvision models do not depend on the build: share the
# release build's cache.
export DLC_MODELS_DIR="${DLC_MODELS_DIR:-$root/build/models}"

log="$build/test/lit-summary.log"
mkdir -p "$(dirname "$log")"
set +e
# Sanitized code runs a few times slower: a longer per-test limit.
/usr/lib/llvm-22/bin/lit -sv --timeout 3600 "$@" "$build/test" | tee "$log"
status=${PIPESTATUS[0]}
set -e
echo "sanitize: $(grep -cE '^(FAIL|UNRESOLVED|TIMEOUT|XPASS):' "$log") failing tests (ASan+UBSan)"
exit "$status"
