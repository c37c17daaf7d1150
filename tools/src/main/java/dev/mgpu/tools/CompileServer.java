package dev.mgpu.tools;

import dev.mgpu.codegen.Mgpu;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A resident {@code gpu-translate}: one JVM, LLVM loaded and the code compiled once, serving the runs that a
 * build makes one after another. The launcher's client ({@code gpu-translate-client}, started when
 * {@code MGPU_SERVER=1}) starts it in its own working directory and environment, and asks a server only of
 * that directory, environment and build, so that every path and variable of a run means what it would mean
 * in a process of its own.
 *
 * <p>The protocol, over a Unix-domain socket, every integer big-endian:
 * <pre>
 * request  = "MGT3" flags:u32 dev:u64 ino:u64 umask:u32 cwd:string identity:string argc:u32 string*
 *                                                              flags: 1 stdout, 2 stderr is a terminal
 * string   = length:u32 UTF-8 bytes
 * answer   = frame* (X | R)
 * frame    = kind:u8 length:u32 bytes      'O' stdout, 'E' stderr, 'I' (length 0): send stdin now
 * X        = 'X' 4:u32 code:u32            the run's exit code
 * R        = 'R' 0:u32                     refused: run in a process of your own
 * stdin    = (length:u32 bytes)* 0:u32                          sent by the client after an 'I'
 * </pre>
 * {@code dev} and {@code ino} are those of the client's working directory and {@code umask} its file-creation
 * mask, and {@code identity} the client's as {@link ServerChecks#identity()} states it (user and group ids,
 * supplementary groups, mount namespace, root): a request whose directory, by name or by file, mask or
 * identity is not the server's own is refused, so that every file a run opens is the one, with the rights,
 * that the client's own process would get. A run leaves its place among the {@code MGPU_SERVER_JOBS} while
 * it waits for standard input, and its output is sent after it has left it: a client that never ends its
 * input or never reads its output holds no place. Runs are
 * served side by side, {@code MGPU_SERVER_JOBS} at most (default: the processors), the others waiting in the
 * order they came: the library translates and compiles on several threads at once
 * ({@code ConcurrencyTest}). A request not sent whole within {@code MGPU_SERVER_REQUEST_SECONDS} (default 10)
 * of its connection has the connection closed: half a request left open holds no thread, and does not keep the
 * server from ending. A client that goes away before its run ends abandons it:
 * no output is put in place. The server ends itself after {@code MGPU_SERVER_IDLE} seconds (default 900)
 * without a run, or once its directory's name names another directory (or none), and removes its socket.
 */
public final class CompileServer {
    private static final int MAGIC = 0x4D475433;
    /** A request of {@code gpu-translate --server=status|stop}: "MGTC", then 1 (status) or 2 (stop). */
    static final int CONTROL = 0x4D475443;
    private static final int MAX_STRING = 1 << 20;
    private static final int MAX_ARGS = 1 << 16;
    /**
     * The charset in which the JVM's launcher reads a process's arguments (the locale's): the client sends
     * its arguments and working directory as bytes, and they are read as a run of its own would read them.
     */
    private static final java.nio.charset.Charset ARGUMENTS = ServerChecks.argumentCharset();

    private final Path socket;
    private final long idleNanos;
    private final Path cwd = Path.of("").toAbsolutePath();
    /** This process's working directory itself, which its name may stop naming. */
    private final FileKey home = FileKey.of(Path.of("."));
    private final int umask = ServerChecks.umask();
    /** The identity a client must have; null where it cannot be known (every request is refused). */
    private final String identity = ServerChecks.identity();
    /** This build's jar and launcher as they were at the start: once they change, the server ends. */
    private final java.util.List<Object> build = ServerChecks.buildStamp();
    private final Semaphore jobs;
    /** Guards {@link #active} and {@link #ending}: a run accepted is served, or the server is ending. */
    private final Object life = new Object();
    private int active;
    private boolean ending;
    private volatile long lastActivity = System.nanoTime();
    private final long started = System.currentTimeMillis();
    /** When the last run ended (or the server started): what status calls idle, which its own requests keep. */
    private volatile long lastRun = System.nanoTime();
    private final java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
    /** Set by a stop request: the server ends once the runs in progress have. */
    private volatile boolean stopAsked;
    private ServerSocketChannel listener;
    private FileKey socketKey;

    /** What a connection's request may take to arrive, from the connection on. */
    private final long requestSeconds;
    /** Closes the connections whose requests have not come in time. */
    private final java.util.concurrent.ScheduledExecutorService timer =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "gpu-translate-server-requests");
                t.setDaemon(true);
                return t;
            });

    private CompileServer(Path socket, long idleSeconds, int jobs, long requestSeconds) {
        this.socket = socket;
        this.idleNanos = TimeUnit.SECONDS.toNanos(idleSeconds);
        this.jobs = new Semaphore(jobs, true);
        this.requestSeconds = requestSeconds;
    }

    /**
     * Serves runs on the socket {@code args[0]}, {@code MGPU_SERVER_JOBS} at a time, until idle for
     * {@code MGPU_SERVER_IDLE} seconds.
     *
     * @param args the socket's path
     * @throws IOException when the socket cannot be made
     * @throws InterruptedException never: the server ends by exiting
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: CompileServer SOCKET");
            System.exit(GpuTranslate.EXIT_USAGE);
        }
        long idle = setting("MGPU_SERVER_IDLE", 900);
        long jobs = setting("MGPU_SERVER_JOBS", Runtime.getRuntime().availableProcessors());
        Path socket = Path.of(args[0]).toAbsolutePath();
        Path dir = socket.getParent();
        String unsafe = dir == null ? "no directory for " + socket : ServerChecks.unsafeDirectory(dir);
        if (unsafe != null) {
            System.err.println("gpu-translate server: " + unsafe);
            System.exit(GpuTranslate.EXIT_USAGE);
        }
        // The client passes the directory it opened and checked as a descriptor, which no one can swap; a
        // directory given by name is used by its real path, checked above not to be a link.
        if (!dir.toString().startsWith("/proc/self/fd/")) {
            socket = dir.toRealPath().resolve(socket.getFileName());
        }
        new CompileServer(socket, idle, (int) Math.min(jobs, 1024), setting("MGPU_SERVER_REQUEST_SECONDS", 10))
                .serve();
    }

    /** The positive whole number in the variable {@code name}, else {@code otherwise}. */
    private static long setting(String name, long otherwise) {
        String given = System.getenv(name);
        if (given == null) {
            return otherwise;
        }
        try {
            return Math.max(1, Long.parseLong(given.trim()));
        } catch (NumberFormatException e) {
            System.err.println("gpu-translate server: " + name + " is not a whole number: " + given);
            return otherwise;
        }
    }

    private void serve() throws IOException, InterruptedException {
        listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        // The client starts a server only while it holds the lock beside the socket, after finding that no
        // server answers there: a socket file left there is a dead server's.
        Files.deleteIfExists(socket);
        listener.bind(UnixDomainSocketAddress.of(socket));
        socketKey = FileKey.of(socket);
        // Its own output is the log beside the socket: who it is, then a line a run.
        // (A socket named through the client's descriptor of the directory: where that directory is, too.)
        String where = socket.startsWith("/proc/self/fd/") ? " (" + socket.getParent().toRealPath() + ")" : "";
        System.err.println("gpu-translate server " + ProcessHandle.current().pid() + " on " + socket + where + " in "
                + cwd);
        // Not a daemon: it ends the server, and the JVM lives until it has, after main has returned too.
        new Thread(this::endWhenIdle, "gpu-translate-server-idle").start();
        // Temporary files of runs whose server was killed.
        Sink.deleteLeftoversIn(cwd);
        // LLVM loads while the first client connects.
        Mgpu.preloadNative();
        while (true) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (IOException e) {
                synchronized (life) {
                    if (ending) {
                        // Closed by endWhenIdle, which exits.
                        return;
                    }
                }
                // Out of descriptors, say: the runs in progress go on, and accepting is tried again.
                System.err.println("accept failed: " + e);
                Thread.sleep(100);
                continue;
            }
            synchronized (life) {
                if (ending) {
                    // Said nothing: its client runs the command in a process of its own.
                    ch.close();
                    continue;
                }
                active++;
                lastActivity = System.nanoTime();
            }
            Thread t = new Thread(() -> {
                try (ch) {
                    new Connection(ch).answer();
                } catch (IOException e) {
                    // The client went away; nothing is left to tell it.
                } finally {
                    synchronized (life) {
                        lastActivity = System.nanoTime();
                        active--;
                    }
                }
            }, "gpu-translate-run");
            t.setDaemon(true);
            t.start();
        }
    }

    private void endWhenIdle() {
        while (true) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            boolean moved = !java.util.Objects.equals(home, FileKey.of(cwd));
            // Another server may have taken the socket's name (one whose start outlasted its client's wait):
            // no client reaches this one then.
            boolean replaced = !java.util.Objects.equals(socketKey, FileKey.of(socket));
            // A rebuilt jar or launcher gets a new server: this one would otherwise idle on, unused.
            boolean rebuilt = !build.equals(ServerChecks.buildStamp());
            synchronized (life) {
                if (active > 0 || !moved && !replaced && !rebuilt && !stopAsked
                        && System.nanoTime() - lastActivity <= idleNanos) {
                    continue;
                }
                ending = true;
            }
            if (!replaced) {
                try {
                    Files.delete(socket);
                } catch (IOException e) {
                    // Gone already: the next client starts afresh either way.
                }
            }
            System.err.println(stopAsked ? "ended: asked to stop" : moved ? "ended: " + cwd + " names another directory now"
                    : replaced ? "ended: another server has the socket"
                    : rebuilt ? "ended: its jar or launcher changed" : "ended: idle");
            try {
                listener.close();
            } catch (IOException e) {
                // Exiting anyway.
            }
            System.exit(0);
        }
    }

    /** A file itself, whatever names it: its device and inode. */
    private record FileKey(long dev, long ino) {
        /** {@code path}'s file (a link itself, not followed), or null where there is none to read. */
        static FileKey of(Path path) {
            try {
                return new FileKey((Long) Files.getAttribute(path, "unix:dev", LinkOption.NOFOLLOW_LINKS),
                        (Long) Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS));
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                return null;
            }
        }
    }

    /**
     * What a server says of itself to {@code --server=status}: its process, directory, start, runs served and
     * in progress, and seconds idle.
     */
    private String status() {
        long idle = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lastRun);
        int running;
        synchronized (life) {
            // This request is one of them.
            running = Math.max(0, active - 1);
        }
        return "pid " + ProcessHandle.current().pid() + ", in " + cwd + ", since "
                + java.time.Instant.ofEpochMilli(started).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                + ", " + served.get() + " runs served, " + running + " running, idle " + idle + " s";
    }

    /** One client's request and its answer. */
    private final class Connection {
        private final SocketChannel ch;
        private final BlockingQueue<byte[]> stdin = new ArrayBlockingQueue<>(64);
        private volatile boolean gone;
        private boolean stdinAsked;
        /** Guards {@link #requestRead}: the connection is closed for lateness only before its request is read. */
        private final Object requestLock = new Object();
        private boolean requestRead;
        /** The command line of a request to run, once read and accepted; null for any other. */
        private String[] args;
        /** The request's flags: 1 stdout, 2 stderr is a terminal. */
        private int flags;

        Connection(SocketChannel ch) {
            this.ch = ch;
        }

        /** Answers a control request with one string: the server's status, and for a stop, that it stops. */
        private void control(int what) throws IOException {
            if (what == 2) {
                stopAsked = true;
            }
            byte[] text = ((what == 2 ? "stopping: " : "") + status()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(4 + text.length).putInt(text.length).put(text);
            b.flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }

        void answer() throws IOException {
            java.util.concurrent.ScheduledFuture<?> late = timer.schedule(this::giveUpOnRequest, requestSeconds,
                    TimeUnit.SECONDS);
            try {
                request();
            } finally {
                synchronized (requestLock) {
                    requestRead = true;
                }
                late.cancel(false);
            }
            if (args != null) {
                run();
            }
        }

        /** Closes the connection of a request that has not come whole in time (its read then fails). */
        private void giveUpOnRequest() {
            synchronized (requestLock) {
                if (requestRead) {
                    return;
                }
                System.err.println("closed: no whole request within " + requestSeconds + " s");
                try {
                    ch.close();
                } catch (IOException e) {
                    // Closed anyway.
                }
            }
        }

        /** Whether {@code name} names the server's directory; one that is no path (a NUL in it) does not. */
        private boolean isCwd(String name) {
            try {
                return Path.of(name).equals(cwd);
            } catch (java.nio.file.InvalidPathException e) {
                return false;
            }
        }

        /** Reads the request: answers a control request, and sets {@link #args} and {@link #flags} for a run. */
        private void request() throws IOException {
            ByteBuffer head = read(8);
            int magic = head.getInt();
            int flags = head.getInt();
            this.flags = flags;
            if (magic == CONTROL) {
                control(flags);
                return;
            }
            if (magic != MAGIC) {
                return;
            }
            ByteBuffer place = read(20);
            long dev = place.getLong();
            long ino = place.getLong();
            int mask = place.getInt();
            String from = string();
            String claimed = string();
            int argc = read(4).getInt();
            if (argc < 0 || argc > MAX_ARGS) {
                return;
            }
            String[] args = new String[argc];
            for (int i = 0; i < argc; i++) {
                args[i] = string();
            }
            boolean samePlace = isCwd(from) && new FileKey(dev, ino).equals(home)
                    && (umask < 0 || umask == mask);
            boolean sameIdentity = identity != null && identity.equals(claimed);
            if (!samePlace || !sameIdentity || GpuTranslate.needsItsOwnProcess(args)) {
                System.err.println("refused" + (sameIdentity ? "" : " (another identity: " + claimed + ")") + ": "
                        + String.join(" ", args));
                frame('R', new byte[0], 0, 0);
                return;
            }
            this.args = args;
        }

        /** Runs the request's command line; its output is sent once the run has left its place. */
        private void run() throws IOException {
            Thread listen = new Thread(this::listen, "gpu-translate-client-input");
            listen.setDaemon(true);
            listen.start();
            // The run's output, frames as they come, is kept until the run has left its place: a client that
            // does not read it keeps no place taken.
            java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
            FrameStream out = new FrameStream('O', frames);
            // As System.err of a run of its own: the charset of the locale, which the environment sets.
            PrintStream err = new PrintStream(new FrameStream('E', frames), true,
                    java.nio.charset.Charset.defaultCharset());
            int code;
            Stdin in = new Stdin();
            jobs.acquireUninterruptibly();
            in.holding = true;
            try {
                // A client gone while its run waited for a turn (Ctrl-C in a build) has it skipped.
                code = gone ? GpuTranslate.EXIT_INPUT : GpuTranslate.run(args, in, out, err,
                        (flags & 1) != 0, (flags & 2) != 0, () -> gone);
                out.flush();
                err.flush();
            } finally {
                if (in.holding) {
                    jobs.release();
                }
            }
            served.incrementAndGet();
            lastRun = System.nanoTime();
            System.err.println("served (exit " + code + (gone ? ", abandoned" : "") + "): " + String.join(" ", args));
            synchronized (this) {
                ByteBuffer all = ByteBuffer.wrap(frames.toByteArray());
                while (all.hasRemaining()) {
                    ch.write(all);
                }
            }
            frame('X', ByteBuffer.allocate(4).putInt(code).array(), 0, 4);
        }

        /** Reads what the client sends after its request (standard input), and notices when it goes. */
        private void listen() {
            try {
                while (true) {
                    int n = read(4).getInt();
                    if (n < 0 || n > MAX_STRING) {
                        break;
                    }
                    byte[] chunk = n == 0 ? new byte[0] : read(n).array();
                    // A run that read no further (input past its bound) leaves the rest here until it ends.
                    while (!stdin.offer(chunk, 1, TimeUnit.SECONDS)) {
                        if (!ch.isOpen()) {
                            return;
                        }
                    }
                }
            } catch (IOException | InterruptedException e) {
                // End of the connection: the client exited or was killed.
            }
            gone = true;
            stdin.offer(new byte[0]);
        }

        private String string() throws IOException {
            int n = read(4).getInt();
            if (n < 0 || n > MAX_STRING) {
                throw new IOException("string of " + n + " bytes");
            }
            return new String(read(n).array(), ARGUMENTS);
        }

        private ByteBuffer read(int n) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining()) {
                if (ch.read(b) < 0) {
                    throw new IOException("end of the connection");
                }
            }
            return b.flip();
        }

        private synchronized void frame(char kind, byte[] bytes, int off, int len) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(5 + len);
            b.put((byte) kind).putInt(len).put(bytes, off, len).flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }

        /**
         * Standard input, asked of the client at the first read and passed on as it comes (so that no more
         * is kept than the run reads, its bound included), the run's place left while it waits for the
         * client: a client whose input does not end holds no place.
         */
        private final class Stdin extends InputStream {
            private byte[] chunk = new byte[0];
            private int at;
            private boolean ended;
            /** Whether the run holds one of the places: while it waits for its input, it does not. */
            private boolean holding;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                while (at == chunk.length) {
                    if (ended) {
                        return -1;
                    }
                    if (!stdinAsked) {
                        stdinAsked = true;
                        frame('I', new byte[0], 0, 0);
                    }
                    chunk = next();
                    at = 0;
                    ended = chunk.length == 0;
                }
                int n = Math.min(len, chunk.length - at);
                System.arraycopy(chunk, at, b, off, n);
                at += n;
                return n;
            }

            /** The client's next chunk of input (empty at its end), the run's place left while it waits. */
            private byte[] next() throws IOException {
                byte[] ready = stdin.poll();
                if (ready != null) {
                    return ready;
                }
                if (holding) {
                    jobs.release();
                    holding = false;
                }
                try {
                    return stdin.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while reading standard input");
                } finally {
                    jobs.acquireUninterruptibly();
                    holding = true;
                }
            }
        }

        /** Output as frames of one kind, 64 KiB at most each, kept in {@code frames} in the order they come. */
        private final class FrameStream extends OutputStream {
            private final char kind;
            private final java.io.ByteArrayOutputStream frames;
            private final byte[] buf = new byte[1 << 16];
            private int n;

            FrameStream(char kind, java.io.ByteArrayOutputStream frames) {
                this.kind = kind;
                this.frames = frames;
            }

            @Override
            public void write(int b) throws IOException {
                if (n == buf.length) {
                    flush();
                }
                buf[n++] = (byte) b;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                while (len > 0) {
                    if (n == buf.length) {
                        flush();
                    }
                    int k = Math.min(len, buf.length - n);
                    System.arraycopy(b, off, buf, n, k);
                    n += k;
                    off += k;
                    len -= k;
                }
            }

            @Override
            public void flush() throws IOException {
                if (n > 0) {
                    int len = n;
                    n = 0;
                    synchronized (frames) {
                        frames.write(kind);
                        frames.write(ByteBuffer.allocate(4).putInt(len).array());
                        frames.write(buf, 0, len);
                    }
                }
            }
        }
    }
}
