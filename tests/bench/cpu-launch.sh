#!/usr/bin/env bash
# Launch overhead of the CPU backend (tests/bench/cpu-launch.c) against the libmgpu in LIBDIR (default: this
# tree's runtime-c/build): many small launches and one synchronisation, on the NULL stream and on a stream.
# usage: tests/bench/cpu-launch.sh [LIBDIR [ITERS [REPEATS]]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lib="$(cd "${1:-$root/runtime-c/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -DKERNEL -I"$root/runtime-c/include" "$root/tests/bench/cpu-launch.c" -o "$work/bump.so"
cc -O2 -I"$root/runtime-c/include" "$root/tests/bench/cpu-launch.c" -L"$lib" -Wl,-rpath,"$lib" -lmgpu -o "$work/cpu-launch"
MGPU_BACKEND=cpu "$work/cpu-launch" "$work/bump.so" "${2:-100000}" "${3:-5}"
