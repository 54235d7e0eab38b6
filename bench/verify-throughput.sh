#!/usr/bin/env bash
# Tier-1 verification throughput: asmevo-verify K0 K1 over every kernel of
# gfx942 corpus objects, K1 being K0 after the default pipeline, with CPU
# time (user + system; wall time is meaningless on a shared machine), CPU
# seconds per kernel and peak RSS.
#   bench/verify-throughput.sh [OBJECT...]
# OBJECTs are paths relative to corpus/ (default: rocSPARSE 7.2.4 gfx942
# object 13, rocBLAS 55, rocRAND 41). ASMEVO_BUILD_DIR selects the build;
# with ASMEVO_BASE_BUILD_DIR the base build runs too and the two `-v`
# reports (every input, footprint, wave-instruction count and verdict) must
# be identical: a speed change must not change what is verified.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
base="${ASMEVO_BASE_BUILD_DIR:-}"
[ -d "$root/corpus/objects" ] || { echo "no corpus: run utils/fetch-rocm-corpus.sh" >&2; exit 2; }
objects=("$@")
[ ${#objects[@]} -gt 0 ] || objects=(
  "objects/librocsparse1_7.2.4-1~exp1/librocsparse.so.1.0-13-gfx942.co"
  "objects/librocblas5_7.2.4-1~exp1/librocblas.so.5.2-55-gfx942.co"
  "objects/librocrand1_7.2.4-1~exp1/librocrand.so.1.1-41-gfx942.co")
pipeline=amdgcn-waitcnt-relax,amdgcn-schedule,amdgcn-hazard,amdgcn-dce,amdgcn-peephole,amdgcn-regcompact
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0

run() { # BUILD OBJ K1 REPORT -> "cpu rss"
  /usr/bin/time -o "$tmp/time" -f "%U %S %M" "$1/bin/asmevo-verify" -v "$2" "$3" >"$4" 2>&1 || true
  read -r user sys rss <"$tmp/time"
  echo "$(awk "BEGIN{print $user + $sys}") $((rss / 1024))"
}

printf '%-60s %8s %9s %10s %7s\n' "object" "kernels" "CPU s" "CPU s/krn" "RSS MB"
for rel in "${objects[@]}"; do
  obj="$root/corpus/$rel"
  "$build/bin/asmevo-opt" "$obj" --pipeline="$pipeline" -o "$tmp/k1.co" 2>/dev/null
  read -r cpu rss <<<"$(run "$build" "$obj" "$tmp/k1.co" "$tmp/new.txt")"
  kernels=$(grep -c -E ': (EQUIVALENT|NOT EQUIVALENT|CANNOT DECIDE)' "$tmp/new.txt" || true)
  printf '%-60s %8d %9.2f %10.3f %7d\n' "$(basename "$rel")" "$kernels" "$cpu" \
    "$(awk "BEGIN{print $cpu / ($kernels > 0 ? $kernels : 1)}")" "$rss"
  if [ -n "$base" ]; then
    read -r bcpu brss <<<"$(run "$base" "$obj" "$tmp/k1.co" "$tmp/old.txt")"
    printf '%-60s %8s %9.2f %10s %7d\n' "  base build" "" "$bcpu" "" "$brss"
    if ! cmp -s "$tmp/old.txt" "$tmp/new.txt"; then
      echo "  DIFFERENT -v reports:"; diff "$tmp/old.txt" "$tmp/new.txt" | head -5; status=1
    fi
  fi
done
exit $status
