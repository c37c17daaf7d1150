/* The kernels of examples/kernels for the CPU kernel ABI (mgpu.h: one call per thread, threads of a block in
 * order), with the same arguments, for the CUDA driver stand-in of the tests, which runs a kernel that a
 * cubin or PTX names through the CPU build of the same kernel. matmul computes each element directly (a
 * block-wide barrier is not available here) and reduce adds its subgroup's 32 values in its first lane:
 * the same results as the GPU kernels. axpy is examples/axpy/axpy_cpu.c's. */
#include "mgpu.h"

void stencil2d(void **params, const mgpuCpuGrid *g) {
  const float *in = *(float **)params[0];
  float *out = *(float **)params[1];
  int64_t x = g->blockIdx[0] * g->blockDim[0] + g->threadIdx[0];
  int64_t y = g->blockIdx[1] * g->blockDim[1] + g->threadIdx[1];
  if (x >= 64 || y >= 64)
    return;
  float v = in[y * 64 + x];
  if (x > 0 && x < 63 && y > 0 && y < 63)
    v = ((in[(y - 1) * 64 + x] + in[(y + 1) * 64 + x]) + (in[y * 64 + x - 1] + in[y * 64 + x + 1])) * 0.25f;
  out[y * 64 + x] = v;
}

void matmul(void **params, const mgpuCpuGrid *g) {
  const float *A = *(float **)params[0];
  const float *B = *(float **)params[1];
  float *C = *(float **)params[2];
  int64_t row = g->blockIdx[1] * 16 + g->threadIdx[1];
  int64_t col = g->blockIdx[0] * 16 + g->threadIdx[0];
  float acc = 0.0f;
  for (int k = 0; k < 256; k++)
    acc += A[row * 256 + k] * B[k * 256 + col];
  C[row * 256 + col] = acc;
}

void reduce(void **params, const mgpuCpuGrid *g) {
  const float *x = *(float **)params[0];
  float *sum = *(float **)params[1];
  int n = *(int *)params[2];
  int64_t i = g->blockIdx[0] * g->blockDim[0] + g->threadIdx[0];
  if (g->threadIdx[0] % 32 != 0)
    return;
  float s = 0.0f;
  for (int64_t j = i; j < i + 32; j++)
    s += j < n ? x[j] : 0.0f;
  /* The threads of a block run in order on one worker, but blocks run in parallel: add atomically. */
  int bits = __atomic_load_n((int *)sum, __ATOMIC_RELAXED);
  float old;
  __builtin_memcpy(&old, &bits, 4);
  for (;;) {
    float next = old + s;
    int want, seen;
    __builtin_memcpy(&want, &old, 4);
    __builtin_memcpy(&seen, &next, 4);
    if (__atomic_compare_exchange_n((int *)sum, &want, seen, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      break;
    __builtin_memcpy(&old, &want, 4);
  }
}
