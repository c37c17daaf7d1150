package dev.mgpu.tests;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Operation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime as a package: {@code cmake --install} into a prefix gives the header, a shared library with a
 * versioned SONAME that exports only the {@code mgpu*} ABI, the static library, CMake package files and a
 * pkg-config file; a consumer project finds it with {@code find_package(mgpu)} (or builds it with
 * {@code add_subdirectory}), makes the axpy example's host objects with {@code mgpu_add_host_object} and
 * links them against {@code mgpu::mgpu} and {@code mgpu::mgpu_static}, and a plain cc command line links it through pkg-config; every program runs
 * and checks its numbers. The runner utilities come with it: {@code mgpu::mgpu_runner_utils},
 * {@code mgpu::mgpu_runner_utils_static} and {@code pkg-config mgpu_runner_utils}.
 */
class CmakePackageTest {
    private static Path work;
    private static Path prefix;
    private static Path host;

    @AfterAll
    static void deleteWork() {
        ExternalTools.deleteTree(work);
    }

    @BeforeAll
    static void install() throws Exception {
        // Outside the build directory: a server's socket path must stay under the system's limit (107 bytes).
        work = TestPaths.outsideTemporaryDirectory("mgpu-cmake");
        prefix = work.resolve("prefix");
        Path root = TestPaths.root();
        Path build = work.resolve("build");
        // As a consumer builds it: no -Werror, which only the project's own builds turn on.
        // The prefix is given at install time (cmake --install --prefix), as packagers do, so that nothing
        // configured may name it: the files installed must find each other from where they are.
        Native.exec(work, Map.of(), "cmake", "-S", root.resolve("runtime-c").toString(), "-B", build.toString(),
                "-DCMAKE_BUILD_TYPE=Release");
        Native.exec(work, Map.of(), "cmake", "--build", build.toString(), "-j2");
        Native.exec(work, Map.of(), "cmake", "--install", build.toString(), "--prefix", prefix.toString());
        Path kernels = Native.cpuKernels(work, "axpy", root.resolve("examples/own-objects/axpy/axpy_cpu.c"));
        Operation module = Mgpu.parse(Files.readAllBytes(root.resolve("examples/own-objects/axpy/axpy.mlir")), "axpy.mlir");
        host = work.resolve("host.o");
        Files.write(host, Mgpu.emit(module, EmitKind.OBJ,
                new Mgpu.Options(LoadStrategy.LAZY, null, Map.of("axpy", Files.readAllBytes(kernels)))));
    }

    @Test
    void installsHeaderLibrariesAndPackageFiles() throws Exception {
        for (String f : List.of("include/mgpu.h", "lib/libmgpu.so", "lib/libmgpu.so.0", "lib/libmgpu.so.0.1.0",
                "lib/libmgpu.a", "lib/cmake/mgpu/mgpuConfig.cmake", "lib/cmake/mgpu/mgpuConfigVersion.cmake",
                "lib/cmake/mgpu/mgpuTargets.cmake", "lib/pkgconfig/mgpu.pc", "include/mgpu_runner_utils.h",
                "lib/libmgpu_runner_utils.so", "lib/libmgpu_runner_utils.so.0", "lib/libmgpu_runner_utils.so.0.1.0",
                "lib/libmgpu_runner_utils.a", "lib/pkgconfig/mgpu_runner_utils.pc")) {
            assertTrue(Files.exists(prefix.resolve(f)), "not installed: " + f);
        }
        for (String lib : List.of("libmgpu", "libmgpu_runner_utils")) {
            String dynamic = Native.exec(work, Map.of(), "readelf", "-d", prefix.resolve("lib/" + lib + ".so").toString());
            assertTrue(dynamic.contains("Library soname: [" + lib + ".so.0]"), dynamic);
        }
    }

    /** The shared library exports the ABI of mgpu.h and none of the backends' internals. */
    @Test
    void exportsOnlyTheAbi() throws Exception {
        String nm = Native.exec(work, Map.of(), "nm", "-D", "--defined-only",
                prefix.resolve("lib/libmgpu.so").toString());
        List<String> names = new ArrayList<>();
        for (String line : nm.strip().split("\n")) {
            String[] parts = line.trim().split("\\s+");
            names.add(parts[parts.length - 1]);
        }
        assertTrue(names.contains("mgpuLaunchKernel") && names.contains("mgpuMemAlloc"), nm);
        for (String n : names) {
            assertTrue(n.matches("mgpu[A-Z]\\w*"), "exported beyond the ABI: " + n);
        }
    }

    @Test
    void findPackageConsumerLinksAndRuns() throws Exception {
        // This prefix holds the runtime alone, so gpu-translate is named; the image test finds it by itself.
        Path build = consumer(work, "found", "-DCMAKE_PREFIX_PATH=" + prefix,
                "-DMGPU_TRANSLATE=" + TestPaths.root().resolve("tools/gpu-translate"));
        // mgpu_add_host_object's dependency file: nothing to do when nothing changed, both host objects
        // remade when the embedded kernels change. The rebuild's server too lives in the build's directory
        // of servers and is stopped here, not left in the user's own for its idle time.
        String again = Native.exec(build, servers(build), "cmake", "--build", build.toString());
        assertFalse(again.contains("gpu-translate"), again);
        Path source = build.resolve("axpy-src/axpy_cpu.c");
        Files.setLastModifiedTime(source, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 2000));
        String rebuilt = Native.exec(build, servers(build), "cmake", "--build", build.toString());
        assertTrue(rebuilt.contains("gpu-translate axpy_host.o") && rebuilt.contains("gpu-translate axpy_host_static.o"),
                rebuilt);
        stopServer(build, "2");
    }

    @Test
    void addSubdirectoryGivesTheSameTargets() throws Exception {
        // gpu-translate is found in the source tree next to the runtime.
        consumer(work, "sub", "-DMGPU_SOURCE_DIR=" + TestPaths.root().resolve("runtime-c"), "-DMGPU_SERVER=OFF");
    }

    @Test
    void pkgConfigLinks() throws Exception {
        Map<String, String> env = Map.of("PKG_CONFIG_PATH", prefix.resolve("lib/pkgconfig").toString());
        String flags = Native.exec(work, env, "pkg-config", "--cflags", "--libs", "mgpu").strip();
        assertEquals("-I" + prefix.resolve("include") + " -L" + prefix.resolve("lib") + " -lmgpu", normalized(flags));
        List<String> cmd = new ArrayList<>(List.of("cc", TestPaths.root().resolve("examples/own-objects/axpy/main.c").toString(),
                host.toString()));
        cmd.addAll(List.of(flags.split(" ")));
        cmd.addAll(List.of("-lm", "-Wl,-rpath," + prefix.resolve("lib"), "-o", work.resolve("axpy-pc").toString()));
        Native.exec(work, Map.of(), cmd.toArray(new String[0]));
        String out = Native.exec(work, Map.of("MGPU_BACKEND", "cpu"), work.resolve("axpy-pc").toString());
        assertTrue(out.startsWith("axpy: OK, 1024 elements checked"), out);
    }

    @Test
    void pkgConfigLinksTheRunnerUtilities() throws Exception {
        Map<String, String> env = Map.of("PKG_CONFIG_PATH", prefix.resolve("lib/pkgconfig").toString());
        String flags = Native.exec(work, env, "pkg-config", "--cflags", "--libs", "mgpu_runner_utils").strip();
        assertEquals("-I" + prefix.resolve("include") + " -L" + prefix.resolve("lib") + " -lmgpu_runner_utils",
                normalized(flags));
        List<String> cmd = new ArrayList<>(List.of("cc", TestPaths.root().resolve("tests/e2e/runner/runner_main.c").toString()));
        cmd.addAll(List.of(flags.split(" ")));
        cmd.addAll(List.of("-Wl,-rpath," + prefix.resolve("lib"), "-o", work.resolve("runner-pc").toString()));
        Native.exec(work, Map.of(), cmd.toArray(new String[0]));
        String out = Native.exec(work, Map.of(), work.resolve("runner-pc").toString());
        assertEquals("( 0.25, 1.5, 1 )\nthe view equals itself\n", out.substring(0, out.indexOf("Unranked")));
        assertTrue(out.endsWith("data = \n[[1.25,   1.75], \n [2.25,   2.75]]\n"), out);
    }

    /** A copy of the installed tree, elsewhere, names its own directories through pkg-config, and links. */
    @Test
    void pkgConfigFollowsAMovedPrefix() throws Exception {
        Path moved = work.resolve("moved/mgpu");
        Files.createDirectories(moved.getParent());
        Native.exec(work, Map.of(), "cp", "-a", prefix.toString(), moved.toString());
        Map<String, String> env = Map.of("PKG_CONFIG_PATH", moved.resolve("lib/pkgconfig").toString());
        for (String pc : List.of("mgpu", "mgpu_runner_utils")) {
            String flags = Native.exec(work, env, "pkg-config", "--cflags", "--libs", pc).strip();
            assertEquals("-I" + moved.resolve("include") + " -L" + moved.resolve("lib") + " -l" + pc,
                    normalized(flags));
        }
        List<String> cmd = new ArrayList<>(List.of("cc", TestPaths.root().resolve("examples/own-objects/axpy/main.c").toString(),
                host.toString()));
        cmd.addAll(List.of(Native.exec(work, env, "pkg-config", "--cflags", "--libs", "mgpu").strip().split(" ")));
        cmd.addAll(List.of("-lm", "-Wl,-rpath," + moved.resolve("lib"), "-o", work.resolve("axpy-moved").toString()));
        Native.exec(work, Map.of(), cmd.toArray(new String[0]));
        String deps = Native.exec(work, Map.of(), "ldd", work.resolve("axpy-moved").toString());
        assertTrue(deps.contains(moved.resolve("lib/libmgpu.so.0").toString()), deps);
        String out = Native.exec(work, Map.of("MGPU_BACKEND", "cpu"), work.resolve("axpy-moved").toString());
        assertTrue(out.startsWith("axpy: OK, 1024 elements checked"), out);
    }

    /** pkg-config's flags with each -I and -L directory normalised (a relocatable file gives DIR/../..). */
    static String normalized(String flags) {
        List<String> out = new ArrayList<>();
        for (String f : flags.split(" ")) {
            out.add(f.startsWith("-I") || f.startsWith("-L")
                    ? f.substring(0, 2) + Path.of(f.substring(2)).normalize() : f);
        }
        return String.join(" ", out);
    }

    /**
     * Configures, builds and tests the consumer project (tests/cmake-consumer) on a copy of the axpy
     * example and the runner utilities' C program, in {@code dir/consumer-NAME}; returns the build directory.
     */
    static Path consumer(Path dir, String name, String... how) throws Exception {
        Path build = dir.resolve("consumer-" + name);
        Path example = Files.createDirectories(build.resolve("axpy-src"));
        for (String f : List.of("axpy.mlir", "axpy_cpu.c", "main.c")) {
            Files.copy(TestPaths.root().resolve("examples/own-objects/axpy").resolve(f), example.resolve(f));
        }
        List<String> cmd = new ArrayList<>(List.of("cmake", "-S", TestPaths.root().resolve("tests/cmake-consumer").toString(),
                "-B", build.toString(), "-DMGPU_EXAMPLE_DIR=" + example,
                "-DMGPU_RUNNER_MAIN=" + TestPaths.root().resolve("tests/e2e/runner/runner_main.c")));
        cmd.addAll(List.of(how));
        Native.exec(dir, Map.of(), cmd.toArray(new String[0]));
        // The build's servers in a directory of its own, stopped at the end.
        String built = Native.exec(dir, servers(build), "cmake", "--build", build.toString(), "-j2");
        assertTrue(built.contains("gpu-translate axpy_host.o"), built);
        String out = Native.exec(build, Map.of(), "ctest", "--output-on-failure");
        assertTrue(out.contains("100% tests passed, 0 tests failed out of 4"), out);
        // mgpu_add_host_object runs gpu-translate through its server unless the project says MGPU_SERVER=OFF.
        if (List.of(how).contains("-DMGPU_SERVER=OFF")) {
            String status = serverStatus(build);
            assertTrue(status.startsWith("no servers"), status);
        } else {
            stopServer(build, "[2-9]");
        }
        return build;
    }

    /** The environment that keeps a consumer build's servers in a directory of its own, {@code BUILD/servers}. */
    private static Map<String, String> servers(Path build) {
        return Map.of("MGPU_SERVER_DIR", build.resolve("servers").toString());
    }

    private static String serverStatus(Path build) throws Exception {
        return Native.exec(build, servers(build), TestPaths.root().resolve("tools/gpu-translate").toString(),
                "--server=status");
    }

    /** Requires the build's one server to have served RUNS (a pattern) runs, and stops it. */
    private static void stopServer(Path build, String runs) throws Exception {
        String status = serverStatus(build);
        assertTrue(status.matches("(?s)[0-9a-f]{16}: pid \\d+, in .*, " + runs + " runs served, .*"), status);
        Native.exec(build, servers(build), TestPaths.root().resolve("tools/gpu-translate").toString(), "--server=stop");
    }
}
