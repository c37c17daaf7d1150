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
import dev.mgpu.ir.Operation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of the supported subset: every op by name, and the dialect attributes ({@code #...}) and
 * types ({@code !...}) by name without their sigil. Each dialect lists its own.
 */
public final class Dialects {
    private static final Map<String, OpDef> OPS = new HashMap<>();
    private static final Map<String, AttrDef> ATTRIBUTES = new HashMap<>();
    private static final Map<String, TypeDef> TYPES = new HashMap<>();

    static {
        for (List<OpDef> defs : List.of(Builtin.ops(), Func.ops(), Arith.ops(), Cf.ops(), LLVM.ops(),
                GpuDialect.ops(), MathDialect.ops(), MemRef.ops(), Scf.ops(), NVVM.ops(), ROCDL.ops())) {
            for (OpDef d : defs) {
                register(OPS, d.name(), d);
            }
        }
        for (List<AttrDef> defs : List.of(GpuDialect.attributes(), LLVM.attributes(), Arith.attributes())) {
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
        return OPS.get(name);
    }

    /**
     * The definition of {@code op}, or null when it is not registered.
     *
     * @param op the operation
     * @return the definition, or null
     */
    public static OpDef lookup(Operation op) {
        return OPS.get(op.name());
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
     * Whether {@code op} must end its blocks.
     *
     * @param op the operation
     * @return true when {@code op} is registered as a terminator
     */
    public static boolean isTerminator(Operation op) {
        OpDef d = OPS.get(op.name());
        return d != null && d.isTerminator();
    }

    /**
     * Whether values defined outside {@code op}'s regions are invisible inside them.
     *
     * @param op the operation
     * @return true when {@code op} is registered as isolated from above
     */
    public static boolean isIsolatedFromAbove(Operation op) {
        OpDef d = OPS.get(op.name());
        return d != null && d.isIsolatedFromAbove();
    }

    /**
     * Whether {@code op} holds a symbol table.
     *
     * @param op the operation
     * @return true when {@code op} is registered as a symbol table
     */
    public static boolean hasSymbolTable(Operation op) {
        OpDef d = OPS.get(op.name());
        return d != null && d.hasSymbolTable();
    }
}
