package dev.mgpu.tests;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LLVM's code generator runs for kernels in a process of its own: what the checks let through and LLVM then
 * aborts on (here, with the checks turned off, a shuffle for gfx600, which has no ds_bpermute: LLVM cannot
 * select it; a conversion of an i128 for sm_90) is the run's located error naming the target, the JVM goes
 * on, no crash file is left, and in the server the run beside it is served as it would be alone. Emitted in
 * the JVM or in its own process, every object is the same, byte for byte; and NVPTX modules compiled one
 * after another in one JVM each get the code they get alone.
 */
class BackendIsolationTest {
    /** A kernel that LLVM's AMDGPU back end aborts on once the checks are off. */
    static final String FATAL = """
            module attributes {gpu.container_module} {
              gpu.module @lanes [#rocdl.target<chip = "gfx600">] {
                gpu.func @k(%a: memref<64xf32>) kernel {
                  %i = gpu.thread_id x
                  %v = memref.load %a[%i] : memref<64xf32>
                  %o = arith.constant 1 : i32
                  %w = arith.constant 64 : i32
                  %r, %ok = gpu.shuffle xor %v, %o, %w : f32
                  memref.store %r, %a[%i] : memref<64xf32>
                  gpu.return
                }
              }
            }
            """;
    private static final String EXPECTED = "fatal.mlir:2:3: error: Invalid kernels for #rocdl.target<chip = \"gfx600\">"
            + " (must be accepted by LLVM's back end, which crashed (SIGABRT) in a process of its own): Cannot select:"
            + " intrinsic %llvm.amdgcn.ds.bpermute\n";
    /** A kernel that LLVM's NVPTX back end aborts on once the checks are off. */
    static final String FATAL_NVPTX = """
            module attributes {gpu.container_module} {
              gpu.module @wide [#nvvm.target<chip = "sm_90">] {
                gpu.func @k(%a: memref<4xf32>, %b: memref<4xi128>) kernel {
                  %c0 = arith.constant 0 : index
                  %x = memref.load %b[%c0] : memref<4xi128>
                  %f = arith.sitofp %x : i128 to f32
                  memref.store %f, %a[%c0] : memref<4xf32>
                  gpu.return
                }
              }
            }
            """;
    private static Path work;

    @AfterAll
    static void deleteWork() {
        ExternalTools.deleteTree(work);
    }

    @BeforeAll
    static void setUp() throws Exception {
        // Outside the build directory: a server's socket path must stay under the system's limit (107 bytes).
        work = TestPaths.outsideTemporaryDirectory("mgpu-isolation").toRealPath();
        Files.writeString(work.resolve("fatal.mlir"), FATAL);
        Files.writeString(work.resolve("fatal-nvptx.mlir"), FATAL_NVPTX);
        for (String k : List.of("axpy", "matmul", "reduce", "stencil2d")) {
            Files.copy(TestPaths.root().resolve("examples/kernels/" + k + ".mlir"), work.resolve(k + ".mlir"));
        }
    }

    /**
     * Marks the processes this class's runs start, workers included, in their environment: another test
     * class's runs on the machine at the same time start workers of their own.
     */
    private static final String MARK = "MGPU_TEST_RUN";
    private static final String MARK_VALUE = "BackendIsolationTest-" + ProcessHandle.current().pid();

    private static Native.Result cli(Map<String, String> env, String... args) throws Exception {
        Map<String, String> marked = new HashMap<>(env);
        marked.put(MARK, MARK_VALUE);
        return Native.run(work, marked, gpuTranslate(args));
    }

    /** Whether the process's environment holds {@link #MARK} with this JVM's value; false where it cannot be read. */
    private static boolean startedHere(ProcessHandle p) {
        try {
            byte[] env = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "environ"));
            return List.of(new String(env, java.nio.charset.StandardCharsets.ISO_8859_1).split("\0"))
                    .contains(MARK + "=" + MARK_VALUE);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static List<String> crashFiles() throws Exception {
        try (Stream<Path> s = Files.list(work)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hs_err") || n.startsWith("core"))
                    .toList();
        }
    }

    @Test
    void aBackEndThatAbortsIsTheRunsLocatedError() throws Exception {
        // With the checks, before LLVM: the conversion is refused at its op.
        Native.Result checked = cli(Map.of(), "fatal.mlir", "-o", "f.o");
        assertEquals(1, checked.exit());
        assertTrue(checked.err().startsWith("fatal.mlir:8:17: error: Invalid gpu.shuffle for #rocdl.target<chip ="
                + " \"gfx600\"> (must be compiled for GFX8 or later: lanes exchange values through ds_bpermute, which"
                + " earlier chips lack)\n"), checked.err());

        // Without them, LLVM aborts; in its own process, that is an error of this run only.
        Native.Result r = cli(Map.of("MGPU_BACKEND_CHECKS", "off"), "fatal.mlir", "-o", "f.o");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().startsWith(EXPECTED), r.err());
        assertFalse(Files.exists(work.resolve("f.o")));
        assertEquals(List.of(), crashFiles());
    }

    @Test
    void anNvptxBackEndThatAbortsIsTheRunsLocatedError() throws Exception {
        Native.Result checked = cli(Map.of(), "fatal-nvptx.mlir", "-o", "n.o");
        assertEquals(1, checked.exit());
        assertTrue(checked.err().startsWith("fatal-nvptx.mlir:6:12: error: Invalid arith.sitofp for #nvvm.target<chip"
                + " = \"sm_90\"> (must convert an integer of at most 64 bits): i128\n"), checked.err());

        // Without the checks, LLVM's NVPTX back end ends the process it runs in: no longer the JVM.
        Native.Result r = cli(Map.of("MGPU_BACKEND_CHECKS", "off"), "fatal-nvptx.mlir", "-o", "n.o");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().startsWith("fatal-nvptx.mlir:2:3: error: Invalid kernels for #nvvm.target<chip = \"sm_90\">"
                + " (must be accepted by LLVM's back end, which crashed (SIGABRT) in a process of its own): Undefined"
                + " external symbol \"\"\n"), r.err());
        assertFalse(Files.exists(work.resolve("n.o")));
        assertEquals(List.of(), crashFiles());
        // llc started for the module says the same as the worker that serves one module after another.
        Native.Result llc = cli(Map.of("MGPU_BACKEND_CHECKS", "off", "MGPU_BACKEND_PROCESS", "llc"), "fatal-nvptx.mlir",
                "-o", "n.o");
        assertEquals(r.err(), llc.err());
        // No worker outlives the JVM that started it (among those of this class's runs: other classes' run
        // beside it, and a worker's parent is bash until the launcher starts the JVM).
        ProcessBuilder probe = new ProcessBuilder("sleep", "30");
        probe.environment().put(MARK, MARK_VALUE);
        Process marked = probe.start();
        try {
            assertTrue(startedHere(marked.toHandle()), "the mark is read from a process's environment");
            assertFalse(startedHere(ProcessHandle.current()));
        } finally {
            marked.destroyForcibly();
        }
        List<String> orphans = ProcessHandle.allProcesses()
                .filter(p -> p.info().command().orElse("").endsWith("/mgpu-llvm-worker"))
                .filter(BackendIsolationTest::startedHere)
                .filter(p -> !p.parent().flatMap(q -> q.info().command()).orElse("").endsWith("/java"))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList();
        assertEquals(List.of(), orphans);
    }

    /**
     * LLVM's NVPTX back end keeps each module's block size bounds by the module's address until it generates
     * that module's code in the process. Two kernels that differ only in their bounds (with 128 threads, a test
     * of the thread's index against 200 folds away), compiled one after another in one JVM: each must get its
     * own code. Without the JVM making LLVM forget each module, 31 of 200 such files got the other's
     * (in one run).
     */
    @Test
    void nvptxModulesCompiledOneAfterAnotherGetTheirOwnCode() throws Exception {
        Path dir = Files.createDirectories(work.resolve("bounds"));
        List<String> args = new ArrayList<>(List.of("--emit=mlir", "--compile-kernels", "--gpu-format=assembly",
                "--output-dir=out"));
        for (int n : new int[] {128, 1024}) {
            Files.writeString(dir.resolve("k" + n + ".mlir"), bounded(n));
            assertEquals(0, Native.run(dir, Map.of(), gpuTranslate("--emit=mlir", "--compile-kernels",
                    "--gpu-format=assembly", "k" + n + ".mlir", "-o", "alone" + n + ".out")).exit());
        }
        assertFalse(Files.readString(dir.resolve("alone128.out")).equals(Files.readString(dir.resolve("alone1024.out"))));
        for (int i = 0; i < 100; i++) {
            Files.writeString(dir.resolve("x" + i + "-a.mlir"), bounded(128));
            Files.writeString(dir.resolve("x" + i + "-b.mlir"), bounded(1024));
            args.add("x" + i + "-a.mlir");
            args.add("x" + i + "-b.mlir");
        }
        Native.Result r = Native.run(dir, Map.of("MGPU_SERVER", "0"), gpuTranslate(args.toArray(String[]::new)));
        assertEquals(0, r.exit(), r.err());
        List<String> other = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            for (String[] f : new String[][] {{"a", "128"}, {"b", "1024"}}) {
                String name = "x" + i + "-" + f[0] + ".mlir";
                if (!Files.readString(dir.resolve("out/" + name)).equals(Files.readString(dir.resolve("alone" + f[1]
                        + ".out")))) {
                    other.add(name);
                }
            }
        }
        assertEquals(List.of(), other);
    }

    private static String bounded(int threads) {
        return """
                module attributes {gpu.container_module} {
                  gpu.module @m [#nvvm.target<chip = "sm_90">] {
                    gpu.func @k(%a: memref<2048xi32>) kernel attributes {known_block_size = array<i32: N, 1, 1>} {
                      %t = gpu.thread_id x
                      %c = arith.constant 200 : index
                      %lt = arith.cmpi ult, %t, %c : index
                      %one = arith.constant 1 : i32
                      %two = arith.constant 2 : i32
                      %v = arith.select %lt, %one, %two : i32
                      memref.store %v, %a[%t] : memref<2048xi32>
                      gpu.return
                    }
                  }
                }
                """.replace("N", Integer.toString(threads));
    }

    private static List<String> gpuTranslate(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(TestPaths.root().resolve("tools/gpu-translate").toString());
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void aServedRunBesideOneThatCrashesIsServedAsAlone() throws Exception {
        Path servers = work.resolve("servers");
        Map<String, String> alone = Map.of("MGPU_BACKEND_CHECKS", "off", "MGPU_SERVER", "0");
        Map<String, String> served = new HashMap<>(Map.of("MGPU_BACKEND_CHECKS", "off", "MGPU_SERVER", "1",
                "MGPU_SERVER_DIR", servers.toString(), "MGPU_SERVER_IDLE", "60"));
        assertEquals(0, cli(alone, "matmul.mlir", "-o", "alone.o").exit());
        try {
            // The server starts with the first run; then a crashing run and a good one side by side, twice.
            assertEquals(0, cli(served, "axpy.mlir", "-o", "first.o").exit());
            for (int round = 0; round < 2; round++) {
                CompletableFuture<Native.Result> bad = CompletableFuture.supplyAsync(() -> run(served, "fatal.mlir", "-o",
                        "f.o"));
                CompletableFuture<Native.Result> good = CompletableFuture.supplyAsync(() -> run(served, "matmul.mlir",
                        "-o", "served.o"));
                Native.Result b = bad.get();
                Native.Result g = good.get();
                assertEquals(1, b.exit(), b.err());
                assertTrue(b.err().startsWith(EXPECTED), b.err());
                assertEquals(0, g.exit(), g.err());
                assertArrayEquals(Files.readAllBytes(work.resolve("alone.o")), Files.readAllBytes(work.resolve("served.o")));
            }
            // One server served every run: none ended it.
            Native.Result status = cli(Map.of("MGPU_SERVER_DIR", servers.toString()), "--server=status");
            assertTrue(status.out().matches("[0-9a-f]{16}: pid \\d+, in .*, 5 runs served, 0 running, idle \\d+ s\n"),
                    status.out());
            assertEquals(List.of(), crashFiles());
        } finally {
            cli(Map.of("MGPU_SERVER_DIR", servers.toString()), "--server=stop");
        }
    }

    private static Native.Result run(Map<String, String> env, String... args) {
        try {
            return cli(env, args);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void objectsAreTheSameEmittedInTheJvmOrInTheirOwnProcess() throws Exception {
        for (String k : List.of("axpy", "matmul", "reduce", "stencil2d")) {
            assertEquals(0, cli(Map.of("MGPU_BACKEND_PROCESS", "shared"), k + ".mlir", "-o", k + "-jvm.o").exit());
            assertEquals(0, cli(Map.of("MGPU_BACKEND_PROCESS", "own"), k + ".mlir", "-o", k + "-own.o").exit());
            assertEquals(0, cli(Map.of("MGPU_BACKEND_PROCESS", "llc"), k + ".mlir", "-o", k + "-llc.o").exit());
            assertArrayEquals(Files.readAllBytes(work.resolve(k + "-jvm.o")), Files.readAllBytes(work.resolve(k + "-own.o")),
                    k);
            assertArrayEquals(Files.readAllBytes(work.resolve(k + "-jvm.o")), Files.readAllBytes(work.resolve(k + "-llc.o")),
                    k);
        }
    }
}
