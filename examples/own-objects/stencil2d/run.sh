#!/usr/bin/env bash
# Builds and runs the 2-D stencil example on the CPU backend (or MGPU_BACKEND=...), checking every cell.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${OUT_DIR:-$root/examples/build/stencil2d}"
mkdir -p "$out"
cc -shared -fPIC -O2 -I"$root/runtime-c/include" "$here/stencil_cpu.c" -o "$out/stencil_cpu.so"
"$root/tools/gpu-translate" "$@" --embed stencil="$out/stencil_cpu.so" "$here/stencil.mlir" -o "$out/host.o"
cc "$here/main.c" "$out/host.o" -L"$root/runtime-c/build" -Wl,-rpath,"$root/runtime-c/build" -lmgpu -lm \
  -o "$out/stencil2d"
MGPU_BACKEND="${MGPU_BACKEND:-cpu}" "$out/stencil2d"
