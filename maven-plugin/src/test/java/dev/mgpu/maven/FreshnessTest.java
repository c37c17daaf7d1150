package dev.mgpu.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreshnessTest {
    @TempDir
    Path dir;
    Path input;
    Path blob;
    Path output;
    Path dep;
    Path stamp;

    @BeforeEach
    void made() throws Exception {
        input = write("k.mlir", 1000);
        blob = write("k.bin", 1000);
        output = write("k.o", 2000);
        dep = dir.resolve("k.o.d");
        Files.writeString(dep, output + ": \\\n  " + input + " \\\n  " + blob + "\n" + blob + ":\n");
        stamp = dir.resolve("k.o.args");
        Files.writeString(stamp, "--emit=obj\n");
    }

    private Path write(String name, long seconds) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, name);
        Files.setLastModifiedTime(p, FileTime.fromMillis(seconds * 1000));
        return p;
    }

    @Test
    void upToDateWhenNothingChanged() throws Exception {
        assertNull(Freshness.staleReason(output, dep, stamp, "--emit=obj\n"));
    }

    @Test
    void anyNamedFileThatChangedOrWentRebuilds() throws Exception {
        Files.setLastModifiedTime(blob, FileTime.fromMillis(3000_000));
        assertEquals(blob + " changed", Freshness.staleReason(output, dep, stamp, "--emit=obj\n"));
        Files.delete(blob);
        assertEquals(blob + " is gone", Freshness.staleReason(output, dep, stamp, "--emit=obj\n"));
    }

    @Test
    void anInputAsOldAsTheOutputRebuilds() throws Exception {
        Files.setLastModifiedTime(input, FileTime.fromMillis(2000_000));
        assertEquals(input + " changed", Freshness.staleReason(output, dep, stamp, "--emit=obj\n"));
    }

    @Test
    void anotherCommandOrAMissingRecordRebuilds() throws Exception {
        assertEquals("the configuration changed", Freshness.staleReason(output, dep, stamp, "--emit=obj\n-O1\n"));
        Files.delete(dep);
        assertEquals("no record of how k.o was made", Freshness.staleReason(output, dep, stamp, "--emit=obj\n"));
        Files.delete(output);
        assertEquals("no k.o yet", Freshness.staleReason(output, dep, stamp, "--emit=obj\n"));
    }
}
