#!/usr/bin/env bash
# The main job (run by ./run.sh after the build): asmevo's whole flow on a few
# bundled example kernels of the benchmark suite (bench/kernels), on the CPU:
#
#   1. recover each code object into the amdgcn dialect and run the rewrite
#      pipeline (asmevo-opt; the optimizing passes this build has),
#   2. verify the rewrite against the original with the differential oracle
#      (asmevo-verify, tier 1: synthesized inputs plus the suite's launch spec),
#   3. only then time both with the cost model (asmevo-profile: *modelled*
#      cycles on an MI300X, not a measurement),
#
# and print the table (kernel, instructions, modelled cycles before/after,
# speedup, verified, seconds) with the geometric mean, then the hot windows
# of one rewritten kernel (what a search agent is pointed at).
#
# Environment: ASMEVO_BUILD_DIR (default build), ASMEVO_PIPELINE (default:
# run-suite's choice), ASMEVO_MAIN_JOB_KERNELS (regex over suite names),
# ASMEVO_DEVICE (mi300x). Results: $ASMEVO_BUILD_DIR/main-job/. The full
# suite is bench/run-suite (results in bench/results/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
bin="$build/bin"
out="$build/main-job"
device="${ASMEVO_DEVICE:-mi300x}"
kernels="${ASMEVO_MAIN_JOB_KERNELS:-^(l1_softmax|l1_layernorm|l1_cumsum|l1_matmul_tiled|l1_matmul_mfma|l1_transpose|l2_attention|l2_gemm_softmax|l2_matmul_scale_residual|l2_linear_layernorm)$}"
mkdir -p "$out"

for t in asmevo-opt asmevo-profile; do
  if [ ! -x "$bin/$t" ]; then
    echo "main-job: $bin/$t is missing (build first: utils/build.sh)" >&2
    exit 1
  fi
done
if [ ! -x "$bin/asmevo-verify" ]; then
  echo "main-job: VERIFICATION UNAVAILABLE ($bin/asmevo-verify not built):" \
       "rewrites will not be verified and no speedup will be reported" >&2
fi

pipeline_args=()
if [ -n "${ASMEVO_PIPELINE:-}" ]; then
  pipeline_args=(--pipeline "$ASMEVO_PIPELINE")
fi

echo "== asmevo main job: recover -> pipeline -> verify -> time (modelled, $device)"
echo
rc=0
python3 "$root/bench/run-suite" --build "$build" --filter "$kernels" \
  --device "$device" --out "$out" --work "$out/work" --title main-job \
  "${pipeline_args[@]}" || rc=$?

# The hot windows of one rewritten kernel, as a search agent would see them.
example=l2_attention
spec="$root/bench/kernels/specs/$example.json"
obj="$out/work/$example.opt.hsaco"
if [ -f "$obj" ] && [ -x "$bin/asmevo-opt" ]; then
  echo
  echo "== hot windows of the rewritten $example (asmevo-opt --profile)"
  "$bin/asmevo-opt" "$obj" --profile --spec "$spec" --hot 2 \
    --profile-json "$out/$example.profile.json" | head -n 40 || true
  echo "(JSON: ${out#$root/}/$example.profile.json)"
fi
echo
echo "main job results: ${out#$root/}/main-job.{md,json,svg}"
exit "$rc"
