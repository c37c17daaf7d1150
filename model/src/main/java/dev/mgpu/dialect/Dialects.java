package dev.mgpu.dialect;

import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.cf.Cf;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.llvm.LLVM;
import dev.mgpu.op.AttrDef;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.TypeDef;

import dev.mgpu.dialect.gpu.GpuDialect;
import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.dialect.nvvm.NVVM;
import dev.mgpu.dialect.rocdl.ROCDL;
import dev.mgpu.dialect.vector.Vector;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import dev.mgpu.op.VerifyContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The registry of the supported subset: every op by name, and the dialect attributes ({@code #...}) and
 * types ({@code !...}) by name without their sigil. Each dialect lists its own.
 */
public final class Dialects {
    /**
     * Each dialect's ops, by the prefix of their names, registered when an op of that prefix is first looked
     * up: a program reads a few dialects, and registering one costs up to 20 ms at start-up (the llvm
     * dialect's 75 ops), about a tenth of translating a small kernel.
     */
    private static final Map<String, Supplier<List<OpDef>>> DIALECTS = Map.ofEntries(
            Map.entry("builtin", Builtin::ops), Map.entry("func", Func::ops), Map.entry("arith", Arith::ops),
            Map.entry("cf", Cf::ops), Map.entry("llvm", LLVM::ops), Map.entry("gpu", GpuDialect::ops),
            Map.entry("math", MathDialect::ops), Map.entry("memref", MemRef::ops), Map.entry("scf", Scf::ops),
            Map.entry("nvvm", NVVM::ops), Map.entry("rocdl", ROCDL::ops), Map.entry("vector", Vector::ops));
    private static final Map<String, OpDef> OPS = new ConcurrentHashMap<>();
    private static final Set<String> LOADED = ConcurrentHashMap.newKeySet();
    private static final Map<String, AttrDef> ATTRIBUTES = new HashMap<>();
    private static final Map<String, TypeDef> TYPES = new HashMap<>();

    static {
        for (List<AttrDef> defs : List.of(GpuDialect.attributes(), LLVM.attributes(), Arith.attributes(),
                Vector.attributes())) {
            for (AttrDef d : defs) {
                register(ATTRIBUTES, d.name(), d);
            }
        }
        for (List<TypeDef> defs : List.of(LLVM.types(), GpuDialect.types())) {
            for (TypeDef d : defs) {
                register(TYPES, d.name(), d);
            }
        }
    }

    /** The op named {@code name}, registering its dialect first if need be; null if there is none. */
    private static OpDef op(String name) {
        OpDef d = OPS.get(name);
        if (d != null) {
            return d;
        }
        int dot = name.indexOf('.');
        String prefix = dot < 0 ? name : name.substring(0, dot);
        if (LOADED.contains(prefix) || !DIALECTS.containsKey(prefix)) {
            return null;
        }
        load(prefix);
        return OPS.get(name);
    }

    private static synchronized void load(String prefix) {
        if (LOADED.contains(prefix)) {
            return;
        }
        for (OpDef d : DIALECTS.get(prefix).get()) {
            if (!d.name().startsWith(prefix + ".")) {
                throw new IllegalStateException("registered under " + prefix + ": " + d.name());
            }
            register(OPS, d.name(), d);
        }
        LOADED.add(prefix);
    }

    private static <T> void register(Map<String, T> m, String name, T def) {
        if (m.put(name, def) != null) {
            throw new IllegalStateException("registered twice: " + name);
        }
    }

    private Dialects() {
    }

    /**
     * The definition of a registered op, or null.
     *
     * @param name the op's name, such as {@code gpu.func}
     * @return the definition, or null
     */
    public static OpDef lookup(String name) {
        return op(name);
    }

    /**
     * The definition of {@code op}, or null when it is not registered.
     *
     * @param op the operation
     * @return the definition, or null
     */
    public static OpDef lookup(Operation op) {
        return op(op.name());
    }

    /**
     * The parser of the dialect attribute {@code #name}, or null.
     *
     * @param name the attribute's name without {@code #}
     * @return the parser, or null when no dialect or handler provider defines it
     */
    public static AttrDef attribute(String name) {
        AttrDef d = ATTRIBUTES.get(name);
        return d != null ? d : GpuDialect.handlerProvider(name);
    }

    /**
     * The parser of the dialect type {@code !name}, or null.
     *
     * @param name the type's name without {@code !}
     * @return the parser, or null
     */
    public static TypeDef type(String name) {
        return TYPES.get(name);
    }

    /**
     * Reports the discardable attributes of {@code op} (those named {@code dialect.name}) that break their
     * dialect's rule.
     *
     * @param op the operation
     * @param ctx where errors are reported
     */
    public static void verifyDiscardable(Operation op, VerifyContext ctx) {
        for (String key : op.attributes().keySet()) {
            if (key.startsWith("gpu.")) {
                GpuDialect.verifyAttribute(op, key, op.attr(key), ctx);
            }
        }
    }

    /**
     * Whether {@code op} must end its blocks.
     *
     * @param op the operation
     * @return true when {@code op} is registered as a terminator
     */
    public static boolean isTerminator(Operation op) {
        OpDef d = op(op.name());
        return d != null && d.isTerminator();
    }

    /**
     * Whether values defined outside {@code op}'s regions are invisible inside them.
     *
     * @param op the operation
     * @return true when {@code op} is registered as isolated from above
     */
    public static boolean isIsolatedFromAbove(Operation op) {
        OpDef d = op(op.name());
        return d != null && d.isIsolatedFromAbove();
    }

    /**
     * Whether {@code op} holds a symbol table.
     *
     * @param op the operation
     * @return true when {@code op} is registered as a symbol table
     */
    public static boolean hasSymbolTable(Operation op) {
        OpDef d = op(op.name());
        return d != null && d.hasSymbolTable();
    }
}
