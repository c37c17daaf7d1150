package dev.mgpu.tests;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
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

    @AfterAll
    static void deleteWork() {
        ExternalTools.deleteTree(work);
    }

    @BeforeAll
    static void installAndCopy() throws Exception {
        // Outside the repository: a class path entry of the repository's would show.
        work = TestPaths.outsideTemporaryDirectory("mgpu-java-example");
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

    /** The example's jar and the installed jars it needs, built once for every test that runs a program. */
    private static synchronized String classpath() throws Exception {
        Path cp = work.resolve("cp.txt");
        if (!Files.exists(cp)) {
            mvn("package", "dependency:build-classpath", "-Dmdep.outputFile=" + cp);
        }
        return project.resolve("target/mgpu-java-example-1.jar") + ":" + Files.readString(cp).strip();
    }

    @Test
    void buildsAgainstInstalledArtifactsAndRuns() throws Exception {
        String classpath = classpath();
        Path cp = work.resolve("cp.txt");
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

    /**
     * ReduceKernelFromJava builds a block-wide sum in workgroup memory with barriers through the kernel
     * builders, compiles it for sm_90, gfx90a and the CPU in one call, and runs it on the CPU backend, which
     * must compute every block's sum as Java does. The kernel's module it wrote is read back, and must be
     * taken by upstream's mlir-opt-22; its PTX for sm_90 has the barriers and the shared tile, and ptxas
     * (where installed) assembles it.
     */
    @Test
    void buildsAKernelInJavaAndRunsIt() throws Exception {
        Path run = work.resolve("run-reduce");
        String out = Native.exec(work, Map.of("MGPU_BACKEND", "cpu"), Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "-cp", classpath(), "example.ReduceKernelFromJava",
                TestPaths.root().resolve("tools/target/image").toString(), run.toString());
        assertTrue(out.contains("compiled 3 objects: #nvvm.target<chip = \"sm_90\">, #rocdl.target<chip = \"gfx90a\">,"
                + " #cpu.target\n"), out);
        assertTrue(out.contains("reduce: OK, 16 block sums of 256 elements checked, sum[0] = 1580.375,"
                + " sum[15] = 1599.125\n"), out);

        String text = Files.readString(run.resolve("reduce.mlir"));
        assertTrue(text.contains("gpu.func @block_sum(%arg0: memref<4096xf32>, %arg1: memref<16xf32>) workgroup(%arg2"
                + " : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32:"
                + " 256, 1, 1>}") && text.split("gpu.barrier\n", -1).length - 1 == 9, text);
        Operation module = Mgpu.parse(text.getBytes(StandardCharsets.UTF_8), "reduce.mlir");
        assertEquals(List.of(), Mgpu.verify(module));
        KernelBuilderTest.upstreamAccepts(run, text);

        Mgpu.compileKernels(module, Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(
                ObjectFormat.ASSEMBLY)));
        String ptx = new String(new BinaryOp(module.region(0).entry().operations().get(0)).object(0).object().bytes(), StandardCharsets.UTF_8);
        assertTrue(ptx.contains(".target sm_90") && ptx.contains(".visible .entry block_sum(")
                && ptx.contains(".maxntid 256, 1, 1") && ptx.contains(".shared .align"), ptx);
        assertEquals(9, ptx.split("bar.sync", -1).length - 1, ptx);
        Path ptxas = TestPaths.findTool("ptxas");
        if (ptxas != null) {
            Path file = run.resolve("block_sum.ptx");
            Files.writeString(file, ptx);
            Native.exec(run, Map.of(), ptxas.toString(), "-arch=sm_90", file.toString(), "-o",
                    run.resolve("block_sum.cubin").toString());
            assertTrue(Files.size(run.resolve("block_sum.cubin")) > 0);
        }
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
