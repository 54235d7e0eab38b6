#!/usr/bin/env bash
# How recovery + emission scale with object size: asmevo-opt --roundtrip-check
# on gfx942 corpus objects of increasing size, one process each, with CPU
# time (user + system) and peak RSS. Linear scaling shows as a flat
# instructions/s column and a flat bytes-per-instruction column.
#   bench/roundtrip-scaling.sh [SIZE_MB...]
# Each SIZE picks the gfx942 object of the manifest closest to it (default:
# 1 4 16 45 109 196, the last two being the largest Tensile and RCCL objects).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
manifest="$root/corpus/manifest.txt"
[ -f "$manifest" ] || { echo "no $manifest: run utils/fetch-rocm-corpus.sh" >&2; exit 2; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 4 16 45 109 196)
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT

printf '%-9s %11s %8s %13s %9s %10s  %s\n' "MB" "instr" "CPU s" "instr/s(CPU)" "RSS MB" "RSS B/ins" "object"
for mb in "${sizes[@]}"; do
  rel="$(awk -F'\t' -v t="$mb" '$2=="gfx942" {d=$3/1e6-t; if (d<0) d=-d;
           if (best=="" || d<bd) {bd=d; best=$1}} END {print best}' "$manifest")"
  obj="$root/corpus/$rel"
  /usr/bin/time -o "$tmp" -f "%e %U %S %M" "$build/bin/asmevo-opt" "$obj" --roundtrip-check |
    tail -1 >"$tmp.out" || true
  read -r wall user sys rss <"$tmp"
  insts="$(sed -n 's/.* \([0-9]*\) instructions.*/\1/p' "$tmp.out")"
  cpu=$(awk "BEGIN{print $user + $sys}")
  printf '%-9.1f %11d %8.2f %13.0f %9.0f %10.0f  %s\n' \
    "$(awk "BEGIN{print $(stat -c %s "$obj") / 1e6}")" "$insts" "$cpu" \
    "$(awk "BEGIN{print $insts / ($cpu > 0 ? $cpu : 1e-9)}")" \
    "$(awk "BEGIN{print $rss / 1024}")" \
    "$(awk "BEGIN{print $rss * 1024 / ($insts > 0 ? $insts : 1)}")" "$rel"
  rm -f "$tmp.out"
done
