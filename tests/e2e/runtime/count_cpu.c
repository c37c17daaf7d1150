/* The kernel of runtime_main.c for the CPU backend (and, through their host runs, the stand-in drivers):
 * counts the threads that ran, into *(int64_t *)params[0]. Blocks run in parallel, hence the atomic add. */
#include "mgpu.h"

void count(void **params, const mgpuCpuGrid *grid) {
  (void)grid;
  __atomic_fetch_add(*(int64_t **)params[0], 1, __ATOMIC_RELAXED);
}
