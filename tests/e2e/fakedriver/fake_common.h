/* What the stand-in drivers (fake_libcuda.c, fake_libamdhip64.c) share: the trace, the tables of handles,
 * device memory (host memory, tracked) and running a kernel on the host through its CPU build (mgpu.h's CPU
 * kernel ABI, from the shared object that FAKE_KERNELS names). Each driver includes it once, after
 * defining FAKE_NAME, the prefix of its trace lines ("fake-cuda"). */
#ifndef FAKE_COMMON_H
#define FAKE_COMMON_H

#include "mgpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HANDLES 256

/* Modules, streams and events belong to the device that was current when they were made, and only work
 * while it is current. */
typedef struct fake_module {
  int id, live, device;
  char kernels[256]; /* " name name" */
} fake_module;

typedef struct fake_function {
  fake_module *module;
  char name[64];
} fake_function;

typedef struct fake_stream {
  int id, live, device;
} fake_stream;

typedef struct fake_event {
  int id, live, recorded, device;
} fake_event;

/* The device current on the calling thread; each driver defines it. */
static int current_device(void);

/* " on device N" for a device other than 0, so that single-device traces stay short. */
static const char *on_device(int device) {
  static __thread char buf[32];
  if (device == 0)
    return "";
  snprintf(buf, sizeof buf, " on device %d", device);
  return buf;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialised;
static fake_module modules[MAX_HANDLES];
static fake_function functions[MAX_HANDLES];
static fake_stream streams[MAX_HANDLES];
static fake_event events[MAX_HANDLES];
static int module_count, function_count, stream_count, event_count;
static struct {
  char *base;
  size_t size;
  int id, live;
} buffers[MAX_HANDLES];
static int buffer_count;
static struct {
  int loads, jitLoads, getFunction, launches, syncs, streamsCreated, streamsDestroyed, live;
} stats;

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether FAKE_FAIL (a comma-separated list of API function names) asks `call` to fail, as a driver's call can
 * fail on a real machine; the caller then returns its API's invalid-value error. */
static int failing(const char *call) {
  const char *list = getenv("FAKE_FAIL");
  size_t n = strlen(call);
  for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
    if (strncmp(p, call, n) == 0 && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}
static void trace(const char *fmt, ...) {
  /* One write per line, so that lines from several threads do not interleave. */
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  n = n < 0 ? 0 : n > (int)sizeof line - 2 ? (int)sizeof line - 2 : n;
  line[n] = '\n';
  line[n + 1] = '\0';
  fprintf(stderr, "%s: %s", FAKE_NAME, line);
}

__attribute__((destructor)) static void summary(void) {
  if (!initialised)
    return;
  trace("summary: %d loads, %d JIT loads, %d function lookups, %d launches, %d stream syncs, %d streams created, "
        "%d destroyed, %d allocations live",
        stats.loads, stats.jitLoads, stats.getFunction, stats.launches, stats.syncs, stats.streamsCreated,
        stats.streamsDestroyed, stats.live);
}

/* Adds " <name>" to the space-separated kernel list `list` unless it is there already. */
static void add_kernel(char *list, size_t cap, const char *name, size_t len) {
  for (const char *p = strchr(list, ' '); p; p = strchr(p + 1, ' '))
    if (strncmp(p + 1, name, len) == 0 && (p[1 + len] == ' ' || p[1 + len] == '\0'))
      return;
  size_t used = strlen(list);
  if (used + len + 1 < cap)
    snprintf(list + used, cap - used, " %.*s", (int)len, name);
}

static int has_kernel(const fake_module *m, const char *name) {
  size_t len = strlen(name);
  for (const char *p = strchr(m->kernels, ' '); p; p = strchr(p + 1, ' '))
    if (strncmp(p + 1, name, len) == 0 && (p[1 + len] == ' ' || p[1 + len] == '\0'))
      return 1;
  return 0;
}

/* New handles; NULL when the table is full. */
static fake_module *new_module(const char *kernels, int jit) {
  pthread_mutex_lock(&lock);
  fake_module *m = module_count < MAX_HANDLES ? &modules[module_count++] : NULL;
  if (m) {
    m->id = module_count;
    m->live = 1;
    m->device = current_device();
    snprintf(m->kernels, sizeof m->kernels, "%s", kernels);
    if (jit)
      stats.jitLoads++;
    else
      stats.loads++;
  }
  pthread_mutex_unlock(&lock);
  return m;
}

static fake_function *new_function(fake_module *m, const char *name) {
  pthread_mutex_lock(&lock);
  fake_function *f = function_count < MAX_HANDLES ? &functions[function_count++] : NULL;
  if (f) {
    f->module = m;
    snprintf(f->name, sizeof f->name, "%s", name);
    stats.getFunction++;
  }
  pthread_mutex_unlock(&lock);
  return f;
}

static fake_stream *new_stream(void) {
  pthread_mutex_lock(&lock);
  fake_stream *s = stream_count < MAX_HANDLES ? &streams[stream_count++] : NULL;
  if (s) {
    s->id = stream_count;
    s->live = 1;
    s->device = current_device();
    stats.streamsCreated++;
  }
  pthread_mutex_unlock(&lock);
  return s;
}

static fake_event *new_event(void) {
  pthread_mutex_lock(&lock);
  fake_event *e = event_count < MAX_HANDLES ? &events[event_count++] : NULL;
  if (e) {
    e->id = event_count;
    e->live = 1;
    e->device = current_device();
  }
  pthread_mutex_unlock(&lock);
  return e;
}

static int module_ok(const void *m) {
  const fake_module *x = m;
  return x >= modules && x < modules + module_count && x->live && x->device == current_device();
}

static int function_ok(const void *f) {
  const fake_function *x = f;
  return x >= functions && x < functions + function_count && module_ok(x->module);
}

/* NULL stands for the default stream. */
static int stream_ok(const void *s) {
  const fake_stream *x = s;
  return x == NULL || (x >= streams && x < streams + stream_count && x->live && x->device == current_device());
}

static int event_ok(const void *e) {
  const fake_event *x = e;
  return x >= events && x < events + event_count && x->live && x->device == current_device();
}

static const char *stream_name(const void *s) {
  static __thread char buf[16];
  if (!s)
    return "null";
  snprintf(buf, sizeof buf, "s%d", ((const fake_stream *)s)->id);
  return buf;
}

/* The buffer holding p, or -1 when p is host memory. */
static int buffer_of(const void *p) {
  for (int i = 0; i < buffer_count; i++)
    if (buffers[i].live && (const char *)p >= buffers[i].base && (const char *)p < buffers[i].base + buffers[i].size)
      return i;
  return -1;
}

/* "m<N>+<offset>" for device memory, "host" otherwise. */
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

/* Both ends lie within one allocation, or both outside (host memory, as unified addressing allows). */
static int span_ok(const void *p, size_t n) { return n == 0 || buffer_of(p) == buffer_of((const char *)p + n - 1); }

/* NULL when the size is 0 or the table full; *tooLarge is set when the size cannot be had. */
static void *allocate(const char *call, size_t size, int *tooLarge) {
  /* What the driver cannot allocate it refuses; it never hands out less than it was asked for. */
  char *base = size > 0 && size <= SIZE_MAX - 255 ? aligned_alloc(256, (size + 255) / 256 * 256) : NULL;
  *tooLarge = size > 0 && !base;
  pthread_mutex_lock(&lock);
  if (buffer_count == MAX_HANDLES || !base) {
    pthread_mutex_unlock(&lock);
    free(base);
    return NULL;
  }
  int i = buffer_count++;
  buffers[i].base = base;
  buffers[i].size = size;
  buffers[i].id = buffer_count;
  buffers[i].live = 1;
  stats.live++;
  pthread_mutex_unlock(&lock);
  trace("%s: m%d, %zu bytes", call, buffers[i].id, size);
  return buffers[i].base;
}

/* Frees an allocation's base address; -1 for anything else. */
static int release(const char *call, void *p) {
  pthread_mutex_lock(&lock);
  int i = buffer_of(p);
  if (i < 0 || buffers[i].base != p) {
    pthread_mutex_unlock(&lock);
    return -1;
  }
  buffers[i].live = 0;
  stats.live--;
  pthread_mutex_unlock(&lock);
  free(buffers[i].base);
  trace("%s: m%d", call, buffers[i].id);
  return 0;
}

/* Runs kernel `name` on the host, one block after another, with its CPU build (per thread, or per block when
 * it has the marker); -1 when there is none. */
static int run_kernel(const char *name, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                      unsigned bz, unsigned smem, void **params) {
  /* FAKE_KERNELS: libraries separated by ':'; the first that exports the kernel runs it. */
  enum { MAX_LIBRARIES = 32 };
  static void *libraries[MAX_LIBRARIES];
  static int count = -1;
  const char *path = getenv("FAKE_KERNELS");
  pthread_mutex_lock(&lock);
  if (count < 0 && path) {
    static char list[16384];
    count = 0;
    if ((size_t)snprintf(list, sizeof list, "%s", path) >= sizeof list)
      trace("FAKE_KERNELS is longer than %zu bytes", sizeof list - 1);
    for (char *save, *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
      if (count == MAX_LIBRARIES) {
        /* A library past the last one kept would be silently left out, and its kernels reported missing. */
        trace("FAKE_KERNELS names more than %d libraries", MAX_LIBRARIES);
        count = 0;
        break;
      }
      if (!(libraries[count++] = dlopen(p, RTLD_NOW | RTLD_LOCAL))) {
        trace("FAKE_KERNELS names a library that does not load: %s", dlerror());
        count = 0;
        break;
      }
    }
  }
  pthread_mutex_unlock(&lock);
  if (count <= 0) {
    trace("FAKE_KERNELS does not name a loadable kernel library: %s", path ? path : "unset");
    return -1;
  }
  void *kernels = NULL;
  void (*kernel)(void **, const mgpuCpuGrid *) = NULL;
  for (int i = 0; i < count && !kernel; i++)
    if ((*(void **)&kernel = dlsym(libraries[i], name)))
      kernels = libraries[i];
  if (!kernel) {
    trace("no host build of kernel %s", name);
    return -1;
  }
  /* A kernel that mgpu compiled for #cpu.target runs a whole block per call (mgpu.h). */
  char *marker = malloc(strlen(name) + sizeof ".mgpu_block");
  if (!marker)
    return -1;
  int perBlock = dlsym(kernels, strcat(strcpy(marker, name), ".mgpu_block")) != NULL;
  free(marker);
  __atomic_fetch_add(&stats.launches, 1, __ATOMIC_RELAXED);
  mgpuCpuGrid g = {{gx, gy, gz}, {bx, by, bz}, {0, 0, 0}, {0, 0, 0}, NULL};
  char *shared = smem ? malloc(smem) : NULL;
  g.sharedMemory = shared;
  for (g.blockIdx[2] = 0; g.blockIdx[2] < gz; g.blockIdx[2]++)
    for (g.blockIdx[1] = 0; g.blockIdx[1] < gy; g.blockIdx[1]++)
      for (g.blockIdx[0] = 0; g.blockIdx[0] < gx; g.blockIdx[0]++) {
        if (perBlock) {
          kernel(params, &g);
          continue;
        }
        for (g.threadIdx[2] = 0; g.threadIdx[2] < bz; g.threadIdx[2]++)
          for (g.threadIdx[1] = 0; g.threadIdx[1] < by; g.threadIdx[1]++)
            for (g.threadIdx[0] = 0; g.threadIdx[0] < bx; g.threadIdx[0]++)
              kernel(params, &g);
      }
  free(shared);
  return 0;
}

/* The driver operations both APIs have, checked and traced the same way; `call` names the API function in
 * the trace. Each returns a FAKE_* status that the API maps to its own error code. */
enum { FAKE_OK, FAKE_INVALID_VALUE, FAKE_INVALID_HANDLE, FAKE_NOT_FOUND, FAKE_OUT_OF_MEMORY };

static int op_module_unload(const char *call, void *module) {
  if (!module_ok(module))
    return FAKE_INVALID_HANDLE;
  fake_module *m = module;
  m->live = 0;
  trace("%s: module %d", call, m->id);
  return FAKE_OK;
}

static int op_get_function(void **function, void *module, const char *name) {
  if (!module_ok(module))
    return FAKE_INVALID_HANDLE;
  if (strlen(name) >= 64 || !has_kernel(module, name))
    return FAKE_NOT_FOUND;
  /* As the driver does, a second lookup of one kernel in one module gives the handle the first one got. */
  pthread_mutex_lock(&lock);
  fake_function *f = NULL;
  for (int i = 0; i < function_count && !f; i++)
    if (functions[i].module == module && strcmp(functions[i].name, name) == 0)
      f = &functions[i];
  if (f)
    stats.getFunction++;
  pthread_mutex_unlock(&lock);
  if (!f)
    f = new_function(module, name);
  if (!f)
    return FAKE_OUT_OF_MEMORY;
  *function = f;
  return FAKE_OK;
}

static int op_launch(const char *call, void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                     unsigned by, unsigned bz, unsigned smem, void *stream, void **params, void **extra,
                     const char *cluster) {
  if (!function_ok(function) || !stream_ok(stream))
    return FAKE_INVALID_HANDLE;
  if (gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024 || params == NULL || extra != NULL)
    return FAKE_INVALID_VALUE;
  const fake_function *f = function;
  trace("%s: %s grid %u,%u,%u block %u,%u,%u%s smem %u stream %s", call, f->name, gx, gy, gz, bx, by, bz, cluster,
        smem, stream_name(stream));
  return run_kernel(f->name, gx, gy, gz, bx, by, bz, smem, params) == 0 ? FAKE_OK : FAKE_NOT_FOUND;
}

static int op_stream_create(const char *call, int nonBlocking, void **stream) {
  fake_stream *s = new_stream();
  if (!s)
    return FAKE_OUT_OF_MEMORY;
  trace("%s: s%d%s%s", call, s->id, nonBlocking ? " non-blocking" : "", on_device(s->device));
  *stream = s;
  return FAKE_OK;
}

static int op_stream_destroy(const char *call, void *stream) {
  if (stream == NULL || !stream_ok(stream))
    return FAKE_INVALID_HANDLE;
  fake_stream *s = stream;
  s->live = 0;
  __atomic_fetch_add(&stats.streamsDestroyed, 1, __ATOMIC_RELAXED);
  trace("%s: s%d", call, s->id);
  return FAKE_OK;
}

static int op_stream_sync(const char *call, void *stream) {
  if (!stream_ok(stream))
    return FAKE_INVALID_HANDLE;
  __atomic_fetch_add(&stats.syncs, 1, __ATOMIC_RELAXED);
  trace("%s: %s", call, stream_name(stream));
  return FAKE_OK;
}

static int op_stream_wait(const char *call, void *stream, void *event, unsigned flags) {
  if (!stream_ok(stream) || !event_ok(event) || flags != 0)
    return FAKE_INVALID_HANDLE;
  const fake_event *e = event;
  trace("%s: %s waits for e%d%s", call, stream_name(stream), e->id, e->recorded ? "" : " (never recorded)");
  return FAKE_OK;
}

static int op_event_create(const char *call, int noTiming, void **event) {
  fake_event *e = new_event();
  if (!e)
    return FAKE_OUT_OF_MEMORY;
  trace("%s: e%d%s", call, e->id, noTiming ? " without timing" : "");
  *event = e;
  return FAKE_OK;
}

static int op_event_destroy(const char *call, void *event) {
  if (!event_ok(event))
    return FAKE_INVALID_HANDLE;
  fake_event *e = event;
  e->live = 0;
  trace("%s: e%d", call, e->id);
  return FAKE_OK;
}

static int op_event_sync(const char *call, void *event) {
  if (!event_ok(event))
    return FAKE_INVALID_HANDLE;
  trace("%s: e%d", call, ((const fake_event *)event)->id);
  return FAKE_OK;
}

static int op_event_record(const char *call, void *event, void *stream) {
  if (!event_ok(event) || !stream_ok(stream))
    return FAKE_INVALID_HANDLE;
  fake_event *e = event;
  e->recorded = 1;
  trace("%s: e%d on %s", call, e->id, stream_name(stream));
  return FAKE_OK;
}

static int op_alloc(const char *call, void **p, size_t size) {
  int tooLarge = 0;
  void *m = p ? allocate(call, size, &tooLarge) : NULL;
  if (!m)
    return tooLarge ? FAKE_OUT_OF_MEMORY : FAKE_INVALID_VALUE;
  *p = m;
  return FAKE_OK;
}

static int op_memcpy(const char *call, void *dst, const void *src, size_t n, void *stream) {
  if (!stream_ok(stream))
    return FAKE_INVALID_HANDLE;
  if (!span_ok(dst, n) || !span_ok(src, n))
    return FAKE_INVALID_VALUE;
  trace("%s: %s <- %s, %zu bytes, stream %s", call, where(dst), where(src), n, stream_name(stream));
  memmove(dst, src, n);
  return FAKE_OK;
}

/* Sets `count` elements of `size` bytes (2 or 4) to `value`, in device memory only. */
static int op_memset(const char *call, void *dst, unsigned value, size_t count, size_t size, void *stream) {
  if (!stream_ok(stream))
    return FAKE_INVALID_HANDLE;
  if (buffer_of(dst) < 0 || !span_ok(dst, count * size))
    return FAKE_INVALID_VALUE;
  trace("%s: %s, %zu x 0x%x, stream %s", call, where(dst), count, value, stream_name(stream));
  for (size_t i = 0; i < count; i++) {
    if (size == 4)
      ((uint32_t *)dst)[i] = value;
    else
      ((uint16_t *)dst)[i] = (uint16_t)value;
  }
  return FAKE_OK;
}

static int op_host_register(const char *call, void *p, size_t size, unsigned flags) {
  if (p == NULL || size == 0 || buffer_of(p) >= 0)
    return FAKE_INVALID_VALUE;
  trace("%s: %zu bytes, flags %u", call, size, flags);
  return FAKE_OK;
}

static int op_host_unregister(const char *call, void *p) {
  if (p == NULL)
    return FAKE_INVALID_VALUE;
  trace("%s", call);
  return FAKE_OK;
}

/* Registered host memory has the same address on the device, as with unified addressing. */
static int op_host_device_pointer(const char *call, void **device, void *p, unsigned flags) {
  if (device == NULL || p == NULL || flags != 0 || buffer_of(p) >= 0)
    return FAKE_INVALID_VALUE;
  trace("%s: flags %u", call, flags);
  *device = p;
  return FAKE_OK;
}

#endif
