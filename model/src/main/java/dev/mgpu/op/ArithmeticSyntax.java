package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The syntax that the arith, llvm and math dialects share: the overflow and fast-math flags, the integer
 * comparison predicates of {@code arith.cmpi} and {@code llvm.icmp}, and the forms of binary ops
 * ({@code %a, %b : T}) and casts ({@code %a : T to U}).
 */
public final class ArithmeticSyntax {
    private ArithmeticSyntax() {
    }

    /** The integer overflow flags, {@code #arith.overflow<...>} and {@code #llvm.overflow<...>}. */
    public static final List<String> OVERFLOW_FLAGS = List.of("nsw", "nuw");
    /**
     * The fast-math flags of {@code #arith.fastmath<...>}, in the order upstream prints them; {@code fast}
     * stands for all of the others. {@code #llvm.fastmath<...>} has the same flags in another order.
     */
    public static final List<String> FASTMATH_FLAGS = List.of("reassoc", "nnan", "ninf", "nsz", "arcp", "contract",
            "afn", "fast");

    /** The property holding {@code #arith.overflow<...>}. */
    public static final String OVERFLOW = "overflowFlags";
    /** The property holding {@code #arith.fastmath<...>}. */
    public static final String FASTMATH = "fastmath";
    private static final Set<String> ELIDED = Set.of(OVERFLOW, FASTMATH);
    /** The property holding {@code #llvm.fastmath<...>}. */
    private static final String LLVM_FASTMATH = "fastmathFlags";
    private static final Set<String> ELIDED_NO_LLVM_FLAGS = Set.of(OVERFLOW, FASTMATH, LLVM_FASTMATH);

    /** The integer comparison predicates, in the order of their numeric values. */
    public static final List<String> INTEGER_PREDICATES = List.of("eq", "ne", "slt", "sle", "sgt", "sge", "ult",
            "ule", "ugt", "uge");

    /**
     * Reads {@code fastmath<...>} when it comes next into {@code attrs}, under {@link #FASTMATH}; the
     * ops with fast-math flags (arith's float ops, math) share it.
     *
     * @param p the parser
     * @param attrs where the flags go
     */
    public static void parseFastmath(OpAsmParser p, Map<String, Attribute> attrs) {
        if (p.optionalKeyword("fastmath")) {
            attrs.put(FASTMATH, FlagsAttr.parse(p, "arith.fastmath", FASTMATH_FLAGS));
        }
    }

    /**
     * Writes {@code  fastmath<...>} when the op has flags; what {@link #parseFastmath} reads.
     *
     * @param p the printer
     * @param op the op
     */
    public static void printFastmath(OpAsmPrinter p, Operation op) {
        if (op.attr(FASTMATH) instanceof FlagsAttr f && !f.flags().isEmpty()) {
            p.write(" fastmath<").write(f.body()).write('>');
        }
    }

    /**
     * Parses {@code %a, %b [attrs] : T} for a binary op named {@code name}; an arith op may have
     * {@code overflow<...>} or {@code fastmath<...>} before the attributes.
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param name the op's name
     * @return the new, detached op
     * @throws dev.mgpu.ir.MgpuException if the text is not two operands, optional flags and attributes, and a type
     */
    public static Operation parseBinary(OpAsmParser p, Location loc, String name) {
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 2) {
            throw p.errorAt(off, "Invalid operands of " + name + " (must be two): " + refs.size());
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        if (name.startsWith("arith.") && p.optionalKeyword("overflow")) {
            attrs.put(OVERFLOW, FlagsAttr.parse(p, "arith.overflow", OVERFLOW_FLAGS));
        } else if (name.startsWith("arith.") && p.optionalKeyword("fastmath")) {
            attrs.put(FASTMATH, FlagsAttr.parse(p, "arith.fastmath", FASTMATH_FLAGS));
        }
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        return Operation.create(name, loc, p.resolveAll(refs, t), List.of(t), attrs);
    }

    /**
     * Prints what {@link #parseBinary(OpAsmParser, Location, String)} parses.
     *
     * @param p the printer
     * @param op the op to print
     */
    public static void printBinary(OpAsmPrinter p, Operation op) {
        p.write(' ').operands(op.operands());
        if (op.attr(OVERFLOW) instanceof FlagsAttr f && !f.flags().isEmpty()) {
            p.write(" overflow<").write(f.body()).write('>');
        } else if (op.attr(FASTMATH) instanceof FlagsAttr f && !f.flags().isEmpty()) {
            p.write(" fastmath<").write(f.body()).write('>');
        }
        // An llvm op's empty fastmathFlags is its default, which upstream leaves out.
        p.attrDict(op, op.attr(LLVM_FASTMATH) instanceof FlagsAttr f && f.flags().isEmpty() ? ELIDED_NO_LLVM_FLAGS
                : ELIDED);
        p.write(" : ").type(op.result(0).type());
    }

    /**
     * Float operands of one type, and fast-math flags of the op's dialect: the rule of the float binary
     * ops of arith and llvm.
     *
     * @param op the op
     * @param ctx where errors are reported
     */
    public static void verifyFloatBinary(Operation op, VerifyContext ctx) {
        if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
            return;
        }
        if (!(op.operand(0).type() instanceof Type.FloatType)) {
            ctx.error(op, "Invalid operand of " + op.name() + " (must be a float): " + op.operand(0).type());
        } else {
            Syntax.verifySameTypes(op, ctx);
        }
        String dialect = op.dialect();
        String key = dialect.equals("llvm") ? LLVM_FASTMATH : FASTMATH;
        Attribute f = op.attr(key);
        if (f != null && !(f instanceof FlagsAttr fa && fa.name().equals(dialect + ".fastmath"))) {
            ctx.error(op, "Invalid " + key + " of " + op.name() + " (must be #" + dialect + ".fastmath<...>): " + f);
        }
    }

    /**
     * Parses {@code %a [attrs] : T to U} for a cast named {@code name}.
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param name the op's name
     * @return the new, detached op
     * @throws dev.mgpu.ir.MgpuException if the text is not an operand, attributes and {@code : T to U}
     */
    public static Operation parseCast(OpAsmParser p, Location loc, String name) {
        OpAsmParser.OperandRef r = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type from = p.type();
        p.expectKeyword("to");
        Type to = p.type();
        return Operation.create(name, loc, List.of(p.resolve(r, from)), List.of(to), attrs);
    }

    /**
     * Prints what {@link #parseCast} parses.
     *
     * @param p the printer
     * @param op the op to print
     */
    public static void printCast(OpAsmPrinter p, Operation op) {
        p.write(' ').operand(op.operand(0));
        p.attrDict(op, Set.of());
        p.write(" : ").type(op.operand(0).type()).write(" to ").type(op.result(0).type());
    }

    /**
     * The number of the integer predicate named {@code pred}, or a located error at {@code off}.
     *
     * @param p the parser, for the error
     * @param off the offset of the predicate in the text
     * @param pred the predicate's name
     * @return the predicate's number
     * @throws dev.mgpu.ir.MgpuException if {@code pred} is not one of {@link #INTEGER_PREDICATES}
     */
    public static int predicateNumber(OpAsmParser p, int off, String pred) {
        int idx = INTEGER_PREDICATES.indexOf(pred);
        if (idx < 0) {
            throw p.errorAt(off, "Invalid predicate (must be one of " + String.join(", ", INTEGER_PREDICATES) + "): "
                    + pred);
        }
        return idx;
    }

    /**
     * Checks that an op's {@code predicate} is one of {@link #INTEGER_PREDICATES} by number.
     *
     * @param op the op, {@code arith.cmpi} or {@code llvm.icmp}
     * @param ctx where errors are reported
     */
    public static void verifyPredicate(Operation op, VerifyContext ctx) {
        Attribute p = op.attr("predicate");
        if (!(p instanceof Attribute.IntegerAttr i) || i.value() < 0 || i.value() >= INTEGER_PREDICATES.size()) {
            ctx.error(op, "Invalid predicate of " + op.name() + " (must be 0 to " + (INTEGER_PREDICATES.size() - 1)
                    + ", one of " + String.join(", ", INTEGER_PREDICATES) + "): " + p);
        }
    }

    /**
     * An op's integer predicate name, or its number when out of range.
     *
     * @param op the op, {@code arith.cmpi} or {@code llvm.icmp}
     * @return the predicate's name, or its number as text
     */
    public static String predicateName(Operation op) {
        long v = ((Attribute.IntegerAttr) op.attr("predicate")).value();
        return v >= 0 && v < INTEGER_PREDICATES.size() ? INTEGER_PREDICATES.get((int) v) : Long.toString(v);
    }

    /**
     * The rest of an integer comparison after its predicate, {@code %a, %b [attributes] : T}, as
     * {@code arith.cmpi} and {@code llvm.icmp} share it: an op {@code name} of result {@code i1}.
     *
     * @param p the parser, after the predicate (and its comma, where the op has one)
     * @param loc the op's location
     * @param name the op's name
     * @param off the offset of the predicate, where an error about the operands points
     * @param predicate the predicate's number
     * @return the op
     * @throws dev.mgpu.ir.MgpuException if there are not two operands
     */
    public static Operation parseComparison(OpAsmParser p, Location loc, String name, int off, int predicate) {
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 2) {
            throw p.errorAt(off, "Invalid operands of " + name + " (must be two): " + refs.size());
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        attrs.put("predicate", Attribute.IntegerAttr.i64(predicate));
        return Operation.create(name, loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
    }
}
