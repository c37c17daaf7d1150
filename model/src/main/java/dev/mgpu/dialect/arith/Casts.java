package dev.mgpu.dialect.arith;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.ArithmeticSyntax;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The arith casts between integers, indices and floats: {@code arith.index_cast}, {@code arith.extsi},
 * {@code arith.sitofp}, {@code arith.bitcast} and the others of {@link CastOp#KINDS}, one nested class
 * for the family, with its names, accessors, creation, syntax and rules.
 */
public final class Casts {
    private Casts() {
    }

    /** The width of an integer or float type in bits, else 0. */
    static int bitWidth(Type t) {
        return t instanceof Type.IntegerType i ? i.width() : t instanceof Type.FloatType f ? f.width() : 0;
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
}
