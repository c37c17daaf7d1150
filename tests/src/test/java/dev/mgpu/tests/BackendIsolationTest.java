package dev.mgpu.tests;

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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LLVM's code generator runs for AMD and CPU kernels in a process of its own: what the checks let through and
 * LLVM then aborts on (here, with the checks turned off, a shuffle for gfx600, which has no ds_bpermute: LLVM
 * cannot select it) is the run's located error naming the target, the JVM goes on, no crash file is
 * left, and in the server the run beside it is served as it would be alone. Emitted in the JVM or in its own
 * process, every object is the same, byte for byte.
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
    private static Path work;

    @BeforeAll
    static void setUp() throws Exception {
        work = Files.createTempDirectory("mgpu-isolation").toRealPath();
        Files.writeString(work.resolve("fatal.mlir"), FATAL);
        for (String k : List.of("axpy", "matmul", "reduce", "stencil2d")) {
            Files.copy(TestPaths.root().resolve("examples/kernels/" + k + ".mlir"), work.resolve(k + ".mlir"));
        }
    }

    private static Native.Result cli(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(TestPaths.root().resolve("tools/gpu-translate").toString());
        cmd.addAll(List.of(args));
        return Native.run(work, env, cmd);
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
            assertArrayEquals(Files.readAllBytes(work.resolve(k + "-jvm.o")), Files.readAllBytes(work.resolve(k + "-own.o")),
                    k);
        }
    }
}
