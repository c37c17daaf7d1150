package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every valid module in the repository's .mlir files, printed by mgpu in the custom and the generic
 * form, must be accepted by upstream's {@code mlir-opt-22}: what we print, any MLIR tool reads. Modules
 * that use mgpu's own extensions ({@code #cpu.target}, {@code #gpu.runtime_select}), which upstream does
 * not know, are left out by name, except a gpu.module's: the one-source examples are checked without their
 * {@code #gpu.runtime_select} and last target {@code #cpu.target}.
 */
class UpstreamAcceptsOurTextTest {
    private static final List<String> OURS = List.of("#cpu.target", "#gpu.runtime_select", "#test.");

    @TestFactory
    Stream<DynamicTest> mlirOptAcceptsOurPrints() throws IOException {
        Path mlirOpt = TestPaths.findTool("mlir-opt-22");
        assumeTrue(mlirOpt != null || System.getenv("CI") != null, "mlir-opt-22 is not installed (Debian mlir-22-tools)");
        assertTrue(mlirOpt != null, "mlir-opt-22 is not installed, and CI must run this test: install mlir-22-tools");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : inputs()) {
            List<String> chunks = chunks(f);
            for (int i = 0; i < chunks.size(); i++) {
                String chunk = chunks.get(i).replace(" <#gpu.runtime_select> [", " [").replace(", #cpu.target] {", "] {");
                Operation m = validModule(chunk, f.toString());
                if (m == null || OURS.stream().anyMatch(chunk::contains)) {
                    continue;
                }
                String name = TestPaths.root().relativize(f) + (chunks.size() > 1 ? "#" + i : "");
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    accepts(mlirOpt, MlirPrinter.print(m), name + " (custom form)");
                    accepts(mlirOpt, MlirPrinter.print(m, new MlirPrinter.Options(false, true)), name + " (generic form)");
                }));
            }
        }
        assertTrue(tests.size() >= 15, "too few modules found: " + tests.size());
        return tests.stream();
    }

    private static List<Path> inputs() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("tests", "examples")) {
            try (Stream<Path> s = Files.walk(TestPaths.root().resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".mlir")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    private static List<String> chunks(Path f) throws IOException {
        String text = Files.readString(f, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (String c : text.split("(?m)^// -----\\s*$")) {
            out.add(c);
        }
        return out;
    }

    /** The chunk as a module when it parses and verifies, else null (error tests, parse tests). */
    private static Operation validModule(String chunk, String file) {
        try {
            Operation m = MlirParser.parse(chunk, file);
            return Mgpu.verify(m).isEmpty() ? m : null;
        } catch (MgpuException e) {
            return null;
        }
    }

    private static void accepts(Path mlirOpt, String text, String what) throws Exception {
        Path in = Files.createTempFile("mgpu-upstream", ".mlir");
        try {
            Files.writeString(in, text, StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(mlirOpt.toString(), in.toString(), "-o", "/dev/null")
                    .redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mlir-opt-22 timed out on " + what);
            assertTrue(p.exitValue() == 0, "mlir-opt-22 rejects our " + what + ":\n"
                    + new String(out, StandardCharsets.UTF_8) + "\n--- printed:\n" + text);
        } finally {
            Files.deleteIfExists(in);
        }
    }
}
