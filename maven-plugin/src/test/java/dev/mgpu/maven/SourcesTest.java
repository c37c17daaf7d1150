package dev.mgpu.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourcesTest {
    @Test
    void selectsByIncludesThenExcludes(@TempDir Path root) throws Exception {
        for (String f : List.of("a.mlir", "b.txt", "x/c.mlir", "x/y/d.mlir", "x/draft-e.mlir", "z/f.mlir")) {
            Files.createDirectories(root.resolve(f).getParent());
            Files.writeString(root.resolve(f), "");
        }
        assertEquals(List.of("a.mlir", "x/c.mlir", "x/y/d.mlir", "z/f.mlir"),
                Sources.select(root, List.of("**/*.mlir"), List.of("**/draft-*.mlir")));
        assertEquals(List.of("x/c.mlir", "x/draft-e.mlir"), Sources.select(root, List.of("x/*.mlir"), List.of()));
        assertEquals(List.of("a.mlir", "b.txt"), Sources.select(root, List.of("?.*"), List.of()));
        assertEquals(List.of("a.mlir", "b.txt"), Sources.select(root, List.of("**"), List.of("x/", "z/**")));
        assertEquals(List.of(), Sources.select(root.resolve("missing"), List.of("**"), List.of()));
    }

    @Test
    void dotsAndOtherCharactersAreLiteral() {
        assertEquals(false, Sources.regex("*.mlir").matcher("amlir").matches());
        assertEquals(true, Sources.regex("a+b/*.mlir").matcher("a+b/k.mlir").matches());
    }
}
