package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gpu.printf "format" [, %a, ... : T, ...]}: each thread that runs it prints its arguments, integers,
 * indices and floats, by a C format.
 */
public final class PrintfOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.printf";

    /** The property holding the format, a string. */
    public static final String FORMAT = "format";

    /**
     * Views a {@code gpu.printf}.
     *
     * @param op the op
     */
    public PrintfOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates {@code gpu.printf}.
     *
     * @param loc where the op comes from
     * @param format the C format, without a terminating NUL
     * @param args integers, indices or floats, one per conversion of the format
     * @return the new op, detached
     */
    public static PrintfOp create(Location loc, String format, List<Value> args) {
        return new PrintfOp(Operation.create(NAME, loc, args, List.of(), Map.of(FORMAT, Attribute.StringAttr.of(format))));
    }

    /** {@return the format's bytes, without a terminating NUL} */
    public byte[] format() {
        return ((Attribute.StringAttr) op.attr(FORMAT)).bytes();
    }

    static Operation parse(OpAsmParser p, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put(FORMAT, new Attribute.StringAttr(p.stringBytes()));
        attrs.putAll(p.optionalDictionary());
        List<Value> args = new ArrayList<>();
        if (p.optionalPunct(',')) {
            int off = p.offset();
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            p.expectPunct(':');
            List<Type> types = p.typeList();
            if (types.size() != refs.size()) {
                throw p.errorAt(off, "Invalid arguments of " + NAME + " (must have one type each): " + refs.size()
                        + " arguments, " + types.size() + " types");
            }
            for (int i = 0; i < refs.size(); i++) {
                args.add(p.resolve(refs.get(i), types.get(i)));
            }
        }
        return Operation.create(NAME, loc, args, List.of(), attrs);
    }

    static void verify(Operation op, VerifyContext ctx) {
        if (!(op.attr(FORMAT) instanceof Attribute.StringAttr)) {
            ctx.error(op, "Invalid format of " + NAME + " (must be a string): " + op.attr(FORMAT));
        }
        if (!op.results().isEmpty() || !op.regions().isEmpty()) {
            ctx.error(op, "Invalid " + NAME + " (must have no results and no regions)");
        }
        for (Value v : op.operands()) {
            if (!(v.type().isIntegerOrIndex() || v.type() instanceof Type.FloatType)) {
                ctx.error(op, "Invalid argument of " + NAME + " (must be an integer, index or float): " + v.type());
            }
        }
        KernelOps.verifyInKernel(op, ctx);
    }

    static OpDef definition() {
        return OpDef.of(NAME).inherent(FORMAT).syntax((p, n, loc) -> parse(p, loc), (p, op) -> {
            p.write(' ').attr(op.attr(FORMAT));
            p.attrDict(op, Set.of(FORMAT));
            if (!op.operands().isEmpty()) {
                p.write(", ").operands(op.operands()).write(" : ").types(op.operands().stream().map(Value::type).toList());
            }
        }).verifier(PrintfOp::verify);
    }
}
