package dev.mgpu.tools;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a command line of {@code gpu-translate} into {@link Options}.
 *
 * <p>The arguments are parsed here rather than by a library: the tool runs once per file in builds, and
 * starting the JVM is most of a small file's time, so every class loaded at start counts.
 */
final class OptionParser {
    /** The long options, which may also be spelt with one dash. */
    static final List<String> LONG_OPTIONS = List.of("--help", "--version", "--verbose", "--split-input-file",
            "--verify-diagnostics", "--mlir-print-debuginfo", "--mlir-print-op-generic", "--emit", "--module-load",
            "--target-triple", "--target", "--embed", "--runtime-lib", "--mcpu", "--mattr", "--color", "--output-dir",
            "--compile-kernels", "--gpu-format", "--ptxas", "--outline-kernels", "--targets", "--entry-point",
            "--kernel-bare-ptr-calling-convention", "--use-bare-pointers-for-kernels", "--list-targets", "--save-temps",
            "--resource-usage", "--extract-objects", "--ptxas-cmd-options", "--server");

    /** Every option, for suggestions. */
    static final List<String> ALL_OPTIONS;

    static {
        List<String> all = new ArrayList<>(LONG_OPTIONS);
        all.addAll(List.of("-o", "-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz", "-Og", "-v", "-h", "-V", "-MD", "-MMD",
                "-MF", "-MT", "-MP", "-g", "-l", "-L", "-###", "-Xptxas", "-Xcuda-ptxas"));
        ALL_OPTIONS = List.copyOf(all);
    }

    private final List<String> inputs = new ArrayList<>();
    private String output;
    private String emit;
    private String moduleLoad = "lazy";
    private String triple;
    private int optLevel = 2;
    private String cpu;
    private String features;
    private final List<String> embeds = new ArrayList<>();
    private boolean split;
    private boolean verifyDiagnostics;
    private boolean printDebugInfo;
    private boolean printGeneric;
    private String runtimeLib;
    private boolean verbose;
    private String outputDir;
    private boolean depFile;
    private boolean debugInfo;
    private String depFilePath;
    private final List<String> depTargets = new ArrayList<>();
    private boolean depPhony;
    private String color = "auto";
    private boolean compileKernels;
    private boolean outlineKernels;
    private String targets;
    private String gpuFormat;
    private String ptxas;
    private String entryPoint;
    private final List<String> linkInputs = new ArrayList<>();
    private boolean barePointers;
    private boolean showCommands;
    private final List<String> ptxasOptions = new ArrayList<>();
    private String saveTemps;
    private boolean resourceUsage;
    private boolean extractObjects;
    private String server;

    private OptionParser() {
    }

    /**
     * Reads {@code given}, response files ({@code @FILE}) expanded. For {@code --help} and {@code --version}
     * the options carry the text to print, and only the options before it.
     *
     * @throws UsageError for an unknown option, a missing or unwanted value, or arguments that conflict
     */
    static Options parse(String[] given) throws UsageError {
        String[] args;
        try {
            args = CommandLine.expand(List.of(given)).toArray(new String[0]);
        } catch (CommandLine.BadResponseFile e) {
            throw new UsageError(e.getMessage());
        }
        return new OptionParser().read(args);
    }

    private Options read(String[] args) throws UsageError {
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String a = options ? CommandLine.doubleDash(args[i], LONG_OPTIONS) : args[i];
            if (!options || a.equals("-") || !a.startsWith("-")) {
                (isLinkInput(a) ? linkInputs : inputs).add(a);
                continue;
            }
            if ((a.startsWith("-l") || a.startsWith("-L")) && !a.startsWith("--")) {
                // As cc takes them: -lNAME or -l NAME, kept in their place among the objects.
                String v = a.length() > 2 ? a.substring(2) : null;
                if (v == null) {
                    if (i + 1 == args.length) {
                        throw new UsageError("Invalid " + a + " (must be followed by its value): end of arguments");
                    }
                    v = args[++i];
                }
                linkInputs.add(a.substring(0, 2) + v);
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
            if (name.startsWith("-O")) {
                optLevel = optLevel(a);
                continue;
            }
            if (name.equals("--save-temps")) {
                // As clang's: alone or =cwd, the working directory; =obj, the output's; else the directory given.
                saveTemps = value == null ? "cwd" : value;
                continue;
            }
            switch (name) {
                case "-h", "--help", "-V", "--version", "-v", "--verbose", "--split-input-file",
                        "--verify-diagnostics", "--mlir-print-debuginfo", "--mlir-print-op-generic", "-MD", "-MMD", "-MP", "-g", "-###",
                        "--compile-kernels", "--outline-kernels", "--kernel-bare-ptr-calling-convention",
                        "--use-bare-pointers-for-kernels", "--list-targets", "--resource-usage", "--extract-objects" -> {
                    if (value != null) {
                        throw new UsageError("Invalid " + name + " (must have no value): " + a);
                    }
                    String reply = flag(name);
                    if (reply != null) {
                        return options(reply);
                    }
                }
                case "-o", "--emit", "--module-load", "--target-triple", "--target", "--embed", "--runtime-lib", "--mcpu",
                        "--mattr", "--color", "-MF", "-MT", "--output-dir", "--gpu-format", "--ptxas", "--targets",
                        "--entry-point", "-Xptxas", "-Xcuda-ptxas", "--ptxas-cmd-options", "--server" -> {
                    if (value == null) {
                        if (i + 1 == args.length) {
                            throw new UsageError("Invalid " + name + " (must be followed by its value): end of"
                                    + " arguments");
                        }
                        value = args[++i];
                    }
                    set(name, value);
                }
                default -> {
                    String near = CommandLine.suggestion(name, ALL_OPTIONS);
                    throw new UsageError("Invalid option (must be one that --help lists"
                            + (near == null ? "" : "; did you mean " + near + "?") + "): " + a);
                }
            }
        }
        checkCombination();
        return options(null);
    }

    /** Takes the option {@code name}, which has no value; returns the text it asks to print instead, or null. */
    private String flag(String name) {
        switch (name) {
            case "-h", "--help" -> {
                return GpuTranslate.HELP;
            }
            case "-V", "--version" -> {
                return GpuTranslate.version();
            }
            case "--list-targets" -> {
                return GpuTranslate.listTargets();
            }
            case "-v", "--verbose" -> verbose = true;
            case "--split-input-file" -> split = true;
            case "--verify-diagnostics" -> verifyDiagnostics = true;
            case "--mlir-print-debuginfo" -> printDebugInfo = true;
            case "-MD", "-MMD" -> depFile = true;
            case "-MP" -> depPhony = true;
            case "-###" -> showCommands = true;
            case "-g" -> debugInfo = true;
            case "--compile-kernels" -> compileKernels = true;
            case "--outline-kernels" -> outlineKernels = true;
            case "--kernel-bare-ptr-calling-convention", "--use-bare-pointers-for-kernels" -> barePointers = true;
            case "--resource-usage" -> resourceUsage = true;
            case "--extract-objects" -> extractObjects = true;
            default -> printGeneric = true;
        }
        return null;
    }

    /**
     * The code generation level of {@code -O...}, as clang gives LLVM's code generator: {@code -O} is
     * {@code -O1}, {@code -Og} is 1 too, and {@code -Os} and {@code -Oz} are 2.
     */
    static int optLevel(String a) throws UsageError {
        return switch (a) {
            case "-O0" -> 0;
            case "-O", "-O1", "-Og" -> 1;
            case "-O2", "-Os", "-Oz" -> 2;
            case "-O3" -> 3;
            default -> throw new UsageError("Invalid optimisation level (must be -O0, -O1, -O2, -O3, -O, -Os, -Oz"
                    + " or -Og): " + a);
        };
    }

    /** Takes {@code value} for the option {@code name}; a later value replaces it, except for --embed's and -MT's. */
    private void set(String name, String value) {
        switch (name) {
            case "-o" -> output = value;
            case "--emit" -> emit = value;
            case "--module-load" -> moduleLoad = value;
            case "--target-triple", "--target" -> triple = value;
            case "--embed" -> embeds.add(value);
            case "--mcpu" -> cpu = value;
            case "--mattr" -> features = value;
            case "--color" -> color = value;
            case "--output-dir" -> outputDir = value;
            case "--gpu-format" -> gpuFormat = value;
            case "--ptxas" -> ptxas = value;
            case "--targets" -> targets = value;
            case "--entry-point" -> entryPoint = value;
            case "-MF" -> {
                depFilePath = value;
                depFile = true;
            }
            case "-MT" -> depTargets.add(value);
            // As nvcc's -Xptxas: arguments separated by commas; clang's -Xcuda-ptxas gives one.
            case "-Xptxas" -> ptxasOptions.addAll(List.of(value.split(",")));
            case "-Xcuda-ptxas" -> ptxasOptions.add(value);
            // As upstream's pipelines take it: one string of arguments separated by spaces.
            case "--ptxas-cmd-options" -> {
                for (String word : value.strip().split("\\s+")) {
                    if (!word.isEmpty()) {
                        ptxasOptions.add(word);
                    }
                }
            }
            case "--server" -> server = value;
            default -> runtimeLib = value;
        }
    }

    /** An object, archive or shared library that an executable links: {@code .o}, {@code .a}, {@code .so[.N]}. */
    static boolean isLinkInput(String a) {
        String name = a.substring(a.lastIndexOf('/') + 1);
        return name.endsWith(".o") || name.endsWith(".a") || isSharedLibrary(name);
    }

    /**
     * Whether {@code name} is NAME.so or NAME.so.N.N...: NAME not empty and on one line, each N digits. Read
     * by hand, not with a regular expression: a run's first pattern costs some 2 ms of its start.
     */
    static boolean isSharedLibrary(String name) {
        for (int at = name.indexOf(".so", 1); at >= 0; at = name.indexOf(".so", at + 1)) {
            if (versions(name, at + 3)) {
                return PlainText.onOneLine(name, 0, at);
            }
        }
        return false;
    }

    /** Whether {@code name} from {@code from} on is nothing, or {@code .N} repeated, each N digits. */
    private static boolean versions(String name, int from) {
        for (int i = from; i < name.length();) {
            int next = name.indexOf('.', i + 1);
            int end = next < 0 ? name.length() : next;
            if (name.charAt(i) != '.' || !PlainText.digits(name, i + 1, end)) {
                return false;
            }
            i = end;
        }
        return true;
    }

    /** Rejects arguments that are valid alone but not together, and file names that no path can hold. */
    private void checkCombination() throws UsageError {
        if (inputs.size() > 1 && outputDir == null && !extractObjects) {
            throw new UsageError("Invalid argument (must be the only INPUT, or give --output-dir for several): "
                    + inputs.get(1));
        }
        if (server != null && !server.equals("status") && !server.equals("stop")) {
            throw new UsageError("Invalid --server (must be status or stop): " + server);
        }
        if (outputDir != null && output != null) {
            throw new UsageError("Invalid -o with --output-dir (must be one or the other): -o " + output);
        }
        for (String f : options(null).fileArguments()) {
            try {
                Path.of(f);
            } catch (InvalidPathException e) {
                // The JVM read the argument in the locale's charset (LC_ALL, LANG), which lacks a character of it.
                throw new UsageError("Invalid file name (must be one that the locale's charset can hold; a UTF-8"
                        + " locale holds any): " + f);
            }
        }
    }

    private Options options(String reply) {
        return new Options(inputs, output, emit, moduleLoad, triple, optLevel, cpu, features, embeds, split,
                verifyDiagnostics, printDebugInfo, printGeneric, runtimeLib, verbose, outputDir, depFile, debugInfo,
                depFilePath, depTargets, depPhony, color, compileKernels, outlineKernels, targets, gpuFormat, ptxas,
                entryPoint, linkInputs, barePointers, showCommands, ptxasOptions, saveTemps, resourceUsage,
                extractObjects, server, reply);
    }
}
