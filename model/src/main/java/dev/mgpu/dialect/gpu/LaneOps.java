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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %l = gpu.lane_id [upper_bound N]} (the thread's lane in its subgroup) and
 * {@code %s = gpu.subgroup_size [upper_bound N] : index} (the lanes of a subgroup: a warp or a wavefront).
 */
public final class LaneOps extends OpView {
    /** {@code gpu.lane_id}. */
    public static final String LANE_ID = "gpu.lane_id";
    /** {@code gpu.subgroup_size}. */
    public static final String SUBGROUP_SIZE = "gpu.subgroup_size";

    /**
     * Views a {@code gpu.lane_id} or {@code gpu.subgroup_size}.
     *
     * @param op the op
     */
    public LaneOps(Operation op) {
        super(op, op.name());
        if (!op.name().equals(LANE_ID) && !op.name().equals(SUBGROUP_SIZE)) {
            throw new IllegalArgumentException("Invalid op (must be gpu.lane_id or gpu.subgroup_size): " + op.name());
        }
    }

    /**
     * Creates {@code gpu.lane_id} or {@code gpu.subgroup_size}.
     *
     * @param loc where the op comes from
     * @param name {@link #LANE_ID} or {@link #SUBGROUP_SIZE}
     * @return the new op, detached
     */
    public static LaneOps create(Location loc, String name) {
        return new LaneOps(Operation.create(name, loc, List.of(), List.of(Type.INDEX), Map.of()));
    }

    static List<OpDef> definitions() {
        return List.of(OpDef.of(LANE_ID).inherent("upper_bound").syntax((p, n, loc) -> parse(p, loc, LANE_ID),
                LaneOps::print).verifier(LaneOps::verify),
                OpDef.of(SUBGROUP_SIZE).inherent("upper_bound").syntax((p, n, loc) -> parse(p, loc, SUBGROUP_SIZE),
                        LaneOps::print).verifier(LaneOps::verify));
    }

    private static Operation parse(OpAsmParser p, Location loc, String name) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        if (p.optionalKeyword("upper_bound")) {
            attrs.put("upper_bound", new Attribute.IntegerAttr(p.integer(), Type.INDEX));
        }
        attrs.putAll(p.optionalDictionary());
        if (name.equals(SUBGROUP_SIZE)) {
            p.expectPunct(':');
            int off = p.offset();
            Type t = p.type();
            if (!t.equals(Type.INDEX)) {
                throw p.errorAt(off, "Invalid type of gpu.subgroup_size (must be index): " + t);
            }
        }
        return Operation.create(name, loc, List.of(), List.of(Type.INDEX), attrs);
    }

    private static void print(OpAsmPrinter p, Operation op) {
        if (op.attr("upper_bound") instanceof Attribute.IntegerAttr i) {
            p.write(" upper_bound ").write(Long.toString(i.value()));
        }
        p.attrDict(op, Set.of("upper_bound"));
        if (op.name().equals(SUBGROUP_SIZE)) {
            p.write(" : index");
        }
    }

    private static void verify(Operation op, VerifyContext ctx) {
        if (Syntax.verifyCounts(op, ctx, 0, 1)) {
            ctx.expectType(op, "result of " + op.name(), op.result(0), Type.INDEX);
        }
        KernelOps.verifyInKernel(op, ctx);
    }
}
