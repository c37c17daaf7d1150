package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Mutated corpus files go through parse, verify, translate and emit: each must either succeed or fail with
 * a located {@link MgpuException}, never with another exception, and never take the JVM down inside LLVM.
 * Mutants are made by lines (dropped, duplicated, swapped, repeated a thousand times), by tokens (replaced
 * by another token), by numbers (an integer or float literal replaced by a value at or past the edge of a
 * type: 2^31, 2^64, 1e309, a hex float, a hundred digits) and by bytes (flipped, inserted, deleted, or
 * any byte at all). Each mutant is emitted as one of the output kinds in turn (MLIR, IR text, bitcode,
 * object, assembly); what LLVM outputs succeed go through {@code llc-22} (text and bitcode: they must be
 * accepted by the toolchain downstream) and MLIR output must parse again.
 */
class MutationTest {
    private static final String[] TOKENS = {"i32", "i64", "f32", "index", "!llvm.ptr", "%0", "%c1", "^bb1", "@k",
        "async", "[", "]", "(", ")", "<", ">", ",", ":", "0", "-1", "\"x\"", "#nvvm.target", "memref<4xf32>",
        "gpu.wait", "llvm.return", "return", "{", "}"};

    /** Literals at or past the edges of the types they replace. */
    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "127", "128", "255", "256", "-129", "32767",
        "65536", "2147483647", "2147483648", "-2147483649", "4294967296", "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1" + "0".repeat(99), "0x0",
        "0xFF", "0x7FC00000", "0x7FF8000000000000", "0xFFFFFFFFFFFFFFFFF", "0.0", "-0.0", "1.5", "3.4e38",
        "3.5e38", "1e309", "-1e309", "1e-320", "0x1p3", "nan", "inf"};

    private static final EmitKind[] KINDS = {EmitKind.MLIR, EmitKind.LLVM, EmitKind.BC, EmitKind.OBJ, EmitKind.ASM};

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile(
            "(?<![%@#\\w.])-?(0x[0-9a-fA-F]+|[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?)");

    @Test
    void mutantsFailCleanly() throws Exception {
        List<Path> files = new ArrayList<>(TestPaths.mlirFiles("roundtrip"));
        files.addAll(TestPaths.mlirFiles("translate"));
        Random rnd = new Random(Long.getLong("mgpu.mutationSeed", 20261129L));
        int translated = 0;
        int rejected = 0;
        int[] byKind = new int[KINDS.length];
        Path work = Files.createTempDirectory("mgpu-mutants");
        List<Path> forLlc = new ArrayList<>();
        int count = Integer.getInteger("mgpu.mutants", 1000);
        for (int n = 0; n < count; n++) {
            Path f = files.get(rnd.nextInt(files.size()));
            List<String> lines = new ArrayList<>(Files.readAllLines(f, StandardCharsets.UTF_8));
            lines.removeIf(l -> l.contains("-----"));
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                mutateLine(lines, rnd);
            }
            byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
            if (rnd.nextInt(4) == 0) {
                text = mutateBytes(text, rnd);
            }
            String dump = System.getProperty("mgpu.mutantDump");
            if (dump != null) {
                // Leaves the input being translated behind, should native code take the process down.
                Files.write(Path.of(dump), text);
            }
            EmitKind kind = KINDS[n % KINDS.length];
            try {
                Operation m = MlirParser.parse(text, "mutant.mlir");
                if (!Mgpu.verify(m).isEmpty()) {
                    rejected++;
                    continue;
                }
                byte[] out = Mgpu.emit(m, kind, Mgpu.Options.DEFAULT);
                translated++;
                byKind[n % KINDS.length]++;
                if (kind == EmitKind.MLIR) {
                    MlirParser.parse(out, "printed-mutant.mlir");
                } else if ((kind == EmitKind.LLVM || kind == EmitKind.BC) && forLlc.size() < 80) {
                    Path p = work.resolve("m" + n + (kind == EmitKind.LLVM ? ".ll" : ".bc"));
                    Files.write(p, out);
                    forLlc.add(p);
                }
            } catch (MgpuException e) {
                rejected++;
                assertTrue(e.diagnostics().stream().noneMatch(d -> d.location() instanceof Location.Unknown),
                        "every diagnostic must be located: " + e);
            } catch (RuntimeException | StackOverflowError e) {
                fail("mutant of " + f.getFileName() + " failed with " + e + "\n"
                        + new String(text, StandardCharsets.UTF_8), e);
            }
        }
        for (Path p : forLlc) {
            Native.Result r = Native.run(work, java.util.Map.of(), List.of("llc-22", "-O0", "-filetype=obj",
                    p.toString(), "-o", work.resolve("out.o").toString()));
            assertTrue(r.exit() == 0, "llc-22 refused the output of a mutant that mgpu translated: " + p + "\n"
                    + r.err());
        }
        System.out.println("mutants: " + count + ", translated " + translated + " (mlir, llvm, bc, obj, asm: "
                + java.util.Arrays.toString(byKind) + "), rejected with located errors " + rejected + ", llc-22 took "
                + forLlc.size() + " of them");
        assertTrue(translated > 40 && rejected > 200, "translated " + translated + ", rejected " + rejected);
        for (int i = 0; i < KINDS.length; i++) {
            assertTrue(byKind[i] > 5, "only " + byKind[i] + " mutants emitted as " + KINDS[i]);
        }
        assertTrue(forLlc.size() > 20, "only " + forLlc.size() + " outputs went through llc-22");
    }

    private static void mutateLine(List<String> lines, Random rnd) {
        int i = rnd.nextInt(lines.size());
        switch (rnd.nextInt(6)) {
            case 0 -> lines.remove(i);
            case 1 -> lines.add(i, lines.get(rnd.nextInt(lines.size())));
            case 2 -> {
                int j = rnd.nextInt(lines.size());
                String t = lines.get(i);
                lines.set(i, lines.get(j));
                lines.set(j, t);
            }
            case 3 -> {
                String[] words = lines.get(i).split(" ", -1);
                words[rnd.nextInt(words.length)] = TOKENS[rnd.nextInt(TOKENS.length)];
                lines.set(i, String.join(" ", words));
            }
            case 4 -> {
                // A number at the edge of its type, where the line has one.
                java.util.regex.Matcher m = NUMBER.matcher(lines.get(i));
                List<int[]> spans = new ArrayList<>();
                while (m.find()) {
                    spans.add(new int[] {m.start(), m.end()});
                }
                if (!spans.isEmpty()) {
                    int[] sp = spans.get(rnd.nextInt(spans.size()));
                    String l = lines.get(i);
                    lines.set(i, l.substring(0, sp[0]) + NUMBERS[rnd.nextInt(NUMBERS.length)] + l.substring(sp[1]));
                }
            }
            default -> {
                // Size: one line a thousand times.
                String l = lines.get(i);
                for (int r = 0; r < 1000; r++) {
                    lines.add(i, l);
                }
            }
        }
    }

    private static byte[] mutateBytes(byte[] text, Random rnd) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length + 8);
        int at = rnd.nextInt(text.length);
        switch (rnd.nextInt(4)) {
            case 0 -> {
                byte[] t = text.clone();
                t[at] ^= (byte) (1 << rnd.nextInt(8));
                return t;
            }
            case 1 -> {
                out.write(text, 0, at);
                out.write(rnd.nextInt(256));
                out.write(text, at, text.length - at);
            }
            case 2 -> {
                int len = Math.min(text.length - at, 1 + rnd.nextInt(16));
                out.write(text, 0, at);
                out.write(text, at + len, text.length - at - len);
            }
            default -> {
                byte[] t = text.clone();
                t[at] = (byte) rnd.nextInt(256);
                return t;
            }
        }
        return out.toByteArray();
    }
}
