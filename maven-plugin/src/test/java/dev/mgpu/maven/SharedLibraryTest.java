package dev.mgpu.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedLibraryTest {
    @Test
    void aSourceGivesLibNameInItsDirectory() {
        assertEquals("libk.so", SharedLibrary.name("k.mlir", ".so"));
        assertEquals("a/b/libk.mlir.x.o", SharedLibrary.name("a/b/k.mlir.x.mlir", ".o"));
    }

    @Test
    void linksTheRuntimeWithAnRpathAndTheRunnerUtilitiesOnlyWhenThere(@TempDir Path rt) throws Exception {
        Path o = Path.of("/o/libk.o");
        Path so = Path.of("/o/libk.so");
        assertEquals(List.of("cc", "-shared", "-o", "/o/libk.so", "/o/libk.o", "-lz", "-L" + rt, "-Wl,-rpath," + rt,
                "-lmgpu", "-ldl", "-lpthread", "-lm"), SharedLibrary.command("cc", o, so, rt, List.of("-lz")));
        Files.writeString(rt.resolve("libmgpu_runner_utils.so"), "");
        assertEquals(List.of("cc", "-shared", "-o", "/o/libk.so", "/o/libk.o", "-L" + rt, "-Wl,-rpath," + rt,
                "-Wl,--push-state,--as-needed", "-lmgpu_runner_utils", "-Wl,--pop-state", "-lmgpu", "-ldl",
                "-lpthread", "-lm"), SharedLibrary.command("cc", o, so, rt, List.of()));
    }
}
