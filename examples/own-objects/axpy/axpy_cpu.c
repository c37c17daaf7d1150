/* axpy for the CPU backend: y[i] = a * x[i] + y[i], one call per thread (see mgpu.h). Its parameters' sizes
 * let a launch on a stream return at once and run on a copy of its arguments. */
#include "mgpu.h"

void axpy(void **params, const mgpuCpuGrid *g) {
  float a = *(float *)params[0];
  const float *x = *(float **)params[1];
  float *y = *(float **)params[2];
  int n = *(int *)params[3];
  int64_t i = g->blockIdx[0] * g->blockDim[0] + g->threadIdx[0];
  if (i < n)
    y[i] = a * x[i] + y[i];
}
MGPU_CPU_PARAMS(axpy, sizeof(float), sizeof(float *), sizeof(float *), sizeof(int));
