#!/usr/bin/env bash
# Configures (once) and builds the sanitizer build into build-sanitize/:
# clang-22 with AddressSanitizer and UBSan on every file of the project and
# on the Sunway C the executor builds (DLC_SANITIZE), plus the libFuzzer
# targets (DLC_ENABLE_FUZZERS). scripts/sanitize.sh runs the test suite in
# it and scripts/fuzz.sh the fuzzers, so one build serves both.
#
#   bash scripts/build-sanitize.sh [NINJA TARGET...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-sanitize"
bash "$root/scripts/install-deps.sh" clang-22 libclang-rt-22-dev
if [ ! -f "$build/build.ninja" ]; then
  # -O1 -g: readable stacks at most of -O2's speed. NDEBUG as in the
  # release build, whose LLVM and MLIR libraries are built with it.
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DDLC_SANITIZE=ON -DDLC_ENABLE_FUZZERS=ON
fi
ninja -C "$build" "$@"
