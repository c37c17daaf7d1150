#!/usr/bin/env bash
# Times mgpu's kernel compilation against upstream's on the same kernels, alternating the two so that
# machine noise hits both alike: examples/kernels/*.mlir for sm_90 alone, and one gpu.module of 100 tiled
# matmul kernels. Ours: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly (JVM start
# included); upstream: mlir-opt-22 -convert-scf-to-cf -convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}
# -gpu-module-to-binary{format=isa}. Reports the median wall time of RUNS runs each (to the millisecond) and
# the ratios, each the median of the ratios of the runs' pairs (ours or served, and upstream's run after it); with
# ptxas on PATH, also the SASS instruction count of each kernel after ptxas -arch=sm_90 (tests/bin/sass-count):
# ours, upstream's ("-" where ptxas rejects upstream's PTX) and, with nvcc, nvcc -O3's build of the same
# kernel in tests/gpu/kernels/kernels.cu.
# A third column times the same runs of ours through a resident server (MGPU_SERVER=1), after one run of
# each input that starts the server and is not timed: what a build's runs after its first one take. Last,
# a build of 20 runs one after another (the four kernels, five times each), timed whole: ours in processes of
# their own, ours through a server that the build's first run starts (its JVM start and LLVM load counted),
# and upstream's.
#
# usage: tests/bench/compare-kernels.sh [RUNS]   (default 5); writes OUT/kernels.csv (OUT=tests/bench/results),
#   and OUT/kernels-runs.csv, one row per measurement (tests/bench/results.sh's columns), and its plot. A short
#   run: BUILDS=0 (no build20 row).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-5}"
out="${OUT:-$root/tests/bench/results}"
mkdir -p "$out"
work="$(mktemp -d)"
stop_servers() {
  for log in "$work"/servers/*.log; do
    [[ -f $log ]] && kill "$(awk 'NR == 1 {print $3}' "$log")" 2>/dev/null
  done
  rm -rf "$work"
}
trap stop_servers EXIT
gt="$root/tools/gpu-translate"
# shellcheck source=results.sh
. "$root/tests/bench/results.sh"
results_open "$out/kernels-runs.csv"
# The kernels of the examples alone (their gpu.module, without the host function), for sm_90 only.
for k in axpy stencil2d matmul reduce; do
  python3 - "$root/examples/kernels/$k.mlir" "$work/$k.mlir" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
start = src.index("  gpu.module")
end = src.index("\n  }\n", start) + len("\n  }\n")
module = re.sub(r" <#gpu\.runtime_select> \[[^\]]*\]", ' [#nvvm.target<chip = "sm_90">]', src[start:end])
open(sys.argv[2], "w").write(src[:start] + module + "}\n")
PY
done
python3 - "$work/matmul.mlir" "$work/matmul100.mlir" <<'PY'
import sys
src = open(sys.argv[1]).read()
start = src.index("    gpu.func")
end = src.rindex("  }\n}")
body = src[start:end]
funcs = "".join(body.replace("@matmul(", "@matmul%d(" % i) for i in range(100))
open(sys.argv[2], "w").write(src[:start] + funcs + src[end:])
PY
wall() { local t0=$EPOCHREALTIME t1; "$@" >/dev/null 2>&1; t1=$EPOCHREALTIME; seconds_between "$t0" "$t1"; }
sass() { # CUBIN KERNEL: the kernel's SASS instruction count, or - when there is no cubin
  if [[ -f $1 ]]; then "$root/tests/bin/sass-count" "$1" | awk -v k="$2" '$1 == k {print $2}'; else echo -; fi
}
if command -v nvcc >/dev/null && command -v ptxas >/dev/null; then
  nvcc -cubin -arch=sm_90 -O3 "$root/tests/gpu/kernels/kernels.cu" -o "$work/nvcc.cubin"
fi
echo "input,mgpu_s,mgpu_served_s,upstream_s,ratio,served_ratio,mgpu_sass,upstream_sass,nvcc_sass" >"$out/kernels.csv"
printf '%-12s %10s %10s %12s %7s %7s\n' input mgpu served upstream ratio served
served=(env MGPU_SERVER=1 MGPU_SERVER_DIR="$work/servers" MGPU_SERVER_IDLE=600 "$gt")
for k in axpy stencil2d matmul reduce matmul100; do
  "${served[@]}" --emit=mlir --compile-kernels --gpu-format=assembly --kernel-bare-ptr-calling-convention "$work/$k.mlir" -o "$work/$k.served.mlir"
done
for k in axpy stencil2d matmul reduce matmul100; do
  : >"$work/ours" && : >"$work/theirs" && : >"$work/served"
  for ((i = 0; i < runs; i++)); do
    wall "$gt" --emit=mlir --compile-kernels --gpu-format=assembly --kernel-bare-ptr-calling-convention "$work/$k.mlir" -o "$work/$k.ours.mlir" >>"$work/ours"
    wall "${served[@]}" --emit=mlir --compile-kernels --gpu-format=assembly --kernel-bare-ptr-calling-convention "$work/$k.mlir" \
      -o "$work/$k.served.mlir" >>"$work/served"
    cmp -s "$work/$k.ours.mlir" "$work/$k.served.mlir" || { echo "served output differs for $k" >&2; exit 1; }
    wall mlir-opt-22 "$work/$k.mlir" -convert-scf-to-cf -convert-gpu-to-nvvm='use-bare-ptr-memref-call-conv=1' \
      -gpu-module-to-binary='format=isa' -o "$work/$k.up.mlir" >>"$work/theirs"
  done
  a="$(median_of <"$work/ours")" b="$(median_of <"$work/theirs")" c="$(median_of <"$work/served")"
  ratio="$(paired_ratio "$work/ours" "$work/theirs")"
  sratio="$(paired_ratio "$work/served" "$work/theirs")"
  sa="" sb="" sc=""
  if command -v ptxas >/dev/null && [[ $k != matmul100 ]]; then
    for who in ours up; do
      "$root/tests/bin/gpu-object" sm_90 <"$work/$k.$who.mlir" >"$work/$k.$who.ptx"
      ptxas -arch=sm_90 "$work/$k.$who.ptx" -o "$work/$k.$who.cubin" 2>"$work/$k.$who.ptxas" || true
    done
    sa="$(sass "$work/$k.ours.cubin" "$k")" sb="$(sass "$work/$k.up.cubin" "$k")" sc="$(sass "$work/nvcc.cubin" "$k")"
  fi
  printf '%-12s %9.3fs %9.3fs %11.3fs %7.2f %7.2f %s\n' "$k" "$a" "$c" "$b" "$ratio" "$sratio" \
    "${sa:+SASS ours $sa, upstream $sb, nvcc -O3 $sc}"
  if [[ $sb == - && -s $work/$k.up.ptxas ]]; then
    echo "             upstream's PTX: $(head -1 "$work/$k.up.ptxas")"
  fi
  echo "$k,$a,$c,$b,$ratio,$sratio,$sa,$sb,$sc" >>"$out/kernels.csv"
  results_row "$k" gpu-translate s "$work/ours"
  results_row "$k" "gpu-translate (served)" s "$work/served"
  results_row "$k" mlir-opt-22 s "$work/theirs"
done
wallfn() { local TIMEFORMAT=%R; { time "$@" >/dev/null 2>&1; } 2>&1; }
build() { # TOOL...: the 20 runs of a build, one after another
  for ((r = 0; r < 5; r++)); do
    for k in axpy stencil2d matmul reduce; do
      "$@" "$work/$k.mlir"
    done
  done
}
ours_one() { "$gt" --emit=mlir --compile-kernels --gpu-format=assembly --kernel-bare-ptr-calling-convention "$1" -o "$1.b.mlir"; }
served_one() {
  MGPU_SERVER=1 MGPU_SERVER_DIR="$work/servers-build" MGPU_SERVER_IDLE=600 "$gt" --emit=mlir --compile-kernels \
    --gpu-format=assembly --kernel-bare-ptr-calling-convention "$1" -o "$1.s.mlir"
}
up_one() {
  mlir-opt-22 "$1" -convert-scf-to-cf -convert-gpu-to-nvvm='use-bare-ptr-memref-call-conv=1' \
    -gpu-module-to-binary='format=isa' -o "$1.u.mlir"
}
: >"$work/bo" && : >"$work/bs" && : >"$work/bu"
builds="${BUILDS:-3}"
if ((builds == 0)); then
  echo "CSV: $out/kernels.csv, $results_file (load $results_load at the start)"
  results_plot "$results_file"
  exit 0
fi
for ((i = 0; i < builds; i++)); do
  for log in "$work"/servers-build/*.log; do
    [[ -f $log ]] && kill "$(awk 'NR == 1 {print $3}' "$log")" 2>/dev/null
  done
  rm -rf "$work/servers-build"
  wallfn build ours_one >>"$work/bo"
  wallfn build served_one >>"$work/bs"
  wallfn build up_one >>"$work/bu"
done
for log in "$work"/servers-build/*.log; do
  [[ -f $log ]] && mv "$log" "$work/servers/build.log"
done
a="$(median_of <"$work/bo")" c="$(median_of <"$work/bs")" b="$(median_of <"$work/bu")"
ratio="$(paired_ratio "$work/bo" "$work/bu")" sratio="$(paired_ratio "$work/bs" "$work/bu")"
printf '%-12s %9.3fs %9.3fs %11.3fs %7.2f %7.2f  (median of %s builds of 20 runs, the server started by the first)\n' \
  build20 "$a" "$c" "$b" "$ratio" "$sratio" "$builds"
echo "build20,$a,$c,$b,$ratio,$sratio,,," >>"$out/kernels.csv"
results_row build20 gpu-translate s "$work/bo"
results_row build20 "gpu-translate (served)" s "$work/bs"
results_row build20 mlir-opt-22 s "$work/bu"
echo "CSV: $out/kernels.csv, $results_file (load $results_load at the start)"
results_plot "$results_file"
