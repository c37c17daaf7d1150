package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The launcher starts the first worker of LLVM's code generator before the JVM, for a run that compiles
 * kernels, so that the worker's load of libLLVM overlaps the JVM's start; the JVM takes that worker for its
 * first kernels. A worker it is told of that is not its own child running the worker program is left alone,
 * and the JVM starts one of its own. A run that compiles no kernels gets no such worker.
 */
class LauncherWorkerTest {
    private static final String KERNEL = """
            module attributes {gpu.container_module} {
              gpu.module @m [#nvvm.target<chip = "sm_90">] {
                gpu.func @k(%a: memref<4xf32>) kernel {
                  %c0 = arith.constant 0 : index
                  %v = memref.load %a[%c0] : memref<4xf32>
                  %w = arith.addf %v, %v : f32
                  memref.store %w, %a[%c0] : memref<4xf32>
                  gpu.return
                }
              }
            }
            """;
    private static final String HOST = """
            module {
              llvm.func @f(%x: i32) -> i32 {
                llvm.return %x : i32
              }
            }
            """;
    /**
     * The home the JVM takes JavaCPP's cache from (the password file's, whatever HOME says), given to the
     * launcher as HOME so that both look in one cache.
     */
    private static final String HOME = System.getProperty("user.home");
    private static Path work;
    private static Path launcher;

    @BeforeAll
    static void setUp() throws Exception {
        // The launcher starts a worker where JavaCPP's LLVM is the linux-x86_64 one.
        assumeTrue("amd64".equals(System.getProperty("os.arch")) && "Linux".equals(System.getProperty("os.name")));
        work = Files.createTempDirectory("mgpu-launcher-worker").toRealPath();
        Files.writeString(work.resolve("k.mlir"), KERNEL);
        Files.writeString(work.resolve("host.mlir"), HOST);
        launcher = TestPaths.root().resolve("tools/gpu-translate");
        // A first run leaves LLVM in JavaCPP's cache, with the name its programs look for, as any run does.
        Native.Result first = Native.run(work, Map.of("HOME", HOME, "MGPU_SERVER", "0"), cmd("--emit=mlir",
                "--compile-kernels", "--gpu-format=assembly", "k.mlir", "-o", "first.mlir"));
        assertEquals(0, first.exit(), first.err());
    }

    private static List<String> cmd(String... args) {
        List<String> c = new ArrayList<>();
        c.add(launcher.toString());
        c.addAll(Arrays.asList(args));
        return c;
    }

    /** The lines the workers of one run wrote to their log: process, who started it, triple. */
    private static List<String> served(Path log) throws Exception {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void theJvmTakesTheWorkerTheLauncherStarted() throws Exception {
        Path log = work.resolve("taken.log");
        Native.Result r = Native.run(work, Map.of("HOME", HOME, "MGPU_SERVER", "0", "MGPU_LLVM_WORKER_LOG",
                log.toString()), cmd("--emit=mlir", "--compile-kernels", "--gpu-format=assembly", "k.mlir", "-o",
                "taken.mlir"));
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.readString(work.resolve("taken.mlir")).contains(".target sm_90"));
        // One request, answered by the launcher's worker.
        List<String> lines = served(log);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches("\\d+ launcher nvptx64-nvidia-cuda"), lines.toString());
        // The same output as a run whose JVM starts its workers itself.
        Native.Result own = Native.run(work, Map.of("HOME", HOME, "MGPU_SERVER", "0", "MGPU_JAVA_OPTS",
                "-Dmgpu.llvm.worker.ready="), cmd("--emit=mlir", "--compile-kernels", "--gpu-format=assembly", "k.mlir",
                "-o", "own.mlir"));
        assertEquals(0, own.exit(), own.err());
        assertEquals(Files.readString(work.resolve("own.mlir")), Files.readString(work.resolve("taken.mlir")));
    }

    @Test
    void aProcessThatIsNotTheJvmsWorkerIsLeftAlone() throws Exception {
        Process other = new ProcessBuilder("sleep", "60").start();
        try {
            Path log = work.resolve("other.log");
            Native.Result r = Native.run(work, Map.of("HOME", HOME, "MGPU_SERVER", "0", "MGPU_LLVM_WORKER_LOG",
                    log.toString(), "MGPU_JAVA_OPTS", "-Dmgpu.llvm.worker.ready=" + other.pid() + ","
                    + work.resolve("k.mlir")),
                    cmd("--emit=mlir", "--compile-kernels", "--gpu-format=assembly", "k.mlir", "-o", "other.mlir"));
            assertEquals(0, r.exit(), r.err());
            assertTrue(Files.readString(work.resolve("other.mlir")).contains(".target sm_90"));
            assertTrue(other.isAlive());
            // The JVM's own worker answered; the launcher's was not taken.
            List<String> lines = served(log);
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).matches("\\d+ jvm nvptx64-nvidia-cuda"), lines.toString());
        } finally {
            other.destroyForcibly();
        }
    }

    /**
     * Seen through a JAVA_HOME whose java prints what it was given: the worker's process, the program it runs
     * and its pipes, which the JVM holds the other ends of. Where the run compiles no kernels (an input with no
     * gpu.module; MLIR out without --compile-kernels), there is none.
     */
    @Test
    void theLauncherStartsAWorkerOnlyForARunThatCompilesKernels() throws Exception {
        Path jdk = work.resolve("printing-jdk");
        Path java = Files.createDirectories(jdk.resolve("bin")).resolve("java");
        Files.writeString(java, """
                #!/bin/bash
                for a in "$@"; do
                  if [[ $a == -Dmgpu.llvm.worker.ready=* ]]; then
                    spec=${a#*=}
                    pid=${spec%%,*}
                    echo "ready=$spec"
                    for ((i = 0; i < 200; i++)); do
                      [[ $(readlink /proc/$pid/exe) == */mgpu-llvm-worker ]] && break
                      sleep 0.05
                    done
                    echo "exe=$(readlink /proc/$pid/exe)"
                    echo "in=$(readlink /proc/$pid/fd/0)"
                    echo "out=$(readlink /proc/$pid/fd/1)"
                    for f in /proc/$$/fd/*; do
                      echo "held=$(readlink "$f")"
                    done
                  fi
                done
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("HOME", HOME, "JAVA_HOME", jdk.toString(), "MGPU_SERVER", "0");
        Native.Result kernels = Native.run(work, env, cmd("--emit=llvm", "k.mlir", "-o", "k.ll"));
        assertEquals(0, kernels.exit(), kernels.err());
        List<String> said = List.of(kernels.out().split("\n"));
        String lib = HOME + "/.javacpp/cache/";
        assertTrue(said.get(0).matches("ready=\\d+," + Pattern.quote(lib) + "llvm-[0-9.]+-[0-9.]+-linux-x86_64\\.jar"
                + "/org/bytedeco/llvm/linux-x86_64/libLLVM\\.so"), said.toString());
        assertEquals("exe=" + TestPaths.root().resolve("tools/target/mgpu-llvm-worker").toRealPath(), said.get(1));
        String in = said.get(2).substring("in=".length());
        String out = said.get(3).substring("out=".length());
        assertTrue(in.startsWith("pipe:") && out.startsWith("pipe:") && !in.equals(out), said.toString());
        assertTrue(said.contains("held=" + in) && said.contains("held=" + out), said.toString());

        for (List<String> run : List.of(List.of("--emit=llvm", "host.mlir", "-o", "host.ll"),
                List.of("--emit=mlir", "k.mlir", "-o", "k.out.mlir"))) {
            Native.Result none = Native.run(work, env, cmd(run.toArray(String[]::new)));
            assertEquals(0, none.exit(), none.err());
            assertFalse(none.out().contains("ready="), run + ": " + none.out());
        }
    }
}
