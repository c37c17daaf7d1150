/* The CPU backend's streams run as a GPU's do: each a queue of its own, side by side with the others, ordered
 * by events. Kernels are stream_kernels.c, whose shared object STREAM_KERNELS names. Each check prints one
 * line; a kernel that waits for another that cannot run ends the program by the test's timeout. */
#define _POSIX_C_SOURCE 200809L
#include "mgpu.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *load_kernels(void) {
  const char *path = getenv("STREAM_KERNELS");
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f || fseek(f, 0, SEEK_END) != 0) {
    printf("cannot read STREAM_KERNELS\n");
    exit(2);
  }
  long n = ftell(f);
  void *data = malloc((size_t)n);
  rewind(f);
  if (!data || fread(data, 1, (size_t)n, f) != (size_t)n)
    exit(2);
  fclose(f);
  void *module = mgpuModuleLoad(data, (size_t)n);
  free(data);
  return module;
}

static void *kernel(const char *name) {
  static void *module;
  if (!module)
    module = load_kernels();
  return mgpuModuleGetFunction(module, name);
}

/* A launch that does not say how many parameters it passes (0), as a hand-written program may. */
static void launch(const char *name, intptr_t blocks, intptr_t threads, void *stream, void **params) {
  mgpuLaunchKernel(kernel(name), blocks, 1, 1, threads, 1, 1, 0, stream, params, NULL, 0);
}

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

/* Flags in host-shared memory, as a program would have them. */
static _Atomic int *new_flag(void) {
  _Atomic int *f = mgpuMemAlloc(sizeof *f, NULL, true);
  atomic_init(f, 0);
  return f;
}

/* Sets the flag after a while, from another host thread. */
static void *set_later(void *flag) {
  pause_ms(50);
  atomic_store_explicit((_Atomic int *)flag, 1, memory_order_release);
  return NULL;
}

static const char *yes(int b) { return b ? "yes" : "no"; }

/* What most checks start from: stream A, and the arguments of a wait_flag kernel (a flag it waits for, one it
 * sets when done). */
typedef struct fixture {
  void *a;
  _Atomic int *flag, *done;
  void *params[2];
} fixture;

static void set_up(fixture *f) {
  f->a = mgpuStreamCreate();
  f->flag = new_flag();
  f->done = new_flag();
  f->params[0] = &f->flag;
  f->params[1] = &f->done;
}

static void tear_down(fixture *f) {
  mgpuStreamDestroy(f->a);
  mgpuMemFree((void *)f->flag, NULL);
  mgpuMemFree((void *)f->done, NULL);
}

/* A kernel on stream A waits for a flag that a kernel launched after it on stream B sets; both finish. */
static void kernel_waits_for_kernel(void) {
  fixture f;
  set_up(&f);
  void *b = mgpuStreamCreate(), *setParams[] = {&f.flag};
  launch("wait_flag", 4, 2, f.a, f.params);
  launch("set_flag", 1, 1, b, setParams);
  mgpuStreamSynchronize(f.a);
  mgpuStreamSynchronize(b);
  printf("a kernel on A waited for a kernel on B: done %d\n", atomic_load(f.done));
  mgpuStreamDestroy(b);
  tear_down(&f);
}

/* A launch on a stream returns before its kernel has run; the host then lets it finish. */
static void launch_returns_at_once(void) {
  fixture f;
  set_up(&f);
  launch("wait_flag", 1, 1, f.a, f.params);
  int before = atomic_load(f.done);
  atomic_store(f.flag, 1);
  mgpuStreamSynchronize(f.a);
  printf("the launch returned first: %s; after the synchronisation done %d\n", yes(before == 0), atomic_load(f.done));
  tear_down(&f);
}

/* One stream's work runs in order: a memset, 50 kernels, a copy back and a free, queued while a kernel holds
 * the stream; each kernel got the argument it was launched with, though the variable changed after. */
static void one_stream_in_order(void) {
  enum { N = 256 };
  fixture f;
  set_up(&f);
  launch("wait_flag", 1, 1, f.a, f.params);
  int32_t *data = mgpuMemAlloc(N * sizeof(int32_t), f.a, false);
  static int32_t host[N];
  mgpuMemset32(data, 7, N, f.a);
  int32_t amount;
  void *params[] = {&data, &amount};
  for (int i = 0; i < 50; i++) {
    amount = i + 1;
    launch("add", N / 64, 64, f.a, params);
    amount = 1000; /* too late for the launch above */
  }
  mgpuMemcpy(host, data, sizeof host, f.a);
  mgpuMemFree(data, f.a);
  int queuedBehind = host[0] == 0;
  atomic_store(f.flag, 1);
  mgpuStreamSynchronize(f.a);
  int right = 0;
  for (int i = 0; i < N; i++)
    right += host[i] == 7 + 50 * 51 / 2;
  printf("in order: nothing ran behind the held kernel: %s; %d of %d elements are 7 + 1 + 2 + ... + 50 = %d\n",
         yes(queuedBehind), right, N, host[0]);
  tear_down(&f);
}

/* Stream B waits for an event recorded on A: B's kernel runs after A's, not before. */
static void events_order_streams(void) {
  fixture f;
  set_up(&f);
  void *b = mgpuStreamCreate(), *e = mgpuEventCreate();
  _Atomic int *seenByB = new_flag();
  void *copyParams[] = {&seenByB, &f.done};
  launch("wait_flag", 1, 1, f.a, f.params);
  mgpuEventRecord(e, f.a);
  mgpuStreamWaitEvent(b, e);
  launch("copy_flag", 1, 1, b, copyParams);
  /* The event is re-recorded after the wait: B waits for what A had when B was told to wait. */
  mgpuEventRecord(e, NULL);
  pause_ms(50);
  int waited = atomic_load(seenByB) == 0;
  atomic_store(f.flag, 1);
  mgpuStreamSynchronize(b);
  printf("B waited for A's event: %s; B saw A's result %d\n", yes(waited), atomic_load(seenByB));
  mgpuEventDestroy(e);
  mgpuStreamDestroy(b);
  mgpuMemFree((void *)seenByB, NULL);
  tear_down(&f);
}

/* mgpuEventSynchronize waits for the work before the record, and only for it. */
static void event_synchronize(void) {
  fixture f;
  set_up(&f);
  void *early = mgpuEventCreate(), *late = mgpuEventCreate();
  mgpuEventRecord(early, f.a);
  launch("wait_flag", 1, 1, f.a, f.params);
  mgpuEventRecord(late, f.a);
  mgpuEventSynchronize(early); /* the held kernel came after it */
  int notYet = atomic_load(f.done) == 0;
  pthread_t t;
  pthread_create(&t, NULL, set_later, (void *)f.flag);
  mgpuEventSynchronize(late);
  printf("an early event is complete while the stream is held: %s; a later one waits: done %d\n", yes(notYet),
         atomic_load(f.done));
  pthread_join(t, NULL);
  mgpuEventDestroy(early);
  mgpuEventDestroy(late);
  tear_down(&f);
}

/* The NULL stream waits for an event by blocking its caller; destroying a stream drains it. */
static void null_stream_and_destroy(void) {
  fixture f;
  set_up(&f);
  void *e = mgpuEventCreate();
  launch("wait_flag", 1, 1, f.a, f.params);
  mgpuEventRecord(e, f.a);
  pthread_t t;
  pthread_create(&t, NULL, set_later, (void *)f.flag);
  mgpuStreamWaitEvent(NULL, e);
  printf("the NULL stream waited for the event: done %d\n", atomic_load(f.done));
  pthread_join(t, NULL);
  mgpuEventDestroy(e);
  atomic_store(f.flag, 0);
  atomic_store(f.done, 0);
  launch("wait_flag", 1, 1, f.a, f.params);
  pthread_create(&t, NULL, set_later, (void *)f.flag);
  mgpuStreamDestroy(f.a);
  f.a = NULL;
  printf("destroying a stream drained it: done %d\n", atomic_load(f.done));
  pthread_join(t, NULL);
  tear_down(&f);
}

/* A module unloaded right after a launch of its kernel on a stream (as the per-launch load strategy does)
 * stays until that launch has run. */
static void unload_after_launch(void) {
  fixture f;
  set_up(&f);
  void *module = load_kernels();
  mgpuLaunchKernel(mgpuModuleGetFunction(module, "wait_flag"), 1, 1, 1, 1, 1, 1, 0, f.a, f.params, NULL, 2);
  mgpuModuleUnload(module);
  atomic_store(f.flag, 1);
  mgpuStreamSynchronize(f.a);
  printf("a kernel of a module unloaded after its launch ran: done %d\n", atomic_load(f.done));
  tear_down(&f);
}

/* A kernel whose object does not say its parameters' sizes runs before its launch returns, and so does a launch
 * that disagrees with them, which must not be copied by them. */
static void unsized_kernel_runs_at_once(void) {
  void *a = mgpuStreamCreate();
  int32_t *data = mgpuMemAlloc(64 * sizeof(int32_t), NULL, false);
  mgpuMemset32(data, 1, 64, NULL);
  int32_t amount = 41;
  void *params[] = {&data, &amount};
  launch("add_unsized", 1, 64, a, params);
  printf("a kernel without parameter sizes ran before its launch returned: data[63] = %" PRId32 "\n", data[63]);
  /* So does one whose launch passes another number of parameters than its object says it has. */
  mgpuLaunchKernel(kernel("add"), 1, 1, 1, 64, 1, 1, 0, a, params, NULL, 3);
  printf("a launch of 3 parameters to a kernel of 2 ran before it returned: data[63] = %" PRId32 "\n", data[63]);
  mgpuStreamDestroy(a);
  mgpuMemFree(data, NULL);
}

/* Eight streams, each adding into its own array, their launches interleaved. */
static void many_streams(void) {
  enum { STREAMS = 8, N = 128, ROUNDS = 100 };
  void *s[STREAMS];
  int32_t *data[STREAMS], amount[STREAMS];
  static int32_t host[STREAMS][N];
  void *params[STREAMS][2];
  for (int i = 0; i < STREAMS; i++) {
    s[i] = mgpuStreamCreate();
    data[i] = mgpuMemAlloc(N * sizeof(int32_t), s[i], false);
    mgpuMemset32(data[i], 0, N, s[i]);
    amount[i] = i + 1;
    params[i][0] = &data[i];
    params[i][1] = &amount[i];
  }
  for (int r = 0; r < ROUNDS; r++)
    for (int i = 0; i < STREAMS; i++)
      launch("add", N / 32, 32, s[i], params[i]);
  int right = 0;
  for (int i = 0; i < STREAMS; i++) {
    mgpuMemcpy(host[i], data[i], sizeof host[i], s[i]);
    mgpuMemFree(data[i], s[i]);
    mgpuStreamDestroy(s[i]);
    for (int k = 0; k < N; k++)
      right += host[i][k] == ROUNDS * (i + 1);
  }
  printf("%d streams side by side: %d of %d elements right\n", STREAMS, right, STREAMS * N);
}

int main(void) {
  kernel_waits_for_kernel();
  launch_returns_at_once();
  one_stream_in_order();
  events_order_streams();
  event_synchronize();
  null_stream_and_destroy();
  unload_after_launch();
  unsized_kernel_runs_at_once();
  many_streams();
  return 0;
}
