/* A stand-in for the NVIDIA driver (libcuda.so.1) that lets CI drive libmgpu's CUDA backend on a machine
 * without a GPU. It is a test double, not a GPU: it checks each call the way the driver would, writes a
 * trace of the calls that matter on stderr ("fake-cuda: ..."), and runs each kernel on the host through the
 * CPU build of the same kernel (see fake_common.h), so that programs compute real numbers and check them.
 * The kernel parameters it hands over are the ones the driver received, so a packing error shows in the
 * numbers.
 *
 * The devices are GPUs with the compute capabilities that FAKE_CUDA_CC lists (major * 10 + minor: "90",
 * the default, or "90,80" for two devices). Each has a primary context; what a context makes works only
 * while it is current. Device memory is host memory. A module image is one of
 *   an ELF cubin as nvcc writes it, or "FAKECUBIN sm_XY <kernel>...\n": loads only on compute capability
 *     X.Z with Z >= Y; the kernels are its ".text.<name>" sections, or the names listed;
 *   PTX text (starting with "//") with ".target sm_XY": loads, JIT-compiled, on compute capability >= XY;
 *     its kernels are its ".entry" names, and its last function's closing brace must be followed by NUL;
 *   a fat binary as fatbinary writes it (magic 0xBA55ED50, then the size of its entries): the first
 *     uncompressed ELF cubin in it that runs on the device is loaded as above.
 * Anything else is CUDA_ERROR_INVALID_IMAGE, as from the driver.
 *
 * Built with -DFAKE_WITH_CUDA_H and cuda.h on the include path, every function is checked against the
 * driver's own prototypes.
 *
 * The declarations below repeat some of runtime-c/src/cuda.c's on purpose: the stand-in is the oracle for
 * that file, so it takes its codes and attribute numbers from the driver's header, never from the runtime;
 * a wrong constant in the runtime then fails here instead of agreeing with itself. */
#define _GNU_SOURCE
#define FAKE_NAME "fake-cuda"
#include "fake_common.h"

#ifdef FAKE_WITH_CUDA_H
#include <cuda.h>
#else
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUjit_option;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
};
enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
};
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6, CU_JIT_OPTIMIZATION_LEVEL = 7 };
enum { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };
typedef struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char pad[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
} CUlaunchAttribute;
typedef struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
} CUlaunchConfig;
typedef struct CUtensorMap_st {
  _Alignas(64) unsigned long long opaque[16];
} CUtensorMap;
typedef int CUtensorMapDataType, CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill;
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
#endif

/* More than libmgpu's MGPU_MAX_DEVICES, so that its limit can be tested. */
#define MAX_DEVICES 80

struct CUctx_st {
  int device, retained;
};

static int device_count = 1;
static int ccs[MAX_DEVICES] = {90};
static struct CUctx_st primary[MAX_DEVICES];
static __thread CUcontext current;

static int current_device(void) { return current ? current->device : -1; }

/* Every call after cuInit needs a primary context current on the calling thread. */
static CUresult ready(void) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  return current != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* FAKE_CUDA_CC lists the devices' compute capabilities, major * 10 + minor: "90" or "90,80". */
CUresult cuInit(unsigned int flags) {
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  const char *e = getenv("FAKE_CUDA_CC");
  if (e && *e) {
    device_count = 0;
    for (const char *p = e; *p && device_count < MAX_DEVICES; p += strcspn(p, ","), p += *p == ',')
      ccs[device_count++] = atoi(p);
  }
  for (int d = 0; d < device_count; d++)
    primary[d].device = d;
  initialised = 1;
  char list[160] = "";
  for (int d = 0; d < device_count; d++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%sdevice %d is sm_%d", d ? ", " : "", d, ccs[d]);
  }
  trace("cuInit: %s", list);
  return CUDA_SUCCESS;
}

/* Device queries need cuInit first and an ordinal below the device count. */
static CUresult device_ok(int device) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  return device >= 0 && device < device_count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGetCount(int *count) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = device_count;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  CUresult r = device_ok(ordinal);
  if (r != CUDA_SUCCESS)
    return r;
  *device = ordinal;
  return CUDA_SUCCESS;
}

/* The launch limits are those of every NVIDIA GPU since compute capability 2.0 (grid y and z 65535). */
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
  CUresult r = device_ok(device);
  if (r != CUDA_SUCCESS)
    return r;
  if (failing("cuDeviceGetAttribute"))
    return CUDA_ERROR_INVALID_VALUE;
  switch ((int)attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = ccs[device] / 10; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = ccs[device] % 10; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *value = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *value = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *value = 64; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = 2147483647; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *value = 65535; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *value = 65535; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice device) {
  CUresult r = device_ok(device);
  if (r != CUDA_SUCCESS)
    return r;
  if (failing("cuDeviceGetName"))
    return CUDA_ERROR_INVALID_VALUE;
  snprintf(name, (size_t)len, "Fake CUDA device sm_%d", ccs[device]);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device) {
  CUresult r = device_ok(device);
  if (r != CUDA_SUCCESS)
    return r;
  pthread_mutex_lock(&lock);
  int n = ++primary[device].retained;
  pthread_mutex_unlock(&lock);
  trace("cuDevicePrimaryCtxRetain: device %d (retained %d times)", device, n);
  *ctx = &primary[device];
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ctx != NULL && (ctx < primary || ctx >= primary + device_count || !ctx->retained))
    return CUDA_ERROR_INVALID_CONTEXT;
  current = ctx;
  return CUDA_SUCCESS;
}

/* The sm_XY version an image names after `key`, or -1. */
static int image_version(const char *image, const char *key) {
  const char *p = strstr(image, key);
  return p ? atoi(p + strlen(key)) : -1;
}

static CUresult load(CUmodule *module, const void *image, int jit, int optLevel) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (module == NULL || image == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  const char *text = image;
  const char *call = jit ? "cuModuleLoadDataEx" : "cuModuleLoadData";
  char kernels[200] = "";
  int v = -1;
  static const unsigned char fatbin_magic[4] = {0x50, 0xED, 0x55, 0xBA};
  if (memcmp(text, fatbin_magic, 4) == 0) {
    /* Header: magic, version (2), header size (2), size of the entries that follow (8). */
    uint16_t header;
    uint64_t entries;
    memcpy(&header, text + 6, 2);
    memcpy(&entries, text + 8, 8);
    size_t size = header + (size_t)entries;
    int cc = ccs[current_device()];
    const char *found = NULL;
    for (const char *p = text; (p = memmem(p, size - (size_t)(p - text), "\177ELF", 4)) != NULL; p += 4) {
      uint32_t flags;
      memcpy(&flags, p + 48, 4);
      int ev = (unsigned char)p[8] >= 8 ? (int)((flags >> 8) & 0xFF) : (int)(flags & 0xFF);
      if (ev / 10 == cc / 10 && ev % 10 <= cc % 10) {
        found = p;
        break;
      }
    }
    if (!found) {
      trace("%s: fat binary holds no cubin for sm_%d", call, cc);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    trace("%s: fat binary, its cubin for the device", call);
    text = found;
  }
  if (strncmp(text, "FAKECUBIN sm_", 13) == 0) {
    /* A real cubin's size is in its ELF header; this one ends at its first newline. */
    const char *end = memchr(text, '\n', 200);
    if (!end) {
      trace("cubin image has no end");
      return CUDA_ERROR_INVALID_IMAGE;
    }
    v = atoi(text + 13);
    for (const char *p = memchr(text + 13, ' ', (size_t)(end - text) - 13); p && p < end;
         p = memchr(p + 1, ' ', (size_t)(end - p) - 1))
      add_kernel(kernels, sizeof kernels, p + 1, strcspn(p + 1, " \n"));
  } else if (memcmp(text, "\177ELF", 4) == 0 && text[4] == 2) {
    /* nvcc's cubin: ELF64 whose e_flags hold the SM version (bits 8-15 from ELF ABI version 8 on, bits 0-7
     * before), with a section ".text.<kernel>" per kernel; the section headers end the file. */
    uint32_t flags;
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&flags, text + 48, 4);
    memcpy(&shoff, text + 40, 8);
    memcpy(&shentsize, text + 58, 2);
    memcpy(&shnum, text + 60, 2);
    v = (unsigned char)text[8] >= 8 ? (int)((flags >> 8) & 0xFF) : (int)(flags & 0xFF);
    size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
    for (const char *p = text; (p = memmem(p, size - (size_t)(p - text), ".text.", 6)) != NULL; p += 6)
      add_kernel(kernels, sizeof kernels, p + 6, strnlen(p + 6, 64));
  }
  int cc = ccs[current_device()];
  if (v >= 0) {
    if (v / 10 != cc / 10 || v % 10 > cc % 10) {
      trace("%s: cubin for sm_%d does not run on sm_%d", call, v, cc);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    trace("%s: cubin sm_%d, kernels%s%s%s", call, v, kernels, jit ? ", JIT options ignored" : "",
          on_device(current_device()));
  } else if (strncmp(text, "//", 2) == 0 && strstr(text, ".version") != NULL && image_version(text, ".target sm_") > 0) {
    /* PTX is text that must end in NUL; an unterminated blob runs on into whatever follows it, so the last
     * thing before the NUL must be the closing brace of the last function. */
    v = image_version(text, ".target sm_");
    size_t n = strnlen(text, 1 << 20);
    size_t last = n;
    while (last > 0 && (text[last - 1] == '\n' || text[last - 1] == ' ' || text[last - 1] == '\t'))
      last--;
    if (n == 1 << 20 || last == 0 || text[last - 1] != '}') {
      trace("PTX image is not NUL-terminated after its last function");
      return CUDA_ERROR_INVALID_PTX;
    }
    if (v > cc) {
      trace("PTX for sm_%d does not JIT-compile for sm_%d", v, cc);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    for (const char *p = strstr(text, ".entry "); p; p = strstr(p + 1, ".entry "))
      add_kernel(kernels, sizeof kernels, p + 7, strcspn(p + 7, "( \n"));
    if (jit)
      trace("cuModuleLoadDataEx: PTX for sm_%d JIT-compiled for sm_%d at O%d (%zu bytes)%s", v, cc, optLevel, n,
            on_device(current_device()));
    else
      trace("cuModuleLoadData: PTX for sm_%d JIT-compiled for sm_%d (%zu bytes)%s", v, cc, n,
            on_device(current_device()));
  } else {
    trace("%s: not a module image", call);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  fake_module *m = new_module(kernels, jit);
  if (!m)
    return CUDA_ERROR_INVALID_VALUE;
  *module = (CUmodule)m;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) { return load(module, image, 0, -1); }

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues) {
  int optLevel = 4;
  char *log = NULL;
  size_t logSize = 0;
  for (unsigned i = 0; i < numOptions; i++) {
    switch ((int)options[i]) {
    case CU_JIT_OPTIMIZATION_LEVEL:
      optLevel = (int)(intptr_t)optionValues[i];
      if (optLevel < 0 || optLevel > 4)
        return CUDA_ERROR_INVALID_VALUE;
      break;
    case CU_JIT_ERROR_LOG_BUFFER:
      log = optionValues[i];
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      logSize = (size_t)(uintptr_t)optionValues[i];
      break;
    default:
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  CUresult r = load(module, image, 1, optLevel);
  if (r != CUDA_SUCCESS && log && logSize > 0)
    snprintf(log, logSize, "fake ptxas: the image does not compile for sm_%d",
             ccs[current_device() < 0 ? 0 : current_device()]);
  return r;
}

/* The CUDA error for a stand-in status. */
static CUresult cu(int status) {
  switch (status) {
  case FAKE_OK: return CUDA_SUCCESS;
  case FAKE_INVALID_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
  case FAKE_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
  case FAKE_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
}

/* Each call needs the primary context current (ready), then does what both stand-ins do. */
#define CALL(op) \
  do { \
    CUresult r_ = ready(); \
    return r_ != CUDA_SUCCESS ? r_ : cu(op); \
  } while (0)

CUresult cuModuleUnload(CUmodule module) { CALL(op_module_unload("cuModuleUnload", module)); }

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  CALL(op_get_function((void **)function, module, name));
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params,
                        void **extra) {
  CALL(op_launch("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, smem, stream, params, extra, ""));
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra) {
  char cluster[64] = "";
  for (unsigned i = 0; i < config->numAttrs; i++) {
    const CUlaunchAttribute *a = &config->attrs[i];
    if (a->id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      return CUDA_ERROR_INVALID_VALUE;
    unsigned x = a->value.clusterDim.x, y = a->value.clusterDim.y, z = a->value.clusterDim.z;
    if (ccs[current_device()] < 90 || x * y * z == 0 || x * y * z > 8 || config->gridDimX % x || config->gridDimY % y ||
        config->gridDimZ % z)
      return CUDA_ERROR_INVALID_VALUE;
    snprintf(cluster, sizeof cluster, " cluster %u,%u,%u", x, y, z);
  }
  CUresult r = ready();
  return r ? r : cu(op_launch("cuLaunchKernelEx", f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                config->blockDimY, config->blockDimZ, config->sharedMemBytes, config->hStream, params, extra,
                cluster));
}

CUresult cuStreamCreate(CUstream *stream, unsigned int flags) {
  if (flags > 1)
    return CUDA_ERROR_INVALID_VALUE;
  CALL(op_stream_create("cuStreamCreate", flags == 1, (void **)stream));
}

CUresult cuStreamDestroy_v2(CUstream stream) { CALL(op_stream_destroy("cuStreamDestroy", stream)); }

CUresult cuStreamSynchronize(CUstream stream) { CALL(op_stream_sync("cuStreamSynchronize", stream)); }

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  CALL(op_stream_wait("cuStreamWaitEvent", stream, event, flags));
}

CUresult cuEventCreate(CUevent *event, unsigned int flags) {
  CALL(op_event_create("cuEventCreate", (flags & 2) != 0, (void **)event));
}

CUresult cuEventDestroy_v2(CUevent event) { CALL(op_event_destroy("cuEventDestroy", event)); }

CUresult cuEventSynchronize(CUevent event) { CALL(op_event_sync("cuEventSynchronize", event)); }

CUresult cuEventRecord(CUevent event, CUstream stream) { CALL(op_event_record("cuEventRecord", event, stream)); }

static CUresult alloc_into(const char *call, CUdeviceptr *p, size_t size) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  void *m = NULL;
  if (p == NULL || (r = cu(op_alloc(call, &m, size))) != CUDA_SUCCESS)
    return p == NULL ? CUDA_ERROR_INVALID_VALUE : r;
  *p = (CUdeviceptr)(uintptr_t)m;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) { return alloc_into("cuMemAlloc", p, size); }

CUresult cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned int flags) {
  return flags == 1 || flags == 2 ? alloc_into("cuMemAllocManaged", p, size) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
  CALL(release("cuMemFree", (void *)(uintptr_t)p) == 0 ? FAKE_OK : FAKE_INVALID_VALUE);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream) {
  CALL(op_memcpy("cuMemcpyAsync", (void *)(uintptr_t)dst, (void *)(uintptr_t)src, n, stream));
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  if (buffer_of((void *)(uintptr_t)src) < 0)
    return CUDA_ERROR_INVALID_VALUE;
  CALL(op_memcpy("cuMemcpyDtoH", dst, (void *)(uintptr_t)src, n, NULL));
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream) {
  CALL(op_memset("cuMemsetD32Async", (void *)(uintptr_t)dst, value, count, 4, stream));
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, size_t count) {
  CALL(op_memset("cuMemsetD32", (void *)(uintptr_t)dst, value, count, 4, NULL));
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream) {
  CALL(op_memset("cuMemsetD16Async", (void *)(uintptr_t)dst, value, count, 2, stream));
}

CUresult cuMemHostRegister_v2(void *p, size_t size, unsigned int flags) {
  CALL(op_host_register("cuMemHostRegister", p, size, flags));
}

CUresult cuMemHostUnregister(void *p) { CALL(op_host_unregister("cuMemHostUnregister", p)); }

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *device, void *p, unsigned int flags) {
  void *d = NULL;
  CUresult r = cu(op_host_device_pointer("cuMemHostGetDevicePointer", &d, p, flags));
  if (r == CUDA_SUCCESS && device)
    *device = (CUdeviceptr)(uintptr_t)d;
  return device ? r : CUDA_ERROR_INVALID_VALUE;
}

/* Traces what it is asked, and writes it into the map as 16 words (type << 32 | rank, the address, five
 * dimensions, four strides, five box sizes), so that a program can read back what reached the device. Of the
 * driver's checks it makes those of the rank (1 to 5), the map's alignment and 16-byte strides. */
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                                const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill) {
  CUresult r = ready();
  if (r != CUDA_SUCCESS)
    return r;
  if (map == NULL || rank < 1 || rank > 5 || ((uintptr_t)map & 63) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  char text[256];
  int n = snprintf(text, sizeof text, "type %d rank %u dims", (int)type, rank);
  for (cuuint32_t i = 0; i < rank; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, "%s%llu", i ? "," : " ", (unsigned long long)dims[i]);
  n += snprintf(text + n, sizeof text - (size_t)n, " strides");
  for (cuuint32_t i = 0; i + 1 < rank; i++) {
    if (strides[i] % 16 != 0)
      return CUDA_ERROR_INVALID_VALUE;
    n += snprintf(text + n, sizeof text - (size_t)n, "%s%llu", i ? "," : " ", (unsigned long long)strides[i]);
  }
  n += snprintf(text + n, sizeof text - (size_t)n, " box");
  for (cuuint32_t i = 0; i < rank; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, "%s%u/%u", i ? "," : " ", (unsigned)box[i],
                  (unsigned)elementStrides[i]);
  trace("cuTensorMapEncodeTiled: %s interleave %d swizzle %d l2 %d oob %d", text, (int)interleave, (int)swizzle,
        (int)l2Promotion, (int)oobFill);
  unsigned long long words[16] = {(unsigned long long)type << 32 | rank, (unsigned long long)(uintptr_t)address};
  for (cuuint32_t i = 0; i < rank; i++) {
    words[2 + i] = dims[i];
    words[11 + i] = box[i];
    if (i + 1 < rank)
      words[7 + i] = strides[i];
  }
  memcpy(map, words, sizeof words);
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch ((int)error) {
  case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; break;
  case CUDA_ERROR_INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; break;
  case CUDA_ERROR_NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; break;
  case CUDA_ERROR_INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; break;
  case CUDA_ERROR_INVALID_IMAGE: *name = "CUDA_ERROR_INVALID_IMAGE"; break;
  case CUDA_ERROR_INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU: *name = "CUDA_ERROR_NO_BINARY_FOR_GPU"; break;
  case CUDA_ERROR_INVALID_PTX: *name = "CUDA_ERROR_INVALID_PTX"; break;
  case CUDA_ERROR_INVALID_HANDLE: *name = "CUDA_ERROR_INVALID_HANDLE"; break;
  case CUDA_ERROR_NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; break;
  case CUDA_ERROR_OUT_OF_MEMORY: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
  default: *name = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
