package dev.mgpu.tools;

import static dev.mgpu.tools.GpuTranslate.EXIT_INPUT;
import static dev.mgpu.tools.GpuTranslate.EXIT_OK;
import static dev.mgpu.tools.GpuTranslate.EXIT_USAGE;

import dev.mgpu.codegen.CodegenOptions;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code gpu-translate} on parsed {@link Options}: each input read, split into parts, parsed,
 * translated (or its diagnostics checked), and its output put in place only when every part passed.
 */
final class Translation {
    private static final byte[] PART_SEPARATOR = "// -----\n".getBytes(StandardCharsets.US_ASCII);

    private final Options options;
    private final PhaseTimes times = new PhaseTimes();
    private final InputStream stdin;
    private final OutputStream stdout;
    private final PrintStream err;
    private final boolean stdoutIsTerminal;
    private final boolean stderrIsTerminal;
    /** Whether whoever asked for this run has gone: then nothing it asked for is put in place. */
    private final BooleanSupplier abandoned;
    /** Plain until --color is checked, at each input's start: errors of --output-dir itself come before. */
    private DiagnosticPrinter printer;

    /** What one input emits, how its modules load, and where its output goes (null: nowhere, or stdout). */
    private record Plan(EmitKind kind, LoadStrategy strategy, String output) {
    }

    /**
     * A run of {@code options} on the given streams; {@code abandoned} says when whoever asked for it has gone,
     * after which no output is put in place.
     */
    Translation(Options options, InputStream stdin, OutputStream stdout, PrintStream err, boolean stdoutIsTerminal,
            boolean stderrIsTerminal, BooleanSupplier abandoned) {
        this.options = options;
        this.stdin = stdin;
        this.stdout = stdout;
        this.err = err;
        this.stdoutIsTerminal = stdoutIsTerminal;
        this.stderrIsTerminal = stderrIsTerminal;
        this.abandoned = abandoned;
        this.printer = new DiagnosticPrinter(err, false);
    }

    /** With {@code -v}, prints the time of each phase that ran, of {@code totalNanos} in all. */
    void printTimes(long totalNanos) {
        if (options.verbose() && !times.isEmpty()) {
            times.print(err, totalNanos);
        }
    }

    /** Translates the input, or each input of {@code --output-dir}, and returns the exit code. */
    int run() {
        if (options.outputDir() == null) {
            return translate(options.input(), options.output(), options.emit());
        }
        return translateEach();
    }

    /**
     * Translates each INPUT to DIR/NAME.EXT (NAME its file name without .mlir, EXT the extension of --emit,
     * llvm by default), in one JVM; the exit code is the worst, and a usage error stops the run.
     */
    private int translateEach() {
        String emit = options.emit() == null ? "llvm" : options.emit();
        EmitKind k = EmitKind.fromOption(emit.toLowerCase(Locale.ROOT));
        if (k == null || k == EmitKind.EXE) {
            printer.toolError("Invalid --emit with --output-dir (must be mlir, llvm, bc, obj or asm): " + emit);
            return EXIT_USAGE;
        }
        String outputDir = options.outputDir();
        List<String> outputs = new ArrayList<>();
        for (String in : options.inputs()) {
            Path file = in.equals("-") ? null : Path.of(in).getFileName();
            if (file == null) {
                printer.toolError("Invalid INPUT with --output-dir (must be a file, not stdin or a root): " + in);
                return EXIT_USAGE;
            }
            String name = file.toString();
            name = name.endsWith(".mlir") ? name.substring(0, name.length() - 5) : name;
            String output = Path.of(outputDir).resolve(name + k.extension()).toString();
            int same = OutputChecks.indexOfSame(outputs, output);
            if (same >= 0) {
                printer.toolError("Invalid INPUT with --output-dir (must not share its name with another INPUT, whose"
                        + " output it would replace): " + options.inputs().get(same) + " and " + in + " both write "
                        + output);
                return EXIT_USAGE;
            }
            int input = OutputChecks.indexOfSame(options.inputs(), output);
            if (input >= 0) {
                printer.toolError("Invalid output (must not be an input, which it would replace): -o " + output
                        + " is the input " + options.inputs().get(input));
                return EXIT_USAGE;
            }
            outputs.add(output);
        }
        try {
            Files.createDirectories(Path.of(outputDir));
        } catch (IOException | InvalidPathException e) {
            printer.toolError("Invalid --output-dir (must be a directory that can be made): " + outputDir + ": "
                    + e.getMessage());
            return EXIT_INPUT;
        }
        int worst = EXIT_OK;
        for (int i = 0; i < outputs.size(); i++) {
            worst = Math.max(worst, translate(options.inputs().get(i), outputs.get(i), emit));
            if (worst == EXIT_USAGE) {
                return worst;
            }
        }
        return worst;
    }

    /** Translates {@code input} ({@code -}: stdin) to {@code output} as {@code emit} says; the exit code. */
    private int translate(String input, String output, String emit) {
        Plan plan;
        try {
            plan = plan(output, emit);
            checkOutputs(input, plan);
        } catch (UsageError e) {
            printer.toolError(e.getMessage());
            return EXIT_USAGE;
        }
        if (plan.kind() != EmitKind.MLIR && (options.triple() != null || options.cpu() != null
                || options.features() != null)) {
            String problem = tripleProblem();
            if (problem != null) {
                printer.toolError(problem);
                return EXIT_USAGE;
            }
        }
        String name = input.equals("-") ? "<stdin>" : input;
        InputText text = read(input, name);
        if (text == null) {
            return EXIT_INPUT;
        }
        // LLVM loads while the input is parsed. Not earlier: reading a file first loads the JDK's own I/O
        // library, and a thread that loads a native library waits for any other thread loading one, here
        // libLLVM for some 30 ms.
        if (plan.kind() != EmitKind.MLIR || options.compileKernels()) {
            Mgpu.preloadNative();
        }
        List<MlirParser.Chunk> chunks = options.split() ? MlirParser.split(text.bytes())
                : List.of(new MlirParser.Chunk(0, text.bytes().length));
        if (chunks.size() > 1 && plan.kind() == EmitKind.LLVM && !options.verifyDiagnostics()
                && isFile(plan.output())) {
            // A file of IR text holds one module; parts joined by '// -----' suit FileCheck on stdout only.
            printer.toolError("Invalid --split-input-file with --emit=llvm -o FILE (must have one part, as a file of"
                    + " LLVM IR holds one module; several parts go to stdout): " + chunks.size() + " parts");
            return EXIT_USAGE;
        }
        if (options.showCommands()) {
            return Mgpu.showingExternalCommands(this::show, () -> write(input, name, text, chunks, plan));
        }
        return write(input, name, text, chunks, plan);
    }

    /** A command of -###, on stderr as clang shows one: each argument quoted, after a space. */
    private void show(List<String> command) {
        StringBuilder b = new StringBuilder();
        for (String a : command) {
            b.append(" \"").append(a.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        err.println(b);
    }

    /**
     * Checks that no output (the output file, the dependency file) names an input (the INPUT, an --embed
     * file) or another output, and that a dependency file can name every file: a run must never replace what
     * it reads, and Make cannot read a file name with a line break.
     */
    private void checkOutputs(String input, Plan plan) throws UsageError {
        List<String> inputs = new ArrayList<>();
        if (!input.equals("-")) {
            inputs.add(input);
        }
        inputs.addAll(Embeds.files(options.embeds()));
        String output = isFile(plan.output()) ? plan.output() : null;
        String depFile = options.depFile() && output != null
                ? (options.depFilePath() != null ? options.depFilePath() : DepFile.defaultPath(output)) : null;
        for (String[] o : new String[][] {{"-o", output}, {"-MF", depFile}}) {
            if (o[1] == null || o[1].equals("-")) {
                continue;
            }
            int same = OutputChecks.indexOfSame(inputs, o[1]);
            if (same >= 0) {
                throw new UsageError("Invalid output (must not be an input, which it would replace): " + o[0] + " "
                        + o[1] + " is the input " + inputs.get(same));
            }
        }
        if (depFile != null && !depFile.equals("-") && OutputChecks.indexOfSame(List.of(output), depFile) >= 0) {
            throw new UsageError("Invalid -MF (must not be the output, which it would replace): " + depFile);
        }
        if (depFile != null) {
            List<String> named = new ArrayList<>(inputs);
            named.add(output);
            for (String n : named) {
                if (n.indexOf('\n') >= 0 || n.indexOf('\r') >= 0) {
                    throw new UsageError("Invalid file name for -MD/-MF (must not hold a line break, which a"
                            + " dependency file cannot hold): " + n.replace("\n", "\\n").replace("\r", "\\r"));
                }
            }
        }
    }

    /**
     * Checks the options as they apply to one input's output; the kind comes from --emit or the extension of
     * {@code output}.
     */
    private Plan plan(String output, String emit) throws UsageError {
        String color = options.color();
        if (!List.of("auto", "always", "never").contains(color)) {
            throw new UsageError("Invalid --color (must be auto, always or never): " + color);
        }
        printer = new DiagnosticPrinter(err, color.equals("always")
                || color.equals("auto") && stderrIsTerminal && System.getenv("NO_COLOR") == null);
        EmitKind kind = resolveKind(emit, output);
        LoadStrategy strategy = LoadStrategy.fromOption(options.moduleLoad());
        if (strategy == null) {
            throw new UsageError("Invalid --module-load (must be lazy, ctor or per-launch): " + options.moduleLoad());
        }
        boolean verify = options.verifyDiagnostics();
        if (verify && kind != EmitKind.MLIR && isFile(output)) {
            // Diagnostics checking writes no output file.
            output = null;
        }
        if (!isFile(output) && kind.isBinary() && kind != EmitKind.EXE && !verify && stdoutIsTerminal) {
            throw new UsageError("Invalid stdout for --emit=" + kind.option()
                    + " (must not be a terminal for binary output): a terminal; redirect it or use -o FILE");
        }
        if (options.depFile() && !isFile(output)) {
            throw new UsageError("Invalid -MD/-MF (must come with -o FILE, the target the dependency file"
                    + " names): " + (output == null ? "no -o" : "-o -"));
        }
        if (kind == EmitKind.EXE && !isFile(output)) {
            throw new UsageError("Invalid output for --emit=exe (must be a file given with -o): "
                    + (output == null ? "none" : "-"));
        }
        if (kind != EmitKind.EXE && !options.linkInputs().isEmpty()) {
            throw new UsageError("Invalid " + options.linkInputs().get(0) + " (objects, libraries and -l/-L are linked"
                    + " only with --emit=exe)");
        }
        if (kind == EmitKind.MLIR && options.entryPoint() != null) {
            throw new UsageError("Invalid --entry-point with --emit=mlir (must emit LLVM code: llvm, bc, obj, asm or"
                    + " exe)");
        }
        return new Plan(kind, strategy, output);
    }

    /** Whether {@code output} names a file: it is neither absent nor {@code -} for stdout. */
    private static boolean isFile(String output) {
        return output != null && !output.equals("-");
    }

    private EmitKind resolveKind(String emit, String output) throws UsageError {
        if (emit != null) {
            EmitKind k = EmitKind.fromOption(emit.toLowerCase(Locale.ROOT));
            if (k == null) {
                throw new UsageError("Invalid --emit (must be mlir, llvm, bc, obj, asm or exe): " + emit);
            }
            return k;
        }
        if (!isFile(output)) {
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

    /**
     * What is wrong with {@code --target-triple}, {@code --mcpu} or {@code --mattr}, or null. Checked before
     * the input is read: translating an empty module finds the same problems the input's translation would,
     * located in the input.
     */
    private String tripleProblem() {
        Operation empty = MlirParser.parse("module {}\n".getBytes(StandardCharsets.US_ASCII), 0, 10, "<triple>");
        try {
            Mgpu.emit(empty, EmitKind.LLVM, new Mgpu.Options(LoadStrategy.LAZY, options.triple(), null, null, null,
                    new CodegenOptions(options.optLevel(), options.cpu(), options.features())));
            return null;
        } catch (MgpuException e) {
            return e.diagnostics().get(0).message();
        }
    }

    /** The bytes of {@code input}, named {@code name} in errors; null, the error printed, if it cannot be read. */
    private InputText read(String input, String name) {
        long t0 = System.nanoTime();
        byte[] bytes;
        try {
            bytes = input.equals("-") ? MlirParser.readStream(stdin) : MlirParser.readFile(Path.of(input));
        } catch (NoSuchFileException e) {
            err.println(name + ": error: Invalid input (must be a readable file): no such file");
            return null;
        } catch (IOException | SecurityException e) {
            err.println(name + ": error: Invalid input (must be a readable file): " + e.getMessage());
            return null;
        }
        times.since("read", t0);
        return new InputText(input.equals("-") ? null : Path.of(input), bytes);
    }

    /**
     * Translates the parts of one input into the output that {@code plan} names, which is put in place only
     * when every part passed; failures to write are reported against that output.
     */
    private int write(String input, String name, InputText text, List<MlirParser.Chunk> chunks, Plan plan) {
        String output = plan.output();
        Sink sink;
        try {
            sink = plan.kind() == EmitKind.EXE || options.verifyDiagnostics() ? Sink.none()
                    : Sink.open(output, stdout);
        } catch (IOException e) {
            return GpuTranslate.outputError(err, output, e);
        }
        try (Sink out = sink) {
            Mgpu.Options mgpu;
            try {
                mgpu = mgpuOptions(plan.strategy());
            } catch (MgpuException e) {
                boolean usage = e.location() instanceof Location.Unknown;
                for (Diagnostic d : e.diagnostics()) {
                    err.println(usage ? "gpu-translate: error: " + d.message() : d.toString());
                }
                return usage ? EXIT_USAGE : EXIT_INPUT;
            }
            return new Parts(input, name, text, plan, mgpu, out).translate(chunks);
        } catch (MgpuException e) {
            for (Diagnostic d : e.diagnostics()) {
                printer.report(d, text.bytes());
            }
            return EXIT_INPUT;
        } catch (IOException e) {
            return GpuTranslate.outputError(err, output, e);
        } catch (UncheckedIOException e) {
            return GpuTranslate.outputError(err, output, e.getCause());
        }
    }

    /** The library's options for this run; reads the --embed files. */
    private Mgpu.Options mgpuOptions(LoadStrategy strategy) {
        return new Mgpu.Options(strategy, options.triple(), Embeds.parse(options.embeds()), times,
                new MlirPrinter.Options(options.printDebugInfo(), options.printGeneric()),
                new CodegenOptions(options.optLevel(), options.cpu(), options.features(), options.debugInfo(),
                        options.entryPoint()),
                new KernelOptions(options.objectFormat(), options.ptxas() == null ? null : Path.of(options.ptxas()),
                        err::println, options.gpuTargets(), options.targets() != null, options.barePointers(),
                        options.ptxasOptions(), options.saveTempsDirectory(), options.resourceUsage()));
    }

    /**
     * The linker's logger, made only when an executable is linked: setting up the logging library takes
     * about 30 ms at start-up, more than a small kernel's translation.
     */
    private Logger linkLog() {
        if (options.verbose()) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        }
        return LoggerFactory.getLogger(GpuTranslate.class);
    }

    /** The parts of one input on their way to its output, and the object of a binary kind until it is written. */
    private final class Parts {
        private final String input;
        private final String name;
        private final InputText text;
        private final EmitKind kind;
        private final String output;
        private final Mgpu.Options mgpu;
        private final Sink out;
        private final boolean verify = options.verifyDiagnostics();
        /** A binary kind's object, written once every part passed; an executable's, linked then. */
        private byte[] binary;

        Parts(String input, String name, InputText text, Plan plan, Mgpu.Options mgpu, Sink out) {
            this.input = input;
            this.name = name;
            this.text = text;
            this.kind = plan.kind();
            this.output = plan.output();
            this.mgpu = mgpu;
            this.out = out;
        }

        /** Translates or checks each part, then puts the output in place if all passed; the exit code. */
        int translate(List<MlirParser.Chunk> chunks) throws IOException {
            boolean failed = false;
            for (int i = 0; i < chunks.size(); i++) {
                MlirParser.Chunk c = chunks.get(i);
                if (i > 0 && !verify && kind.isText()) {
                    out.write(PART_SEPARATOR);
                }
                List<Diagnostic> diags = List.of();
                try {
                    byte[] object = translatePart(c, chunks.size() == 1);
                    if (object != null && binary != null) {
                        err.println(name + ": error: Invalid --split-input-file (must have one part for"
                                + " --emit=" + kind.option() + "): several parts");
                        return EXIT_USAGE;
                    }
                    if (object != null) {
                        binary = object;
                    }
                } catch (MgpuException e) {
                    diags = e.diagnostics();
                }
                boolean passed = verify ? check(c, diags) : report(diags);
                failed |= !passed;
            }
            if (failed) {
                return EXIT_INPUT;
            }
            if (verify) {
                return EXIT_OK;
            }
            return finish();
        }

        /**
         * Parses and translates one part: text is written at once, a binary kind's object returned (null for
         * none).
         *
         * @throws MgpuException with the part's diagnostics
         */
        private byte[] translatePart(MlirParser.Chunk c, boolean onlyPart) throws IOException {
            long tp = System.nanoTime();
            Operation module = MlirParser.parse(text.bytes(), c.start(), c.end(), name);
            times.since("parse", tp);
            long tr = System.nanoTime();
            // Printed as MLIR (outlined or not) into a file, the module makes no memory of its own after the parse,
            // as its text goes out through a small buffer: the run's peak is the parse's, and letting the file go
            // would only cost a collection (some 10 ms for binaries.mlir's 50 MB). Translating into LLVM and
            // compiling kernels make their memory after the parse, and so does a served run's standard output,
            // which the server gathers before it answers.
            boolean grows = kind != EmitKind.MLIR || options.compileKernels() || out.file() == null;
            if (onlyPart && !verify && grows && text.release()) {
                times.since("release input", tr);
            }
            if (kind == EmitKind.MLIR) {
                printMlir(module);
                return null;
            }
            if (onlyPart && !verify && kind != EmitKind.EXE && out.file() != null) {
                // One output file: LLVM writes it itself, without copying the module through Java.
                Mgpu.emit(module, kind, mgpu, out.file());
                return null;
            }
            byte[] result = Mgpu.emit(module, kind == EmitKind.EXE ? EmitKind.OBJ : kind, mgpu);
            if (verify) {
                return null;
            }
            if (kind.isText()) {
                long tw = System.nanoTime();
                out.write(result);
                times.since("write", tw);
                return null;
            }
            return result;
        }

        /** Prints the module as MLIR, its kernels first compiled or outlined if the options ask. */
        private void printMlir(Operation module) throws IOException {
            try {
                if (options.compileKernels()) {
                    Mgpu.compileKernels(module, mgpu);
                } else if (options.outlineKernels()) {
                    Mgpu.outlineKernels(module, mgpu);
                }
                Mgpu.emit(module, kind, mgpu, out.stream());
            } catch (UncheckedIOException e) {
                // The printer wraps a failed write; the sink knows the failure it started from.
                throw out.failure() != null ? out.failure() : e.getCause();
            } catch (MgpuException e) {
                if (out.failure() != null) {
                    throw out.failure();
                }
                throw e;
            }
        }

        /**
         * With --verify-diagnostics, prints how {@code diags} differ from the part's annotations; else prints
         * them. Returns whether the part passed.
         */
        private boolean check(MlirParser.Chunk c, List<Diagnostic> diags) {
            List<String> problems = DiagnosticVerifier.check(name,
                    DiagnosticVerifier.expectations(text.bytes(), c.start(), c.end()), diags);
            for (String p : problems) {
                err.println(p);
            }
            return problems.isEmpty();
        }

        /** Prints {@code diags}, each with its source line; returns whether there were none. */
        private boolean report(List<Diagnostic> diags) {
            for (Diagnostic d : diags) {
                printer.report(d, text.bytes());
            }
            return diags.isEmpty();
        }

        /** Writes or links what the parts made, then the dependency file; nothing if the caller has gone. */
        private int finish() throws IOException {
            long tw = System.nanoTime();
            if (abandoned.getAsBoolean()) {
                return EXIT_INPUT;
            }
            if (kind == EmitKind.EXE) {
                try {
                    Linker.link(binary, Path.of(output), options.runtimeLib(), options.linkInputs(), linkLog(), abandoned,
                            options.showCommands() ? Translation.this::show : null);
                } catch (Linker.CompilerMissing e) {
                    printer.toolError("Invalid C compiler (must be runnable; CC names another): " + e.getMessage());
                    return EXIT_INPUT;
                }
            } else if (!kind.isText() && binary != null) {
                out.write(binary);
            }
            if (abandoned.getAsBoolean()) {
                return EXIT_INPUT;
            }
            if (options.showCommands()) {
                return EXIT_OK;
            }
            out.commit();
            if (options.depFile()) {
                writeDepFile();
            }
            times.since(kind == EmitKind.EXE ? "link" : "write", tw);
            return EXIT_OK;
        }

        /** The dependency file of -MD/-MF: the output depends on the input and on every --embed file. */
        private void writeDepFile() throws IOException {
            List<String> prerequisites = new ArrayList<>();
            if (!input.equals("-")) {
                prerequisites.add(input);
            }
            prerequisites.addAll(Embeds.files(options.embeds()));
            String file = options.depFilePath() != null ? options.depFilePath() : DepFile.defaultPath(output);
            DepFile.write(file, DepFile.text(options.depTargets(), output, prerequisites, options.depPhony()), stdout);
        }
    }
}
