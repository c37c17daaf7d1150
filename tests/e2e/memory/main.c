/* Calls the generated run_memory and checks what the device memory operations wrote. */
#include <stdint.h>
#include <stdio.h>

/* Rank-1 memrefs expand to (allocated, aligned, offset, size, stride); an unranked one to (rank, descriptor). */
void run_memory(float *a0, float *a, int64_t ao, int64_t an, int64_t as, int16_t *b0, int16_t *b, int64_t bo,
                int64_t bn, int64_t bs, int64_t rank, void *descriptor, float v, int16_t h);

int main(void) {
  float out32[16] = {0};
  int16_t out16[8] = {0};
  static float pinned[64];
  struct {
    float *allocated, *aligned;
    int64_t offset, size, stride;
  } d = {pinned, pinned, 0, 64, 1};
  run_memory(out32, out32, 0, 16, 1, out16, out16, 0, 8, 1, 1, &d, 2.5f, -1234);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    bad += out32[i] != 2.5f;
  for (int i = 0; i < 8; i++)
    bad += out16[i] != -1234;
  if (bad) {
    printf("memory: FAILED, %d values wrong\n", bad);
    return 1;
  }
  printf("memory: OK, 16 x %g, 8 x %d\n", out32[0], out16[0]);
  return 0;
}
