/* Runs one of the examples of examples/kernels through its host function (axpy, stencil, matmul or
 * reduce, chosen with -DKERNEL_AXPY, ...), checks every number against the same computation on the host,
 * then times the kernel: (time of R launches - time of 1 launch) / (R - 1), each run with its copies, best of
 * T trials (R = $KERNEL_REPS, default 200; T = $KERNEL_TRIALS, default 5). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>


static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static inline int close_to(float got, float want) { return fabsf(got - want) <= 1e-4f * fabsf(want) + 1e-5f; }

#if defined(KERNEL_AXPY)
#define NAME "axpy"
void run_axpy(float a, float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *ya, float *y, int64_t yo,
              int64_t yn, int64_t ys, int64_t reps);
static float x[1024], y[1024];
static void init(void) {
  for (int i = 0; i < 1024; i++) {
    x[i] = (float)i;
    y[i] = 1.0f - (float)i / 4;
  }
}
static void run(int64_t reps) { run_axpy(2.5f, x, x, 0, 1024, 1, y, y, 0, 1024, 1, reps); }
static int check(void) {
  int bad = 0;
  for (int i = 0; i < 1024; i++)
    bad += !close_to(y[i], 2.5f * i + 1.0f - (float)i / 4);
  return bad;
}
#elif defined(KERNEL_STENCIL)
#define NAME "stencil2d"
void run_stencil(float *ia, float *in, int64_t io, int64_t i0, int64_t i1, int64_t is0, int64_t is1, float *oa,
                 float *out, int64_t oo, int64_t o0, int64_t o1, int64_t os0, int64_t os1, int64_t reps);
static float in[64 * 64], out[64 * 64];
static void init(void) {
  for (int i = 0; i < 64 * 64; i++)
    in[i] = (float)((i * 37) % 101) / 7.0f;
}
static void run(int64_t reps) { run_stencil(in, in, 0, 64, 64, 64, 1, out, out, 0, 64, 64, 64, 1, reps); }
static int check(void) {
  int bad = 0;
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 64; x++) {
      float want = in[y * 64 + x];
      if (x > 0 && x < 63 && y > 0 && y < 63)
        want = ((in[(y - 1) * 64 + x] + in[(y + 1) * 64 + x]) + (in[y * 64 + x - 1] + in[y * 64 + x + 1])) * 0.25f;
      bad += !close_to(out[y * 64 + x], want);
    }
  return bad;
}
#elif defined(KERNEL_MATMUL)
#define NAME "matmul"
void run_matmul(float *aa, float *a, int64_t ao, int64_t a0, int64_t a1, int64_t as0, int64_t as1, float *ba,
                float *b, int64_t bo, int64_t b0, int64_t b1, int64_t bs0, int64_t bs1, float *ca, float *c,
                int64_t co, int64_t c0, int64_t c1, int64_t cs0, int64_t cs1, int64_t reps);
static float A[256 * 256], B[256 * 256], C[256 * 256];
static void init(void) {
  for (int i = 0; i < 256 * 256; i++) {
    A[i] = (float)(i % 13) / 13.0f - 0.5f;
    B[i] = (float)(i % 7) / 7.0f - 0.25f;
  }
}
static void run(int64_t reps) {
  run_matmul(A, A, 0, 256, 256, 256, 1, B, B, 0, 256, 256, 256, 1, C, C, 0, 256, 256, 256, 1, reps);
}
static int check(void) {
  int bad = 0;
  for (int i = 0; i < 256; i++)
    for (int j = 0; j < 256; j++) {
      double s = 0;
      for (int k = 0; k < 256; k++)
        s += (double)A[i * 256 + k] * B[k * 256 + j];
      bad += fabs(C[i * 256 + j] - s) > 1e-3 * fabs(s) + 1e-3;
    }
  return bad;
}
#elif defined(KERNEL_REDUCE)
#define NAME "reduce"
void run_reduce(float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *sa, float *s, int64_t so, int64_t sn,
                int64_t ss, int64_t reps);
static float x[4096], sum[1];
static void init(void) {
  for (int i = 0; i < 4096; i++)
    x[i] = (float)(i % 17) / 4.0f;
  sum[0] = 0.0f;
}
static void run(int64_t reps) { run_reduce(x, x, 0, 4096, 1, sum, sum, 0, 1, 1, reps); }
static int check(void) {
  double want = 0;
  for (int i = 0; i < 4096; i++)
    want += x[i];
  return !(fabs(sum[0] - want) <= 1e-4 * want);
}
#else
#error "define KERNEL_AXPY, KERNEL_STENCIL, KERNEL_MATMUL or KERNEL_REDUCE"
#endif

/* $name as a number of at least `min`, else dflt. */
static int env_int(const char *name, int dflt, int min) {
  const char *v = getenv(name);
  return v && atoi(v) >= min ? atoi(v) : dflt;
}

int main(void) {
  int R = env_int("KERNEL_REPS", 200, 2);
  int trials = env_int("KERNEL_TRIALS", 5, 1);
  init();
  run(1);
  int bad = check();
  if (bad) {
    printf("%s: FAILED, %d wrong\n", NAME, bad);
    return 1;
  }
  printf("%s: OK, every number checked\n", NAME);
  double best = 1e30;
  for (int trial = 0; trial < trials; trial++) {
    init();
    run(1);
    double t1 = now();
    run(R);
    double t2 = now();
    /* The run's wait for the device is shared by its R launches. (Subtracting a run of one, as before, gave
     * times below zero for a kernel shorter than the noise of that one run.) */
    double per = (t2 - t1) / R;
    if (per < best)
      best = per;
  }
  printf("%s: kernel %.2f us (best of %d, %d launches)\n", NAME, best * 1e6, trials, R);
  return 0;
}
