/* Runs reduce (subgroup.mlir) and checks each reduction against a butterfly over the subgroup of 32 lanes,
 * as a GPU's shuffles compute it: for offset = stride, 2 stride, ... below size * stride, every lane
 * combines its value with that of lane ^ offset. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
void reduce(float *fa, float *f, int64_t fo, int64_t f0, int64_t f1, int64_t fs0, int64_t fs1, int32_t *na, int32_t *n,
            int64_t no, int64_t n0, int64_t n1, int64_t ns0, int64_t ns1);
enum { ADD, MAX, MUL, MIN, XOR };
static double op(int k, double a, double b) {
  return k == ADD ? a + b : k == MUL ? a * b : k == MAX ? fmax(a, b) : k == MIN ? fmin(a, b) : 0;
}
/* v: 64 values of one kind; reduces within each subgroup of 32, clusters of size x stride. */
static void butterfly_f(float *v, int k, int size, int stride) {
  for (int off = stride; off < size * stride; off *= 2) {
    float next[64];
    for (int l = 0; l < 64; l++) next[l] = (float)op(k, v[l], v[l ^ off]);
    memcpy(v, next, sizeof next);
  }
}
static void butterfly_d(double *v, int k, int size, int stride) {
  for (int off = stride; off < size * stride; off *= 2) {
    double next[64];
    for (int l = 0; l < 64; l++) next[l] = op(k, v[l], v[l ^ off]);
    memcpy(v, next, sizeof next);
  }
}
static void butterfly_i(int64_t *v, int k, int size, int stride) {
  for (int off = stride; off < size * stride; off *= 2) {
    int64_t next[64];
    for (int l = 0; l < 64; l++) {
      int64_t a = v[l], b = v[l ^ off];
      next[l] = k == ADD ? (int64_t)((uint64_t)a + (uint64_t)b) : k == MIN ? (a < b ? a : b) : a ^ b;
    }
    memcpy(v, next, sizeof next);
  }
}
int main(void) {
  static float f[64][4];
  static int32_t n[64][3];
  reduce(&f[0][0], &f[0][0], 0, 64, 4, 4, 1, &n[0][0], &n[0][0], 0, 64, 3, 3, 1);
  float x[64], s0[64], s1[64], s2[64];
  double d[64];
  int64_t i0[64], i1[64], i2[64];
  for (int t = 0; t < 64; t++) {
    x[t] = (float)t * 0.37f + 1.0f;
    s0[t] = s1[t] = s2[t] = x[t];
    d[t] = x[t];
    i0[t] = i1[t] = t * 7 - 100;
    i2[t] = (int64_t)(t * 7 - 100) * 4294967296LL;
  }
  butterfly_f(s0, ADD, 32, 1);
  butterfly_f(s1, MAX, 4, 1);
  butterfly_f(s2, ADD, 8, 2);
  butterfly_d(d, MUL, 2, 1);
  butterfly_i(i0, MIN, 32, 1);
  butterfly_i(i1, XOR, 16, 1);
  butterfly_i(i2, ADD, 32, 1);
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    float want[4] = {s0[t], s1[t], s2[t], (float)d[t]};
    int32_t iwant[3] = {(int32_t)i0[t], (int32_t)i1[t], (int32_t)(i2[t] >> 32)};
    for (int k = 0; k < 4; k++)
      if (memcmp(&f[t][k], &want[k], sizeof(float)) != 0 && bad++ < 8) printf("f[%d][%d] = %a, want %a\n", t, k, f[t][k], want[k]);
    for (int k = 0; k < 3; k++)
      if (n[t][k] != iwant[k] && bad++ < 8) printf("n[%d][%d] = %d, want %d\n", t, k, n[t][k], iwant[k]);
  }
  printf("subgroup: %s, %d wrong, f[63][0] = %g, n[63][0] = %d\n", bad ? "FAILED" : "OK", bad, f[63][0], n[63][0]);
  return bad != 0;
}
