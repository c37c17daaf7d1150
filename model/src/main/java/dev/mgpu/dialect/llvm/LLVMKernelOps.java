package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
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
 * The llvm dialect ops that lowered kernels use, as upstream's {@code convert-gpu-to-nvvm} and
 * {@code -rocdl} write them: poison and undef values, aggregates ({@code insertvalue},
 * {@code extractvalue}), {@code select}, {@code fcmp}, {@code atomicrmw}, intrinsics ({@code llvm.intr.*}),
 * and globals with their addresses ({@code llvm.mlir.global}, {@code llvm.mlir.addressof}).
 */
public final class LLVMKernelOps {
    private LLVMKernelOps() {
    }

    /** The intrinsics {@code llvm.intr.NAME} that are read, by name. */
    public static final List<String> INTRINSICS = List.of("fma", "fmuladd", "sqrt", "fabs", "floor", "ceil", "round",
            "trunc", "copysign", "exp", "exp2", "log", "log2", "sin", "cos", "pow", "minnum", "maxnum", "minimum",
            "maximum", "smax", "smin", "umax", "umin");

    /** The operations of {@code llvm.atomicrmw}. */
    public static final List<String> RMW_OPS = List.of("xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min",
            "umax", "umin", "fadd", "fsub", "fmax", "fmin");

    /** The orderings of atomic operations, as the llvm dialect writes them. */
    public static final List<String> ORDERINGS = List.of("monotonic", "acquire", "release", "acq_rel", "seq_cst");

    /**
     * {@return the definitions of these ops}
     */
    public static List<OpDef> definitions() {
        List<OpDef> defs = new ArrayList<>();
        for (String n : List.of(POISON, UNDEF)) {
            defs.add(OpDef.of(n).syntax((p, c, loc) -> {
                Map<String, Attribute> attrs = p.optionalDictionary();
                p.expectPunct(':');
                return Operation.create(n, loc, List.of(), List.of(p.type()), attrs);
            }, (p, op) -> {
                p.attrDict(op, Set.of());
                p.write(" : ").type(op.result(0).type());
            }).verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 0, 1)));
        }
        defs.add(OpDef.of(INSERT_VALUE).inherent("position").syntax(LLVMKernelOps::parseInsert,
                LLVMKernelOps::printInsert).verifier(LLVMKernelOps::verifyInsert));
        defs.add(OpDef.of(EXTRACT_VALUE).inherent("position").syntax(LLVMKernelOps::parseExtract,
                LLVMKernelOps::printExtract).verifier(LLVMKernelOps::verifyExtract));
        defs.add(OpDef.of(SELECT).syntax(LLVMKernelOps::parseSelect, (p, op) -> {
            p.write(' ').operands(op.operands());
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type()).write(", ").type(op.result(0).type());
        }).verifier((op, ctx) -> {
            if (Syntax.verifyCounts(op, ctx, 3, 1) && !op.operand(1).type().equals(op.operand(2).type())) {
                ctx.error(op, "Invalid operand types of llvm.select (must both be " + op.operand(1).type() + "): "
                        + op.operand(2).type());
            }
        }));
        defs.add(OpDef.of(FCMP).inherent("predicate", "fastmathFlags").syntax(LLVMKernelOps::parseFCmp,
                (p, op) -> {
                    p.write(" \"").write(FCMP_PREDICATES.get((int) ((Attribute.IntegerAttr) op.attr("predicate"))
                            .value())).write("\" ").operands(op.operands());
                    p.attrDict(op, Set.of("predicate"));
                    p.write(" : ").type(op.operand(0).type());
                }).verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 2, 1)));
        defs.add(OpDef.of(ATOMIC_RMW).inherent("bin_op", "ordering", "syncscope", "alignment", "volatile_")
                .syntax(LLVMKernelOps::parseAtomic, LLVMKernelOps::printAtomic)
                .verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 2, 1)));
        for (String k : INTRINSICS) {
            String name = "llvm.intr." + k;
            defs.add(OpDef.of(name).inherent("fastmathFlags").syntax((p, c, loc) -> parseIntrinsic(p, loc, name),
                    LLVMKernelOps::printIntrinsic).verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, op.operandCount(),
                            1)));
        }
        defs.add(OpDef.of(GLOBAL).inherent("sym_name", "global_type", "linkage", "addr_space", "alignment",
                "constant", "value", "visibility_", "unnamed_addr", "dso_local", "thread_local_")
                .syntax(LLVMKernelOps::parseGlobal, LLVMKernelOps::printGlobal).verifier(LLVMKernelOps::verifyGlobal));
        defs.add(OpDef.of(ADDRESS_OF).inherent("global_name").syntax((p, c, loc) -> Syntax.symbolOfType(p, loc,
                ADDRESS_OF, "global_name", OpAsmParser::type), (p, op) -> Syntax.printSymbolOfType(p, op, "global_name"))
                .verifier((op, ctx) -> {
            if (!Syntax.verifyCounts(op, ctx, 0, 1)) {
                return;
            }
            if (!(op.result(0).type() instanceof Type.LLVMPointerType ptr)) {
                ctx.error(op, "Invalid result of llvm.mlir.addressof (must be a pointer): " + op.result(0).type());
                return;
            }
            // As upstream: the pointer is in the global's address space.
            Operation g = op.attr("global_name") instanceof Attribute.SymbolRefAttr r ? ctx.symbols().lookup(op, r) : null;
            if (g != null && g.name().equals(GLOBAL)) {
                Attribute ref = op.attr("global_name");
                int space = new GlobalOp(g).addressSpace();
                if (ptr.addressSpace() != space) {
                    ctx.error(op, "Invalid llvm.mlir.addressof of " + ref + " (must have the type of a pointer to the"
                            + " global, " + new Type.LLVMPointerType(space) + "): " + ptr);
                }
            }
        }));
        return defs;
    }

    /** {@code llvm.mlir.poison}. */
    public static final String POISON = "llvm.mlir.poison";
    /** {@code llvm.mlir.undef}. */
    public static final String UNDEF = "llvm.mlir.undef";
    /** {@code llvm.insertvalue}. */
    public static final String INSERT_VALUE = "llvm.insertvalue";
    /** {@code llvm.extractvalue}. */
    public static final String EXTRACT_VALUE = "llvm.extractvalue";
    /** {@code llvm.select}. */
    public static final String SELECT = "llvm.select";
    /** {@code llvm.fcmp}. */
    public static final String FCMP = "llvm.fcmp";
    /** {@code llvm.atomicrmw}. */
    public static final String ATOMIC_RMW = "llvm.atomicrmw";
    /** {@code llvm.mlir.global}. */
    public static final String GLOBAL = "llvm.mlir.global";
    /** {@code llvm.mlir.addressof}. */
    public static final String ADDRESS_OF = "llvm.mlir.addressof";

    /** The predicates of {@code llvm.fcmp}, by number. */
    public static final List<String> FCMP_PREDICATES = List.of("_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
            "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "_true");

    // ------------------------------------------------------------------ aggregates

    private static long[] position(OpAsmParser p) {
        p.expectPunct('[');
        List<Long> out = new ArrayList<>();
        do {
            out.add(p.integer());
        } while (p.optionalPunct(','));
        p.expectPunct(']');
        long[] a = new long[out.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = out.get(i);
        }
        return a;
    }

    private static void printPosition(OpAsmPrinter p, Operation op) {
        Attribute.DenseArrayAttr d = (Attribute.DenseArrayAttr) op.attr("position");
        p.write('[');
        for (int i = 0; i < d.size(); i++) {
            p.write(i > 0 ? ", " : "").write(Long.toString(d.get(i)));
        }
        p.write(']');
    }

    /**
     * The type at {@code position} inside {@code aggregate}, or null when the position does not exist.
     *
     * @param aggregate a struct or array type
     * @param position the indices, outermost first
     * @return the element type, or null
     */
    public static Type elementAt(Type aggregate, long[] position) {
        Type t = aggregate;
        for (long i : position) {
            if (t instanceof Type.LLVMStructType s && i >= 0 && i < s.body().size()) {
                t = s.body().get((int) i);
            } else if (t instanceof Type.LLVMArrayType a && i >= 0 && i < a.size()) {
                t = a.elementType();
            } else {
                return null;
            }
        }
        return t;
    }

    private static Operation parseInsert(OpAsmParser p, int results, Location loc) {
        OpAsmParser.OperandRef v = p.operandRef();
        p.expectPunct(',');
        OpAsmParser.OperandRef agg = p.operandRef();
        int off = p.offset();
        long[] pos = position(p);
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        Type elem = elementAt(t, pos);
        if (elem == null) {
            throw p.errorAt(off, "Invalid position of llvm.insertvalue (must be inside " + t + ")");
        }
        attrs.put("position", new Attribute.DenseArrayAttr(Type.I64, pos));
        return Operation.create(INSERT_VALUE, loc, List.of(p.resolve(agg, t), p.resolve(v, elem)), List.of(t), attrs);
    }

    private static void printInsert(OpAsmPrinter p, Operation op) {
        p.write(' ').operand(op.operand(1)).write(", ").operand(op.operand(0));
        printPosition(p, op);
        p.attrDict(op, Set.of("position"));
        p.write(" : ").type(op.result(0).type());
    }

    private static void verifyInsert(Operation op, VerifyContext ctx) {
        if (Syntax.verifyCounts(op, ctx, 2, 1)) {
            verifyPosition(op, ctx, op.operand(1).type(), "value");
        }
    }

    /** Reports a position that is not an array, or whose type inside the aggregate is not {@code type}. */
    private static void verifyPosition(Operation op, VerifyContext ctx, Type type, String what) {
        if (!(op.attr("position") instanceof Attribute.DenseArrayAttr)) {
            ctx.error(op, "Invalid position of " + op.name() + " (must be array<i64: ...>): " + op.attr("position"));
            return;
        }
        Type elem = elementAt(op.operand(0).type(), position(op));
        if (elem == null || !elem.equals(type)) {
            ctx.error(op, "Invalid " + what + " of " + op.name() + " (must have the type at its position, " + elem
                    + "): " + type);
        }
    }

    private static Operation parseExtract(OpAsmParser p, int results, Location loc) {
        OpAsmParser.OperandRef agg = p.operandRef();
        int off = p.offset();
        long[] pos = position(p);
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        Type elem = elementAt(t, pos);
        if (elem == null) {
            throw p.errorAt(off, "Invalid position of llvm.extractvalue (must be inside " + t + ")");
        }
        attrs.put("position", new Attribute.DenseArrayAttr(Type.I64, pos));
        return Operation.create(EXTRACT_VALUE, loc, List.of(p.resolve(agg, t)), List.of(elem), attrs);
    }

    private static void printExtract(OpAsmPrinter p, Operation op) {
        p.write(' ').operand(op.operand(0));
        printPosition(p, op);
        p.attrDict(op, Set.of("position"));
        p.write(" : ").type(op.operand(0).type());
    }

    private static void verifyExtract(Operation op, VerifyContext ctx) {
        if (Syntax.verifyCounts(op, ctx, 1, 1)) {
            verifyPosition(op, ctx, op.result(0).type(), "result");
        }
    }

    // ------------------------------------------------------------------ select, fcmp

    private static Operation parseSelect(OpAsmParser p, int results, Location loc) {
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 3) {
            throw p.errorAt(off, "Invalid operands of llvm.select (must be three): " + refs.size());
        }
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type c = p.type();
        p.expectPunct(',');
        Type t = p.type();
        return Operation.create(SELECT, loc, List.of(p.resolve(refs.get(0), c), p.resolve(refs.get(1), t),
                p.resolve(refs.get(2), t)), List.of(t), attrs);
    }

    private static Operation parseFCmp(OpAsmParser p, int results, Location loc) {
        int off = p.offset();
        String pred = p.string();
        int idx = FCMP_PREDICATES.indexOf(pred);
        if (idx < 0) {
            throw p.errorAt(off, "Invalid predicate of llvm.fcmp (must be one of " + String.join(", ", FCMP_PREDICATES)
                    + "): " + pred);
        }
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type t = p.type();
        attrs.put("predicate", Attribute.IntegerAttr.i64(idx));
        return Operation.create(FCMP, loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
    }

    // ------------------------------------------------------------------ atomicrmw

    private static Operation parseAtomic(OpAsmParser p, int results, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        if (p.optionalKeyword("volatile")) {
            attrs.put("volatile_", Attribute.UNIT);
        }
        int off = p.offset();
        String bin = p.keyword();
        if (!RMW_OPS.contains(bin)) {
            throw p.errorAt(off, "Invalid operation of llvm.atomicrmw (must be one of " + String.join(", ", RMW_OPS)
                    + "): " + bin);
        }
        attrs.put("bin_op", Attribute.IntegerAttr.i64(RMW_OPS.indexOf(bin)));
        OpAsmParser.OperandRef ptr = p.operandRef();
        p.expectPunct(',');
        OpAsmParser.OperandRef val = p.operandRef();
        if (p.optionalKeyword("syncscope")) {
            p.expectPunct('(');
            attrs.put("syncscope", new Attribute.StringAttr(p.stringBytes()));
            p.expectPunct(')');
        }
        int ordOff = p.offset();
        String ordering = p.keyword();
        if (!ORDERINGS.contains(ordering)) {
            throw p.errorAt(ordOff, "Invalid ordering of llvm.atomicrmw (must be one of " + String.join(", ", ORDERINGS)
                    + "): " + ordering);
        }
        attrs.put("ordering", Attribute.StringAttr.of(ordering));
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        Type pt = p.type();
        p.expectPunct(',');
        Type vt = p.type();
        return Operation.create(ATOMIC_RMW, loc, List.of(p.resolve(ptr, pt), p.resolve(val, vt)), List.of(vt), attrs);
    }

    private static void printAtomic(OpAsmPrinter p, Operation op) {
        p.write(op.hasAttr("volatile_") ? " volatile " : " ");
        p.write(RMW_OPS.get((int) ((Attribute.IntegerAttr) op.attr("bin_op")).value())).write(' ')
                .operand(op.operand(0)).write(", ").operand(op.operand(1));
        if (op.attr("syncscope") instanceof Attribute.StringAttr s) {
            p.write(" syncscope(\"").write(s.value()).write("\")");
        }
        p.write(' ').write(((Attribute.StringAttr) op.attr("ordering")).value());
        p.attrDict(op, Set.of("bin_op", "ordering", "syncscope", "volatile_"));
        p.write(" : ").type(op.operand(0).type()).write(", ").type(op.operand(1).type());
    }

    // ------------------------------------------------------------------ intrinsics

    private static Operation parseIntrinsic(OpAsmParser p, Location loc, String name) {
        p.expectPunct('(');
        List<OpAsmParser.OperandRef> refs = p.atPunct(')') ? List.of() : p.operandRefs();
        p.expectPunct(')');
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        int off = p.offset();
        Type.FunctionType ft = p.functionType();
        if (ft.results().size() != 1) {
            throw p.errorAt(off, "Invalid type of " + name + " (must have one result): " + ft);
        }
        return Operation.create(name, loc, p.resolve(refs, ft.inputs(), off), ft.results(), attrs);
    }

    private static void printIntrinsic(OpAsmPrinter p, Operation op) {
        p.write('(').operands(op.operands()).write(')');
        p.attrDict(op, Set.of());
        p.write(" : ").type(new Type.FunctionType(Syntax.types(op.operands()), Syntax.types(op.results())));
    }

    // ------------------------------------------------------------------ globals

    /**
     * {@code llvm.mlir.global [linkage] [constant] @name() [{attrs}] : T}, without an initializer: what
     * lowered workgroup memory is. A global with an initializer region is refused.
     */
    private static Operation parseGlobal(OpAsmParser p, int results, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        String kw = p.peekKeyword();
        if (kw != null && List.of("private", "internal", "external", "common", "weak", "linkonce", "linkonce_odr",
                "weak_odr", "available_externally", "extern_weak").contains(kw)) {
            p.keyword();
            attrs.put("linkage", new LinkageAttr(kw));
        }
        if (p.optionalKeyword("constant")) {
            attrs.put("constant", Attribute.UNIT);
        }
        attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
        p.expectPunct('(');
        if (!p.atPunct(')')) {
            attrs.put("value", p.attribute());
        }
        p.expectPunct(')');
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        attrs.put("global_type", new Attribute.TypeAttr(p.type()));
        if (p.atPunct('{')) {
            throw p.errorAt(p.offset(), "Invalid llvm.mlir.global (must have no initializer region): {");
        }
        // Upstream's op has one region, empty without an initializer; the generic form shows it.
        return Operation.create(GLOBAL, loc, List.of(), List.of(), attrs, 1, List.of());
    }

    private static void printGlobal(OpAsmPrinter p, Operation op) {
        if (op.attr("linkage") instanceof LinkageAttr l) {
            p.write(' ').write(l.linkage());
        }
        if (op.hasAttr("constant")) {
            p.write(" constant");
        }
        p.write(' ').symbol(op.symbolName()).write('(');
        if (op.attr("value") != null) {
            p.attr(op.attr("value"));
        }
        p.write(')');
        p.attrDict(op, Set.of("linkage", "constant", "sym_name", "value", "global_type"));
        p.write(" : ").type(((Attribute.TypeAttr) op.attr("global_type")).type());
    }

    private static void verifyGlobal(Operation op, VerifyContext ctx) {
        if (!Syntax.verifySymbolName(op, ctx)) {
            return;
        }
        if (!(op.attr("global_type") instanceof Attribute.TypeAttr t)) {
            ctx.error(op, "Invalid llvm.mlir.global (must have a global_type): " + op.attr("global_type"));
        } else if (t.type() instanceof Type.LLVMVoidType || t.type() instanceof Type.LLVMFunctionType
                || t.type() instanceof Type.IndexType) {
            // As upstream; LLVM has no global of such a type.
            ctx.error(op, "Invalid type of llvm.mlir.global (must be a valid element type for an LLVM global): "
                    + t.type());
        }
        Attribute as = op.attr("addr_space");
        if (as != null && !(as instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() <= Integer.MAX_VALUE)) {
            ctx.error(op, "Invalid addr_space of llvm.mlir.global (must be a non-negative 32-bit integer): " + as);
        }
        Attribute align = op.attr("alignment");
        if (align != null && !(align instanceof Attribute.IntegerAttr a && a.value() > 0 && Long.bitCount(a.value()) == 1
                && a.value() <= 1L << 32)) {
            // LLVM takes an alignment for a power of two without asking.
            ctx.error(op, "Invalid alignment of llvm.mlir.global (must be a power of 2): " + align);
        }
        // The custom form refuses an initializer region; the generic form could give one, which would be
        // dropped and the global left undefined.
        if (op.regions().size() > 1 || op.regions().size() == 1 && !op.region(0).isEmpty()) {
            ctx.error(op, "Invalid llvm.mlir.global (must have no initializer region; give its value instead): an"
                    + " initializer region");
        }
    }

    /**
     * A view of {@code llvm.mlir.global}.
     */
    public static final class GlobalOp extends OpView {
        /**
         * Views a global.
         *
         * @param op an {@code llvm.mlir.global}
         */
        public GlobalOp(Operation op) {
            super(op, GLOBAL);
        }

        /** {@return the type of the global's value} */
        public Type type() {
            return ((Attribute.TypeAttr) op.attr("global_type")).type();
        }

        /** {@return the address space, 0 when none is given} */
        public int addressSpace() {
            return op.attr("addr_space") instanceof Attribute.IntegerAttr i ? (int) i.value() : 0;
        }

        /** {@return the linkage keyword, {@code external} when none is given} */
        public String linkage() {
            return op.attr("linkage") instanceof LinkageAttr l ? l.linkage() : "external";
        }

        /** {@return the alignment in bytes, 0 when none is given} */
        public long alignment() {
            return op.attr("alignment") instanceof Attribute.IntegerAttr i ? i.value() : 0;
        }

        /**
         * Creates a global without initializer.
         *
         * @param loc where the op comes from
         * @param name the symbol name
         * @param type the value's type
         * @param addressSpace the address space
         * @return the new op, detached
         */
        public static GlobalOp create(Location loc, String name, Type type, int addressSpace) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("linkage", new LinkageAttr("internal"));
            attrs.put("sym_name", Attribute.StringAttr.of(name));
            attrs.put("global_type", new Attribute.TypeAttr(type));
            attrs.put("addr_space", new Attribute.IntegerAttr(addressSpace, Type.I32));
            return new GlobalOp(Operation.create(GLOBAL, loc, List.of(), List.of(), attrs, 1, List.of()));
        }
    }

    /**
     * {@return the position of an {@code llvm.insertvalue} or {@code llvm.extractvalue}}
     *
     * @param op the op
     */
    public static long[] position(Operation op) {
        return ((Attribute.DenseArrayAttr) op.attr("position")).values();
    }

    /**
     * {@return the value an {@code llvm.insertvalue} inserts}
     *
     * @param op the op
     */
    public static Value insertedValue(Operation op) {
        return op.operand(1);
    }
}
