/* Launch overhead of the CPU backend: many launches of a kernel that does next to nothing, then one
 * synchronisation, on the NULL stream and on a stream of its own (one block, and four blocks, which the pool
 * shares out), and a launch followed by its synchronisation each time (a round trip). Prints nanoseconds per
 * launch, best of REPEATS runs of ITERS launches.
 * usage: MGPU_BACKEND=cpu cpu-launch KERNELS.so [ITERS [REPEATS]]   (tests/bench/cpu-launch.sh builds it) */
#define _POSIX_C_SOURCE 200809L
#include "mgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef KERNEL
/* The kernel, in its own shared object (built with -DKERNEL). */
void bump(void **params, const mgpuCpuGrid *grid) {
  if (grid->blockIdx[0] == 0 && grid->threadIdx[0] == 0)
    ++**(long **)params[0];
}
MGPU_CPU_PARAMS(bump, sizeof(long *));
#else
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Best time per launch over `repeats` runs of `iters` launches of `blocks` blocks on `stream`, synchronising
 * after each launch or once at the end. */
static double measure(void *fn, void *stream, int blocks, int syncEach, long iters, int repeats, long *counter) {
  double best = 1e300;
  long *p = counter;
  void *params[] = {&p};
  for (int r = 0; r < repeats; r++) {
    double t0 = now();
    for (long i = 0; i < iters; i++) {
      mgpuLaunchKernel(fn, blocks, 1, 1, 1, 1, 1, 0, stream, params, NULL, 1);
      if (syncEach)
        mgpuStreamSynchronize(stream);
    }
    mgpuStreamSynchronize(stream);
    double t = (now() - t0) / (double)iters;
    best = t < best ? t : best;
  }
  return best;
}

int main(int argc, char **argv) {
  /* KERNELS.so, then ITERS and REPEATS where given. */
  const char *count[2] = {"100000", "5"};
  for (int i = 2; i < argc && i < 4; i++)
    count[i - 2] = argv[i];
  long iters = atol(count[0]);
  int repeats = atoi(count[1]);
  FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  if (!f || fseek(f, 0, SEEK_END) != 0) {
    fprintf(stderr, "usage: cpu-launch KERNELS.so [ITERS [REPEATS]]\n");
    return 2;
  }
  long n = ftell(f);
  void *data = malloc((size_t)n);
  rewind(f);
  if (!data || fread(data, 1, (size_t)n, f) != (size_t)n)
    return 2;
  fclose(f);
  void *fn = mgpuModuleGetFunction(mgpuModuleLoad(data, (size_t)n), "bump");
  void *s = mgpuStreamCreate();
  long counter = 0;
  printf("NULL stream, 1 block:         %8.0f ns per launch\n", measure(fn, NULL, 1, 0, iters, repeats, &counter));
  printf("NULL stream, 4 blocks:        %8.0f ns per launch\n", measure(fn, NULL, 4, 0, iters, repeats, &counter));
  printf("own stream, 1 block:          %8.0f ns per launch\n", measure(fn, s, 1, 0, iters, repeats, &counter));
  printf("own stream, 4 blocks:         %8.0f ns per launch\n", measure(fn, s, 4, 0, iters, repeats, &counter));
  printf("own stream, 1 block, synced:  %8.0f ns per launch\n", measure(fn, s, 1, 1, iters / 10, repeats, &counter));
  mgpuStreamDestroy(s);
  long expected = (long)repeats * (4 * iters + iters / 10);
  printf("%s\n", counter == expected ? "every launch ran" : "LAUNCHES LOST");
  return counter == expected ? 0 : 1;
}
#endif
