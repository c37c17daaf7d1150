/* libmgpu core: backend choice, the public ABI, cached and selected module loading. */
#define _GNU_SOURCE
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

volatile int mgpu_shutting_down = 0;

__attribute__((destructor)) static void mgpu_on_exit(void) { mgpu_shutting_down = 1; }

void mgpu_report(const char *backend, const char *call, const char *error) {
  if (mgpu_shutting_down)
    return;
  fprintf(stderr, "mgpu: %s: %s failed: %s\n", backend, call, error);
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
  if (getenv("MGPU_VERBOSE") && atoi(getenv("MGPU_VERBOSE")) > 0)
    fprintf(stderr, "mgpu: using the %s backend\n", backend->name);
}

const mgpu_backend *mgpu_backend_get(void) {
  pthread_once(&backend_once, choose);
  return backend;
}

int mgpu_current_device(void) { return atomic_load_explicit(&current_device, memory_order_relaxed); }

const char *mgpuBackendName(void) { return mgpu_backend_get()->name; }

static _Atomic(void *) default_streams[64];
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

void *mgpuModuleLoad(void *data, size_t size) { return mgpu_backend_get()->module_load(data, size); }

void *mgpuModuleLoadJIT(void *data, int optLevel, size_t size) {
  return mgpu_backend_get()->module_load_jit(data, optLevel, size);
}

void mgpuModuleUnload(void *module) {
  if (module)
    mgpu_backend_get()->module_unload(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  return mgpu_backend_get()->module_function(module, name);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                      intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params,
                      void **extra, size_t paramsCount) {
  (void)paramsCount;
  mgpu_backend_get()->launch(function, 0, 0, 0, gridX, gridY, gridZ, blockX, blockY, blockZ, smem, stream,
                             params, extra);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                             intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount) {
  (void)paramsCount;
  mgpu_backend_get()->launch(function, clusterX, clusterY, clusterZ, gridX, gridY, gridZ, blockX, blockY,
                             blockZ, smem, stream, params, extra);
}

void *mgpuStreamCreate(void) { return mgpu_backend_get()->stream_create(); }
void mgpuStreamDestroy(void *stream) { mgpu_backend_get()->stream_destroy(stream); }
void mgpuStreamSynchronize(void *stream) { mgpu_backend_get()->stream_sync(stream); }
void mgpuStreamWaitEvent(void *stream, void *event) { mgpu_backend_get()->stream_wait_event(stream, event); }
void *mgpuEventCreate(void) { return mgpu_backend_get()->event_create(); }
void mgpuEventDestroy(void *event) { mgpu_backend_get()->event_destroy(event); }
void mgpuEventSynchronize(void *event) { mgpu_backend_get()->event_sync(event); }
void mgpuEventRecord(void *event, void *stream) { mgpu_backend_get()->event_record(event, stream); }

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  return mgpu_backend_get()->mem_alloc(sizeBytes, stream, isHostShared);
}
void mgpuMemFree(void *ptr, void *stream) {
  if (ptr)
    mgpu_backend_get()->mem_free(ptr, stream);
}
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  mgpu_backend_get()->memcpy(dst, src, sizeBytes, stream);
}
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  mgpu_backend_get()->memset32(dst, value, count, stream);
}
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  mgpu_backend_get()->memset16(dst, value, count, stream);
}
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) { mgpu_backend_get()->host_register(ptr, sizeBytes); }
void mgpuMemHostUnregister(void *ptr) { mgpu_backend_get()->host_unregister(ptr); }

/* The bytes a ranked memref descriptor {allocated, aligned, offset, sizes[r], strides[r]} spans. */
static void memref_extent(int64_t rank, void *descriptor, int64_t elementSize, void **base, uint64_t *bytes) {
  char *d = descriptor;
  char *aligned = *(char **)(d + sizeof(void *));
  int64_t offset = *(int64_t *)(d + 2 * sizeof(void *));
  const int64_t *sizes = (const int64_t *)(d + 2 * sizeof(void *) + sizeof(int64_t));
  const int64_t *strides = sizes + rank;
  int64_t span = 1;
  for (int64_t i = 0; i < rank; i++)
    if (sizes[i] > 0)
      span += (sizes[i] - 1) * strides[i];
  *base = aligned + offset * elementSize;
  *bytes = (uint64_t)(span * elementSize);
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes) {
  void *base;
  uint64_t bytes;
  memref_extent(rank, descriptor, elementSizeBytes, &base, &bytes);
  mgpuMemHostRegister(base, bytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes) {
  void *base;
  uint64_t bytes;
  memref_extent(rank, descriptor, elementSizeBytes, &base, &bytes);
  mgpuMemHostUnregister(base);
}

/* ------------------------------------------------------------------ cached loading */

#define MGPU_MAX_DEVICES 64
#define MGPU_MAX_SLOTS 4096

typedef struct module_cache {
  void *modules[MGPU_MAX_DEVICES];
  const mgpuObject *chosen[MGPU_MAX_DEVICES];
} module_cache;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static void **slots[MGPU_MAX_SLOTS];
static int slot_count;

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

static void remember_slot(void **slot) {
  for (int i = 0; i < slot_count; i++)
    if (slots[i] == slot)
      return;
  if (slot_count < MGPU_MAX_SLOTS)
    slots[slot_count++] = slot;
}

static void *finish_lookup(void *module, const char *name, void **slot) {
  /* Threads that raced to the first launch wait for the lock; the first one through has filled the slot. */
  void *fn = slot ? atomic_load_explicit((_Atomic(void *) *)slot, memory_order_acquire) : NULL;
  if (fn)
    return fn;
  fn = module ? mgpu_backend_get()->module_function(module, name) : NULL;
  if (fn && slot) {
    remember_slot(slot);
    atomic_store_explicit((_Atomic(void *) *)slot, fn, memory_order_release);
  }
  return fn;
}

void *mgpuModuleGetFunctionLazy(void **moduleCache, const void *data, size_t size, int32_t jitOptLevel,
                                const char *name, void **functionSlot) {
  const mgpu_backend *b = mgpu_backend_get();
  pthread_mutex_lock(&cache_lock);
  module_cache *c = cache_of(moduleCache);
  int dev = mgpu_current_device();
  if (!c->modules[dev])
    c->modules[dev] = jitOptLevel >= 0 ? b->module_load_jit(data, jitOptLevel, size) : b->module_load(data, size);
  void *fn = finish_lookup(c->modules[dev], name, functionSlot);
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
  const mgpu_backend *b = mgpu_backend_get();
  pthread_mutex_lock(&cache_lock);
  module_cache *c = cache_of(moduleCache);
  int dev = mgpu_current_device();
  if (!c->modules[dev]) {
    mgpu_device_info info;
    memset(&info, 0, sizeof info);
    b->device_info(dev, &info);
    const mgpuObject *o = mgpuSelectObject(table, b->kind, info.chip, info.ccMajor, info.ccMinor);
    if (!o) {
      fprintf(stderr, "mgpu: no object of binary '%s' fits device %d (%s backend: %s%s%s); the binary holds:",
              table->binaryName, dev, b->name, info.name, *info.chip ? ", " : "", info.chip);
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
              *info.chip ? info.chip : info.name, kind_name(o->kind), *o->chip ? " " : "", o->chip,
              format_name(o->format));
    c->chosen[dev] = o;
    c->modules[dev] = o->format == MGPU_FORMAT_ASSEMBLY && o->jitOptLevel >= 0
                          ? b->module_load_jit(o->data, o->jitOptLevel, (size_t)o->size)
                          : b->module_load(o->data, (size_t)o->size);
  }
  void *fn = finish_lookup(c->modules[dev], name, functionSlot);
  pthread_mutex_unlock(&cache_lock);
  return fn;
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device < 0 || device >= MGPU_MAX_DEVICES) {
    fprintf(stderr, "mgpu: invalid device (must be 0 to %d): %d\n", MGPU_MAX_DEVICES - 1, device);
    return;
  }
  const mgpu_backend *b = mgpu_backend_get();
  pthread_mutex_lock(&cache_lock);
  if (device != mgpu_current_device()) {
    b->set_device(device);
    atomic_store(&current_device, device);
    /* Cached handles belong to the previous device; generated code re-resolves them. */
    for (int i = 0; i < slot_count; i++)
      atomic_store_explicit((_Atomic(void *) *)slots[i], NULL, memory_order_release);
  }
  pthread_mutex_unlock(&cache_lock);
}
