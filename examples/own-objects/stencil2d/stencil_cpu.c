/* 5-point stencil for the CPU backend: out = average of the 4 neighbours inside, copy on the border. */
#include "mgpu.h"

void stencil(void **params, const mgpuCpuGrid *g) {
  const float *in = *(float **)params[0];
  float *out = *(float **)params[1];
  int rows = *(int *)params[2];
  int cols = *(int *)params[3];
  int64_t r = g->blockIdx[1] * g->blockDim[1] + g->threadIdx[1];
  int64_t c = g->blockIdx[0] * g->blockDim[0] + g->threadIdx[0];
  if (r >= rows || c >= cols)
    return;
  if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1)
    out[r * cols + c] = in[r * cols + c];
  else
    out[r * cols + c] =
        0.25f * (in[(r - 1) * cols + c] + in[(r + 1) * cols + c] + in[r * cols + c - 1] + in[r * cols + c + 1]);
}
