package dev.mgpu.codegen.internal.llvm;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * LLVM's code generator in processes that serve one kernel module after another ({@code mgpu-llvm-worker},
 * built with the tools; {@code -Dmgpu.llvm.worker} names it): a crash or fatal error ends the worker, never the
 * JVM, as with {@code llc}, and a JVM that compiles many modules (a server, a build of many files, a module
 * with several targets) does not load libLLVM again for each. A worker that ended is replaced by a fresh one
 * for the next request; idle workers are kept, as many as there are processors, for the life of the JVM, and
 * end with it (their input ends).
 */
final class BackendWorkers {
    /** What a worker answered: its output, or LLVM's errors, or how it ended and what it said before. */
    record Answer(byte[] output, String errors, Integer exit, String log) {
    }

    private static final Deque<Worker> IDLE = new ArrayDeque<>();
    /** Every worker alive, ended when the JVM ends. */
    private static final java.util.Set<Worker> ALL = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        // A JVM that ends waits up to 300 ms for its threads in native code: those that read a worker's
        // output and wait for it to end would be among them, so the workers end first.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Worker w : ALL) {
                w.kill();
            }
            for (Worker w : ALL) {
                if (w.process == null) {
                    continue;
                }
                try {
                    w.process.waitFor(1, TimeUnit.SECONDS);
                    w.logReader.join(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }, "mgpu-llvm-worker-end"));
    }
    private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mgpu-llvm-worker-watch");
        t.setDaemon(true);
        return t;
    });

    private BackendWorkers() {
    }

    /** The worker's executable, or null when there is none (a library on its own, without the tools). */
    static Path executable() {
        String p = System.getProperty("mgpu.llvm.worker");
        if (p == null || p.isEmpty()) {
            return null;
        }
        Path path = Path.of(p);
        return Files.isExecutable(path) ? path : null;
    }

    /**
     * Generates code for a module's bitcode in a worker.
     *
     * @param bitcode the optimised module's bitcode
     * @param triple the target triple
     * @param cpu the CPU or chip, or empty
     * @param features the target features, or empty
     * @param level the code generation level, 0 to 3
     * @param fileType {@code LLVMAssemblyFile} or {@code LLVMObjectFile}
     * @param seconds how long the worker may take
     * @return the answer
     * @throws IOException when no worker can be started
     */
    static Answer emit(byte[] bitcode, String triple, String cpu, String features, int level, int fileType,
            long seconds) throws IOException {
        Worker w;
        synchronized (IDLE) {
            w = IDLE.pollFirst();
        }
        if (w == null) {
            w = ready();
        }
        if (w != null && !w.alive()) {
            w.close();
            w = null;
        }
        if (w == null) {
            w = new Worker(executable(), ArtifactTools.tool("llc"));
        }
        Answer a = w.request(bitcode, triple, cpu, features, level, fileType, seconds);
        if (w.process == null && a.exit() != null && a.exit() == ENDED_UNSEEN) {
            // The launcher's worker ended without an answer, and how it ended cannot be seen from here: the
            // request goes to a worker of this JVM's, which answers or shows how it ends.
            w.close();
            w = new Worker(executable(), ArtifactTools.tool("llc"));
            a = w.request(bitcode, triple, cpu, features, level, fileType, seconds);
        }
        if (a.exit() == null) {
            synchronized (IDLE) {
                if (IDLE.size() < Runtime.getRuntime().availableProcessors()) {
                    IDLE.addFirst(w);
                    w = null;
                }
            }
        }
        if (w != null) {
            w.close();
        }
        return a;
    }

    /** The exit of a worker that ended unanswered where its exit status cannot be had (see {@link #ready}). */
    private static final int ENDED_UNSEEN = Integer.MIN_VALUE;

    /** Whether the launcher's worker has been looked for (once in a JVM). */
    private static boolean readyLooked;

    /**
     * The worker that the launcher started before this JVM, once, to the first request that finds none idle:
     * it has loaded libLLVM while the JVM started, which a worker started after translation makes the run wait
     * for. The launcher names it with {@code -Dmgpu.llvm.worker.ready=PID,LIBLLVM}, and passes this JVM the
     * ends of its pipes that keep it alive. It is taken only where it is this process's child, runs the worker
     * program and loaded the library this JVM's workers would load; otherwise it is ended and the JVM starts
     * its own. Its pipes are opened through its own descriptors, never this process's, so that a number that
     * means something else here can never be written to. Java did not start it: its exit status cannot be
     * had, so a request that it leaves unanswered is asked again of a worker of the JVM's own.
     *
     * @return the worker, or null
     */
    private static Worker ready() {
        synchronized (IDLE) {
            if (readyLooked) {
                return null;
            }
            readyLooked = true;
        }
        String p = System.getProperty("mgpu.llvm.worker.ready");
        if (p == null || p.isEmpty()) {
            return null;
        }
        int comma = p.indexOf(',');
        ProcessHandle h = null;
        try {
            long pid = Long.parseLong(p.substring(0, comma));
            h = ProcessHandle.of(pid).orElse(null);
            Path exe = executable();
            long self = ProcessHandle.current().pid();
            // No lambda here: this path runs only in the launcher's runs, which the class-data archive's training
            // does not take, so a lambda would be made at each such run.
            ProcessHandle parent = h == null ? null : h.parent().orElse(null);
            if (exe == null || parent == null || parent.pid() != self) {
                return null;
            }
            Path proc = Path.of("/proc", Long.toString(pid));
            // The launcher's subshell may not have become the worker yet: it is given a moment, and otherwise
            // left to end with this JVM.
            Path program = exe.toRealPath();
            for (int i = 0; !Files.readSymbolicLink(proc.resolve("exe")).equals(program); i++) {
                if (i == 100) {
                    return null;
                }
                Thread.sleep(2);
            }
            Path lib = library(ArtifactTools.tool("llc"));
            if (!lib.toRealPath().equals(Path.of(p.substring(comma + 1)).toRealPath())) {
                h.destroyForcibly();
                return null;
            }
            OutputStream out = new java.io.FileOutputStream(proc.resolve("fd/0").toFile());
            InputStream in;
            try {
                in = new java.io.FileInputStream(proc.resolve("fd/1").toFile());
            } catch (IOException e) {
                out.close();
                throw e;
            }
            return new Worker(h, in, out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (IOException | RuntimeException e) {
            if (h != null) {
                h.destroyForcibly();
            }
            return null;
        }
    }

    /** The artifact's libLLVM, beside its llc: the library this JVM generates code with, and its workers. */
    private static Path library(ArtifactTools.Tool llc) {
        return llc.path().resolveSibling("libLLVM.so");
    }

    /** One worker process, serving one request at a time. */
    private static final class Worker {
        /** The process as Java started it, or null for the launcher's worker (see {@link #ready}). */
        final Process process;
        final ProcessHandle handle;
        final DataInputStream in;
        final OutputStream out;
        /** Everything the worker wrote on its standard error, read as it comes. */
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final Thread logReader;

        Worker(Path executable, ArtifactTools.Tool llc) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(executable.toString(), library(llc).toString());
            pb.environment().put("LD_LIBRARY_PATH", llc.libraryDirectory().toString());
            pb.environment().put("LLVM_DISABLE_CRASH_REPORT", "1");
            process = pb.start();
            handle = process.toHandle();
            in = new DataInputStream(new java.io.BufferedInputStream(process.getInputStream(), 1 << 16));
            out = new java.io.BufferedOutputStream(process.getOutputStream(), 1 << 16);
            InputStream err = process.getErrorStream();
            logReader = new Thread(() -> {
                byte[] b = new byte[4096];
                try {
                    for (int n; (n = err.read(b)) > 0; ) {
                        synchronized (log) {
                            log.write(b, 0, n);
                        }
                    }
                } catch (IOException e) {
                    // The worker ended.
                }
            }, "mgpu-llvm-worker-log");
            logReader.setDaemon(true);
            logReader.start();
            ALL.add(this);
        }

        /** The launcher's worker: its stderr went nowhere this JVM can read. */
        Worker(ProcessHandle handle, InputStream in, OutputStream out) {
            this.process = null;
            this.handle = handle;
            this.in = new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16));
            this.out = new java.io.BufferedOutputStream(out, 1 << 16);
            this.logReader = null;
            ALL.add(this);
        }

        boolean alive() {
            return handle.isAlive();
        }

        void kill() {
            handle.destroyForcibly();
        }

        Answer request(byte[] bitcode, String triple, String cpu, String features, int level, int fileType,
                long seconds) throws IOException {
            int logStart;
            synchronized (log) {
                logStart = log.size();
            }
            boolean[] late = {false};
            ScheduledFuture<?> timer = WATCH.schedule(() -> {
                late[0] = true;
                kill();
            }, seconds, TimeUnit.SECONDS);
            try {
                writeString(triple);
                writeString(cpu == null ? "" : cpu);
                writeString(features == null ? "" : features);
                out.write(le(4).putInt(level).array());
                out.write(le(4).putInt(fileType).array());
                out.write(le(8).putLong(bitcode.length).array());
                out.write(bitcode);
                out.flush();
                int status = Integer.reverseBytes(in.readInt());
                long n = Long.reverseBytes(in.readLong());
                if (n < 0 || n > Targets.MAX_IN_MEMORY || (status != 0 && status != 1)) {
                    throw new IOException("the worker's answer is malformed");
                }
                byte[] bytes = new byte[(int) n];
                in.readFully(bytes);
                return status == 0 ? new Answer(bytes, null, null, null)
                        : new Answer(null, new String(bytes, StandardCharsets.UTF_8), null, null);
            } catch (IOException e) {
                // The worker ended before it answered: how it ended and what it said are the answer.
                if (process == null) {
                    kill();
                    return new Answer(null, null, late[0] ? -1 : ENDED_UNSEEN, "");
                }
                try {
                    if (!process.waitFor(10, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                    process.waitFor();
                    logReader.join(10_000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
                String said;
                synchronized (log) {
                    said = log.toString(StandardCharsets.UTF_8);
                }
                said = said.substring(Math.min(logStart, said.length()));
                return new Answer(null, null, late[0] ? -1 : process.exitValue(), said);
            } finally {
                timer.cancel(false);
            }
        }

        private void writeString(String s) throws IOException {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.write(le(4).putInt(b.length).array());
            out.write(b);
        }

        private static ByteBuffer le(int n) {
            return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        }

        void close() {
            ALL.remove(this);
            try {
                out.close();
            } catch (IOException e) {
                // It has ended already.
            }
            if (process != null) {
                process.destroy();
            } else {
                // Its input has other descriptors in this process (the launcher's): closing this one does not
                // end it.
                handle.destroy();
                try {
                    in.close();
                } catch (IOException e) {
                    // Closed already.
                }
            }
        }
    }
}
