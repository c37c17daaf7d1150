/* What the CPU backend's two files share: cpu.c (objects, kernels, memory) and cpu_streams.c (streams, events,
 * the thread pool that runs kernels). */
#ifndef MGPU_CPU_H
#define MGPU_CPU_H

#include "internal.h"

#define CPU_NAME "cpu"

/* A kernel handle: its entry point, whether it runs a whole block per call (its object exports
 * "<name>.mgpu_block" beside it, mgpu.h), the only block size it runs, if its object exports one as
 * "<name>.mgpu_block_size", and the sizes of its parameters, if its object exports them as
 * "<name>.mgpu_params". Decided once at lookup, so a launch reads them without a search. */
typedef struct cpu_function {
  mgpuCpuKernel kernel;
  int perBlock;
  int64_t knownBlock[3];     /* all 0 when any block size will do */
  const int64_t *paramSizes; /* paramCount sizes in bytes; NULL when the object does not say */
  int64_t paramCount;
  /* From "<name>.mgpu_block_memory", if its object exports it: the most threads a block may have (its
   * per-thread arrays are on the stack, sized for them; 0: any), and the bytes per thread it allocates. */
  int64_t maxThreads, heapBytesPerThread;
  void *module; /* its module, which a queued launch holds (cpu_module_retain) until it has run */
  struct cpu_function *next;
  char name[]; /* for reports */
} cpu_function;

/* cpu.c: a module stays loaded while anything holds it; mgpuModuleUnload lets go of the program's hold. */
void cpu_module_retain(void *module);
void cpu_module_release(void *module);

/* cpu_streams.c: launches, streams, events, and the memory operations that a stream orders. A NULL stream is
 * the caller's thread: what is queued on it is done when the call returns. */
void cpu_launch(void *fn, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params, void **extra,
                size_t paramsCount);
void *cpu_stream_create(void);
void cpu_stream_destroy(void *s);
void cpu_stream_sync(void *s);
void cpu_stream_wait_event(void *s, void *e);
void *cpu_event_create(void);
void cpu_event_destroy(void *e);
void cpu_event_sync(void *e);
void cpu_event_record(void *e, void *s);
void cpu_memcpy(void *dst, void *src, size_t size, void *stream);
void cpu_memset32(void *dst, unsigned int v, size_t count, void *stream);
void cpu_memset16(void *dst, unsigned short v, size_t count, void *stream);
/* free(p) once the work queued on `stream` before it is done. */
void cpu_free_after(void *p, void *stream);

#endif
