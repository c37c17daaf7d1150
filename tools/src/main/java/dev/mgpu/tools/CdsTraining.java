package dev.mgpu.tools;

import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Attribute;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Runs gpu-translate in-process on a small representative input, once for each kind of output, so that
 * the build can record every class a run loads in a class-data-sharing archive (a list of them,
 * {@code -XX:DumpLoadedClassList}, for a static archive; {@code -XX:ArchiveClassesAtExit} where a JVM cannot
 * write one); the launcher then maps those classes instead of loading them, which is a good part of a small
 * file's time. Fails, and so fails the build, if any run fails.
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    /**
     * Runs the training runs.
     *
     * @param args ignored
     * @throws IOException if the training input is missing, a file cannot be written, or a run fails
     */
    public static void main(String[] args) throws IOException {
        if (Boolean.getBoolean("mgpu.cds.linkNestHosts")) {
            linkNestHosts();
        }
        byte[] input;
        try (InputStream in = CdsTraining.class.getResourceAsStream("cds-training.mlir")) {
            if (in == null) {
                throw new IOException("cds-training.mlir is missing from the jar");
            }
            input = in.readAllBytes();
        }
        Path dir = Files.createTempDirectory("gpu-translate-cds");
        try {
            // Past 1 MiB the input is read in pieces: pad it with a comment to take that path too.
            Path file = dir.resolve("training.mlir");
            Files.write(file, input);
            Files.write(file, ("// " + "-".repeat(1 << 20) + "\n").getBytes(StandardCharsets.US_ASCII),
                    StandardOpenOption.APPEND);
            for (String emit : new String[] {"mlir", "llvm", "bc", "obj"}) {
                Path output = dir.resolve("out." + emit);
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code = GpuTranslate.run(new String[] {"--emit=" + emit, "-o", output.toString(), file.toString()},
                        InputStream.nullInputStream(), OutputStream.nullOutputStream(),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                if (code != 0 || Files.size(output) == 0) {
                    System.err.print(err.toString(StandardCharsets.UTF_8));
                    throw new IOException("training run --emit=" + emit + " failed with exit code " + code);
                }
            }
            // Kernels of both GPU targets, as assembly so that no CUDA tool is needed.
            Path kernels = dir.resolve("kernels.mlir");
            try (InputStream in = CdsTraining.class.getResourceAsStream("cds-kernels.mlir")) {
                if (in == null) {
                    throw new IOException("cds-kernels.mlir is missing from the jar");
                }
                Files.write(kernels, in.readAllBytes());
            }
            Path output = dir.resolve("kernels.out.mlir");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = GpuTranslate.run(new String[] {"--emit=mlir", "--compile-kernels", "--gpu-format=assembly", "-o",
                output.toString(), kernels.toString()}, InputStream.nullInputStream(), OutputStream.nullOutputStream(),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            if (code != 0) {
                System.err.print(err.toString(StandardCharsets.UTF_8));
                throw new IOException("training run --compile-kernels failed with exit code " + code);
            }
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Links the class around each nested class of mgpu's jars, without initialising it, for the dynamic
     * archive that a JVM writes when it cannot write a static one: JDK 17 archives a lambda there only where
     * the class that makes it has a linked nest host by then, and a class whose nested classes alone run (such
     * as a dialect's table of ops) is never linked otherwise, so the lambdas of those ops were made again at
     * each run. The build asks for it ({@code -Dmgpu.cds.linkNestHosts=true}) for that archive alone: the
     * static one holds those lambdas either way (without this step, a run of the training's host input made
     * no lambda of mgpu's), and the outer classes and those their methods name would only make it larger.
     */
    private static void linkNestHosts() throws IOException {
        ClassLoader loader = CdsTraining.class.getClassLoader();
        for (Class<?> module : List.of(CdsTraining.class, Mgpu.class, Attribute.class)) {
            Path jar;
            try {
                jar = Path.of(module.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
            if (!Files.isRegularFile(jar)) {
                continue;
            }
            try (JarFile j = new JarFile(jar.toFile())) {
                for (String host : j.stream().map(JarEntry::getName)
                        .filter(n -> n.startsWith("dev/mgpu/") && n.endsWith(".class") && n.indexOf('$') > 0)
                        .map(n -> n.substring(0, n.indexOf('$')).replace('/', '.')).distinct().toList()) {
                    try {
                        // Asking for a class's methods links it (HotSpot), and runs none of its code.
                        Class.forName(host, false, loader).getDeclaredMethods();
                    } catch (ClassNotFoundException e) {
                        throw new IOException(e);
                    }
                }
            }
        }
    }
}
