package dev.mgpu.dialect;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The host-code subset of the llvm dialect. */
public final class LLVM {
    private LLVM() {
    }

    public static final String FUNC = "llvm.func";
    public static final String RETURN = "llvm.return";
    public static final String CALL = "llvm.call";
    public static final String CONSTANT = "llvm.mlir.constant";
    public static final String ZERO = "llvm.mlir.zero";
    public static final String ICMP = "llvm.icmp";
    public static final String ALLOCA = "llvm.alloca";
    public static final String LOAD = "llvm.load";
    public static final String STORE = "llvm.store";
    public static final String GEP = "llvm.getelementptr";

    /** Integer binary ops: {@code %r = llvm.add %a, %b : T}. */
    public static final List<String> INTEGER_BINARY = List.of("add", "sub", "mul", "udiv", "sdiv", "urem", "srem",
            "and", "or", "xor", "shl", "lshr", "ashr");
    /** Float binary ops. */
    public static final List<String> FLOAT_BINARY = List.of("fadd", "fsub", "fmul", "fdiv");
    /** Casts: {@code %r = llvm.sext %a : T to U}. */
    public static final List<String> CASTS = List.of("sext", "zext", "trunc", "ptrtoint", "inttoptr", "bitcast");
    /** Linkage keywords accepted before a function's name. */
    public static final Set<String> LINKAGES = Set.of("external", "internal", "private", "linkonce", "linkonce_odr",
            "weak", "weak_odr", "available_externally", "extern_weak", "common");

    /** The marker in {@code rawConstantIndices} for an index given by an operand. */
    public static final int DYNAMIC_INDEX = Integer.MIN_VALUE;

    /** {@code llvm.func}. */
    public static final class FuncOp extends OpView {
        public FuncOp(Operation op) {
            super(op, FUNC);
        }

        public String name() {
            return op.symbolName();
        }

        public Type.FunctionType type() {
            return Syntax.functionType(op);
        }

        public boolean isDeclaration() {
            return op.region(0).isEmpty();
        }

        /** The linkage keyword, {@code external} by default. */
        public String linkage() {
            return op.attr("linkage") instanceof Attribute.StringAttr s ? s.value() : "external";
        }
    }

    /** The llvm types: {@code !llvm.void}, {@code !llvm.ptr[<N>]}, {@code !llvm.array<N x T>}, {@code !llvm.struct<...>}. */
    static List<TypeDef> types() {
        return List.of(new TypeDef("llvm.void", (p, off) -> Type.VOID),
                new TypeDef("llvm.ptr", (p, off) -> {
                    if (p.optionalPunct('<')) {
                        long as = p.integer();
                        p.expectPunct('>');
                        return new Type.LLVMPointerType((int) as);
                    }
                    return Type.PTR;
                }),
                new TypeDef("llvm.array", (p, off) -> {
                    p.expectPunct('<');
                    long n = p.integer();
                    p.expectKeyword("x");
                    Type t = p.type();
                    p.expectPunct('>');
                    return new Type.LLVMArrayType(n, t);
                }),
                new TypeDef("llvm.struct", (p, off) -> {
                    p.expectPunct('<');
                    boolean packed = p.optionalKeyword("packed");
                    p.expectPunct('(');
                    List<Type> body = new ArrayList<>();
                    if (!p.optionalPunct(')')) {
                        body = p.typeList();
                        p.expectPunct(')');
                    }
                    p.expectPunct('>');
                    return new Type.LLVMStructType(body, packed);
                }));
    }

    static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        defs.add(OpDef.of(FUNC).isolatedFromAbove().inherent("sym_name", "function_type", "linkage", "arg_attrs")
                .syntax((p, n, loc) -> Syntax.function(p, loc, FUNC, "linkage", LINKAGES, null, true),
                        (p, op) -> Syntax.printFunction(p, op, "linkage", Set.of(), null))
                .verifier(Func::verifyFunc));
        defs.add(OpDef.of(RETURN).terminator()
                .syntax((p, n, loc) -> Syntax.returnLike(p, loc, RETURN), Syntax::printReturnLike)
                .verifier((op, ctx) -> Syntax.verifyReturn(op, ctx, FUNC)));
        defs.add(OpDef.of(CALL).inherent("callee").syntax((p, n, loc) -> Syntax.parseCall(p, loc, CALL), Syntax::printCall)
                .verifier((op, ctx) -> Syntax.verifyCall(op, ctx, FUNC, "an llvm.func")));
        defs.add(OpDef.of(CONSTANT).inherent("value").syntax(LLVM::parseConstant, (p, op) -> {
            p.write('(').attr(op.attr("value")).write(')');
            p.attrDict(op, Set.of("value"));
            p.write(" : ").type(op.result(0).type());
        }).verifier((op, ctx) -> {
            Attribute v = op.attr("value");
            Type t = op.result(0).type();
            if (!(v instanceof Attribute.IntegerAttr && t instanceof Type.IntegerType)
                    && !(v instanceof Attribute.FloatAttr && t instanceof Type.FloatType)) {
                ctx.error(op, "Invalid llvm.mlir.constant (must be an integer or float value of an integer or float"
                        + " type): " + v + " as " + t);
            }
        }));
        defs.add(OpDef.of(ZERO).syntax((p, n, loc) -> {
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            return Operation.create(ZERO, loc, List.of(), List.of(p.type()), attrs);
        }, (p, op) -> {
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.result(0).type());
        }));
        defs.add(Cf.brDef("llvm.br"));
        defs.add(Cf.condBrDef("llvm.cond_br"));
        defs.add(OpDef.of(ICMP).inherent("predicate").syntax(LLVM::parseIcmp, (p, op) -> {
            p.write(" \"").write(Arith.predicateName(op)).write("\" ").operands(op.operands());
            p.attrDict(op, Set.of("predicate"));
            p.write(" : ").type(op.operand(0).type());
        }).verifier((op, ctx) -> {
            Arith.verifyPredicate(op, ctx);
            Type t = op.operand(0).type();
            if (!(t instanceof Type.IntegerType || t instanceof Type.LLVMPointerType)) {
                ctx.error(op, "Invalid operand of llvm.icmp (must be an integer or pointer): " + t);
            } else if (!op.operand(1).type().equals(t)) {
                ctx.error(op, "Invalid operand types of llvm.icmp (must both be " + t + "): " + op.operand(1).type());
            }
        }));
        for (String k : INTEGER_BINARY) {
            String name = "llvm." + k;
            defs.add(OpDef.of(name).syntax((p, n, loc) -> Arith.parseBinary(p, loc, name), Arith::printBinary)
                    .verifier((op, ctx) -> {
                        if (!(op.operand(0).type() instanceof Type.IntegerType)) {
                            ctx.error(op, "Invalid operand of " + op.name() + " (must be an integer): "
                                    + op.operand(0).type());
                        } else {
                            Syntax.verifySameIntegerTypes(op, ctx);
                        }
                    }));
        }
        for (String k : FLOAT_BINARY) {
            String name = "llvm." + k;
            defs.add(OpDef.of(name).syntax((p, n, loc) -> Arith.parseBinary(p, loc, name), Arith::printBinary)
                    .verifier((op, ctx) -> {
                        if (!(op.operand(0).type() instanceof Type.FloatType)) {
                            ctx.error(op, "Invalid operand of " + op.name() + " (must be a float): "
                                    + op.operand(0).type());
                        } else {
                            Syntax.verifySameIntegerTypes(op, ctx);
                        }
                    }));
        }
        for (String k : CASTS) {
            String name = "llvm." + k;
            defs.add(OpDef.of(name).syntax((p, n, loc) -> Arith.parseCast(p, loc, name), Arith::printCast)
                    .verifier(LLVM::verifyCast));
        }
        defs.add(OpDef.of(ALLOCA).inherent("elem_type", "alignment").syntax(LLVM::parseAlloca, LLVM::printAlloca)
                .verifier((op, ctx) -> {
                    if (!(op.operand(0).type() instanceof Type.IntegerType)) {
                        ctx.error(op, "Invalid llvm.alloca size (must be an integer): " + op.operand(0).type());
                    }
                    expectPointer(op, ctx, "llvm.alloca result", op.result(0).type());
                    expectMemoryType(op, ctx, "llvm.alloca element type",
                            ((Attribute.TypeAttr) op.attr("elem_type")).type());
                }));
        defs.add(OpDef.of(LOAD).inherent("alignment", "volatile_").syntax(LLVM::parseLoad, (p, op) -> {
            p.write(' ').operand(op.operand(0));
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type()).write(" -> ").type(op.result(0).type());
        }).verifier((op, ctx) -> {
            expectPointer(op, ctx, "llvm.load address", op.operand(0).type());
            expectMemoryType(op, ctx, "llvm.load result", op.result(0).type());
        }));
        defs.add(OpDef.of(STORE).inherent("alignment", "volatile_").syntax(LLVM::parseStore, (p, op) -> {
            p.write(' ').operands(op.operands());
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type()).write(", ").type(op.operand(1).type());
        }).verifier((op, ctx) -> {
            expectPointer(op, ctx, "llvm.store address", op.operand(1).type());
            expectMemoryType(op, ctx, "llvm.store value", op.operand(0).type());
        }));
        defs.add(OpDef.of(GEP).inherent("rawConstantIndices", "elem_type", "inbounds")
                .syntax(LLVM::parseGep, LLVM::printGep).verifier((op, ctx) -> {
                    expectPointer(op, ctx, "llvm.getelementptr base", op.operand(0).type());
                    expectMemoryType(op, ctx, "llvm.getelementptr element type",
                            ((Attribute.TypeAttr) op.attr("elem_type")).type());
                    verifyGepPath(op, ctx);
                    for (int i = 1; i < op.operandCount(); i++) {
                        if (!(op.operand(i).type() instanceof Type.IntegerType)) {
                            ctx.error(op, "Invalid llvm.getelementptr index (must be an integer): "
                                    + op.operand(i).type());
                        }
                    }
                }));
        return defs;
    }

    /** Every index after the first must step into a struct (by a constant in range) or an array. */
    private static void verifyGepPath(Operation op, VerifyContext ctx) {
        Attribute raw = op.attr("rawConstantIndices");
        Attribute elem = op.attr("elem_type");
        if (!(raw instanceof Attribute.DenseArrayAttr idx) || !(elem instanceof Attribute.TypeAttr t)) {
            ctx.error(op, "Invalid llvm.getelementptr (must have rawConstantIndices and elem_type): " + op.name());
            return;
        }
        int dynamic = 0;
        for (long v : idx.values()) {
            if (v == DYNAMIC_INDEX) {
                dynamic++;
            }
        }
        if (dynamic != op.operandCount() - 1) {
            ctx.error(op, "Invalid llvm.getelementptr operands (must be the base and " + dynamic
                    + " dynamic indices): " + op.operandCount() + " operands");
            return;
        }
        if (idx.size() == 0) {
            ctx.error(op, "Invalid llvm.getelementptr indices (must be at least one): none");
            return;
        }
        Type cur = t.type();
        for (int i = 1; i < idx.size(); i++) {
            long v = idx.get(i);
            if (cur instanceof Type.LLVMStructType st) {
                if (v == DYNAMIC_INDEX || v < 0 || v >= st.body().size()) {
                    ctx.error(op, "Invalid llvm.getelementptr index #" + i + " (must be a constant field number of "
                            + st + "): " + (v == DYNAMIC_INDEX ? "a value" : Long.toString(v)));
                    return;
                }
                cur = st.body().get((int) v);
            } else if (cur instanceof Type.LLVMArrayType a) {
                cur = a.elementType();
            } else {
                ctx.error(op, "Invalid llvm.getelementptr index #" + i + " (must index into a struct or array): "
                        + cur);
                return;
            }
        }
    }

    private static int intWidth(Type t) {
        return t instanceof Type.IntegerType i ? i.width() : -1;
    }

    private static void verifyCast(Operation op, VerifyContext ctx) {
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

    /** Whether LLVM can hold a value of {@code t} in memory: integers, floats, pointers, structs, arrays. */
    static boolean isMemoryType(Type t) {
        if (t instanceof Type.LLVMStructType s) {
            return s.body().stream().allMatch(LLVM::isMemoryType);
        }
        if (t instanceof Type.LLVMArrayType a) {
            return isMemoryType(a.elementType());
        }
        return t instanceof Type.IntegerType || t instanceof Type.IndexType || t instanceof Type.FloatType
                || t instanceof Type.LLVMPointerType;
    }

    static void expectMemoryType(Operation op, VerifyContext ctx, String what, Type t) {
        if (!isMemoryType(t)) {
            ctx.error(op, "Invalid " + what + " (must be an integer, float, pointer, struct or array type): " + t);
        }
    }

    static void expectPointer(Operation op, VerifyContext ctx, String what, Type t) {
        if (!(t instanceof Type.LLVMPointerType)) {
            ctx.error(op, "Invalid " + what + " (must be !llvm.ptr): " + t);
        }
    }

    private static Operation parseConstant(OpAsmParser p, int n, Location loc) {
        p.expectPunct('(');
        Attribute v = p.attribute();
        p.expectPunct(')');
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        if (v instanceof Attribute.IntegerAttr i && !i.type().equals(t) && t instanceof Type.IntegerType) {
            // The value's own type (often index) only says how it was written; the result type rules.
            v = new Attribute.IntegerAttr(i.value(), t);
        } else if (v instanceof Attribute.FloatAttr f && !f.type().equals(t) && t instanceof Type.FloatType) {
            v = new Attribute.FloatAttr(f.value(), t);
        }
        attrs.put("value", v);
        return Operation.create(CONSTANT, loc, List.of(), List.of(t), attrs);
    }

    private static Operation parseIcmp(OpAsmParser p, int n, Location loc) {
        int off = p.offset();
        String pred = p.string();
        int idx = Arith.PREDICATES.indexOf(pred);
        if (idx < 0) {
            throw p.errorAt(off, "Invalid predicate (must be one of " + String.join(", ", Arith.PREDICATES) + "): "
                    + pred);
        }
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 2) {
            throw p.errorAt(off, "Invalid operands of llvm.icmp (must be two): " + refs.size());
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        attrs.put("predicate", Attribute.IntegerAttr.i64(idx));
        return Operation.create(ICMP, loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
    }

    private static Operation parseAlloca(OpAsmParser p, int n, Location loc) {
        OpAsmParser.OperandRef size = p.operandRef();
        p.expectKeyword("x");
        Type elem = p.type();
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type.FunctionType ft = p.functionType();
        if (ft.inputs().size() != 1 || ft.results().size() != 1) {
            throw p.error("Invalid llvm.alloca type (must be (size type) -> pointer): " + ft);
        }
        attrs.put("elem_type", new Attribute.TypeAttr(elem));
        return Operation.create(ALLOCA, loc, List.of(p.resolve(size, ft.inputs().get(0))), ft.results(), attrs);
    }

    private static void printAlloca(OpAsmPrinter p, Operation op) {
        p.write(' ').operand(op.operand(0)).write(" x ").type(((Attribute.TypeAttr) op.attr("elem_type")).type());
        p.attrDict(op, Set.of("elem_type"));
        p.write(" : ").type(new Type.FunctionType(List.of(op.operand(0).type()), List.of(op.result(0).type())));
    }

    private static Operation parseLoad(OpAsmParser p, int n, Location loc) {
        OpAsmParser.OperandRef addr = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type pt = p.type();
        p.expectArrow();
        Type t = p.type();
        return Operation.create(LOAD, loc, List.of(p.resolve(addr, pt)), List.of(t), attrs);
    }

    private static Operation parseStore(OpAsmParser p, int n, Location loc) {
        OpAsmParser.OperandRef v = p.operandRef();
        p.expectPunct(',');
        OpAsmParser.OperandRef addr = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type vt = p.type();
        p.expectPunct(',');
        Type pt = p.type();
        return Operation.create(STORE, loc, List.of(p.resolve(v, vt), p.resolve(addr, pt)), List.of(), attrs);
    }

    private static Operation parseGep(OpAsmParser p, int n, Location loc) {
        boolean inbounds = p.optionalKeyword("inbounds");
        OpAsmParser.OperandRef base = p.operandRef();
        p.expectPunct('[');
        List<Long> raw = new ArrayList<>();
        List<OpAsmParser.OperandRef> dyn = new ArrayList<>();
        if (!p.optionalPunct(']')) {
            do {
                if (p.atValue()) {
                    dyn.add(p.operandRef());
                    raw.add((long) DYNAMIC_INDEX);
                } else {
                    raw.add(p.integer());
                }
            } while (p.optionalPunct(','));
            p.expectPunct(']');
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        int off = p.offset();
        Type.FunctionType ft = p.functionType();
        p.expectPunct(',');
        Type elem = p.type();
        if (ft.inputs().size() != 1 + dyn.size() || ft.results().size() != 1) {
            throw p.errorAt(off, "Invalid llvm.getelementptr type (must list the base and " + dyn.size()
                    + " dynamic indices): " + ft);
        }
        List<Value> ops = new ArrayList<>();
        ops.add(p.resolve(base, ft.inputs().get(0)));
        for (int i = 0; i < dyn.size(); i++) {
            ops.add(p.resolve(dyn.get(i), ft.inputs().get(i + 1)));
        }
        long[] r = new long[raw.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = raw.get(i);
        }
        attrs.put("rawConstantIndices", new Attribute.DenseArrayAttr(Type.I32, r));
        attrs.put("elem_type", new Attribute.TypeAttr(elem));
        if (inbounds) {
            attrs.put("inbounds", Attribute.UNIT);
        }
        return Operation.create(GEP, loc, ops, ft.results(), attrs);
    }

    private static void printGep(OpAsmPrinter p, Operation op) {
        if (op.hasAttr("inbounds")) {
            p.write(" inbounds");
        }
        p.write(' ').operand(op.operand(0)).write('[');
        Attribute.DenseArrayAttr raw = (Attribute.DenseArrayAttr) op.attr("rawConstantIndices");
        int d = 1;
        for (int i = 0; i < raw.size(); i++) {
            if (i > 0) {
                p.write(", ");
            }
            if (raw.get(i) == DYNAMIC_INDEX) {
                p.operand(op.operand(d++));
            } else {
                p.write(Long.toString(raw.get(i)));
            }
        }
        p.write(']');
        p.attrDict(op, Set.of("rawConstantIndices", "elem_type", "inbounds"));
        p.write(" : ").type(new Type.FunctionType(Syntax.types(op.operands()), List.of(op.result(0).type())));
        p.write(", ").type(((Attribute.TypeAttr) op.attr("elem_type")).type());
    }
}
