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
 * The llvm dialect's memory ops: {@code llvm.alloca}, {@code llvm.load}, {@code llvm.store} (with their
 * atomic orderings) and the address computation {@code llvm.getelementptr}. Each op is a nested class with
 * its name, accessors, syntax and rules.
 */
public final class LLVMMemoryOps {
    private LLVMMemoryOps() {
    }

    /** {@code %p = llvm.alloca %n x T : (i64) -> !llvm.ptr}. */
    public static final class AllocaOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.alloca";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.alloca} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public AllocaOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an allocation of {@code count} elements; {@code alignment} 0 leaves it to LLVM.
         *
         * @param loc the op's location
         * @param count the number of elements, an integer
         * @param element the element type
         * @param alignment the alignment in bytes, or 0
         * @return the new, detached op, whose result is a pointer
         */
        public static AllocaOp create(Location loc, Value count, Type element, int alignment) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("elem_type", new Attribute.TypeAttr(element));
            if (alignment > 0) {
                attrs.put("alignment", Attribute.IntegerAttr.i64(alignment));
            }
            return new AllocaOp(Operation.create(NAME, loc, List.of(count), List.of(Type.PTR), attrs));
        }

        /**
         * The type of each element allocated.
         *
         * @return the {@code elem_type} attribute's type
         */
        public Type elementType() {
            return ((Attribute.TypeAttr) op.attr("elem_type")).type();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("elem_type", "alignment").syntax(AllocaOp::parse, AllocaOp::print)
                    .verifier((op, ctx) -> {
                        if (!(op.operand(0).type() instanceof Type.IntegerType)) {
                            ctx.error(op, "Invalid llvm.alloca size (must be an integer): " + op.operand(0).type());
                        }
                        expectPointer(op, ctx, "llvm.alloca result", op.result(0).type());
                        expectMemoryType(op, ctx, "llvm.alloca element type",
                                ((Attribute.TypeAttr) op.attr("elem_type")).type());
                    });
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
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
            return Operation.create(NAME, loc, List.of(p.resolve(size, ft.inputs().get(0))), ft.results(), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0)).write(" x ").type(((Attribute.TypeAttr) op.attr("elem_type")).type());
            p.attrDict(op, Set.of("elem_type"));
            p.write(" : ").type(new Type.FunctionType(List.of(op.operand(0).type()), List.of(op.result(0).type())));
        }
    }

    /** Atomic orderings, by the numbers LLVM gives them (3, consume, has no keyword). */
    public static final List<String> ORDERINGS = List.of("not_atomic", "unordered", "monotonic", "", "acquire",
            "release", "acq_rel", "seq_cst");

    /** {@code [atomic <ordering>]} after a load's or store's address. */
    private static void parseOrdering(OpAsmParser p, Map<String, Attribute> attrs) {
        if (!p.optionalKeyword("atomic")) {
            return;
        }
        int off = p.offset();
        String k = p.keyword();
        int n = ORDERINGS.indexOf(k);
        if (n <= 0) {
            throw p.errorAt(off, "Invalid atomic ordering (must be one of unordered, monotonic, acquire, release,"
                    + " acq_rel, seq_cst): " + k);
        }
        attrs.put("ordering", Attribute.IntegerAttr.i64(n));
    }

    private static void printOrdering(OpAsmPrinter p, Operation op) {
        if (op.attr("ordering") instanceof Attribute.IntegerAttr o && o.value() > 0 && o.value() < ORDERINGS.size()) {
            p.write(" atomic ").write(ORDERINGS.get((int) o.value()));
        }
    }

    /** The attributes a load or store may carry besides {@code alignment}, {@code volatile_} and {@code ordering}. */
    private static void verifyMemoryAttributes(Operation op, VerifyContext ctx, Set<String> allowed) {
        for (Map.Entry<String, Attribute> e : op.attributes().entrySet()) {
            String k = e.getKey();
            if (k.indexOf('.') < 0 && !allowed.contains(k)) {
                ctx.error(op, "Invalid attribute of " + op.name() + " (must be one that translation gives LLVM: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + "): " + k);
            }
        }
        if (op.attr("ordering") != null && !(op.attr("ordering") instanceof Attribute.IntegerAttr o
                && o.value() >= 0 && o.value() < ORDERINGS.size() && o.value() != 3)) {
            ctx.error(op, "Invalid ordering of " + op.name() + " (must be an atomic ordering 0 to 7, not 3): "
                    + op.attr("ordering"));
        }
        if (op.attr("alignment") != null && !(op.attr("alignment") instanceof Attribute.IntegerAttr a
                && a.value() > 0 && Long.bitCount(a.value()) == 1 && a.value() <= (1L << 32))) {
            ctx.error(op, "Invalid alignment of " + op.name() + " (must be a power of two): " + op.attr("alignment"));
        }
    }

    private static final Set<String> ELIDED_MEMORY = Set.of("volatile_", "ordering", "invariant");

    /**
     * {@code %v = llvm.load [volatile] %p [atomic <ordering>] [invariant] [{attrs}] : !llvm.ptr -> T}; the
     * attributes may hold {@code alignment} and {@code nontemporal}.
     */
    public static final class LoadOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.load";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.load} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public LoadOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a load of a {@code type} value from {@code address}.
         *
         * @param loc the op's location
         * @param address the pointer to load from
         * @param type the type loaded
         * @return the new, detached op
         */
        public static LoadOp create(Location loc, Value address, Type type) {
            return new LoadOp(Operation.create(NAME, loc, List.of(address), List.of(type), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "volatile_", "ordering", "invariant", "nontemporal",
                    "syncscope", "invariantGroup", "access_groups", "alias_scopes", "noalias_scopes", "tbaa")
                    .syntax(LoadOp::parse, (p, op) -> {
                        p.write(op.hasAttr("volatile_") ? " volatile " : " ").operand(op.operand(0));
                        printOrdering(p, op);
                        if (op.hasAttr("invariant")) {
                            p.write(" invariant");
                        }
                        p.attrDict(op, ELIDED_MEMORY);
                        p.write(" : ").type(op.operand(0).type()).write(" -> ").type(op.result(0).type());
                    }).verifier((op, ctx) -> {
                        expectPointer(op, ctx, "llvm.load address", op.operand(0).type());
                        expectMemoryType(op, ctx, "llvm.load result", op.result(0).type());
                        verifyMemoryAttributes(op, ctx, Set.of("alignment", "volatile_", "ordering", "invariant",
                                "nontemporal"));
                    });
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.optionalKeyword("volatile")) {
                attrs.put("volatile_", Attribute.UNIT);
            }
            OpAsmParser.OperandRef addr = p.operandRef();
            parseOrdering(p, attrs);
            if (p.optionalKeyword("invariant")) {
                attrs.put("invariant", Attribute.UNIT);
            }
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type pt = p.type();
            p.expectArrow();
            Type t = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(addr, pt)), List.of(t), attrs);
        }
    }

    /**
     * {@code llvm.store [volatile] %v, %p [atomic <ordering>] [{attrs}] : T, !llvm.ptr}; the attributes may
     * hold {@code alignment} and {@code nontemporal}.
     */
    public static final class StoreOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.store";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.store} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public StoreOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a store of {@code value} to {@code address}.
         *
         * @param loc the op's location
         * @param value the value to store
         * @param address the pointer to store to
         * @return the new, detached op
         */
        public static StoreOp create(Location loc, Value value, Value address) {
            return new StoreOp(Operation.create(NAME, loc, List.of(value, address), List.of(), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "volatile_", "ordering", "nontemporal", "syncscope",
                    "invariantGroup", "access_groups", "alias_scopes", "noalias_scopes", "tbaa")
                    .syntax(StoreOp::parse, (p, op) -> {
                        p.write(op.hasAttr("volatile_") ? " volatile " : " ").operands(op.operands());
                        printOrdering(p, op);
                        p.attrDict(op, ELIDED_MEMORY);
                        p.write(" : ").type(op.operand(0).type()).write(", ").type(op.operand(1).type());
                    }).verifier((op, ctx) -> {
                        expectPointer(op, ctx, "llvm.store address", op.operand(1).type());
                        expectMemoryType(op, ctx, "llvm.store value", op.operand(0).type());
                        verifyMemoryAttributes(op, ctx, Set.of("alignment", "volatile_", "ordering", "nontemporal"));
                    });
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.optionalKeyword("volatile")) {
                attrs.put("volatile_", Attribute.UNIT);
            }
            OpAsmParser.OperandRef v = p.operandRef();
            p.expectPunct(',');
            OpAsmParser.OperandRef addr = p.operandRef();
            parseOrdering(p, attrs);
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type vt = p.type();
            p.expectPunct(',');
            Type pt = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(v, vt), p.resolve(addr, pt)), List.of(), attrs);
        }
    }

    /**
     * {@code %q = llvm.getelementptr [inbounds] %p[i, %j, ...] : (!llvm.ptr, T) -> !llvm.ptr, E}: constant
     * indices are stored in {@code rawConstantIndices}, and each index given by an operand as
     * {@link #DYNAMIC_INDEX}.
     */
    public static final class GEPOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.getelementptr";

        /** The marker in {@code rawConstantIndices} for an index given by an operand. */
        public static final int DYNAMIC_INDEX = Integer.MIN_VALUE;

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.getelementptr} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public GEPOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an address computation; {@code indices} holds {@code Long} constants and {@code Value}s, in order.
         *
         * @param loc the op's location
         * @param base the base pointer
         * @param element the element type the indices step through
         * @param indices the indices, each a {@code Long} (or other {@code Number}) or a {@code Value}
         * @param inbounds whether the address stays within the allocation
         * @return the new, detached op, whose result has the base's type
         * @throws ClassCastException if an index is neither a {@code Number} nor a {@code Value}
         */
        public static GEPOp create(Location loc, Value base, Type element, List<Object> indices, boolean inbounds) {
            List<Value> ops = new ArrayList<>();
            ops.add(base);
            long[] raw = new long[indices.size()];
            for (int i = 0; i < raw.length; i++) {
                Object x = indices.get(i);
                if (x instanceof Value v) {
                    ops.add(v);
                    raw[i] = DYNAMIC_INDEX;
                } else {
                    raw[i] = ((Number) x).longValue();
                }
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("rawConstantIndices", new Attribute.DenseArrayAttr(Type.I32, raw));
            attrs.put("elem_type", new Attribute.TypeAttr(element));
            if (inbounds) {
                attrs.put("inbounds", Attribute.UNIT);
            }
            return new GEPOp(Operation.create(NAME, loc, ops, List.of(base.type()), attrs));
        }

        /**
         * The type the indices step through.
         *
         * @return the {@code elem_type} attribute's type
         */
        public Type elementType() {
            return ((Attribute.TypeAttr) op.attr("elem_type")).type();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("rawConstantIndices", "elem_type", "inbounds", "nuw")
                    .syntax(GEPOp::parse, GEPOp::print).verifier((op, ctx) -> {
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
                    });
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

        static Operation parse(OpAsmParser p, int n, Location loc) {
            // The no-wrap flags, as upstream writes them: inbounds, nusw, nuw, joined by '|'.
            boolean inbounds = false;
            boolean nuw = false;
            while (p.atKeyword("inbounds") || p.atKeyword("nusw") || p.atKeyword("nuw")) {
                String f = p.keyword();
                inbounds |= f.equals("inbounds");
                nuw |= f.equals("nuw");
                if (!p.optionalPunct('|')) {
                    break;
                }
            }
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
            if (nuw) {
                attrs.put("nuw", Attribute.UNIT);
            }
            return Operation.create(NAME, loc, ops, ft.results(), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            if (op.hasAttr("inbounds") || op.hasAttr("nuw")) {
                p.write(" ").write(op.hasAttr("inbounds") && op.hasAttr("nuw") ? "inbounds|nuw"
                        : op.hasAttr("inbounds") ? "inbounds" : "nuw");
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
            p.attrDict(op, Set.of("rawConstantIndices", "elem_type", "inbounds", "nuw"));
            p.write(" : ").type(new Type.FunctionType(Syntax.types(op.operands()), List.of(op.result(0).type())));
            p.write(", ").type(((Attribute.TypeAttr) op.attr("elem_type")).type());
        }
    }

    /** Whether LLVM can hold a value of {@code t} in memory: integers, floats, pointers, structs, arrays. */
    static boolean isMemoryType(Type t) {
        if (t instanceof Type.LLVMStructType s) {
            return s.body().stream().allMatch(LLVMMemoryOps::isMemoryType);
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
}
