#!/usr/bin/env bash
# Installs the Debian packages dlc needs (only those missing), and the extra
# packages named as arguments (the sanitizer build's clang). Idempotent.
# Needs root (or sudo) when something is missing.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ git
  # LLVM/MLIR 22: static and shared MLIR, mlir-tblgen, FileCheck, lit, not, count
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-format-22
  # polyhedral library, ONNX 1.12 and protobuf
  libisl-dev libonnx-dev libprotobuf-dev protobuf-compiler
  # tests: ONNX backend node tests, and torch/torchvision to export models
  libonnx-testdata python3-onnx python3-torch python3-torchvision python3-numpy
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "dlc: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "dlc: run as root to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
