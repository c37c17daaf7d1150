/* Eight threads run the generated run_axpy at the same time, each on arrays of its own, twice, and check
 * every element. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define N 1024
#define THREADS 8

void run_axpy(float a, float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *ya, float *y, int64_t yo,
              int64_t yn, int64_t ys);

static void *work(void *arg) {
  intptr_t t = (intptr_t)arg, bad = 0;
  float x[N], y[N];
  for (int run = 0; run < 2; run++) {
    for (int i = 0; i < N; i++) {
      x[i] = (float)i;
      y[i] = (float)(t * 10 + run);
    }
    run_axpy(0.5f, x, x, 0, N, 1, y, y, 0, N, 1);
    for (int i = 0; i < N; i++)
      bad += y[i] != 0.5f * (float)i + (float)(t * 10 + run);
  }
  return (void *)bad;
}

int main(void) {
  pthread_t threads[THREADS];
  for (intptr_t t = 0; t < THREADS; t++)
    pthread_create(&threads[t], NULL, work, (void *)t);
  intptr_t bad = 0;
  for (int t = 0; t < THREADS; t++) {
    void *r;
    pthread_join(threads[t], &r);
    bad += (intptr_t)r;
  }
  if (bad) {
    printf("threads: FAILED, %ld elements wrong\n", (long)bad);
    return 1;
  }
  printf("threads: OK, %d threads x 2 runs\n", THREADS);
  return 0;
}
