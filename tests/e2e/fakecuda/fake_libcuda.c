/* A stand-in for the NVIDIA driver (libcuda.so.1) that lets CI drive libmgpu's CUDA backend on a machine
 * without a GPU. It is a test double, not a GPU: it checks each call the way the driver would, writes a
 * trace of the calls that matter on stderr ("fake-cuda: ..."), and runs each kernel on the host through the
 * CPU build of the same kernel (mgpu.h's CPU kernel ABI, from the shared object that FAKE_CUDA_KERNELS
 * names), so that programs compute real numbers and check them. The kernel parameters it hands over are
 * the ones the driver received, so a packing error shows in the numbers.
 *
 * The device is one GPU with compute capability FAKE_CUDA_CC (major * 10 + minor, default 90). Device
 * memory is host memory. A module image is one of
 *   an ELF cubin as nvcc writes it, or "FAKECUBIN sm_XY <kernel>...\n": loads only on compute capability
 *     X.Z with Z >= Y; the kernels are its ".text.<name>" sections, or the names listed;
 *   PTX text (starting with "//") with ".target sm_XY": loads, JIT-compiled, on compute capability >= XY;
 *     its kernels are its ".entry" names, and its last function's closing brace must be followed by NUL.
 * Anything else is CUDA_ERROR_INVALID_IMAGE, as from the driver.
 *
 * Built with -DFAKE_WITH_CUDA_H and cuda.h on the include path, every function is checked against the
 * driver's own prototypes. */
#define _GNU_SOURCE
#include "mgpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FAKE_WITH_CUDA_H
#include <cuda.h>
#else
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUjit_option;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
};
enum { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 };
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6, CU_JIT_OPTIMIZATION_LEVEL = 7 };
enum { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };
typedef struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char pad[64];
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
#endif

#define MAX_HANDLES 256

struct CUctx_st {
  int device;
};
struct CUmod_st {
  int id, live;
  char kernels[256];
};
struct CUfunc_st {
  struct CUmod_st *module;
  char name[64];
};
struct CUstream_st {
  int id, live;
};
struct CUevent_st {
  int id, live, recorded;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialised, cc = 90;
static struct CUctx_st primary;
static int primary_retained;
static __thread CUcontext current;
static struct CUmod_st modules[MAX_HANDLES];
static struct CUfunc_st functions[MAX_HANDLES];
static struct CUstream_st streams[MAX_HANDLES];
static struct CUevent_st events[MAX_HANDLES];
static int module_count, function_count, stream_count, event_count;
static struct {
  char *base;
  size_t size;
  int id, live, managed;
} buffers[MAX_HANDLES];
static int buffer_count;
static struct {
  int loads, jitLoads, getFunction, launches, syncs, streamsCreated, streamsDestroyed, live;
} stats;

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("fake-cuda: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

__attribute__((destructor)) static void summary(void) {
  if (!initialised)
    return;
  trace("summary: %d loads, %d JIT loads, %d function lookups, %d launches, %d stream syncs, %d streams created, "
        "%d destroyed, %d allocations live",
        stats.loads, stats.jitLoads, stats.getFunction, stats.launches, stats.syncs, stats.streamsCreated,
        stats.streamsDestroyed, stats.live);
}

/* Every call after cuInit needs the primary context current on the calling thread. */
static CUresult ready(void) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  return current == &primary ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

static int stream_ok(CUstream s) { return s == NULL || (s >= streams && s < streams + stream_count && s->live); }

static const char *stream_name(CUstream s) {
  static __thread char buf[16];
  if (!s)
    return "legacy";
  snprintf(buf, sizeof buf, "s%d", s->id);
  return buf;
}

/* The buffer holding p, or -1 when p is host memory. */
static int buffer_of(const void *p) {
  for (int i = 0; i < buffer_count; i++)
    if (buffers[i].live && (const char *)p >= buffers[i].base && (const char *)p < buffers[i].base + buffers[i].size)
      return i;
  return -1;
}

static const char *where(const void *p) {
  static __thread char buf[2][32];
  static __thread int k;
  char *b = buf[k++ & 1];
  int i = buffer_of(p);
  if (i < 0)
    snprintf(b, 32, "host");
  else
    snprintf(b, 32, "m%d+%zu", buffers[i].id, (size_t)((const char *)p - buffers[i].base));
  return b;
}

CUresult cuInit(unsigned int flags) {
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  const char *e = getenv("FAKE_CUDA_CC");
  if (e && *e)
    cc = atoi(e);
  initialised = 1;
  trace("cuInit: device 0 is sm_%d", cc);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    *value = cc / 10;
  else if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    *value = cc % 10;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice device) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  snprintf(name, (size_t)len, "Fake CUDA device sm_%d", cc);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  pthread_mutex_lock(&lock);
  primary_retained++;
  pthread_mutex_unlock(&lock);
  trace("cuDevicePrimaryCtxRetain: device 0 (retained %d times)", primary_retained);
  *ctx = &primary;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ctx != NULL && (ctx != &primary || !primary_retained))
    return CUDA_ERROR_INVALID_CONTEXT;
  current = ctx;
  return CUDA_SUCCESS;
}

/* Adds " <name>" to the space-separated kernel list `list` unless it is there already. */
static void add_kernel(char *list, size_t cap, const char *name, size_t len) {
  for (const char *p = strstr(list, " "); p; p = strstr(p + 1, " "))
    if (strncmp(p + 1, name, len) == 0 && (p[1 + len] == ' ' || p[1 + len] == '\0'))
      return;
  size_t used = strlen(list);
  if (used + len + 1 < cap)
    snprintf(list + used, cap - used, " %.*s", (int)len, name);
}

/* The sm_XY version an image names after `key`, or -1. */
static int image_version(const char *image, const char *key) {
  const char *p = strstr(image, key);
  return p ? atoi(p + strlen(key)) : -1;
}

static CUresult load(CUmodule *module, const void *image, int jit, int optLevel) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (module == NULL || image == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  const char *text = image;
  const char *call = jit ? "cuModuleLoadDataEx" : "cuModuleLoadData";
  char kernels[200] = "";
  int v = -1;
  if (strncmp(text, "FAKECUBIN sm_", 13) == 0) {
    /* A real cubin's size is in its ELF header; this one ends at its first newline. */
    const char *end = memchr(text, '\n', 200);
    if (!end) {
      trace("cubin image has no end");
      return CUDA_ERROR_INVALID_IMAGE;
    }
    v = atoi(text + 13);
    for (const char *p = memchr(text + 13, ' ', (size_t)(end - text) - 13); p && p < end;
         p = memchr(p + 1, ' ', (size_t)(end - p) - 1))
      add_kernel(kernels, sizeof kernels, p + 1, strcspn(p + 1, " \n"));
  } else if (memcmp(text, "\177ELF", 4) == 0 && text[4] == 2) {
    /* nvcc's cubin: ELF64 whose e_flags hold the SM version (bits 8-15 from ELF ABI version 8 on, bits 0-7
     * before), with a section ".text.<kernel>" per kernel; the section headers end the file. */
    uint32_t flags;
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&flags, text + 48, 4);
    memcpy(&shoff, text + 40, 8);
    memcpy(&shentsize, text + 58, 2);
    memcpy(&shnum, text + 60, 2);
    v = (unsigned char)text[8] >= 8 ? (int)((flags >> 8) & 0xFF) : (int)(flags & 0xFF);
    size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
    for (const char *p = text; (p = memmem(p, size - (size_t)(p - text), ".text.", 6)) != NULL; p += 6)
      add_kernel(kernels, sizeof kernels, p + 6, strnlen(p + 6, 64));
  }
  if (v >= 0) {
    if (v / 10 != cc / 10 || v % 10 > cc % 10) {
      trace("%s: cubin for sm_%d does not run on sm_%d", call, v, cc);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    trace("%s: cubin sm_%d, kernels%s%s", call, v, kernels, jit ? ", JIT options ignored" : "");
  } else if (strncmp(text, "//", 2) == 0 && strstr(text, ".version") != NULL && image_version(text, ".target sm_") > 0) {
    /* PTX is text that must end in NUL; an unterminated blob runs on into whatever follows it, so the last
     * thing before the NUL must be the closing brace of the last function. */
    v = image_version(text, ".target sm_");
    size_t n = strnlen(text, 1 << 20);
    size_t last = n;
    while (last > 0 && (text[last - 1] == '\n' || text[last - 1] == ' ' || text[last - 1] == '\t'))
      last--;
    if (n == 1 << 20 || last == 0 || text[last - 1] != '}') {
      trace("PTX image is not NUL-terminated after its last function");
      return CUDA_ERROR_INVALID_PTX;
    }
    if (v > cc) {
      trace("PTX for sm_%d does not JIT-compile for sm_%d", v, cc);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    for (const char *p = strstr(text, ".entry "); p; p = strstr(p + 1, ".entry "))
      add_kernel(kernels, sizeof kernels, p + 7, strcspn(p + 7, "( \n"));
    if (jit)
      trace("cuModuleLoadDataEx: PTX for sm_%d JIT-compiled for sm_%d at O%d (%zu bytes)", v, cc, optLevel, n);
    else
      trace("cuModuleLoadData: PTX for sm_%d JIT-compiled for sm_%d (%zu bytes)", v, cc, n);
  } else {
    trace("%s: not a module image", call);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  pthread_mutex_lock(&lock);
  if (module_count == MAX_HANDLES) {
    pthread_mutex_unlock(&lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  struct CUmod_st *m = &modules[module_count++];
  m->id = module_count;
  m->live = 1;
  snprintf(m->kernels, sizeof m->kernels, "%s ", kernels);
  if (jit)
    stats.jitLoads++;
  else
    stats.loads++;
  pthread_mutex_unlock(&lock);
  *module = m;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) { return load(module, image, 0, -1); }

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues) {
  int optLevel = 4;
  char *log = NULL;
  size_t logSize = 0;
  for (unsigned i = 0; i < numOptions; i++) {
    switch ((int)options[i]) {
    case CU_JIT_OPTIMIZATION_LEVEL:
      optLevel = (int)(intptr_t)optionValues[i];
      if (optLevel < 0 || optLevel > 4)
        return CUDA_ERROR_INVALID_VALUE;
      break;
    case CU_JIT_ERROR_LOG_BUFFER:
      log = optionValues[i];
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      logSize = (size_t)(uintptr_t)optionValues[i];
      break;
    default:
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  CUresult r = load(module, image, 1, optLevel);
  if (r != CUDA_SUCCESS && log && logSize > 0)
    snprintf(log, logSize, "fake ptxas: the image does not compile for sm_%d", cc);
  return r;
}

CUresult cuModuleUnload(CUmodule module) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (module < modules || module >= modules + module_count || !module->live)
    return CUDA_ERROR_INVALID_HANDLE;
  module->live = 0;
  trace("cuModuleUnload: module %d", module->id);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (module < modules || module >= modules + module_count || !module->live)
    return CUDA_ERROR_INVALID_HANDLE;
  char key[80];
  snprintf(key, sizeof key, " %s ", name);
  if (strlen(name) >= 64 || !strstr(module->kernels, key))
    return CUDA_ERROR_NOT_FOUND;
  pthread_mutex_lock(&lock);
  if (function_count == MAX_HANDLES) {
    pthread_mutex_unlock(&lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  struct CUfunc_st *f = &functions[function_count++];
  stats.getFunction++;
  pthread_mutex_unlock(&lock);
  f->module = module;
  snprintf(f->name, sizeof f->name, "%s", name);
  *function = f;
  return CUDA_SUCCESS;
}

/* Runs f on the host, one thread after another, with the CPU build of the same kernel. */
static CUresult run(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                    unsigned smem, void **params) {
  static void *kernels;
  const char *path = getenv("FAKE_CUDA_KERNELS");
  if (!kernels && (!path || !(kernels = dlopen(path, RTLD_NOW | RTLD_LOCAL)))) {
    trace("FAKE_CUDA_KERNELS does not name a loadable kernel library: %s", path ? dlerror() : "unset");
    return CUDA_ERROR_NOT_FOUND;
  }
  void (*kernel)(void **, const mgpuCpuGrid *);
  *(void **)&kernel = dlsym(kernels, f->name);
  if (!kernel) {
    trace("no host build of kernel %s", f->name);
    return CUDA_ERROR_NOT_FOUND;
  }
  mgpuCpuGrid g = {{gx, gy, gz}, {bx, by, bz}, {0, 0, 0}, {0, 0, 0}, NULL};
  char *shared = smem ? malloc(smem) : NULL;
  g.sharedMemory = shared;
  for (g.blockIdx[2] = 0; g.blockIdx[2] < gz; g.blockIdx[2]++)
    for (g.blockIdx[1] = 0; g.blockIdx[1] < gy; g.blockIdx[1]++)
      for (g.blockIdx[0] = 0; g.blockIdx[0] < gx; g.blockIdx[0]++)
        for (g.threadIdx[2] = 0; g.threadIdx[2] < bz; g.threadIdx[2]++)
          for (g.threadIdx[1] = 0; g.threadIdx[1] < by; g.threadIdx[1]++)
            for (g.threadIdx[0] = 0; g.threadIdx[0] < bx; g.threadIdx[0]++)
              kernel(params, &g);
  free(shared);
  return CUDA_SUCCESS;
}

static CUresult launch(const char *call, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned smem, CUstream stream, void **params, void **extra,
                       const char *cluster) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (f < functions || f >= functions + function_count || !f->module->live || !stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  if (gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024 || params == NULL || extra != NULL)
    return CUDA_ERROR_INVALID_VALUE;
  trace("%s: %s grid %u,%u,%u block %u,%u,%u%s smem %u stream %s", call, f->name, gx, gy, gz, bx, by, bz, cluster,
        smem, stream_name(stream));
  __atomic_fetch_add(&stats.launches, 1, __ATOMIC_RELAXED);
  return run(f, gx, gy, gz, bx, by, bz, smem, params);
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params,
                        void **extra) {
  return launch("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, smem, stream, params, extra, "");
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra) {
  char cluster[64] = "";
  for (unsigned i = 0; i < config->numAttrs; i++) {
    const CUlaunchAttribute *a = &config->attrs[i];
    if (a->id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      return CUDA_ERROR_INVALID_VALUE;
    unsigned x = a->value.clusterDim.x, y = a->value.clusterDim.y, z = a->value.clusterDim.z;
    if (cc < 90 || x * y * z == 0 || x * y * z > 8 || config->gridDimX % x || config->gridDimY % y ||
        config->gridDimZ % z)
      return CUDA_ERROR_INVALID_VALUE;
    snprintf(cluster, sizeof cluster, " cluster %u,%u,%u", x, y, z);
  }
  return launch("cuLaunchKernelEx", f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                config->blockDimY, config->blockDimZ, config->sharedMemBytes, config->hStream, params, extra,
                cluster);
}

CUresult cuStreamCreate(CUstream *stream, unsigned int flags) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (flags > 1)
    return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  if (stream_count == MAX_HANDLES) {
    pthread_mutex_unlock(&lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  struct CUstream_st *s = &streams[stream_count++];
  s->id = stream_count;
  s->live = 1;
  stats.streamsCreated++;
  pthread_mutex_unlock(&lock);
  trace("cuStreamCreate: s%d%s", s->id, flags ? " non-blocking" : "");
  *stream = s;
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream stream) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (stream == NULL || !stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  stream->live = 0;
  stats.streamsDestroyed++;
  trace("cuStreamDestroy: s%d", stream->id);
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (!stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  __atomic_fetch_add(&stats.syncs, 1, __ATOMIC_RELAXED);
  trace("cuStreamSynchronize: %s", stream_name(stream));
  return CUDA_SUCCESS;
}

static int event_ok(CUevent e) { return e >= events && e < events + event_count && e->live; }

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (!stream_ok(stream) || !event_ok(event) || flags != 0)
    return CUDA_ERROR_INVALID_HANDLE;
  trace("cuStreamWaitEvent: %s waits for e%d%s", stream_name(stream), event->id,
        event->recorded ? "" : " (never recorded)");
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned int flags) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  pthread_mutex_lock(&lock);
  if (event_count == MAX_HANDLES) {
    pthread_mutex_unlock(&lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  struct CUevent_st *e = &events[event_count++];
  e->id = event_count;
  e->live = 1;
  pthread_mutex_unlock(&lock);
  trace("cuEventCreate: e%d%s", e->id, flags & 2 ? " without timing" : "");
  *event = e;
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent event) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (!event_ok(event))
    return CUDA_ERROR_INVALID_HANDLE;
  event->live = 0;
  trace("cuEventDestroy: e%d", event->id);
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (!event_ok(event))
    return CUDA_ERROR_INVALID_HANDLE;
  trace("cuEventSynchronize: e%d", event->id);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (!event_ok(event) || !stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  event->recorded = 1;
  trace("cuEventRecord: e%d on %s", event->id, stream_name(stream));
  return CUDA_SUCCESS;
}

static CUresult allocate(CUdeviceptr *p, size_t size, int managed) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (p == NULL || size == 0)
    return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  if (buffer_count == MAX_HANDLES) {
    pthread_mutex_unlock(&lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  int i = buffer_count++;
  buffers[i].base = aligned_alloc(256, (size + 255) / 256 * 256);
  buffers[i].size = size;
  buffers[i].id = buffer_count;
  buffers[i].live = 1;
  buffers[i].managed = managed;
  stats.live++;
  pthread_mutex_unlock(&lock);
  trace("%s: m%d, %zu bytes", managed ? "cuMemAllocManaged" : "cuMemAlloc", buffers[i].id, size);
  *p = (CUdeviceptr)(uintptr_t)buffers[i].base;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) { return allocate(p, size, 0); }

CUresult cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned int flags) {
  if (flags != 1 && flags != 2)
    return CUDA_ERROR_INVALID_VALUE;
  return allocate(p, size, 1);
}

CUresult cuMemFree_v2(CUdeviceptr p) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  pthread_mutex_lock(&lock);
  int i = buffer_of((void *)(uintptr_t)p);
  if (i < 0 || buffers[i].base != (char *)(uintptr_t)p) {
    pthread_mutex_unlock(&lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  buffers[i].live = 0;
  stats.live--;
  pthread_mutex_unlock(&lock);
  free(buffers[i].base);
  trace("cuMemFree: m%d", buffers[i].id);
  return CUDA_SUCCESS;
}

/* Both ends must lie within one allocation or both outside (host memory, as unified addressing allows). */
static int span_ok(const void *p, size_t n) { return n == 0 || buffer_of(p) == buffer_of((const char *)p + n - 1); }

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  void *d = (void *)(uintptr_t)dst, *s = (void *)(uintptr_t)src;
  if (!stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  if (!span_ok(d, n) || !span_ok(s, n))
    return CUDA_ERROR_INVALID_VALUE;
  trace("cuMemcpyAsync: %s <- %s, %zu bytes, stream %s", where(d), where(s), n, stream_name(stream));
  memmove(d, s, n);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  uint32_t *d = (uint32_t *)(uintptr_t)dst;
  if (!stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  if (buffer_of(d) < 0 || !span_ok(d, count * 4))
    return CUDA_ERROR_INVALID_VALUE;
  trace("cuMemsetD32Async: %s, %zu x 0x%x, stream %s", where(d), count, value, stream_name(stream));
  for (size_t i = 0; i < count; i++)
    d[i] = value;
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, size_t count) {
  return cuMemsetD32Async(dst, value, count, NULL);
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  const void *s = (const void *)(uintptr_t)src;
  if (buffer_of(s) < 0 || !span_ok(s, n))
    return CUDA_ERROR_INVALID_VALUE;
  trace("cuMemcpyDtoH: host <- %s, %zu bytes", where(s), n);
  memcpy(dst, s, n);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  uint16_t *d = (uint16_t *)(uintptr_t)dst;
  if (!stream_ok(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  if (buffer_of(d) < 0 || !span_ok(d, count * 2))
    return CUDA_ERROR_INVALID_VALUE;
  trace("cuMemsetD16Async: %s, %zu x 0x%x, stream %s", where(d), count, value, stream_name(stream));
  for (size_t i = 0; i < count; i++)
    d[i] = value;
  return CUDA_SUCCESS;
}

CUresult cuMemHostRegister_v2(void *p, size_t size, unsigned int flags) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (p == NULL || size == 0 || buffer_of(p) >= 0)
    return CUDA_ERROR_INVALID_VALUE;
  trace("cuMemHostRegister: %zu bytes, flags %u", size, flags);
  return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *p) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  trace("cuMemHostUnregister");
  return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch ((int)error) {
  case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; break;
  case CUDA_ERROR_INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; break;
  case CUDA_ERROR_NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; break;
  case CUDA_ERROR_INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; break;
  case CUDA_ERROR_INVALID_IMAGE: *name = "CUDA_ERROR_INVALID_IMAGE"; break;
  case CUDA_ERROR_INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU: *name = "CUDA_ERROR_NO_BINARY_FOR_GPU"; break;
  case CUDA_ERROR_INVALID_PTX: *name = "CUDA_ERROR_INVALID_PTX"; break;
  case CUDA_ERROR_INVALID_HANDLE: *name = "CUDA_ERROR_INVALID_HANDLE"; break;
  case CUDA_ERROR_NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; break;
  default: *name = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
