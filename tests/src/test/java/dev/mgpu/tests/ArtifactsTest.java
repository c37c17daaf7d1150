package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * What a Java user gets from the library artifacts: each jar names its module (Automatic-Module-Name) and
 * its version, and the model and codegen jars declare no logging dependency (only the CLI logs).
 */
class ArtifactsTest {
    private static void check(String artifact, String module) throws Exception {
        Path jar = TestPaths.root().resolve("tools/target/lib/" + artifact + "-0.1.0-SNAPSHOT.jar");
        try (JarFile j = new JarFile(jar.toFile())) {
            assertEquals(module, j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"), artifact);
            assertNotNull(j.getManifest().getMainAttributes().getValue("Implementation-Version"), artifact);
            String pom = new String(j.getInputStream(j.getEntry("META-INF/maven/dev.mgpu/" + artifact + "/pom.xml"))
                    .readAllBytes(), StandardCharsets.UTF_8);
            assertFalse(pom.contains("slf4j"), artifact + " declares slf4j:\n" + pom);
        }
    }

    @Test
    void libraryJarsNameTheirModulesAndDoNotLog() throws Exception {
        check("mgpu-model", "dev.mgpu.model");
        check("mgpu-codegen", "dev.mgpu.codegen");
        try (JarFile j = new JarFile(TestPaths.root().resolve("tools/target/gpu-translate.jar").toFile())) {
            assertEquals("dev.mgpu.tools", j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
        }
    }
}
