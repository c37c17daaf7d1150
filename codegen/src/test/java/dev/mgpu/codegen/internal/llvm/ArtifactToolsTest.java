package dev.mgpu.codegen.internal.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The artifact's programs start in a JVM that has not loaded LLVM yet, from a JavaCPP cache that nothing has
 * touched: the state of a library user's first call on a new machine.
 */
class ArtifactToolsTest {
    /** Runs llc from a new cache and prints what it says of its version. */
    static final class FirstUse {
        public static void main(String[] args) throws Exception {
            Process p = ArtifactTools.tool("llc").command(List.of("--version")).redirectErrorStream(true).start();
            System.out.print(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            System.exit(p.waitFor());
        }
    }

    /** The tests' classes and everything they see, modules too, as one class path. */
    private static String classPath() {
        String modules = System.getProperty("jdk.module.path", "");
        String classes = System.getProperty("java.class.path", "");
        return modules.isEmpty() ? classes : modules + java.io.File.pathSeparator + classes;
    }

    @Test
    void llcStartsFromANewCacheBeforeLlvmIsLoaded() throws Exception {
        Path cache = Files.createTempDirectory("mgpu-new-cache");
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dorg.bytedeco.javacpp.cachedir=" + cache, "-cp", classPath(),
                    FirstUse.class.getName()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("LLVM version 20.1"), out);
        } finally {
            try (Stream<Path> all = Files.walk(cache)) {
                all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
