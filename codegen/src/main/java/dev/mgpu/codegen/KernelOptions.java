package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.ObjectFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * How the kernels of a {@code gpu.module} are compiled: the object format ({@code offload} is LLVM
 * bitcode, {@code assembly} is PTX or AMDGPU assembly, {@code bin} a cubin or HSACO, {@code fatbin} a CUDA
 * fat binary of cubin and PTX, or an HSACO for AMD), as {@code gpu-module-to-binary{format=...}} names them;
 * where {@code ptxas} is (null: {@code $CUDA_HOME/bin}, then {@code PATH}); and where notes go, such as the
 * one that says PTX is embedded because {@code ptxas} is missing.
 *
 * @param format the object format, or null for the default: {@code fatbin}
 * @param ptxas the {@code ptxas} to run, or null to look for one
 * @param notes receives one line per note; null drops them
 * @param targets the targets of the kernels that {@code gpu.launch} bodies are outlined into (default: the
 *     CPU)
 * @param attachTargets whether {@code targets} are also given to every {@code gpu.module} that has none, as
 *     upstream's {@code nvvm-attach-target} and {@code rocdl-attach-target} give theirs
 * @param barePointers whether kernels take a memref as the address of its element 0 alone, as upstream's
 *     {@code kernel-bare-ptr-calling-convention} (and {@code use-bare-pointers-for-kernels} for the launches);
 *     by default, as upstream's, they take its descriptor's fields {@code (allocated, aligned, offset,
 *     sizes..., strides...)}. The kernels compiled and the launches translated follow the same one.
 * @param ptxasOptions options for every {@code ptxas} run, after those of each target's
 *     {@code flags = {"ptxas-cmd-options" = [...]}} (as clang's {@code -Xcuda-ptxas} and upstream's
 *     {@code ptxas-cmd-options} give them)
 * @param saveTemps where each target's intermediate and final files are kept (LLVM IR after optimisation,
 *     assembly or PTX, and the object: cubin, fat binary, HSACO, CPU shared object), named
 *     {@code <input>.<gpu.module>.<chip>.<ext>}; null keeps none
 * @param resourceUsage whether each kernel's registers, spills, shared and local memory and most threads per
 *     block are given as notes, per target
 */
public record KernelOptions(ObjectFormat format, Path ptxas, Consumer<String> notes, List<GpuTarget> targets,
        boolean attachTargets, boolean barePointers, List<String> ptxasOptions, Path saveTemps,
        boolean resourceUsage) {
    /** The default: fat binaries where the CUDA tools are found, notes dropped, launches outlined for the CPU. */
    public static final KernelOptions DEFAULT = new KernelOptions(null, null, null, null);

    /**
     * Fills in the defaults for null components.
     *
     * @param format the object format, or null for {@code fatbin}
     * @param ptxas the {@code ptxas} to run, or null to look for one
     * @param notes receives one line per note, or null to drop them
     * @param targets the targets of the kernels that {@code gpu.launch} bodies become, or null for the CPU
     * @param attachTargets whether the targets also go to every {@code gpu.module} that has none
     * @param barePointers whether kernels take memrefs as bare pointers
     * @param ptxasOptions options for every ptxas run, or null for none
     * @param saveTemps where each target's files are kept, or null
     * @param resourceUsage whether each kernel's resource usage is given as notes
     */
    public KernelOptions {
        format = format == null ? ObjectFormat.FATBIN : format;
        notes = notes == null ? n -> { } : notes;
        targets = targets == null || targets.isEmpty() ? List.of(GpuTarget.CpuTarget.host()) : List.copyOf(targets);
        ptxasOptions = ptxasOptions == null ? List.of() : List.copyOf(ptxasOptions);
    }

    /**
     * Options that keep no files, report no resource usage and give ptxas no options of their own.
     *
     * @param format the object format, or null for {@code fatbin}
     * @param ptxas the {@code ptxas} to run, or null to look for one
     * @param notes receives one line per note, or null to drop them
     * @param targets the targets of the kernels that {@code gpu.launch} bodies become, or null for the CPU
     * @param attachTargets whether the targets also go to every {@code gpu.module} that has none
     * @param barePointers whether kernels take memrefs as bare pointers
     */
    public KernelOptions(ObjectFormat format, Path ptxas, Consumer<String> notes, List<GpuTarget> targets,
            boolean attachTargets, boolean barePointers) {
        this(format, ptxas, notes, targets, attachTargets, barePointers, null, null, false);
    }

    /**
     * Options whose targets go to outlined kernels alone.
     *
     * @param format the object format, or null for {@code fatbin}
     * @param ptxas the {@code ptxas} to run, or null to look for one
     * @param notes receives one line per note, or null to drop them
     * @param targets the targets of the kernels that {@code gpu.launch} bodies become, or null for the CPU
     */
    public KernelOptions(ObjectFormat format, Path ptxas, Consumer<String> notes, List<GpuTarget> targets) {
        this(format, ptxas, notes, targets, false, false);
    }

    /**
     * Options with upstream's default calling convention for memrefs (their descriptors' fields).
     *
     * @param format the object format, or null for {@code fatbin}
     * @param ptxas the {@code ptxas} to run, or null to look for one
     * @param notes receives one line per note, or null to drop them
     * @param targets the targets of the kernels that {@code gpu.launch} bodies become, or null for the CPU
     * @param attachTargets whether the targets also go to every {@code gpu.module} that has none
     */
    public KernelOptions(ObjectFormat format, Path ptxas, Consumer<String> notes, List<GpuTarget> targets,
            boolean attachTargets) {
        this(format, ptxas, notes, targets, attachTargets, false);
    }

    /**
     * Options with the default targets for outlined kernels.
     *
     * @param format the object format, or null for {@code fatbin}
     * @param ptxas the {@code ptxas} to run, or null to look for one
     * @param notes receives one line per note, or null to drop them
     */
    public KernelOptions(ObjectFormat format, Path ptxas, Consumer<String> notes) {
        this(format, ptxas, notes, null);
    }

    /**
     * {@return these options with other targets: for outlined kernels, and for every {@code gpu.module} that
     * has none, as upstream's {@code nvvm-attach-target} and {@code rocdl-attach-target} give theirs}
     *
     * @param list the targets, such as {@code #nvvm.target<chip = "sm_90">} and {@code #cpu.target}
     */
    public KernelOptions withTargets(List<GpuTarget> list) {
        return new KernelOptions(format, ptxas, notes, list, true, barePointers, ptxasOptions, saveTemps, resourceUsage);
    }

    /**
     * {@return these options with another object format}
     *
     * @param f the format
     */
    public KernelOptions withFormat(ObjectFormat f) {
        return new KernelOptions(f, ptxas, notes, targets, attachTargets, barePointers, ptxasOptions, saveTemps,
                resourceUsage);
    }

    /**
     * {@return these options with another ptxas}
     *
     * @param path the ptxas executable
     */
    public KernelOptions withPtxas(Path path) {
        return new KernelOptions(format, path, notes, targets, attachTargets, barePointers, ptxasOptions, saveTemps,
                resourceUsage);
    }

    /**
     * {@return these options with another receiver of notes}
     *
     * @param receiver receives one line per note
     */
    public KernelOptions withNotes(Consumer<String> receiver) {
        return new KernelOptions(format, ptxas, receiver, targets, attachTargets, barePointers, ptxasOptions,
                saveTemps, resourceUsage);
    }

    /**
     * {@return these options with kernels that take memrefs as bare pointers, or as their descriptors' fields}
     *
     * @param on whether kernels take the address of a memref's element 0 alone
     */
    public KernelOptions withBarePointers(boolean on) {
        return new KernelOptions(format, ptxas, notes, targets, attachTargets, on, ptxasOptions, saveTemps,
                resourceUsage);
    }

    /**
     * {@return these options with options for every ptxas run}
     *
     * @param list the options, each one argument of ptxas, such as {@code --maxrregcount=32}
     */
    public KernelOptions withPtxasOptions(List<String> list) {
        return new KernelOptions(format, ptxas, notes, targets, attachTargets, barePointers, list, saveTemps,
                resourceUsage);
    }

    /**
     * {@return these options keeping each target's files in a directory, or none}
     *
     * @param directory where the files go, or null to keep none
     */
    public KernelOptions withSaveTemps(Path directory) {
        return new KernelOptions(format, ptxas, notes, targets, attachTargets, barePointers, ptxasOptions,
                directory, resourceUsage);
    }

    /**
     * {@return these options reporting, or not, each kernel's resource usage as notes}
     *
     * @param on whether to report it
     */
    public KernelOptions withResourceUsage(boolean on) {
        return new KernelOptions(format, ptxas, notes, targets, attachTargets, barePointers, ptxasOptions,
                saveTemps, on);
    }
}
