/* The interface between the core of libmgpu and its backends. */
#ifndef MGPU_INTERNAL_H
#define MGPU_INTERNAL_H

#include "mgpu.h"

#include <stdio.h>

typedef struct mgpu_device_info {
  char name[256];
  char chip[64]; /* "sm_90", "gfx90a", "" for the CPU */
  int ccMajor, ccMinor;
  /* Launch limits; 0 where there is none. */
  int64_t maxThreadsPerBlock;
  int64_t maxBlock[3], maxGrid[3];
} mgpu_device_info;

typedef struct mgpu_backend {
  const char *name;
  int kind; /* MGPU_KIND_* */
  /* Returns the number of devices, 0 when the driver or a device is missing; *why says why. */
  int (*probe)(const char **why);
  /* The largest grid or block size the backend's launch call can take at all (its parameters' type), 0 for
   * none; the device's own limits come from device_info. */
  int64_t max_dimension;
  /* Fills *info; -1 after reporting why it could not. */
  int (*device_info)(int device, mgpu_device_info *info);
  void *(*module_load)(const void *data, size_t size);
  void *(*module_load_jit)(const void *data, int optLevel, size_t size);
  void (*module_unload)(void *module);
  void *(*module_function)(void *module, const char *name);
  void (*launch)(void *fn, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz,
                 intptr_t bx, intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                 void **extra, size_t paramsCount);
  void *(*stream_create)(void);
  void (*stream_destroy)(void *s);
  void (*stream_sync)(void *s);
  void (*stream_wait_event)(void *s, void *e);
  void *(*event_create)(void);
  void (*event_destroy)(void *e);
  void (*event_sync)(void *e);
  void (*event_record)(void *e, void *s);
  void *(*mem_alloc)(uint64_t size, void *stream, bool shared);
  void (*mem_free)(void *p, void *stream);
  void (*memcpy)(void *dst, void *src, size_t size, void *stream);
  void (*memset32)(void *dst, unsigned int v, size_t count, void *stream);
  void (*memset16)(void *dst, unsigned short v, size_t count, void *stream);
  void (*host_register)(void *p, uint64_t size);
  void (*host_unregister)(void *p);
  /* The device's address of registered host memory at `p`; NULL after a reported failure. */
  void *(*host_device_pointer)(void *p);
  /* cuTensorMapEncodeTiled into `map` (128 bytes); false after a reported failure. NULL where the backend has
   * no tensor maps. */
  bool (*tensor_map_encode)(void *map, int32_t type, uint32_t rank, void *address, const uint64_t *dims,
                            const uint64_t *strides, const uint32_t *box, const uint32_t *elementStrides,
                            int32_t interleave, int32_t swizzle, int32_t l2Promotion, int32_t oobFill);
} mgpu_backend;

extern const mgpu_backend mgpu_cuda_backend;
extern const mgpu_backend mgpu_hip_backend;
extern const mgpu_backend mgpu_cpu_backend;

/* The backend in use, chosen on first call. */
const mgpu_backend *mgpu_backend_get(void);

/* The current default device: always below the backend's device count and MGPU_MAX_DEVICES, because
 * mgpuSetDefaultDevice refuses any other. */
int mgpu_current_device(void);

/* Set once the process is exiting: failures then go unreported (drivers tear down first). */
extern volatile int mgpu_shutting_down;

/* The stream a backend uses for NULL on `device`: one per device, made by `create` on first use. */
void *mgpu_default_stream(int device, void *(*create)(void));

/* Reports a failure on stderr as "mgpu: <backend>: <mgpu function>: <call> failed: <cause>", where the mgpu
 * function is the ABI function the calling thread is in, and `call` the driver or C library function that
 * failed; NULL when the runtime found the fault itself ("mgpu: <backend>: <mgpu function> failed: ..."). */
void mgpu_report(const char *backend, const char *call, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
