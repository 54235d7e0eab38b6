#!/usr/bin/env bash
# Installs the Debian packages asmevo needs, only those that are missing.
# Usage: utils/install-deps.sh [--check]   (--check: list missing packages, install nothing)
set -euo pipefail

PACKAGES=(
  llvm-22-dev clang-22 lld-22 libmlir-22-dev mlir-22-tools llvm-22-tools
  libboost-graph-dev libgtest-dev libgmock-dev libbenchmark-dev
  libclang-rt-22-dev cmake ninja-build ccache zstd libzstd-dev python3
  # Debian's HIP 5.2 runtime library only (pulls libamd-comgr2,
  # libhsa-runtime64-1, libhsakmt1; no headers, no device libraries): the
  # HIP executor's "no device" path is tested against it. Checked: the test
  # kernels still build byte-identically with it installed.
  libamdhip64-5
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "install-deps: missing: ${missing[*]}"
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
