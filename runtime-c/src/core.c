/* libmgpu core: backend choice, the public ABI, cached and selected module loading. */
#define _GNU_SOURCE
#include "internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

volatile int mgpu_shutting_down = 0;

__attribute__((destructor)) static void mgpu_on_exit(void) { mgpu_shutting_down = 1; }

/* The cause of the last failure reported on this thread, and how many there were. */
static _Thread_local char last_cause[1024];
static _Thread_local unsigned long reported;

/* The ABI function the thread is in. Only the outermost one counts: mgpuMemHostRegisterMemRef calling
 * mgpuMemHostRegister reports under the name the program called. */
static _Thread_local const char *entry;

static const char *entry_begin(const char *fn) {
  const char *outer = entry;
  if (!outer)
    entry = fn;
  return outer;
}

static void entry_end(const char **outer) {
  if (!*outer)
    entry = NULL;
}

/* Opens every ABI function, so that errors deep in a backend name the function the program called. */
#define ENTRY() __attribute__((cleanup(entry_end))) const char *entry_outer_ = entry_begin(__func__)

void mgpu_report(const char *backend, const char *call, const char *fmt, ...) {
  if (mgpu_shutting_down)
    return;
  /* One write per line, so that reports from several threads do not interleave. */
  char cause[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cause, sizeof cause, fmt, ap);
  va_end(ap);
  fprintf(stderr, "mgpu: %s: %s%s%s failed: %s\n", backend, entry ? entry : "", entry && call ? ": " : "",
          call ? call : "", cause);
  snprintf(last_cause, sizeof last_cause, "%s%s%s", call ? call : "", call ? " failed: " : "", cause);
  reported++;
}

/* MGPU_ON_ERROR: "abort" (the default) ends the process after a failed load, function lookup or launch, so
 * that a program never goes on with what a kernel did not compute; "continue" reports and goes on. */
static bool continue_on_error(void) {
  static _Atomic int mode; /* 0: not read yet; 1: abort; 2: continue */
  int m = atomic_load_explicit(&mode, memory_order_relaxed);
  if (!m) {
    const char *v = getenv("MGPU_ON_ERROR");
    if (!v || !*v || strcmp(v, "abort") == 0) {
      m = 1;
    } else if (strcmp(v, "continue") == 0) {
      m = 2;
    } else {
      fprintf(stderr, "mgpu: invalid MGPU_ON_ERROR (must be abort or continue): %s\n", v);
      abort();
    }
    atomic_store_explicit(&mode, m, memory_order_relaxed);
  }
  return m == 2;
}

/* Ends the process, naming the mgpu function, what failed and the cause the last report on this thread
 * gave; unless MGPU_ON_ERROR=continue. */
static void fail_fast(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail_fast(const char *fmt, ...) {
  if (mgpu_shutting_down || continue_on_error())
    return;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "mgpu: %s: %s: %s: %s; aborting (MGPU_ON_ERROR=continue reports and goes on)\n",
          mgpu_backend_get()->name, entry ? entry : "?", what, *last_cause ? last_cause : "no cause reported");
  fflush(NULL); /* what the program printed before stays */
  abort();
}

static pthread_once_t backend_once = PTHREAD_ONCE_INIT;
static const mgpu_backend *backend;
static _Atomic int current_device;

static const mgpu_backend *pick(const char *want) {
  const char *why = "";
  if (strcmp(want, "cuda") == 0 || strcmp(want, "hip") == 0 || strcmp(want, "cpu") == 0) {
    const mgpu_backend *b = strcmp(want, "cuda") == 0  ? &mgpu_cuda_backend
                            : strcmp(want, "hip") == 0 ? &mgpu_hip_backend
                                                       : &mgpu_cpu_backend;
    if (b->probe(&why) <= 0) {
      fprintf(stderr, "mgpu: MGPU_BACKEND=%s was chosen, but it has no device: %s\n", want, why);
      abort();
    }
    return b;
  }
  if (strcmp(want, "auto") != 0) {
    fprintf(stderr, "mgpu: invalid MGPU_BACKEND (must be cuda, hip, cpu or auto): %s\n", want);
    abort();
  }
  if (mgpu_cuda_backend.probe(&why) > 0)
    return &mgpu_cuda_backend;
  if (mgpu_hip_backend.probe(&why) > 0)
    return &mgpu_hip_backend;
  return &mgpu_cpu_backend;
}

static void choose(void) {
  const char *want = getenv("MGPU_BACKEND");
  backend = pick(want && *want ? want : "auto");
  (void)continue_on_error(); /* an invalid MGPU_ON_ERROR is said before anything runs */
  if (getenv("MGPU_VERBOSE") && atoi(getenv("MGPU_VERBOSE")) > 0)
    fprintf(stderr, "mgpu: using the %s backend\n", backend->name);
}

const mgpu_backend *mgpu_backend_get(void) {
  pthread_once(&backend_once, choose);
  return backend;
}

int mgpu_current_device(void) { return atomic_load_explicit(&current_device, memory_order_relaxed); }

const char *mgpuBackendName(void) { return mgpu_backend_get()->name; }

static _Atomic(void *) default_streams[MGPU_MAX_DEVICES];
static pthread_mutex_t default_stream_lock = PTHREAD_MUTEX_INITIALIZER;

void *mgpu_default_stream(int device, void *(*create)(void)) {
  void *s = atomic_load_explicit(&default_streams[device], memory_order_acquire);
  if (!s) {
    pthread_mutex_lock(&default_stream_lock);
    s = atomic_load(&default_streams[device]);
    if (!s) {
      s = create();
      atomic_store_explicit(&default_streams[device], s, memory_order_release);
    }
    pthread_mutex_unlock(&default_stream_lock);
  }
  return s;
}

/* ------------------------------------------------------------------ pass-through ABI */

/* The kernels looked up so far, by handle, so that a failed launch names its kernel and module. */
typedef struct known_kernel {
  void *fn;
  char *name, *module;
  struct known_kernel *next;
} known_kernel;
static known_kernel *known[256];
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember_kernel(void *fn, const char *name, const char *module) {
  if (!fn)
    return;
  known_kernel **bucket = &known[((uintptr_t)fn >> 4) % 256];
  pthread_mutex_lock(&known_lock);
  known_kernel *k = *bucket;
  while (k && k->fn != fn)
    k = k->next;
  if (!k && (k = calloc(1, sizeof *k)) != NULL) {
    k->fn = fn;
    k->next = *bucket;
    *bucket = k;
  }
  if (k && (!k->name || strcmp(k->name, name) != 0 || strcmp(k->module, module) != 0)) {
    free(k->name);
    free(k->module);
    k->name = strdup(name);
    k->module = strdup(module);
  }
  pthread_mutex_unlock(&known_lock);
}

/* "kernel 'k' of <module>" for a handle looked up before, else the handle. */
static const char *kernel_text(void *fn, char *out, size_t n) {
  pthread_mutex_lock(&known_lock);
  known_kernel *k = known[((uintptr_t)fn >> 4) % 256];
  while (k && k->fn != fn)
    k = k->next;
  if (!fn)
    snprintf(out, n, "no kernel (the function handle is NULL)");
  else if (k && k->name && k->module)
    snprintf(out, n, "kernel '%s' of %s", k->name, k->module);
  else
    snprintf(out, n, "the kernel at %p", fn);
  pthread_mutex_unlock(&known_lock);
  return out;
}

void *mgpuModuleLoad(void *data, size_t size) {
  ENTRY();
  void *m = mgpu_backend_get()->module_load(data, size);
  if (!m)
    fail_fast("the module of %zu bytes did not load", size);
  return m;
}

void *mgpuModuleLoadJIT(void *data, int optLevel, size_t size) {
  ENTRY();
  void *m = mgpu_backend_get()->module_load_jit(data, optLevel, size);
  if (!m)
    fail_fast("the module of %zu bytes did not load", size);
  return m;
}

void mgpuModuleUnload(void *module) {
  ENTRY();
  if (module)
    mgpu_backend_get()->module_unload(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  ENTRY();
  void *fn = mgpu_backend_get()->module_function(module, name);
  char text[64];
  snprintf(text, sizeof text, "the module at %p", module);
  if (!fn)
    fail_fast("kernel '%s' of %s was not found", name ? name : "(null)", text);
  remember_kernel(fn, name, text);
  return fn;
}

/* ------------------------------------------------------------------ launches */

static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;
static mgpu_device_info infos[MGPU_MAX_DEVICES];
/* 0: not asked yet; 1: infos[d] holds the answer; -1: the query failed, and said why, once. */
static _Atomic int info_state[MGPU_MAX_DEVICES];

/* What the backend says about device `dev`, asked once; NULL when it could not say. */
static const mgpu_device_info *device_info(const mgpu_backend *b, int dev) {
  int state = atomic_load_explicit(&info_state[dev], memory_order_acquire);
  if (state == 0) {
    pthread_mutex_lock(&info_lock);
    state = atomic_load_explicit(&info_state[dev], memory_order_relaxed);
    if (state == 0) {
      memset(&infos[dev], 0, sizeof infos[dev]);
      state = b->device_info(dev, &infos[dev]) == 0 ? 1 : -1;
      atomic_store_explicit(&info_state[dev], state, memory_order_release);
    }
    pthread_mutex_unlock(&info_lock);
  }
  return state > 0 ? &infos[dev] : NULL;
}

typedef char dims_text[72];

static const char *dims(dims_text out, const intptr_t d[3]) {
  snprintf(out, sizeof(dims_text), "%" PRIdPTR ",%" PRIdPTR ",%" PRIdPTR, d[0], d[1], d[2]);
  return out;
}

/* The element count of `d`; false when a size is below 1 or the count overflows, after saying so. */
static bool count_of(const mgpu_backend *b, const char *what, const char *unit, const intptr_t d[3],
                     int64_t *count) {
  dims_text t;
  if (d[0] < 1 || d[1] < 1 || d[2] < 1) {
    mgpu_report(b->name, NULL, "%s %s has a size below 1", what, dims(t, d));
    return false;
  }
  if (__builtin_mul_overflow((int64_t)d[0], (int64_t)d[1], count) ||
      __builtin_mul_overflow(*count, (int64_t)d[2], count)) {
    mgpu_report(b->name, NULL, "%s %s has more %s than 64 bits count", what, dims(t, d), unit);
    return false;
  }
  return true;
}

/* Whether `d` stays within `limit` (0: none) in every dimension; says so when not. */
static bool within(const mgpu_backend *b, const char *what, const intptr_t d[3], const int64_t limit[3], int dev,
                   const mgpu_device_info *info) {
  if ((limit[0] && d[0] > limit[0]) || (limit[1] && d[1] > limit[1]) || (limit[2] && d[2] > limit[2])) {
    dims_text t;
    mgpu_report(b->name, NULL, "%s %s exceeds the largest %s of device %d (%s), %" PRId64 ",%" PRId64 ",%" PRId64,
                what, dims(t, d), what, dev, info->name, limit[0], limit[1], limit[2]);
    return false;
  }
  return true;
}

/* A launch the backend can run as asked: sizes of at least 1, counts that fit 64 bits, the device's limits. */
static bool launch_ok(const mgpu_backend *b, const intptr_t grid[3], const intptr_t block[3], int32_t smem) {
  int64_t blocks, threads;
  if (!count_of(b, "grid", "blocks", grid, &blocks) || !count_of(b, "block", "threads", block, &threads))
    return false;
  if (smem < 0) {
    mgpu_report(b->name, NULL, "dynamic shared memory of %" PRId32 " bytes", smem);
    return false;
  }
  /* The launch call takes each size as its parameter type; a larger one would wrap to another launch. */
  for (int i = 0; i < 3 && b->max_dimension; i++)
    if (grid[i] > b->max_dimension || block[i] > b->max_dimension) {
      dims_text g, k;
      mgpu_report(b->name, NULL, "grid %s block %s: the %s launch call takes sizes up to %" PRId64, dims(g, grid),
                  dims(k, block), b->name, b->max_dimension);
      return false;
    }
  int dev = mgpu_current_device();
  const mgpu_device_info *info = device_info(b, dev);
  if (!info)
    return true; /* the query's failure is reported; the driver still checks the launch */
  if (info->maxThreadsPerBlock && threads > info->maxThreadsPerBlock) {
    dims_text t;
    mgpu_report(b->name, NULL, "block %s has %" PRId64 " threads, more than the %" PRId64
                " a block may have on device %d (%s)", dims(t, block), threads, info->maxThreadsPerBlock, dev,
                info->name);
    return false;
  }
  return within(b, "block", block, info->maxBlock, dev, info) && within(b, "grid", grid, info->maxGrid, dev, info);
}

static void launch(intptr_t cx, intptr_t cy, intptr_t cz, void *function, const intptr_t grid[3],
                   const intptr_t block[3], int32_t smem, void *stream, void **params, void **extra,
                   size_t paramsCount) {
  const mgpu_backend *b = mgpu_backend_get();
  unsigned long before = reported;
  if (launch_ok(b, grid, block, smem))
    b->launch(function, cx, cy, cz, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, stream, params,
              extra, paramsCount);
  if (reported != before || !function) {
    char text[512];
    fail_fast("%s was not launched", kernel_text(function, text, sizeof text));
  }
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                      intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params,
                      void **extra, size_t paramsCount) {
  ENTRY();
  const intptr_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  launch(0, 0, 0, function, grid, block, smem, stream, params, extra, paramsCount);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                             intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount) {
  ENTRY();
  const intptr_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  launch(clusterX, clusterY, clusterZ, function, grid, block, smem, stream, params, extra, paramsCount);
}

/* ------------------------------------------------------------------ streams, events, memory */

void *mgpuStreamCreate(void) {
  ENTRY();
  return mgpu_backend_get()->stream_create();
}
void mgpuStreamDestroy(void *stream) {
  ENTRY();
  mgpu_backend_get()->stream_destroy(stream);
}
void mgpuStreamSynchronize(void *stream) {
  ENTRY();
  mgpu_backend_get()->stream_sync(stream);
}
void mgpuStreamWaitEvent(void *stream, void *event) {
  ENTRY();
  mgpu_backend_get()->stream_wait_event(stream, event);
}
void *mgpuEventCreate(void) {
  ENTRY();
  return mgpu_backend_get()->event_create();
}
void mgpuEventDestroy(void *event) {
  ENTRY();
  mgpu_backend_get()->event_destroy(event);
}
void mgpuEventSynchronize(void *event) {
  ENTRY();
  mgpu_backend_get()->event_sync(event);
}
void mgpuEventRecord(void *event, void *stream) {
  ENTRY();
  mgpu_backend_get()->event_record(event, stream);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  ENTRY();
  return mgpu_backend_get()->mem_alloc(sizeBytes, stream, isHostShared);
}
void mgpuMemFree(void *ptr, void *stream) {
  ENTRY();
  if (ptr)
    mgpu_backend_get()->mem_free(ptr, stream);
}
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  ENTRY();
  mgpu_backend_get()->memcpy(dst, src, sizeBytes, stream);
}
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  ENTRY();
  mgpu_backend_get()->memset32(dst, value, count, stream);
}
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  ENTRY();
  mgpu_backend_get()->memset16(dst, value, count, stream);
}
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ENTRY();
  mgpu_backend_get()->host_register(ptr, sizeBytes);
}
void mgpuMemHostUnregister(void *ptr) {
  ENTRY();
  mgpu_backend_get()->host_unregister(ptr);
}

/* The bytes a ranked memref descriptor {allocated, aligned, offset, sizes[r], strides[r]} spans; false, after
 * saying so, when that does not fit 64 bits or a stride is negative. */
static bool memref_extent(int64_t rank, void *descriptor, int64_t elementSize, void **base, uint64_t *bytes) {
  char *d = descriptor;
  char *aligned = *(char **)(d + sizeof(void *));
  int64_t offset = *(int64_t *)(d + 2 * sizeof(void *));
  const int64_t *sizes = (const int64_t *)(d + 2 * sizeof(void *) + sizeof(int64_t));
  const int64_t *strides = sizes + rank;
  int64_t span = 1, at = 0;
  bool overflow = elementSize < 1 || __builtin_mul_overflow(offset, elementSize, &at);
  for (int64_t i = 0; i < rank && !overflow; i++) {
    int64_t reach;
    if (sizes[i] > 0)
      overflow = strides[i] < 0 || __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach) ||
                 __builtin_add_overflow(span, reach, &span);
  }
  int64_t total;
  if (overflow || __builtin_mul_overflow(span, elementSize, &total)) {
    char text[256] = "";
    size_t used = 0;
    for (int64_t i = 0; i < rank && used < sizeof text; i++)
      used += (size_t)snprintf(text + used, sizeof text - used, "%s%" PRId64 " x %" PRId64, i ? ", " : "", sizes[i],
                               strides[i]);
    mgpu_report(mgpu_backend_get()->name, NULL,
                "the memref's extent (sizes x strides: %s; offset %" PRId64 ", %" PRId64 "-byte elements) does not "
                "fit 64 bits", text, offset, elementSize);
    return false;
  }
  *base = aligned + at;
  *bytes = (uint64_t)total;
  return true;
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes) {
  ENTRY();
  void *base;
  uint64_t bytes;
  if (memref_extent(rank, descriptor, elementSizeBytes, &base, &bytes))
    mgpuMemHostRegister(base, bytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes) {
  ENTRY();
  void *base;
  uint64_t bytes;
  if (memref_extent(rank, descriptor, elementSizeBytes, &base, &bytes))
    mgpuMemHostUnregister(base);
}

static void *device_pointer(void *aligned) {
  return mgpu_backend_get()->host_device_pointer(aligned);
}

mgpuMemRef1dFloat mgpuMemGetDeviceMemRef1dFloat(float *allocated, float *aligned, int64_t offset, int64_t size,
                                                int64_t stride) {
  ENTRY();
  (void)allocated;
  float *device = device_pointer(aligned);
  return (mgpuMemRef1dFloat){device, device, offset, {size}, {stride}};
}

mgpuMemRef1dInt32 mgpuMemGetDeviceMemRef1dInt32(int32_t *allocated, int32_t *aligned, int64_t offset,
                                                int64_t size, int64_t stride) {
  ENTRY();
  (void)allocated;
  int32_t *device = device_pointer(aligned);
  return (mgpuMemRef1dInt32){device, device, offset, {size}, {stride}};
}

/* ------------------------------------------------------------------ tensor maps */

/* The backend, when it has tensor maps; NULL after saying that it has none. */
static const mgpu_backend *tensor_maps(void) {
  const mgpu_backend *b = mgpu_backend_get();
  if (!b->tensor_map_encode) {
    mgpu_report(b->name, NULL, "tensor maps are a CUDA feature (compute capability 9.0 and later); the %s backend "
                "has none", b->name);
    return NULL;
  }
  return b;
}

void mgpuTensorMapEncodeTiled(void *tensorMap, int32_t dataType, uint32_t rank, void *globalAddress,
                              const uint64_t *globalDim, const uint64_t *globalStrides, const uint32_t *boxDim,
                              const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
                              int32_t l2Promotion, int32_t oobFill) {
  ENTRY();
  const mgpu_backend *b = tensor_maps();
  if (b)
    b->tensor_map_encode(tensorMap, dataType, rank, globalAddress, globalDim, globalStrides, boxDim, elementStrides,
                         interleave, swizzle, l2Promotion, oobFill);
}

void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor, int32_t dataType, int32_t interleave,
                                     int32_t swizzle, int32_t l2Promotion, int32_t oobFill, int64_t *boxDims) {
  ENTRY();
  /* CUtensorMapDataType's element sizes: uint8, uint16, uint32, int32, uint64, int64, float16, float32, float64,
   * bfloat16, float32_ftz, tfloat32, tfloat32_ftz. */
  static const uint64_t elementSize[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  const mgpu_backend *b = tensor_maps();
  if (!b)
    return NULL;
  if (rank < 1 || rank > 5 || dataType < 0 || dataType >= (int32_t)(sizeof elementSize / sizeof *elementSize)) {
    mgpu_report(b->name, NULL, "a tensor map of rank %" PRId64 " and data type %" PRId32 " (must be of rank 1 to 5 "
                "and a CUtensorMapDataType)", rank, dataType);
    return NULL;
  }
  char *d = descriptor;
  void *aligned = *(void **)(d + sizeof(void *));
  const int64_t *sizes = (const int64_t *)(d + 2 * sizeof(void *) + sizeof(int64_t)), *strides = sizes + rank;
  /* The driver counts dimensions innermost first, the memref outermost first. */
  uint64_t dims[5] = {0}, byteStrides[5] = {0};
  uint32_t box[5] = {0}, elementStrides[5] = {0};
  for (int64_t i = 0; i < rank; i++) {
    dims[i] = (uint64_t)sizes[rank - 1 - i];
    box[i] = (uint32_t)boxDims[rank - 1 - i];
    elementStrides[i] = 1;
    if (i < rank - 1)
      byteStrides[i] = (uint64_t)strides[rank - 2 - i] * elementSize[dataType];
  }
  _Alignas(64) unsigned char map[128];
  if (!b->tensor_map_encode(map, dataType, (uint32_t)rank, aligned, dims, byteStrides, box, elementStrides, interleave,
                            swizzle, l2Promotion, oobFill))
    return NULL;
  void *device = b->mem_alloc(sizeof map, NULL, false);
  if (device) {
    b->memcpy(device, map, sizeof map, NULL);
    b->stream_sync(NULL);
  }
  return device;
}

/* ------------------------------------------------------------------ cached loading */

typedef struct module_cache {
  void *modules[MGPU_MAX_DEVICES];
  const mgpuObject *chosen[MGPU_MAX_DEVICES];
} module_cache;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every function slot filled so far (under cache_lock), for mgpuSetDefaultDevice to clear; grows as needed. */
static void ***slots;
static size_t slot_count, slot_capacity;

static module_cache *cache_of(void **cell) {
  module_cache *c = atomic_load_explicit((_Atomic(module_cache *) *)cell, memory_order_acquire);
  if (!c) {
    c = calloc(1, sizeof(module_cache));
    if (!c) {
      fprintf(stderr, "mgpu: out of memory for a module cache\n");
      abort();
    }
    atomic_store_explicit((_Atomic(module_cache *) *)cell, c, memory_order_release);
  }
  return c;
}

/* Whether `slot` is on the list (already, or now); false when the list cannot grow, after saying so. */
static bool remember_slot(void **slot) {
  for (size_t i = 0; i < slot_count; i++)
    if (slots[i] == slot)
      return true;
  if (slot_count == slot_capacity) {
    size_t capacity = slot_capacity ? 2 * slot_capacity : 256;
    void ***grown = realloc(slots, capacity * sizeof *slots);
    if (!grown) {
      mgpu_report(mgpu_backend_get()->name, "realloc", "out of memory for %zu function slots; the handle is looked "
                  "up again at every launch", capacity);
      return false;
    }
    slots = grown;
    slot_capacity = capacity;
  }
  slots[slot_count++] = slot;
  return true;
}

/* Also ends the process (fail_fast) when `module` did not load or has no kernel `name`. */
static void *finish_lookup(void *module, const char *name, void **slot, const char *described) {
  /* Threads that raced to the first launch wait for the lock; the first one through has filled the slot. */
  void *fn = slot ? atomic_load_explicit((_Atomic(void *) *)slot, memory_order_acquire) : NULL;
  if (fn)
    return fn;
  fn = module ? mgpu_backend_get()->module_function(module, name) : NULL;
  if (!fn) {
    fail_fast("kernel '%s' of %s %s", name, described, module ? "was not found" : "did not load");
    return NULL;
  }
  remember_kernel(fn, name, described);
  /* A slot that mgpuSetDefaultDevice could not clear would keep another device's handle: leave it empty. */
  if (fn && slot && remember_slot(slot))
    atomic_store_explicit((_Atomic(void *) *)slot, fn, memory_order_release);
  return fn;
}

void *mgpuModuleGetFunctionLazy(void **moduleCache, const void *data, size_t size, int32_t jitOptLevel,
                                const char *name, void **functionSlot) {
  ENTRY();
  const mgpu_backend *b = mgpu_backend_get();
  pthread_mutex_lock(&cache_lock);
  module_cache *c = cache_of(moduleCache);
  int dev = mgpu_current_device();
  if (!c->modules[dev])
    c->modules[dev] = jitOptLevel >= 0 ? b->module_load_jit(data, jitOptLevel, size) : b->module_load(data, size);
  char module[64];
  snprintf(module, sizeof module, "a module of %zu bytes", size);
  void *fn = finish_lookup(c->modules[dev], name, functionSlot, module);
  pthread_mutex_unlock(&cache_lock);
  return fn;
}

static const char *kind_name(int kind) {
  return kind == MGPU_KIND_NVVM ? "nvvm" : kind == MGPU_KIND_ROCDL ? "rocdl" : kind == MGPU_KIND_CPU ? "cpu" : "?";
}

static const char *format_name(int format) {
  static const char *names[] = {"offload", "assembly", "bin", "fatbin"};
  return format >= 0 && format < 4 ? names[format] : "?";
}

/* "sm_90a" -> 90; -1 when not an sm_ name. */
static int sm_version(const char *chip) {
  if (strncmp(chip, "sm_", 3) != 0)
    return -1;
  return atoi(chip + 3);
}

const mgpuObject *mgpuSelectObject(const mgpuObjectTable *t, int32_t kind, const char *chip, int32_t ccMajor,
                                   int32_t ccMinor) {
  const mgpuObject *best = NULL;
  int rank = 0; /* higher is better */
  int bestVersion = -1;
  int dev = ccMajor * 10 + ccMinor;
  for (intptr_t i = 0; i < t->count; i++) {
    const mgpuObject *o = &t->objects[i];
    int r = 0, version = 0;
    if (kind == MGPU_KIND_NVVM && o->kind == MGPU_KIND_NVVM) {
      int v = sm_version(o->chip);
      bool binary = o->format == MGPU_FORMAT_BIN || o->format == MGPU_FORMAT_FATBIN;
      if (binary && strcmp(o->chip, chip) == 0)
        r = 4;
      else if (binary && v >= 0 && v / 10 == ccMajor && v % 10 <= ccMinor)
        r = 3, version = v;
      else if (o->format == MGPU_FORMAT_ASSEMBLY && v >= 0 && v <= dev)
        r = 2, version = v;
    } else if (kind == MGPU_KIND_ROCDL && o->kind == MGPU_KIND_ROCDL) {
      size_t n = strcspn(chip, ":");
      if (strncmp(o->chip, chip, n) == 0 && o->chip[n] == '\0')
        r = 4;
    } else if (kind == MGPU_KIND_CPU && o->kind == MGPU_KIND_CPU) {
      r = 1;
    }
    if (r > rank || (r == rank && r > 0 && version > bestVersion)) {
      best = o;
      rank = r;
      bestVersion = version;
    }
  }
  return best;
}

void *mgpuModuleGetFunctionSelect(void **moduleCache, const mgpuObjectTable *table, const char *name,
                                  void **functionSlot) {
  ENTRY();
  const mgpu_backend *b = mgpu_backend_get();
  pthread_mutex_lock(&cache_lock);
  module_cache *c = cache_of(moduleCache);
  int dev = mgpu_current_device();
  if (!c->modules[dev]) {
    const mgpu_device_info *info = device_info(b, dev);
    if (!info) {
      mgpu_report(b->name, NULL, "device %d could not be queried, so no object of binary '%s' is chosen", dev,
                  table->binaryName);
      fail_fast("kernel '%s' of binary '%s' did not load", name, table->binaryName);
      pthread_mutex_unlock(&cache_lock);
      return NULL;
    }
    const mgpuObject *o = mgpuSelectObject(table, b->kind, info->chip, info->ccMajor, info->ccMinor);
    if (!o) {
      fprintf(stderr, "mgpu: no object of binary '%s' fits device %d (%s backend: %s%s%s); the binary holds:",
              table->binaryName, dev, b->name, info->name, *info->chip ? ", " : "", info->chip);
      for (intptr_t i = 0; i < table->count; i++) {
        const mgpuObject *h = &table->objects[i];
        fprintf(stderr, "%s %s%s%s %s", i ? "," : "", kind_name(h->kind), *h->chip ? " " : "", h->chip,
                format_name(h->format));
      }
      fprintf(stderr, "\n");
      abort();
    }
    if (getenv("MGPU_VERBOSE") && atoi(getenv("MGPU_VERBOSE")) > 0)
      fprintf(stderr, "mgpu: binary '%s' on device %d (%s): selected %s%s%s %s\n", table->binaryName, dev,
              *info->chip ? info->chip : info->name, kind_name(o->kind), *o->chip ? " " : "", o->chip,
              format_name(o->format));
    c->chosen[dev] = o;
    c->modules[dev] = o->format == MGPU_FORMAT_ASSEMBLY && o->jitOptLevel >= 0
                          ? b->module_load_jit(o->data, o->jitOptLevel, (size_t)o->size)
                          : b->module_load(o->data, (size_t)o->size);
  }
  char binary[320];
  snprintf(binary, sizeof binary, "binary '%s'", table->binaryName ? table->binaryName : "?");
  void *fn = finish_lookup(c->modules[dev], name, functionSlot, binary);
  pthread_mutex_unlock(&cache_lock);
  return fn;
}

void mgpuSetDefaultDevice(int32_t device) {
  ENTRY();
  const mgpu_backend *b = mgpu_backend_get();
  const char *why;
  int count = b->probe(&why);
  if (device < 0 || device >= count) {
    mgpu_report(b->name, NULL, "device %" PRId32 " does not exist (the %s backend has %d device%s); the default "
                "device stays %d", device, b->name, count, count == 1 ? "" : "s", mgpu_current_device());
    return;
  }
  if (device >= MGPU_MAX_DEVICES) {
    mgpu_report(b->name, NULL, "device %" PRId32 " is beyond the %d devices libmgpu supports (the %s backend has "
                "%d); the default device stays %d", device, MGPU_MAX_DEVICES, b->name, count, mgpu_current_device());
    return;
  }
  pthread_mutex_lock(&cache_lock);
  if (device != mgpu_current_device()) {
    atomic_store(&current_device, device);
    /* Cached handles belong to the previous device; generated code re-resolves them. */
    for (size_t i = 0; i < slot_count; i++)
      atomic_store_explicit((_Atomic(void *) *)slots[i], NULL, memory_order_release);
  }
  pthread_mutex_unlock(&cache_lock);
}
