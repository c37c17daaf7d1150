/* Runs two stencil steps through the generated host code and checks them against a host computation. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define R 96
#define C 80

void run_stencil(float *alloc, float *aligned, int64_t off, int64_t r, int64_t c, int64_t sr, int64_t sc);

static void step(const float *in, float *out) {
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++)
      out[r * C + c] = (r == 0 || c == 0 || r == R - 1 || c == C - 1)
                           ? in[r * C + c]
                           : 0.25f * (in[(r - 1) * C + c] + in[(r + 1) * C + c] + in[r * C + c - 1] +
                                      in[r * C + c + 1]);
}

int main(void) {
  static float grid[R * C], a[R * C], b[R * C];
  for (int i = 0; i < R * C; i++)
    grid[i] = (float)((i * 37) % 101) / 10.0f;
  memcpy(a, grid, sizeof a);
  step(a, b);
  step(b, a);
  run_stencil(grid, grid, 0, R, C, C, 1);
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < R * C; i++) {
    sum += grid[i];
    if (fabsf(grid[i] - a[i]) > 1e-5f) {
      if (bad++ < 5)
        fprintf(stderr, "stencil: [%d][%d] = %g, expected %g\n", i / C, i % C, grid[i], a[i]);
    }
  }
  if (bad) {
    printf("stencil2d: FAILED, %d of %d cells wrong\n", bad, R * C);
    return 1;
  }
  printf("stencil2d: OK, %d cells checked, sum = %.3f\n", R * C, sum);
  return 0;
}
