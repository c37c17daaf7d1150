/* Runs tables (globals.mlir) and checks what the kernel computed from the constant tables. */
#include <stdint.h>
#include <stdio.h>
void tables(float *oa, float *o, int64_t oo, int64_t on, int64_t os);
int main(void) {
  static float out[64];
  const float coeffs[4] = {0.5f, 1.0f, -2.0f, 3.25f}, bias[4] = {100, 200, 300, 400};
  const int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
  tables(out, out, 0, 64, 1);
  int bad = 0;
  for (int t = 0; t < 64; t++) bad += out[t] != coeffs[t % 4] * (float)grid[t % 2][t % 3] + bias[t % 4];
  printf("globals: %s, %d wrong, out[63] = %g\n", bad ? "FAILED" : "OK", bad, out[63]);
  return bad != 0;
}
