#!/usr/bin/env bash
# Prepares the NVIDIA GPU check where Java and gpu-translate are available: compiles the kernels with
# nvcc (cubin for sm_90, cubin for sm_80, PTX for compute_80), generates host objects for each example,
# object format and load strategy, and the fat binaries. run-cuda-check.sh then needs only a C compiler,
# nvcc's headers and the driver.
# usage: tests/gpu/prepare.sh OUT_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$1"
mkdir -p "$out"
gt="$root/tools/gpu-translate"
nvcc="${NVCC:-nvcc}"
# Its sixty-odd gpu-translate runs go to one resident server of its own, which the first run starts and the
# script stops at its end: each run then starts no JVM. MGPU_SERVER=0 runs each in a process of its own.
if [[ ${MGPU_SERVER:-1} == 1 ]]; then
  export MGPU_SERVER=1 MGPU_SERVER_DIR="$(mktemp -d)" MGPU_SERVER_IDLE=120
  trap '"$gt" --server=stop >/dev/null 2>&1 || true; rm -rf "$MGPU_SERVER_DIR"' EXIT
fi

# example name, CUDA source, CPU source, host program, driver, kernel blob name
examples=(
  "axpy examples/own-objects/axpy/axpy.cu examples/own-objects/axpy/axpy_cpu.c examples/own-objects/axpy/axpy.mlir examples/own-objects/axpy/main.c axpy"
  "stencil2d examples/own-objects/stencil2d/stencil.cu examples/own-objects/stencil2d/stencil_cpu.c examples/own-objects/stencil2d/stencil.mlir examples/own-objects/stencil2d/main.c stencil"
  "mixed tests/e2e/mixed/mixed.cu tests/e2e/mixed/mixed_cpu.c tests/e2e/mixed/mixed.mlir tests/e2e/mixed/main.c mixed"
)
for e in "${examples[@]}"; do
  read -r name cu cpu mlir main blob <<<"$e"
  "$nvcc" -cubin -arch=sm_90 -O3 "$root/$cu" -o "$out/$name.sm_90.cubin"
  "$nvcc" -cubin -arch=sm_80 -O3 "$root/$cu" -o "$out/$name.sm_80.cubin"
  "$nvcc" -ptx -arch=compute_80 -O3 "$root/$cu" -o "$out/$name.ptx"
  cc -shared -fPIC -O2 -I"$root/runtime-c/include" "$root/$cpu" -o "$out/$name.cpu.so"
  cp "$root/$main" "$out/$name.main.c"
  for fmt in cubin ptx; do
    if [[ $fmt == cubin ]]; then
      obj="#gpu.object<#nvvm.target<chip = \"sm_90\">, properties = {mgpu.bare_pointers}, bin = \"@file:$blob\">"
      file="$out/$name.sm_90.cubin"
    else
      obj="#gpu.object<#nvvm.target<chip = \"sm_80\">, properties = {O = 3 : i32, mgpu.bare_pointers}, assembly = \"@file:$blob\">"
      file="$out/$name.ptx"
    fi
    sed "s|#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, \"@file:$blob\">|$obj|" "$root/$mlir" >"$out/$name.$fmt.mlir"
    for s in lazy ctor per-launch; do
      "$gt" --module-load=$s --embed "$blob=$file" "$out/$name.$fmt.mlir" -o "$out/$name.$fmt.$s.o"
    done
  done
done

# Memory operations without kernels.
"$gt" "$root/tests/e2e/memory/memory.mlir" -o "$out/memory.o"
cp "$root/tests/e2e/memory/main.c" "$out/memory.main.c"

# Clusters, on sm_90.
sed 's|#cpu.target, properties|#nvvm.target<chip = "sm_90">, properties|; s|"@file:axpy">|bin = "@file:axpy">|' \
  "$root/tests/gpu/axpy_cluster.mlir" >"$out/cluster.mlir"
"$gt" --embed axpy="$out/axpy.sm_90.cubin" "$out/cluster.mlir" -o "$out/cluster.o"

# One fat binary with sm_80 and sm_90 cubins, PTX, gfx90a and CPU objects; and the same without sm_90.
printf 'not an AMD object' >"$out/gfx90a.placeholder"
fat=(--embed sm_80="$out/axpy.sm_80.cubin" --embed sm_90="$out/axpy.sm_90.cubin" --embed ptx="$out/axpy.ptx"
  --embed gfx90a="$out/gfx90a.placeholder" --embed cpu="$out/axpy.cpu.so")
"$gt" "${fat[@]}" "$root/tests/e2e/fat/fat.mlir" -o "$out/fat.o"
grep -v 'chip = "sm_90"' "$root/tests/e2e/fat/fat.mlir" >"$out/fat-nosm90.mlir"
"$gt" "${fat[@]}" "$out/fat-nosm90.mlir" -o "$out/fat-nosm90.o"

# The launch-overhead benchmark, and upstream's code for the same loop when mlir-translate-22 is here.
"$gt" --embed axpy="$out/axpy.sm_90.cubin" "$root/tests/gpu/launch_bench.mlir" -o "$out/bench.lazy.o"
cp "$root/tests/gpu/launch_bench.c" "$out/"
if command -v mlir-translate-22 >/dev/null && command -v llc-22 >/dev/null; then
  python3 - "$root/tests/gpu/launch_bench_upstream.mlir" "$out/axpy.sm_90.cubin" "$out/upstream.mlir" <<'PY'
import sys
src, cubin, dst = sys.argv[1:]
blob = "".join("\\%02X" % b for b in open(cubin, "rb").read())
open(dst, "w").write(open(src).read().replace("@file:axpy", blob))
PY
  mlir-translate-22 --mlir-to-llvmir "$out/upstream.mlir" | llc-22 -O2 -filetype=obj -relocation-model=pic -o "$out/upstream.o"
else
  echo "note: no upstream loop in the benchmark: mlir-translate-22 or llc-22 is missing (Debian mlir-22-tools, llvm-22)"
fi
# The one-source examples of examples/kernels: each kernel with its host function, compiled by mgpu in one
# gpu-translate run for sm_90 (a ptxas cubin in a fat binary), sm_80, gfx90a and the CPU, into one program
# that picks its object at run time (on an NVIDIA GPU: sm_90); as ours-ptx, the same with PTX, which the
# driver compiles; and the same host with nvcc -O3's cubin of tests/gpu/kernels/kernels.cu, to compare
# kernel times. Also each kernel's own cubin, and nvcc's, for SASS instruction counts where cuobjdump is
# found, and the CPU object of each program (what the driver stand-ins run a kernel with).
"$nvcc" -cubin -arch=sm_90 -O3 "$root/tests/gpu/kernels/kernels.cu" -o "$out/kernels.nvcc.sm_90.cubin"
cp "$root/examples/kernels/main.c" "$out/kernels.main.c"
# The examples take memrefs as bare pointers, as nvcc's kernels of the same code do (examples/kernels/run.sh).
bare=--kernel-bare-ptr-calling-convention
for k in axpy:axpy_kernels stencil2d:stencil_kernels matmul:matmul_kernels reduce:reduce_kernels; do
  name="${k%%:*}" mod="${k##*:}"
  "$gt" --emit=mlir --compile-kernels $bare "$root/examples/kernels/$name.mlir" -o "$out/$name.ours.mlir"
  "$gt" "$out/$name.ours.mlir" -o "$out/$name.ours.o"
  "$root/tests/bin/gpu-object" cpu <"$out/$name.ours.mlir" >"$out/$name.ours.cpu.so"
  "$gt" --gpu-format=assembly $bare "$root/examples/kernels/$name.mlir" -o "$out/$name.ours-ptx.o"
  python3 - "$root/examples/kernels/$name.mlir" "$mod" "$out/$name.nvcc.mlir" <<'PY'
import sys
src, mod, nvcc = sys.argv[1:]
k = open(src).read()
start = k.index("  gpu.module @" + mod)
stop = k.index("\n  }\n", start) + len("\n  }\n")
binary = ('  gpu.binary @%s [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {mgpu.bare_pointers},'
          ' bin = "@file:nvcc">]\n' % mod)
open(nvcc, "w").write(k[:start] + binary + k[stop:])
PY
  "$gt" --embed nvcc="$out/kernels.nvcc.sm_90.cubin" "$out/$name.nvcc.mlir" -o "$out/$name.nvcc.o"
  "$gt" --emit=mlir --compile-kernels --gpu-format=binary $bare "$root/examples/kernels/$name.mlir" |
    "$root/tests/bin/gpu-object" sm_90 >"$out/$name.ours.sm_90.cubin"
done

# Kernels written in place (gpu.launch) that print with gpu.printf, read constant tables (memref.global),
# reduce over subgroups (gpu.subgroup_reduce) and over blocks (gpu.all_reduce) and view memory (memref.subview
# and reshapes), outlined and compiled for sm_90 and the CPU, with the C programs of tests/e2e/outline; and each program's
# CPU object (what the driver stand-ins run its kernel with).
for name in printf globals subgroup allreduce views; do
  "$gt" --targets=nvvm:sm_90,cpu --emit=mlir --compile-kernels "$root/tests/e2e/outline/$name.mlir" -o "$out/$name.mlir"
  "$gt" "$out/$name.mlir" -o "$out/$name.o"
  "$root/tests/bin/gpu-object" cpu <"$out/$name.mlir" >"$out/$name.cpu.so"
  cp "$root/tests/e2e/outline/${name}_main.c" "$out/$name.main.c"
done

# Upstream's way of writing programs (tests/mlir/upstream-style): each compiled for sm_90 (and the CPU, whose
# object the driver stand-ins run) into a host object whose C main runs @main (--entry-point=main), and its
# output on the CPU backend, which the GPU run must print too (memref addresses aside). Not the assertions:
# on a GPU a failed assertion ends the whole grid, so what the other threads did before is not fixed.
for f in "$root"/tests/mlir/upstream-style/*.mlir; do
  name="$(basename "$f" .mlir)"
  grep -q 'cf.assert' "$f" && continue
  "$gt" --targets=nvvm:sm_90,cpu --emit=mlir --compile-kernels "$f" -o "$out/us.$name.mlir"
  "$gt" --entry-point=main "$out/us.$name.mlir" -o "$out/us.$name.o"
  if grep -q 'gpu.binary' "$out/us.$name.mlir"; then
    "$root/tests/bin/gpu-object" cpu <"$out/us.$name.mlir" >"$out/us.$name.cpu.so"
  fi
  "$gt" --targets=cpu --emit=exe --entry-point=main "$f" -o "$out/us.$name.cpu"
  MGPU_BACKEND=cpu "$out/us.$name.cpu" 2>/dev/null | sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' >"$out/us.$name.expected" || true
  rm -f "$out/us.$name.cpu"
done

cp -r "$root/runtime-c" "$out/runtime-c"
rm -rf "$out/runtime-c/build"
echo "prepared $out"
