package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %i = gpu.<kind> x|y|z [upper_bound N]}: the index of the thread in its block
 * ({@code thread_id}), of the block in the grid ({@code block_id}), the sizes of the block and the grid
 * ({@code block_dim}, {@code grid_dim}) and the thread's index in the whole grid ({@code global_id}), along
 * one dimension, as an {@code index}.
 */
public final class DimensionOp extends OpView {
    /** The kinds, each an op {@code gpu.<kind>}. */
    public static final List<String> KINDS = List.of("thread_id", "block_id", "block_dim", "grid_dim", "global_id");
    /** The dimensions, in the order of their numbers. */
    public static final List<String> DIMENSIONS = List.of("x", "y", "z");

    /**
     * The op name of a kind of {@link #KINDS}.
     *
     * @param kind one of {@link #KINDS}
     * @return {@code gpu.<kind>}
     */
    public static String name(String kind) {
        return "gpu." + kind;
    }

    /**
     * Views an op of one of the kinds.
     *
     * @param op a {@code gpu.thread_id}, {@code gpu.block_id}, ... op
     */
    public DimensionOp(Operation op) {
        super(op, op.name());
        if (!op.name().startsWith("gpu.") || !KINDS.contains(op.name().substring(4))) {
            throw new IllegalArgumentException("Invalid op (must be one of gpu." + String.join(", gpu.", KINDS) + "): "
                    + op.name());
        }
    }

    /**
     * Creates {@code gpu.<kind> <dimension>}.
     *
     * @param loc where the op comes from
     * @param kind one of {@link #KINDS}
     * @param dimension 0, 1 or 2 for x, y or z
     * @return the new op, detached
     */
    public static DimensionOp create(Location loc, String kind, int dimension) {
        if (!KINDS.contains(kind) || dimension < 0 || dimension > 2) {
            throw new IllegalArgumentException("Invalid dimension op (must be one of " + KINDS + " along 0 to 2): "
                    + kind + " " + dimension);
        }
        return new DimensionOp(Operation.create(name(kind), loc, List.of(), List.of(Type.INDEX),
                Map.of("dimension", new DimensionAttr(dimension))));
    }

    /** {@return the kind, such as {@code thread_id}} */
    public String kind() {
        return op.name().substring(4);
    }

    /** {@return the dimension: 0, 1 or 2 for x, y or z} */
    public int dimension() {
        return ((DimensionAttr) op.attr("dimension")).dimension();
    }

    /** {@return the {@code upper_bound} hint, or -1 when there is none} */
    public long upperBound() {
        return op.attr("upper_bound") instanceof Attribute.IntegerAttr i ? i.value() : -1;
    }

    static List<OpDef> definitions() {
        List<OpDef> defs = new ArrayList<>();
        for (String k : KINDS) {
            String name = name(k);
            defs.add(OpDef.of(name).inherent("dimension", "upper_bound")
                    .syntax((p, n, loc) -> parse(p, loc, name), DimensionOp::print).verifier(DimensionOp::verify)
                    .resultNames(DimensionOp::resultNames));
        }
        return defs;
    }

    /** Upstream's names: the op's kind and its dimension, such as {@code %thread_id_x}. */
    private static List<String> resultNames(Operation op) {
        DimensionOp d = new DimensionOp(op);
        return List.of(d.kind() + "_" + DIMENSIONS.get(d.dimension()));
    }

    private static Operation parse(OpAsmParser p, Location loc, String name) {
        int off = p.offset();
        String d = p.keyword();
        if (!DIMENSIONS.contains(d)) {
            throw p.errorAt(off, "Invalid dimension of " + name + " (must be x, y or z): " + d);
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("dimension", new DimensionAttr(DIMENSIONS.indexOf(d)));
        if (p.optionalKeyword("upper_bound")) {
            attrs.put("upper_bound", new Attribute.IntegerAttr(p.integer(), Type.INDEX));
        }
        attrs.putAll(p.optionalDictionary());
        return Operation.create(name, loc, List.of(), List.of(Type.INDEX), attrs);
    }

    private static void print(OpAsmPrinter p, Operation op) {
        DimensionOp d = new DimensionOp(op);
        p.write(' ').write(DIMENSIONS.get(d.dimension()));
        if (d.upperBound() >= 0) {
            p.write(" upper_bound ").write(Long.toString(d.upperBound()));
        }
        p.attrDict(op, Set.of("dimension", "upper_bound"));
    }

    private static void verify(Operation op, VerifyContext ctx) {
        if (!Syntax.verifyCounts(op, ctx, 0, 1)) {
            return;
        }
        if (!(op.attr("dimension") instanceof DimensionAttr)) {
            ctx.error(op, "Invalid dimension of " + op.name() + " (must be #gpu<dim x|y|z>): " + op.attr("dimension"));
        }
        ctx.expectType(op, "result of " + op.name(), op.result(0), Type.INDEX);
        KernelOps.verifyInKernel(op, ctx);
    }
}
