#!/usr/bin/env bash
# How the rewrite passes scale with object size: asmevo-opt --pipeline=PASS
# for each pass of the default pipeline alone and for the whole pipeline, on
# gfx942 corpus objects of increasing size, one process each, with CPU time
# (user + system; wall time is meaningless on a shared machine) and peak
# RSS. The recovery + emission cost is in the "roundtrip" column
# (--roundtrip-check); each pass column includes it.
#   bench/pipeline-scaling.sh [SIZE_MB | Nk ...]
# Each SIZE picks the gfx942 object of the manifest closest to it (default:
# 1 11 196: a small rocBLAS object, the largest rocBLAS HIP object, RCCL).
# A size Nk is a synthetic kernel of one basic block of N*1000 instructions
# (bench/long-block.py, as MLIR: "roundtrip" is then parsing and printing
# it), for how the passes scale with the length of a block.
# ASMEVO_BUILD_DIR selects the build; PASSES overrides the pass list.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
manifest="$root/corpus/manifest.txt"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 11 196)
pipeline=amdgcn-waitcnt-relax,amdgcn-schedule,amdgcn-hazard,amdgcn-dce,amdgcn-peephole,amdgcn-regcompact
read -r -a passes <<<"${PASSES:-roundtrip ${pipeline//,/ } $pipeline}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for mb in "${sizes[@]}"; do
  if [[ "$mb" =~ ^([0-9]+)k$ ]]; then
    insts=$((BASH_REMATCH[1] * 1000))
    obj="$tmp/block-$mb.mlir"
    "$root/bench/long-block.py" "$insts" >"$obj"
    echo "synthetic block (bench/long-block.py): $insts instructions"
    out="$tmp/out.mlir"; roundtrip=(-o "$out")
  else
    [ -f "$manifest" ] || { echo "no $manifest: run utils/fetch-rocm-corpus.sh" >&2; exit 2; }
    rel="$(awk -F'\t' -v t="$mb" '$2=="gfx942" && $1 !~ /Tensile/ {d=$3/1e6-t; if (d<0) d=-d;
             if (best=="" || d<bd) {bd=d; best=$1}} END {print best}' "$manifest")"
    obj="$root/corpus/$rel"
    insts="$("$build/bin/asmevo-opt" "$obj" --roundtrip-check | sed -n 's/.* \([0-9]*\) instructions.*/\1/p')"
    echo "$rel: $insts instructions"
    out="$tmp/out.co"; roundtrip=(--roundtrip-check)
  fi
  printf '  %-26s %9s %13s %8s\n' "pass" "CPU s" "instr/s(CPU)" "RSS MB"
  for p in "${passes[@]}"; do
    if [ "$p" = roundtrip ]; then args=("${roundtrip[@]}"); else args=(--pipeline="$p" -o "$out"); fi
    if ! /usr/bin/time -o "$tmp/time" -f "%U %S %M" "$build/bin/asmevo-opt" "$obj" "${args[@]}" \
        >/dev/null 2>"$tmp/err"; then
      echo "  $p: failed: $(tail -1 "$tmp/err")"; continue
    fi
    read -r user sys rss <"$tmp/time"
    cpu=$(awk "BEGIN{print $user + $sys}")
    name="$p"; [ "$p" = "$pipeline" ] && name="whole pipeline"
    printf '  %-26s %9.2f %13.0f %8.0f\n' "$name" "$cpu" \
      "$(awk "BEGIN{print $insts / ($cpu > 0 ? $cpu : 1e-9)}")" "$(awk "BEGIN{print $rss / 1024}")"
  done
done
