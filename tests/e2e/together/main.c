/* Checks the kernels of together.mlir against the GPU's definitions, computed here. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define M1(T) T *, T *, int64_t, int64_t, int64_t
void run_shuffles(M1(float), M1(int32_t), M1(int64_t));
void run_blockwise(M1(float), M1(float), M1(float), M1(float), M1(float), _Bool);
void run_escapes(M1(float), M1(float));
void run_launch(M1(float));
void run_halving(M1(float), M1(float), M1(int32_t));
void run_viafunction(M1(float));
void run_carried(M1(float));
#define A1(p, n) p, p, 0, n, 1

static int bad;
static void expect(const char *what, int t, double got, double want) {
  if (got != want && bad++ < 10)
    printf("%s[%d]: got %.17g, want %.17g\n", what, t, got, want);
}

/* A shuffle as PTX's shfl.sync defines it for lanes of a 32-lane subgroup: source lane, and whether it is
 * valid; the result is the source's value when valid, else the thread's own. */
static int source(int lane, int mode, int b, int width, int *valid) {
  int first = lane & -width, last = first | (width - 1), src;
  switch (mode) {
  case 0: src = lane ^ b; *valid = src <= last; break;
  case 1: src = lane - b; *valid = src >= first; break;
  case 2: src = lane + b; *valid = src <= last; break;
  default: src = first | (b & (width - 1)); *valid = 1; break;
  }
  return *valid ? src : lane;
}

int main(void) {
  static float out[256], in[8192], rev[8192], steps[8192], mine[8192], sums[64];
  static int32_t ok[256];
  static int64_t wide[64];
  run_shuffles(A1(out, 256), A1(ok, 256), A1(wide, 64));
  const int modes[4][2] = {{5, 32}, {3, 16}, {6, 8}, {9, 16}};
  for (int t = 0; t < 48; t++) {
    for (int m = 0; m < 4; m++) {
      int valid, src = (t & -32) + source(t & 31, m, modes[m][0], modes[m][1], &valid);
      expect("ok", 4 * t + m, ok[4 * t + m], valid);
      if (src < 48) /* a lane past the block's last thread has no value on a GPU */
        expect("out", 4 * t + m, out[4 * t + m], src + 0.5);
    }
    int valid, src = (t & -32) + source(t & 31, 0, 1, 32, &valid);
    expect("wide", t, (double)wide[t], (double)(3 * (int64_t)src + ((int64_t)1 << 40)));
  }
  for (int flag = 1; flag >= 0; flag--) {
    for (int i = 0; i < 8192; i++)
      in[i] = (float)(i % 17);
    memset(sums, 0, sizeof sums);
    run_blockwise(A1(in, 8192), A1(rev, 8192), A1(steps, 8192), A1(mine, 8192), A1(sums, 64), flag);
    for (int b = 0; b < 64; b++) {
      float total = 0;
      for (int t = 0; t < 128; t++)
        total += in[128 * b + t];
      expect("sums", b, sums[b], total);
      for (int t = 0; t < 128; t++) {
        int i = 128 * b + t;
        expect("rev", i, rev[i], in[128 * b + 127 - t]);
        expect("steps", i, steps[i], in[128 * b + 127 - t] + 7);
        expect("mine", i, mine[i], in[i] + (flag ? total : 0));
      }
    }
  }
  static float escapes[1024], warps[128];
  run_escapes(A1(escapes, 1024), A1(warps, 128));
  for (int t = 0; t < 1024; t++)
    expect("escapes", t, escapes[t], 6.0 * t);
  for (int i = 0; i < 128; i++) {
    int t = i % 64, lane = t % 32;
    expect("warps", i, warps[i], t >= 32 ? t + (32 + (lane ^ 16)) : lane < 31 ? t + 1 : t);
  }
  static float x[256];
  for (int i = 0; i < 256; i++)
    x[i] = (float)i;
  run_launch(A1(x, 256));
  for (int i = 0; i < 256; i++)
    expect("launch", i, x[i], (i / 64 * 64 + 63 - i % 64) + i);
  static float hin[256], hsums[2];
  static int32_t levels[256];
  for (int i = 0; i < 256; i++)
    hin[i] = (float)(i % 9);
  run_halving(A1(hin, 256), A1(hsums, 2), A1(levels, 256));
  for (int b = 0; b < 2; b++) {
    float total = 0;
    for (int t = 0; t < 128; t++)
      total += hin[128 * b + t];
    expect("halving", b, hsums[b], total);
  }
  for (int i = 0; i < 256; i++)
    expect("levels", i, levels[i], 7);
  static float vf[128], vf0[128];
  for (int i = 0; i < 128; i++)
    vf[i] = vf0[i] = (float)(i * 3 % 11);
  run_viafunction(A1(vf, 128));
  for (int i = 0; i < 128; i++) {
    int b = i / 64, t = i % 64;
    float once = vf0[64 * b + 63 - t] + vf0[i];
    float mirrored = vf0[i] + vf0[64 * b + 63 - t]; /* the value thread 63 - t had after the first call */
    expect("viafunction", i, vf[i], mirrored + once);
  }
  static float carried[192];
  run_carried(A1(carried, 192));
  for (int t = 0; t < 64; t++) {
    expect("carried a", t, carried[3 * t], 16.0 * t);
    expect("carried b", t, carried[3 * t + 1], t + 4);
    expect("carried c", t, carried[3 * t + 2], 4 + 30.0 * (63 - t));
  }
  printf("together: %s, %d wrong\n", bad ? "FAILED" : "OK", bad);
  return bad != 0;
}
