#!/usr/bin/env bash
# Throughput of the tiled matmul (16x16 tiles staged in workgroup memory between two barriers, as
# examples/kernels/matmul.mlir, at 1024x1024) compiled by mgpu for #cpu.target, against the same algorithm
# in C built by gcc -O3 -fopenmp: once for each compiler's baseline CPU, once for this machine's CPU
# (#cpu.target<chip = "native"> against -march=native). Best of 5 runs each, alternating, on the CPU backend.
# usage: tests/bench/cpu-matmul.sh   (after mvn package; needs gcc with OpenMP; MGPU_BENCH_FLAGS: more options for
#   gpu-translate, such as --kernel-bare-ptr-calling-convention)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
kernel() { # $1: the #cpu.target parameters
  cat <<EOF
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target$1] {
    gpu.func @matmul(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>)
        workgroup(%As: memref<16x16xf32, #gpu.address_space<workgroup>>, %Bs: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %n = arith.constant 1024 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %sum = scf.for %t = %c0 to %n step %c16 iter_args(%acc = %zero) -> (f32) {
        %ak = arith.addi %t, %tx : index
        %a = memref.load %A[%row, %ak] : memref<1024x1024xf32>
        memref.store %a, %As[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %bk = arith.addi %t, %ty : index
        %b = memref.load %B[%bk, %col] : memref<1024x1024xf32>
        memref.store %b, %Bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %acc) -> (f32) {
          %x = memref.load %As[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %Bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %next = math.fma %x, %y, %p : f32
          scf.yield %next : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %C[%row, %col] : memref<1024x1024xf32>
      gpu.return
    }
  }
  func.func @run(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@matmul blocks in (%c64, %c64, %c1) threads in (%c16, %c16, %c1)
        args(%A : memref<1024x1024xf32>, %B : memref<1024x1024xf32>, %C : memref<1024x1024xf32>)
    return
  }
}
EOF
}
cat >"$work/bench.c" <<'EOF'
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 1024
#define T 16
void run(float *aa, float *a, int64_t ao, int64_t a0, int64_t a1, int64_t as0, int64_t as1, float *ba, float *b,
         int64_t bo, int64_t b0, int64_t b1, int64_t bs0, int64_t bs1, float *ca, float *c, int64_t co, int64_t c0,
         int64_t c1, int64_t cs0, int64_t cs1);
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
/* The same algorithm: a 16x16 tile of C per iteration, tiles of A and B staged in local arrays. */
static void omp_matmul(const float *A, const float *B, float *C) {
#pragma omp parallel for collapse(2)
  for (int by = 0; by < N / T; by++)
    for (int bx = 0; bx < N / T; bx++) {
      float As[T][T], Bs[T][T], acc[T][T] = {{0}};
      for (int t = 0; t < N; t += T) {
        for (int ty = 0; ty < T; ty++)
          for (int tx = 0; tx < T; tx++) {
            As[ty][tx] = A[(by * T + ty) * N + t + tx];
            Bs[ty][tx] = B[(t + ty) * N + bx * T + tx];
          }
        for (int ty = 0; ty < T; ty++)
          for (int tx = 0; tx < T; tx++)
            for (int k = 0; k < T; k++)
              acc[ty][tx] = fmaf(As[ty][k], Bs[k][tx], acc[ty][tx]);
      }
      for (int ty = 0; ty < T; ty++)
        for (int tx = 0; tx < T; tx++)
          C[(by * T + ty) * N + bx * T + tx] = acc[ty][tx];
    }
}
int main(int argc, char **argv) {
  (void)argc;
  float *A = aligned_alloc(64, N * N * 4), *B = aligned_alloc(64, N * N * 4);
  float *C = aligned_alloc(64, N * N * 4), *D = aligned_alloc(64, N * N * 4);
  for (long i = 0; i < N * N; i++) {
    A[i] = (float)(i % 13) / 4;
    B[i] = (float)(i % 7) / 2 - 1;
  }
  run(A, A, 0, N, N, N, 1, B, B, 0, N, N, N, 1, C, C, 0, N, N, N, 1);
  omp_matmul(A, B, D);
  int bad = 0;
  for (long i = 0; i < N * N; i++)
    bad += fabsf(C[i] - D[i]) > 1e-3f * fabsf(D[i]) + 1e-3f;
  double bm = 1e9, bo = 1e9;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    run(A, A, 0, N, N, N, 1, B, B, 0, N, N, N, 1, C, C, 0, N, N, N, 1);
    double t1 = now();
    omp_matmul(A, B, D);
    double t2 = now();
    bm = t1 - t0 < bm ? t1 - t0 : bm;
    bo = t2 - t1 < bo ? t2 - t1 : bo;
  }
  double flops = 2.0 * N * N * N;
  printf("matmul 1024x1024, %s: %d wrong; mgpu #cpu.target %.2f ms (%.1f GFLOP/s); gcc -O3 -fopenmp %.2f ms"
         " (%.1f GFLOP/s); mgpu / gcc throughput %.2f\n", argv[1], bad, bm * 1e3, flops / bm / 1e9, bo * 1e3,
         flops / bo / 1e9, bo / bm);
  return bad != 0;
}
EOF
status=0
for cfg in "baseline CPU::<O = 3>" "this machine's CPU:-march=native:<O = 3, chip = \"native\">"; do
  label="${cfg%%:*}" rest="${cfg#*:}"
  march="${rest%%:*}" params="${rest#*:}"
  kernel "$params" >"$work/matmul.mlir"
  "$root/tools/gpu-translate" ${MGPU_BENCH_FLAGS:-} "$work/matmul.mlir" -o "$work/matmul.o"
  gcc -O3 $march -fopenmp "$work/bench.c" "$work/matmul.o" -L"$root/runtime-c/build" \
    -Wl,-rpath,"$root/runtime-c/build" -lmgpu -lm -o "$work/bench"
  MGPU_BACKEND=cpu "$work/bench" "$label" || status=1
done
exit $status
