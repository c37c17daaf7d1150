package dev.mgpu.tools;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Deque;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Where output goes. A regular file is written to a temporary sibling and renamed into place by
 * {@link #commit}; closing without committing deletes it, so a failure never leaves a partial output.
 * Anything else (a device, a FIFO, stdout) is written in place: renaming over it would replace it.
 */
final class Sink implements AutoCloseable {
    /**
     * Temporary files of runs in progress, newest last. SIGINT and SIGTERM run the shutdown hooks, which
     * delete them; SIGKILL runs nothing, so the name carries the pid for a later run to clean up after.
     */
    private static final Deque<Path> PENDING = new ConcurrentLinkedDeque<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Sink::deletePending, "gpu-translate-cleanup"));
        // SIGTERM and SIGINT end the run at once: delete what is pending, then die of the same signal with
        // its default action. Any orderly exit (shutdown hooks, or even Runtime.halt, which calls exit())
        // runs libLLVM's static destructors while LLVM still emits on the main thread, and the JVM then
        // dies in libLLVM and leaves a crash log; death by the signal runs nothing more. Java cannot send
        // a signal to its own process, so kill(1) does; halt is the fallback where kill cannot be run.
        stopOn("TERM", 143);
        stopOn("INT", 130);
    }

    private static void stopOn(String name, int status) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> {
                deletePending();
                sun.misc.Signal.handle(s, sun.misc.SignalHandler.SIG_DFL);
                try {
                    new ProcessBuilder("kill", "-" + name, Long.toString(ProcessHandle.current().pid()))
                            .redirectErrorStream(true).start().waitFor();
                } catch (IOException | InterruptedException e) {
                    // No kill(1) here: halting is the best left.
                }
                Runtime.getRuntime().halt(status);
            });
        } catch (IllegalArgumentException e) {
            // The signal is ignored (a background job's SIGINT) or reserved by the JVM: the hook still runs.
        }
    }

    private static final int MAX_LINKS = 40;

    private final Checked out;
    private final Path tmp;
    private final Path target;
    private final Set<PosixFilePermission> mode;
    private final boolean inPlace;
    private boolean committed;

    private Sink(OutputStream out, Path tmp, Path target, Set<PosixFilePermission> mode, boolean inPlace) {
        this.out = new Checked(out);
        this.tmp = tmp;
        this.target = target;
        this.mode = mode;
        this.inPlace = inPlace;
    }

    static Sink none() {
        return new Sink(OutputStream.nullOutputStream(), null, null, null, false);
    }

    static Sink open(String output, OutputStream stdout) throws IOException {
        if (output == null || output.equals("-")) {
            return new Sink(new BufferedOutputStream(stdout, 1 << 16), null, null, null, false);
        }
        Path given = Path.of(output).toAbsolutePath().normalize();
        // /dev/stdout and /proc/self/fd/N name whatever the descriptor is, a regular file too: nothing there
        // may be renamed over.
        if (given.startsWith("/dev/") || given.startsWith("/proc/")
                || Files.exists(given) && !Files.isRegularFile(given)) {
            return new Sink(new BufferedOutputStream(Files.newOutputStream(given), 1 << 16), null, null, null, true);
        }
        // As LLVM's tools do: a symbolic link is followed, so the file it names is replaced, not the link.
        Path target = Files.exists(given) ? given.toRealPath() : followLinks(given);
        Set<PosixFilePermission> mode = null;
        if (Files.isRegularFile(target)) {
            try {
                mode = Files.getPosixFilePermissions(target);
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system: the new file gets its default permissions.
            }
        }
        deleteLeftovers(target);
        Path tmp = createSibling(target);
        try {
            return new Sink(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16), tmp, target, mode, false);
        } catch (IOException | RuntimeException e) {
            forget(tmp);
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    private static Path followLinks(Path p) throws IOException {
        for (int i = 0; Files.isSymbolicLink(p); i++) {
            if (i == MAX_LINKS) {
                throw new FileSystemException(p.toString(), null, "Too many levels of symbolic links");
            }
            p = p.resolveSibling(Files.readSymbolicLink(p));
        }
        return p;
    }

    /** The prefix of the temporary files for {@code target}; their process's id and start follow it. */
    private static String prefix(Path target) {
        return "." + target.getFileName() + ".mgpu-";
    }

    /**
     * The process id and start (-1 for none) that a temporary file's name {@code .TARGET.mgpu-PID[-START[-N]].tmp}
     * gives, START in milliseconds; null for another name, or numbers too large. Read by hand, not with a
     * regular expression: every run to a file reads the names beside its output, and a run's first pattern
     * costs some 2 ms of its start.
     */
    static long[] temporaryOwner(String name) {
        int at = name.lastIndexOf(".mgpu-");
        int end = name.length() - ".tmp".length();
        if (at < 2 || name.charAt(0) != '.' || !name.endsWith(".tmp") || at + ".mgpu-".length() > end
                || !PlainText.onOneLine(name, 1, at)) {
            return null;
        }
        // A single character: String.split takes it as it is, without a pattern.
        String[] numbers = name.substring(at + ".mgpu-".length(), end).split("-", -1);
        if (numbers.length > 3) {
            return null;
        }
        for (String n : numbers) {
            if (!PlainText.digits(n, 0, n.length())) {
                return null;
            }
        }
        try {
            // The id and the start; the third number, which tells apart runs of one process, is not read.
            return new long[] {Long.parseLong(numbers[0]), numbers.length > 1 ? Long.parseLong(numbers[1]) : -1};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** This process's id and start, which name its temporary files. */
    private static final String OWNER = ProcessHandle.current().pid() + "-" + start(ProcessHandle.current());

    /** When {@code p} started, in milliseconds since the epoch; -1 where that cannot be read. */
    private static long start(ProcessHandle p) {
        return p.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L);
    }

    /**
     * A new, empty file next to {@code target}, registered for deletion on SIGINT and SIGTERM. Created
     * plainly, so that its permissions (and so a new output's) are what the umask gives any new file; a
     * temporary file's would be owner-only.
     */
    private static Path createSibling(Path target) throws IOException {
        String base = prefix(target) + OWNER;
        // Another run in this process (a test, a build tool) may be writing the same target.
        for (int n = 0;; n++) {
            Path tmp = target.resolveSibling(base + (n == 0 ? "" : "-" + n) + ".tmp");
            remember(tmp);
            try {
                return Files.createFile(tmp);
            } catch (FileAlreadyExistsException e) {
                forget(tmp);
            } catch (IOException | RuntimeException e) {
                forget(tmp);
                throw e;
            }
        }
    }

    /** Deletes the temporary files for {@code target} of runs whose process is gone (killed, say). */
    private static void deleteLeftovers(Path target) {
        Path dir = target.getParent();
        deleteLeftovers(dir == null ? Path.of(".") : dir, prefix(target));
    }

    /** Deletes the temporary files in {@code dir}, for any output, of processes that are gone. */
    static void deleteLeftoversIn(Path dir) {
        deleteLeftovers(dir, ".");
    }

    /**
     * Deletes the temporary files in {@code dir} whose names start with {@code prefix} of processes that are
     * gone: no process has the id in the name, or the one that has it started at another time (it took a
     * dead process's id).
     */
    private static void deleteLeftovers(Path dir, String prefix) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                long[] named = name.startsWith(prefix) ? temporaryOwner(name) : null;
                if (named == null) {
                    continue;
                }
                long pid = named[0];
                long started = named[1];
                java.util.Optional<ProcessHandle> owner = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
                if (owner.isPresent() && (started < 0 || start(owner.get()) == started)) {
                    continue;
                }
                try {
                    if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        Files.deleteIfExists(p);
                    }
                } catch (IOException e) {
                    // Someone else's, or already gone: not ours to insist on.
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // An unlistable directory: creating the output there reports the real problem.
        }
    }

    static void remember(Path p) {
        PENDING.addLast(p);
    }

    static void forget(Path p) {
        PENDING.removeLastOccurrence(p);
    }

    private static void deletePending() {
        for (Iterator<Path> it = PENDING.descendingIterator(); it.hasNext();) {
            try {
                Files.deleteIfExists(it.next());
            } catch (IOException | RuntimeException e) {
                // Nothing more can be done while exiting.
            }
        }
    }

    /** What an I/O failure says, as the C library says it, without the path that the caller names. */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * The temporary file behind this sink, for native code to write into directly; null when writing to
     * stdout or in place. The Java stream must not be used as well.
     */
    Path file() {
        return tmp;
    }

    OutputStream stream() {
        return out;
    }

    /**
     * The first write error, if any. Code that writes to {@link #stream()} may report it as its own
     * failure; this says what really happened.
     */
    IOException failure() {
        return out.failure;
    }

    void write(byte[] data) {
        try {
            out.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flushes, and moves a file into place; a device or FIFO is closed, so that its errors are seen. */
    void commit() throws IOException {
        out.flush();
        if (tmp != null) {
            out.close();
            if (mode != null) {
                Files.setPosixFilePermissions(tmp, mode);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            forget(tmp);
        } else if (inPlace) {
            out.close();
        }
        committed = true;
    }

    @Override
    public void close() throws IOException {
        if (committed) {
            return;
        }
        if (inPlace) {
            out.close();
            return;
        }
        if (tmp == null) {
            out.flush();
            return;
        }
        try {
            out.close();
        } finally {
            Files.deleteIfExists(tmp);
            forget(tmp);
        }
    }

    /** Remembers the first failure, which a caller of {@link Sink#stream()} may wrap beyond recognition. */
    private static final class Checked extends FilterOutputStream {
        IOException failure;

        Checked(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw seen(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw seen(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw seen(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw seen(e);
            }
        }

        private IOException seen(IOException e) {
            if (failure == null) {
                failure = e;
            }
            return e;
        }
    }
}
