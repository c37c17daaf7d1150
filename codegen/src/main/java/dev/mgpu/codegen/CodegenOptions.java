package dev.mgpu.codegen;

/**
 * How LLVM generates host code for objects and assembly, named as llc names them: the optimisation level
 * ({@code -O0} to {@code -O3}, default 2), the CPU ({@code --mcpu}; {@code native} is the CPU of this
 * machine) and its features ({@code --mattr}, such as {@code +avx2,-sse4a}). A CPU or features given here
 * are also written into every function defined in IR and bitcode output, as {@code "target-cpu"} and
 * {@code "target-features"}, so that a downstream llc or clang generates the same code.
 */
public record CodegenOptions(int optLevel, String cpu, String features) {
    /** {@code -O2} for a generic CPU of the target, with its default features. */
    public static final CodegenOptions DEFAULT = new CodegenOptions(2, null, null);

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
        return new CodegenOptions(level, cpu, features);
    }
}
