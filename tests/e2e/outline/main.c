/* Runs scale (scale.mlir) and checks every element. */
#include <stdint.h>
#include <stdio.h>
void scale(float a, float *xa, float *x, int64_t xo, int64_t xn, int64_t xs);
int main(void) {
  static float x[1024];
  for (int i = 0; i < 1024; i++) x[i] = (float)i;
  scale(3.0f, x, x, 0, 1024, 1);
  int bad = 0;
  for (int i = 0; i < 1024; i++) bad += x[i] != 3.0f * i;
  printf("scale: %s, %d wrong, x[1023] = %g\n", bad ? "FAILED" : "OK", bad, x[1023]);
  return bad != 0;
}
