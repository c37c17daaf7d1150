package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %m[, %t] = gpu.alloc [async] [deps] [host_shared] (%dynamicSizes)[%symbols] : memref<...>};
 * operand segments {@code [deps, dynamicSizes, symbolOperands]}.
 */
public final class AllocOp extends AsyncOpView {
    /** The op's name. */
    public static final String NAME = "gpu.alloc";

    private static final int SEG_SIZES = 1;
    private static final int SEG_SYMBOLS = 2;
    private static final int SEGMENTS = 3;

    /**
     * Views {@code op} as a {@code gpu.alloc}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.alloc}
     */
    public AllocOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates an allocation of {@code type} with one size per dynamic dimension.
     *
     * @param loc the op's location
     * @param deps the tokens to wait for first
     * @param async whether to return a token as well
     * @param hostShared whether the memory is reachable from host and device
     * @param type the memref type to allocate
     * @param dynamicSizes one {@code index} per dynamic dimension of {@code type}
     * @return the new, detached op
     */
    public static AllocOp create(Location loc, List<Value> deps, boolean async, boolean hostShared,
            Type.MemRefType type, List<Value> dynamicSizes) {
        List<Value> ops = new ArrayList<>(deps);
        ops.addAll(dynamicSizes);
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(deps.size(), dynamicSizes.size(), 0));
        if (hostShared) {
            attrs.put("hostShared", Attribute.UNIT);
        }
        return new AllocOp(Operation.create(NAME, loc, ops, async ? List.of(type, Type.ASYNC_TOKEN) : List.of(type),
                attrs));
    }

    /**
     * One index per dynamic dimension of the result.
     *
     * @return operand segment 1
     */
    public List<Value> dynamicSizes() {
        return op.segment(SEG_SIZES);
    }

    /**
     * Whether the memory is reachable from host and device ({@code host_shared}).
     *
     * @return true when the op has the {@code hostShared} attribute
     */
    public boolean hostShared() {
        return op.hasAttr("hostShared");
    }

    /**
     * The allocated memref.
     *
     * @return result 0
     */
    public Value memref() {
        return op.result(0);
    }

    /**
     * The type of the allocated memref.
     *
     * @return the type of result 0
     */
    public Type.MemRefType type() {
        return (Type.MemRefType) op.result(0).type();
    }

    static OpDef definition() {
        return OpDef.of(NAME).inherent("operandSegmentSizes", "hostShared").resultNames("memref", "asyncToken")
                .syntax(AllocOp::parse, AllocOp::print)
                .verifier(AllocOp::verify);
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        Deps deps = parseDeps(p, results);
        boolean hostShared = p.optionalKeyword("host_shared");
        p.expectPunct('(');
        List<OpAsmParser.OperandRef> sizes = p.operandRefs();
        p.expectPunct(')');
        List<OpAsmParser.OperandRef> syms = new ArrayList<>();
        if (p.optionalPunct('[')) {
            syms = p.operandRefs();
            p.expectPunct(']');
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        int off = p.offset();
        Type t = p.type();
        if (!(t instanceof Type.MemRefType)) {
            throw p.errorAt(off, "Invalid gpu.alloc type (must be a ranked memref): " + t);
        }
        List<Value> ops = new ArrayList<>(deps.deps());
        ops.addAll(p.resolveAll(sizes, Type.INDEX));
        ops.addAll(p.resolveAll(syms, Type.INDEX));
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(deps.deps().size(), sizes.size(), syms.size()));
        if (hostShared) {
            attrs.put("hostShared", Attribute.UNIT);
        }
        return Operation.create(NAME, loc, ops, deps.results(t), attrs);
    }

    static void print(OpAsmPrinter p, Operation op) {
        AllocOp a = new AllocOp(op);
        printDeps(p, a.asyncToken() != null, a.asyncDependencies());
        if (a.hostShared()) {
            p.write(" host_shared");
        }
        p.write(" (").operands(a.dynamicSizes()).write(')');
        List<Value> syms = op.segment(SEG_SYMBOLS);
        if (!syms.isEmpty()) {
            p.write('[').operands(syms).write(']');
        }
        p.attrDict(op, Set.of("operandSegmentSizes", "hostShared"));
        p.write(" : ").type(op.result(0).type());
    }

    static void verify(Operation op, VerifyContext ctx) {
        if (!verifySegments(op, ctx, SEGMENTS)) {
            return;
        }
        verifyAsync(op, ctx, 1);
        if (!(op.result(0).type() instanceof Type.MemRefType m)) {
            ctx.error(op, "Invalid gpu.alloc result (must be a ranked memref): " + op.result(0).type());
            return;
        }
        verifyByteSize(op, ctx, m);
        int dyn = m.dynamicDimCount();
        List<Value> sizes = op.segment(SEG_SIZES);
        if (sizes.size() != dyn) {
            ctx.error(op, "Invalid gpu.alloc sizes (must give one index per dynamic dimension, " + dyn + "): "
                    + sizes.size() + " sizes");
        }
        for (Value v : sizes) {
            ctx.expectType(op, "gpu.alloc size", v, Type.INDEX);
        }
        if (!(m.elementType() instanceof Type.IntegerType || m.elementType() instanceof Type.FloatType
                || m.elementType() instanceof Type.IndexType)) {
            ctx.error(op, "Invalid gpu.alloc element type (must be an integer, index or float): " + m.elementType());
        }
        if (m.layout() != null) {
            ctx.error(op, "Invalid gpu.alloc layout (must be the identity layout): " + m.layout());
        }
        if (!op.segment(SEG_SYMBOLS).isEmpty()) {
            ctx.error(op, "Invalid gpu.alloc symbol operands (must be one per symbol of the layout, which has"
                    + " none): " + op.segment(SEG_SYMBOLS).size());
        }
    }
}
