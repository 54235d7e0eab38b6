#!/usr/bin/env bash
# Configures (once) and builds asmevo in build/. Used by run.sh and test.sh.
# Environment: ASMEVO_BUILD_DIR (default: build), ASMEVO_JOBS (default: nproc).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
jobs="${ASMEVO_JOBS:-$(nproc)}"

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "build: configuring $build"
  cmake "${generator[@]}" -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
echo "build: building with $jobs jobs"
cmake --build "$build" -j "$jobs"
