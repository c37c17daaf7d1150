/* The C twins of the kernels of tests/bench/cpu-kernels.sh, the same algorithms, and the program that times
 * both: built with -DMATMUL, -DREDUCE or -DSTENCIL and linked with the host object of the kernel's run(). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define D1(p, n) p, p, 0, (int64_t)(n), 1
#define D2(p, n) p, p, 0, (int64_t)(n), (int64_t)(n), (int64_t)(n), 1
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
#if defined(MATMUL)
#define N 1024
#define T 16
#define WORK (2.0 * N * N * N / 1e9)
#define UNIT "GFLOP/s"
void run(float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, float *, float *, int64_t, int64_t, int64_t,
         int64_t, int64_t, float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t);
static float *A, *B, *C, *D;
static void setup(void) {
  A = aligned_alloc(64, N * N * 4), B = aligned_alloc(64, N * N * 4);
  C = aligned_alloc(64, N * N * 4), D = aligned_alloc(64, N * N * 4);
  for (long i = 0; i < N * N; i++) {
    A[i] = (float)(i % 13) / 4;
    B[i] = (float)(i % 7) / 2 - 1;
  }
}
static void ours(void) { run(D2(A, N), D2(B, N), D2(C, N)); }
/* The same algorithm: a 16x16 tile of C per block, tiles of A and B staged in local arrays. */
static void theirs(void) {
#pragma omp parallel for collapse(2)
  for (int by = 0; by < N / T; by++)
    for (int bx = 0; bx < N / T; bx++) {
      float As[T][T], Bs[T][T], acc[T][T] = {{0}};
      for (int t = 0; t < N; t += T) {
        for (int ty = 0; ty < T; ty++)
          for (int tx = 0; tx < T; tx++) {
            As[ty][tx] = A[(by * T + ty) * N + t + tx];
            Bs[ty][tx] = B[(t + ty) * N + bx * T + tx];
          }
        for (int ty = 0; ty < T; ty++)
          for (int tx = 0; tx < T; tx++)
            for (int k = 0; k < T; k++)
              acc[ty][tx] = fmaf(As[ty][k], Bs[k][tx], acc[ty][tx]);
      }
      for (int ty = 0; ty < T; ty++)
        for (int tx = 0; tx < T; tx++)
          C[(by * T + ty) * N + bx * T + tx] = acc[ty][tx];
    }
}
static long wrong(void) {
  memcpy(D, C, (size_t)N * N * 4);
  theirs();
  long bad = 0;
  for (long i = 0; i < N * N; i++)
    bad += fabsf(C[i] - D[i]) > 1e-3f * fabsf(D[i]) + 1e-3f;
  return bad;
}
#elif defined(REDUCE)
#define N 16777216L
#define WORK (4.0 * N / 1e9)
#define UNIT "GB/s"
void run(float *, float *, int64_t, int64_t, int64_t, float *, float *, int64_t, int64_t, int64_t);
static float *X, sum[1];
/* Halves and zeros: every partial sum is a multiple of 0.5 below 2^22, exact in any order. */
static void setup(void) {
  X = aligned_alloc(64, N * 4);
  for (long i = 0; i < N; i++)
    X[i] = (float)(i % 3 == 0) * 0.5f;
}
static void ours(void) {
  sum[0] = 0;
  run(D1(X, N), D1(sum, 1));
}
/* The same algorithm: each group of 32 adds its values by five xor steps, its sum added atomically. */
static void theirs(void) {
  sum[0] = 0;
#pragma omp parallel for
  for (long g = 0; g < N / 32; g++) {
    float v[32], t[32];
    for (int l = 0; l < 32; l++)
      v[l] = X[g * 32 + l];
    for (int o = 16; o > 0; o >>= 1) {
      for (int l = 0; l < 32; l++)
        t[l] = v[l] + v[l ^ o];
      memcpy(v, t, sizeof v);
    }
#pragma omp atomic
    sum[0] += v[0];
  }
}
static long wrong(void) {
  float got = sum[0];
  theirs();
  return got != sum[0] || got != (float)((N + 2) / 3) * 0.5f;
}
#elif defined(STENCIL2D)
#define N 2048
#define T 16
#define WORK (8.0 * N * N / 1e9)
#define UNIT "GB/s"
void run(float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, float *, float *, int64_t, int64_t, int64_t,
         int64_t, int64_t);
static float *In, *Out, *Ref;
static void setup(void) {
  In = aligned_alloc(64, (size_t)N * N * 4), Out = aligned_alloc(64, (size_t)N * N * 4);
  Ref = aligned_alloc(64, (size_t)N * N * 4);
  for (long i = 0; i < (long)N * N; i++)
    In[i] = (float)(i % 17) / 8 - 1;
}
static void ours(void) { run(D2(In, N), D2(Out, N)); }
static void stencil(float *out) {
#pragma omp parallel for collapse(2)
  for (int by = 0; by < N / T; by++)
    for (int bx = 0; bx < N / T; bx++)
      for (int ty = 0; ty < T; ty++)
        for (int tx = 0; tx < T; tx++) {
          int x = bx * T + tx, y = by * T + ty;
          if (x < N && y < N) {
            float v;
            if (x > 0 && x < N - 1 && y > 0 && y < N - 1)
              v = ((In[(y - 1) * N + x] + In[(y + 1) * N + x]) + (In[y * N + x - 1] + In[y * N + x + 1])) * 0.25f;
            else
              v = In[y * N + x];
            out[y * N + x] = v;
          }
        }
}
/* The same algorithm: 16x16 blocks of points, the border copied. */
static void theirs(void) { stencil(Ref); }
static long wrong(void) {
  theirs();
  long bad = 0;
  for (long i = 0; i < (long)N * N; i++)
    bad += Out[i] != Ref[i];
  return bad;
}
#endif
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
/* Prints "NAME TOOL median min max UNIT" of the throughputs of n runs. */
static void report(const char *name, const char *tool, double *t, int n) {
  qsort(t, n, sizeof *t, cmp);
  double med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
  printf("RESULT %s %s %.2f %.2f %.2f %s\n", name, tool, WORK / med, WORK / t[n - 1], WORK / t[0], UNIT);
}
/* usage: PROGRAM NAME [both|mgpu|gcc] [RUNS]: both checks every number first and alternates the two. */
int main(int argc, char **argv) {
  const char *mode = argc > 2 ? argv[2] : "both";
  int n = argc > 3 ? atoi(argv[3]) : 7;
  if (n < 1 || n > 1000)
    n = 7;
  int both = !strcmp(mode, "both"), mine = both || !strcmp(mode, "mgpu"), gcc = both || !strcmp(mode, "gcc");
  setup();
  if (both) {
    ours();
    long bad = wrong();
    if (bad) {
      printf("%s: %ld wrong\n", argv[1], bad);
      return 1;
    }
  }
  double *tm = calloc(n, sizeof(double)), *tg = calloc(n, sizeof(double));
  for (int r = 0; r < n; r++) {
    double t0 = now();
    if (mine)
      ours();
    double t1 = now();
    if (gcc)
      theirs();
    double t2 = now();
    tm[r] = t1 - t0, tg[r] = t2 - t1;
  }
  if (mine)
    report(argv[1], "mgpu", tm, n);
  if (gcc)
    report(argv[1], "gcc", tg, n);
  return 0;
}
