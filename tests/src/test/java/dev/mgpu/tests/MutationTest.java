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
 * Mutated corpus files (lines dropped, duplicated or swapped, tokens replaced) go through parse, verify,
 * translate and emit: each must either succeed or fail with a located {@link MgpuException}, never with
 * another exception, and never take the JVM down inside LLVM.
 */
class MutationTest {
    private static final String[] TOKENS = {"i32", "i64", "f32", "index", "!llvm.ptr", "%0", "%c1", "^bb1", "@k",
        "async", "[", "]", "(", ")", "<", ">", ",", ":", "0", "-1", "\"x\"", "#nvvm.target", "memref<4xf32>",
        "gpu.wait", "llvm.return", "return", "{", "}"};

    @Test
    void mutantsFailCleanly() throws Exception {
        List<Path> files = new ArrayList<>(TestPaths.mlirFiles("roundtrip"));
        files.addAll(TestPaths.mlirFiles("translate"));
        Random rnd = new Random(Long.getLong("mgpu.mutationSeed", 20261129L));
        int translated = 0;
        int rejected = 0;
        for (int n = 0, count = Integer.getInteger("mgpu.mutants", 600); n < count; n++) {
            Path f = files.get(rnd.nextInt(files.size()));
            List<String> lines = new ArrayList<>(Files.readAllLines(f, StandardCharsets.UTF_8));
            lines.removeIf(l -> l.contains("-----"));
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                int i = rnd.nextInt(lines.size());
                switch (rnd.nextInt(4)) {
                    case 0: lines.remove(i); break;
                    case 1: lines.add(i, lines.get(rnd.nextInt(lines.size()))); break;
                    case 2: {
                        int j = rnd.nextInt(lines.size());
                        String t = lines.get(i);
                        lines.set(i, lines.get(j));
                        lines.set(j, t);
                        break;
                    }
                    default: {
                        String[] words = lines.get(i).split(" ", -1);
                        words[rnd.nextInt(words.length)] = TOKENS[rnd.nextInt(TOKENS.length)];
                        lines.set(i, String.join(" ", words));
                        break;
                    }
                }
            }
            String text = String.join("\n", lines) + "\n";
            String dump = System.getProperty("mgpu.mutantDump");
            if (dump != null) {
                // Leaves the input being translated behind, should native code take the process down.
                Files.writeString(Path.of(dump), text);
            }
            try {
                Operation m = MlirParser.parse(text, "mutant.mlir");
                if (!Mgpu.verify(m).isEmpty()) {
                    rejected++;
                    continue;
                }
                Mgpu.emit(m, EmitKind.BC, Mgpu.Options.DEFAULT);
                translated++;
            } catch (MgpuException e) {
                rejected++;
                assertTrue(e.diagnostics().stream().noneMatch(d -> d.location() instanceof Location.Unknown),
                        "every diagnostic must be located: " + e);
            } catch (RuntimeException | StackOverflowError e) {
                fail("mutant of " + f.getFileName() + " failed with " + e + "\n" + text, e);
            }
        }
        assertTrue(translated > 20 && rejected > 100, "translated " + translated + ", rejected " + rejected);
    }
}
