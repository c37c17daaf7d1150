/* Passes a stream of its own to on_stream (streams.mlir), which must leave it alive: the program goes on
 * using it and destroys it itself. Checks y = 1 + 2 * 0.5 * x. */
#include "mgpu.h"

#include <stdio.h>

void on_stream(void *stream, float a, void *x, void *y, int n);

enum { N = 1000 };

int main(void) {
  static float hx[N], hy[N];
  for (int i = 0; i < N; i++) {
    hx[i] = (float)i;
    hy[i] = 1.0f;
  }
  void *s = mgpuStreamCreate();
  void *x = mgpuMemAlloc(sizeof hx, s, false);
  void *y = mgpuMemAlloc(sizeof hy, s, false);
  mgpuMemcpy(x, hx, sizeof hx, s);
  mgpuMemcpy(y, hy, sizeof hy, s);
  on_stream(s, 0.5f, x, y, N);
  mgpuMemcpy(hy, y, sizeof hy, s);
  mgpuStreamSynchronize(s);
  mgpuMemFree(x, s);
  mgpuMemFree(y, s);
  mgpuStreamDestroy(s);
  for (int i = 0; i < N; i++)
    if (hy[i] != 1.0f + (float)i) {
      printf("streams: FAILED, y[%d] = %g, expected %g\n", i, hy[i], 1.0f + (float)i);
      return 1;
    }
  printf("streams: OK, %d elements checked, y[%d] = %g\n", N, N - 1, hy[N - 1]);
  return 0;
}
