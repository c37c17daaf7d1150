package dev.mgpu.codegen;

/**
 * Hears how long each phase of a translation took. The phases, in the order they run: {@link #VERIFY},
 * then for LLVM outputs {@link #KERNELS} (when there are kernels to compile), {@link #TRANSLATE}, {@link #LLVM_VERIFY} and {@link #CODEGEN} (objects and
 * assembly) or {@link #EMIT} (IR text and bitcode), or for MLIR output {@link #PRINT}. Writing to a file
 * is part of the last phase when LLVM writes the file itself.
 */
@FunctionalInterface
public interface PhaseListener {
    /** Resolving embedded blobs and verifying the model. */
    String VERIFY = "verify";
    /** Compiling the kernels of {@code gpu.module}s into device objects. */
    String KERNELS = "kernels";
    /** Creating the LLVM module and translating the model into it. */
    String TRANSLATE = "translate";
    /** LLVM's verifier on the translated module. */
    String LLVM_VERIFY = "LLVM verify";
    /** LLVM's code generation of an object or assembly. */
    String CODEGEN = "codegen";
    /** Writing LLVM IR text or bitcode. */
    String EMIT = "emit";
    /** Printing MLIR. */
    String PRINT = "print";

    /** A listener that ignores every phase. */
    PhaseListener NONE = (phase, nanos) -> { };

    /**
     * Called once per phase, when it ends, with its wall time.
     *
     * @param phase the phase's name
     * @param nanos how long it took, in nanoseconds
     */
    void phaseDone(String phase, long nanos);
}
