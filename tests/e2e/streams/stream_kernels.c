/* CPU kernels (mgpu.h's kernel ABI) for streams_main.c. All but add_unsized say their parameters' sizes, so a
 * launch of them on a stream returns at once and runs on a copy of its arguments. */
#define _POSIX_C_SOURCE 200809L
#include "mgpu.h"

#include <sched.h>
#include <stdatomic.h>

/* Waits until *flag is set (by a kernel on another stream, or by the host), then sets *done. */
void wait_flag(void **params, const mgpuCpuGrid *grid) {
  _Atomic int *flag = *(_Atomic int **)params[0];
  _Atomic int *done = *(_Atomic int **)params[1];
  while (!atomic_load_explicit(flag, memory_order_acquire))
    sched_yield();
  if (grid->blockIdx[0] == 0 && grid->threadIdx[0] == 0)
    atomic_store_explicit(done, 1, memory_order_release);
}
MGPU_CPU_PARAMS(wait_flag, sizeof(void *), sizeof(void *));

void set_flag(void **params, const mgpuCpuGrid *grid) {
  (void)grid;
  atomic_store_explicit(*(_Atomic int **)params[0], 1, memory_order_release);
}
MGPU_CPU_PARAMS(set_flag, sizeof(void *));

/* *to = *from, once. */
void copy_flag(void **params, const mgpuCpuGrid *grid) {
  if (grid->blockIdx[0] == 0 && grid->threadIdx[0] == 0)
    atomic_store_explicit(*(_Atomic int **)params[0],
                          atomic_load_explicit(*(_Atomic int **)params[1], memory_order_acquire), memory_order_release);
}
MGPU_CPU_PARAMS(copy_flag, sizeof(void *), sizeof(void *));

/* data[i] += amount, one thread per element. */
void add(void **params, const mgpuCpuGrid *grid) {
  int32_t *data = *(int32_t **)params[0];
  data[grid->blockIdx[0] * grid->blockDim[0] + grid->threadIdx[0]] += *(int32_t *)params[1];
}
MGPU_CPU_PARAMS(add, sizeof(int32_t *), sizeof(int32_t));

/* The same kernel, whose object does not say its parameters' sizes. */
void add_unsized(void **params, const mgpuCpuGrid *grid) { add(params, grid); }
