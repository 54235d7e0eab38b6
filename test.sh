#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: GoogleTest through
# ctest and the lit/FileCheck suite.
#   ./test.sh            the default suite (well under CI's time)
#   ./test.sh --corpus   also the corpus-scale runs over Debian's ROCm code
#                        objects (fetched by utils/fetch-rocm-corpus.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${ASMEVO_BUILD_DIR:-$root/build}"
corpus=0
for arg in "$@"; do
  case "$arg" in
    --corpus) corpus=1 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

"$root/utils/install-deps.sh"
"$root/utils/build.sh"

echo "== ctest (GoogleTest and other registered tests)"
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure
echo "== lit (FileCheck tests)"
/usr/lib/llvm-22/bin/lit -sv "$build/test"

if [ "$corpus" = 1 ]; then
  echo "== corpus: fetching/extracting Debian's ROCm code objects"
  ASMEVO_EXTRACT="$build/bin/asmevo-extract" "$root/utils/fetch-rocm-corpus.sh" "$root/corpus"
  echo "== corpus: round-trip gate over gfx942 and gfx90a objects"
  "$build/bin/asmevo-corpus" --manifest "$root/corpus/manifest.txt" \
    --arch gfx942,gfx90a --jobs "$(nproc)"
  # [verify] mutation testing of the oracle on corpus kernels (docs/verification.md)
  echo "== corpus: oracle mutation testing"; "$build/bin/asmevo-mutate" --manifest "$root/corpus/manifest.txt" --arch gfx942 --filter librocsparse --filter librocrand --filter librocblas --exclude TensileLibrary --max-objects 30 --max-kernels 4 --per-kernel 10 --equivalents 2 --jobs "$(nproc)" --timeout 60 --min-kill-rate 97 --annotations "$root/test/Verify/corpus-mutation-survivors.txt" --spec-dir "$root/test/Verify/corpus-specs" --report "$build/corpus-mutation-report.txt"
  # [timing] the suite's production kernels compute the right answer with
  # their launch specs (host GEMM, gather, 2:4 pruning; bench/kernels/README.md)
  echo "== corpus: host reference checks of the suite's production kernels"
  python3 "$root/bench/kernels/hostcheck.py" --build "$build" --corpus "$root/corpus"
  # [passes] the rewrite pipeline over sampled corpus kernels, each changed
  # kernel checked by asmevo-verify (docs/WritingPasses.md, "Corpus run")
  echo "== corpus: rewrite pipeline, verified"
  python3 "$root/utils/pipeline-corpus.py" --bin "$build/bin" \
    --manifest "$root/corpus/manifest.txt" --arch gfx942 \
    --filter librocrand --filter librocsparse --filter librocblas \
    --max-objects 60 --max-kernels 3 --jobs "$(nproc)" --tensile-specs \
    --work "$build/corpus-pipeline" --report "$build/corpus-pipeline-report.txt"
  # [tier2-real] real ROCm host libraries (rocSPARSE 5.3, rocRAND 5.3/7.2.4)
  # on the test HIP runtime: results checked on the host, every dispatch
  # captured, mutation rates tier 1 vs tier 2 (docs/verification.md)
  echo "== corpus: tier 2 from real host libraries"
  python3 "$root/utils/tier2-real.py" --build "$build" --corpus "$root/corpus" \
    --per-kernel 10 --jobs "$(nproc)" --report "$build/tier2-real-report.txt"
fi
