package dev.mgpu.tools;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Runs gpu-translate in-process on a small representative input, once for each kind of output, so that
 * the build can record every class a run loads ({@code -XX:DumpLoadedClassList}) in a class-data-sharing
 * archive; the launcher then maps those classes instead of loading them, which is a good part of a small
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
            // The kernels printed as they are, then compiled twice: a rebuild writes over an output that is
            // there, whose mode it keeps.
            String[][] runs = {{"--emit=mlir"}, {"--emit=mlir", "--compile-kernels", "--gpu-format=assembly"},
                {"--emit=mlir", "--compile-kernels", "--gpu-format=assembly"}};
            for (String[] options : runs) {
                String[] run = Arrays.copyOf(options, options.length + 3);
                run[options.length] = "-o";
                run[options.length + 1] = output.toString();
                run[options.length + 2] = kernels.toString();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code = GpuTranslate.run(run, InputStream.nullInputStream(), OutputStream.nullOutputStream(),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                if (code != 0) {
                    System.err.print(err.toString(StandardCharsets.UTF_8));
                    throw new IOException("training run " + String.join(" ", options) + " failed with exit code "
                            + code);
                }
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
}
