// Writes each scalar argument back, to catch any packing error in the argument array.
#include <stdint.h>
extern "C" __global__ void mixed(int8_t a, int16_t b, int32_t c, int64_t d, float e, double f, double *out) {
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = (double)d;
  out[4] = e;
  out[5] = f;
  out[6] = (double)(a + b + c) + (double)d + e + f;
  out[7] = 42;
}
