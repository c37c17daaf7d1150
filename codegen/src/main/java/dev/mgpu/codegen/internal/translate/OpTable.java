package dev.mgpu.codegen.internal.translate;

import dev.mgpu.ir.Operation;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What {@link ModuleTranslation} translates ops with, assembled from each dialect's translators above it: the
 * op translators by op name, the translators of module-level globals, the ops that call the mgpu runtime
 * (host code alone), and what runs after each gpu op of host code.
 *
 * @param ops the translators of ops in function bodies
 * @param globals the translators of globals ({@code llvm.mlir.global}, {@code memref.global}), in host and kernel modules
 * @param hostOnly the ops that call the mgpu runtime, which a kernel must not hold
 * @param afterGpuOp what runs after each op of the gpu dialect in host code (streams released)
 */
public record OpTable(Map<String, OpTranslator> ops, Map<String, OpTranslator> globals, Set<String> hostOnly,
        OpTranslator afterGpuOp) {
    /** Translates one op at the builder's position. */
    @FunctionalInterface
    public interface OpTranslator {
        void translate(Operation op, ModuleTranslation t);
    }

    /** A table to fill: {@link #ops} and {@link #globals} are mutable until {@link #freeze}. */
    public static OpTable builder() {
        return new OpTable(new HashMap<>(), new HashMap<>(), Set.of(), (op, t) -> { });
    }

    /** The table with its maps read-only, {@code hostOnly} and {@code afterGpuOp} given. */
    public OpTable freeze(Set<String> hostOnly, OpTranslator afterGpuOp) {
        return new OpTable(Map.copyOf(ops), Map.copyOf(globals), Set.copyOf(hostOnly), afterGpuOp);
    }
}
