/* The CUDA backend: the driver API, loaded with dlopen("libcuda.so.1") on first use. Each device's
 * primary context is retained once and made current on the calling thread before every call. */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const char NAME[] = "cuda";

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;
typedef unsigned long long CUdeviceptr;

enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
};
enum { CU_STREAM_NON_BLOCKING = 1, CU_EVENT_DISABLE_TIMING = 2, CU_MEM_ATTACH_GLOBAL = 1 };
enum { CU_JIT_OPTIMIZATION_LEVEL = 7, CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };
enum { CUDA_ERROR_DEINITIALIZED = 4 };

typedef struct CUlaunchAttribute {
  int id;
  int pad;
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
} CUlaunchConfig;

static struct {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **, void **);
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void *);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  /* CUDA 12 and later; NULL in older drivers. */
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,
                                     const unsigned *, const unsigned *, int, int, int, int);
} cu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int device_count;
static const char *load_error = "";
static _Atomic(CUcontext) contexts[MGPU_MAX_DEVICES];
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;

static void report(const char *call, CUresult r) {
  if (mgpu_shutting_down || r == CUDA_ERROR_DEINITIALIZED)
    return;
  const char *name = NULL;
  if (cu.cuGetErrorName == NULL || cu.cuGetErrorName(r, &name) != 0 || name == NULL)
    name = "unknown CUDA error";
  mgpu_report(NAME, call, "%s (%d)", name, r);
}

static bool succeeded(const char *call, CUresult r) {
  if (r != 0)
    report(call, r);
  return r == 0;
}

/* Calls driver function `fn` with the arguments that follow; reports a failure under fn's name, and is true
 * when the call succeeded. */
#define CHECK(fn, ...) succeeded(#fn, cu.fn(__VA_ARGS__))

static void load(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    load_error = "libcuda.so.1 could not be loaded (no NVIDIA driver)";
    return;
  }
#define SYM(field, name)                                                                                     \
  do {                                                                                                       \
    *(void **)(&cu.field) = dlsym(h, name);                                                                  \
    if (!cu.field) {                                                                                         \
      load_error = "libcuda.so.1 lacks " name;                                                              \
      return;                                                                                                \
    }                                                                                                        \
  } while (0)
  SYM(cuInit, "cuInit");
  SYM(cuDeviceGetCount, "cuDeviceGetCount");
  SYM(cuDeviceGet, "cuDeviceGet");
  SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  SYM(cuDeviceGetName, "cuDeviceGetName");
  SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  SYM(cuCtxSetCurrent, "cuCtxSetCurrent");
  SYM(cuModuleLoadData, "cuModuleLoadData");
  SYM(cuModuleLoadDataEx, "cuModuleLoadDataEx");
  SYM(cuModuleUnload, "cuModuleUnload");
  SYM(cuModuleGetFunction, "cuModuleGetFunction");
  SYM(cuLaunchKernel, "cuLaunchKernel");
  SYM(cuStreamCreate, "cuStreamCreate");
  SYM(cuStreamDestroy, "cuStreamDestroy_v2");
  SYM(cuStreamSynchronize, "cuStreamSynchronize");
  SYM(cuStreamWaitEvent, "cuStreamWaitEvent");
  SYM(cuEventCreate, "cuEventCreate");
  SYM(cuEventDestroy, "cuEventDestroy_v2");
  SYM(cuEventSynchronize, "cuEventSynchronize");
  SYM(cuEventRecord, "cuEventRecord");
  SYM(cuMemAlloc, "cuMemAlloc_v2");
  SYM(cuMemAllocManaged, "cuMemAllocManaged");
  SYM(cuMemFree, "cuMemFree_v2");
  SYM(cuMemcpyAsync, "cuMemcpyAsync");
  SYM(cuMemsetD32Async, "cuMemsetD32Async");
  SYM(cuMemsetD16Async, "cuMemsetD16Async");
  SYM(cuMemHostRegister, "cuMemHostRegister_v2");
  SYM(cuMemHostUnregister, "cuMemHostUnregister");
  SYM(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
  SYM(cuGetErrorName, "cuGetErrorName");
#undef SYM
  *(void **)(&cu.cuLaunchKernelEx) = dlsym(h, "cuLaunchKernelEx");
  *(void **)(&cu.cuTensorMapEncodeTiled) = dlsym(h, "cuTensorMapEncodeTiled");
  CUresult r = cu.cuInit(0);
  if (r != 0) {
    load_error = "cuInit failed (the driver found no usable device)";
    return;
  }
  if (cu.cuDeviceGetCount(&device_count) != 0 || device_count <= 0) {
    device_count = 0;
    load_error = "the NVIDIA driver reports no CUDA device";
  }
}

static int cuda_probe(const char **why) {
  pthread_once(&load_once, load);
  *why = load_error;
  return device_count;
}

/* Makes the current device's primary context current on this thread; returns the device, or -1 after a
 * reported failure, when the caller must not go on. The lock is taken only the first time a device is used. */
static int enter(void) {
  pthread_once(&load_once, load);
  if (device_count <= 0)
    return -1;
  int d = mgpu_current_device();
  CUcontext c = atomic_load_explicit(&contexts[d], memory_order_acquire);
  if (!c) {
    pthread_mutex_lock(&ctx_lock);
    c = atomic_load(&contexts[d]);
    CUdevice dev;
    if (!c && CHECK(cuDeviceGet, &dev, d) && CHECK(cuDevicePrimaryCtxRetain, &c, dev))
      atomic_store_explicit(&contexts[d], c, memory_order_release);
    c = atomic_load(&contexts[d]);
    pthread_mutex_unlock(&ctx_lock);
    if (!c)
      return -1;
  }
  static __thread CUcontext last;
  if (last != c) {
    if (!CHECK(cuCtxSetCurrent, c))
      return -1;
    last = c;
  }
  return d;
}

/* The stream that stands for NULL: one non-blocking stream per device, created on first use, so that
 * default-stream work does not serialise with every other stream as CUDA's legacy stream would. */
static void *cuda_stream_create(void);

static CUstream resolve(void *stream, int d) {
  return stream ? stream : mgpu_default_stream(d, cuda_stream_create);
}

static int cuda_device_info(int device, mgpu_device_info *info) {
  pthread_once(&load_once, load);
  static const int attributes[] = {
      CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,          CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,           CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  int v[sizeof attributes / sizeof *attributes];
  CUdevice dev;
  if (!CHECK(cuDeviceGet, &dev, device) || !CHECK(cuDeviceGetName, info->name, sizeof info->name, dev))
    return -1;
  for (size_t i = 0; i < sizeof attributes / sizeof *attributes; i++)
    if (!CHECK(cuDeviceGetAttribute, &v[i], attributes[i], dev))
      return -1;
  info->ccMajor = v[0];
  info->ccMinor = v[1];
  info->maxThreadsPerBlock = v[2];
  for (int i = 0; i < 3; i++) {
    info->maxBlock[i] = v[3 + i];
    info->maxGrid[i] = v[6 + i];
  }
  snprintf(info->chip, sizeof info->chip, "sm_%d%d", info->ccMajor, info->ccMinor);
  return 0;
}

static void *cuda_module_load(const void *data, size_t size) {
  (void)size;
  CUmodule m = NULL;
  if (enter() < 0 || !CHECK(cuModuleLoadData, &m, data))
    return NULL;
  return m;
}

static void *cuda_module_load_jit(const void *data, int optLevel, size_t size) {
  (void)size;
  if (enter() < 0)
    return NULL;
  char log[8192] = "";
  int opts[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {(void *)(intptr_t)optLevel, log, (void *)(intptr_t)sizeof log};
  CUmodule m = NULL;
  CUresult r = cu.cuModuleLoadDataEx(&m, data, 3, opts, vals);
  if (r != 0) {
    report("cuModuleLoadDataEx", r);
    if (log[0] && !mgpu_shutting_down)
      fprintf(stderr, "mgpu: cuda: JIT log: %s\n", log);
    return NULL;
  }
  return m;
}

static void cuda_module_unload(void *m) {
  if (enter() >= 0)
    CHECK(cuModuleUnload, m);
}

static void *cuda_module_function(void *m, const char *name) {
  CUfunction f = NULL;
  if (enter() < 0 || !CHECK(cuModuleGetFunction, &f, m, name))
    return NULL;
  return f;
}

static void cuda_launch(void *fn, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz,
                        intptr_t bx, intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                        void **extra, size_t paramsCount) {
  (void)paramsCount; /* the driver knows its kernels' parameters */
  int d = enter();
  if (d < 0)
    return;
  stream = resolve(stream, d);
  if (cx > 0) {
    if (!cu.cuLaunchKernelEx) {
      mgpu_report(NAME, "cuLaunchKernelEx", "not available in this driver");
      return;
    }
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = (unsigned)cx;
    attr.value.clusterDim.y = (unsigned)cy;
    attr.value.clusterDim.z = (unsigned)cz;
    CUlaunchConfig cfg = {(unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx, (unsigned)by, (unsigned)bz,
                          (unsigned)smem, stream, &attr, 1};
    CHECK(cuLaunchKernelEx, &cfg, fn, params, extra);
    return;
  }
  CHECK(cuLaunchKernel, fn, (unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx, (unsigned)by, (unsigned)bz,
                          (unsigned)smem, stream, params, extra);
}

static void *cuda_stream_create(void) {
  CUstream s = NULL;
  if (enter() < 0 || !CHECK(cuStreamCreate, &s, CU_STREAM_NON_BLOCKING))
    return NULL;
  return s;
}

static void cuda_stream_destroy(void *s) {
  if (enter() >= 0 && s)
    CHECK(cuStreamDestroy, s);
}

static void cuda_stream_sync(void *s) {
  int d = enter();
  if (d >= 0)
    CHECK(cuStreamSynchronize, resolve(s, d));
}

static void cuda_stream_wait_event(void *s, void *e) {
  int d = enter();
  if (d >= 0)
    CHECK(cuStreamWaitEvent, resolve(s, d), e, 0);
}

static void *cuda_event_create(void) {
  CUevent e = NULL;
  if (enter() < 0 || !CHECK(cuEventCreate, &e, CU_EVENT_DISABLE_TIMING))
    return NULL;
  return e;
}

static void cuda_event_destroy(void *e) {
  if (enter() >= 0)
    CHECK(cuEventDestroy, e);
}

static void cuda_event_sync(void *e) {
  if (enter() >= 0)
    CHECK(cuEventSynchronize, e);
}

static void cuda_event_record(void *e, void *s) {
  int d = enter();
  if (d >= 0)
    CHECK(cuEventRecord, e, resolve(s, d));
}

static void *cuda_mem_alloc(uint64_t size, void *stream, bool shared) {
  (void)stream;
  CUdeviceptr p = 0;
  if (size == 0 || enter() < 0)
    return NULL;
  bool ok = shared ? CHECK(cuMemAllocManaged, &p, size, CU_MEM_ATTACH_GLOBAL) : CHECK(cuMemAlloc, &p, size);
  return ok ? (void *)(uintptr_t)p : NULL;
}

static void cuda_mem_free(void *p, void *stream) {
  (void)stream;
  if (enter() >= 0)
    CHECK(cuMemFree, (CUdeviceptr)(uintptr_t)p);
}

static void cuda_memcpy(void *dst, void *src, size_t size, void *stream) {
  int d = enter();
  if (d >= 0)
    CHECK(cuMemcpyAsync, (CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, size, resolve(stream, d));
}

static void cuda_memset32(void *dst, unsigned v, size_t count, void *stream) {
  int d = enter();
  if (d >= 0)
    CHECK(cuMemsetD32Async, (CUdeviceptr)(uintptr_t)dst, v, count, resolve(stream, d));
}

static void cuda_memset16(void *dst, unsigned short v, size_t count, void *stream) {
  int d = enter();
  if (d >= 0)
    CHECK(cuMemsetD16Async, (CUdeviceptr)(uintptr_t)dst, v, count, resolve(stream, d));
}

static void cuda_host_register(void *p, uint64_t size) {
  if (enter() >= 0)
    CHECK(cuMemHostRegister, p, size, 0);
}

static void cuda_host_unregister(void *p) {
  if (enter() >= 0)
    CHECK(cuMemHostUnregister, p);
}

static void *cuda_host_device_pointer(void *p) {
  CUdeviceptr d = 0;
  if (enter() < 0 || !CHECK(cuMemHostGetDevicePointer, &d, p, 0))
    return NULL;
  return (void *)(uintptr_t)d;
}

static bool cuda_tensor_map_encode(void *map, int32_t type, uint32_t rank, void *address, const uint64_t *dims,
                                   const uint64_t *strides, const uint32_t *box, const uint32_t *elementStrides,
                                   int32_t interleave, int32_t swizzle, int32_t l2Promotion, int32_t oobFill) {
  if (enter() < 0)
    return false;
  if (!cu.cuTensorMapEncodeTiled) {
    mgpu_report(NAME, "cuTensorMapEncodeTiled", "not available in this driver (CUDA 12 and later have it)");
    return false;
  }
  return CHECK(cuTensorMapEncodeTiled, map, type, rank, address, dims, strides, box, elementStrides, interleave,
               swizzle, l2Promotion, oobFill);
}

const mgpu_backend mgpu_cuda_backend = {
    .name = NAME,
    .kind = MGPU_KIND_NVVM,
    .probe = cuda_probe,
    .max_dimension = UINT_MAX,
    .device_info = cuda_device_info,
    .module_load = cuda_module_load,
    .module_load_jit = cuda_module_load_jit,
    .module_unload = cuda_module_unload,
    .module_function = cuda_module_function,
    .launch = cuda_launch,
    .stream_create = cuda_stream_create,
    .stream_destroy = cuda_stream_destroy,
    .stream_sync = cuda_stream_sync,
    .stream_wait_event = cuda_stream_wait_event,
    .event_create = cuda_event_create,
    .event_destroy = cuda_event_destroy,
    .event_sync = cuda_event_sync,
    .event_record = cuda_event_record,
    .mem_alloc = cuda_mem_alloc,
    .mem_free = cuda_mem_free,
    .memcpy = cuda_memcpy,
    .memset32 = cuda_memset32,
    .memset16 = cuda_memset16,
    .host_register = cuda_host_register,
    .host_unregister = cuda_host_unregister,
    .host_device_pointer = cuda_host_device_pointer,
    .tensor_map_encode = cuda_tensor_map_encode,
};
