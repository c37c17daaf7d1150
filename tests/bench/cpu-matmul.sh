#!/usr/bin/env bash
# Throughput of the tiled matmul (16x16 tiles staged in workgroup memory between two barriers, as
# examples/kernels/matmul.mlir, at 1024x1024) compiled by mgpu for #cpu.target, against the same algorithm
# in C built by gcc -O3 -fopenmp: once for each compiler's baseline CPU (#cpu.target<O = 3>, no -march), once
# for this machine's CPU (#cpu.target<O = 3, chip = "native"> against -march=native). tests/bench/cpu-kernels.sh
# builds and times them: RUNS alternating runs each (median, min and max), every number checked first;
# OUT/cpu-matmul-baseline.csv and OUT/cpu-matmul-native.csv, and their plots.
# usage: tests/bench/cpu-matmul.sh [RUNS]   (default 7; after mvn package; needs gcc with OpenMP; MGPU_BENCH_FLAGS:
#   more options for gpu-translate, such as --kernel-bare-ptr-calling-convention)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
status=0
echo "baseline CPU:"
NAME=cpu-matmul-baseline CPU_TARGET='<O = 3>' CPU_MARCH='' "$here/cpu-kernels.sh" "${1:-7}" matmul || status=1
echo "this machine's CPU:"
NAME=cpu-matmul-native "$here/cpu-kernels.sh" "${1:-7}" matmul || status=1
exit $status
