package dev.mgpu.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compiler's JVM asks for huge pages as the CLI's launcher does: its heap where the kernel gives them on
 * request, and glibc's malloc through the tunable, unless the build's environment has one of its own. Seen
 * through a Java home whose java prints what it was given.
 */
class CompilerTest {
    @TempDir
    Path dir;

    @Test
    void readsTheKernelsHugePageMode() throws Exception {
        Path mode = dir.resolve("enabled");
        Files.writeString(mode, "always [madvise] never\n");
        assertTrue(Compiler.hugePagesOnRequest(mode));
        Files.writeString(mode, "[always] madvise never\n");
        assertTrue(Compiler.hugePagesOnRequest(mode));
        Files.writeString(mode, "always madvise [never]\n");
        assertFalse(Compiler.hugePagesOnRequest(mode));
        assertFalse(Compiler.hugePagesOnRequest(dir.resolve("missing")));
    }

    @Test
    void theChildJvmGetsHugePages() throws Exception {
        Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"tunables=${GLIBC_TUNABLES-unset}\" \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Compiler c = new Compiler(dir.resolve("jdk"), List.of(dir.resolve("tools.jar")), List.of(), dir);
        Compiler.Result r = c.run(List.of("--version"));
        assertEquals(0, r.exitCode(), r.output());
        List<String> lines = List.of(r.output().split("\n"));
        String own = System.getenv("GLIBC_TUNABLES");
        assertEquals("tunables=" + (own == null ? "glibc.malloc.hugetlb=1" : own), lines.get(0));
        boolean onRequest = Compiler.hugePagesOnRequest(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
        assertEquals(onRequest, lines.contains("-XX:+UseTransparentHugePages"), r.output());
        assertEquals("--version", lines.get(lines.size() - 1));
    }
}
