package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * examples/java, a Java user's project that depends on mgpu-codegen alone, builds against the artifacts
 * installed in the local Maven repository (this build installs the parent POM, mgpu-model and mgpu-codegen
 * there first, from the jars the build just made), and its program builds axpy's host module in Java,
 * emits an object, links it and runs it. The native jars it gets follow {@code -Djavacpp.platform}.
 */
class JavaExampleTest {
    private static Path work;
    private static Path project;

    @BeforeAll
    static void installAndCopy() throws Exception {
        work = Files.createTempDirectory("mgpu-java-example");
        Path root = TestPaths.root();
        String version = "0.1.0-SNAPSHOT";
        install(root.resolve("pom.xml"), root.resolve("pom.xml"), "pom");
        install(root.resolve("model/target/mgpu-model-" + version + ".jar"), root.resolve("model/pom.xml"), "jar");
        install(root.resolve("codegen/target/mgpu-codegen-" + version + ".jar"), root.resolve("codegen/pom.xml"),
                "jar");
        // A copy, so that the build leaves nothing in the source tree.
        project = work.resolve("example");
        Path from = root.resolve("examples/java");
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !from.relativize(f).startsWith("target"))
                    .toList()) {
                Path to = project.resolve(from.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }
    }

    @Test
    void buildsAgainstInstalledArtifactsAndRuns() throws Exception {
        Path cp = work.resolve("cp.txt");
        mvn("package", "dependency:build-classpath", "-Dmdep.outputFile=" + cp);
        String classpath = project.resolve("target/mgpu-java-example-1.jar") + ":" + Files.readString(cp).strip();
        for (String entry : classpath.split(":")) {
            assertTrue(!entry.contains("/tests/") && !entry.contains("/target/classes"), "not an installed jar: " + entry);
        }
        Path runtime = TestPaths.root().resolve("tools/target/image");
        String out = Native.exec(work, Map.of("MGPU_BACKEND", "cpu"), Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "-cp", classpath, "example.AxpyFromJava",
                TestPaths.root().resolve("examples/own-objects/axpy").toString(), runtime.toString(), work.resolve("run").toString());
        assertTrue(out.contains("axpy: OK, 1024 elements checked, y[1] = 3.25, y[1023] = 2302.75"), out);

        // On the module path the same jars resolve as named modules, and the internals stay inside.
        String described = Native.exec(work, Map.of(), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", Files.readString(cp).strip(), "--describe-module", "dev.mgpu.codegen");
        assertTrue(described.contains("exports dev.mgpu.codegen\n") && described.contains("requires dev.mgpu.model transitive")
                && described.contains("contains dev.mgpu.codegen.internal"), described);
        // and the program runs with them there (the native jars too: ALL-MODULE-PATH, as bytedeco's need).
        String modular = Native.exec(work, Map.of("MGPU_BACKEND", "cpu"), Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "--module-path", Files.readString(cp).strip(), "--add-modules", "ALL-MODULE-PATH",
                "-cp", project.resolve("target/mgpu-java-example-1.jar").toString(), "example.AxpyFromJava",
                TestPaths.root().resolve("examples/own-objects/axpy").toString(), runtime.toString(), work.resolve("run-modular").toString());
        assertTrue(modular.contains("axpy: OK, 1024 elements checked"), modular);
    }

    /** The native jars come from -Djavacpp.platform, through mgpu-codegen's POM, as bytedeco's do. */
    @Test
    void nativeClassifierFollowsJavacppPlatform() throws Exception {
        String tree = mvn("dependency:tree", "-Djavacpp.platform=linux-arm64");
        assertTrue(tree.contains("org.bytedeco:llvm:jar:linux-arm64:20.1.7-1.5.12:compile"), tree);
        assertTrue(tree.contains("org.bytedeco:javacpp:jar:linux-arm64:1.5.12:compile"), tree);
        assertTrue(!tree.contains("linux-x86_64"), tree);
    }

    private static void install(Path file, Path pom, String packaging) throws Exception {
        mvnIn(work, "install:install-file", "-Dfile=" + file, "-DpomFile=" + pom, "-Dpackaging=" + packaging);
    }

    private static String mvn(String... args) throws Exception {
        return mvnIn(project, args);
    }

    private static String mvnIn(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("mvn", "-B", "-ntp"));
        String repo = System.getProperty("mgpu.repo.local");
        if (repo != null && !repo.isBlank()) {
            cmd.add("-Dmaven.repo.local=" + repo);
        }
        cmd.addAll(List.of(args));
        return Native.exec(dir, Map.of(), cmd.toArray(new String[0]));
    }
}
