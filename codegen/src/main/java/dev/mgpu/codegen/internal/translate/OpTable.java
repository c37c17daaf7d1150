package dev.mgpu.codegen.internal.translate;

import dev.mgpu.ir.Operation;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a translation ({@link ModuleTranslation}, the {@code C} that each translator is given) translates ops with, assembled from each dialect's translators above it: the
 * op translators by op name, the translators of module-level globals, the ops that call the mgpu runtime
 * (host code alone), and what runs after each gpu op of host code.
 *
 * @param ops the translators of ops in function bodies
 * @param globals the translators of globals ({@code llvm.mlir.global}, {@code memref.global}), in host and kernel modules
 * @param hostOnly the ops that call the mgpu runtime, which a kernel must not hold
 * @param afterGpuOp what runs after each op of the gpu dialect in host code (streams released)
 */
public record OpTable<C>(Map<String, OpTranslator<C>> ops, Map<String, OpTranslator<C>> globals,
        Set<String> hostOnly, OpTranslator<C> afterGpuOp) {
    /** Translates one op at the builder's position. */
    @FunctionalInterface
    public interface OpTranslator<C> {
        void translate(Operation op, C translation);
    }

    /** A table to fill: {@link #ops} and {@link #globals} are mutable until {@link #freeze}. */
    public static <C> OpTable<C> builder() {
        return new OpTable<>(new HashMap<>(), new HashMap<>(), Set.of(), (op, t) -> { });
    }

    /** The table with its maps read-only, {@code hostOnly} and {@code afterGpuOp} given. */
    public OpTable<C> freeze(Set<String> hostOnly, OpTranslator<C> afterGpuOp) {
        return new OpTable<>(Map.copyOf(ops), Map.copyOf(globals), Set.copyOf(hostOnly), afterGpuOp);
    }
}
