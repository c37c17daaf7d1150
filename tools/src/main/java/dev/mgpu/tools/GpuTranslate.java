package dev.mgpu.tools;

import dev.mgpu.codegen.Mgpu;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@code gpu-translate}: MLIR GPU dialect in, LLVM host module out.
 *
 * <p>Exit codes: 0 on success; 1 for bad input, with {@code file:line:col: error: message} on stderr and no
 * output file left behind, and for an output that cannot be written or a C compiler that cannot be run; 2
 * for bad usage.
 *
 * <p>{@link OptionParser} reads the command line into {@link Options}; a {@link Translation} runs them.
 */
public final class GpuTranslate {
    static final int EXIT_OK = 0;
    static final int EXIT_INPUT = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_INTERNAL = 3;

    /**
     * A run that nothing cancels. One lambda, made as the class is initialised: the build's training runs
     * make it too, so that the class-data archive holds it, where a lambda made in {@link #main} alone was
     * made again at each run.
     */
    private static final BooleanSupplier NEVER = () -> false;

    /** This build's version, from its jar's manifest. */
    static String version() {
        String v = GpuTranslate.class.getPackage().getImplementationVersion();
        return "gpu-translate " + (v != null ? v : "(unpackaged build)") + "\n  LLVM " + Mgpu.llvmVersion() + "\n";
    }

    /** The chips of each back end, a line each: {@code nvvm (TRIPLE): CHIP CHIP ...}. */
    static String listTargets() {
        StringBuilder b = new StringBuilder();
        Mgpu.targetChips().forEach((name, chips) -> b.append(name).append(" (").append(chips.getKey()).append("):")
                .append(chips.getValue().isEmpty() ? "" : " " + String.join(" ", chips.getValue())).append('\n'));
        return b.toString();
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
              --target-triple=TRIPLE   Target triple (also --target=TRIPLE); default: the host.
              --list-targets           Print the chips of each back end (nvvm, rocdl, cpu) and exit.
              -g                       DWARF line tables for the host code, at the lines of the input.
              -O0, -O1, -O2, -O3       Code generation level for obj, asm and exe, as llc's. Default: -O2.
              -O, -Og, -Os, -Oz        As clang gives them to the code generator: -O1, -O1, -O2, -O2.
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
              -Xptxas A,B,...          Give ptxas these arguments too (-Xcuda-ptxas A: one; upstream's
                                       --ptxas-cmd-options="A B": split at spaces), after those of a
                                       target's flags = {"ptxas-cmd-options" = [...]}.
              --save-temps[=WHERE]     Keep each target's files, INPUT.MODULE.CHIP.EXT: the optimised IR
                                       (ll), PTX or assembly (ptx, s), the object (cubin, fatbin, hsaco,
                                       so); WHERE: cwd (default), obj (the output's directory) or a DIR.
              --resource-usage         Print each kernel's registers, spills, stack, shared memory and most
                                       threads per block, per target (from ptxas -v, the AMDGPU metadata,
                                       the CPU frame).
              --extract-objects        Write the kernel objects embedded in each INPUT (.o, executable, .ll,
                                       .bc) to -o DIR or --output-dir (default: .), as BINARY.N.CHIP.EXT.
              --server=status|stop     List this user's resident servers (MGPU_SERVER=1), or stop them.
              --embed=NAME=FILE        Replace the blob of every object whose string is "@file:NAME" by
                                       FILE's bytes (repeatable).
              --split-input-file       Split the input on '// -----' and process each part.
              --verify-diagnostics     Check '// expected-error @+N {{text}}' annotations (also -warning,
                                       -note, -remark; @-N, @above, @below) instead of failing.
              --mlir-print-debuginfo   Print locations with --emit=mlir.
              --mlir-print-op-generic  Print the generic op form with --emit=mlir.
              --runtime-lib=DIR        Where libmgpu is, for --emit=exe.
              -MD, -MF FILE            Write a Make dependency file naming INPUT and every --embed file:
                                       OUTPUT with its extension replaced by .d, or FILE (as clang's -MD
                                       -MF; -MMD is -MD).
              -MT TARGET               The dependency file's target instead of OUTPUT (repeatable).
              -MP                      Add a rule with no prerequisites for each --embed file.
              -###                     Print the commands of the tools the run would start (ptxas,
                                       fatbinary, lld, cc) on stderr, and run none; write no output.
              --color=WHEN             Colour diagnostics: auto (on a terminal, unless NO_COLOR is set),
                                       always or never.
              -v, --verbose            Print a table of the time of each phase at the end.
              -h, --help               Show this help and exit.
              -V, --version            Print the version and exit.

            An option's value follows it as --name=VALUE or as the next argument; given twice, the last
            one counts. Long options may be spelt with one dash (-split-input-file), and @FILE reads
            more arguments from FILE. Exit codes: 0 success, 1 bad input, 2 bad usage.
            """;

    /**
     * Runs the tool on the process's standard streams and exits with its exit code. A failure to close
     * standard output (a full disk, for example) is reported and turns success into failure.
     *
     * @param args the command line; {@code --help} lists the options
     */
    public static void main(String[] args) {
        // Not System.out: a PrintStream swallows write errors, and a full disk must not look like success.
        FileOutputStream stdout = new FileOutputStream(FileDescriptor.out);
        mainStart = System.nanoTime();
        int code = run(args, System.in, stdout, System.err, stdoutIsTerminal(), isTerminal(2), NEVER);
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
        return run(args, in, out, err, outIsTerminal, false, NEVER);
    }

    /**
     * Runs the tool as {@link #run(String[], InputStream, OutputStream, PrintStream, boolean)} does, for a
     * caller whose standard error may be a terminal and who may go away: once {@code abandoned} says so, no
     * output is put in place (what was written is deleted) and the run ends with {@link #EXIT_INPUT}.
     */
    static int run(String[] args, InputStream in, OutputStream out, PrintStream err, boolean outIsTerminal,
            boolean errIsTerminal, BooleanSupplier abandoned) {
        Options options;
        try {
            options = OptionParser.parse(args);
            if (options.reply() != null) {
                out.write(options.reply().getBytes(StandardCharsets.UTF_8));
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
        if (options.server() != null || options.extractObjects()) {
            // Listings of a few lines; a PrintStream keeps write errors, which are checked at the end.
            PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            int code = options.server() != null ? ServerControl.run(options.server(), stdout, err)
                    : Extraction.run(options, stdout, err);
            return stdout.checkError() && code == EXIT_OK ? outputError(err, null, new IOException("write failed"))
                    : code;
        }
        long start = System.nanoTime();
        Translation translation = new Translation(options, in, out, err, outIsTerminal, errIsTerminal, abandoned);
        try {
            return translation.run();
        } catch (RuntimeException | Error e) {
            err.println("gpu-translate: internal error: " + e);
            e.printStackTrace(err);
            return EXIT_INTERNAL;
        } finally {
            if (options.verbose()) {
                long end = System.nanoTime();
                translation.printTimes(end - (mainStart != 0 ? processStartNanos(end) : start));
            }
        }
    }

    /** When main began, on {@link System#nanoTime()}'s scale; 0 in a run that main did not start. */
    private static volatile long mainStart;

    /**
     * When the launcher started, on {@link System#nanoTime()}'s scale as read at {@code now}: the launcher
     * passes its {@code $EPOCHREALTIME} (seconds.microseconds, the locale's decimal mark) as
     * {@code mgpu.launched}; without it, or with a time not in the minute before {@code now}, when main began.
     * Read only for -v, after the run: the clock classes it uses are not loaded by a run without it.
     */
    private static long processStartNanos(long now) {
        long launched = epochMicros(System.getProperty("mgpu.launched", ""));
        if (launched < 0) {
            return mainStart;
        }
        java.time.Instant at = java.time.Instant.now();
        long ago = (at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000 - launched) * 1_000L;
        return ago >= 0 && ago < 60_000_000_000L ? now - ago : mainStart;
    }

    /** {@code SECONDS[.|,]FRACTION} as microseconds since the epoch; -1 when it is not that. */
    static long epochMicros(String text) {
        int mark = Math.max(text.indexOf('.'), text.indexOf(','));
        String seconds = mark < 0 ? text : text.substring(0, mark);
        String fraction = mark < 0 ? "" : text.substring(mark + 1);
        if (seconds.length() > 12 || !PlainText.digits(seconds, 0, seconds.length())
                || !fraction.isEmpty() && !PlainText.digits(fraction, 0, fraction.length())) {
            return -1;
        }
        long micros = Long.parseLong(seconds) * 1_000_000L;
        for (int i = 0, scale = 100_000; i < fraction.length() && scale > 0; i++, scale /= 10) {
            micros += (fraction.charAt(i) - '0') * (long) scale;
        }
        return micros;
    }

    /** Prints {@code OUTPUT: error: ...} for a failed write to {@code output} (null or - for stdout). */
    static int outputError(PrintStream err, String output, IOException e) {
        String what = output == null || output.equals("-") ? "<stdout>" : output;
        err.println(what + ": error: Invalid output (must be writable): " + Sink.reason(e));
        return EXIT_INPUT;
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
        Options options;
        try {
            options = OptionParser.parse(args);
        } catch (UsageError e) {
            return false;
        }
        if (options.verbose() || options.server() != null) {
            return true;
        }
        for (String p : options.fileArguments()) {
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
}
