package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.tools.GpuTranslate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Where gpu-translate's output goes, and what happens when it cannot: links, devices, FIFOs, full disks,
 * terminals, signals and file modes. Some cases need the real process (its stdout, its signals) and run
 * the launcher.
 */
class CliOutputTest {
    private static Path dir;
    private static Path good;

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("mgpu-cli-out");
        good = dir.resolve("good.mlir");
        Files.writeString(good, CliTest.GOOD);
    }

    /** The tests write near devices; none may have replaced one. */
    @AfterAll
    static void devicesAreStillDevices() throws Exception {
        for (String d : List.of("/dev/null", "/dev/full")) {
            assertEquals("character special file", sh("stat", "-c", "%F", d).strip(), d);
        }
    }

    private static String sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static CliTest.Result run(boolean terminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GpuTranslate.run(args, new ByteArrayInputStream(new byte[0]), out,
                new PrintStream(err, true, StandardCharsets.UTF_8), terminal);
        return new CliTest.Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    private static CliTest.Result run(String... args) {
        return run(false, args);
    }

    /** The launcher, as a process. */
    private static ProcessBuilder launcher(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(TestPaths.root().resolve("tools/gpu-translate").toString());
        cmd.addAll(Arrays.asList(args));
        return new ProcessBuilder(cmd).directory(dir.toFile());
    }

    private static CliTest.Result finish(Process p) throws Exception {
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new CliTest.Result(p.exitValue(), new byte[0], new String(err, StandardCharsets.UTF_8));
    }

    private static List<String> temporaries() throws IOException {
        return temporaries("");
    }

    /** The temporary files for outputs whose names start with {@code output}. */
    private static List<String> temporaries(String output) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("." + output) && n.endsWith(".tmp")).sorted().toList();
        }
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    /**
     * The launcher finds its jar, and tells the JVM its home (the directory above it), however it is
     * reached: through a symlink in another directory (as an installation links it into a bin directory), by
     * a relative path through that link, by its bare name on PATH, as {@code ./gpu-translate} and as
     * {@code bash gpu-translate} in its own directory. It runs the JVM with a single C1 thread and no
     * performance-data file, unless MGPU_JAVA_OPTS asks for other compilers.
     */
    @Test
    void launcherFindsItselfHoweverReached() throws Exception {
        Path root = TestPaths.root();
        Path tools = root.resolve("tools");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path link = bin.resolve("gpu-translate");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, tools.resolve("gpu-translate"));
        String path = "PATH=" + bin + ":" + System.getenv("PATH");
        List<List<String>> ways = List.of(List.of(dir.toString(), link.toString()), List.of(dir.toString(),
                "bin/gpu-translate"), List.of(dir.toString(), "env", path, "gpu-translate"),
                List.of(tools.toString(), "./gpu-translate"), List.of(tools.toString(), "bash", "gpu-translate"));
        for (List<String> way : ways) {
            String out = launch(way, "-XshowSettings:properties -XX:+PrintFlagsFinal");
            assertTrue(out.contains("gpu-translate ") && out.contains("LLVM 20."), way + ": " + out);
            assertTrue(out.contains("mgpu.home = " + root.toRealPath() + "\n"), way + ": " + out);
            assertTrue(out.matches("(?s).*\\bCICompilerCount\\s+= 1\\b.*"), way + ": " + out);
            assertTrue(out.matches("(?s).*\\bUsePerfData\\s+= false\\b.*"), way + ": " + out);
            assertTrue(out.matches("(?s).*\\bUseTransparentHugePages\\s+= " + hugePagesOnRequest() + "\\b.*"),
                    way + ": " + out);
            // The heap starts at 64 MB for every input, whatever its size.
            assertTrue(out.matches("(?s).*\\bInitialHeapSize\\s+= 67108864\\b.*"), way + ": " + out);
        }
        // An input of more than 16 MB (sparse here) starts with the same heap and the same single C1 thread.
        Path large = dir.resolve("large.mlir");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(large.toFile(), "rw")) {
            f.setLength(17L << 20);
        }
        String big = launch(List.of(dir.toString(), link.toString(), large.toString()), "-XX:+PrintFlagsFinal");
        assertTrue(big.matches("(?s).*\\bCICompilerCount\\s+= 1\\b.*"), big);
        assertTrue(big.matches("(?s).*\\bTieredStopAtLevel\\s+= 1\\b.*"), big);
        assertTrue(big.matches("(?s).*\\bInitialHeapSize\\s+= 67108864\\b.*"), big);
        Files.delete(large);
        String tiered = launch(List.of(dir.toString(), link.toString()), "-XX:TieredStopAtLevel=4 -XX:+PrintFlagsFinal");
        assertTrue(tiered.matches("(?s).*\\bTieredStopAtLevel\\s+= 4\\b.*"), tiered);
    }

    /**
     * The launcher asks for memory in huge pages: the JVM's heap, and the C library's allocations (LLVM's among
     * them) through glibc's malloc tunable, given to the JVM and what it starts; a tunable of the user's own is
     * kept as it is. Seen through a JAVA_HOME whose java prints what it was given.
     */
    @Test
    void launcherAsksForHugePagesAndKeepsTheUsersTunables() throws Exception {
        Path jdk = dir.resolve("printing-jdk");
        Path java = Files.createDirectories(jdk.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"tunables=${GLIBC_TUNABLES-unset}\" \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        String launcher = TestPaths.root().resolve("tools/gpu-translate").toString();
        Native.Result ours = Native.run(dir, Map.of("JAVA_HOME", jdk.toString()), List.of(launcher, "--version"));
        assertEquals(0, ours.exit(), ours.err());
        List<String> args = List.of(ours.out().split("\n"));
        assertEquals("tunables=glibc.malloc.hugetlb=1", args.get(0));
        assertEquals(hugePagesOnRequest(), args.contains("-XX:+UseTransparentHugePages"), ours.out());
        Native.Result own = Native.run(dir, Map.of("JAVA_HOME", jdk.toString(), "GLIBC_TUNABLES",
                "glibc.malloc.arena_max=2"), List.of(launcher, "--version"));
        assertEquals("tunables=glibc.malloc.arena_max=2", own.out().split("\n")[0]);
    }

    /** Whether this machine's kernel gives huge pages to a process that asks for them (madvise or always). */
    private static boolean hugePagesOnRequest() throws IOException {
        Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        if (!Files.isReadable(setting)) {
            return false;
        }
        String s = Files.readString(setting);
        return s.contains("[madvise]") || s.contains("[always]");
    }

    /** The launcher runs with a PATH that holds neither bash nor java, as a build's sandbox may give it. */
    @Test
    void launcherRunsWithoutBashOnPath() throws Exception {
        Native.Result r = Native.run(dir, Map.of("PATH", dir.resolve("nothing").toString(), "JAVA_HOME",
                System.getProperty("java.home")), List.of(TestPaths.root().resolve("tools/gpu-translate").toString(),
                "--version"));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("gpu-translate 0.1.0"), r.out());
    }

    /** Runs {@code way} (a working directory, then the command) with --version and MGPU_JAVA_OPTS; its output. */
    private static String launch(List<String> way, String javaOptions) throws Exception {
        List<String> cmd = new ArrayList<>(way.subList(1, way.size()));
        cmd.add("--version");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(new File(way.get(0))).redirectErrorStream(true);
        pb.environment().put("MGPU_JAVA_OPTS", javaOptions);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), way + ": " + out);
        return out;
    }

    /**
     * A file name that the locale's charset cannot hold (the JVM reads arguments in it: ä under LC_ALL=C
     * becomes two unmappable characters) is a usage error naming it, where it was an internal error with a
     * stack trace when the input was read.
     */
    @Test
    void aFileNameTheLocaleCannotHoldIsAUsageError() throws Exception {
        // The names are made by the shell: this JVM's own locale may not hold them either.
        String gt = TestPaths.root().resolve("tools/gpu-translate").toString();
        long outputs = countLl();
        Process p = new ProcessBuilder("bash", "-c", "n=$(printf '\\303\\244'); cp good.mlir \"$n.mlir\"; export LC_ALL=C; "
                + gt + " \"$n.mlir\" -o out.ll 2>&1; echo \"exit $?\"; " + gt + " good.mlir -o \"$n.ll\" 2>&1;"
                + " echo \"exit $?\"; ls | grep -c '\\.ll$'").directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String usage = "\nUsage: gpu-translate [options] INPUT|-   (see --help)\n";
        assertEquals("gpu-translate: error: Invalid file name (must be one that the locale's charset can hold; a UTF-8"
                + " locale holds any): ??.mlir" + usage + "exit 2\n"
                + "gpu-translate: error: Invalid file name (must be one that the locale's charset can hold; a UTF-8"
                + " locale holds any): ??.ll" + usage + "exit 2\n" + outputs + "\n", out);
    }

    /** How many .ll files the directory holds. */
    private static long countLl() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().endsWith(".ll")).count();
        }
    }

    @Test
    void symlinkIsFollowedNotReplaced() throws Exception {
        Path real = dir.resolve("real.ll");
        Files.writeString(real, "old");
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-------"));
        Path link = Files.createSymbolicLink(dir.resolve("link.ll"), real.getFileName());
        CliTest.Result r = run(good.toString(), "-o", link.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(real.getFileName(), Files.readSymbolicLink(link));
        assertTrue(Files.readString(real).contains("@k_bin_cst"));
        assertEquals("rw-------", mode(real));

        // A dangling link names the file to create.
        Path later = dir.resolve("later.ll");
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.ll"), later.getFileName());
        assertEquals(0, run(good.toString(), "-o", dangling.toString()).code());
        assertTrue(Files.isSymbolicLink(dangling));
        assertTrue(Files.readString(later).contains("@k_bin_cst"));
        assertEquals(List.of(), temporaries());
    }

    @Test
    void replacedFileKeepsItsMode() throws Exception {
        for (String m : List.of("rw-------", "rwxr-x---")) {
            Path out = dir.resolve("mode-" + m.replace('-', '_') + ".ll");
            Files.writeString(out, "old");
            Files.setPosixFilePermissions(out, PosixFilePermissions.fromString(m));
            assertEquals(0, run(good.toString(), "-o", out.toString()).code());
            assertTrue(Files.readString(out).contains("@k_bin_cst"));
            assertEquals(m, mode(out));
        }
    }

    @Test
    void fifoIsWrittenInPlace() throws Exception {
        Path fifo = dir.resolve("fifo.ll");
        sh("mkfifo", fifo.toString());
        Path copy = dir.resolve("fifo-copy.txt");
        Process reader = new ProcessBuilder("cat", fifo.toString()).redirectOutput(copy.toFile()).start();
        try {
            CliTest.Result r = run(good.toString(), "-o", fifo.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(reader.waitFor(30, TimeUnit.SECONDS), "the reader never saw the end of the output");
        } finally {
            reader.destroyForcibly();
        }
        assertEquals("fifo", sh("stat", "-c", "%F", fifo.toString()).strip());
        assertTrue(Files.readString(copy).contains("@k_bin_cst = internal constant [2 x i8] c\"AB\", align 8"));
        assertEquals(List.of(), temporaries());
    }

    /** /dev/stdout names the descriptor, here a regular file, which is written, not replaced. */
    @Test
    void devStdoutIsWrittenInPlace() throws Exception {
        Path captured = dir.resolve("captured.txt");
        Process p = launcher("--emit=llvm", good.toString(), "-o", "/dev/stdout").redirectOutput(captured.toFile()).start();
        CliTest.Result r = finish(p);
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(captured).contains("@k_bin_cst"));
        assertEquals(List.of(), temporaries());
    }

    /** Through a link, so that the old behaviour (renaming over the target) could not replace /dev/full. */
    @Test
    void fullDeviceFailsWithReason() throws Exception {
        Path full = Files.createSymbolicLink(dir.resolve("full.ll"), Path.of("/dev/full"));
        CliTest.Result r = run(good.toString(), "-o", full.toString());
        assertEquals(1, r.code());
        assertEquals(full + ": error: Invalid output (must be writable): No space left on device\n", r.err());
        CliTest.Result bc = run(good.toString(), "--emit=bc", "-o", full.toString());
        assertEquals(1, bc.code());
        assertEquals(full + ": error: Invalid output (must be writable): No space left on device\n", bc.err());
        CliTest.Result mlir = run(good.toString(), "--emit=mlir", "-o", full.toString());
        assertEquals(1, mlir.code());
        assertEquals(full + ": error: Invalid output (must be writable): No space left on device\n", mlir.err());
        assertTrue(Files.isSymbolicLink(full));
        assertEquals(List.of(), temporaries());
    }

    @Test
    void fullStdoutFailsWithReason() throws Exception {
        String message = "<stdout>: error: Invalid output (must be writable): No space left on device\n";
        List<List<String>> cases = List.of(List.of(good.toString()), List.of("--emit=mlir", good.toString()),
                List.of("--emit=bc", "-o", "-", good.toString()), List.of("--help"), List.of("--version"));
        for (List<String> args : cases) {
            Process p = launcher(args.toArray(String[]::new)).redirectOutput(new File("/dev/full")).start();
            CliTest.Result r = finish(p);
            assertEquals(1, r.code(), args + ": " + r.err());
            assertEquals(message, r.err(), args.toString());
        }
    }

    @Test
    void binaryNeverGoesToATerminal() {
        String message = "gpu-translate: error: Invalid stdout for --emit=%s (must not be a terminal for binary output):"
                + " a terminal; redirect it or use -o FILE\n";
        CliTest.Result obj = run(true, "--emit=obj", good.toString());
        assertEquals(2, obj.code());
        assertEquals(String.format(message, "obj"), obj.err());
        assertEquals(0, obj.out().length);
        CliTest.Result bc = run(true, "--emit=bc", "-o", "-", good.toString());
        assertEquals(2, bc.code());
        assertEquals(String.format(message, "bc"), bc.err());
        assertEquals(0, bc.out().length);
        CliTest.Result text = run(true, "--emit=llvm", good.toString());
        assertEquals(0, text.code(), text.err());
        assertTrue(text.text().contains("@k_bin_cst"));
        CliTest.Result piped = run(false, "--emit=bc", good.toString());
        assertEquals(0, piped.code(), piped.err());
        assertArrayEquals(new byte[] {'B', 'C'}, Arrays.copyOf(piped.out(), 2));
    }

    @Test
    void badTripleIsBadUsage() {
        CliTest.Result r = run("--target-triple", "mips-unknown-linux-gnu", good.toString());
        assertEquals(2, r.code());
        assertEquals("gpu-translate: error: Invalid target triple (must be an x86_64 or aarch64 triple):"
                + " mips-unknown-linux-gnu\n", r.err());
    }

    @Test
    void echoedLineShowsControlCharactersEscaped() throws Exception {
        Path src = dir.resolve("control.mlir");
        Files.write(src, "module {\n  gpu.binary @b [#gpu.object<#nvvm.target, \"\u001b[2J\u0007\">] junk\n}\n"
                .getBytes(StandardCharsets.UTF_8));
        CliTest.Result r = run(src.toString());
        assertEquals(1, r.code());
        assertEquals(src + ":2:54: error: Invalid operation (must be a registered op or in generic form): junk\n"
                + "  gpu.binary @b [#gpu.object<#nvvm.target, \"\\x1B[2J\\x07\">] junk\n"
                + "                                                           ^\n", r.err());
    }

    @Test
    void missingCompilerIsNamed() throws Exception {
        Path src = dir.resolve("main.mlir");
        Files.writeString(src, "module {\n  llvm.func @main() -> i32 {\n"
                + "    %c = llvm.mlir.constant(42 : i32) : i32\n    llvm.return %c : i32\n  }\n}\n");
        ProcessBuilder pb = launcher("--emit=exe", src.toString(), "-o", dir.resolve("prog").toString());
        Map<String, String> env = pb.environment();
        env.put("CC", "/nonexistent/cc");
        CliTest.Result r = finish(pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        assertEquals(1, r.code());
        assertEquals("gpu-translate: error: Invalid C compiler (must be runnable; CC names another):"
                + " '/nonexistent/cc': No such file or directory\n", r.err());
        assertFalse(Files.exists(dir.resolve("prog"), LinkOption.NOFOLLOW_LINKS));
    }

    /** A long run, stopped by SIGTERM once its temporary output exists, leaves nothing behind. */
    @Test
    void sigtermRemovesTheTemporaryFile() throws Exception {
        Path big = dir.resolve("launches.mlir");
        StringBuilder sb = new StringBuilder("module attributes {gpu.container_module} {\n"
                + "  gpu.binary @k [#gpu.object<#nvvm.target, \"AB\">]\n  llvm.func @f() {\n"
                + "    %c1 = llvm.mlir.constant(1 : i64) : i64\n");
        String launch = "    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64\n";
        sb.append(launch.repeat(20_000)).append("    llvm.return\n  }\n}\n");
        Files.writeString(big, sb);
        Path out = dir.resolve("launches.o");
        Process p = launcher(big.toString(), "-o", out.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (temporaries("launches.o").isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(p.isAlive(), "the run ended before it could be stopped");
        assertEquals(1, temporaries("launches.o").size(), temporaries("launches.o").toString());
        p.destroy();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(143, p.exitValue());
        assertEquals(List.of(), temporaries("launches.o"));
        assertFalse(Files.exists(out));
        try (var logs = Files.list(dir)) {
            assertEquals(List.of(), logs.filter(f -> f.getFileName().toString().startsWith("hs_err_pid")).toList(),
                    "the JVM crashed on the signal");
        }
    }

    /** After SIGKILL, nothing runs; the next run for the same output deletes what a dead process left. */
    @Test
    void leftoversOfDeadRunsAreDeleted() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
        Path out = dir.resolve("left.ll");
        Path dead = Files.writeString(dir.resolve(".left.ll.mgpu-" + gone.pid() + ".tmp"), "partial");
        Path deadSecond = Files.writeString(dir.resolve(".left.ll.mgpu-" + gone.pid() + "-1.tmp"), "partial");
        Path alive = Files.writeString(dir.resolve(".left.ll.mgpu-" + ProcessHandle.current().pid() + ".tmp"), "x");
        Path other = Files.writeString(dir.resolve(".other.ll.mgpu-" + gone.pid() + ".tmp"), "not this output's");
        // With the process's start: a live process of that id that started at another time took a dead one's id.
        long me = ProcessHandle.current().pid();
        long started = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
        Path aliveStarted = Files.writeString(dir.resolve(".left.ll.mgpu-" + me + "-" + started + "-2.tmp"), "x");
        Path reused = Files.writeString(dir.resolve(".left.ll.mgpu-" + me + "-" + (started - 1000) + ".tmp"), "p");
        Path deadStarted = Files.writeString(dir.resolve(".left.ll.mgpu-" + gone.pid() + "-" + started + "-1.tmp"),
                "partial");
        // Not the name of a temporary file: kept whatever its numbers say.
        List<Path> others = new ArrayList<>();
        for (String name : List.of(".left.ll.mgpu-.tmp", ".left.ll.mgpu-" + gone.pid() + "-1-2-3.tmp",
                ".left.ll.mgpu-" + gone.pid() + "x.tmp", ".left.ll.mgpu-" + gone.pid() + "-.tmp",
                ".left.ll.mgpu-99999999999999999999.tmp", ".left.ll.mgpu-" + gone.pid() + ".tmp.ll")) {
            others.add(Files.writeString(dir.resolve(name), "someone's"));
        }
        CliTest.Result r = run(good.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(out).contains("@k_bin_cst"));
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(deadSecond));
        assertFalse(Files.exists(reused));
        assertFalse(Files.exists(deadStarted));
        assertEquals("x", Files.readString(alive));
        assertEquals("x", Files.readString(aliveStarted));
        assertTrue(Files.exists(other));
        for (Path p : others) {
            assertTrue(Files.exists(p), p.toString());
            Files.delete(p);
        }
        Files.delete(alive);
        Files.delete(aliveStarted);
        Files.delete(other);
    }

    /** An input or embedded file with no end (/dev/zero) is refused at the documented bound, not read into memory. */
    @Test
    void endlessInputsAreRefused() {
        CliTest.Result in = run("/dev/zero", "-o", dir.resolve("zero.ll").toString());
        assertEquals(1, in.code());
        assertEquals("/dev/zero: error: Invalid input (must be a readable file): more than the 1 GiB mgpu reads\n",
                in.err());
        CliTest.Result embed = run("--embed", "k=/dev/zero", good.toString(), "-o", dir.resolve("zero.ll").toString());
        assertEquals(1, embed.code());
        assertTrue(embed.err().endsWith("error: Invalid --embed file (must be readable): more than the 1 GiB mgpu reads\n"),
                embed.err());
        assertFalse(Files.exists(dir.resolve("zero.ll")));
    }
}
