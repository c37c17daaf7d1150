package dev.mgpu.dialect.cf;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The cf dialect: {@code cf.br} and {@code cf.cond_br}. The llvm dialect's {@code llvm.br} and
 * {@code llvm.cond_br} are the same ops under other names, so each class here defines its op for any
 * name.
 */
public final class Cf {
    private Cf() {
    }

    /**
     * Every op of the dialect.
     *
     * @return the op definitions
     */
    public static List<OpDef> ops() {
        return List.of(BrOp.definition(BrOp.NAME, t -> true), CondBrOp.definition(CondBrOp.NAME, t -> true));
    }

    /** {@code cf.br ^bb[(%args : T)]}. */
    public static final class BrOp extends OpView {
        /** The op's name. */
        public static final String NAME = "cf.br";

        /**
         * A view of {@code cf.br} or of the op of another name that shares its definition.
         *
         * @param op the branch op, of any name
         */
        public BrOp(Operation op) {
            super(op, op.name());
        }

        /**
         * Creates an unconditional branch named {@code name} ({@code cf.br} or {@code llvm.br}).
         *
         * @param loc the op's location
         * @param name the op's name
         * @param dest the target block
         * @param args the values passed to the target's arguments
         * @return the new, detached op
         */
        public static BrOp create(Location loc, String name, Block dest, List<Value> args) {
            return new BrOp(Operation.create(name, loc, args, List.of(), Map.of(), 0, List.of(dest)));
        }

        /**
         * The target block.
         *
         * @return successor 0
         */
        public Block dest() {
            return op.successors().get(0);
        }

        /**
         * The values passed to the target's arguments.
         *
         * @return the op's operands
         */
        public List<Value> destOperands() {
            return op.operands();
        }

        /**
         * The definition of the branch under {@code name}, whose operands must have types that {@code ok} accepts.
         *
         * @param name the op's name
         * @param ok accepts the operand types the op allows
         * @return the op definition
         */
        public static OpDef definition(String name, Predicate<Type> ok) {
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
    }

    /** {@code cf.cond_br %c, ^t[(%a : T)], ^f[(%b : U)]}; operand segments {@code [1, |t|, |f|]}. */
    public static final class CondBrOp extends OpView {
        /** The op's name. */
        public static final String NAME = "cf.cond_br";

        /**
         * A view of {@code cf.cond_br} or of the op of another name that shares its definition.
         *
         * @param op the conditional branch op, of any name
         */
        public CondBrOp(Operation op) {
            super(op, op.name());
        }

        /**
         * Creates a conditional branch named {@code name} ({@code cf.cond_br} or {@code llvm.cond_br}).
         *
         * @param loc the op's location
         * @param name the op's name
         * @param cond the {@code i1} condition
         * @param t the block taken when the condition holds
         * @param tArgs the values passed to {@code t}'s arguments
         * @param f the block taken otherwise
         * @param fArgs the values passed to {@code f}'s arguments
         * @return the new, detached op
         */
        public static CondBrOp create(Location loc, String name, Value cond, Block t, List<Value> tArgs, Block f,
                List<Value> fArgs) {
            List<Value> ops = new ArrayList<>();
            ops.add(cond);
            ops.addAll(tArgs);
            ops.addAll(fArgs);
            return new CondBrOp(Operation.create(name, loc, ops, List.of(),
                    Map.of("operandSegmentSizes", Attribute.DenseArrayAttr.i32(1, tArgs.size(), fArgs.size())), 0,
                    List.of(t, f)));
        }

        /**
         * The {@code i1} condition.
         *
         * @return operand 0
         */
        public Value condition() {
            return op.operand(0);
        }

        /**
         * The block taken when the condition holds.
         *
         * @return successor 0
         */
        public Block trueDest() {
            return op.successors().get(0);
        }

        /**
         * The values passed to {@link #trueDest()}.
         *
         * @return operand segment 1
         */
        public List<Value> trueOperands() {
            return op.segment(1);
        }

        /**
         * The block taken otherwise.
         *
         * @return successor 1
         */
        public Block falseDest() {
            return op.successors().get(1);
        }

        /**
         * The values passed to {@link #falseDest()}.
         *
         * @return operand segment 2
         */
        public List<Value> falseOperands() {
            return op.segment(2);
        }

        /**
         * The definition of the conditional branch under {@code name}, whose operands must have types that
         * {@code ok} accepts.
         *
         * @param name the op's name
         * @param ok accepts the operand types the op allows
         * @return the op definition
         */
        public static OpDef definition(String name, Predicate<Type> ok) {
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
                Operation op = create(loc, name, c, tb, t, fb, f).op();
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
