package dev.mgpu.tools;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.text.MlirParser;
import dev.mgpu.text.MlirPrinter;
import dev.mgpu.verify.Verifier;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpu-translate}: MLIR GPU dialect in, LLVM host module out.
 *
 * <p>Exit codes: 0 on success; 1 for bad input, with {@code file:line:col: error: message} on stderr and no
 * output file left behind; 2 for bad usage.
 */
@Command(name = "gpu-translate", mixinStandardHelpOptions = true, version = "gpu-translate 0.1.0",
        description = "Translates MLIR GPU-dialect host programs into LLVM host modules that launch their"
                + " kernels through the mgpu runtime.", sortOptions = false)
public final class GpuTranslate implements Callable<Integer> {
    static final int EXIT_OK = 0;
    static final int EXIT_INPUT = 1;
    static final int EXIT_USAGE = 2;

    @Parameters(index = "0", paramLabel = "INPUT", description = "Input .mlir file, or - for stdin.")
    String input;

    @Option(names = "-o", paramLabel = "FILE", description = "Output file, or - for stdout (text only).")
    String output;

    @Option(names = "--emit", paramLabel = "KIND",
            description = "mlir, llvm, bc, obj, asm or exe. Default: from the extension of -o, else llvm.")
    String emit;

    @Option(names = "--module-load", paramLabel = "STRATEGY", defaultValue = "lazy",
            description = "lazy (default), ctor or per-launch.")
    String moduleLoad;

    @Option(names = "--target-triple", paramLabel = "TRIPLE", description = "Target triple; default: the host.")
    String triple;

    @Option(names = "--embed", paramLabel = "NAME=FILE",
            description = "Replace the blob of every object whose string is \"@file:NAME\" by FILE's bytes.")
    List<String> embeds = new ArrayList<>();

    @Option(names = "--split-input-file", description = "Split the input on '// -----' and process each part.")
    boolean split;

    @Option(names = "--verify-diagnostics", description = "Check '// expected-error' annotations instead of failing.")
    boolean verifyDiagnostics;

    @Option(names = "--mlir-print-debuginfo", description = "Print locations with --emit=mlir.")
    boolean printDebugInfo;

    @Option(names = "--mlir-print-op-generic", description = "Print the generic op form with --emit=mlir.")
    boolean printGeneric;

    @Option(names = "--runtime-lib", paramLabel = "DIR", description = "Where libmgpu is, for --emit=exe.")
    String runtimeLib;

    @Option(names = {"-v", "--verbose"}, description = "Log the time of each phase.")
    boolean verbose;

    private final PrintStream err;
    private final InputStream stdin;
    private final OutputStream stdout;

    GpuTranslate(InputStream stdin, OutputStream stdout, PrintStream err) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs the tool with the given streams and returns its exit code. */
    public static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
        GpuTranslate tool = new GpuTranslate(in, out, err);
        CommandLine cl = new CommandLine(tool);
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("gpu-translate: error: " + ex.getMessage());
            err.println("Usage: gpu-translate [options] INPUT|-   (see --help)");
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, r) -> {
            err.println("gpu-translate: internal error: " + ex);
            ex.printStackTrace(err);
            return 3;
        });
        return cl.execute(args);
    }

    private final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String m) {
            super(m);
        }
    }

    @Override
    public Integer call() {
        if (verbose) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        }
        Logger log = LoggerFactory.getLogger(GpuTranslate.class);
        EmitKind kind;
        LoadStrategy strategy;
        try {
            kind = resolveKind();
            strategy = LoadStrategy.fromOption(moduleLoad);
            if (strategy == null) {
                throw new UsageError("Invalid --module-load (must be lazy, ctor or per-launch): " + moduleLoad);
            }
            if (verifyDiagnostics && kind != EmitKind.MLIR && output != null && !output.equals("-")) {
                // Diagnostics checking writes no output file.
                output = null;
            }
            if ("-".equals(output) && kind.isBinary() && stdoutIsTerminal()) {
                throw new UsageError("Invalid -o - for --emit=" + kind.option()
                        + " (must not write binary output to a terminal): redirect stdout or use -o FILE");
            }
            if (kind == EmitKind.EXE && (output == null || output.equals("-"))) {
                throw new UsageError("Invalid output for --emit=exe (must be a file given with -o): "
                        + (output == null ? "none" : "-"));
            }
        } catch (UsageError e) {
            err.println("gpu-translate: error: " + e.getMessage());
            return EXIT_USAGE;
        }
        String name = input.equals("-") ? "<stdin>" : input;
        byte[] bytes;
        long t0 = System.nanoTime();
        try {
            bytes = input.equals("-") ? stdin.readAllBytes() : MlirParser.readFile(Path.of(input));
        } catch (NoSuchFileException e) {
            err.println(name + ": error: Invalid input (must be a readable file): no such file");
            return EXIT_INPUT;
        } catch (IOException | SecurityException e) {
            err.println(name + ": error: Invalid input (must be a readable file): " + e.getMessage());
            return EXIT_INPUT;
        }
        log.debug("read {} bytes in {} ms", bytes.length, ms(t0));
        List<MlirParser.Chunk> chunks = split ? MlirParser.split(bytes)
                : List.of(new MlirParser.Chunk(0, bytes.length));
        boolean failed = false;
        Sink sink;
        try {
            sink = kind == EmitKind.EXE || verifyDiagnostics ? Sink.none() : Sink.open(output, stdout);
        } catch (IOException e) {
            err.println(output + ": error: Invalid output (must be writable): " + e.getMessage());
            return EXIT_INPUT;
        }
        try (Sink textOut = sink) {
        byte[] binary = null;
        Mgpu.Options options;
        try {
            options = new Mgpu.Options(strategy, triple, Embeds.parse(embeds),
                    (phase, nanos) -> log.debug("{} in {} ms", phase, nanos / 1_000_000));
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
                log.debug("parsed in {} ms", ms(tp));
                if (kind == EmitKind.MLIR) {
                    // Translation verifies by itself, and reports every diagnostic through its exception.
                    long tv = System.nanoTime();
                    diags.addAll(Verifier.verify(module));
                    log.debug("verified in {} ms", ms(tv));
                }
            } catch (MgpuException e) {
                diags.addAll(e.diagnostics());
            }
            if (diags.isEmpty() && kind != EmitKind.MLIR) {
                try {
                    long tt = System.nanoTime();
                    if (chunks.size() == 1 && !verifyDiagnostics && kind != EmitKind.EXE && textOut.file() != null) {
                        // One output file: LLVM writes it itself, without copying the module through Java.
                        Mgpu.emit(module, kind, options, textOut.file());
                        log.debug("translated and emitted {} in {} ms", kind.option(), ms(tt));
                        continue;
                    }
                    byte[] result = Mgpu.emit(module, kind == EmitKind.EXE ? EmitKind.OBJ : kind, options);
                    log.debug("translated and emitted {} in {} ms", kind.option(), ms(tt));
                    if (!verifyDiagnostics) {
                        if (kind.isText()) {
                            textOut.write(result);
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
                    report(d, bytes);
                }
                failed = true;
                continue;
            }
            if (kind == EmitKind.MLIR) {
                long tw = System.nanoTime();
                MlirPrinter.print(module, textOut.stream(), new MlirPrinter.Options(printDebugInfo, printGeneric));
                log.debug("printed in {} ms", ms(tw));
            }
        }
        if (failed) {
            return EXIT_INPUT;
        }
        if (verifyDiagnostics) {
            return EXIT_OK;
        }
        if (kind == EmitKind.EXE) {
            Linker.link(binary, Path.of(output), runtimeLib, log);
        } else if (!kind.isText() && binary != null) {
            textOut.write(binary);
        }
        textOut.commit();
        } catch (MgpuException e) {
            for (Diagnostic d : e.diagnostics()) {
                report(d, bytes);
            }
            return EXIT_INPUT;
        } catch (IOException e) {
            err.println((output == null ? "<stdout>" : output) + ": error: Invalid output (must be writable): "
                    + e.getMessage());
            return EXIT_INPUT;
        }
        log.debug("total {} ms", ms(t0));
        return EXIT_OK;
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    /** Whether standard output is a terminal (whatever standard input is). */
    private boolean stdoutIsTerminal() {
        if (stdout != System.out) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
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


    /** Prints {@code file:line:col: error: message}, then the source line and a caret under the column. */
    private void report(Diagnostic d, byte[] input) {
        err.println(d);
        if (d.location() instanceof Location.FileLineCol f && f.line() > 0) {
            String line = sourceLine(input, f.line());
            if (line != null) {
                err.println(line);
                StringBuilder caret = new StringBuilder();
                for (int i = 1; i < f.column() && i <= line.length(); i++) {
                    caret.append(line.charAt(i - 1) == '\t' ? '\t' : ' ');
                }
                err.println(caret.append('^'));
            }
        }
    }

    private static String sourceLine(byte[] input, int line) {
        int cur = 1;
        int start = 0;
        for (int i = 0; i < input.length && cur < line; i++) {
            if (input[i] == '\n') {
                cur++;
                start = i + 1;
            }
        }
        if (cur != line || start > input.length) {
            return null;
        }
        int end = start;
        while (end < input.length && input[end] != '\n' && end - start < 200) {
            end++;
        }
        return new String(input, start, end - start, StandardCharsets.UTF_8);
    }
}
