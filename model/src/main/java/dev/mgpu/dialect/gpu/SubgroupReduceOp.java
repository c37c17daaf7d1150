package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %r = gpu.subgroup_reduce <op> %x [uniform] [cluster(size = N[, stride = S])] : (T) -> T}: every
 * lane gets its cluster's values combined by {@code op}; by default the cluster is the whole subgroup. A
 * cluster of size N and stride S holds the lanes that differ from each other only in the bits of
 * {@code (N - 1) * S}.
 */
public final class SubgroupReduceOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.subgroup_reduce";

    /** The ways to combine values, as upstream names them. */
    public static final List<String> OPS = List.of("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi",
            "maxnumf", "and", "or", "xor", "minimumf", "maximumf");

    /** The combinations of integers (the rest are of floats, but add and mul, which are of both). */
    static final Set<String> INTEGER_OPS = Set.of("minui", "minsi", "maxui", "maxsi", "and", "or", "xor");

    /**
     * Views a {@code gpu.subgroup_reduce}.
     *
     * @param op the op
     */
    public SubgroupReduceOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a reduction over the whole subgroup, or over clusters of it.
     *
     * @param loc where the op comes from
     * @param kind one of {@link #OPS}
     * @param value each lane's value, an integer or float
     * @param clusterSize lanes per cluster, a power of 2; 0 for the whole subgroup
     * @param clusterStride the distance between a cluster's lanes, a power of 2
     * @return the new op, detached
     */
    public static SubgroupReduceOp create(Location loc, String kind, Value value, int clusterSize, int clusterStride) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("op", new AllReduceOpAttr(kind));
        if (clusterSize > 0) {
            attrs.put("cluster_size", new Attribute.IntegerAttr(clusterSize, Type.I32));
        }
        attrs.put("cluster_stride", new Attribute.IntegerAttr(clusterStride, Type.I32));
        return new SubgroupReduceOp(Operation.create(NAME, loc, List.of(value), List.of(value.type()), attrs));
    }

    /** {@return how the values are combined, one of {@link #OPS}} */
    public String kind() {
        return ((AllReduceOpAttr) op.attr("op")).op();
    }

    /** {@return the lanes per cluster, or 0 for the whole subgroup} */
    public int clusterSize() {
        return op.attr("cluster_size") instanceof Attribute.IntegerAttr i ? (int) i.value() : 0;
    }

    /** {@return the distance between a cluster's lanes} */
    public int clusterStride() {
        return op.attr("cluster_stride") instanceof Attribute.IntegerAttr i ? (int) i.value() : 1;
    }

    static Operation parse(OpAsmParser p, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        int off = p.offset();
        String kind = p.keyword();
        if (!OPS.contains(kind)) {
            throw p.errorAt(off, "Invalid reduction of " + NAME + " (must be one of " + String.join(", ", OPS) + "): "
                    + kind);
        }
        attrs.put("op", new AllReduceOpAttr(kind));
        OpAsmParser.OperandRef ref = p.operandRef();
        if (p.optionalKeyword("uniform")) {
            attrs.put("uniform", Attribute.UNIT);
        }
        int stride = 1;
        if (p.optionalKeyword("cluster")) {
            p.expectPunct('(');
            p.expectKeyword("size");
            p.expectPunct('=');
            attrs.put("cluster_size", new Attribute.IntegerAttr(p.integer(), Type.I32));
            if (p.optionalPunct(',')) {
                p.expectKeyword("stride");
                p.expectPunct('=');
                stride = (int) p.integer();
            }
            p.expectPunct(')');
        }
        attrs.put("cluster_stride", new Attribute.IntegerAttr(stride, Type.I32));
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        Type.FunctionType ft = p.functionType();
        if (ft.inputs().size() != 1 || ft.results().size() != 1) {
            throw p.errorAt(off, "Invalid type of " + NAME + " (must be (T) -> T): " + ft);
        }
        return Operation.create(NAME, loc, List.of(p.resolve(ref, ft.inputs().get(0))), ft.results(), attrs);
    }

    static void print(dev.mgpu.text.OpAsmPrinter p, Operation op) {
        SubgroupReduceOp r = new SubgroupReduceOp(op);
        p.write(' ').write(r.kind()).write(' ').operand(op.operand(0));
        if (op.hasAttr("uniform")) {
            p.write(" uniform");
        }
        if (r.clusterSize() > 0) {
            p.write(" cluster(size = ").write(Integer.toString(r.clusterSize()));
            if (r.clusterStride() != 1) {
                p.write(", stride = ").write(Integer.toString(r.clusterStride()));
            }
            p.write(')');
        }
        p.attrDict(op, Set.of("op", "uniform", "cluster_size", "cluster_stride"));
        p.write(" : (").type(op.operand(0).type()).write(") -> ").type(op.result(0).type());
    }

    /**
     * Reports reduction {@code kind} of values of type {@code t} (an integer or float) where it does not
     * apply: {@code add} and {@code mul} reduce both, the others only integers or only floats.
     */
    static boolean reducesType(Operation op, VerifyContext ctx, String kind, Type t) {
        boolean isFloat = t instanceof Type.FloatType;
        if (kind.equals("add") || kind.equals("mul") || isFloat != INTEGER_OPS.contains(kind)) {
            return true;
        }
        ctx.error(op, "Invalid " + kind + " of " + op.name() + " (must reduce " + (isFloat ? "integers" : "floats")
                + "): " + t);
        return false;
    }

    static void verify(Operation op, VerifyContext ctx) {
        if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
            return;
        }
        if (!(op.attr("op") instanceof AllReduceOpAttr a)) {
            ctx.error(op, "Invalid op of " + NAME + " (must be #gpu<all_reduce_op ...>): " + op.attr("op"));
            return;
        }
        Type t = op.operand(0).type();
        if (!t.equals(op.result(0).type())) {
            ctx.error(op, "Invalid result of " + NAME + " (must be its operand's type, " + t + "): "
                    + op.result(0).type());
            return;
        }
        if (!(t instanceof Type.FloatType) && !(t instanceof Type.IntegerType)) {
            ctx.error(op, "Invalid operand of " + NAME + " (must be an integer or float): " + t);
            return;
        }
        reducesType(op, ctx, a.op(), t);
        for (String k : List.of("cluster_size", "cluster_stride")) {
            Attribute v = op.attr(k);
            if (v != null && !(v instanceof Attribute.IntegerAttr i && i.value() > 0 && i.value() <= 64
                    && Long.bitCount(i.value()) == 1)) {
                ctx.error(op, "Invalid " + k + " of " + NAME + " (must be a power of 2 up to 64): " + v);
            }
        }
        if (op.attr("cluster_size") == null && op.attr("cluster_stride") instanceof Attribute.IntegerAttr s
                && s.value() != 1) {
            ctx.error(op, "Invalid cluster_stride of " + NAME + " (must come with a cluster_size): " + s);
        }
        KernelOps.verifyInKernel(op, ctx);
    }

    static OpDef definition() {
        return OpDef.of(NAME).inherent("op", "uniform", "cluster_size", "cluster_stride")
                .syntax((p, n, loc) -> parse(p, loc), SubgroupReduceOp::print).verifier(SubgroupReduceOp::verify);
    }
}
