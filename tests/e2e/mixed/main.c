#include <stdint.h>
#include <stdio.h>

void run_mixed(double *alloc, double *aligned, int64_t off, int64_t n, int64_t s);

int main(void) {
  double out[8] = {0};
  run_mixed(out, out, 0, 8, 1);
  const double expect[8] = {-7, -1234, 123456789, -9876543210123.0, 1.5, -2.25,
                            (double)(-7 - 1234 + 123456789) + -9876543210123.0 + 1.5 + -2.25, 42};
  int bad = 0;
  for (int i = 0; i < 8; i++)
    if (out[i] != expect[i]) {
      fprintf(stderr, "mixed: out[%d] = %.17g, expected %.17g\n", i, out[i], expect[i]);
      bad++;
    }
  if (bad) {
    printf("mixed: FAILED\n");
    return 1;
  }
  printf("mixed: OK, i8 %g i16 %g i32 %g i64 %.0f f32 %g f64 %g\n", out[0], out[1], out[2], out[3], out[4], out[5]);
  return 0;
}
