package dev.mgpu.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code mgpu:generate}: compiles each selected {@code .mlir} file under {@link #sourceDirectory} with
 * {@code gpu-translate} into {@link #outputDirectory}, at the same relative path, with the extension of
 * {@link #emit}: {@code .o} objects by default, or executables ({@code exe}) or shared libraries
 * ({@code shared}) linked with libmgpu.
 *
 * <p>The goal binds to {@code generate-resources} by default: what it makes is neither Java source nor
 * compiled from Java, and it must exist before {@code process-resources} (which can copy the outputs into
 * the jar when {@code target/mgpu} is listed as a resource directory), before the tests that run the
 * executables, and before {@code package}; it runs no later than it has to for any of them, and depends on
 * nothing the Java compiler makes.
 *
 * <p>Each input is compiled by one run of the CLI in a child JVM, which writes the output and a Make-style
 * dependency file ({@code -MD -MF OUTPUT.d}); a stamp {@code OUTPUT.args} holds the arguments of that run.
 * An input whose output is newer than every file its dependency file names, and whose stamp matches the
 * arguments of this build, is skipped. A compilation error fails the build with the compiler's
 * {@code file:line:col: error:} diagnostics, and leaves neither the output nor its stamp behind.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_RESOURCES, threadSafe = true)
public class GenerateMojo extends AbstractMojo {
    /** The kinds of {@code --emit}, with the extension each output gets. */
    static final Map<String, String> EXTENSIONS = Map.of("mlir", ".mlir", "llvm", ".ll", "bc", ".bc", "obj", ".o",
            "asm", ".s", "exe", "", "shared", ".so");

    /** The directory whose {@code .mlir} files are compiled. */
    @Parameter(property = "mgpu.sourceDirectory", defaultValue = "${project.basedir}/src/main/mlir")
    private File sourceDirectory;

    /** Patterns of the files under {@link #sourceDirectory} to compile; by default every {@code .mlir} file. */
    @Parameter
    private List<String> includes;

    /** Patterns of files that {@link #includes} selects but that are not to be compiled. */
    @Parameter
    private List<String> excludes;

    /** Where the outputs go, each at its input's path relative to {@link #sourceDirectory}. */
    @Parameter(property = "mgpu.outputDirectory", defaultValue = "${project.build.directory}/mgpu")
    private File outputDirectory;

    /**
     * What to make of each input ({@code --emit}): {@code obj}, {@code exe}, {@code asm}, {@code bc},
     * {@code llvm} or {@code mlir}; or {@code shared}, a library {@code libNAME.so} that the C compiler links
     * from the CLI's object {@code libNAME.o} and libmgpu.
     */
    @Parameter(property = "mgpu.emit", defaultValue = "obj")
    private String emit;

    /**
     * The targets of kernels that have none ({@code --targets}): {@code cpu}, {@code nvvm:CHIP},
     * {@code rocdl:CHIP}; a bare NVIDIA ({@code sm_90}) or AMD ({@code gfx90a}) chip gets its prefix.
     */
    @Parameter
    private List<String> targets;

    /** The code generation level ({@code -O}LEVEL): {@code 0} to {@code 3}, {@code s}, {@code z} or {@code g}. */
    @Parameter(property = "mgpu.optimizationLevel", defaultValue = "2")
    private String optimizationLevel;

    /** For {@code exe}: the function (no arguments, no results) that the program's {@code main} calls ({@code --entry-point}). */
    @Parameter(property = "mgpu.entryPoint")
    private String entryPoint;

    /** When device modules load ({@code --module-load}): {@code lazy}, {@code ctor} or {@code per-launch}. */
    @Parameter(property = "mgpu.moduleLoad")
    private String moduleLoad;

    /** The host triple ({@code --target-triple}); by default this machine's. */
    @Parameter(property = "mgpu.targetTriple")
    private String targetTriple;

    /** The host CPU ({@code --mcpu}). */
    @Parameter(property = "mgpu.cpu")
    private String cpu;

    /** The host CPU's features ({@code --mattr}), as {@code +avx2,-sse4a}. */
    @Parameter(property = "mgpu.features")
    private String features;

    /** The objects of compiled kernels ({@code --gpu-format}): {@code offload}, {@code assembly}, {@code binary} or {@code fatbin}. */
    @Parameter(property = "mgpu.gpuFormat")
    private String gpuFormat;

    /** The {@code ptxas} that makes cubins ({@code --ptxas}). */
    @Parameter(property = "mgpu.ptxas")
    private File ptxas;

    /** DWARF line tables at the lines of the {@code .mlir} file ({@code -g}). */
    @Parameter(property = "mgpu.debugInfo", defaultValue = "false")
    private boolean debugInfo;

    /** Kernels take each memref as a bare pointer ({@code --kernel-bare-ptr-calling-convention}). */
    @Parameter(property = "mgpu.barePointers", defaultValue = "false")
    private boolean barePointers;

    /** Blobs to embed ({@code --embed}), each {@code NAME=FILE}; a change to FILE rebuilds what embeds it. */
    @Parameter
    private List<String> embeds;

    /**
     * For {@code exe} and {@code shared}: the directory of {@code libmgpu.so} ({@code --runtime-lib}), which the executable is
     * linked against and finds again at run time (an rpath). By default {@code $MGPU_HOME/lib}, the
     * {@code lib} of an installed mgpu ({@code tools/make-image.sh}).
     */
    @Parameter(property = "mgpu.runtimeDirectory")
    private File runtimeDirectory;

    /** More arguments for the CLI, after the ones above: {@code -lNAME}, {@code -LDIR}, objects to link, ... */
    @Parameter
    private List<String> extraArguments;

    /** For {@code shared}: more arguments for the C compiler's link, after the object ({@code -lNAME}, ...). */
    @Parameter
    private List<String> linkArguments;

    /** Options for the compiler's JVM, such as {@code -Xmx2g}. */
    @Parameter
    private List<String> jvmArguments;

    /** Skips the goal. */
    @Parameter(property = "mgpu.skip", defaultValue = "false")
    private boolean skip;

    /** The project's directory, where the compiler runs. */
    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    private File basedir;

    /** The plugin's own dependencies: mgpu-tools and what it needs, the compiler's class path. */
    @Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
    private List<Artifact> pluginArtifacts;

    /** Creates the goal; Maven sets its parameters. */
    public GenerateMojo() {
    }

    /**
     * Compiles every selected input whose output is not up to date.
     *
     * @throws MojoExecutionException when the configuration is wrong or the compiler cannot be started
     * @throws MojoFailureException when an input does not compile
     */
    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("mgpu: skipped (mgpu.skip)");
            return;
        }
        String extension = EXTENSIONS.get(emit);
        if (extension == null) {
            throw new MojoExecutionException("Invalid emit (must be obj, exe, shared, asm, bc, llvm or mlir): "
                    + emit);
        }
        Path source = sourceDirectory.toPath().toAbsolutePath();
        List<String> inputs;
        try {
            inputs = Sources.select(source, orDefault(includes, List.of("**/*.mlir")), orDefault(excludes, List.of()));
        } catch (IOException e) {
            throw new MojoExecutionException("Cannot read " + source + ": " + e.getMessage(), e);
        }
        if (inputs.isEmpty()) {
            getLog().info("mgpu: no sources in " + source);
            return;
        }
        List<String> common = commonArguments();
        List<Path> classpath = classpath();
        Compiler compiler = new Compiler(Path.of(System.getProperty("java.home")), classpath,
                orDefault(jvmArguments, List.of()), basedir.toPath());
        Path out = outputDirectory.toPath().toAbsolutePath();
        boolean shared = emit.equals("shared");
        int built = 0;
        for (String input : inputs) {
            String name = input.replaceFirst("\\.mlir$", "");
            Path output = out.resolve(shared ? SharedLibrary.name(input, extension) : name + extension);
            // A shared library is linked from an object of the CLI's, beside it.
            Path translated = shared ? out.resolve(SharedLibrary.name(input, ".o")) : output;
            List<String> args = new ArrayList<>(common);
            args.addAll(List.of("-MD", "-MF", depFile(output).toString(), "-o", translated.toString(),
                    source.resolve(input).toString()));
            List<String> link = shared ? SharedLibrary.command(System.getenv().getOrDefault("CC", "cc"), translated,
                    output, Path.of(runtime()), orDefault(linkArguments, List.of())) : List.of();
            List<String> command = new ArrayList<>(compiler.command(args));
            command.addAll(link);
            if (compile(compiler, input, output, args, link, stamp(command, classpath))) {
                built++;
            }
        }
        getLog().info("mgpu: " + built + " of " + inputs.size() + " compiled, " + (inputs.size() - built)
                + " up to date, into " + outputDirectory);
    }

    /** Where the dependency file of {@code output} goes: beside it, {@code .d} added to its name. */
    private static Path depFile(Path output) {
        return output.resolveSibling(output.getFileName() + ".d");
    }

    /**
     * Compiles one input, then links it when {@code link} is a command, unless the output is up to date;
     * returns whether it ran the compiler.
     */
    private boolean compile(Compiler compiler, String input, Path output, List<String> args, List<String> link,
            String record) throws MojoExecutionException, MojoFailureException {
        Path stamp = output.resolveSibling(output.getFileName() + ".args");
        try {
            String reason = Freshness.staleReason(output, depFile(output), stamp, record);
            if (reason == null) {
                getLog().info("mgpu: " + input + " is up to date, skipped");
                return false;
            }
            getLog().info("mgpu: compiling " + input + " (" + reason + ")");
            // What an earlier run left must not outlive a failure of this one, nor look up to date.
            Files.deleteIfExists(stamp);
            Files.deleteIfExists(output);
            Files.createDirectories(output.getParent());
            getLog().debug("mgpu: " + String.join(" ", compiler.command(args)));
            check(compiler.run(args), "gpu-translate failed on " + input, output);
            if (!link.isEmpty()) {
                getLog().debug("mgpu: " + String.join(" ", link));
                check(Compiler.exec(link, basedir.toPath()), "the link of " + output.getFileName() + " failed", output);
            }
            Files.writeString(stamp, record, StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            throw new MojoExecutionException("mgpu: " + input + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("mgpu: interrupted while compiling " + input, e);
        }
    }

    /**
     * Fails the build with what a failed run printed, and without its output; shows what a run that worked
     * printed (notes) as a warning.
     */
    private void check(Compiler.Result r, String failure, Path output) throws IOException, MojoFailureException {
        String text = r.output().strip();
        if (r.exitCode() != 0) {
            for (String line : text.split("\n")) {
                getLog().error(line);
            }
            Files.deleteIfExists(output);
            throw new MojoFailureException(failure + " (exit " + r.exitCode() + "):\n" + text);
        }
        if (!text.isEmpty()) {
            getLog().warn(text);
        }
    }

    /** The CLI's arguments that every input gets. */
    private List<String> commonArguments() throws MojoExecutionException {
        String kind = emit.equals("shared") ? "obj" : emit;
        List<String> a = new ArrayList<>(List.of("--color=never", "--emit=" + kind, "-O" + optimizationLevel));
        if (targets != null && !targets.isEmpty()) {
            a.add("--targets=" + String.join(",", targets.stream().map(GenerateMojo::target).toList()));
        }
        option(a, "--entry-point=", entryPoint);
        option(a, "--module-load=", moduleLoad);
        option(a, "--target-triple=", targetTriple);
        option(a, "--mcpu=", cpu);
        option(a, "--mattr=", features);
        option(a, "--gpu-format=", gpuFormat);
        option(a, "--ptxas=", ptxas == null ? null : ptxas.getAbsolutePath());
        if (debugInfo) {
            a.add("-g");
        }
        if (barePointers) {
            a.add("--kernel-bare-ptr-calling-convention");
        }
        for (String e : orDefault(embeds, List.<String>of())) {
            a.add("--embed=" + e);
        }
        if (emit.equals("exe")) {
            a.add("--runtime-lib=" + runtime());
        }
        a.addAll(orDefault(extraArguments, List.<String>of()));
        return a;
    }

    /** The directory of libmgpu for {@code exe}: {@link #runtimeDirectory}, else {@code $MGPU_HOME/lib}. */
    private String runtime() throws MojoExecutionException {
        Path dir = runtimeDirectory != null ? runtimeDirectory.toPath()
                : System.getenv("MGPU_HOME") != null ? Path.of(System.getenv("MGPU_HOME"), "lib") : null;
        if (dir == null) {
            throw new MojoExecutionException("Invalid emit " + emit + " without a runtime (must set runtimeDirectory,"
                    + " -Dmgpu.runtimeDirectory or MGPU_HOME to where libmgpu.so is): no directory given");
        }
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs.resolve("libmgpu.so"))) {
            throw new MojoExecutionException("Invalid runtimeDirectory (must hold libmgpu.so): " + abs);
        }
        return abs.toString();
    }

    /**
     * The entry of {@code --targets} for a configured target: as given, or with the prefix of a bare chip's
     * back end.
     *
     * @param t a target as configured
     * @return its spelling for {@code --targets}
     */
    static String target(String t) {
        String s = t.trim();
        if (s.startsWith("sm_")) {
            return "nvvm:" + s;
        }
        return s.startsWith("gfx") ? "rocdl:" + s : s;
    }

    /** The jars of the plugin's dependencies. */
    private List<Path> classpath() throws MojoExecutionException {
        List<Path> jars = new ArrayList<>();
        for (Artifact a : pluginArtifacts) {
            // Not this plugin, nor the plexus-utils that Maven gives every plugin: the compiler uses neither.
            boolean forCompiler = !a.getArtifactId().equals("mgpu-maven-plugin") && !a.getArtifactId().equals("plexus-utils");
            if (forCompiler && a.getFile() != null && a.getFile().getName().endsWith(".jar")) {
                jars.add(a.getFile().toPath());
            }
        }
        if (pluginArtifacts.stream().noneMatch(a -> a.getArtifactId().equals("mgpu-tools"))) {
            throw new MojoExecutionException("Invalid plugin class path (must hold mgpu-tools): " + jars);
        }
        return jars;
    }

    /**
     * What a stamp holds: the command, an argument a line, then each jar of the compiler with its size and
     * time, so that a new build of mgpu (a snapshot, say) compiles everything again.
     *
     * @param command the command line
     * @param classpath the compiler's jars
     * @return the stamp's text
     */
    static String stamp(List<String> command, List<Path> classpath) {
        StringBuilder b = new StringBuilder();
        for (String c : command) {
            b.append(c).append('\n');
        }
        for (Path jar : classpath) {
            File f = jar.toFile();
            b.append("# ").append(f.getName()).append(' ').append(f.length()).append(' ').append(f.lastModified())
                    .append('\n');
        }
        return b.toString();
    }

    private static void option(List<String> args, String name, String value) {
        if (value != null && !value.isEmpty()) {
            args.add(name + value);
        }
    }

    private static <T> List<T> orDefault(List<T> list, List<T> fallback) {
        return list == null || list.isEmpty() ? fallback : list;
    }
}
