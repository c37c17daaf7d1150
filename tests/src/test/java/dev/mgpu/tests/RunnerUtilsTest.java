package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * libmgpu_runner_utils prints what upstream MLIR's runner utilities print, byte for byte: every function it
 * exports is called beside upstream's function of the same name, on the same inputs, and their stdout,
 * stderr, results and flushing compared ({@code tests/e2e/runner/compare_runner_utils.c}); and a program that
 * upstream's own passes lower from vector.print and printMemref* calls links against upstream's libraries,
 * ours or our static library, and prints the same; and a program with mgpuMemGetDeviceMemRef1dFloat runs
 * with libmgpu on the CPU backend.
 */
class RunnerUtilsTest {
    private static final Path UPSTREAM = Path.of("/usr/lib/llvm-22/lib");
    private static final List<String> UPSTREAM_LIBRARIES = List.of("libmlir_c_runner_utils.so.22.1",
            "libmlir_runner_utils.so.22.1", "libmlir_float16_utils.so.22.1");
    private static final Path SOURCES = TestPaths.root().resolve("tests/e2e/runner");
    private static Path work;

    @BeforeAll
    static void upstreamIsInstalled() throws Exception {
        boolean present = UPSTREAM_LIBRARIES.stream().allMatch(l -> Files.exists(UPSTREAM.resolve(l)));
        // In CI a missing library fails below instead of skipping.
        assumeTrue(present || System.getenv("CI") != null, "upstream's runner utilities are not installed ("
                + UPSTREAM.resolve("libmlir_runner_utils.so.22.1") + ", Debian libmlir-22)");
        assertTrue(present, "CI must compare with upstream's runner utilities: install libmlir-22");
        work = Files.createTempDirectory("mgpu-runner-utils");
    }

    private static Path ours(String file) {
        return Native.libDir().resolve(file);
    }

    @Test
    void everyFunctionPrintsWhatUpstreamPrints() throws Exception {
        Path exe = work.resolve("compare_runner_utils");
        Native.exec(work, Map.of(), "cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1",
                SOURCES.resolve("compare_runner_utils.c").toString(), "-o", exe.toString(), "-ldl", "-lm");
        Native.Result r = Native.run(work, Map.of(), List.of(exe.toString(), UPSTREAM.toString(),
                ours("libmgpu_runner_utils.so").toString()));
        List<String> lines = r.out().strip().lines().toList();
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(lines.get(lines.size() - 1).matches("\\d{5,} checks, 0 differences"), r.out());
        // Every function the library exports was compared, and it exports nothing else.
        String compared = lines.get(lines.size() - 2);
        assertTrue(compared.startsWith("compared: "), r.out());
        TreeSet<String> called = new TreeSet<>(List.of(compared.substring("compared: ".length()).split(" ")));
        assertEquals(exports(ours("libmgpu_runner_utils.so")), called);
        assertEquals(74, called.size(), called.toString());
    }

    private static TreeSet<String> exports(Path library) throws Exception {
        TreeSet<String> names = new TreeSet<>();
        for (String line : Native.exec(work, Map.of(), "nm", "-D", "--defined-only", library.toString()).strip()
                .split("\n")) {
            String[] parts = line.trim().split("\\s+");
            names.add(parts[parts.length - 1]);
        }
        return names;
    }

    @Test
    void versionedSharedLibraryAndStaticLibrary() throws Exception {
        String dynamic = Native.exec(work, Map.of(), "readelf", "-d", ours("libmgpu_runner_utils.so").toString());
        assertTrue(dynamic.contains("Library soname: [libmgpu_runner_utils.so.0]"), dynamic);
        assertTrue(Files.isRegularFile(ours("libmgpu_runner_utils.a")));
    }

    /**
     * tests/e2e/runner/print.mlir through upstream's lowering (mlir-opt-22 --test-lower-to-llvm, mlir-translate-22,
     * llc-22): vector.print of every element kind, printMemref* of views and an i8 memref, verifyMemRefF32 with
     * and without a difference, memref.copy of a strided column. Linked with upstream's libraries, with
     * libmgpu_runner_utils.so and with libmgpu_runner_utils.a, it prints the same bytes on stdout and stderr
     * (in one stream, so that their order is compared too), but for the memrefs' addresses.
     */
    @Test
    void loweredProgramPrintsTheSameWithEitherLibrary() throws Exception {
        Path object = lowered("print", "--test-lower-to-llvm");
        List<String> upstreamLibs = new ArrayList<>(List.of("-L" + UPSTREAM, "-Wl,-rpath," + UPSTREAM));
        UPSTREAM_LIBRARIES.forEach(l -> upstreamLibs.add("-l:" + l));
        String upstream = printed("upstream", object, upstreamLibs);
        String shared = printed("shared", object, List.of("-L" + Native.libDir(), "-Wl,-rpath," + Native.libDir(),
                "-lmgpu_runner_utils"));
        String archive = printed("static", object, List.of(ours("libmgpu_runner_utils.a").toString()));
        assertTrue(upstream.contains("( 1, -2.5, 65504, 5.96046e-08 )\n")
                && upstream.contains("[[A,   @,   ?,   >], \n") && upstream.contains("0.7 != 1e+30 offset = 7\n"),
                upstream);
        assertEquals(upstream, shared);
        assertEquals(upstream, archive);
    }

    /**
     * tests/e2e/runner/device_memref.mlir, lowered by upstream's passes: gpu.host_register, then the device's
     * view of the memref from mgpuMemGetDeviceMemRef1dFloat (a descriptor returned by value, as LLVM returns a
     * struct), written through and printed. On the CPU backend the view is the host memory itself.
     */
    @Test
    void upstreamDeviceMemRefProgramRunsOnTheCpuBackend() throws Exception {
        Path object = lowered("device_memref", "--gpu-to-llvm", "--test-lower-to-llvm");
        String out = printed("device-memref", object, List.of("-L" + Native.libDir(), "-Wl,-rpath," + Native.libDir(),
                "-lmgpu", "-lmgpu_runner_utils"));
        String memref = "Unranked Memref base@ = ADDRESS rank = 1 offset = 0 sizes = [4] strides = [1] data = \n"
                + "[0.5,  7.25,  2.5,  3.5]\n";
        assertEquals(memref + memref, out);
    }

    /** tests/e2e/runner/NAME.mlir through mlir-opt-22 with {@code passes}, mlir-translate-22 and llc-22: an object. */
    private static Path lowered(String name, String... passes) throws Exception {
        List<Path> tools = new ArrayList<>();
        for (String t : List.of("mlir-opt-22", "mlir-translate-22", "llc-22")) {
            Path p = TestPaths.findTool(t);
            assumeTrue(p != null || System.getenv("CI") != null, t + " is not installed");
            assertTrue(p != null, "CI must have " + t);
            tools.add(p);
        }
        Path lowered = work.resolve(name + ".llvm.mlir");
        Path ir = work.resolve(name + ".ll");
        Path object = work.resolve(name + ".o");
        List<String> opt = new ArrayList<>(List.of(tools.get(0).toString()));
        opt.addAll(List.of(passes));
        opt.addAll(List.of(SOURCES.resolve(name + ".mlir").toString(), "-o", lowered.toString()));
        Native.exec(work, Map.of(), opt.toArray(String[]::new));
        Native.exec(work, Map.of(), tools.get(1).toString(), "--mlir-to-llvmir", lowered.toString(), "-o", ir.toString());
        Native.exec(work, Map.of(), tools.get(2).toString(), "-filetype=obj", "-relocation-model=pic", ir.toString(),
                "-o", object.toString());
        return object;
    }

    /** What the program linked with {@code libraries} prints, stdout and stderr together, addresses masked. */
    private static String printed(String name, Path object, List<String> libraries) throws Exception {
        Path exe = work.resolve("print-" + name);
        List<String> cmd = new ArrayList<>(List.of("cc", object.toString()));
        cmd.addAll(libraries);
        cmd.addAll(List.of("-o", exe.toString()));
        Native.exec(work, Map.of(), cmd.toArray(String[]::new));
        Native.Result r = Native.run(work, Map.of("MGPU_BACKEND", "cpu"), List.of("sh", "-c", "exec \"$0\" 2>&1",
                exe.toString()));
        assertEquals(0, r.exit(), r.out() + r.err());
        return r.out().replaceAll("base@ = 0x[0-9a-f]+", "base@ = ADDRESS");
    }
}
