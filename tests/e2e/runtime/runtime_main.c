/* Drives libmgpu through the faults it must report instead of crashing, clamping or dropping work: one
 * scenario per run, named by the first argument. What the runtime does is printed on stdout; its reports go
 * to stderr. The kernel is `count` (count_cpu.c): the CPU object whose path RT_KERNELS names, or a stand-in
 * driver's image of it on CUDA (sm_90) and HIP (gfx90a). */
#include "mgpu.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *backend(void) { return mgpuBackendName(); }

/* The bytes of file `path`; exits when it cannot be read. */
static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f || fseek(f, 0, SEEK_END) != 0) {
    printf("cannot read %s\n", path);
    exit(2);
  }
  long n = ftell(f);
  unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
  rewind(f);
  if (n < 0 || !data || fread(data, 1, (size_t)n, f) != (size_t)n) {
    printf("cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* The image of the count kernel for the backend in use. */
static const void *image(size_t *size) {
  static const char cubin[] = "FAKECUBIN sm_90 count\n", hsaco[] = "FAKEHSACO gfx90a count\n";
  if (strcmp(backend(), "cuda") == 0) {
    *size = sizeof cubin;
    return cubin;
  }
  if (strcmp(backend(), "hip") == 0) {
    *size = sizeof hsaco;
    return hsaco;
  }
  const char *path = getenv("RT_KERNELS");
  if (!path) {
    printf("RT_KERNELS is not set\n");
    exit(2);
  }
  static unsigned char *cpu;
  static size_t cpuSize;
  if (!cpu)
    cpu = read_file(path, &cpuSize);
  *size = cpuSize;
  return cpu;
}

/* The module load_count loaded, for unload_count. */
static void *loaded;

static void *load_count(void) {
  size_t size;
  const void *data = image(&size);
  loaded = mgpuModuleLoad((void *)data, size);
  return mgpuModuleGetFunction(loaded, "count");
}

static int unload_count(void) {
  mgpuModuleUnload(loaded);
  return 0;
}

/* Launches `fn` and prints how many threads ran. */
static void launch(void *fn, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                   int32_t smem) {
  int64_t counter = 0, *p = &counter;
  void *params[] = {&p};
  mgpuLaunchKernel(fn, gx, gy, gz, bx, by, bz, smem, NULL, params, NULL, 1);
  mgpuStreamSynchronize(NULL);
  printf("grid %" PRIdPTR ",%" PRIdPTR ",%" PRIdPTR " block %" PRIdPTR ",%" PRIdPTR ",%" PRIdPTR " smem %" PRId32
         ": %" PRId64 " threads ran\n", gx, gy, gz, bx, by, bz, smem, counter);
}

/* Run-time selection of the one object there is; a device that cannot be queried chooses none. */
static int select_object(void) {
  size_t size;
  const void *data = image(&size);
  int32_t kind = strcmp(backend(), "cuda") == 0 ? MGPU_KIND_NVVM : strcmp(backend(), "hip") == 0 ? MGPU_KIND_ROCDL
                                                                                                  : MGPU_KIND_CPU;
  const char *chip = kind == MGPU_KIND_NVVM ? "sm_90" : kind == MGPU_KIND_ROCDL ? "gfx90a" : "";
  mgpuObject object = {kind, MGPU_FORMAT_BIN, chip, data, (intptr_t)size, -1};
  mgpuObjectTable table = {1, &object, "runtime"};
  static void *cache, *slot;
  void *fn = mgpuModuleGetFunctionSelect(&cache, &table, "count", &slot);
  printf("select: %s\n", fn ? "kernel found" : "no kernel");
  if (fn)
    launch(fn, 2, 1, 1, 3, 1, 1, 0);
  printf("plain load: ");
  launch(load_count(), 2, 1, 1, 3, 1, 1, 0);
  return unload_count();
}

/* Devices that do not exist are refused, and the default device stays what it was. */
static int devices(int count) {
  mgpuSetDefaultDevice(1000);
  mgpuSetDefaultDevice(-1);
  mgpuSetDefaultDevice(count);
  if (count > 1) {
    mgpuSetDefaultDevice(count - 1);
    mgpuSetDefaultDevice(1000);
  }
  launch(load_count(), 2, 1, 1, 3, 1, 1, 0);
  return unload_count();
}

static int max_devices(void) {
  printf("MGPU_MAX_DEVICES = %d\n", MGPU_MAX_DEVICES);
  mgpuSetDefaultDevice(MGPU_MAX_DEVICES);
  mgpuSetDefaultDevice(MGPU_MAX_DEVICES - 1);
  launch(load_count(), 2, 1, 1, 3, 1, 1, 0);
  return unload_count();
}

/* More function slots than any fixed table held: every one is cleared when the device changes. */
static int slots(void) {
  enum { SLOTS = 5000 };
  static void *cache, *slot[SLOTS], *before[SLOTS];
  size_t size;
  const void *data = image(&size);
  int set = 0;
  for (int i = 0; i < SLOTS; i++) {
    before[i] = mgpuModuleGetFunctionLazy(&cache, data, size, -1, "count", &slot[i]);
    set += slot[i] != NULL;
  }
  printf("device 0: %d of %d slots set\n", set, SLOTS);
  mgpuSetDefaultDevice(1);
  set = 0;
  for (int i = 0; i < SLOTS; i++)
    set += slot[i] != NULL;
  printf("after the move to device 1: %d slots still set\n", set);
  int fresh = 0;
  for (int i = 0; i < SLOTS; i++)
    fresh += mgpuModuleGetFunctionLazy(&cache, data, size, -1, "count", &slot[i]) != before[i] && slot[i] != NULL;
  printf("device 1: %d slots hold a new handle\n", fresh);
  launch(slot[SLOTS - 1], 2, 1, 1, 3, 1, 1, 0);
  return 0;
}

/* Sizes that overflow, or that no machine has, are refused by name. */
static int alloc(void) {
  printf("UINT64_MAX - 10 bytes: %s\n", mgpuMemAlloc(UINT64_MAX - 10, NULL, false) ? "a block" : "NULL");
  printf("2^62 bytes: %s\n", mgpuMemAlloc((uint64_t)1 << 62, NULL, false) ? "a block" : "NULL");
  void *p = mgpuMemAlloc(100, NULL, false);
  printf("100 bytes: %s\n", p ? "a block" : "NULL");
  mgpuMemFree(p, NULL);
  static float host[64];
  struct {
    float *allocated, *aligned;
    int64_t offset, size, stride;
  } ok = {host, host, 0, 64, 1}, huge = {host, host, 0, INT64_MAX, 2};
  mgpuMemHostRegisterMemRef(1, &ok, sizeof(float));
  mgpuMemHostUnregisterMemRef(1, &ok, sizeof(float));
  mgpuMemHostRegisterMemRef(1, &huge, sizeof(float));
  printf("memrefs done\n");
  return 0;
}

/* Launches that cannot run as asked run nothing, and say why. */
static int launches(void) {
  void *fn = load_count();
  const intptr_t big = (intptr_t)1 << 32;
  launch(fn, 0, 1, 1, 1, 1, 1, 0);
  launch(fn, 1, 1, 1, 1, -2, 1, 0);
  launch(fn, big, big, big, 1, 1, 1, 0);
  launch(fn, 1, 1, 1, (intptr_t)1 << 40, 1, 1, 0);
  launch(fn, 1, 1, 1, 1, 1, 1, -1);
  if (strcmp(backend(), "cpu") == 0) {
    launch(fn, 1, 1, 1, MGPU_CPU_MAX_THREADS_PER_BLOCK + 1, 1, 1, 0);
    launch(fn, 2, 1, 1, 1024, MGPU_CPU_MAX_THREADS_PER_BLOCK / 1024, 1, 64);
  } else {
    launch(fn, big + 1, 1, 1, 1, 1, 1, 0);
    launch(fn, (intptr_t)1 << 31, 1, 1, 1, 1, 1, 0);
    launch(fn, 1, 1, 1, 2048, 1, 1, 0);
    launch(fn, 1, 1, 1, 1, 1, 128, 0);
  }
  int64_t counter = 0, *p = &counter;
  void *params[] = {&p};
  mgpuLaunchClusterKernel(fn, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 1);
  printf("cluster launch of grid 0,1,1: %" PRId64 " threads ran\n", counter);
  launch(fn, 2, 1, 1, 3, 1, 1, 0);
  return unload_count();
}

/* Objects that are not ELF shared objects for this host, or that are cut short, are refused before dlopen. */
static int elf(const char *path) {
  size_t size;
  unsigned char *so = read_file(path, &size);
  unsigned char *copy = malloc(size);
  struct {
    const char *what;
    size_t at, width;    /* bytes to patch */
    uint64_t value;
    size_t length;       /* bytes to load */
  } cases[] = {
      {"not ELF", 0, 4, 0x6c6c6568, 5},
      {"20 bytes", 0, 0, 0, 20},
      {"32-bit", 4, 1, 1, size},
      {"big-endian", 5, 1, 2, size},
      {"relocatable", 16, 2, 1, size},
#if defined(__x86_64__)
      {"another machine", 18, 2, 183, size},
#else
      {"another machine", 18, 2, 62, size},
#endif
      {"100 bytes", 0, 0, 0, 100},
      {"half", 0, 0, 0, size / 2},
      {"whole", 0, 0, 0, size},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    memcpy(copy, so, size);
    /* Little-endian hosts only, as the ELF fields patched here are. */
    for (size_t b = 0; b < cases[i].width; b++)
      copy[cases[i].at + b] = (unsigned char)(cases[i].value >> (8 * b));
    void *m = mgpuModuleLoad(copy, cases[i].length);
    printf("%s: %s\n", cases[i].what, m ? (mgpuModuleGetFunction(m, "count") ? "loaded, count found" : "loaded")
                                        : "refused");
    mgpuModuleUnload(m);
  }
  free(copy);
  free(so);
  return 0;
}

/* A kernel that is not there is named, with the object. */
static int missing_kernel(const char *plain, const char *named) {
  size_t size;
  unsigned char *so = read_file(plain, &size);
  void *m = mgpuModuleLoad(so, size);
  printf("%s\n", mgpuModuleGetFunction(m, "nosuch") ? "found" : "not found");
  mgpuModuleUnload(m);
  free(so);
  unsigned char *withName = read_file(named, &size);
  static void *cache, *slot;
  printf("%s\n", mgpuModuleGetFunctionLazy(&cache, withName, size, -1, "nosuch", &slot) ? "found" : "not found");
  free(withName);
  return 0;
}

/* Freeing what mgpuMemAlloc did not return, or returned and took back, is reported and leaves the heap be. */
static int bad_frees(void) {
  char *p = mgpuMemAlloc(100, NULL, false);
  mgpuMemFree(p, NULL);
  printf("double: %p\n", (void *)p);
  mgpuMemFree(p, NULL);
  void *host = malloc(16);
  printf("foreign: %p\n", host);
  mgpuMemFree(host, NULL);
  free(host);
  char *q = mgpuMemAlloc(100, NULL, false);
  printf("interior: %p\n", (void *)(q + 8));
  mgpuMemFree(q + 8, NULL);
  mgpuMemFree(q, NULL);
  printf("after the bad frees: still running\n");
  return 0;
}

/* Registered host memrefs as the device addresses them (upstream's ROCm wrappers' functions); on the CPU the
 * device's address is the host's, and so is the stand-ins'. Device memory is not registered host memory. */
static int device_memrefs(void) {
  static float f[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  static int32_t n[8] = {0, -1, -2, -3, -4, -5, -6, -7};
  float unusedF;
  int32_t unusedN;
  mgpuMemHostRegister(f, sizeof f);
  mgpuMemHostRegister(n, sizeof n);
  mgpuMemRef1dFloat df = mgpuMemGetDeviceMemRef1dFloat(&unusedF, f, 3, 2, 2);
  mgpuMemRef1dInt32 dn = mgpuMemGetDeviceMemRef1dInt32(&unusedN, n, 1, 3, 1);
  printf("f32: allocated %s, aligned %s, offset %" PRId64 ", size %" PRId64 ", stride %" PRId64 "\n",
         df.allocated == f ? "the host's" : "other", df.aligned == f ? "the host's" : "other", df.offset, df.sizes[0],
         df.strides[0]);
  printf("i32: allocated %s, aligned %s, offset %" PRId64 ", size %" PRId64 ", stride %" PRId64 "\n",
         dn.allocated == n ? "the host's" : "other", dn.aligned == n ? "the host's" : "other", dn.offset, dn.sizes[0],
         dn.strides[0]);
  /* Written through the device's view, read through the host's. */
  df.aligned[df.offset + df.strides[0]] = 42.5f;
  dn.aligned[dn.offset + 2 * dn.strides[0]] = 42;
  printf("f[5] = %g, n[3] = %" PRId32 "\n", (double)f[5], n[3]);
  mgpuMemHostUnregister(f);
  mgpuMemHostUnregister(n);
  float *device = mgpuMemAlloc(sizeof f, NULL, false);
  mgpuMemRef1dFloat dd = mgpuMemGetDeviceMemRef1dFloat(device, device, 0, 8, 1);
  printf("device memory: %s\n", dd.aligned == device ? "its own address" : dd.aligned ? "another address" : "NULL");
  mgpuMemFree(device, NULL);
  return 0;
}

/* Tensor maps, what nvgpu.tma.create.descriptor lowers to: the CUDA backend encodes them through the driver and
 * copies them to the device; the others say that they have none. */
static int tensor_maps(void) {
  static float data[4 * 8 * 16];
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[3], strides[3];
  } m = {NULL, data, 5, {4, 8, 16}, {256, 32, 1}};
  int64_t box[3] = {2, 4, 8};
  /* CU_TENSOR_MAP_DATA_TYPE_FLOAT32, no interleave, 128-byte swizzle, 256-byte L2 promotion, NaN fill. */
  uint64_t *map = mgpuTensorMapEncodeTiledMemref(3, &m, 7, 0, 3, 2, 1, box);
  if (map) {
    uint64_t words[16];
    mgpuMemcpy(words, map, sizeof words, NULL);
    mgpuStreamSynchronize(NULL);
    printf("memref map: type %" PRIu64 ", rank %" PRIu64 ", address %s, dims %" PRIu64 ",%" PRIu64 ",%" PRIu64
           ", strides %" PRIu64 ",%" PRIu64 ", box %" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
           words[0] >> 32, words[0] & 0xffffffffu, words[1] == (uintptr_t)data ? "aligned" : "other", words[2],
           words[3], words[4], words[7], words[8], words[11], words[12], words[13]);
    mgpuMemFree(map, NULL);
  } else {
    printf("memref map: none\n");
  }
  printf("rank 6: %s\n", mgpuTensorMapEncodeTiledMemref(6, &m, 7, 0, 0, 0, 0, box) ? "a map" : "none");
  _Alignas(64) unsigned char raw[128] = {0};
  const uint64_t dims[1] = {16};
  const uint32_t rawBox[1] = {8}, elementStrides[1] = {1};
  mgpuTensorMapEncodeTiled(raw, 6, 1, data, dims, NULL, rawBox, elementStrides, 0, 0, 0, 0);
  printf("raw map: %s\n", raw[0] == 1 ? "encoded" : "not encoded");
  return 0;
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (strcmp(s, "select") == 0)
    return select_object();
  if (strcmp(s, "devices") == 0 && argc > 2)
    return devices(atoi(argv[2]));
  if (strcmp(s, "max-devices") == 0)
    return max_devices();
  if (strcmp(s, "slots") == 0)
    return slots();
  if (strcmp(s, "alloc") == 0)
    return alloc();
  if (strcmp(s, "launches") == 0)
    return launches();
  if (strcmp(s, "elf") == 0 && argc > 2)
    return elf(argv[2]);
  if (strcmp(s, "missing-kernel") == 0 && argc > 3)
    return missing_kernel(argv[2], argv[3]);
  if (strcmp(s, "bad-frees") == 0)
    return bad_frees();
  if (strcmp(s, "device-memrefs") == 0)
    return device_memrefs();
  if (strcmp(s, "tensor-maps") == 0)
    return tensor_maps();
  fprintf(stderr, "usage: runtime_main select|devices N|max-devices|slots|alloc|launches|elf SO|missing-kernel SO "
                  "NAMED_SO|bad-frees|device-memrefs|tensor-maps\n");
  return 2;
}
