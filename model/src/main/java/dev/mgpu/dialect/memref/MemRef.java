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
 * The memref dialect's element access: {@code load}, {@code store}, {@code atomic_rmw} and {@code dim},
 * with every op the dialect registers; {@code alloca}, {@code global} and {@code get_global} are in
 * {@link Allocations}, the views in {@link Views}. Each op is a nested class with its name, accessors,
 * creation, syntax and rules.
 */
public final class MemRef {
    private MemRef() {
    }

    /** {@return every op of the dialect} */
    public static List<OpDef> ops() {
        List<OpDef> out = new ArrayList<>(List.of(LoadOp.definition(), StoreOp.definition(),
                Allocations.AllocaOp.definition(), AtomicRMWOp.definition(), DimOp.definition(),
                Allocations.GlobalOp.definition(), Allocations.GetGlobalOp.definition()));
        out.addAll(Views.ops());
        out.addAll(Buffers.ops());
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

    /**
     * Reports an {@code alignment} that is not a positive power of 2 of type i64, upstream's rule for the
     * alignment of a memref access or allocation.
     */
    static void verifyAlignment(Operation op, VerifyContext ctx) {
        Attribute a = op.attr("alignment");
        if (a != null && !(a instanceof Attribute.IntegerAttr i && i.type().equals(Type.I64) && i.value() > 0
                && Long.bitCount(i.value()) == 1)) {
            ctx.error(op, "Invalid alignment of " + op.name() + " (must be a positive power of 2, an i64): " + a);
        }
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
            return OpDef.of(NAME).inherent("alignment", "nontemporal").syntax(LoadOp::parse, LoadOp::print)
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
            verifyAlignment(op, ctx);
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
            return OpDef.of(NAME).inherent("alignment", "nontemporal").syntax(StoreOp::parse, StoreOp::print)
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
            verifyAlignment(op, ctx);
            if (s.memref().type() instanceof Type.MemRefType m && !m.elementType().equals(s.value().type())) {
                ctx.error(op, "Invalid value of memref.store (must be the element type " + m.elementType() + "): "
                        + s.value().type());
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
        public static final List<String> KINDS = List.of("addf", "addi", "andi", "assign", "maximumf", "maxnumf",
                "maxs", "maxu", "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori");

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
         * @param memref a memref of rank 1 or more, or an unranked memref
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
            int off = p.offset();
            Type t = p.type();
            if (!(t instanceof Type.MemRefType) && !(t instanceof Type.UnrankedMemRefType)) {
                throw p.errorAt(off, "Invalid type (must be a memref): " + t);
            }
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
            Type t = op.operand(0).type();
            if (!(t instanceof Type.UnrankedMemRefType) && !(t instanceof Type.MemRefType m && m.rank() > 0)) {
                // A 0-D memref has no dimension to ask for.
                ctx.error(op, "Invalid memref of memref.dim (must be unranked or of rank 1 or more): " + t);
            }
            ctx.expectType(op, "index of memref.dim", op.operand(1), Type.INDEX);
            ctx.expectType(op, "result of memref.dim", op.result(0), Type.INDEX);
        }
    }
}
