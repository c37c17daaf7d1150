/* libmgpu_runner_utils: upstream MLIR's runner utilities (mgpu_runner_utils.h), printing what upstream's
 * print, byte for byte, through the C library's stdout and stderr. */
#define _POSIX_C_SOURCE 200809L
#include "mgpu_runner_utils.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* ------------------------------------------------------------------ element types */

typedef enum { I8, I16, I32, I64, IND, F16, BF16, F32, F64, C32, C64 } kind;

static const size_t element_size[] = {1, 2, 4, 8, 8, 2, 2, 4, 8, 8, 16};

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu, bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | mantissa << 13;
  } else if (exponent != 0) {
    bits = sign | (exponent + 112) << 23 | mantissa << 13;
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    /* A subnormal half is a normal float: shift the leading one into the implicit bit. */
    exponent = 113;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      exponent--;
    }
    bits = sign | exponent << 23 | (mantissa & 0x3ffu) << 13;
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static float bfloat_to_float(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* The element at `p` of kind `k`, as upstream's stream prints it. */
static void print_element(FILE *out, kind k, const void *p) {
  switch (k) {
  case I8: putc(*(const char *)p, out); break;
  case I16: fprintf(out, "%d", *(const int16_t *)p); break;
  case I32: fprintf(out, "%" PRId32, *(const int32_t *)p); break;
  case I64: fprintf(out, "%" PRId64, *(const int64_t *)p); break;
  case IND: fprintf(out, "%" PRIu64, *(const uint64_t *)p); break;
  case F16: fprintf(out, "%g", (double)half_to_float(*(const uint16_t *)p)); break;
  case BF16: fprintf(out, "%g", (double)bfloat_to_float(*(const uint16_t *)p)); break;
  case F32: fprintf(out, "%g", (double)*(const float *)p); break;
  case F64: fprintf(out, "%g", *(const double *)p); break;
  case C32: fprintf(out, "(%g,%g)", (double)((const float *)p)[0], (double)((const float *)p)[1]); break;
  case C64: fprintf(out, "(%g,%g)", ((const double *)p)[0], ((const double *)p)[1]); break;
  }
}

/* Whether verifyMemRef takes `a` (actual) and `e` (expected) as equal. */
static bool elements_equal(kind k, const void *a, const void *e) {
  switch (k) {
  case I8: return *(const int8_t *)a == *(const int8_t *)e;
  case I16:
  case F16:
  case BF16: return *(const uint16_t *)a == *(const uint16_t *)e;
  case I32: return *(const int32_t *)a == *(const int32_t *)e;
  case I64:
  case IND: return *(const int64_t *)a == *(const int64_t *)e;
  case F32: {
    float x = *(const float *)a, y = *(const float *)e, d = x - y, m = y < 0 ? -y : y;
    return (d < 0 ? -d : d) <= 1e-6f * m;
  }
  case F64: {
    double x = *(const double *)a, y = *(const double *)e, d = x - y, m = y < 0 ? -y : y;
    return (d < 0 ? -d : d) <= 1e-12 * m;
  }
  case C32: return ((const float *)a)[0] == ((const float *)e)[0] && ((const float *)a)[1] == ((const float *)e)[1];
  case C64:
    return ((const double *)a)[0] == ((const double *)e)[0] && ((const double *)a)[1] == ((const double *)e)[1];
  }
  return false;
}

/* ------------------------------------------------------------------ descriptors */

typedef struct memref {
  int64_t rank;
  char *aligned;
  int64_t offset;
  const int64_t *sizes, *strides;
} memref;

static memref read_descriptor(int64_t rank, void *descriptor) {
  char *d = descriptor;
  memref m = {rank, *(char **)(d + sizeof(void *)), 0, NULL, NULL};
  memcpy(&m.offset, d + 2 * sizeof(void *), sizeof m.offset);
  m.sizes = (const int64_t *)(d + 2 * sizeof(void *) + sizeof(int64_t));
  m.strides = m.sizes + rank;
  return m;
}

static void print_pointer(FILE *out, const void *p) {
  if (p)
    fprintf(out, "0x%" PRIxPTR, (uintptr_t)p);
  else
    putc('0', out);
}

static void print_list(FILE *out, const int64_t *values, int64_t count) {
  putc('[', out);
  for (int64_t i = 0; i < count; i++)
    fprintf(out, "%s%" PRId64, i ? ", " : "", values[i]);
  putc(']', out);
}

/* "base@ = ... strides = [...]", upstream's description of a descriptor. */
static void print_shape(FILE *out, const memref *m) {
  fputs("base@ = ", out);
  print_pointer(out, m->aligned);
  fprintf(out, " rank = %" PRId64 " offset = %" PRId64 " sizes = ", m->rank, m->offset);
  print_list(out, m->sizes, m->rank);
  fputs(" strides = ", out);
  print_list(out, m->strides, m->rank);
}

/* Dimension `d` from element `at`: its first element always, then the others, each after ", ", a line
 * break unless its elements are scalars, and d + 1 spaces. */
static void print_dimension(FILE *out, kind k, const memref *m, int64_t d, int64_t at) {
  putc('[', out);
  for (int64_t i = 0; i == 0 || i < m->sizes[d]; i++) {
    if (i > 0)
      fprintf(out, "%s%*s", d + 1 < m->rank ? ", \n" : ", ", (int)(d + 1), "");
    int64_t here = at + i * m->strides[d];
    if (d + 1 < m->rank)
      print_dimension(out, k, m, d + 1, here);
    else
      print_element(out, k, m->aligned + here * (int64_t)element_size[k]);
  }
  putc(']', out);
}

static void print_memref(kind k, const char *prefix, int64_t rank, void *descriptor) {
  memref m = read_descriptor(rank, descriptor);
  fputs(prefix, stdout);
  print_shape(stdout, &m);
  fputs(" data = \n", stdout);
  if (rank == 0) {
    putc('[', stdout);
    print_element(stdout, k, m.aligned + m.offset * (int64_t)element_size[k]);
    putc(']', stdout);
  } else {
    print_dimension(stdout, k, &m, 0, m.offset);
  }
  putc('\n', stdout);
  fflush(stdout);
}

static void print_memref_shape(int64_t rank, void *descriptor) {
  memref m = read_descriptor(rank, descriptor);
  fputs("Unranked Memref ", stdout);
  print_shape(stdout, &m);
  putc('\n', stdout);
}

/* Compares dimension `d` onwards from element `at`, counting in *errors the elements that differ and printing
 * the first 10 of all. */
static void compare_dimension(kind k, const memref *a, const memref *e, int64_t d, int64_t at, int64_t *errors) {
  if (d == a->rank) {
    const char *x = a->aligned + at * (int64_t)element_size[k], *y = e->aligned + at * (int64_t)element_size[k];
    if (!elements_equal(k, x, y) && (*errors)++ < 10) {
      fflush(stdout); /* as upstream's std::cerr, tied to std::cout, does before each report */
      print_element(stderr, k, x);
      fputs(" != ", stderr);
      print_element(stderr, k, y);
      fprintf(stderr, " offset = %" PRId64 "\n", at);
    }
    return;
  }
  for (int64_t i = 0; i < a->sizes[d]; i++)
    compare_dimension(k, a, e, d + 1, at + i * a->strides[d], errors);
}

static int64_t verify_memref(kind k, int64_t rank, void *actual, void *expected) {
  memref a = read_descriptor(rank, actual), e = read_descriptor(rank, expected);
  bool same = rank == 0 || a.offset == e.offset;
  for (int64_t i = 0; i < rank && same; i++)
    same = a.sizes[i] == e.sizes[i] && a.strides[i] == e.strides[i];
  if (!same) {
    fflush(stdout);
    print_shape(stderr, &a);
    print_shape(stderr, &e);
    return -1;
  }
  int64_t errors = 0;
  compare_dimension(k, &a, &e, 0, a.offset, &errors);
  return errors;
}

static int64_t verify_unranked(kind k, mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected) {
  return verify_memref(k, actual->rank, actual->descriptor, expected->descriptor);
}

/* ------------------------------------------------------------------ the exported functions */

void printI64(int64_t value) { printf("%" PRId64, value); }
void printU64(uint64_t value) { printf("%" PRIu64, value); }
void printF32(float value) { printf("%g", (double)value); }
void printF64(double value) { printf("%g", value); }
void printF16(uint16_t bits) { printf("%g", (double)half_to_float(bits)); }
void printBF16(uint16_t bits) { printf("%g", (double)bfloat_to_float(bits)); }
void printString(const char *text) { fputs(text, stdout); }
void printOpen(void) { fputs("( ", stdout); }
void printClose(void) { fputs(" )", stdout); }
void printComma(void) { fputs(", ", stdout); }
void printNewline(void) { putc('\n', stdout); }

#define PRINT_MEMREF(NAME, KIND)                                                                                 \
  void printMemref##NAME(int64_t rank, void *descriptor) { print_memref(KIND, "Unranked Memref ", rank, descriptor); } \
  void _mlir_ciface_printMemref##NAME(mgpuUnrankedMemRef *m) {                                                   \
    print_memref(KIND, "Unranked Memref ", m->rank, m->descriptor);                                              \
  }
PRINT_MEMREF(I8, I8)
PRINT_MEMREF(I16, I16)
PRINT_MEMREF(I32, I32)
PRINT_MEMREF(I64, I64)
PRINT_MEMREF(F16, F16)
PRINT_MEMREF(BF16, BF16)
PRINT_MEMREF(F32, F32)
PRINT_MEMREF(F64, F64)
PRINT_MEMREF(Ind, IND)
PRINT_MEMREF(C32, C32)
PRINT_MEMREF(C64, C64)

#define PRINT_RANKED(NAME, RANK, KIND)                                                                           \
  void _mlir_ciface_printMemref##NAME(void *descriptor) { print_memref(KIND, "Memref ", RANK, descriptor); }
PRINT_RANKED(0dF32, 0, F32)
PRINT_RANKED(1dF32, 1, F32)
PRINT_RANKED(2dF32, 2, F32)
PRINT_RANKED(3dF32, 3, F32)
PRINT_RANKED(4dF32, 4, F32)
PRINT_RANKED(1dI8, 1, I8)
PRINT_RANKED(1dI32, 1, I32)
PRINT_RANKED(1dI64, 1, I64)
PRINT_RANKED(1dF64, 1, F64)
PRINT_RANKED(1dInd, 1, IND)
PRINT_RANKED(1dC32, 1, C32)
PRINT_RANKED(1dC64, 1, C64)

#define PRINT_SHAPE(NAME)                                                                                        \
  void _mlir_ciface_printMemrefShape##NAME(mgpuUnrankedMemRef *m) { print_memref_shape(m->rank, m->descriptor); }
PRINT_SHAPE(I8)
PRINT_SHAPE(I32)
PRINT_SHAPE(I64)
PRINT_SHAPE(F32)
PRINT_SHAPE(F64)
PRINT_SHAPE(Ind)
PRINT_SHAPE(C32)
PRINT_SHAPE(C64)

#define VERIFY_UNRANKED(NAME, KIND)                                                                              \
  int64_t _mlir_ciface_verifyMemRef##NAME(mgpuUnrankedMemRef *actual, mgpuUnrankedMemRef *expected) {            \
    return verify_unranked(KIND, actual, expected);                                                              \
  }
#define VERIFY(NAME, KIND)                                                                                       \
  int64_t verifyMemRef##NAME(int64_t rank, void *actual, void *expected) {                                       \
    return verify_memref(KIND, rank, actual, expected);                                                          \
  }                                                                                                              \
  VERIFY_UNRANKED(NAME, KIND)
VERIFY_UNRANKED(I8, I8)
VERIFY_UNRANKED(I16, I16)
VERIFY(I32, I32)
VERIFY_UNRANKED(I64, I64)
VERIFY_UNRANKED(F16, F16)
VERIFY_UNRANKED(BF16, BF16)
VERIFY(F32, F32)
VERIFY(F64, F64)
VERIFY(Ind, IND)
VERIFY(C32, C32)
VERIFY(C64, C64)

static void copy_dimension(int64_t size, const memref *s, const memref *d, int64_t dim, int64_t from, int64_t to) {
  if (dim == s->rank) {
    memcpy(d->aligned + to * size, s->aligned + from * size, (size_t)size);
    return;
  }
  for (int64_t i = 0; i < s->sizes[dim]; i++)
    copy_dimension(size, s, d, dim + 1, from + i * s->strides[dim], to + i * d->strides[dim]);
}

void memrefCopy(int64_t elementSize, mgpuUnrankedMemRef *source, mgpuUnrankedMemRef *destination) {
  memref s = read_descriptor(source->rank, source->descriptor);
  memref d = read_descriptor(destination->rank, destination->descriptor);
  copy_dimension(elementSize, &s, &d, 0, s.offset, d.offset);
}

/* Microseconds, as upstream's rtclock counts them (a reading of ours never runs ahead of a later one of theirs). */
double rtclock(void) {
  struct timeval t;
  gettimeofday(&t, NULL);
  return (double)t.tv_sec + (double)t.tv_usec * 1.0e-6;
}

int64_t _mlir_ciface_nanoTime(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void printFlops(double flops) { fprintf(stderr, "%f GFLOPS\n", flops / 1.0e9); }
