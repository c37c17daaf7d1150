/* Runs greet (printf.mlir), whose kernel prints a line per thread, then says it is done. */
#include <stdio.h>
void greet(float x);
int main(void) {
  greet(1.5f);
  fflush(stdout);
  printf("printf: done\n");
  return 0;
}
