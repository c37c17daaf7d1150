/* The CPU backend: #cpu.target objects are shared objects loaded from memory; kernels run on a pool of
 * threads. Work is done when it is enqueued, so every stream and event is always complete and ordering
 * holds trivially. */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char NAME[] = "cpu";

static int cpu_probe(const char **why) {
  *why = "";
  return 1;
}

static int cpu_device_info(int device, mgpu_device_info *info) {
  (void)device;
  snprintf(info->name, sizeof info->name, "host CPU");
  info->chip[0] = '\0';
  return 0;
}

typedef struct cpu_module {
  void *handle;
} cpu_module;

static void *cpu_module_load(const void *data, size_t size) {
  int fd = memfd_create("mgpu-cpu-object", MFD_CLOEXEC);
  if (fd < 0) {
    mgpu_report(NAME, "memfd_create", strerror(errno));
    return NULL;
  }
  const char *p = data;
  size_t left = size;
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      mgpu_report(NAME, "write", strerror(errno));
      close(fd);
      return NULL;
    }
    p += n;
    left -= (size_t)n;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  /* The mapping keeps the object alive; the descriptor is no longer needed, and no file remains. */
  close(fd);
  if (!h) {
    mgpu_report(NAME, "dlopen", dlerror());
    return NULL;
  }
  cpu_module *m = malloc(sizeof *m);
  if (!m) {
    dlclose(h);
    return NULL;
  }
  m->handle = h;
  return m;
}

static void *cpu_module_load_jit(const void *data, int optLevel, size_t size) {
  (void)optLevel;
  return cpu_module_load(data, size);
}

static void cpu_module_unload(void *module) {
  cpu_module *m = module;
  dlclose(m->handle);
  free(m);
}

static void *cpu_module_function(void *module, const char *name) {
  if (!module) {
    mgpu_report(NAME, "mgpuModuleGetFunction", "no module");
    return NULL;
  }
  cpu_module *m = module;
  dlerror();
  void *f = dlsym(m->handle, name);
  if (!f)
    mgpu_report(NAME, "dlsym", dlerror() ? dlerror() : name);
  return f;
}

/* ------------------------------------------------------------------ the thread pool */

typedef struct job {
  mgpuCpuKernel kernel;
  void **params;
  int64_t grid[3], block[3];
  int64_t blocks;
  size_t smem;
  _Atomic int64_t next;
  _Atomic int64_t done;
} job;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t pool_idle = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;
static job *current;
static unsigned long generation;
static int workers;
static int busy;

static void run_blocks(job *j) {
  char *shared = j->smem ? malloc(j->smem) : NULL;
  mgpuCpuGrid g;
  memcpy(g.gridDim, j->grid, sizeof g.gridDim);
  memcpy(g.blockDim, j->block, sizeof g.blockDim);
  g.sharedMemory = shared;
  for (;;) {
    int64_t b = atomic_fetch_add(&j->next, 1);
    if (b >= j->blocks)
      break;
    g.blockIdx[0] = b % j->grid[0];
    g.blockIdx[1] = (b / j->grid[0]) % j->grid[1];
    g.blockIdx[2] = b / (j->grid[0] * j->grid[1]);
    for (int64_t z = 0; z < j->block[2]; z++)
      for (int64_t y = 0; y < j->block[1]; y++)
        for (int64_t x = 0; x < j->block[0]; x++) {
          g.threadIdx[0] = x;
          g.threadIdx[1] = y;
          g.threadIdx[2] = z;
          j->kernel(j->params, &g);
        }
    atomic_fetch_add(&j->done, 1);
  }
  free(shared);
}

static void *worker(void *arg) {
  (void)arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&pool_lock);
  for (;;) {
    while (generation == seen)
      pthread_cond_wait(&pool_work, &pool_lock);
    seen = generation;
    job *j = current;
    busy++;
    pthread_mutex_unlock(&pool_lock);
    if (j)
      run_blocks(j);
    pthread_mutex_lock(&pool_lock);
    if (--busy == 0)
      pthread_cond_broadcast(&pool_idle);
  }
  return NULL;
}

static void start_pool(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  const char *env = getenv("MGPU_CPU_THREADS");
  if (env && atoi(env) > 0)
    n = atoi(env);
  if (n < 1)
    n = 1;
  for (long i = 1; i < n; i++) {
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, worker, NULL) == 0)
      workers++;
    pthread_attr_destroy(&a);
  }
}

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void cpu_launch(void *fn, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz,
                       intptr_t bx, intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                       void **extra) {
  (void)cx, (void)cy, (void)cz, (void)stream, (void)extra;
  if (!fn) {
    mgpu_report(NAME, "mgpuLaunchKernel", "no kernel (the function handle is NULL)");
    return;
  }
  if (gx <= 0 || gy <= 0 || gz <= 0 || bx <= 0 || by <= 0 || bz <= 0)
    return;
  pthread_once(&pool_once, start_pool);
  job j = {.kernel = (mgpuCpuKernel)fn, .params = params, .grid = {gx, gy, gz}, .block = {bx, by, bz},
           .blocks = (int64_t)gx * gy * gz, .smem = smem > 0 ? (size_t)smem : 0};
  atomic_init(&j.next, 0);
  atomic_init(&j.done, 0);
  /* One launch at a time owns the pool; concurrent launches from other threads wait their turn. */
  pthread_mutex_lock(&launch_lock);
  pthread_mutex_lock(&pool_lock);
  current = &j;
  generation++;
  pthread_cond_broadcast(&pool_work);
  pthread_mutex_unlock(&pool_lock);
  run_blocks(&j);
  pthread_mutex_lock(&pool_lock);
  while (busy > 0 || atomic_load(&j.done) < j.blocks)
    pthread_cond_wait(&pool_idle, &pool_lock);
  current = NULL;
  pthread_mutex_unlock(&pool_lock);
  pthread_mutex_unlock(&launch_lock);
}

/* ------------------------------------------------------------------ streams, events, memory */

static char stream_token;

static void *cpu_stream_create(void) { return &stream_token; }
static void cpu_stream_destroy(void *s) { (void)s; }
static void cpu_stream_sync(void *s) { (void)s; }
static void cpu_stream_wait_event(void *s, void *e) { (void)s, (void)e; }
static void *cpu_event_create(void) { return &stream_token; }
static void cpu_event_destroy(void *e) { (void)e; }
static void cpu_event_sync(void *e) { (void)e; }
static void cpu_event_record(void *e, void *s) { (void)e, (void)s; }

static void *cpu_mem_alloc(uint64_t size, void *stream, bool shared) {
  (void)stream, (void)shared;
  size_t n = (size_t)((size + 63) & ~(uint64_t)63);
  void *p = aligned_alloc(64, n ? n : 64);
  if (!p)
    mgpu_report(NAME, "aligned_alloc", strerror(ENOMEM));
  return p;
}

static void cpu_mem_free(void *p, void *stream) {
  (void)stream;
  free(p);
}

static void cpu_memcpy(void *dst, void *src, size_t size, void *stream) {
  (void)stream;
  memmove(dst, src, size);
}

static void cpu_memset32(void *dst, unsigned int v, size_t count, void *stream) {
  (void)stream;
  uint32_t *d = dst;
  for (size_t i = 0; i < count; i++)
    d[i] = v;
}

static void cpu_memset16(void *dst, unsigned short v, size_t count, void *stream) {
  (void)stream;
  uint16_t *d = dst;
  for (size_t i = 0; i < count; i++)
    d[i] = v;
}

static void cpu_host_register(void *p, uint64_t size) { (void)p, (void)size; }
static void cpu_host_unregister(void *p) { (void)p; }
static void cpu_set_device(int device) { (void)device; }

const mgpu_backend mgpu_cpu_backend = {
    .name = NAME,
    .kind = MGPU_KIND_CPU,
    .probe = cpu_probe,
    .device_info = cpu_device_info,
    .module_load = cpu_module_load,
    .module_load_jit = cpu_module_load_jit,
    .module_unload = cpu_module_unload,
    .module_function = cpu_module_function,
    .launch = cpu_launch,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .stream_sync = cpu_stream_sync,
    .stream_wait_event = cpu_stream_wait_event,
    .event_create = cpu_event_create,
    .event_destroy = cpu_event_destroy,
    .event_sync = cpu_event_sync,
    .event_record = cpu_event_record,
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .memcpy = cpu_memcpy,
    .memset32 = cpu_memset32,
    .memset16 = cpu_memset16,
    .host_register = cpu_host_register,
    .host_unregister = cpu_host_unregister,
    .set_device = cpu_set_device,
};
