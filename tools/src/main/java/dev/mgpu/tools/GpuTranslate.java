package dev.mgpu.tools;

import dev.mgpu.codegen.CodegenOptions;
import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code gpu-translate}: MLIR GPU dialect in, LLVM host module out.
 *
 * <p>Exit codes: 0 on success; 1 for bad input, with {@code file:line:col: error: message} on stderr and no
 * output file left behind, and for an output that cannot be written or a C compiler that cannot be run; 2
 * for bad usage.
 *
 * <p>The arguments are parsed here rather than by a library: the tool runs once per file in builds, and
 * starting the JVM is most of a small file's time, so every class loaded at start counts.
 */
public final class GpuTranslate {
    static final int EXIT_OK = 0;
    static final int EXIT_INPUT = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_INTERNAL = 3;

    /** This build's version, from its jar's manifest. */
    static String version() {
        String v = GpuTranslate.class.getPackage().getImplementationVersion();
        return "gpu-translate " + (v != null ? v : "(unpackaged build)") + "\n  LLVM " + Mgpu.llvmVersion() + "\n";
    }

    static final String HELP = """
            Usage: gpu-translate [options] [INPUT|-]   or   gpu-translate --output-dir=DIR [options] INPUT...
            Translates MLIR GPU-dialect host programs into LLVM host modules that launch their kernels
            through the mgpu runtime.

              INPUT                    Input .mlir file, or - (or nothing) for stdin.
              -o FILE                  Output file, or - for stdout (text only).
              --output-dir=DIR         Translate every INPUT given (several may be) into DIR/NAME.EXT,
                                       EXT that of --emit, in one run.
              --emit=KIND              mlir, llvm, bc, obj, asm or exe. Default: from the extension of -o,
                                       else llvm.
              --module-load=STRATEGY   lazy (default), ctor or per-launch.
              --target-triple=TRIPLE   Target triple; default: the host.
              -g                       DWARF line tables for the host code, at the lines of the input.
              -O0, -O1, -O2, -O3       Code generation level for obj, asm and exe, as llc's. Default: -O2.
              --mcpu=CPU               Host CPU to generate code for, as llc names it (native: this
                                       machine's). Default: a generic CPU of the target.
              --mattr=FEATURES         Host CPU features, as llc's -mattr: +avx2,-sse4a,...
              --compile-kernels        With --emit=mlir: print the module with each compiled gpu.module
                                       replaced by its gpu.binary (translation always compiles them).
              --outline-kernels        With --emit=mlir: print the module with each gpu.launch outlined into a
                                       kernel and a gpu.launch_func (translation always outlines them).
              --targets=LIST           Targets of outlined kernels: nvvm:CHIP, rocdl:CHIP and cpu, comma-
                                       separated (nvvm:sm_90,rocdl:gfx90a,cpu). Default: cpu.
              --gpu-format=FORMAT      Objects of compiled kernels: offload (LLVM bitcode), assembly (PTX,
                                       AMDGPU assembly), binary (cubin, HSACO) or fatbin (default; an HSACO
                                       for AMD), as gpu-module-to-binary's format.
              --ptxas=PATH             ptxas for cubins and fat binaries. Default: $CUDA_HOME/bin, then PATH;
                                       without one, PTX is embedded and the driver compiles it (a note).
              --embed=NAME=FILE        Replace the blob of every object whose string is "@file:NAME" by
                                       FILE's bytes (repeatable).
              --split-input-file       Split the input on '// -----' and process each part.
              --verify-diagnostics     Check '// expected-error @+N {{text}}' annotations (also -warning,
                                       -note, -remark; @-N, @above, @below) instead of failing.
              --mlir-print-debuginfo   Print locations with --emit=mlir.
              --mlir-print-op-generic  Print the generic op form with --emit=mlir.
              --runtime-lib=DIR        Where libmgpu is, for --emit=exe.
              -MD, -MF FILE            Write a Make dependency file naming INPUT and every --embed file:
                                       OUTPUT.d, or FILE (as clang's -MD -MF).
              --color=WHEN             Colour diagnostics: auto (on a terminal, unless NO_COLOR is set),
                                       always or never.
              -v, --verbose            Print a table of the time of each phase at the end.
              -h, --help               Show this help and exit.
              -V, --version            Print the version and exit.

            An option's value follows it as --name=VALUE or as the next argument; given twice, the last
            one counts. Long options may be spelt with one dash (-split-input-file), and @FILE reads
            more arguments from FILE. Exit codes: 0 success, 1 bad input, 2 bad usage.
            """;

    String input;
    String output;
    String emit;
    String moduleLoad = "lazy";
    String triple;
    int optLevel = 2;
    String cpu;
    String features;
    List<String> embeds = new ArrayList<>();
    boolean split;
    boolean verifyDiagnostics;
    boolean printDebugInfo;
    boolean printGeneric;
    String runtimeLib;
    boolean verbose;
    final List<String> inputs = new ArrayList<>();
    String outputDir;
    boolean depFile;
    boolean debugInfo;
    String depFilePath;
    String color = "auto";
    boolean compileKernels;
    boolean outlineKernels;
    String targets;
    String gpuFormat;
    String ptxas;
    private final PhaseTimes times = new PhaseTimes();

    private final PrintStream err;
    private final InputStream stdin;
    private final OutputStream stdout;
    private final boolean stdoutIsTerminal;
    private final boolean stderrIsTerminal;
    /** Whether whoever asked for this run has gone: then nothing it asked for is put in place. */
    private final BooleanSupplier abandoned;

    GpuTranslate(InputStream stdin, OutputStream stdout, PrintStream err, boolean stdoutIsTerminal,
            boolean stderrIsTerminal, BooleanSupplier abandoned) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.err = err;
        this.stdoutIsTerminal = stdoutIsTerminal;
        this.stderrIsTerminal = stderrIsTerminal;
        this.abandoned = abandoned;
        this.printer = new DiagnosticPrinter(err, false);
    }

    /**
     * Runs the tool on the process's standard streams and exits with its exit code. A failure to close
     * standard output (a full disk, for example) is reported and turns success into failure.
     *
     * @param args the command line; {@code --help} lists the options
     */
    public static void main(String[] args) {
        // Not System.out: a PrintStream swallows write errors, and a full disk must not look like success.
        FileOutputStream stdout = new FileOutputStream(FileDescriptor.out);
        processStart = processStartNanos();
        int code = run(args, System.in, stdout, System.err, stdoutIsTerminal(), isTerminal(2), () -> false);
        if (code == EXIT_OK) {
            try {
                stdout.close();
            } catch (IOException e) {
                code = outputError(System.err, null, e);
            }
        }
        System.exit(code);
    }

    /**
     * Runs the tool with the given streams, {@code out} not a terminal, and returns its exit code.
     *
     * @param args the command line
     * @param in standard input, read when the input is {@code -}
     * @param out standard output
     * @param err where diagnostics and errors go
     * @return the exit code: 0 on success, 1 when the input is rejected or output fails, 2 for a usage error, 3 for an internal error
     */
    public static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
        return run(args, in, out, err, false);
    }

    /**
     * Runs the tool with the given streams and returns its exit code; {@code outIsTerminal} says whether
     * {@code out} is a terminal, which binary output must not go to.
     *
     * @param args the command line
     * @param in standard input, read when the input is {@code -}
     * @param out standard output
     * @param err where diagnostics and errors go
     * @param outIsTerminal whether {@code out} is a terminal
     * @return the exit code: 0 on success, 1 when the input is rejected or output fails, 2 for a usage error, 3 for an internal error
     */
    public static int run(String[] args, InputStream in, OutputStream out, PrintStream err, boolean outIsTerminal) {
        return run(args, in, out, err, outIsTerminal, false, () -> false);
    }

    /**
     * Runs the tool as {@link #run(String[], InputStream, OutputStream, PrintStream, boolean)} does, for a
     * caller whose standard error may be a terminal and who may go away: once {@code abandoned} says so, no
     * output is put in place (what was written is deleted) and the run ends with {@link #EXIT_INPUT}.
     */
    static int run(String[] args, InputStream in, OutputStream out, PrintStream err, boolean outIsTerminal,
            boolean errIsTerminal, BooleanSupplier abandoned) {
        GpuTranslate tool = new GpuTranslate(in, out, err, outIsTerminal, errIsTerminal, abandoned);
        try {
            String answer = tool.parse(args);
            if (answer != null) {
                out.write(answer.getBytes(StandardCharsets.UTF_8));
                out.flush();
                return EXIT_OK;
            }
        } catch (UsageError e) {
            err.println("gpu-translate: error: " + e.getMessage());
            err.println("Usage: gpu-translate [options] INPUT|-   (see --help)");
            return EXIT_USAGE;
        } catch (IOException e) {
            return outputError(err, null, e);
        }
        long start = processStart != 0 ? processStart : System.nanoTime();
        try {
            return tool.call();
        } catch (RuntimeException | Error e) {
            err.println("gpu-translate: internal error: " + e);
            e.printStackTrace(err);
            return EXIT_INTERNAL;
        } finally {
            if (tool.verbose && !tool.times.isEmpty()) {
                tool.times.print(err, System.nanoTime() - start);
            }
        }
    }

    /** When this process started, on {@link System#nanoTime()}'s scale, so -v counts the JVM's start-up. */
    private static volatile long processStart;

    /**
     * The launcher's start as {@link System#nanoTime()} would have read it: the launcher passes its
     * {@code $EPOCHREALTIME} (seconds.microseconds) as {@code mgpu.launched}; without it, now.
     */
    private static long processStartNanos() {
        long now = System.nanoTime();
        String launched = System.getProperty("mgpu.launched", "");
        try {
            java.math.BigDecimal seconds = new java.math.BigDecimal(launched.replace(',', '.'));
            java.time.Instant at = java.time.Instant.ofEpochSecond(0, seconds.movePointRight(9).longValueExact());
            long ago = java.time.Duration.between(at, java.time.Instant.now()).toNanos();
            return ago >= 0 && ago < 60_000_000_000L ? now - ago : now;
        } catch (NumberFormatException | ArithmeticException e) {
            return now;
        }
    }

    private static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String m) {
            super(m);
        }
    }

    /**
     * Reads {@code args} into this tool's fields. Returns the text to print instead of running (for
     * {@code --help} and {@code --version}), else null.
     */
    private String parse(String[] given) throws UsageError {
        String[] args;
        try {
            args = CommandLine.expand(List.of(given)).toArray(new String[0]);
        } catch (CommandLine.BadResponseFile e) {
            throw new UsageError(e.getMessage());
        }
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String a = options ? CommandLine.doubleDash(args[i], LONG_OPTIONS) : args[i];
            if (!options || a.equals("-") || !a.startsWith("-")) {
                inputs.add(a);
                input = a;
                continue;
            }
            if (a.equals("--")) {
                options = false;
                continue;
            }
            String name = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            } else if (a.startsWith("-o") && a.length() > 2) {
                name = "-o";
                value = a.substring(a.charAt(2) == '=' ? 3 : 2);
            }
            if (name.matches("-O[0-3]")) {
                optLevel = name.charAt(2) - '0';
                continue;
            }
            if (name.startsWith("-O")) {
                throw new UsageError("Invalid optimisation level (must be -O0, -O1, -O2 or -O3): " + a);
            }
            switch (name) {
                case "-h", "--help", "-V", "--version", "-v", "--verbose", "--split-input-file",
                        "--verify-diagnostics", "--mlir-print-debuginfo", "--mlir-print-op-generic", "-MD", "-g",
                        "--compile-kernels", "--outline-kernels" -> {
                    if (value != null) {
                        throw new UsageError("Invalid " + name + " (must have no value): " + a);
                    }
                    switch (name) {
                        case "-h", "--help" -> {
                            return HELP;
                        }
                        case "-V", "--version" -> {
                            return version();
                        }
                        case "-v", "--verbose" -> verbose = true;
                        case "--split-input-file" -> split = true;
                        case "--verify-diagnostics" -> verifyDiagnostics = true;
                        case "--mlir-print-debuginfo" -> printDebugInfo = true;
                        case "-MD" -> depFile = true;
                        case "-g" -> debugInfo = true;
                        case "--compile-kernels" -> compileKernels = true;
                        case "--outline-kernels" -> outlineKernels = true;
                        default -> printGeneric = true;
                    }
                }
                case "-o", "--emit", "--module-load", "--target-triple", "--embed", "--runtime-lib", "--mcpu",
                        "--mattr", "--color", "-MF", "--output-dir", "--gpu-format", "--ptxas", "--targets" -> {
                    if (value == null) {
                        if (i + 1 == args.length) {
                            throw new UsageError("Invalid " + name + " (must be followed by its value): end of"
                                    + " arguments");
                        }
                        value = args[++i];
                    }
                    switch (name) {
                        case "-o" -> output = value;
                        case "--emit" -> emit = value;
                        case "--module-load" -> moduleLoad = value;
                        case "--target-triple" -> triple = value;
                        case "--embed" -> embeds.add(value);
                        case "--mcpu" -> cpu = value;
                        case "--mattr" -> features = value;
                        case "--color" -> color = value;
                        case "--output-dir" -> outputDir = value;
                        case "--gpu-format" -> gpuFormat = value;
                        case "--ptxas" -> ptxas = value;
                        case "--targets" -> targets = value;
                        case "-MF" -> {
                            depFilePath = value;
                            depFile = true;
                        }
                        default -> runtimeLib = value;
                    }
                }
                default -> {
                    String near = CommandLine.suggestion(name, ALL_OPTIONS);
                    throw new UsageError("Invalid option (must be one that --help lists"
                            + (near == null ? "" : "; did you mean " + near + "?") + "): " + a);
                }
            }
        }
        if (input == null) {
            input = "-";
        }
        if (inputs.size() > 1 && outputDir == null) {
            throw new UsageError("Invalid argument (must be the only INPUT, or give --output-dir for several): "
                    + inputs.get(1));
        }
        if (outputDir != null && output != null) {
            throw new UsageError("Invalid -o with --output-dir (must be one or the other): -o " + output);
        }
        for (String f : fileArguments()) {
            try {
                Path.of(f);
            } catch (java.nio.file.InvalidPathException e) {
                // The JVM read the argument in the locale's charset (LC_ALL, LANG), which lacks a character of it.
                throw new UsageError("Invalid file name (must be one that the locale's charset can hold; a UTF-8"
                        + " locale holds any): " + f);
            }
        }
        return null;
    }

    /** The files that the arguments name: inputs, outputs, the dependency file, --embed files, and tools. */
    private List<String> fileArguments() {
        List<String> files = new ArrayList<>(inputs);
        files.addAll(java.util.Arrays.asList(output, outputDir, depFilePath, runtimeLib, ptxas));
        for (String e : embeds) {
            files.add(e.substring(e.indexOf('=') + 1));
        }
        files.removeIf(f -> f == null || f.equals("-"));
        return files;
    }

    /** The targets of --targets (nvvm:CHIP, rocdl:CHIP, cpu), or null for the default. */
    private List<GpuTarget> targets() {
        if (targets == null) {
            return null;
        }
        List<GpuTarget> out = new ArrayList<>();
        for (String t : targets.split(",", -1)) {
            if (t.equals("cpu")) {
                out.add(GpuTarget.CpuTarget.host());
            } else if (t.startsWith("nvvm:") && t.length() > 5) {
                out.add(GpuTarget.NVVMTarget.of(t.substring(5)));
            } else if (t.startsWith("rocdl:") && t.length() > 6) {
                out.add(GpuTarget.ROCDLTarget.of(t.substring(6)));
            } else {
                throw new MgpuException(Location.UNKNOWN, "Invalid --targets entry (must be nvvm:CHIP, rocdl:CHIP or"
                        + " cpu): " + t);
            }
        }
        return out;
    }

    /** The object format of --gpu-format, or null for the default; upstream's names and short forms. */
    private ObjectFormat gpuFormat() {
        if (gpuFormat == null) {
            return null;
        }
        return switch (gpuFormat) {
            case "offload", "offloading", "llvm" -> ObjectFormat.OFFLOAD;
            case "assembly", "isa" -> ObjectFormat.ASSEMBLY;
            case "binary", "bin" -> ObjectFormat.BINARY;
            case "fatbin", "fatbinary" -> ObjectFormat.FATBIN;
            default -> throw new MgpuException(Location.UNKNOWN, "Invalid --gpu-format (must be offload, assembly,"
                    + " binary or fatbin): " + gpuFormat);
        };
    }

    /** The long options, which may also be spelt with one dash. */
    static final List<String> LONG_OPTIONS = List.of("--help", "--version", "--verbose", "--split-input-file",
            "--verify-diagnostics", "--mlir-print-debuginfo", "--mlir-print-op-generic", "--emit", "--module-load",
            "--target-triple", "--embed", "--runtime-lib", "--mcpu", "--mattr", "--color", "--output-dir",
            "--compile-kernels", "--gpu-format", "--ptxas", "--outline-kernels", "--targets");

    /** Every option, for suggestions. */
    static final List<String> ALL_OPTIONS;

    static {
        List<String> all = new ArrayList<>(LONG_OPTIONS);
        all.addAll(List.of("-o", "-O0", "-O1", "-O2", "-O3", "-v", "-h", "-V", "-MD", "-MF", "-g"));
        ALL_OPTIONS = List.copyOf(all);
    }

    /**
     * Runs the tool once per input: with --output-dir, each INPUT goes to DIR/NAME.EXT (NAME its file name
     * without .mlir, EXT the extension of --emit, llvm by default), in one JVM; the exit code is the worst.
     */
    private int call() {
        if (outputDir == null) {
            return callOne();
        }
        if (emit == null) {
            emit = "llvm";
        }
        EmitKind k = EmitKind.fromOption(emit.toLowerCase(Locale.ROOT));
        if (k == null || k == EmitKind.EXE) {
            printer.toolError("Invalid --emit with --output-dir (must be mlir, llvm, bc, obj or asm): " + emit);
            return EXIT_USAGE;
        }
        try {
            Files.createDirectories(Path.of(outputDir));
        } catch (IOException | java.nio.file.InvalidPathException e) {
            printer.toolError("Invalid --output-dir (must be a directory that can be made): " + outputDir + ": "
                    + e.getMessage());
            return EXIT_INPUT;
        }
        int worst = EXIT_OK;
        for (String in : inputs) {
            if (in.equals("-")) {
                printer.toolError("Invalid INPUT with --output-dir (must be a file, not stdin): -");
                return EXIT_USAGE;
            }
            String name = Path.of(in).getFileName().toString();
            name = name.endsWith(".mlir") ? name.substring(0, name.length() - 5) : name;
            input = in;
            output = Path.of(outputDir).resolve(name + k.extension()).toString();
            worst = Math.max(worst, callOne());
            if (worst == EXIT_USAGE) {
                return worst;
            }
        }
        return worst;
    }

    /** Plain until --color is checked, at each input's start: errors of --output-dir itself come before. */
    private DiagnosticPrinter printer;

    /**
     * The linker's logger, made only when an executable is linked: setting up the logging library takes
     * about 30 ms at start-up, more than a small kernel's translation.
     */
    private Logger linkLog() {
        if (verbose) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        }
        return LoggerFactory.getLogger(GpuTranslate.class);
    }

    private int callOne() {
        EmitKind kind;
        LoadStrategy strategy;
        try {
            if (!List.of("auto", "always", "never").contains(color)) {
                throw new UsageError("Invalid --color (must be auto, always or never): " + color);
            }
            printer = new DiagnosticPrinter(err, color.equals("always")
                    || color.equals("auto") && stderrIsTerminal && System.getenv("NO_COLOR") == null);
            kind = resolveKind();
            strategy = LoadStrategy.fromOption(moduleLoad);
            if (strategy == null) {
                throw new UsageError("Invalid --module-load (must be lazy, ctor or per-launch): " + moduleLoad);
            }
            if (verifyDiagnostics && kind != EmitKind.MLIR && output != null && !output.equals("-")) {
                // Diagnostics checking writes no output file.
                output = null;
            }
            if ((output == null || output.equals("-")) && kind.isBinary() && kind != EmitKind.EXE
                    && !verifyDiagnostics && stdoutIsTerminal) {
                throw new UsageError("Invalid stdout for --emit=" + kind.option()
                        + " (must not be a terminal for binary output): a terminal; redirect it or use -o FILE");
            }
            if (depFile && (output == null || output.equals("-"))) {
                throw new UsageError("Invalid -MD/-MF (must come with -o FILE, the target the dependency file"
                        + " names): " + (output == null ? "no -o" : "-o -"));
            }
            if (kind == EmitKind.EXE && (output == null || output.equals("-"))) {
                throw new UsageError("Invalid output for --emit=exe (must be a file given with -o): "
                        + (output == null ? "none" : "-"));
            }
        } catch (UsageError e) {
            printer.toolError(e.getMessage());
            return EXIT_USAGE;
        }
        if (kind != EmitKind.MLIR) {
            if (triple != null || cpu != null || features != null) {
                String problem = tripleProblem();
                if (problem != null) {
                    printer.toolError(problem);
                    return EXIT_USAGE;
                }
            }
        }
        String name = input.equals("-") ? "<stdin>" : input;
        byte[] bytes;
        long t0 = System.nanoTime();
        try {
            bytes = input.equals("-") ? MlirParser.readStream(stdin) : MlirParser.readFile(Path.of(input));
        } catch (NoSuchFileException e) {
            err.println(name + ": error: Invalid input (must be a readable file): no such file");
            return EXIT_INPUT;
        } catch (IOException | SecurityException e) {
            err.println(name + ": error: Invalid input (must be a readable file): " + e.getMessage());
            return EXIT_INPUT;
        }
        times.since("read", t0);
        // LLVM loads while the input is parsed. Not earlier: reading a file first loads the JDK's own I/O
        // library, and a thread that loads a native library waits for any other thread loading one, here
        // libLLVM for some 30 ms.
        if (kind != EmitKind.MLIR || compileKernels) {
            Mgpu.preloadNative();
        }
        List<MlirParser.Chunk> chunks = split ? MlirParser.split(bytes)
                : List.of(new MlirParser.Chunk(0, bytes.length));
        if (chunks.size() > 1 && kind == EmitKind.LLVM && !verifyDiagnostics && output != null && !output.equals("-")) {
            // A file of IR text holds one module; parts joined by '// -----' suit FileCheck on stdout only.
            printer.toolError("Invalid --split-input-file with --emit=llvm -o FILE (must have one part, as a file of"
                    + " LLVM IR holds one module; several parts go to stdout): " + chunks.size() + " parts");
            return EXIT_USAGE;
        }
        boolean failed = false;
        Sink sink;
        try {
            sink = kind == EmitKind.EXE || verifyDiagnostics ? Sink.none() : Sink.open(output, stdout);
        } catch (IOException e) {
            return outputError(err, output, e);
        }
        try (Sink textOut = sink) {
        byte[] binary = null;
        Mgpu.Options options;
        try {
            options = new Mgpu.Options(strategy, triple, Embeds.parse(embeds),
                    times,
                    new MlirPrinter.Options(printDebugInfo, printGeneric),
                    new CodegenOptions(optLevel, cpu, features, debugInfo),
                    new KernelOptions(gpuFormat(), ptxas == null ? null : Path.of(ptxas), err::println, targets()));
        } catch (MgpuException e) {
            boolean usage = e.location() instanceof Location.Unknown;
            for (Diagnostic d : e.diagnostics()) {
                err.println(usage ? "gpu-translate: error: " + d.message() : d.toString());
            }
            return usage ? EXIT_USAGE : EXIT_INPUT;
        }
        for (int i = 0; i < chunks.size(); i++) {
            MlirParser.Chunk c = chunks.get(i);
            if (i > 0 && !verifyDiagnostics && kind.isText()) {
                textOut.write("// -----\n".getBytes(StandardCharsets.US_ASCII));
            }
            List<Diagnostic> diags = new ArrayList<>();
            Operation module = null;
            long tp = System.nanoTime();
            try {
                module = MlirParser.parse(bytes, c.start(), c.end(), name);
                times.since("parse", tp);
            } catch (MgpuException e) {
                diags.addAll(e.diagnostics());
            }
            if (diags.isEmpty() && kind == EmitKind.MLIR) {
                try {
                    if (compileKernels) {
                        Mgpu.compileKernels(module, options);
                    } else if (outlineKernels) {
                        Mgpu.outlineKernels(module, options);
                    }
                    Mgpu.emit(module, kind, options, textOut.stream());
                } catch (MgpuException | UncheckedIOException e) {
                    if (textOut.failure() != null) {
                        throw textOut.failure();
                    }
                    if (e instanceof UncheckedIOException u) {
                        throw u.getCause();
                    }
                    diags.addAll(((MgpuException) e).diagnostics());
                }
            } else if (diags.isEmpty()) {
                try {
                    if (chunks.size() == 1 && !verifyDiagnostics && kind != EmitKind.EXE && textOut.file() != null) {
                        // One output file: LLVM writes it itself, without copying the module through Java.
                        Mgpu.emit(module, kind, options, textOut.file());
                        continue;
                    }
                    byte[] result = Mgpu.emit(module, kind == EmitKind.EXE ? EmitKind.OBJ : kind, options);
                    if (!verifyDiagnostics) {
                        if (kind.isText()) {
                            long tw = System.nanoTime();
                            textOut.write(result);
                            times.since("write", tw);
                        } else if (binary != null) {
                            err.println(name + ": error: Invalid --split-input-file (must have one part for"
                                    + " --emit=" + kind.option() + "): several parts");
                            return EXIT_USAGE;
                        } else {
                            binary = result;
                        }
                    }
                } catch (MgpuException e) {
                    diags.addAll(e.diagnostics());
                }
            }
            if (verifyDiagnostics) {
                List<String> problems = DiagnosticVerifier.check(name,
                        DiagnosticVerifier.expectations(bytes, c.start(), c.end()), diags);
                for (String p : problems) {
                    err.println(p);
                }
                failed |= !problems.isEmpty();
                continue;
            }
            if (!diags.isEmpty()) {
                for (Diagnostic d : diags) {
                    printer.report(d, bytes);
                }
                failed = true;
            }
        }
        if (failed) {
            return EXIT_INPUT;
        }
        if (verifyDiagnostics) {
            return EXIT_OK;
        }
        long tw = System.nanoTime();
        if (abandoned.getAsBoolean()) {
            return EXIT_INPUT;
        }
        if (kind == EmitKind.EXE) {
            try {
                Linker.link(binary, Path.of(output), runtimeLib, linkLog(), abandoned);
            } catch (Linker.CompilerMissing e) {
                printer.toolError("Invalid C compiler (must be runnable; CC names another): "
                        + e.getMessage());
                return EXIT_INPUT;
            }
        } else if (!kind.isText() && binary != null) {
            textOut.write(binary);
        }
        if (abandoned.getAsBoolean()) {
            return EXIT_INPUT;
        }
        textOut.commit();
        if (depFile) {
            List<String> prerequisites = new ArrayList<>();
            if (!input.equals("-")) {
                prerequisites.add(input);
            }
            prerequisites.addAll(Embeds.files(embeds));
            DepFile.write(depFilePath != null ? depFilePath : output + ".d", DepFile.text(output, prerequisites),
                    stdout);
        }
        times.since(kind == EmitKind.EXE ? "link" : "write", tw);
        } catch (MgpuException e) {
            for (Diagnostic d : e.diagnostics()) {
                printer.report(d, bytes);
            }
            return EXIT_INPUT;
        } catch (IOException e) {
            return outputError(err, output, e);
        } catch (UncheckedIOException e) {
            return outputError(err, output, e.getCause());
        }
        return EXIT_OK;
    }

    /** Prints {@code OUTPUT: error: ...} for a failed write to {@code output} (null or - for stdout). */
    private static int outputError(PrintStream err, String output, IOException e) {
        String what = output == null || output.equals("-") ? "<stdout>" : output;
        err.println(what + ": error: Invalid output (must be writable): " + Sink.reason(e));
        return EXIT_INPUT;
    }

    /**
     * What is wrong with {@code --target-triple}, {@code --mcpu} or {@code --mattr}, or null. Checked before the input is read: translating
     * an empty module finds the same problems the input's translation would, located in the input.
     */
    private String tripleProblem() {
        Operation empty = MlirParser.parse("module {}\n".getBytes(StandardCharsets.US_ASCII), 0, 10, "<triple>");
        try {
            Mgpu.emit(empty, EmitKind.LLVM, new Mgpu.Options(LoadStrategy.LAZY, triple, null, null, null,
                    new CodegenOptions(optLevel, cpu, features)));
            return null;
        } catch (MgpuException e) {
            return e.diagnostics().get(0).message();
        }
    }

    /**
     * Whether a run of {@code args} needs a process of its own, not a share of a resident one: one that names
     * a file of its own process ({@code /dev/stdout}, {@code /dev/fd/N}, {@code /proc/self/...}), or prints
     * the times of its phases, the process's start among them. A usage error is left for the run to report.
     */
    static boolean needsItsOwnProcess(String[] args) {
        if (ProcessFiles.inResponseFiles(List.of(args), 0)) {
            return true;
        }
        GpuTranslate tool = new GpuTranslate(InputStream.nullInputStream(), OutputStream.nullOutputStream(),
                new PrintStream(OutputStream.nullOutputStream()), false, false, () -> false);
        try {
            tool.parse(args);
        } catch (UsageError e) {
            return false;
        }
        if (tool.verbose) {
            return true;
        }
        for (String p : tool.fileArguments()) {
            if (ProcessFiles.named(p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether standard output is a terminal (whatever standard input is). */
    static boolean stdoutIsTerminal() {
        return isTerminal(1);
    }

    /** Whether file descriptor {@code fd} (1 or 2) is a terminal. */
    static boolean isTerminal(int fd) {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    private EmitKind resolveKind() throws UsageError {
        if (emit != null) {
            EmitKind k = EmitKind.fromOption(emit.toLowerCase(Locale.ROOT));
            if (k == null) {
                throw new UsageError("Invalid --emit (must be mlir, llvm, bc, obj, asm or exe): " + emit);
            }
            return k;
        }
        if (output == null || output.equals("-")) {
            return EmitKind.LLVM;
        }
        EmitKind k = EmitKind.fromExtension(output);
        if (k != null) {
            return k;
        }
        String file = Path.of(output).getFileName().toString();
        if (file.indexOf('.') > 0) {
            throw new UsageError("Invalid -o extension (must be .mlir, .ll, .bc, .o, .s, or none for an executable;"
                    + " or give --emit): " + output);
        }
        return EmitKind.EXE;
    }
}
