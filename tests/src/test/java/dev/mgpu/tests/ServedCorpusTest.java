package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every file of the test corpus (tests/mlir), translated with its kernels to LLVM IR on stdout, gives the same
 * exit code, output and diagnostics through the resident server as in a process of its own, byte for byte,
 * while a neighbour run in the same server crashes LLVM's back end over and over (a shuffle for gfx600 with the
 * checks turned off, so the environment of every run here has them off too).
 */
class ServedCorpusTest {
    @Test
    void theWholeCorpusIsServedAsAloneBesideACrashingNeighbour() throws Exception {
        // Outside the build directory: a server's socket path must stay under the system's limit (107 bytes).
        Path work = TestPaths.outsideTemporaryDirectory("mgpu-corpus").toRealPath();
        Path corpus = work.resolve("mlir");
        Native.exec(work, Map.of(), "cp", "-r", TestPaths.mlirDir().toString(), corpus.toString());
        Files.writeString(work.resolve("crash.mlir"), BackendIsolationTest.FATAL);
        Path servers = work.resolve("servers");
        Map<String, String> alone = Map.of("MGPU_BACKEND_CHECKS", "off", "MGPU_SERVER", "0");
        Map<String, String> served = Map.of("MGPU_BACKEND_CHECKS", "off", "MGPU_SERVER", "1", "MGPU_SERVER_DIR",
                servers.toString(), "MGPU_SERVER_IDLE", "120");
        List<Path> files;
        try (var s = Files.walk(corpus)) {
            files = s.filter(p -> p.toString().endsWith(".mlir")).sorted().toList();
        }
        assertTrue(files.size() > 100, "corpus: " + files.size());
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger crashes = new AtomicInteger();
        List<String> neighbourFailures = new ArrayList<>();
        Thread neighbour = new Thread(() -> {
            while (!done.get()) {
                try {
                    Native.Result r = cli(work, served, "crash.mlir", "-o", "crash.o");
                    if (r.exit() == 1 && r.err().contains("which crashed (SIGABRT) in a process of its own")) {
                        crashes.incrementAndGet();
                    } else {
                        neighbourFailures.add(r.exit() + ": " + r.err());
                    }
                    // A crash now and then, not a second run's worth of work all along.
                    Thread.sleep(300);
                } catch (Exception e) {
                    neighbourFailures.add(e.toString());
                }
            }
        });
        try {
            assertEquals(0, cli(work, served, "--version").exit());
            neighbour.start();
            int failing = 0;
            for (Path f : files) {
                String name = work.relativize(f).toString();
                Native.Result a = cli(work, alone, "--split-input-file", "--emit=llvm", name);
                Native.Result s = cli(work, served, "--split-input-file", "--emit=llvm", name);
                assertEquals(a.exit(), s.exit(), name + ": " + s.err());
                assertEquals(a.err(), s.err(), name);
                assertEquals(a.out(), s.out(), name);
                failing += a.exit() == 0 ? 0 : 1;
            }
            done.set(true);
            neighbour.join();
            assertEquals(List.of(), neighbourFailures);
            assertTrue(crashes.get() > 10, "neighbour crashes: " + crashes.get());
            // The corpus has inputs that are errors on purpose, and more that are not.
            assertTrue(failing > 10 && failing < files.size() / 2, "failing inputs: " + failing);
            Native.Result status = cli(work, Map.of("MGPU_SERVER_DIR", servers.toString()), "--server=status");
            assertTrue(status.out().matches("[0-9a-f]{16}: pid \\d+, in .*\n"), "one server served all: " + status.out());
        } finally {
            done.set(true);
            neighbour.join();
            cli(work, Map.of("MGPU_SERVER_DIR", servers.toString()), "--server=stop");
            Native.exec(work.getParent(), Map.of(), "rm", "-rf", work.toString());
        }
    }

    private static Native.Result cli(Path dir, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(TestPaths.root().resolve("tools/gpu-translate").toString());
        cmd.addAll(List.of(args));
        return Native.run(dir, env, cmd);
    }
}
