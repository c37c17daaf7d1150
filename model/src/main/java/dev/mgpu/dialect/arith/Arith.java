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
 * The arith dialect: its attributes, every op it registers, constants, and integer and float arithmetic;
 * the comparisons and select are in {@link Comparisons}, the casts in {@link Casts}. Each op (or family of
 * ops that share one syntax and rule) is a nested class with its name, accessors, creation, syntax and
 * rules.
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
        defs.add(Comparisons.CmpIOp.definition());
        defs.addAll(Casts.CastOp.definitions());
        defs.add(Comparisons.SelectOp.definition());
        defs.add(Comparisons.CmpFOp.definition());
        defs.add(NegFOp.definition());
        return defs;
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
