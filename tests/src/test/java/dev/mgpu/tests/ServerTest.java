package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code MGPU_SERVER=1}: the runs of one directory and environment share a resident server, and each gives
 * what a run in a process of its own gives, byte for byte, exit codes and diagnostics included.
 */
class ServerTest {
    private Path work;
    private Path servers;
    private Map<String, String> served;
    private final Map<String, String> alone = Map.of("MGPU_SERVER", "0");

    @BeforeEach
    void setUp() throws IOException {
        // Outside the build directory: a server's socket path must stay under the system's limit (107 bytes).
        work = TestPaths.outsideTemporaryDirectory("mgpu-server").toRealPath();
        servers = work.resolve("servers");
        served = Map.of("MGPU_SERVER", "1", "MGPU_SERVER_DIR", servers.toString(), "MGPU_SERVER_IDLE", "120");
        Files.copy(TestPaths.root().resolve("examples/kernels/axpy.mlir"), work.resolve("axpy.mlir"));
        Files.writeString(work.resolve("bad.mlir"), "module {\n  func.func @f() {\n    %x = arith.constant : i32\n"
                + "    return\n  }\n}\n");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Path log : logs()) {
            Matcher m = Pattern.compile("gpu-translate server (\\d+) on").matcher(Files.readString(log));
            if (m.find()) {
                ProcessHandle.of(Long.parseLong(m.group(1))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        Native.exec(work.getParent(), Map.of(), "rm", "-rf", work.toString());
    }

    @Test
    void runsShareOneServerAndGiveWhatTheirOwnProcessesGive() throws Exception {
        Native.Result llA = cli(alone, null, "--emit=llvm", "axpy.mlir", "-o", "alone.ll");
        Native.Result llS = cli(served, null, "--emit=llvm", "axpy.mlir", "-o", "served.ll");
        assertEquals(0, llS.exit(), llS.err());
        assertEquals(llA.err(), llS.err());
        assertArrayEquals(Files.readAllBytes(work.resolve("alone.ll")), Files.readAllBytes(work.resolve("served.ll")));

        // Objects, twice through the server: kernels compiled for every target, the host module.
        cli(alone, null, "axpy.mlir", "-o", "alone.o");
        for (String o : List.of("served1.o", "served2.o")) {
            Native.Result r = cli(served, null, "axpy.mlir", "-o", o);
            assertEquals(0, r.exit(), r.err());
            assertArrayEquals(Files.readAllBytes(work.resolve("alone.o")), Files.readAllBytes(work.resolve(o)), o);
        }

        // Standard input in, standard output out.
        Native.Result mlirA = cli(alone, work.resolve("axpy.mlir"), "--emit=mlir", "-");
        Native.Result mlirS = cli(served, work.resolve("axpy.mlir"), "--emit=mlir", "-");
        assertEquals(0, mlirS.exit(), mlirS.err());
        assertTrue(mlirS.out().contains("gpu.func @axpy"), mlirS.out());
        assertEquals(mlirA.out(), mlirS.out());

        // Bad input: the same located error and exit code, and no output file.
        Native.Result badA = cli(alone, null, "bad.mlir", "-o", "bad.o");
        Native.Result badS = cli(served, null, "bad.mlir", "-o", "bad.o");
        assertEquals(1, badS.exit());
        assertTrue(badS.err().startsWith("bad.mlir:3:"), badS.err());
        assertEquals(badA.err(), badS.err());
        assertFalse(Files.exists(work.resolve("bad.o")));

        // A run that times its phases from its process's start runs in a process of its own.
        Native.Result timed = cli(served, null, "-v", "--emit=mlir", "axpy.mlir", "-o", "timed.mlir");
        assertEquals(0, timed.exit(), timed.err());
        assertTrue(timed.err().contains("Total Execution Time"), timed.err());

        List<Path> logs = logs();
        assertEquals(1, logs.size(), logs.toString());
        String log = Files.readString(logs.get(0));
        assertEquals(4, count(log, "served (exit 0)"), log);
        assertEquals(1, count(log, "served (exit 1)"), log);
        assertEquals(1, count(log, "refused: -v"), log);

        // Another environment is another server: every variable of a run means what it means alone.
        Map<String, String> other = new HashMap<>(served);
        other.put("MGPU_TEST_VARIABLE", "another");
        assertEquals(0, cli(other, null, "--emit=mlir", "axpy.mlir", "-o", "other.mlir").exit());
        assertEquals(2, logs().size());
    }

    /**
     * Runs that come at once, as a parallel build's do (the first of them starting the server while the
     * others wait for it), are served side by side and each gives what its own process gives.
     */
    @Test
    void runsThatComeAtOnceGiveWhatTheirOwnProcessesGive() throws Exception {
        cli(alone, null, "axpy.mlir", "-o", "alone.o");
        cli(alone, null, "--emit=llvm", "axpy.mlir", "-o", "alone.ll");
        List<java.util.concurrent.Future<Native.Result>> runs = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            for (int i = 0; i < 6; i++) {
                String[] args = i % 2 == 0 ? new String[] {"axpy.mlir", "-o", "at-once" + i + ".o"}
                        : new String[] {"--emit=llvm", "axpy.mlir", "-o", "at-once" + i + ".ll"};
                runs.add(pool.submit(() -> cli(served, null, args)));
            }
            for (int i = 0; i < 6; i++) {
                Native.Result r = runs.get(i).get(180, TimeUnit.SECONDS);
                assertEquals(0, r.exit(), r.err());
                String ext = i % 2 == 0 ? ".o" : ".ll";
                assertArrayEquals(Files.readAllBytes(work.resolve("alone" + ext)),
                        Files.readAllBytes(work.resolve("at-once" + i + ext)), "run " + i);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, logs().size());
        assertEquals(6, count(allLogs(), "served (exit 0)"), allLogs());
    }

    /** A server that cannot start (a JVM option it refuses) leaves the run to a process of its own. */
    @Test
    void aServerThatCannotStartLeavesTheRunToItsOwnProcess() throws Exception {
        Map<String, String> bad = new HashMap<>(served);
        bad.put("MGPU_JAVA_OPTS", "-XX:+NoSuchOption");
        Native.Result r = cli(bad, null, "--emit=mlir", "axpy.mlir", "-o", "never.mlir");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("Unrecognized VM option 'NoSuchOption'"), r.err());
        assertFalse(Files.exists(work.resolve("never.mlir")));
        List<Path> logs = logs();
        assertEquals(1, logs.size(), logs.toString());
        assertTrue(Files.readString(logs.get(0)).contains("Unrecognized VM option 'NoSuchOption'"));
    }

    @Test
    void aClientThatGoesAwayGetsNoOutputPutInPlace() throws Exception {
        assertEquals(0, cli(served, null, "--emit=mlir", "axpy.mlir", "-o", "first.mlir").exit());
        Path socket;
        try (Stream<Path> s = Files.list(servers)) {
            socket = s.filter(p -> p.toString().endsWith(".sock")).findFirst().orElseThrow();
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer b = head(identity(), List.of("--emit=llvm", "-", "-o", "gone.ll"));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            // The server asks for standard input; the client goes instead of sending it.
            ByteBuffer frame = ByteBuffer.allocate(5);
            while (frame.hasRemaining()) {
                assertTrue(ch.read(frame) >= 0);
            }
            assertEquals('I', frame.get(0));
        }
        Path log = logs().get(0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log).contains("abandoned") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(Files.readString(log).contains("served (exit 1, abandoned): --emit=llvm - -o gone.ll"),
                Files.readString(log));
        try (Stream<Path> s = Files.list(work)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().contains("gone")).toList());
        }
    }

    /**
     * A path that reaches the process's standard input through a link and {@code ..} (here
     * {@code l/../fd/0}, {@code l} a link to {@code /dev/fd}) is the client's standard input, as the kernel
     * resolves it, not the server's.
     */
    @Test
    void aPathToStdinThroughALinkAndDotDotReadsTheClientsInput() throws Exception {
        Files.createSymbolicLink(work.resolve("l"), Path.of("/dev/fd"));
        Native.Result a = cli(alone, work.resolve("axpy.mlir"), "--emit=mlir", "l/../fd/0");
        Native.Result s = cli(served, work.resolve("axpy.mlir"), "--emit=mlir", "l/../fd/0");
        assertEquals(0, a.exit(), a.err());
        assertTrue(a.out().contains("gpu.func @axpy"), a.out());
        assertEquals(a.exit(), s.exit(), s.err());
        assertEquals(a.err(), s.err());
        assertEquals(a.out(), s.out());
    }

    /**
     * With one job slot, a run whose standard input never ends and one whose standard output is never read
     * hold no slot while they wait: a third run is served meanwhile.
     */
    @Test
    void runsWaitingOnTheirClientsHoldNoJobSlot() throws Exception {
        Map<String, String> one = new HashMap<>(served);
        one.put("MGPU_SERVER_JOBS", "1");
        assertEquals(0, cli(one, null, "--emit=mlir", "axpy.mlir", "-o", "warm.mlir").exit());
        StringBuilder many = new StringBuilder("module {\n  llvm.func @f() {\n");
        for (int i = 0; i < 40000; i++) {
            many.append("    %c").append(i).append(" = llvm.mlir.constant(").append(i).append(" : i64) : i64\n");
        }
        Files.writeString(work.resolve("big.mlir"), many.append("    llvm.return\n  }\n}\n").toString());
        String gt = TestPaths.root().resolve("tools/gpu-translate").toString();
        ProcessBuilder waitsForInput = new ProcessBuilder(gt, "--emit=mlir", "-").directory(work.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        waitsForInput.environment().putAll(one);
        ProcessBuilder nobodyReads = new ProcessBuilder(gt, "--emit=mlir", "big.mlir").directory(work.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        nobodyReads.environment().putAll(one);
        Process input = waitsForInput.start();
        Process output = nobodyReads.start();
        try {
            Thread.sleep(3000);
            ProcessBuilder pb = new ProcessBuilder(gt, "--emit=llvm", "axpy.mlir", "-o", "third.ll")
                    .directory(work.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().putAll(one);
            Process third = pb.start();
            boolean done = third.waitFor(60, TimeUnit.SECONDS);
            third.destroyForcibly();
            assertTrue(done, "a run waited for the slots of runs that wait on their clients");
            assertEquals(0, third.exitValue());
            assertTrue(Files.readString(work.resolve("third.ll")).contains("define"));
            // The waiting runs end as their own processes would once their clients read and write.
            input.getOutputStream().write(Files.readAllBytes(work.resolve("axpy.mlir")));
            input.getOutputStream().close();
            String in = new String(input.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(in.contains("gpu.func @axpy"), in);
            byte[] out = output.getInputStream().readAllBytes();
            assertTrue(input.waitFor(60, TimeUnit.SECONDS) && output.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, input.exitValue());
            assertEquals(0, output.exitValue());
            assertEquals(cli(alone, null, "--emit=mlir", "big.mlir").out(), new String(out, StandardCharsets.UTF_8));
        } finally {
            input.destroyForcibly();
            output.destroyForcibly();
        }
    }

    /**
     * Standard input that never ends is refused at the bound a run of its own reads, and no more of it is
     * kept in the server: the same error and exit code.
     */
    @Test
    void endlessStandardInputIsRefusedAtTheBound() throws Exception {
        String gt = TestPaths.root().resolve("tools/gpu-translate").toString();
        Map<String, String> bounded = new HashMap<>(served);
        bounded.put("MGPU_JAVA_OPTS", "-Xmx2560m");
        Map<String, String> boundedAlone = new HashMap<>(alone);
        boundedAlone.put("MGPU_JAVA_OPTS", "-Xmx2560m");
        // Bounded: a server that kept all it was sent would never answer.
        String sh = "set -o pipefail; cat /dev/zero | timeout -k 5 120 " + gt + " --emit=mlir -";
        Native.Result a = Native.run(work, boundedAlone, List.of("bash", "-c", sh));
        Native.Result s = Native.run(work, bounded, List.of("bash", "-c", sh));
        assertEquals(1, a.exit(), a.err());
        assertTrue(a.err().contains("more than the 1 GiB mgpu reads"), a.err());
        assertEquals(a.exit(), s.exit(), s.err());
        assertEquals(a.err(), s.err());
        assertEquals(a.out(), s.out());
    }

    /** A server whose jar is rebuilt (its size or time changes) ends itself: a new build gets a new one. */
    @Test
    void aServerWhoseJarChangesEnds() throws Exception {
        Path tools = work.resolve("copy/tools");
        Files.createDirectories(tools.resolve("target"));
        Path real = TestPaths.root().resolve("tools");
        Files.copy(real.resolve("gpu-translate"), tools.resolve("gpu-translate"),
                java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(real.resolve("target/gpu-translate.jar"), tools.resolve("target/gpu-translate.jar"));
        Files.copy(real.resolve("target/gpu-translate-client"), tools.resolve("target/gpu-translate-client"),
                java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.createSymbolicLink(tools.resolve("target/lib"), real.resolve("target/lib"));
        ProcessBuilder pb = new ProcessBuilder(tools.resolve("gpu-translate").toString(), "--emit=mlir", "axpy.mlir",
                "-o", "copy.mlir").directory(work.toFile()).redirectErrorStream(true);
        pb.environment().putAll(served);
        Process p = pb.start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), said);
        assertEquals(1, count(allLogs(), "served (exit 0)"), allLogs());
        Path jar = tools.resolve("target/gpu-translate.jar");
        Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(jar).toMillis() + 5000));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!allLogs().contains("ended: ") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(allLogs().contains("ended: its jar or launcher changed"), allLogs());
    }

    /**
     * Temporary files are named by their process and its start: a server's first run removes those of
     * processes that are gone (a server killed, a process id taken by another process since), and keeps
     * those of processes alive.
     */
    @Test
    void temporaryFilesOfGoneProcessesAreRemoved() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        ProcessHandle me = ProcessHandle.current();
        long myStart = me.info().startInstant().orElseThrow().toEpochMilli();
        Path dead = work.resolve(".other.o.mgpu-" + gone.pid() + "-" + myStart + ".tmp");
        Path reused = work.resolve(".other.o.mgpu-" + me.pid() + "-" + (myStart - 60000) + ".tmp");
        Path live = work.resolve(".other.o.mgpu-" + me.pid() + "-" + myStart + ".tmp");
        for (Path p : List.of(dead, reused, live)) {
            Files.writeString(p, "partial");
        }
        assertEquals(0, cli(served, null, "--emit=mlir", "axpy.mlir", "-o", "first.mlir").exit());
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(reused));
        assertTrue(Files.exists(live));
    }

    /**
     * A request is served only by a server of the client's whole identity: user and group ids, supplementary
     * groups, mount namespace and root, besides directory and mask. A client that has left a group, or sees
     * other mounts, is refused and runs in a process of its own.
     */
    @Test
    void aClientOfAnotherIdentityIsRefused() throws Exception {
        assertEquals(0, cli(served, null, "--emit=mlir", "axpy.mlir", "-o", "first.mlir").exit());
        String own = identity();
        assertEquals('X', request(own, List.of("--emit=mlir", "axpy.mlir", "-o", "same.mlir")));
        assertTrue(Files.exists(work.resolve("same.mlir")));
        for (String other : List.of(own.replaceFirst("groups=[^ ]*", "groups=4242"),
                own.replaceFirst("gid=[^ ]*", "gid=4242,4242"), own.replaceFirst("mnt=[^ ]*", "mnt=mnt:[1]"),
                own.replaceFirst("root=[^ ]*", "root=1:2"))) {
            assertEquals('R', request(other, List.of("--emit=mlir", "axpy.mlir", "-o", "other.mlir")), other);
        }
        assertFalse(Files.exists(work.resolve("other.mlir")));
    }

    /**
     * A server refuses a socket directory that is not its user's own with mode 0700, or that is reached
     * through a symbolic link, where another user could put a socket or swap the directory.
     */
    @Test
    void aServerRefusesAnUnsafeSocketDirectory() throws Exception {
        Path open = work.resolve("open");
        Files.createDirectories(open);
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path safe = work.resolve("safe");
        Files.createDirectories(safe);
        Files.setPosixFilePermissions(safe, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Path link = work.resolve("link");
        Files.createSymbolicLink(link, safe);
        for (Path dir : List.of(open, link)) {
            ProcessBuilder pb = new ProcessBuilder(TestPaths.root().resolve("tools/gpu-translate").toString(),
                    "--mgpu-serve=" + dir.resolve("x.sock")).directory(work.toFile()).redirectErrorStream(true)
                    .redirectOutput(work.resolve("said.txt").toFile());
            Process p = pb.start();
            try {
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), dir.toString());
                String said = Files.readString(work.resolve("said.txt"));
                assertEquals(2, p.exitValue(), said);
                assertTrue(said.contains("not a directory of this user's alone"), said);
                assertFalse(Files.exists(dir.resolve("x.sock"), java.nio.file.LinkOption.NOFOLLOW_LINKS), dir.toString());
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /** Sends a request with {@code identity} to this directory's server; the kind of its last frame. */
    private char request(String identity, List<String> args) throws IOException {
        Path socket;
        try (Stream<Path> s = Files.list(servers)) {
            socket = s.filter(p -> p.toString().endsWith(".sock")).findFirst().orElseThrow();
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(head(identity, args));
            ByteBuffer all = ByteBuffer.allocate(1 << 20);
            while (ch.read(all) >= 0) {
                // To the end: the answer's last frame is its last 9 bytes (X), or all 5 (R).
            }
            all.flip();
            return (char) all.get(all.limit() == 5 ? 0 : all.limit() - 9);
        }
    }

    /** A request's head and arguments as the client sends them. */
    private ByteBuffer head(String identity, List<String> args) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8192).put("MGT3".getBytes(StandardCharsets.US_ASCII)).putInt(0)
                .putLong((Long) Files.getAttribute(work, "unix:dev")).putLong((Long) Files.getAttribute(work, "unix:ino"))
                .putInt(umask());
        putString(b, work.toString());
        putString(b, identity);
        b.putInt(args.size());
        for (String s : args) {
            putString(b, s);
        }
        return b.flip();
    }

    /**
     * This process's identity as the client states it: {@code uid=REAL,EFFECTIVE gid=REAL,EFFECTIVE
     * groups=G,... mnt=mnt:[N] root=DEV:INO}, the groups in increasing order.
     */
    static String identity() throws IOException {
        String uid = "";
        String gid = "";
        String groups = "";
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            String[] f = line.split("\\s+");
            if (line.startsWith("Uid:")) {
                uid = f[1] + "," + f[2];
            } else if (line.startsWith("Gid:")) {
                gid = f[1] + "," + f[2];
            } else if (line.startsWith("Groups:")) {
                groups = String.join(",", java.util.Arrays.stream(f).skip(1).mapToLong(Long::parseLong).sorted()
                        .mapToObj(Long::toString).toList());
            }
        }
        Path root = Path.of("/proc/self/root");
        return "uid=" + uid + " gid=" + gid + " groups=" + groups + " mnt="
                + Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")) + " root=" + Files.getAttribute(root, "unix:dev")
                + ":" + Files.getAttribute(root, "unix:ino");
    }

    /** This process's file-creation mask, which the server it starts inherits. */
    static int umask() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Umask:")) {
                return Integer.parseInt(line.substring(6).trim(), 8);
            }
        }
        throw new IOException("no Umask in /proc/self/status");
    }

    /**
     * A directory made again under the name of one a server was started in (a build tree removed and made
     * anew, or moved aside) is another directory: its runs read its files, not the old one's.
     */
    @Test
    void aDirectoryMadeAgainUnderTheSameNameGetsItsOwnServer() throws Exception {
        Path tree = work.resolve("tree");
        for (String version : List.of("version_one", "version_two", "version_three")) {
            if (Files.exists(tree)) {
                Files.move(tree, work.resolve("old-" + version));
            }
            Files.createDirectories(tree);
            Files.writeString(tree.resolve("a.mlir"), "module {\n  llvm.func @" + version + "() {\n    llvm.return\n"
                    + "  }\n}\n");
            Native.Result r = cli(tree, served, null, "a.mlir", "-o", "a.ll");
            assertEquals(0, r.exit(), r.err());
            assertTrue(Files.readString(tree.resolve("a.ll")).contains("define void @" + version + "()"), version);
        }
        // The servers of the directories moved aside saw that their name names another directory, and ended.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (count(allLogs(), "ended: ") < 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(2, count(allLogs(), "names another directory now"), allLogs());
    }

    /**
     * A run in a state that a server cannot share gives what a run of its own gives: standard input or output
     * closed, a file-creation mask of its own, a pipe whose reader goes, an output that is a link to the
     * caller's standard error.
     */
    @Test
    void runsWhoseProcessDiffersGiveWhatTheirOwnProcessGives() throws Exception {
        String gt = TestPaths.root().resolve("tools/gpu-translate").toString();
        StringBuilder many = new StringBuilder("module attributes {gpu.container_module} {\n  llvm.func @f() {\n");
        for (int i = 0; i < 4000; i++) {
            many.append("    %c").append(i).append(" = llvm.mlir.constant(").append(i).append(" : i64) : i64\n");
        }
        Files.writeString(work.resolve("big.mlir"), many.append("    llvm.return\n  }\n}\n").toString());
        List<String> shells = List.of(
                gt + " --emit=mlir - <&-",
                gt + " --emit=llvm axpy.mlir >&-",
                "set -o pipefail; " + gt + " --emit=mlir big.mlir | head -c 10 >/dev/null",
                "ln -sf /dev/stderr to-stderr.ll; " + gt + " --emit=llvm axpy.mlir -o to-stderr.ll",
                "echo --emit=mlir axpy.mlir | " + gt + " @/dev/stdin",
                "mkfifo args.fifo; (echo --emit=mlir axpy.mlir >args.fifo &); " + gt + " @args.fifo; rm args.fifo",
                // Names and diagnostics in the locale's charset, as the JVM reads arguments and writes stderr.
                "cp bad.mlir bäd.mlir; cp axpy.mlir äxpy.mlir; export LC_ALL=C; " + gt + " bäd.mlir -o x.o; "
                        + gt + " --emit=mlir äxpy.mlir | head -c 300",
                "export LC_ALL=C.UTF-8; " + gt + " bäd.mlir -o x.o; " + gt + " --emit=mlir äxpy.mlir | head -c 300");
        for (String sh : shells) {
            Native.Result a = Native.run(work, alone, List.of("bash", "-c", sh));
            Native.Result b = Native.run(work, served, List.of("bash", "-c", sh));
            assertEquals(a.exit(), b.exit(), sh + "\n" + a.err() + "\n---\n" + b.err());
            assertEquals(a.err(), b.err(), sh);
            assertEquals(a.out(), b.out(), sh);
        }
        assertTrue(Native.run(work, alone, List.of("bash", "-c", shells.get(3))).err().contains("define void @run_axpy"));
        assertTrue(Native.run(work, served, List.of("bash", "-c", shells.get(4))).out().contains("gpu.func @axpy"));
        for (String mask : List.of("077", "022", "077")) {
            String sh = "umask " + mask + "; " + gt + " --emit=llvm axpy.mlir -o mode-" + mask + ".ll";
            Native.exec(work, alone, "bash", "-c", sh);
            String own = Files.getPosixFilePermissions(work.resolve("mode-" + mask + ".ll")).toString();
            Files.delete(work.resolve("mode-" + mask + ".ll"));
            Native.exec(work, served, "bash", "-c", sh);
            assertEquals(own, Files.getPosixFilePermissions(work.resolve("mode-" + mask + ".ll")).toString(), mask);
        }
    }

    /** A client killed while its executable links: the server links on, and puts nothing in place. */
    @Test
    void aClientKilledWhileLinkingGetsNoExecutable() throws Exception {
        Path cc = work.resolve("slow-cc");
        Files.writeString(cc, "#!/bin/sh\ntouch \"" + work.resolve("linking") + "\"\nsleep 2\nexec cc \"$@\"\n");
        cc.toFile().setExecutable(true);
        Files.writeString(work.resolve("app.mlir"), "module {\n  func.func @main() -> i32 {\n"
                + "    %c = arith.constant 0 : i32\n    return %c : i32\n  }\n}\n");
        Map<String, String> env = new HashMap<>(served);
        env.put("CC", cc.toString());
        ProcessBuilder pb = new ProcessBuilder(TestPaths.root().resolve("tools/gpu-translate").toString(), "app.mlir",
                "-o", "app").directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process client = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(work.resolve("linking")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(work.resolve("linking")));
        client.destroy();
        client.waitFor(30, TimeUnit.SECONDS);
        while (!allLogs().contains("abandoned") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(allLogs().contains("served (exit 1, abandoned): app.mlir -o app"), allLogs());
        assertFalse(Files.exists(work.resolve("app")));
    }

    private String allLogs() throws IOException {
        StringBuilder b = new StringBuilder();
        for (Path log : logs()) {
            b.append(Files.readString(log));
        }
        return b.toString();
    }

    static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length).put(bytes);
    }

    /**
     * A server directory too deep for a socket's address (108 bytes), as a build tree's may be: the client and
     * the server reach the socket through a descriptor of the directory, and --server=status and --server=stop
     * reach it too, instead of taking the live server for a dead one and removing its socket.
     */
    @Test
    void statusAndStopReachAServerInADeepDirectory() throws Exception {
        Path deep = work.resolve("d".repeat(100)).resolve("servers");
        Files.createDirectories(deep.getParent());
        Map<String, String> control = Map.of("MGPU_SERVER_DIR", deep.toString());
        Map<String, String> deepServed = Map.of("MGPU_SERVER", "1", "MGPU_SERVER_DIR", deep.toString(),
                "MGPU_SERVER_IDLE", "120");
        Native.Result r = cli(deepServed, null, "axpy.mlir", "-o", "deep.o");
        assertEquals(0, r.exit(), r.err());
        Path socket;
        Path log;
        try (Stream<Path> s = Files.list(deep)) {
            List<Path> files = s.sorted().toList();
            socket = files.stream().filter(p -> p.toString().endsWith(".sock")).findFirst().orElseThrow();
            log = files.stream().filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
        }
        assertTrue(socket.toString().length() > 107, socket.toString());
        Matcher started = Pattern.compile("gpu-translate server (\\d+) on").matcher(Files.readString(log));
        assertTrue(started.find(), Files.readString(log));
        long pid = Long.parseLong(started.group(1));
        try {
            Native.Result status = cli(control, null, "--server=status");
            assertEquals(0, status.exit(), status.err());
            assertTrue(status.out().matches("[0-9a-f]{16}: pid " + pid + ", in " + Pattern.quote(work.toString())
                    + ", since \\S+, 1 runs served, 0 running, idle \\d+ s\n"), status.out());
            Native.Result stop = cli(control, null, "--server=stop");
            assertEquals(0, stop.exit(), stop.err());
            assertTrue(stop.out().matches("[0-9a-f]{16}: stopping: pid " + pid + ", .*\n"), stop.out());
            ProcessHandle server = ProcessHandle.of(pid).orElse(null);
            if (server != null) {
                server.onExit().get(30, TimeUnit.SECONDS);
            }
            assertTrue(Files.readString(log).endsWith("ended: asked to stop\n"), Files.readString(log));
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * --server=status lists this user's servers with what each is doing; --server=stop ends them (the socket
     * goes, the process ends) and removes a dead server's socket; afterwards none is listed.
     */
    @Test
    void statusListsServersAndStopEndsThem() throws Exception {
        Map<String, String> control = Map.of("MGPU_SERVER_DIR", servers.toString());
        Native.Result none = cli(control, null, "--server=status");
        assertEquals(0, none.exit(), none.err());
        assertEquals("no servers (" + servers + " does not exist)\n", none.out());
        for (int i = 0; i < 2; i++) {
            Native.Result r = cli(served, null, "axpy.mlir", "-o", "s" + i + ".o");
            assertEquals(0, r.exit(), r.err());
        }
        Matcher started = Pattern.compile("gpu-translate server (\\d+) on").matcher(Files.readString(logs().get(0)));
        assertTrue(started.find());
        long pid = Long.parseLong(started.group(1));
        Native.Result status = cli(control, null, "--server=status");
        assertEquals(0, status.exit(), status.err());
        assertTrue(status.out().matches("[0-9a-f]{16}: pid " + pid + ", in " + Pattern.quote(work.toString())
                + ", since \\S+, 2 runs served, 0 running, idle \\d+ s\n"), status.out());
        // Through the client too: the request needs a process of its own, and the server refuses it.
        Native.Result viaClient = cli(served, null, "--server=status");
        assertEquals(status.out().replaceAll("idle \\d+", ""), viaClient.out().replaceAll("idle \\d+", ""));

        // A dead server's socket beside the live one.
        Files.createFile(servers.resolve("0000000000000000.sock"));
        Native.Result stop = cli(control, null, "--server=stop");
        assertEquals(0, stop.exit(), stop.err());
        assertTrue(stop.out().startsWith("0000000000000000: no server answers (socket removed)\n"), stop.out());
        assertTrue(stop.out().contains(": stopping: pid " + pid + ","), stop.out());
        ProcessHandle server = ProcessHandle.of(pid).orElse(null);
        if (server != null) {
            server.onExit().get(30, TimeUnit.SECONDS);
        }
        assertTrue(Files.readString(logs().get(0)).endsWith("ended: asked to stop\n"), Files.readString(logs().get(0)));
        Native.Result after = cli(control, null, "--server=status");
        assertEquals("no servers in " + servers + "\n", after.out());

        Native.Result bad = cli(control, null, "--server=restart");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().startsWith("gpu-translate: error: Invalid --server (must be status or stop): restart\n"),
                bad.err());
    }

    private Native.Result cli(Map<String, String> env, Path stdin, String... args) throws Exception {
        return cli(work, env, stdin, args);
    }

    private Native.Result cli(Path dir, Map<String, String> env, Path stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(TestPaths.root().resolve("tools/gpu-translate").toString());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(work, "stdout", ".txt");
        Path err = Files.createTempFile(work, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(stdin == null ? ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())
                        : ProcessBuilder.Redirect.from(stdin.toFile()));
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd));
        Native.Result r = new Native.Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    private List<Path> logs() throws IOException {
        if (!Files.isDirectory(servers)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(servers)) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }
}
