/* Runs launch_bench.mlir's two launch loops on device memory, 20 synchronous and 20 asynchronous launches
 * of axpy, and checks every element of y = 1 + 20 * 0.5 * x + 20 * 0.25 * x (exact in float). */
#include "mgpu.h"

#include <stdio.h>

void bench_sync(float a, void *x, void *y, int n, int64_t iters);
void bench_async(float a, void *x, void *y, int n, int64_t iters);

enum { N = 1000 };

int main(void) {
  static float hx[N], hy[N];
  for (int i = 0; i < N; i++) {
    hx[i] = (float)i;
    hy[i] = 1.0f;
  }
  void *x = mgpuMemAlloc(sizeof hx, NULL, false);
  void *y = mgpuMemAlloc(sizeof hy, NULL, false);
  mgpuMemcpy(x, hx, sizeof hx, NULL);
  mgpuMemcpy(y, hy, sizeof hy, NULL);
  bench_sync(0.5f, x, y, N, 20);
  bench_async(0.25f, x, y, N, 20);
  mgpuMemcpy(hy, y, sizeof hy, NULL);
  mgpuStreamSynchronize(NULL);
  mgpuMemFree(x, NULL);
  mgpuMemFree(y, NULL);
  for (int i = 0; i < N; i++)
    if (hy[i] != 1.0f + 15.0f * (float)i) {
      printf("loops: FAILED, y[%d] = %g, expected %g\n", i, hy[i], 1.0f + 15.0f * (float)i);
      return 1;
    }
  printf("loops: OK, %d elements checked, y[%d] = %g\n", N, N - 1, hy[N - 1]);
  return 0;
}
