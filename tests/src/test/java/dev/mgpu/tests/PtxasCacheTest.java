package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assumptions;

/**
 * In one JVM (a resident server, a program that calls the library), kernels compiled again unchanged take
 * their cubin or fat binary from what ptxas and fatbinary made before: ptxas does not run again, and the
 * object is the same, byte for byte. Other PTX, other ptxas arguments or another object format run it.
 */
class PtxasCacheTest {
    @Test
    void unchangedKernelsSkipPtxas() throws Exception {
        Path real = TestPaths.findTool("ptxas");
        Assumptions.assumeTrue(real != null, "ptxas is not on PATH");
        Path dir = Files.createTempDirectory("mgpu-ptxas-cache").toRealPath();
        // A ptxas of this test's own (so that no other test's objects are in the cache for it) that counts its runs.
        Path log = dir.resolve("runs.log");
        Path ptxas = dir.resolve("ptxas");
        Files.writeString(ptxas, "#!/bin/sh\necho run >> '" + log + "'\nexec '" + real + "' \"$@\"\n");
        Files.setPosixFilePermissions(ptxas, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.copy(real.resolveSibling("fatbinary"), dir.resolve("fatbinary"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Path axpy = TestPaths.root().resolve("examples/kernels/axpy.mlir");
        Path matmul = TestPaths.root().resolve("examples/kernels/matmul.mlir");

        compile(ptxas, axpy, dir.resolve("a1.o"));
        assertEquals(2, runs(log), "sm_90 and sm_80");
        compile(ptxas, axpy, dir.resolve("a2.o"));
        assertEquals(2, runs(log), "unchanged: no ptxas");
        assertArrayEquals(Files.readAllBytes(dir.resolve("a1.o")), Files.readAllBytes(dir.resolve("a2.o")));

        compile(ptxas, matmul, dir.resolve("m.o"));
        assertEquals(4, runs(log), "other PTX");
        compile(ptxas, axpy, dir.resolve("a3.o"), "-Xptxas", "-O1");
        assertEquals(6, runs(log), "other arguments");
        compile(ptxas, axpy, dir.resolve("a4.o"), "--gpu-format=binary");
        assertEquals(8, runs(log), "a cubin, not a fat binary");
        compile(ptxas, axpy, dir.resolve("a5.o"), "--gpu-format=binary");
        assertEquals(8, runs(log));
    }

    private static void compile(Path ptxas, Path input, Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--ptxas=" + ptxas, input.toString(), "-o", out.toString()));
        args.addAll(List.of(more));
        CliTest.Result r = CliTest.run(args.toArray(new String[0]));
        assertEquals(0, r.code(), r.err());
    }

    private static int runs(Path log) throws Exception {
        return Files.exists(log) ? Files.readAllLines(log).size() : 0;
    }
}
