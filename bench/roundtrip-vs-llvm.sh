#!/usr/bin/env bash
# Recovery + emission throughput of asmevo beside LLVM's text path
# (llvm-objdump -d | llvm-mc) on one code object, printed as a ratio.
#   bench/roundtrip-vs-llvm.sh [OBJECT]
# Default OBJECT: the largest gfx942 object of the corpus (RCCL, 196 MB),
# else an in-tree kernel. Each side is timed as wall time and as CPU time
# (user + system, children included): on a shared machine the CPU time is
# the stable number, and the ratio uses it. Peak RSS is the largest process
# of each side.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
obj="${1:-}"
if [ -z "$obj" ] && [ -f "$root/corpus/manifest.txt" ]; then
  obj="$root/corpus/$(awk -F'\t' '$2=="gfx942"' "$root/corpus/manifest.txt" |
        sort -t$'\t' -k3 -n | tail -1 | cut -f1)"
fi
[ -n "$obj" ] || obj="$build/test/Kernels/mfma-gfx942-v5.hsaco"
cpu="$(llvm-readelf-22 -h "$obj" | grep -o "gfx[0-9a-f]*" | head -1)"
echo "object: $obj ($(stat -c %s "$obj") bytes, $cpu)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# /usr/bin/time: wall, user, system seconds and peak RSS (KB).
/usr/bin/time -o "$tmp/asmevo.time" -f "%e %U %S %M" \
  "$build/bin/asmevo-opt" "$obj" --roundtrip-check >"$tmp/asmevo.out"
insts="$(sed -n 's/.* \([0-9]*\) instructions.*/\1/p' "$tmp/asmevo.out")"

/usr/bin/time -o "$tmp/llvm.time" -f "%e %U %S %M" bash -c '
  /usr/lib/llvm-22/bin/llvm-objdump -d --no-show-raw-insn --no-leading-addr "$1" |
    grep -v -e "^$" -e "^Disassembly" -e ":$" -e "file format" |
    /usr/lib/llvm-22/bin/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu="$2" \
      -filetype=obj -o /dev/null 2>/dev/null || true' _ "$obj" "$cpu"

read -r a_wall a_user a_sys a_rss <"$tmp/asmevo.time"
read -r l_wall l_user l_sys l_rss <"$tmp/llvm.time"
a_cpu=$(awk "BEGIN{print $a_user + $a_sys}")
l_cpu=$(awk "BEGIN{print $l_user + $l_sys}")
row() { # name wall cpu rss
  printf '%-28s %8.2f s wall %8.2f s CPU  %10.0f instructions/s (CPU)  peak RSS %6.0f MB\n' \
    "$1" "$2" "$3" "$(awk "BEGIN{print $insts / ($3 > 0 ? $3 : 1e-9)}")" \
    "$(awk "BEGIN{print $4 / 1024}")"
}
printf 'instructions: %d\n' "$insts"
row "asmevo recover+emit+compare" "$a_wall" "$a_cpu" "$a_rss"
row "llvm-objdump -d | llvm-mc" "$l_wall" "$l_cpu" "$l_rss"
printf 'ratio (LLVM CPU time / asmevo): %.1fx\n' "$(awk "BEGIN{print $l_cpu / $a_cpu}")"
