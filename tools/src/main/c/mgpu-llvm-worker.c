/*
 * mgpu-llvm-worker: LLVM's code generator for kernel modules, in a process of its own that serves one
 * request after another. gpu-translate keeps a few of these for the life of its JVM (a server's, a build's):
 * a back end that crashes or calls report_fatal_error ends this process, never the JVM, and the next request
 * gets a fresh one. Compared with starting llc for every module and target, it spares loading libLLVM each
 * time (about 25 ms of processor time).
 *
 * It takes the path of the artifact's libLLVM.so as its one argument and binds LLVM's C API from it at run
 * time, so that it builds with a C compiler alone and uses the very library the JVM uses. It creates the
 * target machine as the JVM does (LLVMCreateTargetMachine: position-independent code, the default code
 * model), so its output is the same, byte for byte.
 *
 * Requests on standard input, answers on standard output, in the machine's byte order:
 *   request: u32 length + triple, u32 length + CPU, u32 length + features, u32 level (0-3),
 *            u32 file type (0 assembly, 1 object), u64 length + the module's bitcode
 *   answer:  u32 status (0: the output follows; 1: LLVM's errors follow, joined by "; "), u64 length + bytes
 * It ends when standard input ends.
 *
 * With MGPU_LLVM_WORKER_LOG=FILE in its environment, it appends a line to FILE for each request it takes,
 * before it answers (its JVM may end it as soon as it has the answer): its process id, who started it
 * (MGPU_LLVM_WORKER_STARTED_BY, which the launcher sets to "launcher" for the worker it starts before the
 * JVM; "jvm" without it) and the triple.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *Ref;

static void *llvm;

static void *need(const char *name) {
  void *p = dlsym(llvm, name);
  if (p == NULL) {
    fprintf(stderr, "mgpu-llvm-worker: libLLVM has no %s\n", name);
    exit(2);
  }
  return p;
}

static Ref (*ContextCreate)(void);
static void (*ContextDispose)(Ref);
static void (*ContextSetDiagnosticHandler)(Ref, void (*)(Ref, void *), void *);
static int (*GetDiagInfoSeverity)(Ref);
static char *(*GetDiagInfoDescription)(Ref);
static void (*DisposeMessage)(char *);
static Ref (*CreateMemoryBufferWithMemoryRange)(const char *, size_t, const char *, int);
static void (*DisposeMemoryBuffer)(Ref);
static const char *(*GetBufferStart)(Ref);
static size_t (*GetBufferSize)(Ref);
static int (*ParseBitcodeInContext2)(Ref, Ref, Ref *);
static void (*DisposeModule)(Ref);
static int (*GetTargetFromTriple)(const char *, Ref *, char **);
static Ref (*CreateTargetMachine)(Ref, const char *, const char *, const char *, int, int, int);
static void (*DisposeTargetMachine)(Ref);
static int (*TargetMachineEmitToMemoryBuffer)(Ref, Ref, int, char **, Ref *);

/* The C API's values: LLVMDSError, LLVMRelocPIC, LLVMCodeModelDefault. */
enum { DS_ERROR = 0, RELOC_PIC = 2, CODE_MODEL_DEFAULT = 0 };

/* LLVM's error diagnostics of the request under way, joined by "; ". */
static char *errors;
static size_t errors_len;

static void append_error(const char *text) {
  /* LLVM's prefix for a message of no source location, as the JVM drops it. */
  if (strncmp(text, "<unknown>:0:0: ", 15) == 0) {
    text += 15;
  }
  size_t n = strlen(text);
  char *grown = realloc(errors, errors_len + n + 3);
  if (grown == NULL) {
    exit(3);
  }
  errors = grown;
  if (errors_len > 0) {
    memcpy(errors + errors_len, "; ", 2);
    errors_len += 2;
  }
  memcpy(errors + errors_len, text, n);
  errors_len += n;
}

static void on_diagnostic(Ref info, void *context) {
  (void)context;
  if (GetDiagInfoSeverity(info) == DS_ERROR) {
    char *text = GetDiagInfoDescription(info);
    append_error(text);
    DisposeMessage(text);
  }
}

static int read_all(void *to, size_t n) {
  return n == 0 || fread(to, 1, n, stdin) == n;
}

/* A length-prefixed string, NUL-terminated; NULL at the end of the input. */
static char *read_string(void) {
  uint32_t n;
  if (!read_all(&n, sizeof n)) {
    return NULL;
  }
  char *s = malloc((size_t)n + 1);
  if (s == NULL || !read_all(s, n)) {
    exit(3);
  }
  s[n] = 0;
  return s;
}

static void answer(uint32_t status, const char *bytes, uint64_t n) {
  fwrite(&status, sizeof status, 1, stdout);
  fwrite(&n, sizeof n, 1, stdout);
  fwrite(bytes, 1, n, stdout);
  fflush(stdout);
}

static void fail(const char *what, char *llvm_message) {
  append_error(llvm_message != NULL ? llvm_message : what);
  if (llvm_message != NULL) {
    DisposeMessage(llvm_message);
  }
  answer(1, errors, errors_len);
}

/* LLVM's target for the triple, initialised once (as the JVM initialises it: info, target, MC, printer). */
static void init_target(const char *triple) {
  static const char *const kinds[][2] = {
      {"nvptx", "NVPTX"}, {"amdgcn", "AMDGPU"}, {"x86_64", "X86"}, {"i386", "X86"},
      {"i686", "X86"},    {"aarch64", "AArch64"}, {"arm64", "AArch64"},
  };
  static int done[sizeof kinds / sizeof kinds[0]];
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    if (strncmp(triple, kinds[i][0], strlen(kinds[i][0])) == 0) {
      if (!done[i]) {
        const char *parts[] = {"TargetInfo", "Target", "TargetMC", "AsmPrinter"};
        for (int p = 0; p < 4; p++) {
          char name[64];
          snprintf(name, sizeof name, "LLVMInitialize%s%s", kinds[i][1], parts[p]);
          ((void (*)(void))need(name))();
        }
        done[i] = 1;
      }
      return;
    }
  }
}

static void serve(char *triple) {
  char *cpu = read_string();
  char *features = read_string();
  uint32_t level, file_type;
  uint64_t size;
  if (cpu == NULL || features == NULL || !read_all(&level, sizeof level) || !read_all(&file_type, sizeof file_type)
      || !read_all(&size, sizeof size)) {
    exit(3);
  }
  char *bitcode = malloc(size > 0 ? size : 1);
  if (bitcode == NULL || !read_all(bitcode, size)) {
    exit(3);
  }
  errors_len = 0;
  init_target(triple);
  Ref context = ContextCreate();
  ContextSetDiagnosticHandler(context, on_diagnostic, NULL);
  Ref buffer = CreateMemoryBufferWithMemoryRange(bitcode, size, "kernels.bc", 0);
  Ref module = NULL;
  if (ParseBitcodeInContext2(context, buffer, &module) != 0) {
    fail("Invalid kernel module (its bitcode must read back)", NULL);
  } else {
    Ref target = NULL;
    char *message = NULL;
    if (GetTargetFromTriple(triple, &target, &message) != 0) {
      fail("no target", message);
    } else {
      Ref machine = CreateTargetMachine(target, triple, cpu, features, (int)level, RELOC_PIC, CODE_MODEL_DEFAULT);
      Ref out = NULL;
      message = NULL;
      if (TargetMachineEmitToMemoryBuffer(machine, module, (int)file_type, &message, &out) != 0) {
        fail("no output", message);
      } else if (errors_len > 0) {
        DisposeMemoryBuffer(out);
        answer(1, errors, errors_len);
      } else {
        answer(0, GetBufferStart(out), GetBufferSize(out));
        DisposeMemoryBuffer(out);
      }
      DisposeTargetMachine(machine);
    }
    DisposeModule(module);
  }
  DisposeMemoryBuffer(buffer);
  ContextDispose(context);
  free(bitcode);
  free(cpu);
  free(features);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mgpu-llvm-worker LIBLLVM\n");
    return 2;
  }
  llvm = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  if (llvm == NULL) {
    fprintf(stderr, "mgpu-llvm-worker: %s\n", dlerror());
    return 2;
  }
  ContextCreate = need("LLVMContextCreate");
  ContextDispose = need("LLVMContextDispose");
  ContextSetDiagnosticHandler = need("LLVMContextSetDiagnosticHandler");
  GetDiagInfoSeverity = need("LLVMGetDiagInfoSeverity");
  GetDiagInfoDescription = need("LLVMGetDiagInfoDescription");
  DisposeMessage = need("LLVMDisposeMessage");
  CreateMemoryBufferWithMemoryRange = need("LLVMCreateMemoryBufferWithMemoryRange");
  DisposeMemoryBuffer = need("LLVMDisposeMemoryBuffer");
  GetBufferStart = need("LLVMGetBufferStart");
  GetBufferSize = need("LLVMGetBufferSize");
  ParseBitcodeInContext2 = need("LLVMParseBitcodeInContext2");
  DisposeModule = need("LLVMDisposeModule");
  GetTargetFromTriple = need("LLVMGetTargetFromTriple");
  CreateTargetMachine = need("LLVMCreateTargetMachine");
  DisposeTargetMachine = need("LLVMDisposeTargetMachine");
  TargetMachineEmitToMemoryBuffer = need("LLVMTargetMachineEmitToMemoryBuffer");
  /* One request after another until the input ends: the first field of each is the triple. */
  const char *log = getenv("MGPU_LLVM_WORKER_LOG");
  for (char *triple; (triple = read_string()) != NULL; free(triple)) {
    if (log != NULL && *log != '\0') {
      FILE *f = fopen(log, "a");
      if (f != NULL) {
        const char *by = getenv("MGPU_LLVM_WORKER_STARTED_BY");
        fprintf(f, "%ld %s %s\n", (long)getpid(), by != NULL && *by != '\0' ? by : "jvm", triple);
        fclose(f);
      }
    }
    serve(triple);
  }
  return 0;
}
