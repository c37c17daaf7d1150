package dev.mgpu.dialect;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The arith dialect: constants, integer arithmetic, comparisons, casts and select. */
public final class Arith {
    private Arith() {
    }

    /** Binary integer ops: {@code %r = arith.addi %a, %b : T}. */
    public static final List<String> INTEGER_BINARY = List.of("addi", "subi", "muli", "divsi", "divui", "remsi",
            "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui");

    /** Binary float ops: {@code %r = arith.addf %a, %b : T}. */
    public static final List<String> FLOAT_BINARY = List.of("addf", "subf", "mulf", "divf");

    /** Casts: {@code %r = arith.index_cast %a : T to U}. */
    public static final List<String> CASTS = List.of("index_cast", "index_castui", "extsi", "extui", "trunci",
            "sitofp", "uitofp", "fptosi", "fptoui", "extf", "truncf");

    /** The predicates of {@code arith.cmpi} and {@code llvm.icmp}, in the order of their numeric values. */
    public static final List<String> PREDICATES = List.of("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
            "ugt", "uge");

    /** {@code %c = arith.constant value : T}. */
    public static final class ConstantOp extends OpView {
        public static final String NAME = "arith.constant";

        public ConstantOp(Operation op) {
            super(op, NAME);
        }

        public static ConstantOp integer(Location loc, long value, Type type) {
            return new ConstantOp(Operation.create(NAME, loc, List.of(), List.of(type),
                    Map.of("value", new Attribute.IntegerAttr(value, type))));
        }

        public static ConstantOp floating(Location loc, double value, Type type) {
            return new ConstantOp(Operation.create(NAME, loc, List.of(), List.of(type),
                    Map.of("value", new Attribute.FloatAttr(value, type))));
        }

        public Attribute value() {
            return op.attr("value");
        }
    }

    /** Creates {@code arith.<kind> a, b}. */
    public static Operation binary(Location loc, String kind, Value a, Value b) {
        if (!INTEGER_BINARY.contains(kind) && !FLOAT_BINARY.contains(kind)) {
            throw new IllegalArgumentException("Invalid arith binary op (must be one of " + INTEGER_BINARY + " or "
                    + FLOAT_BINARY + "): " + kind);
        }
        return Operation.create("arith." + kind, loc, List.of(a, b), List.of(a.type()), Map.of());
    }

    /** Creates {@code arith.cmpi predicate, a, b}. */
    public static Operation cmpi(Location loc, String predicate, Value a, Value b) {
        int p = PREDICATES.indexOf(predicate);
        if (p < 0) {
            throw new IllegalArgumentException("Invalid predicate (must be one of " + PREDICATES + "): " + predicate);
        }
        return Operation.create("arith.cmpi", loc, List.of(a, b), List.of(Type.I1),
                Map.of("predicate", Attribute.IntegerAttr.i64(p)));
    }

    /** Creates {@code arith.<kind> a : T to U}. */
    public static Operation cast(Location loc, String kind, Value a, Type to) {
        return Operation.create("arith." + kind, loc, List.of(a), List.of(to), Map.of());
    }

    static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        defs.add(OpDef.of(ConstantOp.NAME).inherent("value").syntax(Arith::parseConstant, Arith::printConstant)
                .verifier(Arith::verifyConstant));
        for (String k : INTEGER_BINARY) {
            String name = "arith." + k;
            defs.add(OpDef.of(name).syntax((p, n, loc) -> parseBinary(p, loc, name), Arith::printBinary)
                    .verifier((op, ctx) -> {
                        if (ctx.expectIntegerOrIndex(op, "operand of " + op.name(), op.operand(0))) {
                            Syntax.verifySameIntegerTypes(op, ctx);
                        }
                    }));
        }
        for (String k : FLOAT_BINARY) {
            String name = "arith." + k;
            defs.add(OpDef.of(name).syntax((p, n, loc) -> parseBinary(p, loc, name), Arith::printBinary)
                    .verifier((op, ctx) -> {
                        if (!(op.operand(0).type() instanceof Type.FloatType)) {
                            ctx.error(op, "Invalid operand of " + op.name() + " (must be a float): "
                                    + op.operand(0).type());
                        } else {
                            Syntax.verifySameIntegerTypes(op, ctx);
                        }
                    }));
        }
        defs.add(OpDef.of("arith.cmpi").inherent("predicate").syntax(Arith::parseCmp, Arith::printCmp)
                .verifier((op, ctx) -> {
                    verifyPredicate(op, ctx);
                    if (ctx.expectIntegerOrIndex(op, "operand of arith.cmpi", op.operand(0))
                            && !op.operand(1).type().equals(op.operand(0).type())) {
                        ctx.error(op, "Invalid operand types of arith.cmpi (must both be " + op.operand(0).type()
                                + "): " + op.operand(1).type());
                    }
                }));
        for (String k : CASTS) {
            String name = "arith." + k;
            defs.add(OpDef.of(name).syntax((p, n, loc) -> parseCast(p, loc, name), Arith::printCast)
                    .verifier(Arith::verifyCast));
        }
        defs.add(OpDef.of("arith.select").syntax(Arith::parseSelect, Arith::printSelect).verifier((op, ctx) -> {
            ctx.expectType(op, "condition of arith.select", op.operand(0), Type.I1);
            if (!op.operand(1).type().equals(op.operand(2).type())) {
                ctx.error(op, "Invalid operand types of arith.select (must both be " + op.operand(1).type() + "): "
                        + op.operand(2).type());
            }
        }));
        return defs;
    }

    private static Operation parseConstant(OpAsmParser p, int n, Location loc) {
        Map<String, Attribute> attrs = new java.util.LinkedHashMap<>(p.optionalDictionary());
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
        return Operation.create(ConstantOp.NAME, loc, List.of(), List.of(t), attrs);
    }

    private static void printConstant(OpAsmPrinter p, Operation op) {
        p.attrDict(op, Set.of("value"));
        p.write(' ').attr(op.attr("value"));
    }

    private static void verifyConstant(Operation op, VerifyContext ctx) {
        Attribute v = op.attr("value");
        Type t = v instanceof Attribute.IntegerAttr i ? i.type() : v instanceof Attribute.FloatAttr f ? f.type() : null;
        if (t == null) {
            ctx.error(op, "Invalid arith.constant value (must be an integer or float): " + v);
        } else if (!t.equals(op.result(0).type())) {
            ctx.error(op, "Invalid arith.constant result (must have the value's type " + t + "): "
                    + op.result(0).type());
        }
    }

    static Operation parseBinary(OpAsmParser p, Location loc, String name) {
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 2) {
            throw p.errorAt(off, "Invalid operands of " + name + " (must be two): " + refs.size());
        }
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type t = p.type();
        return Operation.create(name, loc, p.resolveAll(refs, t), List.of(t), attrs);
    }

    static void printBinary(OpAsmPrinter p, Operation op) {
        p.write(' ').operands(op.operands());
        p.attrDict(op, Set.of());
        p.write(" : ").type(op.result(0).type());
    }

    private static Operation parseCmp(OpAsmParser p, int n, Location loc) {
        int off = p.offset();
        String pred = p.keyword();
        int idx = PREDICATES.indexOf(pred);
        if (idx < 0) {
            throw p.errorAt(off, "Invalid predicate (must be one of " + String.join(", ", PREDICATES) + "): " + pred);
        }
        p.expectPunct(',');
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 2) {
            throw p.errorAt(off, "Invalid operands of arith.cmpi (must be two): " + refs.size());
        }
        Map<String, Attribute> attrs = new java.util.LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        attrs.put("predicate", Attribute.IntegerAttr.i64(idx));
        return Operation.create("arith.cmpi", loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
    }

    /** Checks that {@code predicate} is one of {@link #PREDICATES} by number. */
    static void verifyPredicate(Operation op, VerifyContext ctx) {
        Attribute p = op.attr("predicate");
        if (!(p instanceof Attribute.IntegerAttr i) || i.value() < 0 || i.value() >= PREDICATES.size()) {
            ctx.error(op, "Invalid predicate of " + op.name() + " (must be 0 to " + (PREDICATES.size() - 1)
                    + ", one of " + String.join(", ", PREDICATES) + "): " + p);
        }
    }

    /** The predicate's name, or its number when out of range. */
    static String predicateName(Operation op) {
        long v = ((Attribute.IntegerAttr) op.attr("predicate")).value();
        return v >= 0 && v < PREDICATES.size() ? PREDICATES.get((int) v) : Long.toString(v);
    }

    private static void printCmp(OpAsmPrinter p, Operation op) {
        p.write(' ').write(predicateName(op)).write(", ").operands(op.operands());
        p.attrDict(op, Set.of("predicate"));
        p.write(" : ").type(op.operand(0).type());
    }

    static Operation parseCast(OpAsmParser p, Location loc, String name) {
        OpAsmParser.OperandRef r = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type from = p.type();
        p.expectKeyword("to");
        Type to = p.type();
        return Operation.create(name, loc, List.of(p.resolve(r, from)), List.of(to), attrs);
    }

    static void printCast(OpAsmPrinter p, Operation op) {
        p.write(' ').operand(op.operand(0));
        p.attrDict(op, Set.of());
        p.write(" : ").type(op.operand(0).type()).write(" to ").type(op.result(0).type());
    }

    private static void verifyCast(Operation op, VerifyContext ctx) {
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
                ok = from instanceof Type.IntegerType a && to instanceof Type.IntegerType b && b.width() > a.width();
                break;
            case "trunci":
                ok = from instanceof Type.IntegerType a && to instanceof Type.IntegerType b && b.width() < a.width();
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
            default:
                ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() < a.width();
                break;
        }
        if (!ok) {
            ctx.error(op, "Invalid " + op.name() + " types (must be a valid " + k + " cast): " + from + " to " + to);
        }
    }

    private static Operation parseSelect(OpAsmParser p, int n, Location loc) {
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 3) {
            throw p.errorAt(off, "Invalid operands of arith.select (must be three): " + refs.size());
        }
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type t = p.type();
        List<Value> vals = List.of(p.resolve(refs.get(0), Type.I1), p.resolve(refs.get(1), t), p.resolve(refs.get(2), t));
        return Operation.create("arith.select", loc, vals, List.of(t), attrs);
    }

    private static void printSelect(OpAsmPrinter p, Operation op) {
        p.write(' ').operands(op.operands());
        p.attrDict(op, Set.of());
        p.write(" : ").type(op.result(0).type());
    }
}
