package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectFormat;
import java.nio.file.Path;
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
 */
public record KernelOptions(ObjectFormat format, Path ptxas, Consumer<String> notes) {
    /** The default: fat binaries where the CUDA tools are found, notes dropped. */
    public static final KernelOptions DEFAULT = new KernelOptions(null, null, null);

    /**
     * Fills in the defaults for null components.
     *
     * @param format the object format, or null for {@code fatbin}
     * @param ptxas the {@code ptxas} to run, or null to look for one
     * @param notes receives one line per note, or null to drop them
     */
    public KernelOptions {
        format = format == null ? ObjectFormat.FATBIN : format;
        notes = notes == null ? n -> { } : notes;
    }

    /**
     * {@return these options with another object format}
     *
     * @param f the format
     */
    public KernelOptions withFormat(ObjectFormat f) {
        return new KernelOptions(f, ptxas, notes);
    }

    /**
     * {@return these options with another ptxas}
     *
     * @param path the ptxas executable
     */
    public KernelOptions withPtxas(Path path) {
        return new KernelOptions(format, path, notes);
    }

    /**
     * {@return these options with another receiver of notes}
     *
     * @param receiver receives one line per note
     */
    public KernelOptions withNotes(Consumer<String> receiver) {
        return new KernelOptions(format, ptxas, receiver);
    }
}
