/* The C side of tests/mlir/translate/c-interface.mlir: a function that MLIR declares with
 * llvm.emit_c_interface, called through _mlir_ciface_, and a caller of the MLIR function's own C interface. */
#include <stdint.h>
#include <stdio.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref_1d_f32;

float _mlir_ciface_sum(memref_1d_f32 *m) {
  float s = 0;
  for (int64_t i = 0; i < m->sizes[0]; i++)
    s += m->aligned[m->offset + i * m->strides[0]];
  return s;
}

void _mlir_ciface_twice(memref_1d_f32 *result, memref_1d_f32 *m);

int main(void) {
  float x[6] = {1, 2, 3, 4, 5, 6};
  /* Every other element from the second: 2, 4, 6. */
  memref_1d_f32 m = {x, x, 1, {3}, {2}};
  memref_1d_f32 r;
  _mlir_ciface_twice(&r, &m);
  printf("sum %g, result offset %lld size %lld stride %lld, x[5] = %g\n", _mlir_ciface_sum(&m), (long long)r.offset,
         (long long)r.sizes[0], (long long)r.strides[0], x[5]);
  return 0;
}
