/*
 * gpu-translate-client: runs a gpu-translate command in a resident server (dev.mgpu.tools.CompileServer),
 * starting one when none answers, so that a build's many runs pay for one JVM start and one load of LLVM.
 *
 * usage: gpu-translate-client LAUNCHER JAR [gpu-translate arguments...]
 * The launcher execs this when MGPU_SERVER=1. A server serves one working directory, environment, identity
 * (user and group ids, supplementary groups, mount namespace, root) and build of the jar: its socket is
 * named by a hash of them all, in MGPU_SERVER_DIR (default $XDG_RUNTIME_DIR/mgpu-server, else
 * /tmp/mgpu-server-UID), a directory of this user's, mode 0700, not a link. The directory is opened once and
 * checked through its descriptor; every name in it is reached through that descriptor
 * (/proc/self/fd/N/NAME), so a directory swapped under its name after the check is never used. The server is
 * started by LAUNCHER --mgpu-serve=/proc/self/fd/3/NAME.sock, detached, with the directory as its
 * descriptor 3 and its own output in NAME.log. Wherever the server
 * cannot be used (no directory of ours, no server after 30 s, a refusal, a server gone before it said
 * anything), the command runs as LAUNCHER would run it alone, with MGPU_SERVER=0.
 *
 * The protocol is in CompileServer's documentation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *launcher;
static char **user_args;
static int user_argc;

/* Runs the command without a server: the launcher's own path, told not to come back here. */
static void run_alone(void) {
  setenv("MGPU_SERVER", "0", 1);
  signal(SIGPIPE, SIG_DFL);
  char **argv = calloc((size_t)user_argc + 2, sizeof *argv);
  if (!argv) {
    perror("gpu-translate");
    exit(3);
  }
  argv[0] = (char *)launcher;
  for (int i = 0; i < user_argc; i++) argv[i + 1] = user_args[i];
  execv(launcher, argv);
  fprintf(stderr, "gpu-translate: error: cannot run %s: %s\n", launcher, strerror(errno));
  exit(3);
}

/* Variables that a build changes from one command to the next and that no run reads. */
static int volatile_variable(const char *kv) {
  static const char *const names[] = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT",
                                      "MAKE_TERMERR", "_", "SHLVL", "OLDPWD", "PWD", "MGPU_SERVER",
                                      "MGPU_SERVER_DIR", NULL};
  for (const char *const *n = names; *n; n++) {
    size_t len = strlen(*n);
    if (strncmp(kv, *n, len) == 0 && kv[len] == '=') return 1;
  }
  return 0;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); }

static int by_string(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What a run's files depend on beyond its arguments: the working directory itself (not only its name, which a
 * new directory may take over) and the file-creation mask. */
struct place {
  uint64_t dev, ino;
  uint32_t mask;
};

static int here(struct place *p) {
  struct stat st;
  if (stat(".", &st) != 0) return -1;
  mode_t m = umask(0);
  umask(m);
  *p = (struct place){(uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint32_t)m};
  return 0;
}

static int by_gid(const void *a, const void *b) {
  gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;
  return x < y ? -1 : x > y;
}

/*
 * What decides which files this process may open, and which file a name opens: "uid=REAL,EFFECTIVE
 * gid=REAL,EFFECTIVE groups=G,... mnt=mnt:[N] root=DEV:INO", as CompileServer's ServerChecks.identity states
 * its own. NULL where it cannot be read.
 */
static char *whoami(void) {
  int n = getgroups(0, NULL);
  if (n < 0) return NULL;
  gid_t *groups = calloc((size_t)n + 1, sizeof *groups);
  char mnt[256];
  ssize_t k = readlink("/proc/self/ns/mnt", mnt, sizeof mnt - 1);
  struct stat root;
  if (!groups || k < 0 || stat("/proc/self/root", &root) != 0 || (n = getgroups(n, groups)) < 0) {
    free(groups);
    return NULL;
  }
  mnt[k] = 0;
  qsort(groups, (size_t)n, sizeof *groups, by_gid);
  size_t size = 512 + (size_t)n * 12;
  char *s = malloc(size);
  if (!s) {
    free(groups);
    return NULL;
  }
  size_t at = (size_t)snprintf(s, size, "uid=%u,%u gid=%u,%u groups=", (unsigned)getuid(), (unsigned)geteuid(),
                               (unsigned)getgid(), (unsigned)getegid());
  for (int i = 0; i < n; i++) at += (size_t)snprintf(s + at, size - at, i ? ",%u" : "%u", (unsigned)groups[i]);
  snprintf(s + at, size - at, " mnt=%s root=%llu:%llu", mnt, (unsigned long long)root.st_dev,
           (unsigned long long)root.st_ino);
  free(groups);
  return s;
}

/*
 * The identity of the server this command may use: the jar's and launcher's files, the working directory
 * (name and file), the umask, the process's identity (whoami) and the environment.
 */
static uint64_t identity(const char *jar, const char *cwd, const struct place *at, const char *who) {
  uint64_t h = fnv_str(0xcbf29ce484222325ULL, "gpu-translate-server 3");
  h = fnv_str(h, who);
  const char *files[] = {jar, launcher};
  for (int i = 0; i < 2; i++) {
    struct stat st;
    if (stat(files[i], &st) != 0) return 0;
    h = fnv_str(h, files[i]);
    int64_t v[] = {(int64_t)st.st_dev, (int64_t)st.st_ino, (int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                   (int64_t)st.st_mtim.tv_nsec};
    h = fnv(h, v, sizeof v);
  }
  h = fnv_str(h, cwd);
  h = fnv(h, &at->dev, sizeof at->dev);
  h = fnv(h, &at->ino, sizeof at->ino);
  h = fnv(h, &at->mask, sizeof at->mask);
  size_t n = 0;
  while (environ[n]) n++;
  char **env = malloc((n + 1) * sizeof *env);
  if (!env) return 0;
  memcpy(env, environ, n * sizeof *env);
  qsort(env, n, sizeof *env, by_string);
  for (size_t i = 0; i < n; i++) {
    if (!volatile_variable(env[i])) h = fnv_str(h, env[i]);
  }
  free(env);
  return h;
}

/*
 * The directory of this user's servers, made if need be, opened (not through a link) and checked through the
 * descriptor returned: -1 where it is not this user's alone.
 */
static int server_dir(void) {
  char out[PATH_MAX];
  size_t size = sizeof out;
  const char *given = getenv("MGPU_SERVER_DIR");
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  int n;
  if (given && *given) {
    n = snprintf(out, size, "%s", given);
  } else if (runtime && *runtime) {
    n = snprintf(out, size, "%s/mgpu-server", runtime);
  } else {
    n = snprintf(out, size, "/tmp/mgpu-server-%u", (unsigned)getuid());
  }
  if (n < 0 || (size_t)n >= size) return -1;
  if (mkdir(out, 0700) != 0 && errno != EEXIST) return -1;
  int dir = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (dir < 0) return -1;
  if (fstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 0777) != 0700) {
    close(dir);
    return -1;
  }
  return dir;
}

static int connect_to(const char *path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/*
 * Starts LAUNCHER --mgpu-serve=SOCKET detached from this process, its session and its descriptors, and
 * returns the server's process id (0 if unknown, -1 if it could not be started).
 */
static pid_t start_server(int dir, const char *name) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return -1;
  pid_t child = fork();
  if (child < 0) {
    close(report[0]);
    close(report[1]);
    return -1;
  }
  if (child == 0) {
    close(report[0]);
    if (setsid() < 0) _exit(0);
    pid_t server = fork();
    if (server != 0) {
      ssize_t ignored = write(report[1], &server, sizeof server);
      (void)ignored;
      _exit(0);
    }
    char log_name[64];
    snprintf(log_name, sizeof log_name, "%s.log", name);
    int null = open("/dev/null", O_RDONLY);
    int log = openat(dir, log_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (null < 0 || log < 0) _exit(1);
    dup2(null, 0);
    dup2(log, 1);
    dup2(log, 2);
    /* The directory, as the server's descriptor 3, through which it names its socket. */
    if (dir == 3 ? fcntl(3, F_SETFD, 0) != 0 : dup2(dir, 3) != 3) _exit(1);
    /* A build's pipes (make's job server, a caller reading our stdout to its end) must not stay open. */
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 4; fd < (max > 0 && max < 65536 ? max : 65536); fd++) close((int)fd);
    for (char **e = environ; *e;) {
      if (volatile_variable(*e) && strncmp(*e, "PWD=", 4) != 0) {
        char name[256];
        size_t len = strcspn(*e, "=");
        if (len < sizeof name) {
          memcpy(name, *e, len);
          name[len] = 0;
          unsetenv(name);
          continue;
        }
      }
      e++;
    }
    setenv("MGPU_SERVER", "0", 1);
    signal(SIGPIPE, SIG_DFL);
    char arg[128];
    snprintf(arg, sizeof arg, "--mgpu-serve=/proc/self/fd/3/%s.sock", name);
    char *argv[] = {(char *)launcher, arg, NULL};
    execv(launcher, argv);
    _exit(127);
  }
  close(report[1]);
  pid_t server = 0;
  while (read(report[0], &server, sizeof server) < 0 && errno == EINTR) {
  }
  close(report[0]);
  int status;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return server;
}

/* A connection to this command's server, started if none answers; -1 where there can be none. */
static int server(const char *jar, const struct place *at, const char *who) {
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return -1;
  uint64_t id = identity(jar, cwd, at, who);
  if (id == 0) return -1;
  int dir = server_dir();
  if (dir < 0) return -1;
  char name[32], sock[128], lock[64];
  snprintf(name, sizeof name, "%016llx", (unsigned long long)id);
  snprintf(sock, sizeof sock, "/proc/self/fd/%d/%s.sock", dir, name);
  snprintf(lock, sizeof lock, "%s.lock", name);
  int fd = connect_to(sock);
  if (fd >= 0) {
    close(dir);
    return fd;
  }
  /* One client starts the server; the others wait on the lock and then find it. */
  int l = openat(dir, lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (l < 0) {
    close(dir);
    return -1;
  }
  while (flock(l, LOCK_EX) != 0) {
    if (errno != EINTR) {
      close(l);
      close(dir);
      return -1;
    }
  }
  fd = connect_to(sock);
  if (fd < 0) {
    pid_t started = start_server(dir, name);
    struct timespec pause = {0, 5 * 1000 * 1000};
    /* Up to 30 s, while the server lives: one that could not start says why in its log. */
    for (int i = 0; i < 6000 && fd < 0 && started >= 0; i++) {
      nanosleep(&pause, NULL);
      fd = connect_to(sock);
      if (fd < 0 && started > 0 && kill(started, 0) != 0 && errno == ESRCH) break;
    }
  }
  close(l);
  close(dir);
  return fd;
}


static int recv_all(int fd, void *p, size_t n) {
  char *b = p;
  while (n > 0) {
    ssize_t k = read(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    b += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Writes all of b to a descriptor: the server's socket or a standard stream (SIGPIPE is ignored, so a
 * reader gone is EPIPE). */
static int write_all(int fd, const void *p, size_t n) {
  const char *b = p;
  while (n > 0) {
    ssize_t k = write(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    b += k;
    n -= (size_t)k;
  }
  return 0;
}

static int send_u64(int fd, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (56 - 8 * i));
  return write_all(fd, b, 8);
}

static int send_u32(int fd, uint32_t v) {
  unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                        (unsigned char)v};
  return write_all(fd, b, 4);
}

static int send_string(int fd, const char *s) {
  size_t n = strlen(s);
  return n > UINT32_MAX || send_u32(fd, (uint32_t)n) || write_all(fd, s, n) ? -1 : 0;
}

static uint32_t u32(const unsigned char *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* Sends all of standard input in chunks, then the empty chunk that ends it. */
static int send_stdin(int fd) {
  static char buf[1 << 16];
  for (;;) {
    ssize_t k = read(0, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      /* As a run of its own: exit 1; the server, seeing this client go, puts nothing in place. */
      fprintf(stderr, "<stdin>: error: Invalid input (must be a readable file): %s\n", strerror(errno));
      exit(1);
    }
    if (send_u32(fd, (uint32_t)k) || (k > 0 && write_all(fd, buf, (size_t)k))) return -1;
    if (k == 0) return 0;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: gpu-translate-client LAUNCHER JAR [ARGS...]\n");
    return 2;
  }
  launcher = argv[1];
  user_args = argv + 3;
  user_argc = argc - 3;
  /* A run whose standard descriptors are not all open fails or not as its own process would: it is one. */
  for (int std = 0; std <= 2; std++) {
    if (fcntl(std, F_GETFD) < 0) run_alone();
  }
  /* A reader that goes (a pipe into head) is an EPIPE to report, as a run of its own reports it. */
  signal(SIGPIPE, SIG_IGN);
  struct place at;
  if (here(&at) != 0) run_alone();
  char *who = whoami();
  if (!who) run_alone();
  int fd = server(argv[2], &at, who);
  if (fd < 0) run_alone();
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) run_alone();
  unsigned char head[4] = {'M', 'G', 'T', '3'};
  uint32_t flags = (isatty(1) ? 1u : 0u) | (isatty(2) ? 2u : 0u);
  int failed = write_all(fd, head, 4) || send_u32(fd, flags) || send_u64(fd, at.dev) || send_u64(fd, at.ino) ||
               send_u32(fd, at.mask) || send_string(fd, cwd) || send_string(fd, who) || send_u32(fd, (uint32_t)user_argc);
  for (int i = 0; i < user_argc && !failed; i++) failed = send_string(fd, user_args[i]);
  if (failed) run_alone();
  int said = 0;
  static char buf[1 << 16];
  for (;;) {
    unsigned char frame[5];
    if (recv_all(fd, frame, 5) != 0) break;
    uint32_t len = u32(frame + 1);
    if (frame[0] == 'R') {
      close(fd);
      run_alone();
    }
    if (frame[0] == 'X') {
      unsigned char code[4];
      if (len != 4 || recv_all(fd, code, 4) != 0) break;
      return (int)u32(code);
    }
    if (frame[0] == 'I') {
      said = 1;
      /* A server that stops reading (input past the bound a run reads) has its answer on the way: it is
       * read next, and a server gone is seen there. */
      send_stdin(fd);
      continue;
    }
    if (frame[0] != 'O' && frame[0] != 'E') break;
    said = 1;
    int out = frame[0] == 'O' ? 1 : 2;
    while (len > 0) {
      size_t k = len < sizeof buf ? len : sizeof buf;
      if (recv_all(fd, buf, k) != 0) goto lost;
      if (write_all(out, buf, k) != 0 && out == 1) {
        /* As a run of its own would: the output fails, and the server, seeing us go, puts nothing in place.
         * Standard error that cannot be written is dropped, as Java's System.err drops it. */
        fprintf(stderr, "<stdout>: error: Invalid output (must be writable): %s\n", strerror(errno));
        return 1;
      }
      len -= (uint32_t)k;
    }
  }
lost:
  close(fd);
  if (!said) run_alone();
  fprintf(stderr, "gpu-translate: error: the compile server ended before the run did (see its log in the"
                  " server directory)\n");
  return 3;
}
