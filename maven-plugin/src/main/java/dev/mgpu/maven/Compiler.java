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
        p.addAll(jvmArguments);
        p.add("-cp");
        p.add(String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()));
        p.add(MAIN);
        this.prefix = List.copyOf(p);
        this.workingDirectory = workingDirectory;
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
        return exec(command(arguments), workingDirectory);
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
        Process p = new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
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
