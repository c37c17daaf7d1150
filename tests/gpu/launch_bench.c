/* Launch overhead: the generated launch loops against hand-written CUDA driver loops that launch the
 * same axpy kernel (1M elements) from the same cubin.
 *   sync:  cuLaunchKernel + cuStreamSynchronize on one stream, per launch
 *   async: cuLaunchKernel on one stream, one cuStreamSynchronize at the end
 * Prints the time per launch of each, the best of REPEATS rounds, and the ratio generated / hand-written.
 * usage: launch_bench CUBIN [ITERS] [REPEATS] */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void bench_sync(float a, void *x, void *y, int n, int64_t iters);
void bench_async(float a, void *x, void *y, int n, int64_t iters);
#ifdef WITH_UPSTREAM
void upstream_sync(float a, void *x, void *y, int n, int64_t iters);
#endif

#define CHECK(call)                                                                                          \
  do {                                                                                                       \
    CUresult r_ = (call);                                                                                    \
    if (r_ != CUDA_SUCCESS) {                                                                                \
      const char *s_ = "?";                                                                                  \
      cuGetErrorName(r_, &s_);                                                                               \
      fprintf(stderr, "%s failed: %s\n", #call, s_);                                                         \
      exit(1);                                                                                               \
    }                                                                                                        \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc(n + 1);
  if (fread(b, 1, n, f) != (size_t)n)
    exit(1);
  fclose(f);
  return b;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CUBIN [ITERS] [REPEATS]\n", argv[0]);
    return 2;
  }
  int64_t iters = argc > 2 ? atoll(argv[2]) : 20000;
  int repeats = argc > 3 ? atoi(argv[3]) : 5;
  const int n = 1 << 20;
  float a = 0.5f;
  /* The generated code and the hand-written loop share one device and primary context. */
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, read_file(argv[1])));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "axpy"));
  CUdeviceptr x, y;
  CHECK(cuMemAlloc(&x, n * sizeof(float)));
  CHECK(cuMemAlloc(&y, n * sizeof(float)));
  CHECK(cuMemsetD32(x, 0x3f800000, n));
  CHECK(cuMemsetD32(y, 0, n));
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  void *px = (void *)(uintptr_t)x, *py = (void *)(uintptr_t)y;
  void *params[] = {&a, &px, &py, (void *)&n};

  /* Warm up both paths: module loads and first launches are not what is measured. */
  bench_sync(a, px, py, n, 10);
  bench_async(a, px, py, n, 10);
  for (int i = 0; i < 10; i++)
    CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
  CHECK(cuStreamSynchronize(s));

  double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
  for (int r = 0; r < repeats; r++) {
    double t0 = now();
    for (int64_t i = 0; i < iters; i++) {
      CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
      CHECK(cuStreamSynchronize(s));
    }
    double t1 = now();
    bench_sync(a, px, py, n, iters);
    double t2 = now();
    for (int64_t i = 0; i < iters; i++)
      CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
    CHECK(cuStreamSynchronize(s));
    double t3 = now();
    bench_async(a, px, py, n, iters);
    double t4 = now();
    double t5 = t4;
#ifdef WITH_UPSTREAM
    upstream_sync(a, px, py, n, iters);
    t5 = now();
#endif
    double v[5] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4};
    for (int k = 0; k < 5; k++)
      if (v[k] < best[k])
        best[k] = v[k];
  }
  double us = 1e6 / iters;
  printf("launch overhead, axpy %d elements, %lld launches, best of %d rounds (us per launch):\n", n,
         (long long)iters, repeats);
  printf("  sync   driver loop %8.3f  generated %8.3f  ratio %.3f\n", best[0] * us, best[1] * us, best[1] / best[0]);
  printf("  async  driver loop %8.3f  generated %8.3f  ratio %.3f\n", best[2] * us, best[3] * us, best[3] / best[2]);
#ifdef WITH_UPSTREAM
  printf("  sync   upstream mlir-translate-22 generated %8.3f  ratio %.3f\n", best[4] * us, best[4] / best[0]);
#endif
  float check[4];
  CHECK(cuMemcpyDtoH(check, y, sizeof check));
  printf("  y[0] after all launches = %g\n", check[0]);
  return 0;
}
