/* Calls every function of libmgpu_runner_utils and the function of the same name in upstream MLIR's runner
 * utilities with the same inputs, and compares what each writes on stdout and stderr, byte for byte, and
 * what it returns or copies. Inputs: scalars of every kind (all 65,536 f16 and bf16 values, float and
 * double bit patterns at random and the special ones), memrefs of ranks 0 to 5 with empty, negative and
 * zero strides, offsets and sizes of 0, elements of random bits and special values.
 *
 *   compare_runner_utils UPSTREAM_LIB_DIR OURS.so
 *
 * UPSTREAM_LIB_DIR holds libmlir_c_runner_utils.so.22.1, libmlir_runner_utils.so.22.1 and
 * libmlir_float16_utils.so.22.1. Prints one line per difference, then "compared: NAME..." (every function of
 * ours that was called) and "N checks, M differences"; exits 1 on a difference. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ the libraries */

static void *upstream[3], *ours;

static void *open_library(const char *path) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    exit(2);
  }
  return h;
}

static void *upstream_function(const char *name) {
  for (int i = 0; i < 3; i++) {
    void *f = dlsym(upstream[i], name);
    if (f)
      return f;
  }
  fprintf(stderr, "upstream has no %s\n", name);
  exit(2);
}

static void *our_function(const char *name) {
  void *f = dlsym(ours, name);
  if (!f) {
    fprintf(stderr, "libmgpu_runner_utils has no %s\n", name);
    exit(2);
  }
  return f;
}

/* ------------------------------------------------------------------ capturing stdout and stderr */

typedef struct output {
  char *out, *err;
  size_t outSize, errSize;
  int64_t result;
  off_t flushed; /* the bytes on fd 1 when the call returned: what it flushed itself */
} output;

static FILE *report;
static int outFd, errFd, savedOut, savedErr;

/* The bytes written to capture file `fd`. */
static char *slurp(int fd, size_t *size) {
  off_t n = lseek(fd, 0, SEEK_END);
  char *text = malloc((size_t)n + 1);
  if (n < 0 || !text || pread(fd, text, (size_t)n, 0) != n) {
    fprintf(report, "cannot read back the output\n");
    exit(2);
  }
  text[n] = '\0';
  *size = (size_t)n;
  return text;
}

/* A call of a function through the signature its case knows; returns what the function returned, or 0. */
typedef int64_t (*caller)(void *fn, const void *input);

static output captured(caller call, void *fn, const void *input) {
  fflush(stdout);
  fflush(stderr);
  /* The capture files' offsets are those of fds 1 and 2 while they stand in for them. */
  if (ftruncate(outFd, 0) != 0 || ftruncate(errFd, 0) != 0 || lseek(outFd, 0, SEEK_SET) != 0 ||
      lseek(errFd, 0, SEEK_SET) != 0 || dup2(outFd, 1) < 0 || dup2(errFd, 2) < 0)
    exit(2);
  output o = {0};
  /* Output of the program's own, still in stdout's buffer: whether the function flushes it (before writing
   * to stderr, as upstream's C++ streams do) shows in `flushed`. */
  fputs("the program's own output\n", stdout);
  o.result = call(fn, input);
  o.flushed = lseek(outFd, 0, SEEK_END);
  fflush(stdout);
  fflush(stderr);
  dup2(savedOut, 1);
  dup2(savedErr, 2);
  o.out = slurp(outFd, &o.outSize);
  o.err = slurp(errFd, &o.errSize);
  return o;
}

static int checks, differences;
static char *called[256];
static int calledCount;

static void note_called(const char *name) {
  for (int i = 0; i < calledCount; i++)
    if (strcmp(called[i], name) == 0)
      return;
  called[calledCount++] = strdup(name);
}

static void show(const char *label, const char *text, size_t size, size_t at) {
  size_t from = at > 60 ? at - 60 : 0, to = at + 60 < size ? at + 60 : size;
  fprintf(report, "  %s (%zu bytes), around byte %zu: \"", label, size, at);
  for (size_t i = from; i < to; i++)
    fprintf(report, (unsigned char)text[i] >= 32 && text[i] != '"' && text[i] != '\\' && text[i] != 127 ? "%c" : "\\x%02x",
            (unsigned char)text[i]);
  fprintf(report, "\"\n");
}

static bool same_stream(const char *what, const char *name, const char *detail, const char *up, size_t upSize,
                        const char *our, size_t ourSize) {
  if (upSize == ourSize && memcmp(up, our, upSize) == 0)
    return true;
  size_t at = 0;
  while (at < upSize && at < ourSize && up[at] == our[at])
    at++;
  fprintf(report, "DIFFERENT %s of %s (%s):\n", what, name, detail);
  show("upstream", up, upSize, at);
  show("ours", our, ourSize, at);
  return false;
}

/* Calls upstream's `upName` through `upCall` and our `name` through `ourCall` on `input`; compares. */
static void compare_as(const char *name, caller ourCall, const char *upName, caller upCall, const void *input,
                       const char *detail) {
  output u = captured(upCall, upstream_function(upName), input);
  output o = captured(ourCall, our_function(name), input);
  note_called(name);
  checks++;
  bool same = same_stream("stdout", name, detail, u.out, u.outSize, o.out, o.outSize) &
              same_stream("stderr", name, detail, u.err, u.errSize, o.err, o.errSize);
  if (same && u.flushed != o.flushed) {
    fprintf(report, "DIFFERENT flushing of %s (%s): upstream left %jd bytes on stdout's file, ours %jd\n", name,
            detail, (intmax_t)u.flushed, (intmax_t)o.flushed);
    same = false;
  }
  if (u.result != o.result) {
    fprintf(report, "DIFFERENT result of %s (%s): upstream %" PRId64 ", ours %" PRId64 "\n", name, detail, u.result,
            o.result);
    same = false;
  }
  differences += !same;
  free(u.out), free(u.err), free(o.out), free(o.err);
}

static void compare(const char *name, caller call, const void *input, const char *detail) {
  compare_as(name, call, name, call, input, detail);
}

/* ------------------------------------------------------------------ inputs */

static uint64_t state = 0x9E3779B97F4A7C15u;

static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static int64_t below(int64_t n) { return (int64_t)(next() % (uint64_t)n); }

typedef enum { I8, I16, I32, I64, IND, F16, BF16, F32, F64, C32, C64, KINDS } kind;
static const char *const kindName[] = {"I8", "I16", "I32", "I64", "Ind", "F16", "BF16", "F32", "F64", "C32", "C64"};
static const size_t kindSize[] = {1, 2, 4, 8, 8, 2, 2, 4, 8, 8, 16};

static const float specialFloats[] = {0.0f, -0.0f, 1.0f, -1.5f, 0.1f, 1e-5f, 1e-4f, 123456.0f, 1234567.0f, 1e20f,
                                      3.4028235e38f, 1e-40f, 1.4e-45f, 1.17549435e-38f, NAN, -NAN, INFINITY,
                                      -INFINITY, 999999.5f, 0.0025f, 100000.0f, 1e6f, -2.5e-7f};
static const double specialDoubles[] = {0.0, -0.0, 1.0, 0.1, 1e-5, 1e300, 4.9e-324, 2.2250738585072014e-308,
                                        1.0 / 3, 123456789.0, NAN, -NAN, INFINITY, -INFINITY, 1e15, 1e16, 999999.5};

static float random_float(void) {
  switch (below(4)) {
  case 0: return specialFloats[below(sizeof specialFloats / sizeof *specialFloats)];
  case 1: return (float)(below(4001) - 2000) / 8.0f;
  default: {
    uint32_t bits = (uint32_t)next();
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
  }
  }
}

static double random_double(void) {
  switch (below(4)) {
  case 0: return specialDoubles[below(sizeof specialDoubles / sizeof *specialDoubles)];
  case 1: return (double)(below(4001) - 2000) / 16.0;
  default: {
    uint64_t bits = next();
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
  }
}

static void random_element(kind k, void *p) {
  switch (k) {
  case F32: *(float *)p = random_float(); break;
  case F64: *(double *)p = random_double(); break;
  case C32: ((float *)p)[0] = random_float(), ((float *)p)[1] = random_float(); break;
  case C64: ((double *)p)[0] = random_double(), ((double *)p)[1] = random_double(); break;
  default: {
    uint64_t bits = below(3) == 0 ? (uint64_t)(below(21) - 10) : next();
    memcpy(p, &bits, kindSize[k]);
  }
  }
}

/* A memref: its descriptor (room for rank 5) in a buffer of random elements, with an allocated pointer
 * other than the aligned one. */
enum { CAPACITY = 4096, MAX_RANK = 5 };
typedef struct descriptor {
  void *allocated, *aligned;
  int64_t offset;
  int64_t shape[2 * MAX_RANK]; /* sizes, then strides, packed for the rank */
} descriptor;
typedef struct unranked {
  int64_t rank;
  void *descriptor;
} unranked;

typedef struct memref {
  kind k;
  int64_t rank;
  descriptor d;
  unranked u;
  unsigned char *buffer;
} memref;

static int64_t *sizes(memref *m) { return m->d.shape; }
static int64_t *strides(memref *m) { return m->d.shape + m->rank; }

/* Places the memref's element 0 so that every element it reaches (the first of an empty dimension too,
 * which upstream's printer shows) lies in its buffer. */
static void place(memref *m) {
  int64_t low = 0, high = 0;
  for (int64_t i = 0; i < m->rank; i++) {
    int64_t reach = (sizes(m)[i] > 1 ? sizes(m)[i] - 1 : 0) * strides(m)[i];
    if (reach < 0)
      low += reach;
    else
      high += reach;
  }
  m->d.offset = -low + below(CAPACITY - (high - low));
}

static void random_memref(memref *m, kind k, int64_t rank, unsigned char *buffer) {
  m->k = k;
  m->rank = rank;
  m->buffer = buffer;
  for (int64_t i = 0; i < CAPACITY; i++)
    random_element(k, buffer + i * (int64_t)kindSize[k]);
  bool contiguous = below(2) == 0;
  int64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; i--) {
    sizes(m)[i] = below(12) == 0 ? 0 : below(40) == 0 ? -1 : 1 + below(4);
    strides(m)[i] = contiguous ? stride : below(11) - 5;
    stride *= sizes(m)[i] > 0 ? sizes(m)[i] : 1;
  }
  place(m);
  m->d.aligned = buffer;
  m->d.allocated = buffer + 64;
  m->u.rank = rank;
  m->u.descriptor = &m->d;
}

static const char *describe(const memref *m) {
  static char text[512];
  int n = snprintf(text, sizeof text, "%s rank %" PRId64 " offset %" PRId64 " sizes/strides", kindName[m->k],
                   m->rank, m->d.offset);
  for (int64_t i = 0; i < 2 * m->rank && n < (int)sizeof text; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, " %" PRId64, m->d.shape[i]);
  return text;
}

/* ------------------------------------------------------------------ callers */

typedef struct batch {
  kind k;
  int count;
  const void *values;
} batch;

/* One call per value, a line break after each, through the C library's stdout as the program's own output. */
static int64_t call_scalars(void *fn, const void *input) {
  const batch *b = input;
  for (int i = 0; i < b->count; i++) {
    const char *v = (const char *)b->values + (size_t)i * kindSize[b->k];
    switch (b->k) {
    case I64: ((void (*)(int64_t))fn)(*(const int64_t *)v); break;
    case IND: ((void (*)(uint64_t))fn)(*(const uint64_t *)v); break;
    case F16:
    case BF16: ((void (*)(uint16_t))fn)(*(const uint16_t *)v); break;
    case F32: ((void (*)(float))fn)(*(const float *)v); break;
    case F64: ((void (*)(double))fn)(*(const double *)v); break;
    default: abort();
    }
    putchar('\n');
  }
  return 0;
}

static int64_t call_void(void *fn, const void *input) {
  (void)input;
  ((void (*)(void))fn)();
  return 0;
}

static int64_t call_string(void *fn, const void *input) {
  ((void (*)(const char *))fn)(input);
  return 0;
}

static int64_t call_flops(void *fn, const void *input) {
  ((void (*)(double))fn)(*(const double *)input);
  return 0;
}

static int64_t call_expanded(void *fn, const void *input) {
  const memref *m = input;
  ((void (*)(int64_t, const void *))fn)(m->rank, &m->d);
  return 0;
}

static int64_t call_unranked(void *fn, const void *input) {
  ((void (*)(const unranked *))fn)(&((const memref *)input)->u);
  return 0;
}

static int64_t call_ranked(void *fn, const void *input) {
  ((void (*)(const descriptor *))fn)(&((const memref *)input)->d);
  return 0;
}

static int64_t call_verify_expanded(void *fn, const void *input) {
  const memref *m = input;
  return ((int64_t(*)(int64_t, const void *, const void *))fn)(m[0].rank, &m[0].d, &m[1].d);
}

static int64_t call_verify_unranked(void *fn, const void *input) {
  const memref *m = input;
  return ((int64_t(*)(const unranked *, const unranked *))fn)(&m[0].u, &m[1].u);
}

/* ------------------------------------------------------------------ the checks */

static void scalars(const char *name, kind k, const void *values, int count) {
  batch b = {k, count, values};
  char detail[64];
  snprintf(detail, sizeof detail, "%d values, one a line", count);
  compare(name, call_scalars, &b, detail);
}

static void check_scalars(void) {
  enum { N = 4096 };
  static uint16_t halves[65536];
  for (int i = 0; i < 65536; i++)
    halves[i] = (uint16_t)i;
  scalars("printF16", F16, halves, 65536);
  scalars("printBF16", BF16, halves, 65536);
  static float floats[N];
  static double doubles[N];
  static int64_t integers[N];
  for (int i = 0; i < N; i++) {
    floats[i] = random_float();
    doubles[i] = random_double();
    integers[i] = i < 4 ? (int64_t[]){INT64_MIN, INT64_MAX, -1, 0}[i] : (int64_t)next() >> below(64);
  }
  scalars("printF32", F32, floats, N);
  scalars("printF64", F64, doubles, N);
  scalars("printI64", I64, integers, N);
  scalars("printU64", IND, integers, N);
  for (const char *const *n = (const char *const[]){"printOpen", "printClose", "printComma", "printNewline", NULL}; *n;
       n++)
    compare(*n, call_void, NULL, "no arguments");
  for (const char *const *s = (const char *const[]){"", "hello", "tab\there\n", "%d %s %n", "\xff\x01", NULL}; *s; s++)
    compare("printString", call_string, *s, *s);
  for (int i = 0; i < 200; i++) {
    double flops = i < 8 ? (double[]){0, -0.0, 1.5e9, 1e30, NAN, INFINITY, -1, 1234.5678}[i] : random_double();
    compare("printFlops", call_flops, &flops, "random double");
  }
}

static unsigned char buffers[2][CAPACITY * 16];

static void check_printing(void) {
  static const kind upstreamHasExpanded[] = {I32, I64, F32, F64, IND, C32, C64};
  static const kind hasShape[] = {I8, I32, I64, F32, F64, IND, C32, C64};
  char name[64], upName[64];
  for (int round = 0; round < 40; round++)
    for (kind k = 0; k < KINDS; k++)
      for (int64_t rank = 0; rank <= MAX_RANK; rank++) {
        memref m;
        random_memref(&m, k, rank, buffers[0]);
        snprintf(name, sizeof name, "_mlir_ciface_printMemref%s", kindName[k]);
        compare(name, call_unranked, &m, describe(&m));
        snprintf(name, sizeof name, "printMemref%s", kindName[k]);
        bool expanded = false;
        for (size_t i = 0; i < sizeof upstreamHasExpanded / sizeof *upstreamHasExpanded; i++)
          expanded |= upstreamHasExpanded[i] == k;
        /* Upstream has only the _mlir_ciface_ form of I8, I16, F16 and BF16; ours must print the same. */
        snprintf(upName, sizeof upName, expanded ? "printMemref%s" : "_mlir_ciface_printMemref%s", kindName[k]);
        compare_as(name, call_expanded, upName, expanded ? call_expanded : call_unranked, &m, describe(&m));
        for (size_t i = 0; i < sizeof hasShape / sizeof *hasShape; i++)
          if (hasShape[i] == k) {
            snprintf(name, sizeof name, "_mlir_ciface_printMemrefShape%s", kindName[k]);
            compare(name, call_unranked, &m, describe(&m));
            m.d.aligned = NULL; /* only the shape is read */
            compare(name, call_unranked, &m, "a NULL aligned pointer");
          }
        if (rank <= 4 && (k == F32 || (rank == 1 && k != I16 && k != F16 && k != BF16))) {
          random_memref(&m, k, rank, buffers[0]);
          snprintf(name, sizeof name, "_mlir_ciface_printMemref%" PRId64 "d%s", rank, kindName[k]);
          compare(name, call_ranked, &m, describe(&m));
        }
      }
}

/* `expected` as a copy of `actual` in the other buffer, with some elements changed: by a few units in the
 * last place for floats (to find the tolerance's edge), or to random values. */
static void perturb(memref *actual, memref *expected) {
  *expected = *actual;
  expected->buffer = buffers[1];
  memcpy(buffers[1], buffers[0], sizeof buffers[1]);
  expected->d.aligned = buffers[1];
  expected->d.allocated = buffers[1] + 64;
  expected->u.descriptor = &expected->d;
  size_t size = kindSize[actual->k];
  int changes = (int)below(3) == 0 ? 0 : (int)below(30);
  for (int i = 0; i < changes; i++) {
    unsigned char *e = buffers[1] + (size_t)below(CAPACITY) * size;
    if (below(2) && (actual->k == F32 || actual->k == F64)) {
      int ulps = (int)below(30) - 15;
      if (actual->k == F32)
        for (int u = 0; u != ulps; u += ulps > 0 ? 1 : -1)
          *(float *)e = nextafterf(*(float *)e, ulps > 0 ? INFINITY : -INFINITY);
      else
        for (int u = 0; u != ulps * 400; u += ulps > 0 ? 1 : -1)
          *(double *)e = nextafter(*(double *)e, ulps > 0 ? INFINITY : -INFINITY);
    } else {
      random_element(actual->k, e);
    }
  }
  /* The first 64 elements of every buffer are 1 and, in the expected one, 1 moved across the tolerance's
   * edge: for f32 by 1 to 16 units in the last place, for f64 by 0.968 to 1.031 times 1e-12, up and down. */
  for (int i = 0; i < 64; i++) {
    double side = i < 32 ? 1 : -1;
    if (actual->k == F32)
      ((float *)buffers[0])[i] = 1.0f, ((float *)buffers[1])[i] = 1.0f + (float)side * (float)(i % 32) * 6e-8f;
    else if (actual->k == F64)
      ((double *)buffers[0])[i] = 1.0, ((double *)buffers[1])[i] = 1.0 + side * 1e-12 * (1 + (i % 32 - 16) / 500.0);
  }
  switch (below(8)) {
  case 0: expected->d.offset += actual->rank > 0 ? 1 : 3; break; /* rank 0: offsets are not compared */
  case 1:
    if (actual->rank > 0)
      sizes(expected)[below(actual->rank)] += 1;
    break;
  case 2:
    if (actual->rank > 0)
      strides(expected)[below(actual->rank)] += 1;
    break;
  default: break;
  }
}

static void check_verification(void) {
  static const kind upstreamHasExpanded[] = {I32, F32, F64, IND, C32, C64};
  char name[64];
  for (int round = 0; round < 60; round++)
    for (kind k = 0; k < KINDS; k++)
      for (int64_t rank = 0; rank <= MAX_RANK; rank++) {
        memref m[2];
        random_memref(&m[0], k, rank, buffers[0]);
        if (sizes(&m[0])[0] < 0 && rank > 0) /* upstream's verification takes no sizes below 0 */
          sizes(&m[0])[0] = 0;
        perturb(&m[0], &m[1]);
        snprintf(name, sizeof name, "_mlir_ciface_verifyMemRef%s", kindName[k]);
        compare(name, call_verify_unranked, m, describe(&m[0]));
        for (size_t i = 0; i < sizeof upstreamHasExpanded / sizeof *upstreamHasExpanded; i++)
          if (upstreamHasExpanded[i] == k) {
            snprintf(name, sizeof name, "verifyMemRef%s", kindName[k]);
            compare(name, call_verify_expanded, m, describe(&m[0]));
          }
      }
}

/* memrefCopy into a destination of the same sizes and other strides and offset: the destination's buffer
 * after upstream's copy and after ours must be the same. */
static void check_copies(void) {
  static unsigned char before[CAPACITY * 16], afterUpstream[CAPACITY * 16];
  void (*up)(int64_t, unranked *, unranked *) = (void (*)(int64_t, unranked *, unranked *))upstream_function("memrefCopy");
  void (*our)(int64_t, unranked *, unranked *) = (void (*)(int64_t, unranked *, unranked *))our_function("memrefCopy");
  note_called("memrefCopy");
  for (int round = 0; round < 400; round++) {
    kind k = (kind)below(KINDS);
    int64_t rank = below(MAX_RANK + 1);
    memref s, d;
    random_memref(&s, k, rank, buffers[0]);
    random_memref(&d, k, rank, buffers[1]);
    for (int64_t i = 0; i < rank; i++) {
      if (sizes(&s)[i] < 0)
        sizes(&s)[i] = 0;
      sizes(&d)[i] = sizes(&s)[i];
      strides(&d)[i] = below(11) - 5;
    }
    place(&d);
    memcpy(before, buffers[1], sizeof before);
    up((int64_t)kindSize[k], &s.u, &d.u);
    memcpy(afterUpstream, buffers[1], sizeof afterUpstream);
    memcpy(buffers[1], before, sizeof before);
    our((int64_t)kindSize[k], &s.u, &d.u);
    checks++;
    if (memcmp(afterUpstream, buffers[1], sizeof afterUpstream) != 0) {
      fprintf(report, "DIFFERENT copy by memrefCopy (%s)\n", describe(&s));
      differences++;
    }
  }
}

/* The clocks cannot print the same bytes; each reading of ours must fall between two of upstream's. */
static void check_clocks(void) {
  double (*upClock)(void) = (double (*)(void))upstream_function("rtclock");
  double (*ourClock)(void) = (double (*)(void))our_function("rtclock");
  int64_t (*upNano)(void) = (int64_t(*)(void))upstream_function("_mlir_ciface_nanoTime");
  int64_t (*ourNano)(void) = (int64_t(*)(void))our_function("_mlir_ciface_nanoTime");
  note_called("rtclock");
  note_called("_mlir_ciface_nanoTime");
  for (int i = 0; i < 100; i++) {
    /* Upstream's rtclock counts microseconds, ours nanoseconds. */
    double a = upClock(), b = ourClock(), c = upClock();
    int64_t x = upNano(), y = ourNano(), z = upNano();
    checks += 2;
    if (!(a <= b + 1e-6 && b <= c + 1e-6) || !(x <= y && y <= z)) {
      fprintf(report, "DIFFERENT clocks: rtclock %.9f %.9f %.9f, nanoTime %" PRId64 " %" PRId64 " %" PRId64 "\n", a, b,
              c, x, y, z);
      differences++;
    }
  }
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s UPSTREAM_LIB_DIR OURS.so\n", argv[0]);
    return 2;
  }
  static const char *const names[] = {"libmlir_c_runner_utils.so.22.1", "libmlir_runner_utils.so.22.1",
                                      "libmlir_float16_utils.so.22.1"};
  for (int i = 0; i < 3; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
    upstream[i] = open_library(path);
  }
  ours = open_library(argv[2]);
  savedOut = dup(1);
  savedErr = dup(2);
  report = fdopen(dup(1), "w");
  FILE *outFile = tmpfile(), *errFile = tmpfile();
  if (savedOut < 0 || savedErr < 0 || !report || !outFile || !errFile)
    return 2;
  outFd = fileno(outFile);
  errFd = fileno(errFile);
  check_scalars();
  check_printing();
  check_verification();
  check_copies();
  check_clocks();
  qsort(called, (size_t)calledCount, sizeof *called, by_name);
  fprintf(report, "compared:");
  for (int i = 0; i < calledCount; i++)
    fprintf(report, " %s", called[i]);
  fprintf(report, "\n%d checks, %d differences\n", checks, differences);
  fclose(report);
  return differences ? 1 : 0;
}
