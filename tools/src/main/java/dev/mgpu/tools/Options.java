package dev.mgpu.tools;

import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a command line of {@code gpu-translate} asks for, as {@link OptionParser} read it. Values are as
 * given: they are checked when the run needs them, so that a run reports its errors in the order it always
 * has. Options not given are null, or false, except where noted.
 *
 * @param inputs the INPUT arguments, in order; empty for standard input
 * @param output {@code -o}, or null
 * @param emit {@code --emit}, or null to take the kind from the extension of {@code -o}
 * @param moduleLoad {@code --module-load}; {@code lazy} by default
 * @param triple {@code --target-triple}
 * @param optLevel the level of {@code -O0} to {@code -O3}; 2 by default
 * @param cpu {@code --mcpu}
 * @param features {@code --mattr}
 * @param embeds each {@code --embed} value, {@code NAME=FILE}, in order
 * @param split {@code --split-input-file}
 * @param verifyDiagnostics {@code --verify-diagnostics}
 * @param printDebugInfo {@code --mlir-print-debuginfo}
 * @param printGeneric {@code --mlir-print-op-generic}
 * @param runtimeLib {@code --runtime-lib}
 * @param verbose {@code -v}
 * @param outputDir {@code --output-dir}
 * @param depFile {@code -MD} (or {@code -MMD}: every dependency is the user's), or {@code -MF}, which implies it
 * @param debugInfo {@code -g}
 * @param depFilePath {@code -MF}
 * @param depTargets the targets of {@code -MT}, as given; none for the output's name
 * @param depPhony {@code -MP}: a rule of its own, with no prerequisites, for each dependency but the input
 * @param color {@code --color}; {@code auto} by default
 * @param compileKernels {@code --compile-kernels}
 * @param outlineKernels {@code --outline-kernels}
 * @param targets {@code --targets}
 * @param gpuFormat {@code --gpu-format}
 * @param ptxas {@code --ptxas}
 * @param entryPoint {@code --entry-point}
 * @param linkInputs what {@code --emit=exe} links besides the translation, in order: objects, archives and shared
 *     libraries given as INPUT, and {@code -lNAME}, {@code -LDIR}
 * @param barePointers {@code --kernel-bare-ptr-calling-convention} (or upstream's other name for it,
 *     {@code --use-bare-pointers-for-kernels})
 * @param showCommands {@code -###}: show the commands of the external tools (ptxas, fatbinary, lld, cc) that
 *     the run would start, on stderr, instead of running them; no output is written
 * @param ptxasOptions what ptxas is given besides its own arguments: {@code -Xptxas} (split at commas),
 *     {@code -Xcuda-ptxas}, {@code --ptxas-cmd-options} (split at spaces), in order
 * @param saveTemps {@code --save-temps}: {@code cwd} (alone), {@code obj} or a directory; null when not given
 * @param resourceUsage {@code --resource-usage}
 * @param extractObjects {@code --extract-objects}: the inputs are host objects, IR or bitcode, whose embedded
 *     kernel objects are written out
 * @param server {@code --server}: {@code status} or {@code stop}, or null
 * @param reply the text to print instead of running ({@code --help}, {@code --version}), or null; the options
 *     after the one that asked for it are not read
 */
record Options(List<String> inputs, String output, String emit, String moduleLoad, String triple, int optLevel,
        String cpu, String features, List<String> embeds, boolean split, boolean verifyDiagnostics,
        boolean printDebugInfo, boolean printGeneric, String runtimeLib, boolean verbose, String outputDir,
        boolean depFile, boolean debugInfo, String depFilePath, List<String> depTargets, boolean depPhony, String color, boolean compileKernels,
        boolean outlineKernels, String targets, String gpuFormat, String ptxas, String entryPoint,
        List<String> linkInputs, boolean barePointers, boolean showCommands, List<String> ptxasOptions,
        String saveTemps, boolean resourceUsage, boolean extractObjects, String server, String reply) {

    /** Copies the lists, so that the options stay as the parser left them. */
    Options {
        inputs = List.copyOf(inputs);
        embeds = List.copyOf(embeds);
        linkInputs = List.copyOf(linkInputs);
        depTargets = List.copyOf(depTargets);
        ptxasOptions = List.copyOf(ptxasOptions);
    }

    /**
     * The directory of {@code --save-temps}, or null: the working directory for {@code cwd}, the output's for
     * {@code obj} (the working directory's when the output is standard output or in it).
     */
    java.nio.file.Path saveTempsDirectory() {
        if (saveTemps == null) {
            return null;
        }
        java.nio.file.Path cwd = java.nio.file.Path.of("").toAbsolutePath();
        if (saveTemps.equals("cwd")) {
            return cwd;
        }
        if (saveTemps.equals("obj")) {
            String out = outputDir != null ? outputDir : output;
            if (out == null || out.equals("-")) {
                return cwd;
            }
            java.nio.file.Path p = cwd.resolve(out);
            return outputDir != null ? p : p.getParent();
        }
        return cwd.resolve(saveTemps);
    }

    /** The input of a run without {@code --output-dir}: the last INPUT given, or {@code -} for stdin. */
    String input() {
        return inputs.isEmpty() ? "-" : inputs.get(inputs.size() - 1);
    }

    /** The files that the arguments name: inputs, outputs, the dependency file, --embed files, and tools. */
    List<String> fileArguments() {
        List<String> files = new ArrayList<>(inputs);
        files.addAll(Arrays.asList(output, outputDir, depFilePath, runtimeLib, ptxas,
                saveTemps == null || saveTemps.equals("cwd") || saveTemps.equals("obj") ? null : saveTemps));
        for (String l : linkInputs) {
            if (!l.startsWith("-")) {
                files.add(l);
            }
        }
        for (String e : embeds) {
            files.add(e.substring(e.indexOf('=') + 1));
        }
        files.removeIf(f -> f == null || f.equals("-"));
        return files;
    }

    /**
     * The targets of {@code --targets} (nvvm:CHIP, rocdl:CHIP, cpu), or null for the default.
     *
     * @throws MgpuException at an unknown location for an entry that names no target
     */
    List<GpuTarget> gpuTargets() {
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

    /**
     * The object format of {@code --gpu-format}, or null for the default; upstream's names and short forms.
     *
     * @throws MgpuException at an unknown location for a name of no format
     */
    ObjectFormat objectFormat() {
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
}
