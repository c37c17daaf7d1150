package dev.mgpu.dialect.cf;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Value;
import dev.mgpu.op.BranchSyntax;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import dev.mgpu.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cf dialect: {@code cf.br}, {@code cf.cond_br} and {@code cf.assert}. The llvm dialect's {@code llvm.br} and
 * {@code llvm.cond_br} are the same ops under other names, so each class here views its op of any name,
 * and {@link BranchSyntax} defines both for any name.
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
        return List.of(BranchSyntax.branch(BrOp.NAME, t -> true),
                BranchSyntax.conditionalBranch(CondBrOp.NAME, t -> true), AssertOp.definition());
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
    }

    /** {@code cf.assert %c, "message"}: the program stops with the message where {@code %c} is false. */
    public static final class AssertOp extends OpView {
        /** The op's name. */
        public static final String NAME = "cf.assert";

        /**
         * Views a {@code cf.assert}.
         *
         * @param op the op
         */
        public AssertOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code cf.assert %condition, "message"}.
         *
         * @param loc where the op comes from
         * @param condition the {@code i1} that must hold
         * @param message what the program prints when it does not
         * @return the new op, detached
         */
        public static AssertOp create(Location loc, Value condition, String message) {
            return new AssertOp(Operation.create(NAME, loc, List.of(condition), List.of(), Map.of("msg",
                    Attribute.StringAttr.of(message))));
        }

        /** {@return the {@code i1} that must hold} */
        public Value condition() {
            return op.operand(0);
        }

        /** {@return the message} */
        public String message() {
            return ((Attribute.StringAttr) op.attr("msg")).value();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("msg").syntax(AssertOp::parse, AssertOp::print).verifier(AssertOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef c = p.operandRef();
            p.expectPunct(',');
            Map<String, Attribute> attrs = new java.util.LinkedHashMap<>();
            attrs.put("msg", new Attribute.StringAttr(p.stringBytes()));
            attrs.putAll(p.optionalDictionary());
            return Operation.create(NAME, loc, List.of(p.resolve(c, Type.I1)), List.of(), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(" ").operand(op.operand(0)).write(", ").attr(op.attr("msg"));
            p.attrDict(op, java.util.Set.of("msg"));
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 0)) {
                return;
            }
            ctx.expectType(op, "condition of cf.assert", op.operand(0), Type.I1);
            if (!(op.attr("msg") instanceof Attribute.StringAttr)) {
                ctx.error(op, "Invalid msg of cf.assert (must be a string): " + op.attr("msg"));
            }
        }
    }
}
