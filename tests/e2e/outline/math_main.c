/* Runs mathk (math.mlir) on inputs that include zeros, NaN, infinities, a subnormal and the largest
 * float, and checks every result against the C library and the C definitions of the integer functions. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
void mathk(float *ia, float *i, int64_t io, int64_t in, int64_t is, float *fa, float *f, int64_t fo, int64_t f0,
           int64_t f1, int64_t fs0, int64_t fs1, int32_t *na, int32_t *n, int64_t no, int64_t n0, int64_t n1,
           int64_t ns0, int64_t ns1);
static int same(float a, float b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0; }
int main(void) {
  static float in[64], f[64][16];
  static int32_t n[64][8];
  const float special[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, FLT_MIN / 4, FLT_MAX, -1.0f, 1.0f, 0.5f, 2.5f, -2.5f};
  for (int t = 0; t < 64; t++) in[t] = t < 12 ? special[t] : (t - 38) / 7.0f;
  mathk(in, in, 0, 64, 1, &f[0][0], &f[0][0], 0, 64, 16, 16, 1, &n[0][0], &n[0][0], 0, 64, 8, 8, 1);
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    float x = in[t];
    float want[16] = {tanf(x), asinf(x), acosf(x), atanf(x), sinhf(x), coshf(x), asinhf(x), acoshf(x), atanhf(x),
                      log10f(x), log1pf(x), expm1f(x), cbrtf(x), erfcf(x), nearbyintf(x), atan2f(x, 0.5f)};
    for (int k = 0; k < 16; k++) {
      if (!same(f[t][k], want[k])) {
        if (bad++ < 8) printf("f[%d][%d] = %a for %a, want %a\n", t, k, f[t][k], x, want[k]);
      }
    }
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    int32_t s = (int32_t)b;
    int32_t iwant[8] = {s < 0 ? (int32_t)(0u - b) : s, b ? __builtin_clz(b) : 32, b ? __builtin_ctz(b) : 32,
                        __builtin_popcount(b), isnan(x) != 0, isinf(x) != 0, isfinite(x) != 0, isnormal(x) != 0};
    for (int k = 0; k < 8; k++) {
      if (n[t][k] != iwant[k]) {
        if (bad++ < 8) printf("n[%d][%d] = %d for %a, want %d\n", t, k, n[t][k], x, iwant[k]);
      }
    }
  }
  printf("math: %s, %d wrong, f[63][12] = %g\n", bad ? "FAILED" : "OK", bad, f[63][12]);
  return bad != 0;
}
