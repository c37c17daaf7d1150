package dev.mgpu.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gpu-translate} in a JVM of its own: the JVM of Maven's {@code java.home}, on the plugin's
 * dependencies, with the options of the CLI's launcher for a short single-threaded run. LLVM runs in that
 * process only, so that an abort inside it fails one compilation, not Maven.
 */
final class Compiler {
    /** The class whose {@code main} the child JVM runs. */
    static final String MAIN = "dev.mgpu.tools.GpuTranslate";

    private final List<String> prefix;
    private final Path workingDirectory;

    /** What one run printed (diagnostics, notes) and its exit code. */
    record Result(int exitCode, String output) {
    }

    /**
     * A compiler on {@code classpath}.
     *
     * @param javaHome the Java installation whose {@code bin/java} runs the compiler
     * @param classpath the jars of mgpu-tools and its dependencies
     * @param jvmArguments further options for the child JVM
     * @param workingDirectory the directory the compiler runs in
     */
    Compiler(Path javaHome, List<Path> classpath, List<String> jvmArguments, Path workingDirectory) {
        List<String> p = new ArrayList<>();
        p.add(javaHome.resolve("bin").resolve("java").toString());
        // As the launcher (tools/gpu-translate): the work is short and single-threaded, and LLVM's recursion
        // over deep nests wants a larger stack than the default.
        // Native access allowed: JavaCPP loads LLVM with System.load, of which a JDK from 22 on warns otherwise.
        p.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xss16m",
                "--enable-native-access=ALL-UNNAMED"));
        // The heap in huge pages where the kernel gives them on request, as the launcher asks (a JVM asked
        // for them where it cannot have them warns on every run).
        if (hugePagesOnRequest(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"))) {
            p.add("-XX:+UseTransparentHugePages");
        }
        p.addAll(jvmArguments);
        p.add("-cp");
        p.add(String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()));
        p.add(MAIN);
        this.prefix = List.copyOf(p);
        this.workingDirectory = workingDirectory;
    }

    /**
     * Whether {@code setting} (the kernel's transparent huge page mode) gives huge pages to a process that
     * asks for them: {@code [madvise]} or {@code [always]}.
     *
     * @param setting the file that holds the mode
     * @return true if it does; false when the file says otherwise or cannot be read
     */
    static boolean hugePagesOnRequest(Path setting) {
        try {
            String mode = java.nio.file.Files.readString(setting);
            return mode.contains("[madvise]") || mode.contains("[always]");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The command line that runs the compiler with {@code arguments}.
     *
     * @param arguments the CLI's arguments
     * @return the whole command, java first
     */
    List<String> command(List<String> arguments) {
        List<String> c = new ArrayList<>(prefix);
        c.addAll(arguments);
        return c;
    }

    /**
     * Runs the compiler with {@code arguments}, its standard input empty, and collects its output.
     *
     * @param arguments the CLI's arguments
     * @return its exit code and what it printed on standard output and error
     * @throws IOException when the JVM cannot be started
     * @throws InterruptedException when the build is interrupted; the child is ended first
     */
    Result run(List<String> arguments) throws IOException, InterruptedException {
        // glibc's malloc in huge pages too (LLVM's allocations), as the launcher sets it, unless the build's
        // environment has a tunable of its own.
        java.util.Map<String, String> env = System.getenv("GLIBC_TUNABLES") == null
                ? java.util.Map.of("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1") : java.util.Map.of();
        return exec(command(arguments), workingDirectory, env);
    }

    /**
     * Runs {@code command} in {@code directory}, its standard input empty, and collects its output.
     *
     * @param command the program and its arguments
     * @param directory the directory it runs in
     * @return its exit code and what it printed on standard output and error
     * @throws IOException when the program cannot be started
     * @throws InterruptedException when the build is interrupted; the program is ended first
     */
    static Result exec(List<String> command, Path directory) throws IOException, InterruptedException {
        return exec(command, directory, java.util.Map.of());
    }

    /**
     * Runs {@code command} in {@code directory} with {@code env} added to the environment, as
     * {@link #exec(List, Path)} does.
     *
     * @param command the program and its arguments
     * @param directory the directory it runs in
     * @param env variables to set for it
     * @return its exit code and what it printed on standard output and error
     * @throws IOException when the program cannot be started
     * @throws InterruptedException when the build is interrupted; the program is ended first
     */
    static Result exec(List<String> command, Path directory, java.util.Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        try (InputStream in = p.getInputStream()) {
            String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(), out);
        } finally {
            if (p.isAlive()) {
                p.destroy();
            }
        }
    }
}
