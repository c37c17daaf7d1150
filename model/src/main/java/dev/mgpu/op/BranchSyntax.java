package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The unconditional and conditional branch, as {@code cf.br} and {@code cf.cond_br} write them; the llvm
 * dialect's {@code llvm.br} and {@code llvm.cond_br} are the same ops under other names, so each
 * definition here is for any name.
 */
public final class BranchSyntax {
    private BranchSyntax() {
    }

    /**
     * The definition of {@code NAME ^bb[(%args : T)]} under {@code name}, whose operands must have types
     * that {@code ok} accepts.
     *
     * @param name the op's name
     * @param ok accepts the operand types the op allows
     * @return the op definition
     */
    public static OpDef branch(String name, Predicate<Type> ok) {
        return OpDef.of(name).terminator().syntax((p, n, loc) -> {
            List<Value> args = new ArrayList<>();
            Block b = p.successorWithOperands(args);
            return Operation.create(name, loc, args, List.of(), p.optionalDictionary(), 0, List.of(b));
        }, (p, op) -> {
            p.write(' ').successorWithOperands(op.successors().get(0), op.operands());
            p.attrDict(op, Set.of());
        }).verifier((op, ctx) -> {
            verifyOperandTypes(op, ctx, ok);
            verifySuccessorArgs(op, ctx, op.successors().get(0), op.operands());
        });
    }

    /**
     * The definition of {@code NAME %c, ^t[(%a : T)], ^f[(%b : U)]} under {@code name}, with operand
     * segments {@code [1, |t|, |f|]}, whose operands must have types that {@code ok} accepts.
     *
     * @param name the op's name
     * @param ok accepts the operand types the op allows
     * @return the op definition
     */
    public static OpDef conditionalBranch(String name, Predicate<Type> ok) {
        return OpDef.of(name).terminator().inherent("operandSegmentSizes", "branch_weights").syntax((p, n, loc) -> {
            Value c = p.resolve(p.operandRef(), Type.I1);
            Attribute weights = null;
            if (p.optionalKeyword("weights")) {
                p.expectPunct('(');
                p.expectPunct('[');
                long a = p.integer();
                p.expectPunct(',');
                long b = p.integer();
                p.expectPunct(']');
                p.expectPunct(')');
                weights = Attribute.DenseArrayAttr.i32((int) a, (int) b);
            }
            p.expectPunct(',');
            List<Value> t = new ArrayList<>();
            Block tb = p.successorWithOperands(t);
            p.expectPunct(',');
            List<Value> f = new ArrayList<>();
            Block fb = p.successorWithOperands(f);
            List<Value> ops = new ArrayList<>();
            ops.add(c);
            ops.addAll(t);
            ops.addAll(f);
            Operation op = Operation.create(name, loc, ops, List.of(),
                    Map.of("operandSegmentSizes", Attribute.DenseArrayAttr.i32(1, t.size(), f.size())), 0,
                    List.of(tb, fb));
            if (weights != null) {
                op.setAttr("branch_weights", weights);
            }
            for (Map.Entry<String, Attribute> e : p.optionalDictionary().entrySet()) {
                op.setAttr(e.getKey(), e.getValue());
            }
            return op;
        }, (p, op) -> {
            p.write(' ').operand(op.operand(0));
            if (op.attr("branch_weights") instanceof Attribute.DenseArrayAttr w && w.size() == 2) {
                p.write(" weights([").write(Long.toString(w.get(0))).write(", ").write(Long.toString(w.get(1)))
                        .write("])");
            }
            p.write(", ");
            p.successorWithOperands(op.successors().get(0), op.segment(1)).write(", ");
            p.successorWithOperands(op.successors().get(1), op.segment(2));
            p.attrDict(op, Set.of("operandSegmentSizes", "branch_weights"));
        }).verifier((op, ctx) -> {
            ctx.expectType(op, "condition of " + op.name(), op.operand(0), Type.I1);
            if (op.attr("branch_weights") != null && !(op.attr("branch_weights") instanceof Attribute.DenseArrayAttr w
                    && w.elementType().equals(Type.I32) && w.size() == 2 && w.get(0) >= 0 && w.get(1) >= 0)) {
                ctx.error(op, "Invalid branch_weights of " + op.name() + " (must be array<i32: t, f> of two"
                        + " weights >= 0): " + op.attr("branch_weights"));
            }
            verifyOperandTypes(op, ctx, ok);
            verifySuccessorArgs(op, ctx, op.successors().get(0), op.segment(1));
            verifySuccessorArgs(op, ctx, op.successors().get(1), op.segment(2));
        });
    }

    private static void verifyOperandTypes(Operation op, VerifyContext ctx, Predicate<Type> ok) {
        for (Value v : op.operands()) {
            if (!ok.test(v.type())) {
                ctx.error(op, "Invalid operand of " + op.name() + " (must have a type of its dialect): " + v.type());
                return;
            }
        }
    }

    private static void verifySuccessorArgs(Operation op, VerifyContext ctx, Block dest, List<Value> args) {
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
