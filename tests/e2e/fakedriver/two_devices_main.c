/* Runs the generated run_axpy on device 0, then on device 1 (mgpuSetDefaultDevice), and checks every
 * element each time. */
#include "mgpu.h"

#include <stdio.h>

#define N 1024

void run_axpy(float a, float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *ya, float *y, int64_t yo,
              int64_t yn, int64_t ys);

int main(void) {
  static float x[N], y[N];
  for (int device = 0; device < 2; device++) {
    mgpuSetDefaultDevice(device);
    for (int i = 0; i < N; i++) {
      x[i] = (float)i;
      y[i] = (float)device;
    }
    run_axpy(2.0f, x, x, 0, N, 1, y, y, 0, N, 1);
    for (int i = 0; i < N; i++)
      if (y[i] != 2.0f * (float)i + (float)device) {
        printf("device %d: FAILED, y[%d] = %g\n", device, i, y[i]);
        return 1;
      }
    printf("device %d: OK\n", device);
  }
  return 0;
}
