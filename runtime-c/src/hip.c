/* The HIP backend: ROCm's HIP runtime, loaded with dlopen("libamdhip64.so") on first use. Types come
 * from the HIP headers; every function is called through a pointer resolved at load time. */
#define _GNU_SOURCE
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include "internal.h"

#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static const char NAME[] = "hip";

static struct {
  __typeof__(&hipInit) hipInit;
  __typeof__(&hipGetDeviceCount) hipGetDeviceCount;
  __typeof__(&hipSetDevice) hipSetDevice;
  __typeof__(&hipGetDeviceProperties) hipGetDeviceProperties;
  __typeof__(&hipModuleLoadData) hipModuleLoadData;
  __typeof__(&hipModuleUnload) hipModuleUnload;
  __typeof__(&hipModuleGetFunction) hipModuleGetFunction;
  __typeof__(&hipModuleLaunchKernel) hipModuleLaunchKernel;
  __typeof__(&hipStreamCreateWithFlags) hipStreamCreateWithFlags;
  __typeof__(&hipStreamDestroy) hipStreamDestroy;
  __typeof__(&hipStreamSynchronize) hipStreamSynchronize;
  __typeof__(&hipStreamWaitEvent) hipStreamWaitEvent;
  __typeof__(&hipEventCreateWithFlags) hipEventCreateWithFlags;
  __typeof__(&hipEventDestroy) hipEventDestroy;
  __typeof__(&hipEventSynchronize) hipEventSynchronize;
  __typeof__(&hipEventRecord) hipEventRecord;
  __typeof__(&hipMalloc) hipMalloc;
  __typeof__(&hipMallocManaged) hipMallocManaged;
  __typeof__(&hipFree) hipFree;
  __typeof__(&hipMemcpyAsync) hipMemcpyAsync;
  __typeof__(&hipMemsetD32Async) hipMemsetD32Async;
  __typeof__(&hipMemsetD16Async) hipMemsetD16Async;
  __typeof__(&hipHostRegister) hipHostRegister;
  __typeof__(&hipHostUnregister) hipHostUnregister;
  __typeof__(&hipHostGetDevicePointer) hipHostGetDevicePointer;
  __typeof__(&hipGetErrorName) hipGetErrorName;
} hip;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int device_count;
static const char *load_error = "";

static void report(const char *call, hipError_t r) {
  if (mgpu_shutting_down)
    return;
  const char *name = hip.hipGetErrorName ? hip.hipGetErrorName(r) : NULL;
  mgpu_report(NAME, call, "%s (%d)", name ? name : "unknown HIP error", (int)r);
}

static bool succeeded(const char *call, hipError_t r) {
  if (r != hipSuccess)
    report(call, r);
  return r == hipSuccess;
}

/* Calls HIP function `fn` with the arguments that follow; reports a failure under fn's name, and is true when
 * the call succeeded. */
#define CHECK(fn, ...) succeeded(#fn, hip.fn(__VA_ARGS__))

static void load(void) {
  void *h = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
  if (!h)
    h = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_LOCAL);
  if (!h)
    h = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    load_error = "libamdhip64.so could not be loaded (no AMD ROCm driver)";
    return;
  }
/* The symbol is the name after the headers' macros (ROCm renames some functions for a new ABI), so that it
 * matches the prototype the field was declared with. */
#define SYMBOL(fn) #fn
#define SYM(fn)                                                                                              \
  do {                                                                                                       \
    *(void **)(&hip.fn) = dlsym(h, SYMBOL(fn));                                                              \
    if (!hip.fn) {                                                                                           \
      load_error = "libamdhip64.so lacks " SYMBOL(fn);                                                      \
      return;                                                                                                \
    }                                                                                                        \
  } while (0)
  SYM(hipInit);
  SYM(hipGetDeviceCount);
  SYM(hipSetDevice);
  SYM(hipGetDeviceProperties);
  SYM(hipModuleLoadData);
  SYM(hipModuleUnload);
  SYM(hipModuleGetFunction);
  SYM(hipModuleLaunchKernel);
  SYM(hipStreamCreateWithFlags);
  SYM(hipStreamDestroy);
  SYM(hipStreamSynchronize);
  SYM(hipStreamWaitEvent);
  SYM(hipEventCreateWithFlags);
  SYM(hipEventDestroy);
  SYM(hipEventSynchronize);
  SYM(hipEventRecord);
  SYM(hipMalloc);
  SYM(hipMallocManaged);
  SYM(hipFree);
  SYM(hipMemcpyAsync);
  SYM(hipMemsetD32Async);
  SYM(hipMemsetD16Async);
  SYM(hipHostRegister);
  SYM(hipHostUnregister);
  SYM(hipHostGetDevicePointer);
  SYM(hipGetErrorName);
#undef SYM
#undef SYMBOL
  if (hip.hipInit(0) != hipSuccess || hip.hipGetDeviceCount(&device_count) != hipSuccess || device_count <= 0) {
    device_count = 0;
    load_error = "the AMD driver reports no HIP device";
  }
}

static int hip_probe(const char **why) {
  pthread_once(&load_once, load);
  *why = load_error;
  return device_count;
}

/* Makes the current device current on this thread; returns it, or -1 after a reported failure, when the
 * caller must not go on. */
static int enter(void) {
  pthread_once(&load_once, load);
  if (device_count <= 0)
    return -1;
  static __thread int last = -1;
  int d = mgpu_current_device();
  if (last != d) {
    if (!CHECK(hipSetDevice, d))
      return -1;
    last = d;
  }
  return d;
}

/* The stream that stands for NULL: one non-blocking stream per device, as on CUDA. */
static void *hip_stream_create(void);

static hipStream_t resolve(void *stream, int d) {
  return stream ? stream : mgpu_default_stream(d, hip_stream_create);
}

static int hip_device_info(int device, mgpu_device_info *info) {
  pthread_once(&load_once, load);
  hipDeviceProp_t p;
  if (!CHECK(hipGetDeviceProperties, &p, device))
    return -1;
  snprintf(info->name, sizeof info->name, "%s", p.name);
  size_t n = strnlen(p.gcnArchName, sizeof info->chip - 1);
  memcpy(info->chip, p.gcnArchName, n);
  info->chip[n] = '\0';
  info->ccMajor = p.major;
  info->ccMinor = p.minor;
  info->maxThreadsPerBlock = p.maxThreadsPerBlock;
  for (int i = 0; i < 3; i++) {
    info->maxBlock[i] = p.maxThreadsDim[i];
    info->maxGrid[i] = p.maxGridSize[i];
  }
  return 0;
}

static void *hip_module_load(const void *data, size_t size) {
  (void)size;
  hipModule_t m = NULL;
  if (enter() < 0 || !CHECK(hipModuleLoadData, &m, data))
    return NULL;
  return m;
}

static void *hip_module_load_jit(const void *data, int optLevel, size_t size) {
  (void)optLevel;
  return hip_module_load(data, size);
}

static void hip_module_unload(void *m) {
  if (enter() >= 0)
    CHECK(hipModuleUnload, m);
}

static void *hip_module_function(void *m, const char *name) {
  hipFunction_t f = NULL;
  if (enter() < 0 || !CHECK(hipModuleGetFunction, &f, m, name))
    return NULL;
  return f;
}

static void hip_launch(void *fn, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz,
                       intptr_t bx, intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                       void **extra, size_t paramsCount) {
  (void)cy, (void)cz, (void)paramsCount; /* the driver knows its kernels' parameters */
  int d = enter();
  if (d < 0)
    return;
  if (cx > 0) {
    mgpu_report(NAME, NULL, "clusters are not supported by HIP");
    return;
  }
  CHECK(hipModuleLaunchKernel, fn, (unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx, (unsigned)by,
                               (unsigned)bz, (unsigned)smem, resolve(stream, d), params, extra);
}

static void *hip_stream_create(void) {
  hipStream_t s = NULL;
  if (enter() < 0 || !CHECK(hipStreamCreateWithFlags, &s, hipStreamNonBlocking))
    return NULL;
  return s;
}

static void hip_stream_destroy(void *s) {
  if (enter() >= 0 && s)
    CHECK(hipStreamDestroy, s);
}

static void hip_stream_sync(void *s) {
  int d = enter();
  if (d >= 0)
    CHECK(hipStreamSynchronize, resolve(s, d));
}

static void hip_stream_wait_event(void *s, void *e) {
  int d = enter();
  if (d >= 0)
    CHECK(hipStreamWaitEvent, resolve(s, d), e, 0);
}

static void *hip_event_create(void) {
  hipEvent_t e = NULL;
  if (enter() < 0 || !CHECK(hipEventCreateWithFlags, &e, hipEventDisableTiming))
    return NULL;
  return e;
}

static void hip_event_destroy(void *e) {
  if (enter() >= 0)
    CHECK(hipEventDestroy, e);
}

static void hip_event_sync(void *e) {
  if (enter() >= 0)
    CHECK(hipEventSynchronize, e);
}

static void hip_event_record(void *e, void *s) {
  int d = enter();
  if (d >= 0)
    CHECK(hipEventRecord, e, resolve(s, d));
}

static void *hip_mem_alloc(uint64_t size, void *stream, bool shared) {
  (void)stream;
  void *p = NULL;
  if (size == 0 || enter() < 0)
    return NULL;
  bool ok = shared ? CHECK(hipMallocManaged, &p, size, hipMemAttachGlobal) : CHECK(hipMalloc, &p, size);
  return ok ? p : NULL;
}

static void hip_mem_free(void *p, void *stream) {
  (void)stream;
  if (enter() >= 0)
    CHECK(hipFree, p);
}

static void hip_memcpy(void *dst, void *src, size_t size, void *stream) {
  int d = enter();
  if (d >= 0)
    CHECK(hipMemcpyAsync, dst, src, size, hipMemcpyDefault, resolve(stream, d));
}

static void hip_memset32(void *dst, unsigned v, size_t count, void *stream) {
  int d = enter();
  if (d >= 0)
    CHECK(hipMemsetD32Async, (hipDeviceptr_t)dst, (int)v, count, resolve(stream, d));
}

static void hip_memset16(void *dst, unsigned short v, size_t count, void *stream) {
  int d = enter();
  if (d >= 0)
    CHECK(hipMemsetD16Async, (hipDeviceptr_t)dst, v, count, resolve(stream, d));
}

static void hip_host_register(void *p, uint64_t size) {
  if (enter() >= 0)
    CHECK(hipHostRegister, p, size, hipHostRegisterDefault);
}

static void hip_host_unregister(void *p) {
  if (enter() >= 0)
    CHECK(hipHostUnregister, p);
}

static void *hip_host_device_pointer(void *p) {
  void *d = NULL;
  if (enter() < 0 || !CHECK(hipHostGetDevicePointer, &d, p, 0))
    return NULL;
  return d;
}

const mgpu_backend mgpu_hip_backend = {
    .name = NAME,
    .kind = MGPU_KIND_ROCDL,
    .probe = hip_probe,
    .max_dimension = UINT_MAX,
    .device_info = hip_device_info,
    .module_load = hip_module_load,
    .module_load_jit = hip_module_load_jit,
    .module_unload = hip_module_unload,
    .module_function = hip_module_function,
    .launch = hip_launch,
    .stream_create = hip_stream_create,
    .stream_destroy = hip_stream_destroy,
    .stream_sync = hip_stream_sync,
    .stream_wait_event = hip_stream_wait_event,
    .event_create = hip_event_create,
    .event_destroy = hip_event_destroy,
    .event_sync = hip_event_sync,
    .event_record = hip_event_record,
    .mem_alloc = hip_mem_alloc,
    .mem_free = hip_mem_free,
    .memcpy = hip_memcpy,
    .memset32 = hip_memset32,
    .memset16 = hip_memset16,
    .host_register = hip_host_register,
    .host_unregister = hip_host_unregister,
    .host_device_pointer = hip_host_device_pointer,
};
