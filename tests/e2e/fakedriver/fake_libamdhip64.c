/* A stand-in for AMD's HIP runtime (libamdhip64.so), as fake_libcuda.c is for the NVIDIA driver: it lets CI
 * drive libmgpu's HIP backend without an AMD GPU. It checks each call, traces the ones that matter on
 * stderr ("fake-hip: ..."), and runs each kernel on the host through its CPU build (see fake_common.h).
 *
 * The device is one GPU whose architecture is FAKE_HIP_ARCH (default "gfx90a:sramecc+:xnack-", as the
 * runtime reports it, with target features). A module image is "FAKEHSACO <gfx name> <kernel>...\n", or an
 * AMDGPU code object (an ELF64 of machine EM_AMDGPU whose e_flags name the gfx processor, its kernels the
 * symbols "<kernel>.kd"); it loads only on a device of that gfx name, and anything else is
 * hipErrorInvalidImage.
 *
 * It is compiled against the HIP headers, so every function is checked against HIP's own prototypes. */
#define _GNU_SOURCE
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#define FAKE_NAME "fake-hip"
#include "fake_common.h"

#include <hip/hip_runtime_api.h>

static const char *arch = "gfx90a:sramecc+:xnack-";

static __thread int device;

static int current_device(void) { return device; }

static hipError_t ready(void) { return initialised ? hipSuccess : hipErrorNotInitialized; }

hipError_t hipInit(unsigned int flags) {
  if (flags != 0)
    return hipErrorInvalidValue;
  const char *e = getenv("FAKE_HIP_ARCH");
  if (e && *e)
    arch = e;
  initialised = 1;
  trace("hipInit: device 0 is %s", arch);
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int *count) {
  hipError_t r = ready();
  if (r != hipSuccess)
    return r;
  *count = 1;
  return hipSuccess;
}

hipError_t hipSetDevice(int d) {
  hipError_t r = ready();
  if (r != hipSuccess)
    return r;
  return d == 0 ? hipSuccess : hipErrorInvalidDevice;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int device) {
  hipError_t r = ready();
  if (r != hipSuccess)
    return r;
  if (device != 0)
    return hipErrorInvalidDevice;
  if (failing("hipGetDeviceProperties"))
    return hipErrorInvalidValue;
  memset(p, 0, sizeof *p);
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = p->maxGridSize[2] = 65536;
  snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", arch);
  snprintf(p->name, sizeof p->name, "Fake HIP device %.*s", (int)strcspn(arch, ":"), arch);
  p->major = 9;
  p->minor = 0;
  return hipSuccess;
}

/* The gfx processors of EF_AMDGPU_MACH (the low byte of e_flags) that the stand-in knows. */
static const struct {
  int mach;
  const char *name;
} machs[] = {{0x2c, "gfx900"}, {0x2f, "gfx906"}, {0x30, "gfx908"}, {0x3f, "gfx90a"}, {0x4c, "gfx942"},
             {0x41, "gfx1100"}};

/* An AMDGPU code object (HSACO) as lld links it: ELF64, e_machine 224, the processor in e_flags, and a
 * "<kernel>.kd" kernel descriptor symbol per kernel; the section headers end the file. */
static hipError_t load_code_object(hipModule_t *module, const char *text) {
  uint16_t machine, shentsize, shnum;
  uint32_t flags;
  uint64_t shoff;
  memcpy(&machine, text + 18, 2);
  memcpy(&flags, text + 48, 4);
  memcpy(&shoff, text + 40, 8);
  memcpy(&shentsize, text + 58, 2);
  memcpy(&shnum, text + 60, 2);
  if (machine != 224) {
    trace("hipModuleLoadData: not a code object (ELF machine %d)", machine);
    return hipErrorInvalidImage;
  }
  const char *gfx = NULL;
  for (size_t i = 0; i < sizeof machs / sizeof machs[0]; i++)
    if (machs[i].mach == (int)(flags & 0xFF))
      gfx = machs[i].name;
  size_t archLen = strcspn(arch, ":");
  if (!gfx || strlen(gfx) != archLen || strncmp(gfx, arch, archLen) != 0) {
    trace("hipModuleLoadData: code object for %s does not run on %s", gfx ? gfx : "an unknown processor", arch);
    return hipErrorNoBinaryForGpu;
  }
  size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
  char kernels[200] = "";
  for (const char *p = text; (p = memmem(p, size - (size_t)(p - text), ".kd", 4)) != NULL; p += 4) {
    const char *start = p;
    while (start > text && start[-1] != '\0')
      start--;
    if (start < p)
      add_kernel(kernels, sizeof kernels, start, (size_t)(p - start));
  }
  fake_module *m = new_module(kernels, 0);
  if (!m)
    return hipErrorOutOfMemory;
  trace("hipModuleLoadData: code object %s (ELF), kernels%s", gfx, kernels);
  *module = (hipModule_t)m;
  return hipSuccess;
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  hipError_t r = ready();
  if (r != hipSuccess)
    return r;
  if (module == NULL || image == NULL)
    return hipErrorInvalidValue;
  const char *text = image;
  if (memcmp(text, "\177ELF", 4) == 0 && text[4] == 2) {
    return load_code_object(module, text);
  }
  const char *end = memchr(text, '\n', 200);
  if (strncmp(text, "FAKEHSACO gfx", 13) != 0 || !end) {
    trace("hipModuleLoadData: not a code object");
    return hipErrorInvalidImage;
  }
  size_t nameLen = strcspn(text + 10, " \n");
  size_t archLen = strcspn(arch, ":");
  if (nameLen != archLen || strncmp(text + 10, arch, archLen) != 0) {
    trace("hipModuleLoadData: code object for %.*s does not run on %s", (int)nameLen, text + 10, arch);
    return hipErrorNoBinaryForGpu;
  }
  char kernels[200] = "";
  for (const char *p = memchr(text + 10, ' ', (size_t)(end - text) - 10); p && p < end;
       p = memchr(p + 1, ' ', (size_t)(end - p) - 1))
    add_kernel(kernels, sizeof kernels, p + 1, strcspn(p + 1, " \n"));
  fake_module *m = new_module(kernels, 0);
  if (!m)
    return hipErrorOutOfMemory;
  trace("hipModuleLoadData: code object %.*s, kernels%s", (int)nameLen, text + 10, kernels);
  *module = (hipModule_t)m;
  return hipSuccess;
}

/* The HIP error for a stand-in status. */
static hipError_t hip(int status) {
  switch (status) {
  case FAKE_OK: return hipSuccess;
  case FAKE_INVALID_HANDLE: return hipErrorInvalidHandle;
  case FAKE_NOT_FOUND: return hipErrorNotFound;
  case FAKE_OUT_OF_MEMORY: return hipErrorOutOfMemory;
  default: return hipErrorInvalidValue;
  }
}

/* Each call needs hipInit first (ready), then does what both stand-ins do. */
#define CALL(op) \
  do { \
    hipError_t r_ = ready(); \
    return r_ != hipSuccess ? r_ : hip(op); \
  } while (0)

hipError_t hipModuleUnload(hipModule_t module) { CALL(op_module_unload("hipModuleUnload", module)); }

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *name) {
  CALL(op_get_function((void **)function, module, name));
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
                                 unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
                                 hipStream_t stream, void **params, void **extra) {
  CALL(op_launch("hipModuleLaunchKernel", f, gx, gy, gz, bx, by, bz, smem, stream, params, extra, ""));
}

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
  if (flags > hipStreamNonBlocking)
    return hipErrorInvalidValue;
  CALL(op_stream_create("hipStreamCreateWithFlags", flags == hipStreamNonBlocking, (void **)stream));
}

hipError_t hipStreamDestroy(hipStream_t stream) { CALL(op_stream_destroy("hipStreamDestroy", stream)); }

hipError_t hipStreamSynchronize(hipStream_t stream) { CALL(op_stream_sync("hipStreamSynchronize", stream)); }

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  CALL(op_stream_wait("hipStreamWaitEvent", stream, event, flags));
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  CALL(op_event_create("hipEventCreateWithFlags", (flags & hipEventDisableTiming) != 0, (void **)event));
}

hipError_t hipEventDestroy(hipEvent_t event) { CALL(op_event_destroy("hipEventDestroy", event)); }

hipError_t hipEventSynchronize(hipEvent_t event) { CALL(op_event_sync("hipEventSynchronize", event)); }

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  CALL(op_event_record("hipEventRecord", event, stream));
}

hipError_t hipMalloc(void **p, size_t size) { CALL(op_alloc("hipMalloc", p, size)); }

hipError_t hipMallocManaged(void **p, size_t size, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost)
    return hipErrorInvalidValue;
  CALL(op_alloc("hipMallocManaged", p, size));
}

hipError_t hipFree(void *p) { CALL(release("hipFree", p) == 0 ? FAKE_OK : FAKE_INVALID_VALUE); }

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t stream) {
  if (kind != hipMemcpyDefault)
    return hipErrorInvalidValue;
  CALL(op_memcpy("hipMemcpyAsync", dst, src, n, stream));
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  CALL(op_memset("hipMemsetD32Async", dst, (unsigned)value, count, 4, stream));
}

hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream) {
  CALL(op_memset("hipMemsetD16Async", dst, value, count, 2, stream));
}

hipError_t hipHostRegister(void *p, size_t size, unsigned int flags) {
  CALL(op_host_register("hipHostRegister", p, size, flags));
}

hipError_t hipHostUnregister(void *p) { CALL(op_host_unregister("hipHostUnregister", p)); }

hipError_t hipHostGetDevicePointer(void **device, void *p, unsigned int flags) {
  CALL(op_host_device_pointer("hipHostGetDevicePointer", device, p, flags));
}

const char *hipGetErrorName(hipError_t error) {
  switch (error) {
  case hipSuccess: return "hipSuccess";
  case hipErrorInvalidValue: return "hipErrorInvalidValue";
  case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
  case hipErrorNotInitialized: return "hipErrorNotInitialized";
  case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
  case hipErrorInvalidImage: return "hipErrorInvalidImage";
  case hipErrorNoBinaryForGpu: return "hipErrorNoBinaryForGpu";
  case hipErrorInvalidHandle: return "hipErrorInvalidHandle";
  case hipErrorNotFound: return "hipErrorNotFound";
  default: return "hipErrorUnknown";
  }
}
