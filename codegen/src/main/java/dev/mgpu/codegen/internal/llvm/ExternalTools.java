package dev.mgpu.codegen.internal.llvm;

import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The programs a target's objects are finished with (ptxas, fatbinary, lld, cc): found, run with their
 * output in a file, in temporary directories that are removed afterwards.
 */
public final class ExternalTools {
    private ExternalTools() {
    }

    /** Where a run that only shows its commands ({@code -###}) sends them, on this thread; null otherwise. */
    private static final dev.mgpu.ir.DeepStack.Carried<java.util.function.Consumer<List<String>>> SHOWN =
            new dev.mgpu.ir.DeepStack.Carried<>();

    /**
     * Runs {@code body} with every command that a tool would run given to {@code shown} instead of run. The
     * output a command names ({@code -o FILE}, {@code --create FILE}) is left empty, so that the steps
     * after it go on.
     */
    public static <T> T showing(java.util.function.Consumer<List<String>> shown, java.util.function.Supplier<T> body) {
        return SHOWN.with(shown, body);
    }

    /** Whether commands are only shown on this thread ({@code -###}). */
    public static boolean showing() {
        return SHOWN.get() != null;
    }

    /** {@code preferred} when it is an executable file, else {@code name} in {@code $CUDA_HOME/bin}, then PATH. */
    public static Path findTool(String name, Path preferred) {
        if (preferred != null) {
            return Files.isExecutable(preferred) ? preferred : null;
        }
        List<Path> dirs = new ArrayList<>();
        String home = System.getenv("CUDA_HOME");
        if (home != null && !home.isEmpty()) {
            dirs.add(Path.of(home, "bin"));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String p : path.split(File.pathSeparator)) {
                if (!p.isEmpty()) {
                    dirs.add(Path.of(p));
                }
            }
        }
        for (Path dir : dirs) {
            Path p = dir.resolve(name);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    public static String location(Operation op) {
        return op.knownLocation().toString();
    }

    /**
     * Runs a tool with its output in a file (so a hung tool cannot block the reader), within 300 s, and
     * returns what it printed (empty when the command is only shown).
     */
    /**
     * Runs a linker on {@code obj} and returns what it wrote: the object goes to {@code kernels.o} in a
     * temporary directory, {@code command} makes the linker's process from that file and the output's path
     * ({@code kernels.} and {@code extension}), and the directory is removed afterwards.
     *
     * @param module the gpu.module, where errors are located
     * @param obj the object to link
     * @param extension the output's extension, such as {@code so}
     * @param command the linker's process, from the input's and the output's paths
     * @param tool the linker's name in errors
     * @return the linked output
     */
    public static byte[] link(Operation module, byte[] obj, String extension,
            java.util.function.BiFunction<Path, Path, ProcessBuilder> command, String tool) {
        Path dir = tempDir(module);
        try {
            Path in = dir.resolve("kernels.o");
            Path out = dir.resolve("kernels." + extension);
            Files.write(in, obj);
            run(module, command.apply(in, out), tool);
            return Files.readAllBytes(out);
        } catch (IOException e) {
            throw new MgpuException(module.knownLocation(), "Invalid temporary files for " + tool + " (must be"
                    + " writable): " + e.getMessage());
        } finally {
            deleteTree(dir);
        }
    }

    public static String run(Operation module, List<String> cmd, String tool) {
        return run(module, new ProcessBuilder(cmd), tool);
    }

    public static String run(Operation module, ProcessBuilder command, String tool) {
        java.util.function.Consumer<List<String>> shown = SHOWN.get();
        if (shown != null) {
            List<String> cmd = List.copyOf(command.command());
            shown.accept(cmd);
            for (int i = 0; i + 1 < cmd.size(); i++) {
                if (cmd.get(i).equals("-o") || cmd.get(i).equals("--create")) {
                    try {
                        Files.write(Path.of(cmd.get(i + 1)), new byte[0]);
                    } catch (IOException e) {
                        throw new MgpuException(module.knownLocation(), "Invalid temporary file (must be writable): "
                                + e.getMessage());
                    }
                }
            }
            return "";
        }
        Path log = null;
        try {
            log = Files.createTempFile("mgpu-" + tool, ".log");
            Process p = command.redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new MgpuException(module.knownLocation(), "Invalid " + tool + " run (must finish within 300 s)");
            }
            if (p.exitValue() != 0) {
                throw new MgpuException(module.knownLocation(), "Invalid kernels for " + tool + " (must be accepted;"
                        + " it exited with " + p.exitValue() + "): " + withoutTemporaryDirectories(Files.readString(log,
                        StandardCharsets.UTF_8)).strip());
            }
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MgpuException(module.knownLocation(), "Invalid " + tool + " (must be runnable): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MgpuException(module.knownLocation(), "Invalid " + tool + " run (interrupted)");
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException e) {
                    // Left to the system's cleaning of temporary files.
                }
            }
        }
    }

    /**
     * {@code text} with the temporary directories of the tools' files left out of the paths it names
     * ({@code /tmp/mgpu-kernels123/kernels.ptx} is {@code kernels.ptx}): a message says the same in every run.
     */
    public static String withoutTemporaryDirectories(String text) {
        return text.replaceAll("[^\\s'\"`]*/mgpu-(?:kernels|llc)[0-9]+/", "");
    }

    public static Path tempDir(Operation module) {
        return tempDir("mgpu-kernels", module.knownLocation());
    }

    /**
     * A new temporary directory whose name starts with {@code prefix}; one that cannot be made is an error at
     * {@code where}.
     *
     * @param prefix the start of its name
     * @param where where the error is located
     * @return the directory
     */
    public static Path tempDir(String prefix, dev.mgpu.ir.Location where) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new MgpuException(where, "Invalid temporary directory (must be writable): " + e.getMessage());
        }
    }

    public static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A temporary file that cannot be deleted is left to the system's cleaning.
        }
    }
}
