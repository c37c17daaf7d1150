/* Runs symbols (symbols.mlir) and checks what the kernel and the host computed with the copied symbols. */
#include <stdint.h>
#include <stdio.h>
float symbols(float *oa, float *o, int64_t oo, int64_t on, int64_t os);
int main(void) {
  static float out[64];
  float host = symbols(out, out, 0, 64, 1);
  int bad = host != 6.0f;
  for (int i = 0; i < 64; i++) bad += out[i] != 3.0f * i * i;
  printf("symbols: %s, %d wrong, out[63] = %g\n", bad ? "FAILED" : "OK", bad, out[63]);
  return bad != 0;
}
