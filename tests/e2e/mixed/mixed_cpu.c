/* Writes each scalar argument back, to catch any packing error in the argument array. */
#include "mgpu.h"

void mixed(void **params, const mgpuCpuGrid *g) {
  (void)g;
  int8_t a = *(int8_t *)params[0];
  int16_t b = *(int16_t *)params[1];
  int32_t c = *(int32_t *)params[2];
  int64_t d = *(int64_t *)params[3];
  float e = *(float *)params[4];
  double f = *(double *)params[5];
  double *out = *(double **)params[6];
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = (double)d;
  out[4] = e;
  out[5] = f;
  out[6] = (double)(a + b + c) + (double)d + e + f;
  out[7] = 42;
}
