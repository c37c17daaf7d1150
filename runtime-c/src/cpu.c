/* The CPU backend: #cpu.target objects are shared objects loaded from memory, and memory is the host's.
 * Kernels, streams and events are cpu_streams.c's. */
#define _GNU_SOURCE
#include "cpu.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char NAME[] = CPU_NAME;

static int cpu_probe(const char **why) {
  *why = "";
  return 1;
}

static int cpu_device_info(int device, mgpu_device_info *info) {
  (void)device;
  snprintf(info->name, sizeof info->name, "host CPU");
  info->chip[0] = '\0';
  info->maxThreadsPerBlock = MGPU_CPU_MAX_THREADS_PER_BLOCK;
  return 0;
}

/* ------------------------------------------------------------------ CPU objects */

#if UINTPTR_MAX == UINT64_MAX
#define HOST_CLASS ELFCLASS64
#else
#define HOST_CLASS ELFCLASS32
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif
#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__riscv)
#define HOST_MACHINE EM_RISCV
#elif defined(__powerpc64__)
#define HOST_MACHINE EM_PPC64
#endif

static const char *machine_name(unsigned machine) {
  switch (machine) {
  case EM_386: return "x86";
  case EM_X86_64: return "x86-64";
  case EM_ARM: return "ARM";
  case EM_AARCH64: return "AArch64";
  case EM_RISCV: return "RISC-V";
  case EM_PPC64: return "PowerPC64";
  default: return "another machine";
  }
}

/* Whether a table of `count` entries of `entry` bytes at `offset` ends within `size` bytes; *end is where it
 * ends (saturated when that overflows). */
static bool table_fits(uint64_t offset, uint64_t count, uint64_t entry, size_t size, uint64_t *end) {
  uint64_t bytes;
  if (__builtin_mul_overflow(count, entry, &bytes) || __builtin_add_overflow(offset, bytes, end))
    *end = UINT64_MAX;
  return *end <= size;
}

/* The file offset of address `vaddr` in the object's loaded segments, or UINT64_MAX. */
static uint64_t file_offset(const unsigned char *data, const ElfW(Ehdr) *eh, uint64_t vaddr) {
  for (unsigned i = 0; i < eh->e_phnum; i++) {
    ElfW(Phdr) ph;
    memcpy(&ph, data + eh->e_phoff + (size_t)i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz)
      return ph.p_offset + (vaddr - ph.p_vaddr);
  }
  return UINT64_MAX;
}

/* The object's DT_SONAME into `out` ("" when it has none), read from headers elf_check has bounded. */
static void read_soname(const unsigned char *data, size_t size, const ElfW(Ehdr) *eh, char *out, size_t cap) {
  out[0] = '\0';
  for (unsigned i = 0; i < eh->e_phnum; i++) {
    ElfW(Phdr) ph;
    memcpy(&ph, data + eh->e_phoff + (size_t)i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_DYNAMIC)
      continue;
    uint64_t strtab = UINT64_MAX, name = UINT64_MAX;
    for (uint64_t at = ph.p_offset; at + sizeof(ElfW(Dyn)) <= ph.p_offset + ph.p_filesz; at += sizeof(ElfW(Dyn))) {
      ElfW(Dyn) d;
      memcpy(&d, data + at, sizeof d);
      if (d.d_tag == DT_NULL)
        break;
      if (d.d_tag == DT_STRTAB)
        strtab = file_offset(data, eh, d.d_un.d_ptr);
      else if (d.d_tag == DT_SONAME)
        name = d.d_un.d_val;
    }
    uint64_t at;
    if (strtab != UINT64_MAX && name != UINT64_MAX && !__builtin_add_overflow(strtab, name, &at) && at < size)
      snprintf(out, cap, "%.*s", (int)strnlen((const char *)data + at, size - (size_t)at), (const char *)data + at);
  }
}

/* dlopen maps the object's segments as the headers say and faults (SIGBUS) on a page past the end of the
 * file, so a cut-off or foreign object is refused here, with the reason, before dlopen sees it. */
static bool elf_check(const unsigned char *data, size_t size, char *soname, size_t cap) {
  if (size < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0) {
    mgpu_report(NAME, NULL, "the CPU object (%zu bytes) is not an ELF file", size);
    return false;
  }
  if (size < EI_NIDENT || size < sizeof(ElfW(Ehdr))) {
    mgpu_report(NAME, NULL, "the CPU object is cut short: %zu bytes, less than its %zu-byte ELF header", size,
                sizeof(ElfW(Ehdr)));
    return false;
  }
  if (data[EI_CLASS] != HOST_CLASS) {
    mgpu_report(NAME, NULL, "the CPU object is a %s ELF file; this host loads %s ones",
                data[EI_CLASS] == ELFCLASS32 ? "32-bit" : data[EI_CLASS] == ELFCLASS64 ? "64-bit" : "malformed",
                HOST_CLASS == ELFCLASS64 ? "64-bit" : "32-bit");
    return false;
  }
  if (data[EI_DATA] != HOST_DATA) {
    mgpu_report(NAME, NULL, "the CPU object is %s; this host is %s",
                data[EI_DATA] == ELFDATA2MSB ? "big-endian" : data[EI_DATA] == ELFDATA2LSB ? "little-endian"
                                                                                         : "of no known byte order",
                HOST_DATA == ELFDATA2LSB ? "little-endian" : "big-endian");
    return false;
  }
  ElfW(Ehdr) eh;
  memcpy(&eh, data, sizeof eh);
  if (eh.e_type != ET_DYN) {
    mgpu_report(NAME, NULL, "the CPU object is not a shared object (ELF type %u, not %u)", (unsigned)eh.e_type,
                (unsigned)ET_DYN);
    return false;
  }
#ifdef HOST_MACHINE
  if (eh.e_machine != HOST_MACHINE) {
    mgpu_report(NAME, NULL, "the CPU object is for %s (ELF machine %u); this host is %s (ELF machine %u)",
                machine_name(eh.e_machine), (unsigned)eh.e_machine, machine_name(HOST_MACHINE), (unsigned)HOST_MACHINE);
    return false;
  }
#endif
  uint64_t end;
  if (eh.e_phentsize != sizeof(ElfW(Phdr))) {
    mgpu_report(NAME, NULL, "the CPU object's program headers are %u bytes each, not %zu", (unsigned)eh.e_phentsize,
                sizeof(ElfW(Phdr)));
    return false;
  }
  if (!table_fits(eh.e_phoff, eh.e_phnum, sizeof(ElfW(Phdr)), size, &end)) {
    mgpu_report(NAME, NULL, "the CPU object is cut short: its program headers end at byte %" PRIu64 ", past its %zu "
                "bytes", end, size);
    return false;
  }
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    ElfW(Phdr) ph;
    memcpy(&ph, data + eh.e_phoff + (size_t)i * sizeof ph, sizeof ph);
    if (!table_fits(ph.p_offset, ph.p_filesz, 1, size, &end)) {
      mgpu_report(NAME, NULL, "the CPU object is cut short: its segment %u ends at byte %" PRIu64 ", past its %zu "
                  "bytes", i, end, size);
      return false;
    }
  }
  if (eh.e_shnum > 0 && eh.e_shentsize != sizeof(ElfW(Shdr))) {
    mgpu_report(NAME, NULL, "the CPU object's section headers are %u bytes each, not %zu", (unsigned)eh.e_shentsize,
                sizeof(ElfW(Shdr)));
    return false;
  }
  if (eh.e_shnum > 0 && !table_fits(eh.e_shoff, eh.e_shnum, sizeof(ElfW(Shdr)), size, &end)) {
    mgpu_report(NAME, NULL, "the CPU object is cut short: its section headers end at byte %" PRIu64 ", past its %zu "
                "bytes", end, size);
    return false;
  }
  read_soname(data, size, &eh, soname, cap);
  return true;
}

typedef struct cpu_module {
  void *handle;
  int fd; /* the memfd the object was loaded from, open while it is loaded */
  size_t size;
  char soname[128];
  cpu_function *functions; /* the handles looked up, freed with the module */
  pthread_mutex_t lock;
  _Atomic int refs; /* the program's, until it unloads the module, and each queued launch of its kernels */
} cpu_module;

static void *cpu_module_load(const void *data, size_t size) {
  char soname[sizeof ((cpu_module *)0)->soname];
  if (!data) {
    mgpu_report(NAME, NULL, "no CPU object (the data pointer is NULL)");
    return NULL;
  }
  if (!elf_check(data, size, soname, sizeof soname))
    return NULL;
  cpu_module *m = calloc(1, sizeof *m);
  if (!m) {
    mgpu_report(NAME, "malloc", "%s", strerror(ENOMEM));
    return NULL;
  }
  pthread_mutex_init(&m->lock, NULL);
  int fd = memfd_create("mgpu-cpu-object", MFD_CLOEXEC);
  if (fd < 0) {
    mgpu_report(NAME, "memfd_create", "%s", strerror(errno));
    free(m);
    return NULL;
  }
  const char *p = data;
  size_t left = size;
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      mgpu_report(NAME, "write", "%s", strerror(errno));
      close(fd);
      free(m);
      return NULL;
    }
    p += n;
    left -= (size_t)n;
  }
  /* The path names this process by its id, not as /proc/self: under a debugger, the debugger opens the same
   * path to read the object's symbols, and /proc/self would be the debugger's own descriptor table. */
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/fd/%d", (long)getpid(), fd);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  /* The descriptor stays open while the object is loaded: the dynamic loader knows an object by its path,
   * and a second object loaded from a reused descriptor number would be taken for the first. No file
   * remains either way. */
  if (!h) {
    mgpu_report(NAME, "dlopen", "%s", dlerror());
    close(fd);
    free(m);
    return NULL;
  }
  m->handle = h;
  m->fd = fd;
  m->size = size;
  memcpy(m->soname, soname, sizeof m->soname);
  atomic_init(&m->refs, 1);
  return m;
}

static void *cpu_module_load_jit(const void *data, int optLevel, size_t size) {
  (void)optLevel;
  return cpu_module_load(data, size);
}

void cpu_module_retain(void *module) { atomic_fetch_add_explicit(&((cpu_module *)module)->refs, 1, memory_order_relaxed); }

/* A module goes when the program has unloaded it and no queued launch of its kernels is left to run, as a
 * GPU's driver keeps a module that launches still need: the per-launch load strategy unloads right after an
 * asynchronous launch. */
void cpu_module_release(void *module) {
  cpu_module *m = module;
  if (atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) != 1)
    return;
  if (dlclose(m->handle) != 0)
    mgpu_report(NAME, "dlclose", "%s", dlerror());
  close(m->fd);
  for (cpu_function *f = m->functions, *next; f; f = next) {
    next = f->next;
    free(f);
  }
  pthread_mutex_destroy(&m->lock);
  free(m);
}

static void cpu_module_unload(void *module) { cpu_module_release(module); }

static void *cpu_module_function(void *module, const char *name) {
  if (!module) {
    mgpu_report(NAME, NULL, "no module (the module handle is NULL)");
    return NULL;
  }
  cpu_module *m = module;
  void *f = dlsym(m->handle, name);
  /* dlerror's text names the memfd path, which means nothing to the reader; name the object instead. */
  if (!f && m->soname[0])
    mgpu_report(NAME, "dlsym", "the CPU object %s (%zu bytes) has no kernel '%s'", m->soname, m->size, name);
  else if (!f)
    mgpu_report(NAME, "dlsym", "the CPU object of %zu bytes has no kernel '%s'", m->size, name);
  if (!f)
    return NULL;
  size_t length = strlen(name);
  cpu_function *h = calloc(1, sizeof *h + length + 1);
  /* The markers' names are as long as the kernel's allows: a cut name would make a per-block kernel run
   * once per thread. */
  char *marker = malloc(length + sizeof ".mgpu_block_memory");
  if (!h || !marker) {
    mgpu_report(NAME, "malloc", "%s", strerror(ENOMEM));
    free(h);
    free(marker);
    return NULL;
  }
  memcpy(h->name, name, length + 1);
  h->kernel = (mgpuCpuKernel)f;
  h->module = m;
  strcat(strcpy(marker, name), ".mgpu_block");
  h->perBlock = dlsym(m->handle, marker) != NULL;
  strcat(marker, "_size");
  const int64_t *known = dlsym(m->handle, marker);
  if (known)
    memcpy(h->knownBlock, known, sizeof h->knownBlock);
  strcat(strcpy(marker, name), ".mgpu_block_memory");
  const int64_t *memory = dlsym(m->handle, marker);
  if (memory) {
    h->maxThreads = memory[0];
    h->heapBytesPerThread = memory[1];
  }
  strcat(strcpy(marker, name), ".mgpu_params");
  const int64_t *params = dlsym(m->handle, marker);
  if (params && params[0] >= 0) {
    h->paramCount = params[0];
    h->paramSizes = params + 1;
  }
  free(marker);
  pthread_mutex_lock(&m->lock);
  h->next = m->functions;
  m->functions = h;
  pthread_mutex_unlock(&m->lock);
  return h;
}

/* ------------------------------------------------------------------ memory */

/* Every block that mgpuMemAlloc handed out and mgpuMemFree has not taken back, so that freeing anything
 * else is reported instead of corrupting the heap: a set of addresses, open addressing with linear probing.
 * A removed entry becomes GONE, so that probes for other entries still pass over it. */
static pthread_mutex_t owned_lock = PTHREAD_MUTEX_INITIALIZER;
static void **owned;
static size_t owned_capacity, owned_count, owned_gone;
#define GONE ((void *)&owned_lock)

static size_t owned_home(const void *p, size_t capacity) {
  return (size_t)(((uintptr_t)p >> 6) * (uintptr_t)0x9E3779B97F4A7C15u) & (capacity - 1);
}

/* Under owned_lock. False when the set cannot grow. */
static bool owned_add(void *p) {
  if ((owned_count + owned_gone + 1) * 2 > owned_capacity) {
    size_t capacity = owned_capacity ? owned_capacity : 64;
    while ((owned_count + 1) * 2 > capacity)
      capacity *= 2;
    void **table = calloc(capacity, sizeof *table);
    if (!table)
      return false;
    for (size_t i = 0; i < owned_capacity; i++)
      if (owned[i] && owned[i] != GONE) {
        size_t k = owned_home(owned[i], capacity);
        while (table[k])
          k = (k + 1) & (capacity - 1);
        table[k] = owned[i];
      }
    free(owned);
    owned = table;
    owned_capacity = capacity;
    owned_gone = 0;
  }
  size_t k = owned_home(p, owned_capacity);
  while (owned[k] && owned[k] != GONE)
    k = (k + 1) & (owned_capacity - 1);
  if (owned[k] == GONE)
    owned_gone--;
  owned[k] = p;
  owned_count++;
  return true;
}

/* Under owned_lock. False when p is not in the set. */
static bool owned_remove(const void *p) {
  if (!owned_capacity)
    return false;
  for (size_t k = owned_home(p, owned_capacity); owned[k]; k = (k + 1) & (owned_capacity - 1))
    if (owned[k] == p) {
      owned[k] = GONE;
      owned_count--;
      owned_gone++;
      return true;
    }
  return false;
}

static void *cpu_mem_alloc(uint64_t size, void *stream, bool shared) {
  (void)stream, (void)shared;
  /* Sizes are rounded up to the alignment, as aligned_alloc requires. */
  if (size > SIZE_MAX - 63) {
    mgpu_report(NAME, NULL, "%" PRIu64 " bytes overflow when rounded up to 64-byte alignment", size);
    return NULL;
  }
  size_t n = ((size_t)size + 63) & ~(size_t)63;
  void *p = aligned_alloc(64, n ? n : 64);
  if (!p) {
    mgpu_report(NAME, "aligned_alloc", "%s (%" PRIu64 " bytes)", strerror(ENOMEM), size);
    return NULL;
  }
  pthread_mutex_lock(&owned_lock);
  bool kept = owned_add(p);
  pthread_mutex_unlock(&owned_lock);
  if (!kept) {
    free(p);
    mgpu_report(NAME, "calloc", "%s (the table of allocations cannot grow)", strerror(ENOMEM));
    return NULL;
  }
  return p;
}

/* A bad pointer is reported at the call; the memory itself goes once the stream's work before it is done. */
static void cpu_mem_free(void *p, void *stream) {
  pthread_mutex_lock(&owned_lock);
  bool known = owned_remove(p);
  pthread_mutex_unlock(&owned_lock);
  if (known)
    cpu_free_after(p, stream);
  else
    mgpu_report(NAME, NULL, "%p is not memory that mgpuMemAlloc returned, or it was freed already", p);
}

static void cpu_host_register(void *p, uint64_t size) { (void)p, (void)size; }
static void cpu_host_unregister(void *p) { (void)p; }
static void *cpu_host_device_pointer(void *p) { return p; }

const mgpu_backend mgpu_cpu_backend = {
    .name = NAME,
    .kind = MGPU_KIND_CPU,
    .probe = cpu_probe,
    .device_info = cpu_device_info,
    .module_load = cpu_module_load,
    .module_load_jit = cpu_module_load_jit,
    .module_unload = cpu_module_unload,
    .module_function = cpu_module_function,
    .launch = cpu_launch,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .stream_sync = cpu_stream_sync,
    .stream_wait_event = cpu_stream_wait_event,
    .event_create = cpu_event_create,
    .event_destroy = cpu_event_destroy,
    .event_sync = cpu_event_sync,
    .event_record = cpu_event_record,
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .memcpy = cpu_memcpy,
    .memset32 = cpu_memset32,
    .memset16 = cpu_memset16,
    .host_register = cpu_host_register,
    .host_unregister = cpu_host_unregister,
    .host_device_pointer = cpu_host_device_pointer,
};
