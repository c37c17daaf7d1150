#!/usr/bin/env bash
# Builds and runs the one-source examples (default: all four) on the CPU backend (or MGPU_BACKEND=...), each
# checking every number. One gpu-translate run per example compiles its kernel for NVIDIA (sm_90, sm_80),
# AMD (gfx90a) and the CPU and translates its host function; the program picks its object at run time.
# Usage: examples/kernels/run.sh [axpy|stencil2d|matmul|reduce ...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${OUT_DIR:-$root/examples/build/kernels}"
mkdir -p "$out"
[ $# -gt 0 ] || set -- axpy stencil2d matmul reduce
for name in "$@"; do
  case "$name" in
    axpy) def=AXPY ;;
    stencil2d) def=STENCIL ;;
    matmul) def=MATMUL ;;
    reduce) def=REDUCE ;;
    *) echo "run.sh: unknown example '$name' (must be axpy, stencil2d, matmul or reduce)" >&2; exit 2 ;;
  esac
  # Bare pointers: each memref reaches the kernel as the address of its element 0, one launch argument where
  # upstream's default passes five (its descriptor's fields), and the kernels are the code nvcc makes of the same
  # CUDA C. The host functions take and pass descriptors either way.
  "$root/tools/gpu-translate" --kernel-bare-ptr-calling-convention "$here/$name.mlir" -o "$out/$name.o"
  cc -O2 "-DKERNEL_$def" "$here/main.c" "$out/$name.o" -L"$root/runtime-c/build" -Wl,-rpath,"$root/runtime-c/build" \
    -lmgpu -lm -o "$out/$name"
  MGPU_BACKEND="${MGPU_BACKEND:-cpu}" KERNEL_REPS="${KERNEL_REPS:-20}" "$out/$name"
done
