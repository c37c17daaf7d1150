package dev.mgpu.dialect.llvm;

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
 * The llvm dialect's integer and float arithmetic: {@code llvm.icmp}, the binary ops ({@code llvm.add},
 * {@code llvm.fadd}, ...) and the casts ({@code llvm.sext}, {@code llvm.bitcast}, ...), with the syntax
 * they share with arith ({@link dev.mgpu.op.ArithmeticSyntax}). Each op, or family of ops that share one
 * syntax and rule, is a nested class with its name, accessors, syntax and rules.
 */
public final class LLVMArithOps {
    private LLVMArithOps() {
    }

    /** {@code llvm.icmp "pred" %a, %b : T}, with the predicates of {@link ArithmeticSyntax#INTEGER_PREDICATES}. */
    public static final class ICmpOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.icmp";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.icmp} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public ICmpOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code llvm.icmp "predicate" a, b}.
         *
         * @param loc the op's location
         * @param predicate the predicate's name, one of {@link ArithmeticSyntax#INTEGER_PREDICATES}
         * @param a the left operand
         * @param b the right operand
         * @return the new, detached op, whose result is an {@code i1}
         * @throws IllegalArgumentException if {@code predicate} is not one of the predicates
         */
        public static ICmpOp create(Location loc, String predicate, Value a, Value b) {
            int p = ArithmeticSyntax.INTEGER_PREDICATES.indexOf(predicate);
            if (p < 0) {
                throw new IllegalArgumentException("Invalid predicate (must be one of "
                        + ArithmeticSyntax.INTEGER_PREDICATES
                        + "): " + predicate);
            }
            return new ICmpOp(Operation.create(NAME, loc, List.of(a, b), List.of(Type.I1),
                    Map.of("predicate", Attribute.IntegerAttr.i64(p))));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("predicate").syntax(ICmpOp::parse, ICmpOp::print).verifier(ICmpOp::verify);
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            int off = p.offset();
            int idx = ArithmeticSyntax.predicateNumber(p, off, p.string());
            return ArithmeticSyntax.parseComparison(p, loc, NAME, off, idx);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(" \"").write(ArithmeticSyntax.predicateName(op)).write("\" ").operands(op.operands());
            p.attrDict(op, Set.of("predicate"));
            p.write(" : ").type(op.operand(0).type());
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            ArithmeticSyntax.verifyPredicate(op, ctx);
            Type t = op.operand(0).type();
            if (!(t instanceof Type.IntegerType || t instanceof Type.LLVMPointerType)) {
                ctx.error(op, "Invalid operand of llvm.icmp (must be an integer or pointer): " + t);
            } else if (!op.operand(1).type().equals(t)) {
                ctx.error(op, "Invalid operand types of llvm.icmp (must both be " + t + "): " + op.operand(1).type());
            }
        }
    }

    /** {@code %r = llvm.<kind> %a, %b : T}, with the syntax of {@link ArithmeticSyntax#parseBinary}. */
    public static final class BinaryOp {
        /** The integer kinds: {@code llvm.add}, ... */
        public static final List<String> INTEGER_KINDS = List.of("add", "sub", "mul", "udiv", "sdiv", "urem", "srem",
                "and", "or", "xor", "shl", "lshr", "ashr");
        /** The float kinds: {@code llvm.fadd}, ... */
        public static final List<String> FLOAT_KINDS = List.of("fadd", "fsub", "fmul", "fdiv");

        private BinaryOp() {
        }

        /**
         * The op name of {@code kind}, which must be one of the kinds.
         *
         * @param kind the name after {@code llvm.}
         * @return {@code llvm.<kind>}
         * @throws IllegalArgumentException if {@code kind} is not one of the kinds
         */
        public static String nameOf(String kind) {
            if (!INTEGER_KINDS.contains(kind) && !FLOAT_KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid llvm binary op (must be one of " + INTEGER_KINDS + " or "
                        + FLOAT_KINDS + "): " + kind);
            }
            return "llvm." + kind;
        }

        /**
         * Creates {@code llvm.<kind> a, b}.
         *
         * @param loc the op's location
         * @param kind the name after {@code llvm.}
         * @param a the left operand
         * @param b the right operand, of the left operand's type
         * @return the new, detached op, whose result has the operands' type
         * @throws IllegalArgumentException if {@code kind} is not one of the kinds
         */
        public static Operation create(Location loc, String kind, Value a, Value b) {
            return Operation.create(nameOf(kind), loc, List.of(a, b), List.of(a.type()), Map.of());
        }

        /** The kinds that may promise no wrap, {@code overflow<nsw, nuw>}, held as bits (nsw 1, nuw 2) as upstream. */
        public static final List<String> OVERFLOW_KINDS = List.of("add", "sub", "mul", "shl");
        /** The property holding the overflow bits. */
        public static final String OVERFLOW = "overflowFlags";
        /** The property holding {@code #llvm.fastmath<...>}. */
        public static final String FASTMATH = "fastmathFlags";

        static List<OpDef> definitions() {
            List<OpDef> defs = new ArrayList<>();
            for (String k : INTEGER_KINDS) {
                String name = "llvm." + k;
                OpDef d = OpDef.of(name).syntax((p, n, loc) -> parse(p, loc, name), BinaryOp::print)
                        .verifier(BinaryOp::verifyInteger);
                defs.add(OVERFLOW_KINDS.contains(k) ? d.inherent(OVERFLOW) : d);
            }
            for (String k : FLOAT_KINDS) {
                String name = "llvm." + k;
                defs.add(OpDef.of(name).inherent(FASTMATH).syntax((p, n, loc) -> ArithmeticSyntax.parseBinary(p, loc,
                        name), ArithmeticSyntax::printBinary).verifier(ArithmeticSyntax::verifyFloatBinary));
            }
            return defs;
        }

        static Operation parse(OpAsmParser p, Location loc, String name) {
            int off = p.offset();
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != 2) {
                throw p.errorAt(off, "Invalid operands of " + name + " (must be two): " + refs.size());
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.optionalKeyword("overflow")) {
                FlagsAttr f = FlagsAttr.parse(p, "llvm.overflow", ArithmeticSyntax.OVERFLOW_FLAGS);
                attrs.put(OVERFLOW, new Attribute.IntegerAttr((f.has("nsw") ? 1 : 0) | (f.has("nuw") ? 2 : 0), Type.I32));
            }
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            return Operation.create(name, loc, p.resolveAll(refs, t), List.of(t), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operands(op.operands());
            long bits = op.attr(OVERFLOW) instanceof Attribute.IntegerAttr i ? i.value() : 0;
            if (bits != 0) {
                p.write(" overflow<").write(bits == 1 ? "nsw" : bits == 2 ? "nuw" : "nsw, nuw").write('>');
            }
            p.attrDict(op, Set.of(OVERFLOW));
            p.write(" : ").type(op.result(0).type());
        }

        static void verifyInteger(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            if (!(op.operand(0).type() instanceof Type.IntegerType)) {
                ctx.error(op, "Invalid operand of " + op.name() + " (must be an integer): " + op.operand(0).type());
            } else {
                Syntax.verifySameTypes(op, ctx);
            }
            Attribute f = op.attr(OVERFLOW);
            if (f != null && !(f instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() <= 3
                    && OVERFLOW_KINDS.contains(op.name().substring(5)))) {
                ctx.error(op, "Invalid overflowFlags of " + op.name() + " (must be 0 to 3 on add, sub, mul or shl): " + f);
            }
        }
    }

    /** {@code %r = llvm.<kind> %a : T to U}, with the syntax of {@link ArithmeticSyntax#parseCast}. */
    public static final class CastOp {
        /** The cast kinds: {@code llvm.sext}, ... */
        public static final List<String> KINDS = List.of("sext", "zext", "trunc", "ptrtoint", "inttoptr", "bitcast",
                "sitofp", "uitofp", "fptosi", "fptoui", "fpext", "fptrunc", "addrspacecast");

        private CastOp() {
        }

        /**
         * The op name of {@code kind}, which must be one of {@link #KINDS}.
         *
         * @param kind the name after {@code llvm.}
         * @return {@code llvm.<kind>}
         * @throws IllegalArgumentException if {@code kind} is not one of {@link #KINDS}
         */
        public static String nameOf(String kind) {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid llvm cast (must be one of " + KINDS + "): " + kind);
            }
            return "llvm." + kind;
        }

        static List<OpDef> definitions() {
            List<OpDef> defs = new ArrayList<>();
            for (String k : KINDS) {
                String name = "llvm." + k;
                defs.add(OpDef.of(name).syntax((p, n, loc) -> ArithmeticSyntax.parseCast(p, loc, name),
                        ArithmeticSyntax::printCast).verifier(CastOp::verify));
            }
            return defs;
        }

        private static int intWidth(Type t) {
            return t instanceof Type.IntegerType i ? i.width() : -1;
        }

        static void verify(Operation op, VerifyContext ctx) {
            Type from = op.operand(0).type();
            Type to = op.result(0).type();
            String k = op.name().substring("llvm.".length());
            int fw = intWidth(from);
            int tw = intWidth(to);
            boolean ok;
            switch (k) {
                case "sext":
                case "zext":
                    ok = fw > 0 && tw > fw;
                    break;
                case "trunc":
                    ok = fw > 0 && tw > 0 && tw < fw;
                    break;
                case "ptrtoint":
                    ok = from instanceof Type.LLVMPointerType && tw > 0;
                    break;
                case "inttoptr":
                    ok = fw > 0 && to instanceof Type.LLVMPointerType;
                    break;
                case "sitofp":
                case "uitofp":
                    ok = fw > 0 && to instanceof Type.FloatType;
                    break;
                case "fptosi":
                case "fptoui":
                    ok = from instanceof Type.FloatType && tw > 0;
                    break;
                case "fpext":
                    ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() > a.width();
                    break;
                case "fptrunc":
                    ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() < a.width();
                    break;
                case "addrspacecast":
                    ok = from instanceof Type.LLVMPointerType a && to instanceof Type.LLVMPointerType b
                            && a.addressSpace() != b.addressSpace();
                    break;
                default:
                    ok = (fw > 0 && fw == tw)
                            || (from instanceof Type.FloatType a && to instanceof Type.FloatType b && a.width() == b.width())
                            || (from instanceof Type.FloatType f && f.width() == tw)
                            || (to instanceof Type.FloatType f2 && f2.width() == fw)
                            || (from instanceof Type.LLVMPointerType && to instanceof Type.LLVMPointerType);
                    break;
            }
            if (!ok) {
                ctx.error(op, "Invalid " + op.name() + " types (must be a valid " + k + " cast): " + from + " to " + to);
            }
        }
    }
}
