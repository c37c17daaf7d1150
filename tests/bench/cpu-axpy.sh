#!/usr/bin/env bash
# Throughput of a kernel that mgpu compiles for #cpu.target, against the same loop built by gcc -O3 -fopenmp:
# axpy over 16M floats (12 bytes moved per element), best of 5 runs each, alternating, on the CPU backend.
# The kernel is called once per thread (the CPU kernel ABI of mgpu.h), so its per-element cost includes a call.
# usage: tests/bench/cpu-axpy.sh   (after mvn package; needs gcc with OpenMP; MGPU_BENCH_FLAGS: more options for
#   gpu-translate, such as --kernel-bare-ptr-calling-convention)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/axpy.mlir" <<'EOF'
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target<O = 3>] {
    gpu.func @axpy(%a: f32, %x: memref<16777216xf32>, %y: memref<16777216xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %xv = memref.load %x[%i] : memref<16777216xf32>
      %yv = memref.load %y[%i] : memref<16777216xf32>
      %ax = arith.mulf %a, %xv : f32
      %r = arith.addf %ax, %yv : f32
      memref.store %r, %y[%i] : memref<16777216xf32>
      gpu.return
    }
  }
  func.func @run(%a: f32, %x: memref<16777216xf32>, %y: memref<16777216xf32>) {
    %c1 = arith.constant 1 : index
    %blocks = arith.constant 65536 : index
    %threads = arith.constant 256 : index
    gpu.launch_func @k::@axpy blocks in (%blocks, %c1, %c1) threads in (%threads, %c1, %c1)
        args(%a : f32, %x : memref<16777216xf32>, %y : memref<16777216xf32>)
    return
  }
}
EOF
cat >"$work/bench.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 16777216
void run(float a, float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *ya, float *y, int64_t yo,
         int64_t yn, int64_t ys);
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static void omp_axpy(float a, const float *x, float *y) {
#pragma omp parallel for
  for (long i = 0; i < N; i++)
    y[i] = a * x[i] + y[i];
}
int main(void) {
  float *x = aligned_alloc(64, N * 4), *y = aligned_alloc(64, N * 4);
  for (long i = 0; i < N; i++) {
    x[i] = (float)(i % 7);
    y[i] = 1;
  }
  run(2.0f, x, x, 0, N, 1, y, y, 0, N, 1);
  omp_axpy(2.0f, x, y);
  int bad = 0;
  for (long i = 0; i < N; i++)
    bad += y[i] != 1 + 4.0f * (float)(i % 7);
  double bm = 1e9, bo = 1e9;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    run(2.0f, x, x, 0, N, 1, y, y, 0, N, 1);
    double t1 = now();
    omp_axpy(2.0f, x, y);
    double t2 = now();
    bm = t1 - t0 < bm ? t1 - t0 : bm;
    bo = t2 - t1 < bo ? t2 - t1 : bo;
  }
  printf("axpy, 16M floats: %d wrong; mgpu #cpu.target %.2f ms (%.2f GB/s); gcc -O3 -fopenmp %.2f ms (%.2f GB/s);"
         " mgpu / gcc throughput %.2f\n", bad, bm * 1e3, 12.0 * N / bm / 1e9, bo * 1e3, 12.0 * N / bo / 1e9, bo / bm);
  return bad != 0;
}
EOF
"$root/tools/gpu-translate" ${MGPU_BENCH_FLAGS:-} "$work/axpy.mlir" -o "$work/axpy.o"
gcc -O3 -fopenmp "$work/bench.c" "$work/axpy.o" -L"$root/runtime-c/build" -Wl,-rpath,"$root/runtime-c/build" -lmgpu \
  -o "$work/bench"
MGPU_BACKEND=cpu "$work/bench"
