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
import dev.mgpu.text.OpAsmPrinter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %v, %valid = gpu.shuffle <mode> %value, %offset, %width : T}: each lane reads {@code value} from
 * another lane of its subgroup, the lane {@code lane ^ offset} ({@code xor}), {@code lane - offset}
 * ({@code up}), {@code lane + offset} ({@code down}) or {@code offset} ({@code idx}), among the first
 * {@code width} lanes; {@code valid} is false where that lane is out of range (the lane keeps its own
 * value).
 */
public final class ShuffleOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.shuffle";
    /** The modes. */
    public static final List<String> MODES = List.of("xor", "up", "down", "idx");

    /**
     * Views a {@code gpu.shuffle}.
     *
     * @param op the op
     */
    public ShuffleOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a shuffle.
     *
     * @param loc where the op comes from
     * @param mode one of {@link #MODES}
     * @param value the value each lane offers
     * @param offset the i32 offset or lane
     * @param width the i32 number of lanes taking part
     * @return the new op, detached
     */
    public static ShuffleOp create(Location loc, String mode, Value value, Value offset, Value width) {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("Invalid shuffle mode (must be one of " + MODES + "): " + mode);
        }
        return new ShuffleOp(Operation.create(NAME, loc, List.of(value, offset, width), List.of(value.type(), Type.I1),
                Map.of("mode", new ShuffleModeAttr(mode))));
    }

    /** {@return the mode, one of {@link #MODES}} */
    public String mode() {
        return ((ShuffleModeAttr) op.attr("mode")).mode();
    }

    /** {@return the value each lane offers} */
    public Value value() {
        return op.operand(0);
    }

    /** {@return the offset ({@code xor}, {@code up}, {@code down}) or lane ({@code idx})} */
    public Value offset() {
        return op.operand(1);
    }

    /** {@return how many lanes take part} */
    public Value width() {
        return op.operand(2);
    }

    static OpDef definition() {
        return OpDef.of(NAME).inherent("mode").syntax(ShuffleOp::parse, ShuffleOp::print).verifier(ShuffleOp::verify)
                .resultNames("shuffleResult", "valid");
    }

    private static Operation parse(OpAsmParser p, int results, Location loc) {
        int off = p.offset();
        String mode = p.keyword();
        if (!MODES.contains(mode)) {
            throw p.errorAt(off, "Invalid shuffle mode (must be xor, up, down or idx): " + mode);
        }
        int refsOff = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 3) {
            throw p.errorAt(refsOff, "Invalid operands of gpu.shuffle (must be value, offset, width): " + refs.size());
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("mode", new ShuffleModeAttr(mode));
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        List<Value> operands = List.of(p.resolve(refs.get(0), t), p.resolve(refs.get(1), Type.I32),
                p.resolve(refs.get(2), Type.I32));
        return Operation.create(NAME, loc, operands, List.of(t, Type.I1), attrs);
    }

    private static void print(OpAsmPrinter p, Operation op) {
        p.write(' ').write(new ShuffleOp(op).mode()).write(' ').operands(op.operands());
        p.attrDict(op, Set.of("mode"));
        p.write(" : ").type(op.operand(0).type());
    }

    private static void verify(Operation op, VerifyContext ctx) {
        if (!Syntax.verifyCounts(op, ctx, 3, 2)) {
            return;
        }
        if (!(op.attr("mode") instanceof ShuffleModeAttr)) {
            ctx.error(op, "Invalid mode of gpu.shuffle (must be #gpu<shuffle_mode ...>): " + op.attr("mode"));
        }
        Type t = op.operand(0).type();
        boolean ok = t instanceof Type.IntegerType i && (i.width() == 32 || i.width() == 64)
                || t instanceof Type.FloatType f && (f.width() == 32 || f.width() == 64);
        if (!ok) {
            ctx.error(op, "Invalid value of gpu.shuffle (must be i32, i64, f32 or f64): " + t);
        }
        ctx.expectType(op, "offset of gpu.shuffle", op.operand(1), Type.I32);
        ctx.expectType(op, "width of gpu.shuffle", op.operand(2), Type.I32);
        if (!op.result(0).type().equals(t) || !op.result(1).type().equals(Type.I1)) {
            ctx.error(op, "Invalid results of gpu.shuffle (must be " + t + ", i1): " + op.result(0).type() + ", "
                    + op.result(1).type());
        }
        KernelOps.verifyInKernel(op, ctx);
    }
}
