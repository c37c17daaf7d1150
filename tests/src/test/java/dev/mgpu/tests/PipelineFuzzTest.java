package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Any bytes through the parser, the verifier and translation to bitcode: each input either succeeds, and
 * llc-22 then compiles the bitcode, or fails with located diagnostics; nothing else (no other exception,
 * no crash in LLVM, no hang). The build sets JAZZER_FUZZ=1, so every {@code mvn verify} replays the
 * corpus in PipelineFuzzTestInputs and then mutates from it for the bounded time below;
 * tests/fuzz/run.sh fuzzes for longer.
 */
class PipelineFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void pipeline(byte[] input) {
        Operation module;
        try {
            module = MlirParser.parse(input, "fuzz.mlir");
        } catch (MgpuException e) {
            located(e.diagnostics());
            return;
        }
        List<Diagnostic> problems = Mgpu.verify(module);
        if (!problems.isEmpty()) {
            located(problems);
            return;
        }
        byte[] bc;
        try {
            bc = Mgpu.emit(module, EmitKind.BC, Mgpu.Options.DEFAULT);
        } catch (MgpuException e) {
            located(e.diagnostics());
            return;
        }
        assertTrue(bc.length > 4 && bc[0] == 'B' && bc[1] == 'C', "not bitcode");
        downstreamAccepts(bc);
    }

    private static final Path LLC = TestPaths.findTool("llc-22");
    private static final Set<Integer> CHECKED = ConcurrentHashMap.newKeySet();
    /** llc costs tens of milliseconds: each distinct output is checked, up to this many per run. */
    private static final int MAX_LLC_RUNS = 200;

    /** llc-22 compiles what succeeded: what mgpu emits, a downstream toolchain takes. */
    private static void downstreamAccepts(byte[] bc) {
        if (LLC == null || CHECKED.size() >= MAX_LLC_RUNS || !CHECKED.add(Arrays.hashCode(bc))) {
            return;
        }
        try {
            Path f = Files.createTempFile("mgpu-fuzz", ".bc");
            try {
                Files.write(f, bc);
                Process p = new ProcessBuilder(LLC.toString(), "-filetype=null", f.toString()).redirectErrorStream(true)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "llc-22 timed out");
                assertEquals(0, p.exitValue(), "llc-22 rejects what mgpu emitted: " + out);
            } finally {
                Files.deleteIfExists(f);
            }
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("could not run llc-22", e);
        }
    }

    private static void located(List<Diagnostic> diagnostics) {
        assertFalse(diagnostics.isEmpty(), "an error without diagnostics");
        for (Diagnostic d : diagnostics) {
            assertTrue(d.location() instanceof Location.FileLineCol l && l.line() > 0, "unlocated: " + d);
        }
    }
}
