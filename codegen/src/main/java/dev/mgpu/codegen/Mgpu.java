package dev.mgpu.codegen;

import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.util.Map;

/** The facade: translate a verified module and emit it. */
public final class Mgpu {
    private Mgpu() {
    }

    /** Translation options: load strategy, target triple (null for the host) and blobs to embed by name. */
    public record Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds) {
        public static final Options DEFAULT = new Options(LoadStrategy.LAZY, null, Map.of());
    }

    public static byte[] emit(Operation module, EmitKind kind, Options options) {
        throw new MgpuException(module.location(), "Invalid --emit=" + kind.option() + " (must be mlir): not supported yet");
    }
}
