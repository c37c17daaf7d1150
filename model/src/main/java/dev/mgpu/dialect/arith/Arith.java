package dev.mgpu.dialect.arith;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.ArithmeticSyntax;
import dev.mgpu.op.AttrDef;
import dev.mgpu.op.FlagsAttr;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arith dialect: constants, integer and float arithmetic, comparisons, casts and select. Each op (or
 * family of ops that share one syntax and rule) is a nested class with its name, accessors, creation,
 * syntax and rules.
 */
public final class Arith {
    private Arith() {
    }

    /** The integer overflow flags, {@code #arith.overflow<...>}. */
    public static final List<String> OVERFLOW_FLAGS = ArithmeticSyntax.OVERFLOW_FLAGS;
    /** The fast-math flags, {@code #arith.fastmath<...>}; {@code fast} stands for all of the others. */
    public static final List<String> FASTMATH_FLAGS = ArithmeticSyntax.FASTMATH_FLAGS;

    /** The ops whose integer results may promise no wrap: {@code overflow<nsw, nuw>}. */
    public static final List<String> OVERFLOW_KINDS = List.of("addi", "subi", "muli", "shli");

    /**
     * The dialect's attributes: {@code #arith.overflow<...>} and {@code #arith.fastmath<...>}.
     *
     * @return the attribute definitions
     */
    public static List<AttrDef> attributes() {
        return List.of(new AttrDef("arith.overflow", (p, off) -> FlagsAttr.parse(p, "arith.overflow", OVERFLOW_FLAGS)),
                new AttrDef("arith.fastmath", (p, off) -> FlagsAttr.parse(p, "arith.fastmath", FASTMATH_FLAGS)));
    }

    /**
     * Every op of the dialect.
     *
     * @return the op definitions
     */
    public static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        defs.add(ConstantOp.definition());
        defs.addAll(BinaryOp.definitions());
        defs.add(CmpIOp.definition());
        defs.addAll(CastOp.definitions());
        defs.add(SelectOp.definition());
        defs.add(CmpFOp.definition());
        defs.add(NegFOp.definition());
        return defs;
    }

    /** The width of an integer or float type in bits, else 0. */
    static int bitWidth(Type t) {
        return t instanceof Type.IntegerType i ? i.width() : t instanceof Type.FloatType f ? f.width() : 0;
    }

    /** {@code %c = arith.constant value : T}. */
    public static final class ConstantOp extends OpView {
        /** The op's name. */
        public static final String NAME = "arith.constant";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code arith.constant} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public ConstantOp(Operation op) {
            super(op, NAME);
        }

        /**
         * An integer (or index) constant.
         *
         * @param loc the op's location
         * @param value the value
         * @param type the integer or index type of the value and result
         * @return the new, detached op
         */
        public static ConstantOp integer(Location loc, long value, Type type) {
            return new ConstantOp(Operation.create(NAME, loc, List.of(), List.of(type),
                    Map.of("value", new Attribute.IntegerAttr(value, type))));
        }

        /**
         * A float constant.
         *
         * @param loc the op's location
         * @param value the value
         * @param type the float type of the value and result
         * @return the new, detached op
         */
        public static ConstantOp floating(Location loc, double value, Type type) {
            return new ConstantOp(Operation.create(NAME, loc, List.of(), List.of(type),
                    Map.of("value", new Attribute.FloatAttr(value, type))));
        }

        /**
         * The value, an integer or float attribute.
         *
         * @return the {@code value} attribute
         */
        public Attribute value() {
            return op.attr("value");
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("value").syntax(ConstantOp::parse, ConstantOp::print)
                    .verifier(ConstantOp::verify).resultNames(ConstantOp::resultNames);
        }

        /** Upstream's names: {@code %c0} (index), {@code %c7_i32}, {@code %true}, {@code %cst} (floats). */
        private static List<String> resultNames(Operation op) {
            if (op.attr("value") instanceof Attribute.IntegerAttr i) {
                if (i.type().equals(Type.I1)) {
                    return List.of(i.value() != 0 ? "true" : "false");
                }
                return List.of("c" + i.value() + (i.type().equals(Type.INDEX) ? "" : "_" + i.type()));
            }
            return List.of("cst");
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            int off = p.offset();
            Attribute v = p.attribute();
            Type t;
            if (v instanceof Attribute.IntegerAttr i) {
                t = i.type();
            } else if (v instanceof Attribute.FloatAttr f) {
                t = f.type();
            } else {
                throw p.errorAt(off, "Invalid arith.constant value (must be an integer or float): " + v);
            }
            attrs.put("value", v);
            return Operation.create(NAME, loc, List.of(), List.of(t), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.attrDict(op, Set.of("value"));
            p.write(' ').attr(op.attr("value"));
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 0, 1)) {
                return;
            }
            Attribute v = op.attr("value");
            Type t = v instanceof Attribute.IntegerAttr i ? i.type() : v instanceof Attribute.FloatAttr f ? f.type()
                    : null;
            if (t == null) {
                ctx.error(op, "Invalid arith.constant value (must be an integer or float): " + v);
            } else if (!t.equals(op.result(0).type())) {
                ctx.error(op, "Invalid arith.constant result (must have the value's type " + t + "): "
                        + op.result(0).type());
            }
        }
    }

    /**
     * {@code %r = arith.<kind> %a, %b : T}: the integer kinds ({@link #INTEGER_KINDS}) take integers or
     * indices, the float kinds ({@link #FLOAT_KINDS}) floats; operands and result have one type. The llvm
     * dialect's binary ops share this syntax.
     */
    public static final class BinaryOp extends OpView {
        /** The integer kinds: {@code arith.addi}, ... */
        public static final List<String> INTEGER_KINDS = List.of("addi", "subi", "muli", "divsi", "divui", "remsi",
                "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui", "ceildivsi",
                "ceildivui", "floordivsi");
        /** The float kinds: {@code arith.addf}, ... */
        public static final List<String> FLOAT_KINDS = List.of("addf", "subf", "mulf", "divf", "remf", "maximumf",
                "minimumf", "maxnumf", "minnumf");

        /**
         * Wraps {@code op}.
         *
         * @param op an arith binary op
         * @throws IllegalArgumentException if {@code op} is not one of the kinds
         */
        public BinaryOp(Operation op) {
            super(op, op.name());
            String kind = op.name().startsWith("arith.") ? op.name().substring(6) : "";
            if (!INTEGER_KINDS.contains(kind) && !FLOAT_KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid op (must be an arith binary op): " + op.name());
            }
        }

        /**
         * The op name of {@code kind}, which must be one of the kinds.
         *
         * @param kind the name after {@code arith.}
         * @return {@code arith.<kind>}
         * @throws IllegalArgumentException if {@code kind} is not one of the kinds
         */
        public static String nameOf(String kind) {
            if (!INTEGER_KINDS.contains(kind) && !FLOAT_KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid arith binary op (must be one of " + INTEGER_KINDS + " or "
                        + FLOAT_KINDS + "): " + kind);
            }
            return "arith." + kind;
        }

        /**
         * Creates {@code arith.<kind> a, b}.
         *
         * @param loc the op's location
         * @param kind the name after {@code arith.}
         * @param a the left operand
         * @param b the right operand, of the left operand's type
         * @return the new, detached op, whose result has the operands' type
         * @throws IllegalArgumentException if {@code kind} is not one of the kinds
         */
        public static BinaryOp create(Location loc, String kind, Value a, Value b) {
            if (!INTEGER_KINDS.contains(kind) && !FLOAT_KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid arith binary op (must be one of " + INTEGER_KINDS + " or "
                        + FLOAT_KINDS + "): " + kind);
            }
            return new BinaryOp(Operation.create("arith." + kind, loc, List.of(a, b), List.of(a.type()), Map.of()));
        }

        /**
         * The left operand.
         *
         * @return operand 0
         */
        public Value lhs() {
            return op.operand(0);
        }

        /**
         * The right operand.
         *
         * @return operand 1
         */
        public Value rhs() {
            return op.operand(1);
        }

        static List<OpDef> definitions() {
            List<OpDef> defs = new ArrayList<>();
            for (String k : INTEGER_KINDS) {
                String name = "arith." + k;
                OpDef d = OpDef.of(name).syntax((p, n, loc) -> ArithmeticSyntax.parseBinary(p, loc, name),
                        ArithmeticSyntax::printBinary).verifier(BinaryOp::verifyInteger);
                defs.add(OVERFLOW_KINDS.contains(k) ? d.inherent(OVERFLOW) : d);
            }
            for (String k : FLOAT_KINDS) {
                String name = "arith." + k;
                defs.add(OpDef.of(name).inherent(FASTMATH).syntax((p, n, loc) -> ArithmeticSyntax.parseBinary(p, loc,
                        name), ArithmeticSyntax::printBinary).verifier(ArithmeticSyntax::verifyFloatBinary));
            }
            return defs;
        }

        /** The property holding {@code #arith.overflow<...>}. */
        public static final String OVERFLOW = ArithmeticSyntax.OVERFLOW;
        /** The property holding {@code #arith.fastmath<...>}. */
        public static final String FASTMATH = ArithmeticSyntax.FASTMATH;

        static void verifyInteger(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            if (ctx.expectIntegerOrIndex(op, "operand of " + op.name(), op.operand(0))) {
                Syntax.verifySameTypes(op, ctx);
            }
            Attribute f = op.attr(OVERFLOW);
            if (f != null && !(f instanceof FlagsAttr fa && fa.name().equals("arith.overflow")
                    && OVERFLOW_KINDS.contains(op.name().substring(6)))) {
                ctx.error(op, "Invalid overflowFlags of " + op.name() + " (must be #arith.overflow<...> on addi, subi,"
                        + " muli or shli): " + f);
            }
        }

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
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != 2) {
                throw p.errorAt(off, "Invalid operands of arith.cmpi (must be two): " + refs.size());
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            attrs.put("predicate", Attribute.IntegerAttr.i64(idx));
            return Operation.create(NAME, loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
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

    /**
     * {@code %r = arith.<kind> %a : T to U}, the casts in {@link #KINDS}. The llvm dialect's casts share
     * this syntax.
     */
    public static final class CastOp extends OpView {
        /** The cast kinds: {@code arith.index_cast}, ... */
        public static final List<String> KINDS = List.of("index_cast", "index_castui", "extsi", "extui", "trunci",
                "sitofp", "uitofp", "fptosi", "fptoui", "extf", "truncf", "bitcast");

        /**
         * Wraps {@code op}.
         *
         * @param op an arith cast op
         * @throws IllegalArgumentException if {@code op} is not one of the casts
         */
        public CastOp(Operation op) {
            super(op, op.name());
            if (!op.name().startsWith("arith.") || !KINDS.contains(op.name().substring(6))) {
                throw new IllegalArgumentException("Invalid op (must be an arith cast): " + op.name());
            }
        }

        /**
         * The op name of {@code kind}, which must be one of {@link #KINDS}.
         *
         * @param kind the name after {@code arith.}
         * @return {@code arith.<kind>}
         * @throws IllegalArgumentException if {@code kind} is not one of {@link #KINDS}
         */
        public static String nameOf(String kind) {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid arith cast (must be one of " + KINDS + "): " + kind);
            }
            return "arith." + kind;
        }

        /**
         * Creates {@code arith.<kind> a : T to U}.
         *
         * @param loc the op's location
         * @param kind the name after {@code arith.}
         * @param a the value to convert
         * @param to the result type
         * @return the new, detached op
         * @throws IllegalArgumentException if {@code kind} is not one of {@link #KINDS}
         */
        public static CastOp create(Location loc, String kind, Value a, Type to) {
            return new CastOp(Operation.create("arith." + kind, loc, List.of(a), List.of(to), Map.of()));
        }

        /**
         * The value converted.
         *
         * @return operand 0
         */
        public Value in() {
            return op.operand(0);
        }

        static List<OpDef> definitions() {
            List<OpDef> defs = new ArrayList<>();
            for (String k : KINDS) {
                String name = "arith." + k;
                defs.add(OpDef.of(name).syntax((p, n, loc) -> ArithmeticSyntax.parseCast(p, loc, name),
                        ArithmeticSyntax::printCast).verifier(CastOp::verify));
            }
            return defs;
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
                return;
            }
            Type from = op.operand(0).type();
            Type to = op.result(0).type();
            String k = op.name().substring("arith.".length());
            boolean ok;
            switch (k) {
                case "index_cast":
                case "index_castui":
                    ok = (from instanceof Type.IndexType && to instanceof Type.IntegerType)
                            || (from instanceof Type.IntegerType && to instanceof Type.IndexType);
                    break;
                case "extsi":
                case "extui":
                    ok = from instanceof Type.IntegerType a && to instanceof Type.IntegerType b
                            && b.width() > a.width();
                    break;
                case "trunci":
                    ok = from instanceof Type.IntegerType a && to instanceof Type.IntegerType b
                            && b.width() < a.width();
                    break;
                case "sitofp":
                case "uitofp":
                    ok = from instanceof Type.IntegerType && to instanceof Type.FloatType;
                    break;
                case "fptosi":
                case "fptoui":
                    ok = from instanceof Type.FloatType && to instanceof Type.IntegerType;
                    break;
                case "extf":
                    ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() > a.width();
                    break;
                case "bitcast":
                    ok = bitWidth(from) > 0 && bitWidth(from) == bitWidth(to);
                    break;
                default:
                    ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() < a.width();
                    break;
            }
            if (!ok) {
                ctx.error(op, "Invalid " + op.name() + " types (must be a valid " + k + " cast): " + from + " to "
                        + to);
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
            return OpDef.of(NAME).inherent("predicate", BinaryOp.FASTMATH).syntax(CmpFOp::parse, CmpFOp::print)
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
            p.attrDict(op, Set.of("predicate", BinaryOp.FASTMATH));
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

    /** {@code %r = arith.negf %a [fastmath<...>] : T}: the float with its sign flipped. */
    public static final class NegFOp extends OpView {
        /** The op's name. */
        public static final String NAME = "arith.negf";

        /**
         * Views an {@code arith.negf}.
         *
         * @param op the op
         */
        public NegFOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code -a}.
         *
         * @param loc where the op comes from
         * @param a a float
         * @return the new op, detached
         */
        public static NegFOp create(Location loc, Value a) {
            return new NegFOp(Operation.create(NAME, loc, List.of(a), List.of(a.type()), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent(BinaryOp.FASTMATH).syntax((p, n, loc) -> {
                OpAsmParser.OperandRef r = p.operandRef();
                Map<String, Attribute> attrs = new LinkedHashMap<>();
                ArithmeticSyntax.parseFastmath(p, attrs);
                attrs.putAll(p.optionalDictionary());
                p.expectPunct(':');
                Type t = p.type();
                return Operation.create(NAME, loc, List.of(p.resolve(r, t)), List.of(t), attrs);
            }, (p, op) -> {
                p.write(' ').operand(op.operand(0));
                ArithmeticSyntax.printFastmath(p, op);
                p.attrDict(op, Set.of(BinaryOp.FASTMATH));
                p.write(" : ").type(op.result(0).type());
            }).verifier((op, ctx) -> {
                if (Syntax.verifyCounts(op, ctx, 1, 1)) {
                    if (!(op.operand(0).type() instanceof Type.FloatType)) {
                        ctx.error(op, "Invalid operand of arith.negf (must be a float): " + op.operand(0).type());
                    } else {
                        Syntax.verifySameTypes(op, ctx);
                    }
                }
            });
        }
    }
}
