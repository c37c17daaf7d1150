/* The CPU backend's streams, events and thread pool, as a GPU has them: each stream is a queue with a worker
 * thread of its own, started when work first comes: the work of one stream runs in order, the work of
 * different streams side by side, and events order them. Kernels run on a pool of threads that several
 * launches share at once; the thread that runs a launch (a stream's worker, or the caller) runs blocks of it
 * too, so every launch makes progress whatever else the pool runs, and a kernel may wait for one on another
 * stream. The NULL stream is the caller's thread: what is queued on it is done when the call returns. */
#define _GNU_SOURCE
#include "cpu.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ the thread pool */

typedef struct job {
  mgpuCpuKernel kernel;
  void *module; /* held by a queued launch until it has run; NULL for one that runs in the call */
  int perBlock; /* the kernel runs the whole block per call */
  void **params;
  int64_t grid[3], block[3];
  int64_t blocks;
  int64_t chunk; /* blocks taken at a time */
  /* Block-private memory: one piece of `stride` bytes for each thread that runs blocks. */
  char *shared;
  size_t stride;
  _Atomic int piece;
  _Atomic int64_t next;
  int participants; /* the threads running blocks of it, under pool_lock */
  struct job *link; /* the pool's list of jobs */
} job;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t pool_idle = PTHREAD_COND_INITIALIZER;
static job *jobs; /* the jobs being run, under pool_lock */
static int workers;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void run_blocks(job *j) {
  mgpuCpuGrid g;
  memcpy(g.gridDim, j->grid, sizeof g.gridDim);
  memcpy(g.blockDim, j->block, sizeof g.blockDim);
  g.sharedMemory = j->shared ? j->shared + (size_t)atomic_fetch_add(&j->piece, 1) * j->stride : NULL;
  memset(g.threadIdx, 0, sizeof g.threadIdx); /* a per-block kernel is called with thread index 0 */
  for (;;) {
    /* A run of consecutive blocks at a time: one atomic per run, and each worker streams through its own
     * part of the data, which the hardware prefetches better than blocks taken turn about. */
    int64_t first = atomic_fetch_add(&j->next, j->chunk);
    if (first >= j->blocks)
      break;
    int64_t last = first + j->chunk < j->blocks ? first + j->chunk : j->blocks;
    for (int64_t b = first; b < last; b++) {
      g.blockIdx[0] = b % j->grid[0];
      g.blockIdx[1] = (b / j->grid[0]) % j->grid[1];
      g.blockIdx[2] = b / (j->grid[0] * j->grid[1]);
      if (j->perBlock) {
        j->kernel(j->params, &g);
        continue;
      }
      for (int64_t z = 0; z < j->block[2]; z++)
        for (int64_t y = 0; y < j->block[1]; y++)
          for (int64_t x = 0; x < j->block[0]; x++) {
            g.threadIdx[0] = x;
            g.threadIdx[1] = y;
            g.threadIdx[2] = z;
            j->kernel(j->params, &g);
          }
    }
  }
}

/* A job with blocks nobody has taken yet, under pool_lock. */
static job *claimable(void) {
  for (job *j = jobs; j; j = j->link)
    if (atomic_load_explicit(&j->next, memory_order_relaxed) < j->blocks)
      return j;
  return NULL;
}

static void *pool_worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&pool_lock);
  for (;;) {
    job *j = claimable();
    if (!j) {
      pthread_cond_wait(&pool_work, &pool_lock);
      continue;
    }
    j->participants++;
    pthread_mutex_unlock(&pool_lock);
    run_blocks(j);
    pthread_mutex_lock(&pool_lock);
    if (--j->participants == 0)
      pthread_cond_broadcast(&pool_idle);
  }
  return NULL;
}

/* A worker runs blocks, whose workgroup and private memory is on its stack: mgpu's compiled kernels keep at
 * most 4 MiB there (PerThreadMemory.BLOCK_STACK_BYTES), so a worker has at least 8 MiB, whatever the
 * default (RLIMIT_STACK) is. Detached. */
static void worker_attributes(pthread_attr_t *a) {
  pthread_attr_init(a);
  pthread_attr_setdetachstate(a, PTHREAD_CREATE_DETACHED);
  size_t size = 0;
  if (pthread_attr_getstacksize(a, &size) == 0 && size < ((size_t)8 << 20))
    pthread_attr_setstacksize(a, (size_t)8 << 20);
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
    worker_attributes(&a);
    if (pthread_create(&t, &a, pool_worker, NULL) == 0)
      workers++;
    pthread_attr_destroy(&a);
  }
}

/* Sets up `j` to run `f` on the grid; false, after saying why, when its shared memory cannot be had. */
static bool prepare_job(job *j, const cpu_function *f, void **params, const int64_t grid[3], const int64_t block[3],
                        int32_t smem) {
  pthread_once(&pool_once, start_pool);
  memset(j, 0, sizeof *j);
  j->kernel = f->kernel;
  j->perBlock = f->perBlock;
  j->params = params;
  memcpy(j->grid, grid, sizeof j->grid);
  memcpy(j->block, block, sizeof j->block);
  j->blocks = grid[0] * grid[1] * grid[2];
  if (smem > 0) {
    /* Each piece starts on its own cache line, so blocks running side by side do not share one. */
    j->stride = ((size_t)smem + 63) & ~(size_t)63;
    j->shared = aligned_alloc(64, j->stride * (size_t)(workers + 1));
    if (!j->shared) {
      mgpu_report(CPU_NAME, "aligned_alloc", "%s (%zu bytes of shared memory for each of %d threads)",
                  strerror(ENOMEM), j->stride, workers + 1);
      return false;
    }
  }
  atomic_init(&j->piece, 0);
  /* About 8 runs per thread of the pool, so that uneven blocks still balance. */
  j->chunk = j->blocks / ((int64_t)(workers + 1) * 8);
  if (j->chunk < 1)
    j->chunk = 1;
  atomic_init(&j->next, 0);
  return true;
}

/* Runs every block of `j`, with the pool's help when there is more than one, and frees what it holds. */
static void run_job(job *j) {
  if (j->blocks > 1 && workers > 0) {
    pthread_mutex_lock(&pool_lock);
    j->participants = 1;
    j->link = jobs;
    jobs = j;
    pthread_cond_broadcast(&pool_work);
    pthread_mutex_unlock(&pool_lock);
    run_blocks(j);
    pthread_mutex_lock(&pool_lock);
    j->participants--;
    while (j->participants > 0)
      pthread_cond_wait(&pool_idle, &pool_lock);
    for (job **p = &jobs; *p; p = &(*p)->link)
      if (*p == j) {
        *p = j->link;
        break;
      }
    pthread_mutex_unlock(&pool_lock);
  } else {
    run_blocks(j);
  }
  free(j->shared);
}

/* ------------------------------------------------------------------ streams */

typedef enum { WORK_LAUNCH, WORK_COPY, WORK_SET, WORK_FREE, WORK_WAIT } work_kind;

typedef struct cpu_stream cpu_stream;

typedef struct work {
  struct work *next;
  size_t capacity; /* of storage, in bytes */
  work_kind kind;
  union {
    job launch;
    struct {
      void *dst;
      const void *src;
      size_t size;
    } copy;
    struct {
      void *dst;
      unsigned value;
      size_t count, width;
    } set;
    void *free;
    struct {
      cpu_stream *stream;
      uint64_t ticket;
    } wait;
  } u;
  max_align_t storage[]; /* a launch's copy of its parameters: their pointers, then their values */
} work;

struct cpu_stream {
  pthread_mutex_t lock;
  pthread_cond_t wake;     /* for the worker: work came, or the stream ends */
  pthread_cond_t progress; /* for those who wait: `done` went up */
  work *head, *tail;
  work *spare;                /* done work, to hold the next (a stream reuses its memory) */
  int spares;
  uint64_t queued;            /* how much work came */
  _Atomic uint64_t done;      /* how much of it is done */
  _Atomic int waiters;        /* threads waiting for `progress` */
  _Atomic int refs;      /* the stream's creator, its worker, events recorded on it, waits for it */
  bool attached;         /* a worker serves it */
  bool busy;             /* a piece of its work is running (only one at a time, in order) */
  bool stopping;
  cpu_stream *link; /* in the list of streams that wait for an idle worker */
};

static void retain(cpu_stream *s) { atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed); }

static void release(cpu_stream *s) {
  if (s && atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1) {
    for (work *w = s->spare, *next; w; w = next) {
      next = w->next;
      free(w);
    }
    pthread_cond_destroy(&s->progress);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    free(s);
  }
}

/* Sets `count` elements of `width` bytes (4 or 2) at `dst` to `value`. */
static void fill(void *dst, unsigned value, size_t count, size_t width) {
  for (size_t i = 0; i < count; i++)
    if (width == 4)
      ((uint32_t *)dst)[i] = value;
    else
      ((uint16_t *)dst)[i] = (uint16_t)value;
}

static void wait_for(cpu_stream *s, uint64_t ticket);

static void execute(work *w) {
  switch (w->kind) {
  case WORK_LAUNCH:
    run_job(&w->u.launch);
    cpu_module_release(w->u.launch.module);
    break;
  case WORK_COPY: memmove(w->u.copy.dst, w->u.copy.src, w->u.copy.size); break;
  case WORK_SET: fill(w->u.set.dst, w->u.set.value, w->u.set.count, w->u.set.width); break;
  case WORK_FREE: free(w->u.free); break;
  case WORK_WAIT:
    wait_for(w->u.wait.stream, w->u.wait.ticket);
    release(w->u.wait.stream);
    break;
  }
}

/* Counts a piece of `s`'s work done, and wakes whoever waits for that. Waiters announce themselves before
 * they look at `done` (and this looks at them after counting), so none sleeps through the count. */
static void count_done(cpu_stream *s) {
  atomic_fetch_add(&s->done, 1);
  if (atomic_load(&s->waiters) > 0) {
    pthread_mutex_lock(&s->lock);
    pthread_cond_broadcast(&s->progress);
    pthread_mutex_unlock(&s->lock);
  }
}

/* Takes the work queued on `s` whose turn it is (!busy) and runs it on the calling thread: everything queued,
 * for a worker, or the first piece, for one who waits. Called with s->lock held, which it lets go while the
 * work runs. */
static void run_queued(cpu_stream *s, bool all) {
  work *w = s->head;
  s->head = all ? NULL : w->next;
  if (!s->head)
    s->tail = NULL;
  if (!all)
    w->next = NULL;
  s->busy = true;
  pthread_mutex_unlock(&s->lock);
  work *last = w;
  for (work *next = w; next; next = next->next) {
    execute(next);
    count_done(s);
    last = next;
  }
  pthread_mutex_lock(&s->lock);
  s->busy = false;
  /* Kept for the work to come, up to 256; freeing each would have the allocator hand memory back
   * to the system and take it again, a page fault every few launches. */
  last->next = s->spare;
  s->spare = w;
  for (s->spares++; w != last; w = w->next)
    s->spares++;
  while (s->spares > 256) {
    work *drop = s->spare;
    s->spare = drop->next;
    s->spares--;
    free(drop);
  }
  /* The next piece may be someone else's to take. */
  pthread_cond_broadcast(&s->progress);
}

/* Waits until the first `ticket` pieces of work of `s` are done, running them itself when their turn comes
 * before the stream's worker has taken them: a launch followed by its synchronisation then costs no trip to
 * another thread and back. */
static void wait_for(cpu_stream *s, uint64_t ticket) {
  pthread_mutex_lock(&s->lock);
  atomic_fetch_add(&s->waiters, 1);
  while (atomic_load(&s->done) < ticket) {
    if (s->head && !s->busy)
      run_queued(s, false);
    else
      pthread_cond_wait(&s->progress, &s->lock);
  }
  atomic_fetch_sub(&s->waiters, 1);
  if (s->head && !s->busy)
    pthread_cond_signal(&s->wake); /* the work that came after is the worker's again */
  pthread_mutex_unlock(&s->lock);
}

/* What a stream's worker does until the stream ends: its work, in order; then it lets the stream go. */
static void serve(cpu_stream *s) {
  pthread_mutex_lock(&s->lock);
  for (;;) {
    if (s->head && !s->busy)
      run_queued(s, true);
    else if (s->stopping && !s->head)
      break;
    else
      pthread_cond_wait(&s->wake, &s->lock);
  }
  s->attached = false;
  pthread_mutex_unlock(&s->lock);
  release(s);
}

/* Workers of streams that have ended wait for a new stream to serve, so that a stream costs no thread of its
 * own to start and end. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_wake = PTHREAD_COND_INITIALIZER;
static cpu_stream *unserved; /* streams handed to idle workers, not yet taken */
static int idle;              /* idle workers not yet handed a stream */

static void *stream_worker(void *arg) {
  cpu_stream *s = arg;
  for (;;) {
    serve(s);
    pthread_mutex_lock(&idle_lock);
    idle++;
    while (!unserved)
      pthread_cond_wait(&idle_wake, &idle_lock);
    s = unserved;
    unserved = s->link;
    pthread_mutex_unlock(&idle_lock);
  }
  return NULL;
}

/* Gives `s` (held for the worker) a worker: an idle one, else a new thread. */
static void attach(cpu_stream *s) {
  pthread_mutex_lock(&idle_lock);
  if (idle > 0) {
    idle--;
    s->link = unserved;
    unserved = s;
    pthread_cond_signal(&idle_wake);
    pthread_mutex_unlock(&idle_lock);
    return;
  }
  pthread_mutex_unlock(&idle_lock);
  pthread_t t;
  pthread_attr_t a;
  worker_attributes(&a);
  int e = pthread_create(&t, &a, stream_worker, s);
  pthread_attr_destroy(&a);
  if (e != 0) {
    /* Its work is then done by those who wait for it; the next piece of work tries again. */
    mgpu_report(CPU_NAME, "pthread_create", "%s (a stream's worker)", strerror(e));
    pthread_mutex_lock(&s->lock);
    s->attached = false;
    pthread_mutex_unlock(&s->lock);
    release(s);
  }
}

/* A piece of work for `s` with `extra` bytes of storage, or NULL after saying why; a caller then does the
 * work itself after its stream's queued work, which keeps the order. */
static work *new_work(cpu_stream *s, work_kind kind, size_t extra) {
  pthread_mutex_lock(&s->lock);
  work *w = s->spare;
  if (w && w->capacity >= extra) {
    s->spare = w->next;
    s->spares--;
  } else {
    w = NULL;
  }
  pthread_mutex_unlock(&s->lock);
  if (!w) {
    size_t capacity = extra > 256 ? extra : 256;
    w = malloc(sizeof(work) + capacity);
    if (!w) {
      mgpu_report(CPU_NAME, "malloc", "%s (work for a stream, done now instead)", strerror(ENOMEM));
      return NULL;
    }
    w->capacity = capacity;
  }
  w->next = NULL;
  w->kind = kind;
  return w;
}

/* Puts `w` at the end of `s`'s queue, and has a worker run it. */
static void enqueue(cpu_stream *s, work *w) {
  pthread_mutex_lock(&s->lock);
  if (s->tail)
    s->tail->next = w;
  else
    s->head = w;
  s->tail = w;
  s->queued++;
  bool unattached = !s->attached;
  if (unattached) {
    s->attached = true;
    retain(s);
  } else {
    pthread_cond_signal(&s->wake);
  }
  pthread_mutex_unlock(&s->lock);
  if (unattached)
    attach(s);
}

/* `size` bytes of zeroes, or NULL after saying so. */
static void *zeroed(size_t size) {
  void *p = calloc(1, size);
  if (!p)
    mgpu_report(CPU_NAME, "calloc", "%s", strerror(ENOMEM));
  return p;
}

void *cpu_stream_create(void) {
  cpu_stream *s = zeroed(sizeof *s);
  if (!s)
    return NULL;
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->wake, NULL);
  pthread_cond_init(&s->progress, NULL);
  atomic_init(&s->refs, 1);
  atomic_init(&s->done, 0);
  atomic_init(&s->waiters, 0);
  return s;
}

void cpu_stream_sync(void *stream) {
  cpu_stream *s = stream;
  if (!s)
    return;
  pthread_mutex_lock(&s->lock);
  uint64_t ticket = s->queued;
  pthread_mutex_unlock(&s->lock);
  wait_for(s, ticket);
}

/* Drains the stream; its worker lets it go, and goes idle, once it sees the stream end. */
void cpu_stream_destroy(void *stream) {
  cpu_stream *s = stream;
  if (!s)
    return;
  cpu_stream_sync(s);
  pthread_mutex_lock(&s->lock);
  s->stopping = true;
  pthread_cond_signal(&s->wake);
  pthread_mutex_unlock(&s->lock);
  release(s);
}

/* ------------------------------------------------------------------ events */

/* An event stands for the work its stream had been given when it was recorded: the first `ticket` pieces.
 * Never recorded, or recorded on the NULL stream, it is complete. */
typedef struct cpu_event {
  pthread_mutex_t lock;
  cpu_stream *stream;
  uint64_t ticket;
} cpu_event;

void *cpu_event_create(void) {
  cpu_event *e = zeroed(sizeof *e);
  if (e)
    pthread_mutex_init(&e->lock, NULL);
  return e;
}

void cpu_event_destroy(void *event) {
  cpu_event *e = event;
  if (!e)
    return;
  release(e->stream);
  pthread_mutex_destroy(&e->lock);
  free(e);
}

void cpu_event_record(void *event, void *stream) {
  cpu_event *e = event;
  cpu_stream *s = stream;
  if (!e)
    return;
  uint64_t ticket = 0;
  if (s) {
    retain(s);
    pthread_mutex_lock(&s->lock);
    ticket = s->queued;
    pthread_mutex_unlock(&s->lock);
  }
  pthread_mutex_lock(&e->lock);
  cpu_stream *old = e->stream;
  e->stream = s;
  e->ticket = ticket;
  pthread_mutex_unlock(&e->lock);
  release(old);
}

/* The stream and ticket the event stands for now, the stream held for the caller to release; NULL when the
 * event is complete. */
static cpu_stream *recorded(cpu_event *e, uint64_t *ticket) {
  pthread_mutex_lock(&e->lock);
  cpu_stream *s = e->stream;
  *ticket = e->ticket;
  if (s)
    retain(s);
  pthread_mutex_unlock(&e->lock);
  return s;
}

void cpu_event_sync(void *event) {
  uint64_t ticket;
  cpu_stream *s = event ? recorded(event, &ticket) : NULL;
  if (s) {
    wait_for(s, ticket);
    release(s);
  }
}

void cpu_stream_wait_event(void *stream, void *event) {
  uint64_t ticket;
  cpu_stream *s = stream, *on = event ? recorded(event, &ticket) : NULL;
  if (!on)
    return;
  work *w = s && s != on ? new_work(s, WORK_WAIT, 0) : NULL;
  if (!w) {
    /* The NULL stream is the caller, which waits now; a stream's own work is in order already. */
    if (s != on)
      wait_for(on, ticket);
    release(on);
    return;
  }
  w->u.wait.stream = on;
  w->u.wait.ticket = ticket;
  enqueue(s, w);
}

/* ------------------------------------------------------------------ work on streams */

/* The bytes a parameter of `size` bytes takes in a launch's copy, so that each stays aligned for any type. */
static size_t slot(int64_t size) {
  size_t a = alignof(max_align_t);
  return ((size_t)size + a - 1) / a * a;
}

/* The bytes of memory this machine has. */
static uint64_t physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : UINT64_MAX;
}

void cpu_launch(void *fn, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params, void **extra,
                size_t paramsCount) {
  (void)cx, (void)cy, (void)cz, (void)extra;
  if (!fn) {
    mgpu_report(CPU_NAME, NULL, "no kernel (the function handle is NULL)");
    return;
  }
  /* The core has checked the sizes: at least 1 each, and products that fit 64 bits. */
  const cpu_function *f = fn;
  if (f->knownBlock[0] && (f->knownBlock[0] != bx || f->knownBlock[1] != by || f->knownBlock[2] != bz)) {
    /* Its loops run that size whatever the launch says: any other would run the wrong threads. */
    mgpu_report(CPU_NAME, NULL, "kernel '%s' runs only blocks of %" PRId64 "x%" PRId64 "x%" PRId64 " threads (its "
                "known_block_size), not %" PRIdPTR "x%" PRIdPTR "x%" PRIdPTR, f->name, f->knownBlock[0],
                f->knownBlock[1], f->knownBlock[2], bx, by, bz);
    return;
  }
  /* The core has checked that the thread count fits 64 bits. */
  int64_t threads = (int64_t)bx * by * bz, perBlock;
  if (f->maxThreads > 0 && threads > f->maxThreads) {
    mgpu_report(CPU_NAME, NULL, "kernel '%s' keeps its per-thread memory on the stack, sized for blocks of at most "
                "%" PRId64 " threads (it has no known_block_size), not %" PRId64 " (%" PRIdPTR "x%" PRIdPTR "x%" PRIdPTR
                ")", f->name, f->maxThreads, threads, bx, by, bz);
    return;
  }
  if (f->heapBytesPerThread > 0 && (__builtin_mul_overflow(threads, f->heapBytesPerThread, &perBlock) ||
                                    (uint64_t)perBlock > physical_memory())) {
    mgpu_report(CPU_NAME, NULL, "kernel '%s' needs %" PRId64 " bytes of per-thread memory for each of the %" PRId64
                " threads of a block, more than this machine's %" PRIu64 " bytes of memory", f->name,
                f->heapBytesPerThread, threads, physical_memory());
    return;
  }
  const int64_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  cpu_stream *s = stream;
  /* A launch on a stream runs after the call returns, so it takes a copy of its arguments, as a GPU's driver
   * does; it can where the kernel's object says their sizes, for as many as the launch passes (0: the caller
   * does not say). */
  bool sized = f->paramSizes && (paramsCount == 0 || paramsCount == (size_t)f->paramCount);
  size_t bytes = sized ? slot((int64_t)sizeof(void *) * f->paramCount) : 0;
  for (int64_t i = 0; sized && i < f->paramCount; i++)
    bytes += slot(f->paramSizes[i]);
  work *w = s && sized ? new_work(s, WORK_LAUNCH, bytes) : NULL;
  if (w) {
    void **copy = (void **)w->storage;
    char *value = (char *)w->storage + slot((int64_t)sizeof(void *) * f->paramCount);
    for (int64_t i = 0; i < f->paramCount; i++) {
      copy[i] = value;
      memcpy(value, params[i], (size_t)f->paramSizes[i]);
      value += slot(f->paramSizes[i]);
    }
    if (prepare_job(&w->u.launch, f, copy, grid, block, smem)) {
      w->u.launch.module = f->module;
      cpu_module_retain(f->module);
      enqueue(s, w);
    } else {
      free(w);
    }
    return;
  }
  /* The NULL stream's launches, and those whose arguments cannot be copied, run now, after the work queued
   * before them. */
  job j;
  if (prepare_job(&j, f, params, grid, block, smem)) {
    cpu_stream_sync(s);
    run_job(&j);
  }
}

void cpu_memcpy(void *dst, void *src, size_t size, void *stream) {
  work *w = stream ? new_work(stream, WORK_COPY, 0) : NULL;
  if (!w) {
    cpu_stream_sync(stream);
    memmove(dst, src, size);
    return;
  }
  w->u.copy.dst = dst;
  w->u.copy.src = src;
  w->u.copy.size = size;
  enqueue(stream, w);
}

static void memset_on(void *dst, unsigned value, size_t count, size_t width, void *stream) {
  work *w = stream ? new_work(stream, WORK_SET, 0) : NULL;
  if (w) {
    w->u.set.dst = dst;
    w->u.set.value = value;
    w->u.set.count = count;
    w->u.set.width = width;
    enqueue(stream, w);
    return;
  }
  cpu_stream_sync(stream);
  fill(dst, value, count, width);
}

void cpu_memset32(void *dst, unsigned int v, size_t count, void *stream) { memset_on(dst, v, count, 4, stream); }

void cpu_memset16(void *dst, unsigned short v, size_t count, void *stream) { memset_on(dst, v, count, 2, stream); }

void cpu_free_after(void *p, void *stream) {
  work *w = stream ? new_work(stream, WORK_FREE, 0) : NULL;
  if (!w) {
    cpu_stream_sync(stream);
    free(p);
    return;
  }
  w->u.free = p;
  enqueue(stream, w);
}
