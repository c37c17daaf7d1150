/* Runs views (views.mlir) and checks each thread's row of out against what the views read of m. */
#include <stdint.h>
#include <stdio.h>
void views(float *ma, float *m, int64_t mo, int64_t m0, int64_t m1, int64_t ms0, int64_t ms1, float *oa, float *o,
           int64_t oo, int64_t o0, int64_t os0);
int main(void) {
  static float m[16][16], out[64];
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) m[i][j] = (float)(16 * i + j);
  views(&m[0][0], &m[0][0], 0, 16, 16, 16, 1, out, out, 0, 64, 1);
  int bad = 0;
  for (int t = 0; t < 16; t++) {
    float sum = (float)(128 * t + 64);
    float corner = m[t / 4 * 4 + 2][t % 4 * 4 + 3];
    float want[4] = {sum, corner, sum + corner, m[5][t] + (float)(t + 34) + 5.0f};
    for (int k = 0; k < 4; k++) bad += out[4 * t + k] != want[k];
  }
  printf("views: %s, %d wrong, out[63] = %g\n", bad ? "FAIL" : "OK", bad, out[63]);
  return bad != 0;
}
