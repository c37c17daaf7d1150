package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The launcher's JVM loads LLVM's libraries from JavaCPP's cache itself once they are there; the first run
 * with an empty cache leaves loading, and unpacking, to JavaCPP. Both give the same output. Which loaded
 * them shows in the JVM's log of native libraries: JavaCPP loads libLLVM first, mgpu JavaCPP's own library.
 */
class LlvmLoadTest {
    @Test
    void loadsFromTheCacheOnceJavaCppHasFilledIt() throws Exception {
        Path work = Files.createTempDirectory("mgpu-llvm-load");
        Path cache = work.resolve("cache");
        String launcher = TestPaths.root().resolve("tools/gpu-translate").toString();
        String axpy = TestPaths.root().resolve("examples/kernels/axpy.mlir").toString();
        Map<String, String> env = Map.of("MGPU_JAVA_OPTS", "-Dorg.bytedeco.javacpp.cachedir=" + cache
                + " -Xlog:library=info:file=" + work.resolve("libraries.log"));

        Native.Result first = Native.run(work, env, List.of(launcher, "--emit=llvm", axpy, "-o", "first.ll"));
        assertEquals(0, first.exit(), first.err());
        List<String> byJavaCpp = loaded(work.resolve("libraries.log"));
        assertTrue(byJavaCpp.indexOf("libLLVM.so") < byJavaCpp.indexOf("libjnijavacpp.so"), byJavaCpp.toString());

        Native.Result second = Native.run(work, env, List.of(launcher, "--emit=llvm", axpy, "-o", "second.ll"));
        assertEquals(0, second.exit(), second.err());
        List<String> direct = loaded(work.resolve("libraries.log"));
        assertEquals(List.of("libjnijavacpp.so", "libLLVM.so", "libRemarks.so", "libLTO.so", "libjniLLVM.so"), direct);
        assertEquals(Files.readString(work.resolve("first.ll")), Files.readString(work.resolve("second.ll")));
    }

    /** The names of the libraries of JavaCPP's cache that the log says were loaded, in order. */
    private static List<String> loaded(Path log) throws Exception {
        return Files.readAllLines(log).stream().filter(l -> l.contains("Loaded library") && l.contains("/cache/"))
                .map(l -> l.replaceFirst(".*Loaded library \\S*/([^/,]+), handle.*", "$1")).toList();
    }
}
