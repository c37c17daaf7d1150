package dev.mgpu.dialect.math;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.ArithmeticSyntax;
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
 * The math dialect: float functions, {@code %r = math.<kind> %a, ... [fastmath<...>] : T}, with one, two
 * ({@code powf}) or three ({@code fma}) operands of one float type; integer functions, {@code %r =
 * math.ctpop %a : T} on a signless integer or index; and float classes, {@code %r = math.isnan %a : T}, an
 * {@code i1}.
 */
public final class MathDialect {
    private MathDialect() {
    }

    /** The functions of one operand. */
    public static final List<String> UNARY = List.of("sqrt", "rsqrt", "absf", "exp", "exp2", "log", "log2", "sin",
            "cos", "tanh", "floor", "ceil", "round", "trunc", "erf", "roundeven", "tan", "asin", "acos", "atan",
            "sinh", "cosh", "asinh", "acosh", "atanh", "log10", "log1p", "expm1", "cbrt", "erfc");
    /** The functions of two operands. */
    public static final List<String> BINARY = List.of("powf", "copysign", "atan2");
    /** The functions of one signless integer or index, of its type. */
    public static final List<String> INTEGER = List.of("absi", "ctlz", "cttz", "ctpop");
    /** The float classes: whether one float is of the class, an {@code i1}. */
    public static final List<String> CLASSES = List.of("isnan", "isinf", "isfinite", "isnormal");
    /** The functions of three operands. */
    public static final List<String> TERNARY = List.of("fma");

    /**
     * The op name of a math function.
     *
     * @param kind one of {@link #UNARY}, {@link #BINARY}, {@link #TERNARY}, {@link #INTEGER} or {@link #CLASSES}
     * @return {@code math.<kind>}
     */
    public static String name(String kind) {
        return "math." + kind;
    }

    /** {@return every op of the dialect} */
    public static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        for (List<String> kinds : List.of(UNARY, BINARY, TERNARY)) {
            for (String k : kinds) {
                String name = name(k);
                int arity = kinds == UNARY ? 1 : kinds == BINARY ? 2 : 3;
                defs.add(OpDef.of(name).inherent(FunctionOp.FASTMATH).syntax((p, n, loc) -> FunctionOp.parse(p, loc,
                        name, arity), FunctionOp::print).verifier((op, ctx) -> FunctionOp.verify(op, ctx, arity)));
            }
        }
        for (String k : INTEGER) {
            String name = name(k);
            defs.add(OpDef.of(name).syntax((p, n, loc) -> FunctionOp.parseOther(p, loc, name, null),
                    FunctionOp::printOther).verifier(FunctionOp::verifyInteger));
        }
        for (String k : CLASSES) {
            String name = name(k);
            defs.add(OpDef.of(name).inherent(FunctionOp.FASTMATH).syntax((p, n, loc) -> FunctionOp.parseOther(p, loc,
                    name, Type.I1), FunctionOp::printOther).verifier(FunctionOp::verifyClass));
        }
        return defs;
    }

    /** One math function applied to its operands. */
    public static final class FunctionOp extends OpView {
        /** The property holding {@code #arith.fastmath<...>}. */
        public static final String FASTMATH = "fastmath";

        /**
         * Views a math op.
         *
         * @param op an op of the math dialect
         */
        public FunctionOp(Operation op) {
            super(op, op.name());
            if (!op.name().startsWith("math.")) {
                throw new IllegalArgumentException("Invalid op (must be a math op): " + op.name());
            }
        }

        /**
         * Creates {@code math.<kind> operands}.
         *
         * @param loc where the op comes from
         * @param kind one of {@link #UNARY}, {@link #BINARY} or {@link #TERNARY}
         * @param operands as many floats of one type as the kind takes
         * @return the new op, detached
         */
        public static FunctionOp create(Location loc, String kind, Value... operands) {
            int arity = UNARY.contains(kind) || INTEGER.contains(kind) || CLASSES.contains(kind) ? 1
                    : BINARY.contains(kind) ? 2 : TERNARY.contains(kind) ? 3 : -1;
            if (arity != operands.length) {
                throw new IllegalArgumentException("Invalid math op (must be a known kind with its operands): " + kind
                        + " of " + operands.length);
            }
            Type result = CLASSES.contains(kind) ? Type.I1 : operands[0].type();
            return new FunctionOp(Operation.create(name(kind), loc, List.of(operands), List.of(result), Map.of()));
        }

        /** {@return the function's name, such as {@code sqrt}} */
        public String kind() {
            return op.name().substring(5);
        }

        /** {@return the fast-math flags, empty when none are given} */
        public List<String> fastmath() {
            return op.attr(FASTMATH) instanceof FlagsAttr f ? f.flags() : List.of();
        }

        static Operation parse(OpAsmParser p, Location loc, String name, int arity) {
            int off = p.offset();
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != arity) {
                throw p.errorAt(off, "Invalid operands of " + name + " (must be " + arity + "): " + refs.size());
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            ArithmeticSyntax.parseFastmath(p, attrs);
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            return Operation.create(name, loc, p.resolveAll(refs, t), List.of(t), attrs);
        }

        /** {@code %a [attr-dict] : T}: an integer function ({@code result} null: of T) or a float class (i1). */
        static Operation parseOther(OpAsmParser p, Location loc, String name, Type result) {
            OpAsmParser.OperandRef ref = p.operandRef();
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            return Operation.create(name, loc, List.of(p.resolve(ref, t)), List.of(result == null ? t : result), attrs);
        }

        static void printOther(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0));
            // As upstream prints it: fastmath in the dictionary, left out when it has no flags.
            p.attrDict(op, op.attr(FASTMATH) instanceof FlagsAttr f && f.flags().isEmpty() ? Set.of(FASTMATH) : Set.of());
            p.write(" : ").type(op.operand(0).type());
        }

        static void verifyInteger(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
                return;
            }
            Type t = op.operand(0).type();
            if (!t.isIntegerOrIndex()) {
                ctx.error(op, "Invalid operand of " + op.name() + " (must be a signless integer or index): " + t);
                return;
            }
            Syntax.verifySameTypes(op, ctx);
        }

        static void verifyClass(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
                return;
            }
            if (!(op.operand(0).type() instanceof Type.FloatType)) {
                ctx.error(op, "Invalid operand of " + op.name() + " (must be a float): " + op.operand(0).type());
            }
            if (!op.result(0).type().equals(Type.I1)) {
                ctx.error(op, "Invalid result of " + op.name() + " (must be i1): " + op.result(0).type());
            }
            verifyFastmath(op, ctx);
        }

        private static void verifyFastmath(Operation op, VerifyContext ctx) {
            Attribute f = op.attr(FASTMATH);
            if (f != null && !(f instanceof FlagsAttr fa && fa.name().equals("arith.fastmath"))) {
                ctx.error(op, "Invalid fastmath of " + op.name() + " (must be #arith.fastmath<...>): " + f);
            }
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operands(op.operands());
            ArithmeticSyntax.printFastmath(p, op);
            p.attrDict(op, Set.of(FASTMATH));
            p.write(" : ").type(op.result(0).type());
        }

        static void verify(Operation op, VerifyContext ctx, int arity) {
            if (!Syntax.verifyCounts(op, ctx, arity, 1)) {
                return;
            }
            if (!(op.operand(0).type() instanceof Type.FloatType)) {
                ctx.error(op, "Invalid operand of " + op.name() + " (must be a float): " + op.operand(0).type());
                return;
            }
            Syntax.verifySameTypes(op, ctx);
            verifyFastmath(op, ctx);
        }
    }
}
