/*
 * mgpu_runner_utils.h: the printing, timing and checking functions that upstream MLIR programs call from
 * mlir_runner_utils, mlir_c_runner_utils and mlir_float16_utils (vector.print, printMemref*, rtclock,
 * verifyMemRef*, memref.copy of strided memrefs), in a library of their own: libmgpu_runner_utils (shared,
 * SONAME libmgpu_runner_utils.so.0, and static). Each name and signature is upstream's, and each prints
 * byte for byte what upstream's prints, on the same stream (stdout through the C library's FILE, so it
 * interleaves with printf; verifyMemRef* reports and printFlops on stderr).
 *
 * Memrefs come as upstream's descriptors. A ranked memref of rank r is
 *   { T *allocated; T *aligned; int64_t offset; int64_t sizes[r]; int64_t strides[r]; }
 * and an unranked one is { int64_t rank; void *descriptor; }, which a function without the _mlir_ciface_
 * prefix takes as two arguments (rank, descriptor) and a _mlir_ciface_ function by pointer.
 *
 * Elements print as upstream's do: integers in decimal (index as unsigned), i8 as the character of that
 * byte, floats (f16 and bf16 widened exactly) as printf's %g, complex numbers as (re,im).
 */
#ifndef MGPU_RUNNER_UTILS_H
#define MGPU_RUNNER_UTILS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mgpuUnrankedMemRef {
  int64_t rank;
  void *descriptor; /* a ranked descriptor of that rank */
} mgpuUnrankedMemRef;

/* ------------------------------------------------------------------ scalars (what vector.print calls) */

void printI64(int64_t value);
void printU64(uint64_t value);
void printF32(float value);
void printF64(double value);
void printF16(uint16_t bits);  /* an IEEE half, by its bits */
void printBF16(uint16_t bits); /* a bfloat16, by its bits */
void printString(const char *text);
void printOpen(void);    /* "( " */
void printClose(void);   /* " )" */
void printComma(void);   /* ", " */
void printNewline(void); /* "\n" */

/* ------------------------------------------------------------------ memrefs */

/* "Unranked Memref base@ = <aligned> rank = R offset = O sizes = [...] strides = [...] data = ", a line
 * break, the elements in nested brackets (a dimension of size 0 or less still shows its first element, as
 * upstream's does), a line break; stdout is flushed. */
void printMemrefI8(int64_t rank, void *descriptor);
void printMemrefI16(int64_t rank, void *descriptor);
void printMemrefI32(int64_t rank, void *descriptor);
void printMemrefI64(int64_t rank, void *descriptor);
void printMemrefF16(int64_t rank, void *descriptor);
void printMemrefBF16(int64_t rank, void *descriptor);
void printMemrefF32(int64_t rank, void *descriptor);
void printMemrefF64(int64_t rank, void *descriptor);
void printMemrefInd(int64_t rank, void *descriptor);
void printMemrefC32(int64_t rank, void *descriptor);
void printMemrefC64(int64_t rank, void *descriptor);
void _mlir_ciface_printMemrefI8(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefI16(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefI32(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefI64(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefF16(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefBF16(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefF32(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefF64(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefInd(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefC32(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefC64(mgpuUnrankedMemRef *memref);

/* The same for a ranked descriptor of the rank in the name; the header starts "Memref base@". */
void _mlir_ciface_printMemref0dF32(void *descriptor);
void _mlir_ciface_printMemref1dF32(void *descriptor);
void _mlir_ciface_printMemref2dF32(void *descriptor);
void _mlir_ciface_printMemref3dF32(void *descriptor);
void _mlir_ciface_printMemref4dF32(void *descriptor);
void _mlir_ciface_printMemref1dI8(void *descriptor);
void _mlir_ciface_printMemref1dI32(void *descriptor);
void _mlir_ciface_printMemref1dI64(void *descriptor);
void _mlir_ciface_printMemref1dF64(void *descriptor);
void _mlir_ciface_printMemref1dInd(void *descriptor);
void _mlir_ciface_printMemref1dC32(void *descriptor);
void _mlir_ciface_printMemref1dC64(void *descriptor);

/* The header line alone, ending "strides = [...]" and a line break. */
void _mlir_ciface_printMemrefShapeI8(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeI32(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeI64(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeF32(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeF64(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeInd(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeC32(mgpuUnrankedMemRef *memref);
void _mlir_ciface_printMemrefShapeC64(mgpuUnrankedMemRef *memref);

/*
 * Compares `actual` with `expected` element by element and returns the number of elements that differ,
 * after printing the first 10 on stderr as "A != E offset = N"; -1, after printing both descriptors' shapes
 * on stderr, when a memref of rank 1 or more differs from the other in offset, sizes or strides. f32
 * elements are equal within 1e-6 of the expected value's magnitude, f64 within 1e-12, so NaN equals nothing;
 * f16 and bf16 elements are equal when their bits are; integers and complex numbers when their values are.
 * The forms without the prefix take one rank for both.
 */
int64_t verifyMemRefI32(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefF32(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefF64(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefInd(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefC32(int64_t rank, void *actual, void *expected);
int64_t verifyMemRefC64(int64_t rank, void *actual, void *expected);
int64_t _mlir_ciface_verifyMemRefI8(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefI16(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefI32(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefI64(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefF16(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefBF16(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefF32(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefF64(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefInd(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefC32(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);
int64_t _mlir_ciface_verifyMemRefC64(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected);

/* Copies the elements of `source` (of `elementSize` bytes each) into `destination`, which has its sizes;
 * what memref.copy of memrefs that are not both contiguous lowers to. */
void memrefCopy(int64_t elementSize, mgpuUnrankedMemRef *source, mgpuUnrankedMemRef *destination);

/* ------------------------------------------------------------------ timing */

double rtclock(void);               /* seconds since the epoch (the system clock) */
int64_t _mlir_ciface_nanoTime(void); /* nanoseconds since the epoch (the system clock) */
void printFlops(double flops);      /* "<flops / 1e9, %f> GFLOPS" and a line break, on stderr */

#ifdef __cplusplus
}
#endif

#endif /* MGPU_RUNNER_UTILS_H */
