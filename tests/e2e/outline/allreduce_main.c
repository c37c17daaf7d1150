/* Runs allreduce (allreduce.mlir) on blocks of 20 x 5, 1,024, 1 and 33 x 31 threads, and checks that every
 * thread got the reductions over the whole block, computed here one thread after another. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
void allreduce(float *fa, float *f, int64_t fo, int64_t f0, int64_t f1, int64_t fs0, int64_t fs1, int64_t *na,
               int64_t *n, int64_t no, int64_t n0, int64_t n1, int64_t ns0, int64_t ns1, int64_t sx, int64_t sy);
static float f[1024][3];
static int64_t n[1024][5];
static int check(int64_t sx, int64_t sy) {
  memset(f, 0, sizeof f);
  memset(n, 0, sizeof n);
  allreduce(&f[0][0], &f[0][0], 0, 1024, 3, 3, 1, &n[0][0], &n[0][0], 0, 1024, 5, 5, 1, sx, sy);
  int64_t count = sx * sy;
  float sum = 0, low = 1e30f;
  int64_t top = INT64_MIN, body = 0, acc = 1;
  uint16_t hx = 0;
  int all = 1, any = 0;
  for (int64_t t = 0; t < count; t++) {
    float x = (float)t * 0.5f + 1.0f;
    sum += x;
    low = x < low ? x : low;
    int64_t i = t * 7 - 300;
    top = i > top ? i : top;
    hx ^= (uint16_t)(t * 7);
    all &= t % 5 != 0;
    any |= t % 5 != 0;
    body += t * 8589934592LL + t;
  }
  for (int it = 0; it < 3; it++) {
    int64_t s = 0;
    for (int64_t t = 0; t < count; t++) s += acc + t;
    acc += s;
  }
  int bad = 0;
  for (int64_t t = 0; t < count; t++) {
    bad += f[t][0] != sum || f[t][1] != low || f[t][2] != (float)acc;
    bad += n[t][0] != top || n[t][1] != hx || n[t][2] != all + 2 * any || n[t][3] != body || n[t][4] != acc;
  }
  printf("%lld x %lld: %s, %d wrong, sum %.1f, top %lld, xor %u, flags %d, body %lld, loop %lld\n", (long long)sx,
         (long long)sy, bad ? "FAIL" : "OK", bad, sum, (long long)top, hx, all + 2 * any, (long long)body,
         (long long)acc);
  return bad;
}
int main(void) {
  int bad = check(20, 5) + check(1024, 1) + check(1, 1) + check(33, 31);
  printf("allreduce: %s\n", bad ? "FAIL" : "OK");
  return bad != 0;
}
