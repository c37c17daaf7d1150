package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.codegen.internal.device.cpu.CpuGrid;
import dev.mgpu.dialect.Dialects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Codegen's structure, read from its sources: a target is asked, never tested for; op names come from the
 * op classes; the one Java description of {@code mgpuCpuGrid} is the header's layout.
 */
class CodegenStructureTest {
    private static final Path CODEGEN = TestPaths.root().resolve("codegen/src/main/java");
    private static final Path TARGETS = CODEGEN.resolve("dev/mgpu/codegen/internal/device");
    /**
     * Where a target attribute's kind may be tested for: the one class that picks a target's class for its
     * attribute, and the table of mgpu.h's object kind codes.
     */
    private static final List<Path> BY_KIND = List.of(CODEGEN.resolve("dev/mgpu/codegen/internal/DeviceTargets.java"),
            CODEGEN.resolve("dev/mgpu/codegen/ObjectCodes.java"));

    private static List<Path> sources() throws IOException {
        try (Stream<Path> s = Files.walk(CODEGEN)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** Source text without comments and with string literals kept (they are what the op-name rule reads). */
    private static String code(Path p) throws IOException {
        return Files.readString(p).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)//.*$", "");
    }

    @Test
    void noTargetIsTestedForOutsideItsOwnFiles() throws IOException {
        Pattern test = Pattern.compile("instanceof\\s+(?:DeviceTarget\\.)?(Nvptx|Amdgpu|Cpu|GpuTarget\\.(?:NVVMTarget"
                + "|ROCDLTarget|CpuTarget))\\b");
        List<String> found = new ArrayList<>();
        for (Path p : sources()) {
            if (p.startsWith(TARGETS) || BY_KIND.contains(p)) {
                continue;
            }
            Matcher m = test.matcher(code(p));
            while (m.find()) {
                found.add(CODEGEN.relativize(p) + ": instanceof " + m.group(1));
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void opNamesComeFromTheOpClasses() throws IOException {
        Pattern literal = Pattern.compile("\"([a-z_]+\\.[a-z_.]*)\"");
        // "llvm." starts LLVM's own intrinsic and attribute names too, so only whole llvm op names count.
        Set<String> dialects = Set.of("arith", "builtin", "cf", "func", "gpu", "math", "memref", "nvvm", "rocdl",
                "scf");
        List<String> found = new ArrayList<>();
        for (Path p : sources()) {
            Matcher m = literal.matcher(code(p));
            while (m.find()) {
                String s = m.group(1);
                boolean prefix = s.endsWith(".") && dialects.contains(s.substring(0, s.length() - 1));
                if (prefix || Dialects.lookup(s) != null) {
                    found.add(CODEGEN.relativize(p) + ": \"" + s + "\"");
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void cpuGridIsTheHeadersLayout(@TempDir Path dir) throws Exception {
        Path c = dir.resolve("grid.c");
        Files.writeString(c, """
                #include <stddef.h>
                #include <stdio.h>
                #include "mgpu.h"
                int main(void) {
                  printf("%zu %zu %zu %zu %zu %zu\\n", offsetof(mgpuCpuGrid, gridDim), offsetof(mgpuCpuGrid, blockDim),
                         offsetof(mgpuCpuGrid, blockIdx), offsetof(mgpuCpuGrid, threadIdx),
                         offsetof(mgpuCpuGrid, sharedMemory), sizeof(mgpuCpuGrid));
                  return 0;
                }
                """);
        Native.exec(dir, Map.of(), "cc", "-I" + Native.include(), c.toString(), "-o", dir.resolve("grid").toString());
        String[] got = Native.exec(dir, Map.of(), dir.resolve("grid").toString()).strip().split(" ");
        List<Long> fromJava = new ArrayList<>();
        for (CpuGrid.Array a : CpuGrid.Array.values()) {
            fromJava.add(CpuGrid.word(a, 0) * 8L);
        }
        fromJava.add(CpuGrid.SHARED_MEMORY_OFFSET);
        fromJava.add(CpuGrid.BYTES);
        List<Long> fromC = Stream.of(got).map(Long::parseLong).toList();
        assertEquals(fromC, fromJava);
    }
}
