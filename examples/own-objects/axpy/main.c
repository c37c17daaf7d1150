/* Calls the generated run_axpy and checks every element against the same computation on the host. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N 1024

/* A rank-1 memref argument expands to (allocated, aligned, offset, size, stride). */
void run_axpy(float a, float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *ya, float *y, int64_t yo,
              int64_t yn, int64_t ys);

int main(void) {
  static float x[N], y[N], expect[N];
  const float a = 2.5f;
  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 1.0f - (float)i / 4;
    expect[i] = a * x[i] + y[i];
  }
  run_axpy(a, x, x, 0, N, 1, y, y, 0, N, 1);
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (fabsf(y[i] - expect[i]) > 1e-4f * fabsf(expect[i]) + 1e-6f) {
      if (bad++ < 5)
        fprintf(stderr, "axpy: y[%d] = %g, expected %g\n", i, y[i], expect[i]);
    }
  if (bad) {
    printf("axpy: FAILED, %d of %d elements wrong\n", bad, N);
    return 1;
  }
  printf("axpy: OK, %d elements checked, y[1] = %g, y[%d] = %g\n", N, y[1], N - 1, y[N - 1]);
  return 0;
}
