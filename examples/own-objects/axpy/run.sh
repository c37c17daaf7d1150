#!/usr/bin/env bash
# Builds and runs the axpy example on the CPU backend (or MGPU_BACKEND=...), checking every element.
# Usage: examples/own-objects/axpy/run.sh [--module-load=lazy|ctor|per-launch]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${OUT_DIR:-$root/examples/build/axpy}"
mkdir -p "$out"
cc -shared -fPIC -O2 -I"$root/runtime-c/include" "$here/axpy_cpu.c" -o "$out/axpy_cpu.so"
"$root/tools/gpu-translate" "$@" --embed axpy="$out/axpy_cpu.so" "$here/axpy.mlir" -o "$out/axpy_host.o"
cc "$here/main.c" "$out/axpy_host.o" -L"$root/runtime-c/build" -Wl,-rpath,"$root/runtime-c/build" -lmgpu -lm \
  -o "$out/axpy"
MGPU_BACKEND="${MGPU_BACKEND:-cpu}" "$out/axpy"
