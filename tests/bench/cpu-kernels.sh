#!/usr/bin/env bash
# Throughput of the kernels of examples/kernels that mgpu compiles for #cpu.target<O = 3, chip = "native">,
# at a benchmark's size, against the same algorithm in C (tests/bench/cpu-kernels.c) built by gcc -O3
# -march=native -fopenmp, side by side, on the CPU backend:
#   matmul     1024x1024, 16x16 tiles staged in workgroup memory between two barriers (GFLOP/s)
#   reduce     2^24 floats, blocks of 256 threads; each subgroup of 32 adds its values by five xor shuffles
#              and its first lane adds the sum atomically (GB/s read)
#   stencil2d  5-point average on 2048x2048, 16x16 blocks, the border copied (GB/s read and written)
# Each program checks every number against its C twin, then runs RUNS alternating runs of each (median, min
# and max). Writes OUT/NAME.csv (tests/bench/results.sh's columns) and its plot.
# usage: tests/bench/cpu-kernels.sh [RUNS] [KERNEL...]   (RUNS default 7; after mvn package; needs gcc with OpenMP)
# Environment: OUT=tests/bench/results; NAME=cpu-kernels; CPU_TARGET='<O = 3, chip = "native">' (the
#   #cpu.target's parameters) and CPU_MARCH=-march=native (gcc's), for another CPU; MGPU_BENCH_FLAGS: more
#   options for gpu-translate; KEEP=DIR keeps the programs there: DIR/KERNEL KERNEL mgpu|gcc|both RUNS runs
#   one side alone (both: checks first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-7}"
shift || true
[ $# -gt 0 ] || set -- matmul reduce stencil2d
out="${OUT:-$root/tests/bench/results}"
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
# shellcheck source=results.sh
. "$root/tests/bench/results.sh"
target="${CPU_TARGET-<O = 3, chip = \"native\">}"
march="${CPU_MARCH--march=native}"

# The kernels of examples/kernels at a benchmark's size, for the target, with a host function run(...) that
# launches one grid.
kernel() { # NAME
  python3 - "$root/examples/kernels/$1.mlir" "$target" "$1" <<'PY'
import sys
src, target, name = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
start = src.index("  gpu.module")
end = src.index("\n  }\n", start) + len("\n  }\n")
module = src[start:end]
module = module[:module.index(" <#gpu.runtime_select>")] + " [#cpu.target" + target + "]" + module[module.index("] {") + 1:]
sizes = {"matmul": [("256x256xf32", "1024x1024xf32"), ("arith.constant 256 : index", "arith.constant 1024 : index")],
         "reduce": [("4096xf32", "16777216xf32")],
         "stencil2d": [("64x64xf32", "2048x2048xf32"), ("arith.constant 63 : index", "arith.constant 2047 : index"),
                       ("arith.constant 64 : index", "arith.constant 2048 : index")]}[name]
# The block size that run() launches, known to the kernel as the C twin knows it (matmul's says it already).
known = {"reduce": "256, 1, 1", "stencil2d": "16, 16, 1"}.get(name)
if known:
    sizes.append((") kernel {", ") kernel attributes {known_block_size = array<i32: %s>} {" % known))
for old, new in sizes:
    assert old in module, old
    module = module.replace(old, new)
launch = {
    "matmul": ("%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>",
               "%c64, %c64, %c1", "%c16, %c16, %c1",
               "%A : memref<1024x1024xf32>, %B : memref<1024x1024xf32>, %C : memref<1024x1024xf32>"),
    "reduce": ("%x: memref<16777216xf32>, %s: memref<1xf32>", "%c65536, %c1, %c1", "%c256, %c1, %c1",
               "%x : memref<16777216xf32>, %s : memref<1xf32>, %n : i32"),
    "stencil2d": ("%in: memref<2048x2048xf32>, %out: memref<2048x2048xf32>", "%c128, %c128, %c1", "%c16, %c16, %c1",
                  "%in : memref<2048x2048xf32>, %out : memref<2048x2048xf32>"),
}[name]
consts = "".join("    %%c%d = arith.constant %d : index\n" % (c, c) for c in (1, 16, 64, 128, 256, 65536))
host = ("  func.func @run(%s) {\n%s    %%n = arith.constant 16777216 : i32\n"
        "    gpu.launch_func @%s::@%s blocks in (%s) threads in (%s)\n        args(%s)\n    return\n  }\n"
        % (launch[0], consts, module.split("@")[1].split(" ")[0], name, launch[1], launch[2], launch[3]))
print("module attributes {gpu.container_module} {\n" + module + host + "}")
PY
}


results_open "$out/${NAME:-cpu-kernels}.csv"
printf '%-10s %28s %28s %8s\n' kernel "mgpu: median (min-max)" "gcc: median (min-max)" "mgpu/gcc"
status=0
for k in "$@"; do
  kernel "$k" >"$work/$k.mlir"
  "$root/tools/gpu-translate" ${MGPU_BENCH_FLAGS:-} "$work/$k.mlir" -o "$work/$k.o"
  gcc -O3 $march -fopenmp "-D${k^^}" "$root/tests/bench/cpu-kernels.c" "$work/$k.o" -L"$root/runtime-c/build" \
    -Wl,-rpath,"$root/runtime-c/build" -lmgpu -lm -o "$work/$k"
  if ! MGPU_BACKEND=cpu "$work/$k" "$k" both "$runs" >"$work/$k.txt"; then
    cat "$work/$k.txt" >&2
    status=1
    continue
  fi
  read -r _ _ _ m mlo mhi unit < <(grep " mgpu " "$work/$k.txt")
  read -r _ _ _ g glo ghi _ < <(grep " gcc " "$work/$k.txt")
  printf '%-10s %28s %28s %8.2f\n' "$k" "$m $unit ($mlo-$mhi)" "$g $unit ($glo-$ghi)" \
    "$(awk -v a="$m" -v b="$g" 'BEGIN {print a / b}')"
  results_values "$k" "mgpu $(tr -d '",' <<<"$target")" "$unit" "$m" "$mlo" "$mhi"
  results_values "$k" "gcc -O3 $march -fopenmp" "$unit" "$g" "$glo" "$ghi"
done
echo "CSV: $results_file (load $results_load at the start)"
results_plot "$results_file"
exit $status
