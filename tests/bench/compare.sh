#!/usr/bin/env bash
# Times gpu-translate against upstream MLIR tools on the same inputs, in the same run, alternating the
# two so that machine noise hits both alike. Reports the median wall time (to the millisecond) and peak RSS
# of RUNS runs each, the ratio of the medians mgpu / upstream, and the median of the ratios of the pairs, each
# run of ours and the upstream run after it (below 1 means mgpu is faster).
#
# Outputs compared:
#   .mlir  gpu-translate --emit=mlir            against mlir-opt-22
#   .ll    gpu-translate --emit=llvm            against mlir-translate-22 --mlir-to-llvmir
#   .bc    gpu-translate --emit=bc              against the same, piped into llvm-as-22
#   .o/.s  gpu-translate -O$OPT --emit=obj/asm  against the same, piped into llc-22 -O$OPT (PIC, as ours)
# Then a scaling series: one host function with 1k, 2k, 4k, 8k, 16k and 32k launches (the shared
# generator's launches(n)), to .o with both tools, to show how the cost grows with the input.
#
# usage: tests/bench/compare.sh [INPUT_DIR] [RUNS]
#   INPUT_DIR defaults to a fresh directory filled by tests/bench/gen_inputs.py (byte for byte the inputs of
#   the shared benchmark generator). RUNS defaults to 3.
# Environment:
#   OPT=2                 code generation level of both tools for .o and .s
#   CODEGEN_RUNS=RUNS     runs of the .o and .s rows (upstream takes minutes on launches.mlir)
#   SERIES="1000 ... 32000"  launch counts of the scaling series ("" skips it)
#   SERIES_RUNS=1         runs per point of the series (upstream takes minutes at 16k and 32k)
#   OUT=tests/bench/results  where compare.csv, scaling.csv and scaling.svg go, and compare-runs.csv: one row
#                         per measurement (tests/bench/results.sh's columns: median, min and max) and its plot
# A short run: CODEGEN_RUNS=0 (no .o and .s rows: upstream takes minutes on launches.mlir) SERIES="".
# Needs: mlir-translate-22, mlir-opt-22, llvm-as-22, llc-22 (Debian mlir-22-tools and llvm-22), GNU time;
# gnuplot (Debian gnuplot-nox) for the plot, which is skipped without it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${1:-}"
runs="${2:-3}"
opt="${OPT:-2}"
codegen_runs="${CODEGEN_RUNS:-$runs}"
series="${SERIES-1000 2000 4000 8000 16000 32000}"
series_runs="${SERIES_RUNS:-1}"
results="${OUT:-$root/tests/bench/results}"
mkdir -p "$results"
if [[ -z "$dir" ]]; then
  dir="$(mktemp -d)"
  python3 "$root/tests/bench/gen_inputs.py" "$dir"
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
gt="$root/tools/gpu-translate"
# shellcheck source=results.sh
. "$root/tests/bench/results.sh"
results_open "$results/compare-runs.csv"
csv="$results/compare.csv"
echo "input,output,runs,mgpu_s,mgpu_rss_mb,upstream_s,upstream_rss_mb,time_ratio,rss_ratio,paired_time_ratio" >"$csv"

measure() { # prints "seconds KB" for one run of the command: its wall time to the microsecond, its peak RSS
  local f="$out/time.txt" t0=$EPOCHREALTIME t1
  /usr/bin/time -f "%M" -o "$f" bash -c "set -o pipefail; $1" >/dev/null 2>"$out/stderr.txt" || {
    echo "command failed: $1" >&2; cat "$out/stderr.txt" >&2; exit 1; }
  t1=$EPOCHREALTIME
  echo "$(seconds_between "$t0" "$t1") $(cat "$f")"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# compare NAME OUTPUT RUNS MGPU-COMMAND UPSTREAM-COMMAND: prints a row and appends it to the CSV; leaves
# the two median times in $ta and $tb.
compare() {
  local name="$1" kind="$2" n="$3" ours="$4" theirs="$5"
  if ((n == 0)); then
    return
  fi
  : >"$out/a" ; : >"$out/b"
  for ((i = 0; i < n; i++)); do
    measure "$ours" >>"$out/a"
    measure "$theirs" >>"$out/b"
  done
  local ma mb rt rr rp
  cut -d' ' -f1 "$out/a" >"$out/a.s"
  cut -d' ' -f1 "$out/b" >"$out/b.s"
  ta=$(median <"$out/a.s"); tb=$(median <"$out/b.s")
  ma=$(cut -d' ' -f2 "$out/a" | median); mb=$(cut -d' ' -f2 "$out/b" | median)
  rt=$(echo "$ta / $tb" | bc -l); rr=$(echo "$ma / $mb" | bc -l); rp=$(paired_ratio "$out/a.s" "$out/b.s")
  printf '%-26s %8.3f s %6d MB | %8.3f s %6d MB | time x%.2f (paired x%.2f)  rss x%.2f\n' "$name -> $kind" \
    "$ta" $((ma / 1024)) "$tb" $((mb / 1024)) "$rt" "$rp" "$rr"
  printf '%s,%s,%d,%.3f,%d,%.3f,%d,%.3f,%.3f,%s\n' "$name" "$kind" "$n" "$ta" $((ma / 1024)) "$tb" $((mb / 1024)) \
    "$rt" "$rr" "$rp" >>"$csv"
  results_row "$name -> $kind" gpu-translate s "$out/a.s"
  results_row "$name -> $kind" "${theirs%% *}" s "$out/b.s"
}

upstream_ll() { echo "mlir-translate-22 --mlir-to-llvmir $1"; }

printf '%-26s %21s | %21s | %s\n' "input -> output" "gpu-translate" "upstream" "ratio (mgpu/upstream)"
for f in launches blob binaries; do
  in="$dir/$f.mlir"
  compare "$f.mlir" .mlir "$runs" "$gt --emit=mlir $in -o $out/x.mlir" "mlir-opt-22 $in -o $out/y.mlir"
  compare "$f.mlir" .ll "$runs" "$gt --emit=llvm $in -o $out/x.ll" "$(upstream_ll "$in") -o $out/y.ll"
  compare "$f.mlir" .bc "$runs" "$gt --emit=bc $in -o $out/x.bc" "$(upstream_ll "$in") | llvm-as-22 -o $out/y.bc"
  compare "$f.mlir" ".o (-O$opt)" "$codegen_runs" "$gt -O$opt --emit=obj $in -o $out/x.o" \
    "$(upstream_ll "$in") | llc-22 -O$opt -relocation-model=pic -filetype=obj -o $out/y.o"
  if [[ "$f" == launches ]]; then
    compare "$f.mlir" ".s (-O$opt)" "$codegen_runs" "$gt -O$opt --emit=asm $in -o $out/x.s" \
      "$(upstream_ll "$in") | llc-22 -O$opt -relocation-model=pic -filetype=asm -o $out/y.s"
  fi
done

if [[ -n "$series" ]]; then
  scaling="$results/scaling.csv"
  echo "launches,mgpu_s,upstream_s" >"$scaling"
  echo
  echo "scaling: one host function with N launches -> .o at -O$opt ($series_runs run(s) per point)"
  for n in $series; do
    in="$out/launches-$n.mlir"
    python3 -c "import sys; sys.path.insert(0, '$root/tests/bench'); import gen_inputs as g
g.write('$in', g.launches($n))"
    compare "launches($n)" ".o (-O$opt)" "$series_runs" "$gt -O$opt --emit=obj $in -o $out/x.o" \
      "$(upstream_ll "$in") | llc-22 -O$opt -relocation-model=pic -filetype=obj -o $out/y.o"
    echo "$n,$ta,$tb" >>"$scaling"
    rm -f "$in"
  done
  # Each doubling's cost: time(2n) / time(n), for both tools.
  awk -F, 'NR > 2 && pa > 0 && pb > 0 { printf "  %6d -> %6d launches: gpu-translate x%.2f, upstream x%.2f\n", pn, $1, $2 / pa, $3 / pb }
           NR > 1 { pn = $1; pa = $2; pb = $3 }' "$scaling"
  if command -v gnuplot >/dev/null; then
    gnuplot <<EOF
set terminal svg size 720,440 font "sans,12"
set output "$results/scaling.svg"
set datafile separator ","
set key top left
set title "Host code for N launches in one function, to .o at -O$opt"
set xlabel "launches"
set ylabel "wall time (s)"
set logscale xy 2
set format x "%.0f"
set grid
plot "$scaling" every ::1 using 1:2 with linespoints lw 2 title "gpu-translate", \
     "$scaling" every ::1 using 1:3 with linespoints lw 2 title "mlir-translate-22 | llc-22"
EOF
    echo "plot: $results/scaling.svg"
  else
    echo "gnuplot is not installed (Debian gnuplot-nox): no plot" >&2
  fi
fi
echo "CSV: $csv${series:+ and $results/scaling.csv}, $results_file (load $results_load at the start)"
results_plot "$results_file"
