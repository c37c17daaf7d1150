/* Launch overhead: the generated launch loops against hand-written CUDA driver loops that launch the
 * same axpy kernel (1M elements) from the same cubin.
 *   sync:  cuLaunchKernel + cuStreamSynchronize on one stream, per launch
 *   async: cuLaunchKernel on one stream, one cuStreamSynchronize at the end
 * Prints the time per launch of each, the best of REPEATS rounds, and the ratio generated / hand-written.
 * usage: launch_bench CUBIN [ITERS] [REPEATS] */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void bench_sync(float a, void *x, void *y, int n, int64_t iters);
void bench_async(float a, void *x, void *y, int n, int64_t iters);
#ifdef WITH_UPSTREAM
void upstream_sync(float a, void *x, void *y, int n, int64_t iters);
#endif

/* The driver functions this loop calls, loaded from libcuda.so.1 as libmgpu loads them, so that this
 * program links where only the toolkit's headers are. A name goes through cuda.h's macros first
 * (cuMemAlloc is cuMemAlloc_v2), so that the symbol matches the prototype. */
#define DRIVER_FUNCTIONS(X)                                                                                  \
  X(cuInit) X(cuDeviceGet) X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuModuleLoadData)                \
  X(cuModuleGetFunction) X(cuMemAlloc) X(cuMemsetD32) X(cuStreamCreate) X(cuLaunchKernel)                    \
  X(cuStreamSynchronize) X(cuMemcpyDtoH) X(cuGetErrorName)
#define DECLARE(f) static __typeof__(f) *p_##f;
DRIVER_FUNCTIONS(DECLARE)
#define D(f) p_##f
#define SYMBOL(f) #f
#define EXPANDED_SYMBOL(f) SYMBOL(f)

static void load_driver(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "libcuda.so.1 could not be loaded: %s\n", dlerror());
    exit(1);
  }
#define LOAD(f)                                                                                              \
  *(void **)&p_##f = dlsym(h, EXPANDED_SYMBOL(f));                                                           \
  if (!p_##f) {                                                                                              \
    fprintf(stderr, "libcuda.so.1 lacks %s\n", EXPANDED_SYMBOL(f));                                          \
    exit(1);                                                                                                 \
  }
  DRIVER_FUNCTIONS(LOAD)
#undef LOAD
}

#define CHECK(call)                                                                                          \
  do {                                                                                                       \
    CUresult r_ = (call);                                                                                    \
    if (r_ != CUDA_SUCCESS) {                                                                                \
      const char *s_ = "?";                                                                                  \
      D(cuGetErrorName)(r_, &s_);                                                                               \
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
  load_driver();
  CHECK(D(cuInit)(0));
  CUdevice dev;
  CHECK(D(cuDeviceGet)(&dev, 0));
  CUcontext ctx;
  CHECK(D(cuDevicePrimaryCtxRetain)(&ctx, dev));
  CHECK(D(cuCtxSetCurrent)(ctx));
  CUmodule mod;
  CHECK(D(cuModuleLoadData)(&mod, read_file(argv[1])));
  CUfunction fn;
  CHECK(D(cuModuleGetFunction)(&fn, mod, "axpy"));
  CUdeviceptr x, y;
  CHECK(D(cuMemAlloc)(&x, n * sizeof(float)));
  CHECK(D(cuMemAlloc)(&y, n * sizeof(float)));
  CHECK(D(cuMemsetD32)(x, 0x3f800000, n));
  CHECK(D(cuMemsetD32)(y, 0, n));
  CUstream s;
  CHECK(D(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING));
  void *px = (void *)(uintptr_t)x, *py = (void *)(uintptr_t)y;
  void *params[] = {&a, &px, &py, (void *)&n};

  /* Warm up both paths: module loads and first launches are not what is measured. */
  bench_sync(a, px, py, n, 10);
  bench_async(a, px, py, n, 10);
  for (int i = 0; i < 10; i++)
    CHECK(D(cuLaunchKernel)(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
  CHECK(D(cuStreamSynchronize)(s));

  double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
  for (int r = 0; r < repeats; r++) {
    double t0 = now();
    for (int64_t i = 0; i < iters; i++) {
      CHECK(D(cuLaunchKernel)(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
      CHECK(D(cuStreamSynchronize)(s));
    }
    double t1 = now();
    bench_sync(a, px, py, n, iters);
    double t2 = now();
    for (int64_t i = 0; i < iters; i++)
      CHECK(D(cuLaunchKernel)(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
    CHECK(D(cuStreamSynchronize)(s));
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
  CHECK(D(cuMemcpyDtoH)(check, y, sizeof check));
  printf("  y[0] after all launches = %g\n", check[0]);
  return 0;
}
