package dev.mgpu.codegen;

/**
 * Hears how long each phase of a translation took: {@code verified} (embedding and verification),
 * {@code translated} (the whole way to a module that LLVM's verifier has passed, verification included),
 * {@code emitted} (writing LLVM IR, bitcode, an object or assembly), and {@code printed} (writing MLIR).
 */
@FunctionalInterface
public interface PhaseListener {
    /** A listener that ignores every phase. */
    PhaseListener NONE = (phase, nanos) -> { };

    /** Called once per phase, when it ends, with its wall time. */
    void phaseDone(String phase, long nanos);
}
