#!/usr/bin/env bash
# Times gpu-translate against upstream MLIR tools on the same inputs, in the same run, alternating the
# two so that machine noise hits both alike. Reports the median wall time and peak RSS of RUNS runs each,
# and the ratio mgpu / upstream (below 1 means mgpu is faster).
#
# usage: tests/bench/compare.sh [INPUT_DIR] [RUNS]
#   INPUT_DIR defaults to a fresh directory filled by tests/bench/gen_inputs.py (byte for byte the inputs of
#   the shared benchmark generator).
# Needs: mlir-translate-22, mlir-opt-22, llvm-as-22 (Debian mlir-22-tools and llvm-22), GNU time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${1:-}"
runs="${2:-3}"
if [[ -z "$dir" ]]; then
  dir="$(mktemp -d)"
  python3 "$root/tests/bench/gen_inputs.py" "$dir"
fi
out="$(mktemp -d)"
gt="$root/tools/gpu-translate"

measure() { # prints "seconds KB" for one run of the command
  local f="$out/time.txt"
  /usr/bin/time -f "%e %M" -o "$f" bash -c "$1" >/dev/null 2>"$out/stderr.txt" || {
    echo "command failed: $1" >&2; cat "$out/stderr.txt" >&2; exit 1; }
  cat "$f"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

compare() { # name, mgpu command, upstream command
  local name="$1" ours="$2" theirs="$3"
  : >"$out/a" ; : >"$out/b"
  for ((i = 0; i < runs; i++)); do
    measure "$ours" >>"$out/a"
    measure "$theirs" >>"$out/b"
  done
  local ta tb ma mb
  ta=$(cut -d' ' -f1 "$out/a" | median); tb=$(cut -d' ' -f1 "$out/b" | median)
  ma=$(cut -d' ' -f2 "$out/a" | median); mb=$(cut -d' ' -f2 "$out/b" | median)
  printf '%-24s %8.2f s %8d MB | %8.2f s %8d MB | time x%.2f  rss x%.2f\n' "$name" "$ta" $((ma / 1024)) "$tb" \
    $((mb / 1024)) "$(echo "$ta / $tb" | bc -l)" "$(echo "$ma / $mb" | bc -l)"
}

printf '%-24s %22s | %22s | %s\n' "input / output" "gpu-translate" "upstream" "ratio (mgpu/upstream)"
for f in launches blob binaries; do
  in="$dir/$f.mlir"
  compare "$f.mlir -> .mlir" "$gt --emit=mlir $in -o $out/x.mlir" "mlir-opt-22 $in -o $out/y.mlir"
  compare "$f.mlir -> .ll" "$gt --emit=llvm $in -o $out/x.ll" "mlir-translate-22 --mlir-to-llvmir $in -o $out/y.ll"
  compare "$f.mlir -> .bc" "$gt --emit=bc $in -o $out/x.bc" \
    "mlir-translate-22 --mlir-to-llvmir $in | llvm-as-22 -o $out/y.bc"
done
rm -rf "$out"
