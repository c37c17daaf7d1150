package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The tests make their temporary files in the build's directory, so that a clean removes what they leave. */
class TemporaryFilesTest {
    @Test
    void temporaryDirectoriesAreMadeInTheBuildDirectory() throws Exception {
        Path build = TestPaths.root().resolve("tests/target").toRealPath();
        Path made = Files.createTempDirectory("mgpu-where");
        try {
            assertTrue(made.toRealPath().startsWith(build), made + " is not under " + build);
        } finally {
            Files.delete(made);
        }
    }
}
