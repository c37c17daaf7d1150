package dev.mgpu.dialect;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The cf dialect, and the branch syntax that {@code llvm.br} / {@code llvm.cond_br} share with it. */
public final class Cf {
    private Cf() {
    }

    public static final String BR = "cf.br";
    public static final String COND_BR = "cf.cond_br";

    /** Creates an unconditional branch. */
    public static Operation br(Location loc, String name, Block dest, List<Value> args) {
        return Operation.create(name, loc, args, List.of(), Map.of(), 0, List.of(dest));
    }

    /** Creates a conditional branch, with the operand segments {@code [1, |t|, |f|]}. */
    public static Operation condBr(Location loc, String name, Value cond, Block t, List<Value> tArgs, Block f,
            List<Value> fArgs) {
        List<Value> ops = new ArrayList<>();
        ops.add(cond);
        ops.addAll(tArgs);
        ops.addAll(fArgs);
        return Operation.create(name, loc, ops, List.of(),
                Map.of("operandSegmentSizes", Attribute.DenseArrayAttr.i32(1, tArgs.size(), fArgs.size())), 0,
                List.of(t, f));
    }

    static List<OpDef> ops() {
        return List.of(brDef(BR), condBrDef(COND_BR));
    }

    static OpDef brDef(String name) {
        return OpDef.of(name).terminator().syntax((p, n, loc) -> {
            List<Value> args = new ArrayList<>();
            Block b = p.successorWithOperands(args);
            return Operation.create(name, loc, args, List.of(), p.optionalDictionary(), 0, List.of(b));
        }, (p, op) -> {
            p.write(' ').successorWithOperands(op.successors().get(0), op.operands());
            p.attrDict(op, Set.of());
        }).verifier((op, ctx) -> verifySuccessorArgs(op, ctx, op.successors().get(0), op.operands()));
    }

    static OpDef condBrDef(String name) {
        return OpDef.of(name).terminator().inherent("operandSegmentSizes").syntax((p, n, loc) -> {
            Value c = p.resolve(p.operandRef(), Type.I1);
            p.expectPunct(',');
            List<Value> t = new ArrayList<>();
            Block tb = p.successorWithOperands(t);
            p.expectPunct(',');
            List<Value> f = new ArrayList<>();
            Block fb = p.successorWithOperands(f);
            Operation op = condBr(loc, name, c, tb, t, fb, f);
            for (Map.Entry<String, Attribute> e : p.optionalDictionary().entrySet()) {
                op.setAttr(e.getKey(), e.getValue());
            }
            return op;
        }, (p, op) -> {
            p.write(' ').operand(op.operand(0)).write(", ");
            p.successorWithOperands(op.successors().get(0), op.segment(1)).write(", ");
            p.successorWithOperands(op.successors().get(1), op.segment(2));
            p.attrDict(op, Set.of("operandSegmentSizes"));
        }).verifier((op, ctx) -> {
            ctx.expectType(op, "condition of " + op.name(), op.operand(0), Type.I1);
            verifySuccessorArgs(op, ctx, op.successors().get(0), op.segment(1));
            verifySuccessorArgs(op, ctx, op.successors().get(1), op.segment(2));
        });
    }

    static void verifySuccessorArgs(Operation op, VerifyContext ctx, Block dest, List<Value> args) {
        if (dest.parent() == null || dest.parent() != op.parent().parent()) {
            ctx.error(op, "Invalid successor (must be a block of the same region): " + op.name());
            return;
        }
        List<Type> want = Syntax.types(dest.arguments());
        List<Type> have = Syntax.types(args);
        if (!want.equals(have)) {
            ctx.error(op, "Invalid successor operands (must match the block's arguments (" + Syntax.join(want)
                    + ")): (" + Syntax.join(have) + ")");
        }
    }
}
