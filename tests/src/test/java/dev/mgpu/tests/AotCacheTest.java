package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * An image made with a JDK of 25 or later (JAVA_HOME) has that JDK's AOT cache of the training runs, which the
 * launcher maps when JAVA_HOME is that JDK; the run gives what a run on the build's JDK gives, and no JDK
 * warns of JavaCPP's native access. A JDK before 25 ignores the cache.
 */
class AotCacheTest {
    /** The newest JDK of 25 or later under /usr/lib/jvm, or null. */
    static Path jdk25() throws Exception {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (Stream<Path> s = Files.list(jvms)) {
            return s.filter(p -> Files.isExecutable(p.resolve("bin/java")) && major(p) >= 25)
                    .max(Comparator.comparingInt(AotCacheTest::major)).orElse(null);
        }
    }

    private static int major(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    return Integer.parseInt(line.replaceAll("[^0-9.]", "").split("\\.")[0]);
                }
            }
        } catch (Exception e) {
            // No release file: not a JDK to use here.
        }
        return 0;
    }

    @Test
    void aJdk25MapsItsCacheAndGivesTheSameOutput() throws Exception {
        Path jdk = jdk25();
        Assumptions.assumeTrue(jdk != null, "no JDK of 25 or later under /usr/lib/jvm");
        Path work = Files.createTempDirectory("mgpu-aot");
        Path prefix = work.resolve("image");
        Native.exec(work, Map.of("JAVA_HOME", jdk.toString()), "bash",
                TestPaths.root().resolve("tools/make-image.sh").toString(), prefix.toString());
        assertTrue(Files.size(prefix.resolve("lib/mgpu/gpu-translate.aot")) > 1_000_000);
        String launcher = prefix.resolve("bin/gpu-translate").toString();
        String axpy = TestPaths.root().resolve("examples/kernels/axpy.mlir").toString();

        Native.Result on25 = Native.run(work, Map.of("JAVA_HOME", jdk.toString(), "MGPU_JAVA_OPTS", "-Xlog:aot=info"),
                List.of(launcher, "--emit=llvm", axpy));
        assertEquals(0, on25.exit(), on25.err());
        assertTrue(on25.out().contains("Opened AOT cache " + prefix.resolve("bin/../lib/mgpu/gpu-translate.aot") + "."),
                on25.out());
        Native.Result quiet = Native.run(work, Map.of("JAVA_HOME", jdk.toString()), List.of(launcher, "--emit=llvm", axpy));
        assertEquals("", quiet.err());
        Native.Result on17 = Native.run(work, Map.of(), List.of(TestPaths.root().resolve("tools/gpu-translate").toString(),
                "--emit=llvm", axpy));
        assertEquals(0, on17.exit(), on17.err());
        assertEquals(on17.out(), quiet.out());
        assertFalse(on17.err().contains("WARNING"), on17.err());
    }
}
