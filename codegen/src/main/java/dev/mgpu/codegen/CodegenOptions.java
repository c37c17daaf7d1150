package dev.mgpu.codegen;

/**
 * How LLVM generates host code (and, with {@code debugInfo}, DWARF line tables from the MLIR locations, as
 * {@code -g}) for objects and assembly, named as llc names them: the optimisation level
 * ({@code -O0} to {@code -O3}, default 2), the CPU ({@code --mcpu}; {@code native} is the CPU of this
 * machine) and its features ({@code --mattr}, such as {@code +avx2,-sse4a}). A CPU or features given here
 * are also written into every function defined in IR and bitcode output, as {@code "target-cpu"} and
 * {@code "target-features"}, so that a downstream llc or clang generates the same code.
 *
 * @param optLevel the optimisation level, 0 to 3
 * @param cpu the CPU to generate code for, or null for the target's generic CPU
 * @param features the target features, such as {@code +avx2}, or null for the CPU's defaults
 * @param debugInfo whether to emit DWARF line tables for the host code
 * @param entryPoint the function of no arguments and no results that a C {@code main} added to the module
 *     calls, as {@code mlir-runner -e NAME --entry-point-result=void} runs it; null for no {@code main}. A
 *     function named {@code main} is renamed for it, in the module only.
 */
public record CodegenOptions(int optLevel, String cpu, String features, boolean debugInfo, String entryPoint) {
    /** {@code -O2} for a generic CPU of the target, with its default features, without debug info. */
    public static final CodegenOptions DEFAULT = new CodegenOptions(2, null, null);

    /**
     * Options without debug info.
     *
     * @param optLevel the optimisation level, 0 to 3
     * @param cpu the CPU, or null or empty for the target's generic CPU
     * @param features the target features, or null or empty for the defaults
     */
    public CodegenOptions(int optLevel, String cpu, String features) {
        this(optLevel, cpu, features, false, null);
    }

    /**
     * Options without an entry point.
     *
     * @param optLevel the optimisation level, 0 to 3
     * @param cpu the CPU, or null or empty for the target's generic CPU
     * @param features the target features, or null or empty for the defaults
     * @param debugInfo whether to emit DWARF line tables for the host code
     */
    public CodegenOptions(int optLevel, String cpu, String features, boolean debugInfo) {
        this(optLevel, cpu, features, debugInfo, null);
    }

    /**
     * Checks the level; null or empty CPU and features mean the target's defaults.
     *
     * @param optLevel the optimisation level, 0 to 3
     * @param cpu the CPU, or null or empty for the target's generic CPU
     * @param features the target features, or null or empty for the defaults
     * @param debugInfo whether to emit DWARF line tables for the host code
     * @param entryPoint the function a C {@code main} calls, or null or empty for none
     * @throws IllegalArgumentException if {@code optLevel} is not 0 to 3
     */
    public CodegenOptions {
        if (optLevel < 0 || optLevel > 3) {
            throw new IllegalArgumentException("Invalid optimisation level (must be 0 to 3): " + optLevel);
        }
        cpu = cpu == null || cpu.isEmpty() ? null : cpu;
        features = features == null || features.isEmpty() ? null : features;
        entryPoint = entryPoint == null || entryPoint.isEmpty() ? null : entryPoint;
    }

    /**
     * These options at another optimisation level.
     *
     * @param level the optimisation level, 0 to 3
     * @return the new options
     * @throws IllegalArgumentException if {@code level} is not 0 to 3
     */
    public CodegenOptions withOptLevel(int level) {
        return new CodegenOptions(level, cpu, features, debugInfo, entryPoint);
    }

    /**
     * These options with DWARF line tables for the host code ({@code -g}), or without.
     *
     * @param on whether to emit debug info
     * @return the new options
     */
    public CodegenOptions withDebugInfo(boolean on) {
        return new CodegenOptions(optLevel, cpu, features, on, entryPoint);
    }

    /**
     * These options with a C {@code main} that calls {@code name}, or without one.
     *
     * @param name the function of no arguments and no results to call, or null for no {@code main}
     * @return the new options
     */
    public CodegenOptions withEntryPoint(String name) {
        return new CodegenOptions(optLevel, cpu, features, debugInfo, name);
    }
}
