package dev.mgpu.dialect.arith;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.ArithmeticSyntax;
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
 * The arith ops that compare or choose: {@code arith.cmpi}, {@code arith.cmpf} and {@code arith.select}.
 * Each op is a nested class with its name, accessors, creation, syntax and rules.
 */
public final class Comparisons {
    private Comparisons() {
    }

    /**
     * {@code %r = arith.cmpi <predicate>, %a, %b : T}; the predicate is stored by its number in
     * {@link #PREDICATES}, which {@code llvm.icmp} shares.
     */
    public static final class CmpIOp extends OpView {
        /** The op's name. */
        public static final String NAME = "arith.cmpi";

        /** The predicates, in the order of their numeric values. */
        public static final List<String> PREDICATES = ArithmeticSyntax.INTEGER_PREDICATES;

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code arith.cmpi} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public CmpIOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code arith.cmpi predicate, a, b}.
         *
         * @param loc the op's location
         * @param predicate the predicate's name
         * @param a the left operand
         * @param b the right operand
         * @return the new, detached op, whose result is an {@code i1}
         * @throws IllegalArgumentException if {@code predicate} is not one of {@link #PREDICATES}
         */
        public static CmpIOp create(Location loc, String predicate, Value a, Value b) {
            int p = PREDICATES.indexOf(predicate);
            if (p < 0) {
                throw new IllegalArgumentException("Invalid predicate (must be one of " + PREDICATES + "): "
                        + predicate);
            }
            return new CmpIOp(Operation.create(NAME, loc, List.of(a, b), List.of(Type.I1),
                    Map.of("predicate", Attribute.IntegerAttr.i64(p))));
        }

        /**
         * The predicate's number in {@link #PREDICATES}.
         *
         * @return the number, as stored
         */
        public int predicate() {
            return (int) ((Attribute.IntegerAttr) op.attr("predicate")).value();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("predicate").syntax(CmpIOp::parse, CmpIOp::print)
                    .verifier(CmpIOp::verify);
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            int off = p.offset();
            int idx = ArithmeticSyntax.predicateNumber(p, off, p.keyword());
            p.expectPunct(',');
            return ArithmeticSyntax.parseComparison(p, loc, NAME, off, idx);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').write(ArithmeticSyntax.predicateName(op)).write(", ").operands(op.operands());
            p.attrDict(op, Set.of("predicate"));
            p.write(" : ").type(op.operand(0).type());
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            ArithmeticSyntax.verifyPredicate(op, ctx);
            if (ctx.expectIntegerOrIndex(op, "operand of arith.cmpi", op.operand(0))
                    && !op.operand(1).type().equals(op.operand(0).type())) {
                ctx.error(op, "Invalid operand types of arith.cmpi (must both be " + op.operand(0).type() + "): "
                        + op.operand(1).type());
            }
        }
    }

    /** {@code %r = arith.select %cond, %a, %b : T}. */
    public static final class SelectOp extends OpView {
        /** The op's name. */
        public static final String NAME = "arith.select";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code arith.select} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public SelectOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code cond ? a : b}.
         *
         * @param loc the op's location
         * @param cond the {@code i1} condition
         * @param a the value when the condition holds
         * @param b the value otherwise, of {@code a}'s type
         * @return the new, detached op, whose result has {@code a}'s type
         */
        public static SelectOp create(Location loc, Value cond, Value a, Value b) {
            return new SelectOp(Operation.create(NAME, loc, List.of(cond, a, b), List.of(a.type()), Map.of()));
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
         * The value when the condition holds.
         *
         * @return operand 1
         */
        public Value trueValue() {
            return op.operand(1);
        }

        /**
         * The value otherwise.
         *
         * @return operand 2
         */
        public Value falseValue() {
            return op.operand(2);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(SelectOp::parse, SelectOp::print).verifier(SelectOp::verify);
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            int off = p.offset();
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != 3) {
                throw p.errorAt(off, "Invalid operands of arith.select (must be three): " + refs.size());
            }
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type t = p.type();
            List<Value> vals = List.of(p.resolve(refs.get(0), Type.I1), p.resolve(refs.get(1), t),
                    p.resolve(refs.get(2), t));
            return Operation.create(NAME, loc, vals, List.of(t), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operands(op.operands());
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.result(0).type());
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 3, 1)) {
                return;
            }
            ctx.expectType(op, "condition of arith.select", op.operand(0), Type.I1);
            if (!op.operand(1).type().equals(op.operand(2).type())) {
                ctx.error(op, "Invalid operand types of arith.select (must both be " + op.operand(1).type() + "): "
                        + op.operand(2).type());
            }
        }
    }

    /**
     * {@code %r = arith.cmpf <predicate>, %a, %b [fastmath<...>] : T}: compares floats; the predicate is
     * stored by its number in {@link #PREDICATES}. The ordered predicates ({@code o...}) are false when either
     * operand is NaN, the unordered ones ({@code u...}) true.
     */
    public static final class CmpFOp extends OpView {
        /** The op's name. */
        public static final String NAME = "arith.cmpf";

        /** The predicates, in the order of their numeric values. */
        public static final List<String> PREDICATES = List.of("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true");

        /**
         * Views an {@code arith.cmpf}.
         *
         * @param op the op
         */
        public CmpFOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code arith.cmpf predicate, a, b}.
         *
         * @param loc where the op comes from
         * @param predicate one of {@link #PREDICATES}
         * @param a the left operand
         * @param b the right operand, of the same float type
         * @return the new op, detached
         */
        public static CmpFOp create(Location loc, String predicate, Value a, Value b) {
            int p = PREDICATES.indexOf(predicate);
            if (p < 0) {
                throw new IllegalArgumentException("Invalid predicate (must be one of " + PREDICATES + "): " + predicate);
            }
            return new CmpFOp(Operation.create(NAME, loc, List.of(a, b), List.of(Type.I1),
                    Map.of("predicate", Attribute.IntegerAttr.i64(p))));
        }

        /** {@return the predicate's number in {@link #PREDICATES}} */
        public int predicate() {
            return (int) ((Attribute.IntegerAttr) op.attr("predicate")).value();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("predicate", Arith.BinaryOp.FASTMATH).syntax(CmpFOp::parse, CmpFOp::print)
                    .verifier(CmpFOp::verify);
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            int off = p.offset();
            String pred = p.keyword();
            int idx = PREDICATES.indexOf(pred);
            if (idx < 0) {
                throw p.errorAt(off, "Invalid predicate (must be one of " + String.join(", ", PREDICATES) + "): " + pred);
            }
            p.expectPunct(',');
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != 2) {
                throw p.errorAt(off, "Invalid operands of arith.cmpf (must be two): " + refs.size());
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            ArithmeticSyntax.parseFastmath(p, attrs);
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            attrs.put("predicate", Attribute.IntegerAttr.i64(idx));
            return Operation.create(NAME, loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            long v = ((Attribute.IntegerAttr) op.attr("predicate")).value();
            p.write(' ').write(v >= 0 && v < PREDICATES.size() ? PREDICATES.get((int) v) : Long.toString(v)).write(", ")
                    .operands(op.operands());
            ArithmeticSyntax.printFastmath(p, op);
            p.attrDict(op, Set.of("predicate", Arith.BinaryOp.FASTMATH));
            p.write(" : ").type(op.operand(0).type());
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            Attribute p = op.attr("predicate");
            if (!(p instanceof Attribute.IntegerAttr i) || i.value() < 0 || i.value() >= PREDICATES.size()) {
                ctx.error(op, "Invalid predicate of arith.cmpf (must be 0 to " + (PREDICATES.size() - 1) + "): " + p);
            }
            if (!(op.operand(0).type() instanceof Type.FloatType)) {
                ctx.error(op, "Invalid operand of arith.cmpf (must be a float): " + op.operand(0).type());
            } else if (!op.operand(1).type().equals(op.operand(0).type())) {
                ctx.error(op, "Invalid operand types of arith.cmpf (must both be " + op.operand(0).type() + "): "
                        + op.operand(1).type());
            }
            ctx.expectType(op, "result of arith.cmpf", op.result(0), Type.I1);
        }
    }
}
