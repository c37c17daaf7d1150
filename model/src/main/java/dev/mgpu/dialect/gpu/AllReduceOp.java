package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %r = gpu.all_reduce [<op>] %x [uniform] { [body] } : (T) -> T}: every thread of the block gets the
 * values of all the block's threads combined, by {@code op} (one of {@link SubgroupReduceOp#OPS}) or by the
 * body, a block of two arguments of type T that ends with {@code gpu.yield} of one T and uses no value from
 * outside it (it is isolated from above, as upstream's is). Every thread of the
 * block must reach it, as a barrier; the combination must be associative and commutative, since the order
 * of combining differs between targets, and a body should have no side effects: on a GPU it also runs for
 * pairs whose result is not used (a partner lane past the block's last thread).
 */
public final class AllReduceOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.all_reduce";

    /**
     * Views a {@code gpu.all_reduce}.
     *
     * @param op the op
     */
    public AllReduceOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a reduction by one of the named ways to combine values.
     *
     * @param loc where the op comes from
     * @param kind one of {@link SubgroupReduceOp#OPS}
     * @param value each thread's value, an integer or float
     * @param uniform whether every thread of the block reaches the op (as it must)
     * @return the new op, detached
     */
    public static AllReduceOp create(Location loc, String kind, Value value, boolean uniform) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("op", new AllReduceOpAttr(kind));
        if (uniform) {
            attrs.put("uniform", Attribute.UNIT);
        }
        return new AllReduceOp(Operation.create(NAME, loc, List.of(value), List.of(value.type()), attrs,
                List.of(new Region()), List.of()));
    }

    /**
     * Creates a reduction by a body: its block has the two values to combine as arguments, and the caller
     * appends the ops that combine them, ending with {@link #yield}.
     *
     * @param loc where the op comes from
     * @param value each thread's value, an integer or float
     * @param uniform whether every thread of the block reaches the op (as it must)
     * @return the new op, detached
     */
    public static AllReduceOp createWithBody(Location loc, Value value, boolean uniform) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        if (uniform) {
            attrs.put("uniform", Attribute.UNIT);
        }
        Region body = new Region();
        Block b = body.append(new Block(loc));
        b.addArgument(value.type(), loc);
        b.addArgument(value.type(), loc);
        return new AllReduceOp(Operation.create(NAME, loc, List.of(value), List.of(value.type()), attrs,
                List.of(body), List.of()));
    }

    /**
     * Creates the {@code gpu.yield} that ends a body.
     *
     * @param loc where the op comes from
     * @param value the combined value
     * @return the new op, detached
     */
    public static Operation yield(Location loc, Value value) {
        return Operation.create(YIELD, loc, List.of(value), List.of(), Map.of());
    }

    /** {@return the way to combine values, one of {@link SubgroupReduceOp#OPS}, or null for a body} */
    public String kind() {
        return op.attr("op") instanceof AllReduceOpAttr a ? a.op() : null;
    }

    /** {@return each thread's value} */
    public Value value() {
        return op.operand(0);
    }

    /** {@return the block that combines two values, or null when the op names its way} */
    public Block body() {
        return op.region(0).isEmpty() ? null : op.region(0).entry();
    }

    /** {@return the value that the body yields, or null when the op names its way} */
    public Value yielded() {
        Block b = body();
        return b == null ? null : b.terminator().operand(0);
    }

    /** The terminator of a body. */
    public static final String YIELD = "gpu.yield";

    static Operation parse(OpAsmParser p, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        int off = p.offset();
        if (!p.atValue()) {
            String kind = p.keyword();
            if (!SubgroupReduceOp.OPS.contains(kind)) {
                throw p.errorAt(off, "Invalid reduction of " + NAME + " (must be one of "
                        + String.join(", ", SubgroupReduceOp.OPS) + "): " + kind);
            }
            attrs.put("op", new AllReduceOpAttr(kind));
        }
        OpAsmParser.OperandRef ref = p.operandRef();
        if (p.optionalKeyword("uniform")) {
            attrs.put("uniform", Attribute.UNIT);
        }
        Region body = p.region(null, false);
        attrs.putAll(p.optionalDictionary());
        int typeOff = p.offset();
        p.expectPunct(':');
        Type.FunctionType ft = p.functionType();
        if (ft.inputs().size() != 1 || ft.results().size() != 1) {
            throw p.errorAt(typeOff, "Invalid type of " + NAME + " (must be (T) -> T): " + ft);
        }
        return Operation.create(NAME, loc, List.of(p.resolve(ref, ft.inputs().get(0))), ft.results(), attrs,
                List.of(body), List.of());
    }

    static void print(dev.mgpu.text.OpAsmPrinter p, Operation op) {
        AllReduceOp r = new AllReduceOp(op);
        if (r.kind() != null) {
            p.write(' ').write(r.kind());
        }
        p.write(' ').operand(op.operand(0));
        if (op.hasAttr("uniform")) {
            p.write(" uniform");
        }
        p.write(' ').region(op.region(0), true);
        p.attrDict(op, Set.of("op", "uniform"));
        p.write(" : (").type(op.operand(0).type()).write(") -> ").type(op.result(0).type());
    }

    static void verify(Operation op, VerifyContext ctx) {
        if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
            return;
        }
        if (op.regions().size() != 1) {
            ctx.error(op, "Invalid regions of " + NAME + " (must be one, empty or the body): " + op.regions().size());
            return;
        }
        Type t = op.operand(0).type();
        if (!(t instanceof Type.FloatType) && !(t instanceof Type.IntegerType)) {
            ctx.error(op, "Invalid operand of " + NAME + " (must be an integer or float): " + t);
            return;
        }
        if (!t.equals(op.result(0).type())) {
            ctx.error(op, "Invalid result of " + NAME + " (must be its operand's type, " + t + "): "
                    + op.result(0).type());
            return;
        }
        Attribute kind = op.attr("op");
        Region body = op.region(0);
        if ((kind == null) == body.isEmpty()) {
            ctx.error(op, "Invalid " + NAME + " (must have either an op or a body, not "
                    + (kind == null ? "neither" : "both") + ")");
            return;
        }
        if (kind != null) {
            if (!(kind instanceof AllReduceOpAttr a)) {
                ctx.error(op, "Invalid op of " + NAME + " (must be #gpu<all_reduce_op ...>): " + kind);
                return;
            }
            if (!SubgroupReduceOp.reducesType(op, ctx, a.op(), t)) {
                return;
            }
        } else {
            Block entry = body.entry();
            List<Type> args = new ArrayList<>();
            entry.arguments().forEach(a -> args.add(a.type()));
            if (!args.equals(List.of(t, t))) {
                ctx.error(op, "Invalid body of " + NAME + " (must have two arguments of type " + t + "): "
                        + args.size() + " arguments " + args);
                return;
            }
            if (body.blocks().size() != 1) {
                ctx.error(op, "Invalid body of " + NAME + " (must be one block): " + body.blocks().size()
                        + " blocks");
                return;
            }
            Operation end = entry.operations().isEmpty() ? null : entry.terminator();
            if (end == null || !end.name().equals(YIELD)) {
                ctx.error(op, "Invalid body of " + NAME + " (must end with " + YIELD + "): "
                        + (end == null ? "no ops" : end.name()));
                return;
            }
        }
        KernelOps.verifyInKernel(op, ctx);
    }

    static void verifyYield(Operation op, VerifyContext ctx) {
        Operation parent = op.parentOp();
        if (parent == null || !parent.name().equals(NAME)) {
            ctx.error(op, "Invalid " + YIELD + " (must end the body of " + NAME + "): "
                    + (parent == null ? "top level" : parent.name()));
            return;
        }
        Type t = parent.operand(0).type();
        if (op.operandCount() != 1 || !op.operand(0).type().equals(t)) {
            ctx.error(op, "Invalid " + YIELD + " of " + NAME + " (must yield one " + t + "): "
                    + Syntax.types(op.operands()));
        }
    }

    static OpDef definition() {
        return OpDef.of(NAME).isolatedFromAbove().inherent("op", "uniform")
                .syntax((p, n, loc) -> parse(p, loc), AllReduceOp::print).verifier(AllReduceOp::verify);
    }

    static OpDef yieldDefinition() {
        return OpDef.of(YIELD).terminator().syntax((p, n, loc) -> Syntax.returnLike(p, loc, YIELD),
                Syntax::printReturnLike).verifier(AllReduceOp::verifyYield);
    }
}
