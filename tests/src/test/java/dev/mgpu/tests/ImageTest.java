package dev.mgpu.tests;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * mgpu installed under a prefix by tools/make-image.sh, then moved elsewhere, runs with no source tree: the
 * CLI (through its launcher and as java -jar), --emit=exe against the installed libmgpu, and the axpy
 * example built from another directory with the installed header and library, and a CMake project that
 * finds the image with find_package(mgpu) and makes its host objects with mgpu_add_host_object.
 */
class ImageTest {
    @Test
    void installedImageRunsAnywhere() throws Exception {
        // Outside the repository, so that a path that points back into it shows.
        Path work = TestPaths.outsideTemporaryDirectory("mgpu-image");
        try {
            runsAnywhere(work);
        } finally {
            ExternalTools.deleteTree(work);
        }
    }

    private static void runsAnywhere(Path work) throws Exception {
        Path first = work.resolve("prefix");
        Native.exec(work, Map.of(), "bash", TestPaths.root().resolve("tools/make-image.sh").toString(),
                first.toString());
        // Unpacked anywhere: the whole prefix moves, and nothing in it points back.
        Path prefix = work.resolve("elsewhere/mgpu");
        Files.createDirectories(prefix.getParent());
        Native.exec(work, Map.of(), "mv", first.toString(), prefix.toString());
        Path cli = prefix.resolve("bin/gpu-translate");
        Path elsewhere = Files.createDirectories(work.resolve("project"));
        String javaHome = System.getProperty("java.home");

        String version = Native.exec(elsewhere, Map.of("JAVA_HOME", javaHome), cli.toString(), "--version");
        assertTrue(version.startsWith("gpu-translate 0.1.0"), version);
        String viaJar = Native.exec(elsewhere, Map.of(), Path.of(javaHome, "bin", "java").toString(), "-jar",
                prefix.resolve("lib/mgpu/gpu-translate.jar").toString(), "--version");
        assertEquals(version, viaJar);
        Native.Result noJava = Native.run(elsewhere, Map.of("JAVA_HOME", "/nonexistent"), List.of(cli.toString(),
                "--version"));
        assertEquals(2, noJava.exit());
        assertEquals("gpu-translate: error: JAVA_HOME has no bin/java: /nonexistent", noJava.err().strip());

        // --emit=exe finds the installed libmgpu by itself.
        Path main = elsewhere.resolve("main.mlir");
        Files.writeString(main, "module attributes {gpu.container_module} {\n  llvm.func @main() -> i32 {\n"
                + "    %t = gpu.wait async\n    gpu.wait [%t]\n"
                + "    %c = llvm.mlir.constant(7 : i32) : i32\n    llvm.return %c : i32\n  }\n}\n");
        Native.exec(elsewhere, Map.of("JAVA_HOME", javaHome), cli.toString(), "--emit=exe", "main.mlir", "-o", "prog");
        assertEquals(7, Native.run(elsewhere, Map.of("MGPU_BACKEND", "cpu"),
                List.of(elsewhere.resolve("prog").toString())).exit());
        String deps = Native.exec(elsewhere, Map.of(), "ldd", elsewhere.resolve("prog").toString());
        assertTrue(deps.contains(prefix.resolve("lib/libmgpu.so.0").toString()), deps);
        assertFalse(deps.contains(TestPaths.root().toString()), deps);

        // The axpy example, built from here with the installed header and library.
        Path kernels = Native.cpuKernels(elsewhere, "axpy", TestPaths.root().resolve("examples/own-objects/axpy/axpy_cpu.c"));
        Native.exec(elsewhere, Map.of("JAVA_HOME", javaHome), cli.toString(), "--embed", "axpy=" + kernels,
                TestPaths.root().resolve("examples/own-objects/axpy/axpy.mlir").toString(), "-o", "host.o");
        Native.exec(elsewhere, Map.of(), "cc", "-I" + prefix.resolve("include"),
                TestPaths.root().resolve("examples/own-objects/axpy/main.c").toString(), "host.o", "-L" + prefix.resolve("lib"),
                "-Wl,-rpath," + prefix.resolve("lib"), "-lmgpu", "-lm", "-o", "axpy");
        String out = Native.exec(elsewhere, Map.of("MGPU_BACKEND", "cpu"), elsewhere.resolve("axpy").toString());
        assertTrue(out.startsWith("axpy: OK, 1024 elements checked"), out);

        // pkg-config names the moved image's directories, and what it gives links the same program.
        Map<String, String> pc = Map.of("PKG_CONFIG_PATH", prefix.resolve("lib/pkgconfig").toString());
        String flags = Native.exec(elsewhere, pc, "pkg-config", "--cflags", "--libs", "mgpu").strip();
        assertEquals("-I" + prefix.resolve("include") + " -L" + prefix.resolve("lib") + " -lmgpu",
                CmakePackageTest.normalized(flags));
        List<String> link = new java.util.ArrayList<>(List.of("cc",
                TestPaths.root().resolve("examples/own-objects/axpy/main.c").toString(), "host.o"));
        link.addAll(List.of(flags.split(" ")));
        link.addAll(List.of("-lm", "-Wl,-rpath," + prefix.resolve("lib"), "-o", "axpy-pc"));
        Native.exec(elsewhere, Map.of(), link.toArray(new String[0]));
        out = Native.exec(elsewhere, Map.of("MGPU_BACKEND", "cpu"), elsewhere.resolve("axpy-pc").toString());
        assertTrue(out.startsWith("axpy: OK, 1024 elements checked"), out);

        // A CMake project finds the moved image, and mgpu_add_host_object finds its gpu-translate.
        CmakePackageTest.consumer(work, "image", "-DCMAKE_PREFIX_PATH=" + prefix);
    }

    /**
     * On a machine where JavaCPP's cache is new (a first run, or another user), the programs that the LLVM
     * artifact carries start: lld links an AMDGPU code object, and llc checks a host CPU. Each gets a cache
     * of its own, so that neither finds what the other left there.
     */
    @Test
    void artifactProgramsRunFromANewCache() throws Exception {
        Path work = Files.createTempDirectory("mgpu-cache");
        try {
            Path cli = TestPaths.root().resolve("tools/gpu-translate");
            Path amd = work.resolve("amd.mlir");
            Files.writeString(amd, "gpu.module @k [#rocdl.target<chip = \"gfx90a\">] {\n"
                    + "  gpu.func @f(%x: memref<4xf32>) kernel {\n    %i = gpu.thread_id x\n"
                    + "    %v = memref.load %x[%i] : memref<4xf32>\n    %w = arith.addf %v, %v : f32\n"
                    + "    memref.store %w, %x[%i] : memref<4xf32>\n    gpu.return\n  }\n}\n");
            Native.Result lld = Native.run(work, Map.of("MGPU_JAVA_OPTS", "-Dorg.bytedeco.javacpp.cachedir="
                    + work.resolve("cache-lld")), List.of(cli.toString(), "--emit=mlir", "--compile-kernels",
                    "--gpu-format=binary", amd.toString()));
            assertEquals(0, lld.exit(), lld.err());
            assertTrue(lld.out().contains("gpu.binary @k [#gpu.object<#rocdl.target<chip = \"gfx90a\">, "
                    + "properties = {O = 2 : i32}, bin = \"\\7FELF"), lld.out());

            Path host = work.resolve("host.mlir");
            Files.writeString(host, "module {\n  llvm.func @f() {\n    llvm.return\n  }\n}\n");
            Native.Result llc = Native.run(work, Map.of("MGPU_JAVA_OPTS", "-Dorg.bytedeco.javacpp.cachedir="
                    + work.resolve("cache-llc")), List.of(cli.toString(), "--emit=llvm", "--mcpu=znver3",
                    host.toString()));
            assertEquals(0, llc.exit(), llc.err());
            assertTrue(llc.out().contains("\"target-cpu\"=\"znver3\""), llc.out());
        } finally {
            Native.exec(work.getParent(), Map.of(), "rm", "-rf", work.toString());
        }
    }
}
