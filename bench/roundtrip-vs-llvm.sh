#!/usr/bin/env bash
# Recovery + emission throughput of asmevo beside LLVM's text path
# (llvm-objdump -d | llvm-mc) on one code object, printed as a ratio.
#   bench/roundtrip-vs-llvm.sh [OBJECT]
# Default OBJECT: the largest gfx942 object of the corpus under 120 MB (the
# 196 MB RCCL object takes minutes on LLVM's path), else an in-tree kernel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
obj="${1:-}"
if [ -z "$obj" ] && [ -f "$root/corpus/manifest.txt" ]; then
  obj="$root/corpus/$(awk -F'\t' '$2=="gfx942" && $3 < 120000000' "$root/corpus/manifest.txt" |
        sort -t$'\t' -k3 -n | tail -1 | cut -f1)"
fi
[ -n "$obj" ] || obj="$build/test/Kernels/mfma-gfx942-v5.hsaco"
cpu="$(llvm-readelf-22 -h "$obj" | grep -o "gfx[0-9a-f]*" | head -1)"
echo "object: $obj ($(stat -c %s "$obj") bytes, $cpu)"

t0=$(date +%s.%N)
rt="$("$build/bin/asmevo-opt" "$obj" --roundtrip-check)"
t1=$(date +%s.%N)
insts="$(sed -n 's/.* \([0-9]*\) instructions.*/\1/p' <<<"$rt")"
asm_s=$(awk "BEGIN{print $t1 - $t0}")

t0=$(date +%s.%N)
/usr/lib/llvm-22/bin/llvm-objdump -d --no-show-raw-insn --no-leading-addr "$obj" |
  grep -v -e '^$' -e '^Disassembly' -e ':$' -e 'file format' |
  /usr/lib/llvm-22/bin/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj -o /dev/null 2>/dev/null || true
t1=$(date +%s.%N)
llvm_s=$(awk "BEGIN{print $t1 - $t0}")

printf 'instructions:                 %d\n' "$insts"
printf 'asmevo recover+emit+compare:  %.2f s  (%.0f instructions/s)\n' "$asm_s" "$(awk "BEGIN{print $insts / $asm_s}")"
printf 'llvm-objdump -d | llvm-mc:    %.2f s  (%.0f instructions/s)\n' "$llvm_s" "$(awk "BEGIN{print $insts / $llvm_s}")"
printf 'ratio (LLVM time / asmevo):   %.1fx\n' "$(awk "BEGIN{print $llvm_s / $asm_s}")"
