package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a Java user gets from the library artifacts: the model and codegen jars are named modules
 * (module-info) that do not export their internal packages, the CLI's jar names its module
 * (Automatic-Module-Name), each jar carries its version, and the model and codegen jars declare no logging dependency (only the CLI logs).
 */
class ArtifactsTest {
    private static void check(String artifact, String module, String exported, String internal) throws Exception {
        Path jar = TestPaths.root().resolve("tools/target/lib/" + artifact + "-0.1.0-SNAPSHOT.jar");
        ModuleDescriptor d = ModuleFinder.of(jar).findAll().iterator().next().descriptor();
        assertEquals(module, d.name(), artifact);
        assertFalse(d.isAutomatic(), artifact + " has no module-info");
        Set<String> exports = d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        assertTrue(exports.contains(exported), artifact + " exports " + exports);
        assertTrue(d.packages().contains(internal), artifact + " has no " + internal);
        assertFalse(exports.contains(internal), artifact + " exports " + internal);
        try (JarFile j = new JarFile(jar.toFile())) {
            assertNotNull(j.getManifest().getMainAttributes().getValue("Implementation-Version"), artifact);
            String pom = new String(j.getInputStream(j.getEntry("META-INF/maven/dev.mgpu/" + artifact + "/pom.xml"))
                    .readAllBytes(), StandardCharsets.UTF_8);
            assertFalse(pom.contains("slf4j"), artifact + " declares slf4j:\n" + pom);
        }
    }

    @Test
    void libraryJarsNameTheirModulesAndDoNotLog() throws Exception {
        check("mgpu-model", "dev.mgpu.model", "dev.mgpu.ir", "dev.mgpu.mlir.internal");
        check("mgpu-codegen", "dev.mgpu.codegen", "dev.mgpu.codegen", "dev.mgpu.codegen.internal");
        try (JarFile j = new JarFile(TestPaths.root().resolve("tools/target/gpu-translate.jar").toFile())) {
            assertEquals("dev.mgpu.tools", j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
        }
    }
}
