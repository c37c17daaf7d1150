package dev.mgpu.dialect.memref;

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
 * The memref dialect's element access and allocation: {@code load}, {@code store}, {@code alloca},
 * {@code atomic_rmw}, {@code dim}, and {@code global} with {@code get_global}; the views are {@link Views}. Each op is a nested class with its name, accessors, creation, syntax
 * and rules.
 */
public final class MemRef {
    private MemRef() {
    }

    /** {@return every op of the dialect} */
    public static List<OpDef> ops() {
        List<OpDef> out = new ArrayList<>(List.of(LoadOp.definition(), StoreOp.definition(), AllocaOp.definition(),
                AtomicRMWOp.definition(), DimOp.definition(), GlobalOp.definition(), GetGlobalOp.definition()));
        out.addAll(Views.ops());
        return out;
    }

    /** {@code [%i, %j, ...]}: index operands. */
    private static List<OpAsmParser.OperandRef> indices(OpAsmParser p) {
        p.expectPunct('[');
        List<OpAsmParser.OperandRef> refs = p.atPunct(']') ? List.of() : p.operandRefs();
        p.expectPunct(']');
        return refs;
    }

    /** The memref of an element access and its indices, resolved: the operands the access ops share. */
    private static List<Value> access(OpAsmParser p, OpAsmParser.OperandRef memref, List<OpAsmParser.OperandRef> indices,
            Type.MemRefType type) {
        List<Value> out = new ArrayList<>();
        out.add(p.resolve(memref, type));
        out.addAll(p.resolveAll(indices, Type.INDEX));
        return out;
    }

    private static void printIndices(OpAsmPrinter p, List<Value> indices) {
        p.write('[').operands(indices).write(']');
    }

    static Type.MemRefType memrefType(OpAsmParser p) {
        int off = p.offset();
        Type t = p.type();
        if (!(t instanceof Type.MemRefType m)) {
            throw p.errorAt(off, "Invalid type (must be a ranked memref): " + t);
        }
        return m;
    }

    /** Reports indices that are not {@code index} values, one per dimension of {@code memref}. */
    static void verifyIndices(Operation op, VerifyContext ctx, Value memref, List<Value> indices) {
        if (!(memref.type() instanceof Type.MemRefType m)) {
            ctx.error(op, "Invalid memref of " + op.name() + " (must be a ranked memref): " + memref.type());
            return;
        }
        if (indices.size() != m.rank()) {
            ctx.error(op, "Invalid indices of " + op.name() + " (must be one per dimension, " + m.rank() + "): "
                    + indices.size());
            return;
        }
        for (Value v : indices) {
            if (!ctx.expectType(op, "index of " + op.name(), v, Type.INDEX)) {
                return;
            }
        }
    }

    /** {@code %v = memref.load %m[%i, ...] : memref<...>}: reads one element. */
    public static final class LoadOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.load";

        /**
         * Views a {@code memref.load}.
         *
         * @param op the op
         */
        public LoadOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a load of {@code memref[indices]}.
         *
         * @param loc where the op comes from
         * @param memref a ranked memref
         * @param indices one index per dimension
         * @return the new op, detached
         */
        public static LoadOp create(Location loc, Value memref, List<Value> indices) {
            List<Value> operands = new ArrayList<>();
            operands.add(memref);
            operands.addAll(indices);
            return new LoadOp(Operation.create(NAME, loc, operands, List.of(((Type.MemRefType) memref.type())
                    .elementType()), Map.of()));
        }

        /** {@return the memref read} */
        public Value memref() {
            return op.operand(0);
        }

        /** {@return the indices, one per dimension} */
        public List<Value> indices() {
            return op.operands().subList(1, op.operandCount());
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("nontemporal").syntax(LoadOp::parse, LoadOp::print)
                    .verifier(LoadOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef m = p.operandRef();
            List<OpAsmParser.OperandRef> idx = MemRef.indices(p);
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type.MemRefType t = memrefType(p);
            List<Value> operands = new ArrayList<>();
            operands.addAll(access(p, m, idx, t));
            return Operation.create(NAME, loc, operands, List.of(t.elementType()), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            LoadOp l = new LoadOp(op);
            p.write(' ').operand(l.memref());
            printIndices(p, l.indices());
            p.attrDict(op, Set.of());
            p.write(" : ").type(l.memref().type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.operandCount() < 1 || op.resultCount() != 1) {
                ctx.error(op, "Invalid memref.load (must have a memref, its indices and one result): "
                        + op.operandCount() + " operands, " + op.resultCount() + " results");
                return;
            }
            LoadOp l = new LoadOp(op);
            verifyIndices(op, ctx, l.memref(), l.indices());
            if (l.memref().type() instanceof Type.MemRefType m && !m.elementType().equals(op.result(0).type())) {
                ctx.error(op, "Invalid result of memref.load (must be the element type " + m.elementType() + "): "
                        + op.result(0).type());
            }
        }
    }

    /** {@code memref.store %v, %m[%i, ...] : memref<...>}: writes one element. */
    public static final class StoreOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.store";

        /**
         * Views a {@code memref.store}.
         *
         * @param op the op
         */
        public StoreOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a store of {@code value} to {@code memref[indices]}.
         *
         * @param loc where the op comes from
         * @param value a value of the element type
         * @param memref a ranked memref
         * @param indices one index per dimension
         * @return the new op, detached
         */
        public static StoreOp create(Location loc, Value value, Value memref, List<Value> indices) {
            List<Value> operands = new ArrayList<>();
            operands.add(value);
            operands.add(memref);
            operands.addAll(indices);
            return new StoreOp(Operation.create(NAME, loc, operands, List.of(), Map.of()));
        }

        /** {@return the value written} */
        public Value value() {
            return op.operand(0);
        }

        /** {@return the memref written} */
        public Value memref() {
            return op.operand(1);
        }

        /** {@return the indices, one per dimension} */
        public List<Value> indices() {
            return op.operands().subList(2, op.operandCount());
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("nontemporal").syntax(StoreOp::parse, StoreOp::print)
                    .verifier(StoreOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef v = p.operandRef();
            p.expectPunct(',');
            OpAsmParser.OperandRef m = p.operandRef();
            List<OpAsmParser.OperandRef> idx = MemRef.indices(p);
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type.MemRefType t = memrefType(p);
            List<Value> operands = new ArrayList<>();
            operands.add(p.resolve(v, t.elementType()));
            operands.addAll(access(p, m, idx, t));
            return Operation.create(NAME, loc, operands, List.of(), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            StoreOp s = new StoreOp(op);
            p.write(' ').operand(s.value()).write(", ").operand(s.memref());
            printIndices(p, s.indices());
            p.attrDict(op, Set.of());
            p.write(" : ").type(s.memref().type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.operandCount() < 2 || op.resultCount() != 0) {
                ctx.error(op, "Invalid memref.store (must have a value, a memref and its indices, and no result): "
                        + op.operandCount() + " operands, " + op.resultCount() + " results");
                return;
            }
            StoreOp s = new StoreOp(op);
            verifyIndices(op, ctx, s.memref(), s.indices());
            if (s.memref().type() instanceof Type.MemRefType m && !m.elementType().equals(s.value().type())) {
                ctx.error(op, "Invalid value of memref.store (must be the element type " + m.elementType() + "): "
                        + s.value().type());
            }
        }
    }

    /**
     * {@code %m = memref.alloca(%d, ...) : memref<...>}: memory on the stack of the function (private
     * memory in a kernel), one size operand per dynamic dimension.
     */
    public static final class AllocaOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.alloca";

        /**
         * Views a {@code memref.alloca}.
         *
         * @param op the op
         */
        public AllocaOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an alloca of {@code type}.
         *
         * @param loc where the op comes from
         * @param type the memref type
         * @param dynamicSizes one index per dynamic dimension
         * @return the new op, detached
         */
        public static AllocaOp create(Location loc, Type.MemRefType type, List<Value> dynamicSizes) {
            return new AllocaOp(Operation.create(NAME, loc, dynamicSizes, List.of(type),
                    Map.of("operandSegmentSizes", Attribute.DenseArrayAttr.i32(dynamicSizes.size(), 0))));
        }

        /** {@return the memref type allocated} */
        public Type.MemRefType type() {
            return (Type.MemRefType) op.result(0).type();
        }

        /** {@return the sizes of the dynamic dimensions} */
        public List<Value> dynamicSizes() {
            return op.operands();
        }

        /** {@return the alignment in bytes, or 0 for the element type's} */
        public long alignment() {
            return op.attr("alignment") instanceof Attribute.IntegerAttr i ? i.value() : 0;
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "operandSegmentSizes").syntax(AllocaOp::parse, AllocaOp::print)
                    .verifier(AllocaOp::verify).resultNames("alloca");
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            p.expectPunct('(');
            List<OpAsmParser.OperandRef> sizes = p.atPunct(')') ? List.of() : p.operandRefs();
            p.expectPunct(')');
            if (p.optionalPunct('[')) {
                throw p.errorAt(p.offset(), "Invalid memref.alloca (must have no symbol operands): [");
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type.MemRefType t = memrefType(p);
            attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(sizes.size(), 0));
            return Operation.create(NAME, loc, p.resolveAll(sizes, Type.INDEX), List.of(t), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write('(').operands(op.operands()).write(')');
            p.attrDict(op, Set.of("operandSegmentSizes"));
            p.write(" : ").type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.resultCount() != 1 || !(op.result(0).type() instanceof Type.MemRefType m)) {
                ctx.error(op, "Invalid result of memref.alloca (must be one ranked memref): " + op.resultCount());
                return;
            }
            if (op.operandCount() != m.dynamicDimCount()) {
                ctx.error(op, "Invalid sizes of memref.alloca (must be one per dynamic dimension, "
                        + m.dynamicDimCount() + "): " + op.operandCount());
            }
            for (Value v : op.operands()) {
                ctx.expectType(op, "size of memref.alloca", v, Type.INDEX);
            }
        }
    }

    /**
     * {@code %old = memref.atomic_rmw <kind> %v, %m[%i, ...] : (T, memref<...>) -> T}: reads the element,
     * combines it with {@code %v} and writes the result back, as one atomic step; returns what was there.
     */
    public static final class AtomicRMWOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.atomic_rmw";
        /** The kinds, in the order of their numbers in upstream's {@code AtomicRMWKind}. */
        public static final List<String> KINDS = List.of("addf", "addi", "assign", "maximumf", "maxs", "maxu",
                "minimumf", "mins", "minu", "mulf", "muli", "ori", "andi", "maxnumf", "minnumf");

        /**
         * Views a {@code memref.atomic_rmw}.
         *
         * @param op the op
         */
        public AtomicRMWOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an atomic read-modify-write.
         *
         * @param loc where the op comes from
         * @param kind one of {@link #KINDS}
         * @param value the value combined with the element
         * @param memref a ranked memref
         * @param indices one index per dimension
         * @return the new op, detached
         */
        public static AtomicRMWOp create(Location loc, String kind, Value value, Value memref, List<Value> indices) {
            int k = KINDS.indexOf(kind);
            if (k < 0) {
                throw new IllegalArgumentException("Invalid atomic kind (must be one of " + KINDS + "): " + kind);
            }
            List<Value> operands = new ArrayList<>();
            operands.add(value);
            operands.add(memref);
            operands.addAll(indices);
            return new AtomicRMWOp(Operation.create(NAME, loc, operands, List.of(value.type()),
                    Map.of("kind", new Attribute.IntegerAttr(k, Type.I64))));
        }

        /** {@return the kind, one of {@link #KINDS}} */
        public String kind() {
            return KINDS.get((int) ((Attribute.IntegerAttr) op.attr("kind")).value());
        }

        /** {@return the value combined with the element} */
        public Value value() {
            return op.operand(0);
        }

        /** {@return the memref} */
        public Value memref() {
            return op.operand(1);
        }

        /** {@return the indices, one per dimension} */
        public List<Value> indices() {
            return op.operands().subList(2, op.operandCount());
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("kind").syntax(AtomicRMWOp::parse, AtomicRMWOp::print)
                    .verifier(AtomicRMWOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            int off = p.offset();
            String kind = p.keyword();
            if (!KINDS.contains(kind)) {
                throw p.errorAt(off, "Invalid kind of memref.atomic_rmw (must be one of " + String.join(", ", KINDS)
                        + "): " + kind);
            }
            OpAsmParser.OperandRef v = p.operandRef();
            p.expectPunct(',');
            OpAsmParser.OperandRef m = p.operandRef();
            List<OpAsmParser.OperandRef> idx = MemRef.indices(p);
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            p.expectPunct('(');
            Type vt = p.type();
            p.expectPunct(',');
            Type.MemRefType mt = memrefType(p);
            p.expectPunct(')');
            p.expectArrow();
            Type rt = p.type();
            attrs.put("kind", new Attribute.IntegerAttr(KINDS.indexOf(kind), Type.I64));
            List<Value> operands = new ArrayList<>();
            operands.add(p.resolve(v, vt));
            operands.addAll(access(p, m, idx, mt));
            return Operation.create(NAME, loc, operands, List.of(rt), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            AtomicRMWOp a = new AtomicRMWOp(op);
            p.write(' ').write(a.kind()).write(' ').operand(a.value()).write(", ").operand(a.memref());
            printIndices(p, a.indices());
            p.attrDict(op, Set.of("kind"));
            p.write(" : (").type(a.value().type()).write(", ").type(a.memref().type()).write(") -> ")
                    .type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.operandCount() < 2 || op.resultCount() != 1) {
                ctx.error(op, "Invalid memref.atomic_rmw (must have a value, a memref, its indices and one result): "
                        + op.operandCount() + " operands, " + op.resultCount() + " results");
                return;
            }
            if (!(op.attr("kind") instanceof Attribute.IntegerAttr k) || k.value() < 0 || k.value() >= KINDS.size()) {
                ctx.error(op, "Invalid kind of memref.atomic_rmw (must be 0 to " + (KINDS.size() - 1) + "): "
                        + op.attr("kind"));
                return;
            }
            AtomicRMWOp a = new AtomicRMWOp(op);
            verifyIndices(op, ctx, a.memref(), a.indices());
            Type t = a.value().type();
            if (a.memref().type() instanceof Type.MemRefType m && !m.elementType().equals(t)) {
                ctx.error(op, "Invalid value of memref.atomic_rmw (must be the element type " + m.elementType()
                        + "): " + t);
                return;
            }
            if (!op.result(0).type().equals(t)) {
                ctx.error(op, "Invalid result of memref.atomic_rmw (must be " + t + "): " + op.result(0).type());
            }
            String kind = a.kind();
            boolean floatKind = kind.endsWith("f");
            boolean ok = kind.equals("assign") || (floatKind ? t instanceof Type.FloatType
                    : t instanceof Type.IntegerType);
            if (!ok) {
                ctx.error(op, "Invalid value of memref.atomic_rmw " + kind + " (must be " + (floatKind ? "a float"
                        : "an integer") + "): " + t);
            }
        }
    }

    /** {@code %d = memref.dim %m, %i : memref<...>}: the size of dimension {@code %i}. */
    public static final class DimOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.dim";

        /**
         * Views a {@code memref.dim}.
         *
         * @param op the op
         */
        public DimOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code memref.dim memref, index}.
         *
         * @param loc where the op comes from
         * @param memref a ranked memref
         * @param index the dimension, an index
         * @return the new op, detached
         */
        public static DimOp create(Location loc, Value memref, Value index) {
            return new DimOp(Operation.create(NAME, loc, List.of(memref, index), List.of(Type.INDEX), Map.of()));
        }

        /** {@return the memref} */
        public Value memref() {
            return op.operand(0);
        }

        /** {@return the dimension asked for} */
        public Value index() {
            return op.operand(1);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(DimOp::parse, DimOp::print).verifier(DimOp::verify).resultNames("dim");
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef m = p.operandRef();
            p.expectPunct(',');
            OpAsmParser.OperandRef i = p.operandRef();
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type.MemRefType t = memrefType(p);
            return Operation.create(NAME, loc, List.of(p.resolve(m, t), p.resolve(i, Type.INDEX)), List.of(Type.INDEX),
                    attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0)).write(", ").operand(op.operand(1));
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            if (!(op.operand(0).type() instanceof Type.MemRefType)) {
                ctx.error(op, "Invalid memref of memref.dim (must be a ranked memref): " + op.operand(0).type());
            }
            ctx.expectType(op, "index of memref.dim", op.operand(1), Type.INDEX);
            ctx.expectType(op, "result of memref.dim", op.result(0), Type.INDEX);
        }
    }

    /**
     * {@code memref.global ["private"] [constant] @name : memref<...> [= dense<...> | = uninitialized]
     * [{alignment = N}]}: a statically shaped buffer of the module, with its elements or without; a declaration
     * when it has no value.
     */
    public static final class GlobalOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.global";

        /**
         * Views a {@code memref.global}.
         *
         * @param op the op
         */
        public GlobalOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a global.
         *
         * @param loc where the op comes from
         * @param name its symbol name
         * @param type its memref type, statically shaped
         * @param value its elements; null for {@code uninitialized}
         * @param constant whether it is never written
         * @param isPrivate whether it is private to its module
         * @return the new op, detached
         */
        public static GlobalOp create(Location loc, String name, Type.MemRefType type, Attribute.DenseElementsAttr value,
                boolean constant, boolean isPrivate) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("sym_name", Attribute.StringAttr.of(name));
            attrs.put("type", new Attribute.TypeAttr(type));
            attrs.put("initial_value", value == null ? Attribute.UNIT : value);
            if (constant) {
                attrs.put("constant", Attribute.UNIT);
            }
            if (isPrivate) {
                attrs.put("sym_visibility", Attribute.StringAttr.of("private"));
            }
            return new GlobalOp(Operation.create(NAME, loc, List.of(), List.of(), attrs));
        }

        /** {@return the memref type} */
        public Type.MemRefType type() {
            return (Type.MemRefType) ((Attribute.TypeAttr) op.attr("type")).type();
        }

        /** {@return the elements, or null when it is uninitialized or a declaration} */
        public Attribute.DenseElementsAttr value() {
            return op.attr("initial_value") instanceof Attribute.DenseElementsAttr d ? d : null;
        }

        /** {@return whether it is defined here (it has a value, or is uninitialized), not declared} */
        public boolean isDefinition() {
            return op.attr("initial_value") != null;
        }

        /** {@return whether it is never written} */
        public boolean isConstant() {
            return op.hasAttr("constant");
        }

        /** {@return whether it is private to its module} */
        public boolean isPrivate() {
            return op.attr("sym_visibility") instanceof Attribute.StringAttr v && v.value().equals("private");
        }

        /** {@return the alignment in bytes, or 0 for the element type's} */
        public long alignment() {
            return op.attr("alignment") instanceof Attribute.IntegerAttr i ? i.value() : 0;
        }

        /** Whether {@code m}'s strided layout is the identity: offset 0 and row-major strides. */
        private static boolean identity(Type.MemRefType m) {
            if (!(m.layout() instanceof Attribute.StridedLayoutAttr s) || s.offset() != 0) {
                return false;
            }
            long stride = 1;
            for (int i = m.shape().length - 1; i >= 0; i--) {
                if (s.strides()[i] != stride) {
                    return false;
                }
                stride *= m.shape()[i];
            }
            return true;
        }

        /** The tensor type whose elements fill a global of memref type {@code m}. */
        static Type.TensorType tensorOf(Type.MemRefType m) {
            return new Type.TensorType(m.shape(), m.elementType());
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("sym_name", "sym_visibility", "type", "initial_value", "constant",
                    "alignment").syntax(GlobalOp::parse, GlobalOp::print).verifier(GlobalOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.atString()) {
                attrs.put("sym_visibility", new Attribute.StringAttr(p.stringBytes()));
            }
            if (p.optionalKeyword("constant")) {
                attrs.put("constant", Attribute.UNIT);
            }
            attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
            p.expectPunct(':');
            Type.MemRefType t = memrefType(p);
            attrs.put("type", new Attribute.TypeAttr(t));
            if (p.optionalPunct('=')) {
                if (p.optionalKeyword("uninitialized")) {
                    attrs.put("initial_value", Attribute.UNIT);
                } else {
                    attrs.put("initial_value", p.denseElements(tensorOf(t)));
                }
            }
            attrs.putAll(p.optionalDictionary());
            return Operation.create(NAME, loc, List.of(), List.of(), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            if (op.attr("sym_visibility") instanceof Attribute.StringAttr v) {
                p.write(' ').attr(v);
            }
            if (op.hasAttr("constant")) {
                p.write(" constant");
            }
            p.write(' ').symbol(op.symbolName()).write(" : ").type(((Attribute.TypeAttr) op.attr("type")).type());
            Attribute value = op.attr("initial_value");
            if (value instanceof Attribute.DenseElementsAttr d) {
                p.write(" = ").write(dev.mgpu.ir.AsmOutput.dense(d));
            } else if (value != null) {
                p.write(" = uninitialized");
            }
            p.attrDict(op, Set.of("sym_name", "sym_visibility", "type", "initial_value", "constant"));
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 0, 0) || !Syntax.verifySymbolName(op, ctx)) {
                return;
            }
            if (!(op.attr("type") instanceof Attribute.TypeAttr ta && ta.type() instanceof Type.MemRefType m)) {
                ctx.error(op, "Invalid type of memref.global (must be a memref type): " + op.attr("type"));
                return;
            }
            if (m.dynamicDimCount() > 0 || m.layout() != null && !identity(m)) {
                ctx.error(op, "Invalid type of memref.global (must have a static shape and the identity layout): " + m);
                return;
            }
            try {
                long n = 1;
                for (long d : m.shape()) {
                    n = Math.multiplyExact(n, d);
                }
            } catch (ArithmeticException e) {
                ctx.error(op, "Invalid type of memref.global (must have fewer than 2^63 elements): " + m);
                return;
            }
            Operation parent = op.parentOp();
            if (parent != null && !parent.name().equals("builtin.module") && !parent.name().equals("gpu.module")) {
                ctx.error(op, "Invalid memref.global (must be in a builtin.module or gpu.module): in " + parent.name());
            }
            if (!op.regions().isEmpty() && !op.region(0).isEmpty()) {
                ctx.error(op, "Invalid memref.global (must have no regions)");
            }
            Attribute vis = op.attr("sym_visibility");
            if (vis != null && !(vis instanceof Attribute.StringAttr v && List.of("public", "private", "nested")
                    .contains(v.value()))) {
                ctx.error(op, "Invalid sym_visibility of memref.global (must be \"public\", \"private\" or"
                        + " \"nested\"): " + vis);
            }
            Attribute constant = op.attr("constant");
            if (constant != null && !(constant instanceof Attribute.UnitAttr)) {
                ctx.error(op, "Invalid constant of memref.global (must be a unit attribute): " + constant);
            }
            Attribute value = op.attr("initial_value");
            if (value != null && !(value instanceof Attribute.UnitAttr) && !(value instanceof Attribute.DenseElementsAttr d
                    && d.type().equals(tensorOf(m)))) {
                ctx.error(op, "Invalid initial_value of memref.global (must be uninitialized or dense elements of type "
                        + tensorOf(m) + "): " + value);
            }
            if (op.hasAttr("constant") && !(value instanceof Attribute.DenseElementsAttr)) {
                ctx.error(op, "Invalid constant memref.global (must have dense elements): @" + op.symbolName());
            }
            Attribute align = op.attr("alignment");
            if (align != null && !(align instanceof Attribute.IntegerAttr a && a.type().equals(Type.I64) && a.value() > 0
                    && a.value() <= 1L << 31 && Long.bitCount(a.value()) == 1)) {
                ctx.error(op, "Invalid alignment of memref.global (must be a power of 2, at most 2^31): " + align);
            }
        }
    }

    /** {@code %m = memref.get_global @name : memref<...>}: the buffer of a {@code memref.global}. */
    public static final class GetGlobalOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.get_global";

        /**
         * Views a {@code memref.get_global}.
         *
         * @param op the op
         */
        public GetGlobalOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code memref.get_global @name : type}.
         *
         * @param loc where the op comes from
         * @param name the global's symbol name
         * @param type the global's memref type
         * @return the new op, detached
         */
        public static GetGlobalOp create(Location loc, String name, Type.MemRefType type) {
            return new GetGlobalOp(Operation.create(NAME, loc, List.of(), List.of(type),
                    Map.of("name", new Attribute.SymbolRefAttr(name, List.of()))));
        }

        /** {@return the global's reference} */
        public Attribute.SymbolRefAttr name() {
            return (Attribute.SymbolRefAttr) op.attr("name");
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("name").syntax((p, n, loc) -> Syntax.symbolOfType(p, loc, NAME, "name",
                    MemRef::memrefType), (p, op) -> Syntax.printSymbolOfType(p, op, "name")).verifier((op, ctx) -> {
                if (!Syntax.verifyCounts(op, ctx, 0, 1)) {
                    return;
                }
                Operation g = op.attr("name") instanceof Attribute.SymbolRefAttr r ? ctx.symbols().lookup(op, r) : null;
                if (g == null || !g.name().equals(GlobalOp.NAME)) {
                    ctx.error(op, "Invalid memref.get_global (must name a memref.global): " + op.attr("name"));
                    return;
                }
                Type want = ((Attribute.TypeAttr) g.attr("type")).type();
                if (!op.result(0).type().equals(want)) {
                    ctx.error(op, "Invalid result of memref.get_global (must be the global's type, " + want + "): "
                            + op.result(0).type());
                }
            });
        }
    }
}
