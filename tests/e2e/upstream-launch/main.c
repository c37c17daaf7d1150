/* Calls scale_all of scale.mlir on 1000 floats (a memref<?xf32> as its descriptor's fields) and checks each. */
#include <stdint.h>
#include <stdio.h>

void scale_all(float *allocated, float *aligned, int64_t offset, int64_t size, int64_t stride, float f);

int main(void) {
  static float x[1000];
  for (int i = 0; i < 1000; i++)
    x[i] = (float)i;
  scale_all(x, x, 0, 1000, 1, 2.5f);
  int bad = 0;
  for (int i = 0; i < 1000; i++)
    bad += x[i] != 2.5f * (float)i;
  printf("scale: %s, 1000 elements checked, x[999] = %g\n", bad ? "FAILED" : "OK", x[999]);
  return bad != 0;
}
