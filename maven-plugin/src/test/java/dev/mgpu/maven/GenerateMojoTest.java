package dev.mgpu.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateMojoTest {
    @Test
    void bareChipsGetTheirBackEnd() {
        assertEquals(List.of("nvvm:sm_90", "rocdl:gfx90a", "cpu", "nvvm:sm_80"),
                List.of("sm_90", " gfx90a", "cpu", "nvvm:sm_80").stream().map(GenerateMojo::target).toList());
    }

    @Test
    void theStampHoldsTheCommandAndTheCompilersJars(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("mgpu-tools.jar"), "12345");
        String stamp = GenerateMojo.stamp(List.of("java", "-O2", "k.mlir"), List.of(jar));
        assertEquals("java\n-O2\nk.mlir\n# mgpu-tools.jar 5 " + jar.toFile().lastModified() + "\n", stamp);
    }

    @Test
    void eachEmitKindHasTheCompilersExtension() {
        assertEquals(".o", GenerateMojo.EXTENSIONS.get("obj"));
        assertEquals("", GenerateMojo.EXTENSIONS.get("exe"));
        assertEquals(".ll", GenerateMojo.EXTENSIONS.get("llvm"));
        assertEquals(".so", GenerateMojo.EXTENSIONS.get("shared"));
        assertEquals(7, GenerateMojo.EXTENSIONS.size());
    }
}
