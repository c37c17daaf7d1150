package dev.mgpu.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

class DependencyFileTest {
    @Test
    void readsTheFirstRuleOnly() {
        String text = "out/a.o: \\\n  src/a.mlir \\\n  blobs/k.bin\nblobs/k.bin:\n";
        assertEquals(List.of("src/a.mlir", "blobs/k.bin"), DependencyFile.prerequisites(text));
    }

    @Test
    void unescapesAsMakeReadsNames() {
        String text = "o: a\\ b.mlir x\\#1 c$$d e\\\\\\ f g\\\\ h\\x\n";
        assertEquals(List.of("a b.mlir", "x#1", "c$d", "e\\ f", "g\\", "h\\x"), DependencyFile.prerequisites(text));
    }

    @Test
    void aColonInsideANameIsNotTheRule() {
        assertEquals(List.of("C:x", "y"), DependencyFile.prerequisites("t: C:x y"));
        assertEquals(List.of(), DependencyFile.prerequisites(""));
    }

    /** What the CLI writes (dev.mgpu.tools.DepFile, package-private there) reads back as the names it was given. */
    @Test
    void readsBackWhatTheCompilerWrites() throws Exception {
        Class<?> depFile = Class.forName("dev.mgpu.tools.DepFile");
        Method text = depFile.getDeclaredMethod("text", List.class, String.class, List.class, boolean.class);
        text.setAccessible(true);
        List<String> names = List.of("/src/my kernel.mlir", "/b/#x$y.bin", "/odd\\ name", "/plain.bin");
        String written = (String) text.invoke(null, List.of(), "/out/my kernel.o", names, true);
        assertEquals(names, DependencyFile.prerequisites(written));
    }
}
