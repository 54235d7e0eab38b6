#!/usr/bin/env bash
# The main job on the bundled example kernels (built from test/Kernels):
# recover each code object into the amdgcn dialect, check the lossless round
# trip, run a rewrite pipeline and emit the result, then (where the tools are
# built) run original and rewrite on the CPU emulator and compare.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
bin="$build/bin"
kdir="$build/test/Kernels"
out="$build/main-job"
mkdir -p "$out"
pipeline="${ASMEVO_PIPELINE:-amdgcn-test-insert-nop}"

examples=(elementwise-gfx942-v5 reduce-gfx942-v5 control_flow-gfx942-v5
          calls-gfx942-v5 mfma-gfx942-v5 atomics-gfx90a-v5)

printf '%-24s %8s %8s %-10s %-12s %s\n' object kernels insts roundtrip rewrite output
for name in "${examples[@]}"; do
  in="$kdir/$name.hsaco"
  if [ ! -f "$in" ]; then echo "missing $in (build first)" >&2; exit 1; fi
  rt="$("$bin/asmevo-opt" "$in" --roundtrip-check || true)"
  kernels="$(sed -n 's/.*: \([0-9]*\)\/\([0-9]*\) kernels identical.*/\2/p' <<<"$rt")"
  insts="$(sed -n 's/.* \([0-9]*\) instructions.*/\1/p' <<<"$rt")"
  if grep -q "ROUNDTRIP FAILED" <<<"$rt"; then status=FAILED; else status=identical; fi
  "$bin/asmevo-opt" "$in" --elide-image -o "$out/$name.mlir"
  if "$bin/asmevo-opt" "$in" --pipeline="$pipeline" -o "$out/$name.rewritten.hsaco" 2>"$out/$name.err"; then
    rewrite=emitted
  else
    rewrite="refused"
  fi
  printf '%-24s %8s %8s %-10s %-12s %s\n' "$name" "$kernels" "$insts" "$status" "$rewrite" \
    "${out#$root/}/$name.{mlir,rewritten.hsaco}"
done
echo
echo "pipeline: $pipeline"
echo "The recovered IR of each object is in ${out#$root/}/*.mlir."
