package dev.mgpu.dialect;

import dev.mgpu.ir.Operation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** The registry of every op in the supported subset, keyed by op name. */
public final class Dialects {
    private static final Map<String, OpDef> OPS;

    static {
        Map<String, OpDef> m = new HashMap<>();
        for (OpDef d : Builtin.ops()) {
            m.put(d.name(), d);
        }
        for (OpDef d : Func.ops()) {
            m.put(d.name(), d);
        }
        for (OpDef d : Arith.ops()) {
            m.put(d.name(), d);
        }
        for (OpDef d : Cf.ops()) {
            m.put(d.name(), d);
        }
        for (OpDef d : LLVM.ops()) {
            m.put(d.name(), d);
        }
        for (OpDef d : Gpu.ops()) {
            m.put(d.name(), d);
        }
        OPS = Collections.unmodifiableMap(m);
    }

    private Dialects() {
    }

    /** The definition of a registered op, or null. */
    public static OpDef lookup(String name) {
        return OPS.get(name);
    }

    public static OpDef lookup(Operation op) {
        return OPS.get(op.name());
    }

    public static Map<String, OpDef> all() {
        return OPS;
    }

    public static boolean isTerminator(Operation op) {
        OpDef d = OPS.get(op.name());
        return d != null && d.isTerminator();
    }

    public static boolean isIsolatedFromAbove(Operation op) {
        OpDef d = OPS.get(op.name());
        return d != null && d.isIsolatedFromAbove();
    }

    public static boolean hasSymbolTable(Operation op) {
        OpDef d = OPS.get(op.name());
        return d != null && d.hasSymbolTable();
    }
}
