#!/usr/bin/env bash
# Lists the MFMA/SMFMAC opcodes that occur in the corpus objects of the
# matrix libraries and whether the emulator implements each one.
#
#   utils/mfma-census.sh [--build DIR] [--every N] [--source REGEX]
#                        [--jobs N] [--out DIR]
#
# Objects: corpus/manifest.txt rows of rocBLAS (Tensile and HIP kernels),
# hipSPARSELt and the rocWMMA tests for gfx942 and gfx90a (gfx90a xnack+
# builds are skipped: their xnack- twins hold the same code). --every N
# disassembles every Nth object only (a quick sample); --source keeps the
# sources matching REGEX; --jobs runs N disassemblers at once. Each object is
# disassembled with llvm-objdump-22; per-object counts go to
# OUT/objects.tsv, the summary (source, arch, opcode, static count, how many
# of them carry cbsz/abid/blgp/neg modifiers, objects, emulator fidelity
# from `asmevo-run --list-opcodes`) to OUT/summary.tsv and stdout. Exit status 1 when an opcode that occurs is not implemented.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
every=1
source=.
jobs=1
out=$root/corpus/mfma-census
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$2; shift 2 ;;
  --every) every=$2; shift 2 ;;
  --source) source=$2; shift 2 ;;
  --jobs) jobs=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "usage: $0 [--build DIR] [--every N] [--source REGEX] [--jobs N] [--out DIR]" >&2; exit 2 ;;
  esac
done
manifest=$root/corpus/manifest.txt
[ -f "$manifest" ] || { echo "no $manifest (utils/fetch-rocm-corpus.sh)" >&2; exit 2; }
run=$build/bin/asmevo-run
[ -x "$run" ] || { echo "no $run (build asmevo-run)" >&2; exit 2; }
objdump=${OBJDUMP:-llvm-objdump-22}
mkdir -p "$out"

"$run" --list-opcodes | awk 'NF == 2 { print $1 "\t" $2 }' >"$out/fidelity.tsv"

# source<TAB>arch<TAB>path for the selected objects.
awk -F'\t' -v every="$every" -v want="$source" '
  /^#/ { next }
  ($2 == "gfx942" || $2 == "gfx90a") && $5 !~ /xnack\+/ {
    src = ""
    if ($4 ~ /^librocblas/) src = ($1 ~ /TensileLibrary|Kernels\.so/) ? "rocBLAS-Tensile" : "rocBLAS-HIP"
    else if ($4 ~ /^libhipsparselt/) src = "hipSPARSELt"
    else if ($4 ~ /^librocwmma-tests/) src = "rocWMMA-tests"
    if (src == "" || src !~ want) next
    if ((n++ % every) != 0) next
    print src "\t" $2 "\t" $1
  }' "$manifest" >"$out/objects.list"

: >"$out/objects.tsv"
total=$(wc -l <"$out/objects.list")
rm -rf "$out/parts"
mkdir -p "$out/parts"
# One line per opcode and object: source arch object opcode count.
census_one() {
  local n=$1 src=$2 arch=$3 path=$4
  "$objdump" -d --no-show-raw-insn --no-leading-addr "$root/corpus/$path" 2>/dev/null |
    grep -E '^[[:space:]]*v_s?mfmac?_' |
    awk -v s="$src" -v a="$arch" -v p="$path" '
      { n[$1]++; if ($0 ~ /(cbsz|abid|blgp|neg):/) m[$1]++ }
      END { for (k in n) print s "\t" a "\t" p "\t" k "\t" n[k] "\t" m[k] + 0 }' \
      >"$out/parts/$n.tsv" || true
}
export -f census_one
export root objdump out
awk '{ print NR "\t" $0 }' "$out/objects.list" |
  xargs -P "$jobs" -d '\n' -n 1 bash -c \
    'IFS=$'"'"'\t'"'"' read -r n src arch path <<<"$0"; census_one "$n" "$src" "$arch" "$path"'
cat "$out"/parts/*.tsv >"$out/objects.tsv" 2>/dev/null || true

awk -F'\t' '
  FNR == NR { fid[$1] = $2; next }
  { key = $1 "\t" $2 "\t" $4; cnt[key] += $5; mods[key] += $6; objs[key]++ }
  END {
    for (k in cnt) {
      split(k, f, "\t")
      fd = (f[3] in fid) ? fid[f[3]] : "MISSING"
      print k "\t" cnt[k] "\t" mods[k] "\t" objs[k] "\t" fd
    }
  }' "$out/fidelity.tsv" "$out/objects.tsv" | sort >"$out/summary.tsv"

printf 'source\tarch\topcode\tstatic\twith_cbsz_abid_blgp_neg\tobjects\temulator\n'
cat "$out/summary.tsv"
echo "$total objects disassembled; details in $out" >&2
if awk -F'\t' '$7 == "MISSING" || $7 == "unsupported" { bad = 1 } END { exit !bad }' "$out/summary.tsv"; then
  exit 1
fi
