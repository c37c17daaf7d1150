package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.tests.LitTest.FileCheckPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Which lit files run without FileCheck, and that CI never skips one for want of it. */
class LitPolicyTest {
    @Test
    void filesWithoutFileCheckRunEvenWhenItIsMissing() {
        List<String> verify = List.of("not gpu-translate --verify-diagnostics %s");
        assertEquals(FileCheckPolicy.RUN, LitTest.whenFileCheck(verify, false, false));
        assertEquals(FileCheckPolicy.RUN, LitTest.whenFileCheck(verify, false, true));
    }

    @Test
    void filesWithFileCheckAreSkippedOnlyOutsideCi() {
        List<String> check = List.of("gpu-translate %s | FileCheck %s");
        assertEquals(FileCheckPolicy.RUN, LitTest.whenFileCheck(check, true, true));
        assertEquals(FileCheckPolicy.SKIP, LitTest.whenFileCheck(check, false, false));
        assertEquals(FileCheckPolicy.FAIL, LitTest.whenFileCheck(check, false, true));
    }

    @Test
    void everyVerifyFileNeedsNoFileCheck() throws IOException {
        try (Stream<Path> files = Files.list(TestPaths.mlirDir().resolve("verify"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".mlir")).toList()) {
                assertEquals(FileCheckPolicy.RUN, LitTest.whenFileCheck(LitTest.runLines(f), false, true), f.toString());
            }
        }
    }
}
