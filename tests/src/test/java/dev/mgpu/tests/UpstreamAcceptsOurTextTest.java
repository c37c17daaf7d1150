package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every valid module in the repository's .mlir files, printed by mgpu in the custom and the generic
 * form, must be accepted by upstream's {@code mlir-opt-22}, and name its values as upstream names them
 * there: what we print, any MLIR tool reads. Modules
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
                    String ours = MlirPrinter.print(m);
                    String theirs = accepts(mlirOpt, ours, name + " (custom form)");
                    // Upstream names the values again as it prints: its names must be ours, in the same places, in
                    // the custom form and in the generic one, which upstream numbers differently.
                    assertEquals(valueNames(theirs), valueNames(ours), name + ": value names differ from upstream's."
                            + "\n--- ours:\n" + ours + "\n--- upstream's:\n" + theirs);
                    String generic = MlirPrinter.print(m, new MlirPrinter.Options(false, true));
                    String theirsGeneric = accepts(mlirOpt, generic, name + " (generic form)", "--mlir-print-op-generic");
                    assertEquals(valueNames(theirsGeneric), valueNames(generic), name + ": value names in the generic"
                            + " form differ from upstream's.\n--- ours:\n" + generic + "\n--- upstream's:\n"
                            + theirsGeneric);
                }));
            }
        }
        assertTrue(tests.size() >= 15, "too few modules found: " + tests.size());
        return tests.stream();
    }

    private static List<Path> inputs() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("tests", "examples")) {
            out.addAll(TestPaths.sourceFiles(TestPaths.root().resolve(dir), Integer.MAX_VALUE,
                    p -> p.toString().endsWith(".mlir")));
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

    /**
     * Float constants print exactly as upstream prints them, checked against {@code mlir-opt-22} on 4,000
     * of them: for each of f16, bf16, f32 and f64, random bit patterns (NaNs and infinities among them),
     * subnormals, and decimal literals of up to nine digits, which also checks that a literal rounds to the
     * same value of the type as upstream's.
     */
    @Test
    void floatConstantsPrintAsUpstreamPrintsThem() throws Exception {
        Path mlirOpt = TestPaths.findTool("mlir-opt-22");
        assumeTrue(mlirOpt != null || System.getenv("CI") != null, "mlir-opt-22 is not installed (Debian mlir-22-tools)");
        assertTrue(mlirOpt != null, "mlir-opt-22 is not installed, and CI must run this test: install mlir-22-tools");
        java.util.Random r = new java.util.Random(20261201);
        StringBuilder text = new StringBuilder("func.func @f() {\n");
        List<String> literals = new ArrayList<>();
        String[] types = {"f16", "bf16", "f32", "f64"};
        int[] widths = {16, 16, 32, 64};
        int[] fractionBits = {10, 7, 23, 52};
        int[] maxExponent = {4, 37, 37, 300};
        for (int t = 0; t < types.length; t++) {
            for (int i = 0; i < 1000; i++) {
                long mask = widths[t] == 64 ? -1L : (1L << widths[t]) - 1;
                String literal;
                if (i % 5 < 3) {
                    literal = String.format("0x%0" + widths[t] / 4 + "X", r.nextLong() & mask);
                } else if (i % 5 == 3) {
                    long subnormal = r.nextLong() & ((1L << fractionBits[t]) - 1) | (r.nextBoolean() ? 1L << (widths[t] - 1) : 0);
                    literal = String.format("0x%0" + widths[t] / 4 + "X", subnormal & mask);
                } else {
                    String digits = Long.toString(1 + (long) (r.nextDouble() * 999_999_999L));
                    int exponent = r.nextInt(2 * maxExponent[t] + 1) - maxExponent[t] - digits.length() + 1;
                    literal = (r.nextBoolean() ? "-" : "") + digits.charAt(0) + "." + digits.substring(1) + "e"
                            + exponent;
                }
                literals.add(literal + " : " + types[t]);
                text.append("  %c").append(literals.size()).append(" = arith.constant ").append(literal).append(" : ")
                        .append(types[t]).append('\n');
            }
        }
        text.append("  return\n}\n");
        Path in = Files.createTempFile("mgpu-floats", ".mlir");
        String upstream;
        try {
            Files.writeString(in, text, StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(mlirOpt.toString(), in.toString()).redirectErrorStream(true).start();
            upstream = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mlir-opt-22 timed out");
            assertTrue(p.exitValue() == 0, upstream);
        } finally {
            Files.deleteIfExists(in);
        }
        List<String> theirs = constants(upstream);
        List<String> ours = constants(MlirPrinter.print(MlirParser.parse(text.toString(), "floats.mlir")));
        assertTrue(theirs.size() == literals.size() && ours.size() == literals.size(), theirs.size() + " " + ours.size());
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
            if (!ours.get(i).equals(theirs.get(i))) {
                differ.add(literals.get(i) + ": upstream " + theirs.get(i) + ", ours " + ours.get(i));
            }
        }
        assertTrue(differ.isEmpty(), differ.size() + " of " + literals.size() + " differ, such as:\n"
                + String.join("\n", differ.subList(0, Math.min(10, differ.size()))));
    }

    /** The values and types of the arith.constant ops in {@code text}, in order. */
    private static List<String> constants(String text) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("arith\\.constant (\\S+ : \\S+)").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** What {@code mlir-opt-22} with {@code flags} prints for {@code text}, which it must accept. */
    private static String accepts(Path mlirOpt, String text, String what, String... flags) throws Exception {
        Path in = Files.createTempFile("mgpu-upstream", ".mlir");
        try {
            Files.writeString(in, text, StandardCharsets.UTF_8);
            List<String> cmd = new ArrayList<>(List.of(mlirOpt.toString(), in.toString()));
            cmd.addAll(List.of(flags));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mlir-opt-22 timed out on " + what);
            assertTrue(p.exitValue() == 0, "mlir-opt-22 rejects our " + what + ":\n"
                    + new String(out, StandardCharsets.UTF_8) + "\n--- printed:\n" + text);
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(in);
        }
    }

    /** Every value name in {@code text} ({@code %c0}, {@code %0#1}, {@code %arg2}), in order. */
    private static List<String> valueNames(String text) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("%[A-Za-z0-9_$.#-]+").matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
