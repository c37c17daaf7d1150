package dev.mgpu.codegen;

/**
 * How LLVM generates host code (and, with {@code debugInfo}, DWARF line tables from the MLIR locations, as
 * {@code -g}) for objects and assembly, named as llc names them: the optimisation level
 * ({@code -O0} to {@code -O3}, default 2), the CPU ({@code --mcpu}; {@code native} is the CPU of this
 * machine) and its features ({@code --mattr}, such as {@code +avx2,-sse4a}). A CPU or features given here
 * are also written into every function defined in IR and bitcode output, as {@code "target-cpu"} and
 * {@code "target-features"}, so that a downstream llc or clang generates the same code.
 */
public record CodegenOptions(int optLevel, String cpu, String features, boolean debugInfo) {
    /** {@code -O2} for a generic CPU of the target, with its default features, without debug info. */
    public static final CodegenOptions DEFAULT = new CodegenOptions(2, null, null);

    /** Options without debug info. */
    public CodegenOptions(int optLevel, String cpu, String features) {
        this(optLevel, cpu, features, false);
    }

    /** Checks the level; null or empty CPU and features mean the target's defaults. */
    public CodegenOptions {
        if (optLevel < 0 || optLevel > 3) {
            throw new IllegalArgumentException("Invalid optimisation level (must be 0 to 3): " + optLevel);
        }
        cpu = cpu == null || cpu.isEmpty() ? null : cpu;
        features = features == null || features.isEmpty() ? null : features;
    }

    /** These options at another optimisation level. */
    public CodegenOptions withOptLevel(int level) {
        return new CodegenOptions(level, cpu, features, debugInfo);
    }

    /** These options with DWARF line tables for the host code ({@code -g}), or without. */
    public CodegenOptions withDebugInfo(boolean on) {
        return new CodegenOptions(optLevel, cpu, features, on);
    }
}
