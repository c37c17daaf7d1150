/* A C program that uses libmgpu_runner_utils through its header, as a consumer of the installed package
 * does: prints a vector as vector.print does, a strided 2-D view of a memref, and checks a copy of it. */
#include "mgpu_runner_utils.h"

#include <stdio.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} memref2d;

int main(void) {
  static float data[12], copy[4];
  for (int i = 0; i < 12; i++)
    data[i] = (float)i / 4;
  printOpen();
  printF32(data[1]);
  printComma();
  printBF16(0x3fc0); /* 1.5 */
  printComma();
  printF16(0x3c00); /* 1 */
  printClose();
  printNewline();
  memref2d view = {data, data, 5, {2, 2}, {4, 2}}, dense = {copy, copy, 0, {2, 2}, {2, 1}};
  mgpuUnrankedMemRef from = {2, &view}, to = {2, &dense};
  memrefCopy(sizeof(float), &from, &to);
  printf("%s\n", verifyMemRefF32(2, &view, &view) == 0 ? "the view equals itself" : "the view differs");
  printMemrefF32(2, &dense);
  return 0;
}
