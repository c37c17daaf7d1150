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
 * The memref ops that view part of the same memory, or the same memory with offsets, sizes and strides of
 * their own: {@code subview} and {@code reinterpret_cast}, with what they and {@link Reshapes} share. None
 * moves data: a kernel's memref is the address of its element 0, so a view is that address moved by the
 * view's offset.
 */
public final class Views {

    /** The static attributes of an op with mixed offsets, sizes and strides, in that order. */
    private static final String[] MIXED = {"static_offsets", "static_sizes", "static_strides"};

    private Views() {
    }

    /** {@return the view ops} */
    static List<OpDef> ops() {
        return List.of(SubViewOp.definition(), ReinterpretCastOp.definition(), Reshapes.CastOp.definition(),
                Reshapes.ReshapeOp.definition(Reshapes.ReshapeOp.COLLAPSE),
                Reshapes.ReshapeOp.definition(Reshapes.ReshapeOp.EXPAND));
    }

    /** A memref's layout as numbers: its strides and offset, {@link Type#DYNAMIC} where unknown. */
    public record Strides(long[] strides, long offset) {
        /**
         * The strides and offset of {@code m}: its strided layout's, or row-major from its shape.
         *
         * @param m a ranked memref type
         * @return its strides and offset
         */
        public static Strides of(Type.MemRefType m) {
            if (m.layout() instanceof Attribute.StridedLayoutAttr s) {
                return new Strides(s.strides(), s.offset());
            }
            long[] strides = new long[m.rank()];
            long stride = 1;
            for (int i = m.rank() - 1; i >= 0; i--) {
                strides[i] = stride;
                stride = stride == Type.DYNAMIC || m.dim(i) == Type.DYNAMIC ? Type.DYNAMIC : stride * m.dim(i);
            }
            return new Strides(strides, 0);
        }
    }

    /**
     * An op of {@code source} and three lists (offsets, sizes, strides), each entry a {@link Long} or an index
     * {@link Value}: the values become operands after the source, the longs the lists' static attributes.
     */
    private static Operation mixedOp(String name, Location loc, Value source, List<List<Object>> lists,
            Type result) {
        List<Value> operands = new ArrayList<>(List.of(source));
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        int[] segments = {1, 0, 0, 0};
        for (int k = 0; k < 3; k++) {
            long[] statics = new long[lists.get(k).size()];
            for (int i = 0; i < statics.length; i++) {
                Object e = lists.get(k).get(i);
                if (e instanceof Value v) {
                    operands.add(v);
                    segments[k + 1]++;
                    statics[i] = Type.DYNAMIC;
                } else {
                    statics[i] = (Long) e;
                }
            }
            attrs.put(MIXED[k], new Attribute.DenseArrayAttr(Type.I64, statics));
        }
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(segments));
        return Operation.create(name, loc, operands, List.of(result), attrs);
    }

    /** The op that three parsed mixed lists (offsets, sizes, strides) and {@code attrs} describe. */
    private static Operation resolvedMixedOp(OpAsmParser p, String name, Location loc, Value source,
            List<List<Long>> statics, List<List<OpAsmParser.OperandRef>> dynamics, Map<String, Attribute> attrs,
            Type result) {
        List<Value> operands = new ArrayList<>(List.of(source));
        int[] segments = {1, 0, 0, 0};
        for (int k = 0; k < 3; k++) {
            operands.addAll(p.resolveAll(dynamics.get(k), Type.INDEX));
            segments[k + 1] = dynamics.get(k).size();
            attrs.put(MIXED[k], new Attribute.DenseArrayAttr(Type.I64, longs(statics.get(k))));
        }
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(segments));
        return Operation.create(name, loc, operands, List.of(result), attrs);
    }

    /**
     * The operandSegmentSizes of a mixed op, checked along with its one result and its source: null after
     * reporting an error.
     */
    private static Attribute.DenseArrayAttr mixedSegments(Operation op, String name, VerifyContext ctx) {
        if (op.resultCount() != 1 || op.operandCount() < 1) {
            Syntax.verifyCounts(op, ctx, 1, 1);
            return null;
        }
        if (!(op.attr("operandSegmentSizes") instanceof Attribute.DenseArrayAttr seg) || seg.size() != 4
                || seg.get(0) != 1 || seg.get(1) < 0 || seg.get(2) < 0 || seg.get(3) < 0
                || 1 + seg.get(1) + seg.get(2) + seg.get(3) != op.operandCount()) {
            ctx.error(op, "Invalid operandSegmentSizes of " + name + " (must be [1, offsets, sizes, strides],"
                    + " adding up to the " + op.operandCount() + " operands): " + op.attr("operandSegmentSizes"));
            return null;
        }
        return seg;
    }

    /**
     * The static offsets, sizes and strides of {@code op}, checked: {@code counts[k]} entries in list k (else the
     * error says it must {@code expected.apply(k)}), one {@link Type#DYNAMIC} per value given, and no negative
     * offset or size. Null after reporting an error.
     */
    private static long[][] checkedMixed(Operation op, String name, int[] counts, Attribute.DenseArrayAttr seg,
            VerifyContext ctx, java.util.function.IntFunction<String> expected) {
        long[][] statics = new long[3][];
        for (int k = 0; k < 3; k++) {
            if (!(op.attr(MIXED[k]) instanceof Attribute.DenseArrayAttr a) || a.size() != counts[k]) {
                ctx.error(op, "Invalid " + MIXED[k] + " of " + name + " (must " + expected.apply(k) + "): "
                        + op.attr(MIXED[k]));
                return null;
            }
            statics[k] = a.values();
            if (countDynamic(statics[k]) != seg.get(k + 1)) {
                ctx.error(op, "Invalid " + MIXED[k] + " of " + name + " (must have one ? per value given, "
                        + seg.get(k + 1) + "): " + op.attr(MIXED[k]));
                return null;
            }
            for (long v : statics[k]) {
                if (k < 2 && v != Type.DYNAMIC && v < 0) {
                    ctx.error(op, "Invalid " + MIXED[k] + " of " + name + " (must be at least 0): " + v);
                    return null;
                }
            }
        }
        return statics;
    }

    /** Parses {@code [a, %b, ...]}: integers into {@code statics}, values as DYNAMIC with their refs. */
    static void mixedList(OpAsmParser p, List<Long> statics, List<OpAsmParser.OperandRef> dynamics) {
        p.expectPunct('[');
        if (!p.atPunct(']')) {
            do {
                if (p.atValue()) {
                    dynamics.add(p.operandRef());
                    statics.add(Type.DYNAMIC);
                } else {
                    statics.add(p.integer());
                }
            } while (p.optionalPunct(','));
        }
        p.expectPunct(']');
    }

    static void printMixed(OpAsmPrinter p, long[] statics, List<Value> dynamics) {
        p.write('[');
        int d = 0;
        for (int i = 0; i < statics.length; i++) {
            if (i > 0) {
                p.write(", ");
            }
            if (statics[i] == Type.DYNAMIC) {
                p.operand(dynamics.get(d++));
            } else {
                p.write(Long.toString(statics[i]));
            }
        }
        p.write(']');
    }

    static long[] longs(List<Long> l) {
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = l.get(i);
        }
        return out;
    }

    /** Parses {@code [{attrs}] : T <word> R} into {@code attrs}, returning {T, R}. */
    static Type.MemRefType[] types(OpAsmParser p, Map<String, Attribute> attrs, String word) {
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        Type.MemRefType from = MemRef.memrefType(p);
        p.expectKeyword(word);
        return new Type.MemRefType[] {from, MemRef.memrefType(p)};
    }

    static long countDynamic(long[] statics) {
        long n = 0;
        for (long v : statics) {
            n += v == Type.DYNAMIC ? 1 : 0;
        }
        return n;
    }

    /** Whether {@code a} and {@code b} may be the same number: equal, or either unknown. */
    static boolean compatible(long a, long b) {
        return a == b || a == Type.DYNAMIC || b == Type.DYNAMIC;
    }

    /**
     * {@code %v = memref.subview %m[offsets] [sizes] [strides] : T to R}: the part of {@code %m} that starts
     * at {@code offsets} and takes {@code sizes} elements, every {@code strides}-th, in each dimension; each
     * entry an integer or an index value. R may drop dimensions of size 1.
     */
    public static final class SubViewOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.subview";

        /**
         * Views a {@code memref.subview}.
         *
         * @param op the op
         */
        public SubViewOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a subview. Each entry of {@code offsets}, {@code sizes} and {@code strides} is a
         * {@link Long} or an index {@link Value}, one per dimension of {@code source}.
         *
         * @param loc where the op comes from
         * @param source the memref viewed
         * @param offsets where the view starts
         * @param sizes the view's sizes
         * @param strides the steps between the view's elements, in elements of {@code source}
         * @param result the view's type, {@link #inferredType} or a rank-reduced form of it
         * @return the new op, detached
         */
        public static SubViewOp create(Location loc, Value source, List<Object> offsets, List<Object> sizes,
                List<Object> strides, Type.MemRefType result) {
            return new SubViewOp(mixedOp(NAME, loc, source, List.of(offsets, sizes, strides), result));
        }

        /** {@return the memref viewed} */
        public Value source() {
            return op.operand(0);
        }

        /** {@return the offsets that are values, in order} */
        public List<Value> offsets() {
            return op.segment(1);
        }

        /** {@return the offsets, {@link Type#DYNAMIC} where a value gives one} */
        public long[] staticOffsets() {
            return ((Attribute.DenseArrayAttr) op.attr("static_offsets")).values();
        }

        /** {@return the sizes, {@link Type#DYNAMIC} where a value gives one} */
        public long[] staticSizes() {
            return ((Attribute.DenseArrayAttr) op.attr("static_sizes")).values();
        }

        /** {@return the strides, {@link Type#DYNAMIC} where a value gives one} */
        public long[] staticStrides() {
            return ((Attribute.DenseArrayAttr) op.attr("static_strides")).values();
        }

        /**
         * The type of a subview of {@code source} that keeps every dimension: the given sizes, strides that
         * are the source's times the subview's, and an offset that is the source's plus each offset times
         * its stride; unknown where any part is.
         *
         * @param source the memref viewed
         * @param offsets the static offsets, {@link Type#DYNAMIC} for a value
         * @param sizes the static sizes, {@link Type#DYNAMIC} for a value
         * @param strides the static strides, {@link Type#DYNAMIC} for a value
         * @return the view's type
         */
        public static Type.MemRefType inferredType(Type.MemRefType source, long[] offsets, long[] sizes,
                long[] strides) {
            Strides s = Strides.of(source);
            long[] out = new long[sizes.length];
            long offset = s.offset();
            for (int i = 0; i < sizes.length; i++) {
                long st = s.strides()[i];
                out[i] = st == Type.DYNAMIC || strides[i] == Type.DYNAMIC ? Type.DYNAMIC : st * strides[i];
                if (offset != Type.DYNAMIC && offsets[i] != 0) {
                    offset = st == Type.DYNAMIC || offsets[i] == Type.DYNAMIC ? Type.DYNAMIC : offset + offsets[i] * st;
                }
            }
            return new Type.MemRefType(sizes, source.elementType(), new Attribute.StridedLayoutAttr(offset, out),
                    source.memorySpace());
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("static_offsets", "static_sizes", "static_strides", "operandSegmentSizes")
                    .syntax(SubViewOp::parse, SubViewOp::print).verifier(SubViewOp::verify).resultNames("subview");
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef src = p.operandRef();
            List<List<Long>> statics = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            List<List<OpAsmParser.OperandRef>> dynamics = List.of(new ArrayList<>(), new ArrayList<>(),
                    new ArrayList<>());
            for (int k = 0; k < 3; k++) {
                mixedList(p, statics.get(k), dynamics.get(k));
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            Type.MemRefType[] ft = types(p, attrs, "to");
            return resolvedMixedOp(p, NAME, loc, p.resolve(src, ft[0]), statics, dynamics, attrs, ft[1]);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            SubViewOp s = new SubViewOp(op);
            p.write(' ').operand(s.source());
            printMixed(p, s.staticOffsets(), op.segment(1));
            p.write(' ');
            printMixed(p, s.staticSizes(), op.segment(2));
            p.write(' ');
            printMixed(p, s.staticStrides(), op.segment(3));
            p.attrDict(op, Set.of("static_offsets", "static_sizes", "static_strides", "operandSegmentSizes"));
            p.write(" : ").type(s.source().type()).write(" to ").type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            Attribute.DenseArrayAttr seg = mixedSegments(op, NAME, ctx);
            if (seg == null) {
                return;
            }
            if (!(op.operand(0).type() instanceof Type.MemRefType src)) {
                ctx.error(op, "Invalid source of " + NAME + " (must be a ranked memref): " + op.operand(0).type());
                return;
            }
            int r = src.rank();
            long[][] statics = checkedMixed(op, NAME, new int[] {r, r, r}, seg, ctx,
                    k -> "be one entry per dimension of the source, " + r);
            if (statics == null) {
                return;
            }
            for (int i = 0; i < src.rank(); i++) {
                long off = statics[0][i];
                long size = statics[1][i];
                long stride = statics[2][i];
                if (src.dim(i) != Type.DYNAMIC && off != Type.DYNAMIC && off >= src.dim(i)) {
                    ctx.error(op, "Invalid offset of " + NAME + " along dimension " + i + " (must be below its "
                            + src.dim(i) + " elements): " + off);
                    return;
                }
                if (src.dim(i) != Type.DYNAMIC && off != Type.DYNAMIC && size != Type.DYNAMIC && stride != Type.DYNAMIC
                        && size > 0 && (off + (size - 1) * stride >= src.dim(i) || off + (size - 1) * stride < 0)) {
                    ctx.error(op, "Invalid slice of " + NAME + " along dimension " + i + " (must stay within its "
                            + src.dim(i) + " elements): reaches " + (off + (size - 1) * stride));
                    return;
                }
            }
            for (Value v : op.operands().subList(1, op.operandCount())) {
                if (!ctx.expectType(op, "offset, size or stride of " + NAME, v, Type.INDEX)) {
                    return;
                }
            }
            if (!(op.result(0).type() instanceof Type.MemRefType res)) {
                ctx.error(op, "Invalid result of " + NAME + " (must be a ranked memref): " + op.result(0).type());
                return;
            }
            Type.MemRefType full = inferredType(src, statics[0], statics[1], statics[2]);
            if (!reducesTo(full, res)) {
                ctx.error(op, "Invalid result type of " + NAME + " (must be " + full + " or it without dimensions of"
                        + " size 1): " + res);
            }
        }

        /** Whether {@code r} is {@code full}, with dimensions of static size 1 left out or not. */
        static boolean reducesTo(Type.MemRefType full, Type.MemRefType r) {
            if (!full.elementType().equals(r.elementType()) || !java.util.Objects.equals(full.memorySpace(),
                    r.memorySpace()) || r.rank() > full.rank()) {
                return false;
            }
            Strides fs = Strides.of(full);
            Strides rs = Strides.of(r);
            List<Long> keptStrides = new ArrayList<>();
            int j = 0;
            for (int i = 0; i < full.rank(); i++) {
                if (j < r.rank() && full.dim(i) == r.dim(j)) {
                    keptStrides.add(fs.strides()[i]);
                    j++;
                } else if (full.dim(i) != 1) {
                    return false;
                }
            }
            if (j != r.rank()) {
                return false;
            }
            for (int k = 0; k < r.rank(); k++) {
                if (keptStrides.get(k) != rs.strides()[k]) {
                    return false;
                }
            }
            return fs.offset() == rs.offset();
        }
    }

    /**
     * {@code %v = memref.reinterpret_cast %m to offset: [o], sizes: [...], strides: [...] : T to R}: the
     * memory of {@code %m}'s base with a layout given outright: its element 0 is {@code o} elements past the
     * base, and each entry is an integer or an index value.
     */
    public static final class ReinterpretCastOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.reinterpret_cast";

        /**
         * Views a {@code memref.reinterpret_cast}.
         *
         * @param op the op
         */
        public ReinterpretCastOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a reinterpret_cast. {@code offset} and each entry of {@code sizes} and {@code strides} is a
         * {@link Long} or an index {@link Value}.
         *
         * @param loc where the op comes from
         * @param source the memref whose base is viewed, ranked or not
         * @param offset where the view's element 0 is, in elements from the base
         * @param sizes the view's sizes
         * @param strides the view's strides, in elements
         * @param result the view's type, with a dimension per size
         * @return the new op, detached
         */
        public static ReinterpretCastOp create(Location loc, Value source, Object offset, List<Object> sizes,
                List<Object> strides, Type.MemRefType result) {
            return new ReinterpretCastOp(mixedOp(NAME, loc, source, List.of(List.of(offset), sizes, strides),
                    result));
        }

        /** {@return the memref whose base is viewed} */
        public Value source() {
            return op.operand(0);
        }

        /** {@return the offset, {@link Type#DYNAMIC} where a value gives it} */
        public long staticOffset() {
            return ((Attribute.DenseArrayAttr) op.attr("static_offsets")).values()[0];
        }

        /** {@return the offset's value, or null when it is static} */
        public Value offset() {
            List<Value> given = op.segment(1);
            return given.isEmpty() ? null : given.get(0);
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("static_offsets", "static_sizes", "static_strides", "operandSegmentSizes")
                    .syntax(ReinterpretCastOp::parse, ReinterpretCastOp::print).verifier(ReinterpretCastOp::verify)
                    .resultNames("reinterpret_cast");
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef src = p.operandRef();
            p.expectKeyword("to");
            List<List<Long>> statics = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            List<List<OpAsmParser.OperandRef>> dynamics = List.of(new ArrayList<>(), new ArrayList<>(),
                    new ArrayList<>());
            String[] words = {"offset", "sizes", "strides"};
            for (int k = 0; k < 3; k++) {
                if (k > 0) {
                    p.expectPunct(',');
                }
                p.expectKeyword(words[k]);
                p.expectPunct(':');
                mixedList(p, statics.get(k), dynamics.get(k));
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type from = p.type();
            p.expectKeyword("to");
            Type.MemRefType to = MemRef.memrefType(p);
            return resolvedMixedOp(p, NAME, loc, p.resolve(src, from), statics, dynamics, attrs, to);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0)).write(" to offset: ");
            String[] words = {"offset", "sizes", "strides"};
            for (int k = 0; k < 3; k++) {
                if (k > 0) {
                    p.write(", ").write(words[k]).write(": ");
                }
                printMixed(p, ((Attribute.DenseArrayAttr) op.attr(MIXED[k])).values(), op.segment(k + 1));
            }
            p.attrDict(op, Set.of(MIXED[0], MIXED[1], MIXED[2], "operandSegmentSizes"));
            p.write(" : ").type(op.operand(0).type()).write(" to ").type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            Attribute.DenseArrayAttr seg = mixedSegments(op, NAME, ctx);
            if (seg == null) {
                return;
            }
            Type from = op.operand(0).type();
            Type fromElement;
            Attribute fromSpace;
            if (from instanceof Type.MemRefType m) {
                fromElement = m.elementType();
                fromSpace = m.memorySpace();
            } else if (from instanceof Type.UnrankedMemRefType u) {
                fromElement = u.elementType();
                fromSpace = u.memorySpace();
            } else {
                ctx.error(op, "Invalid source of " + NAME + " (must be a memref, ranked or not): " + from);
                return;
            }
            if (!(op.result(0).type() instanceof Type.MemRefType res)) {
                ctx.error(op, "Invalid result of " + NAME + " (must be a ranked memref): " + op.result(0).type());
                return;
            }
            if (!fromElement.equals(res.elementType())) {
                ctx.error(op, "Invalid result type of " + NAME + " (must have the source's element type, "
                        + fromElement + "): " + res);
                return;
            }
            if (!java.util.Objects.equals(fromSpace, res.memorySpace())) {
                ctx.error(op, "Invalid result type of " + NAME + " (must be in the source's memory space, "
                        + (fromSpace == null ? "the default" : fromSpace) + "): " + res);
                return;
            }
            if (res.layout() != null && !(res.layout() instanceof Attribute.StridedLayoutAttr)) {
                ctx.error(op, "Invalid result type of " + NAME + " (must have the identity or a strided layout): "
                        + res);
                return;
            }
            int[] counts = {1, res.rank(), res.rank()};
            long[][] statics = checkedMixed(op, NAME, counts, seg, ctx,
                    k -> "have " + (k == 0 ? "one entry" : counts[k] + " entries, one per dimension of the result"));
            if (statics == null) {
                return;
            }
            for (Value v : op.operands().subList(1, op.operandCount())) {
                if (!ctx.expectType(op, "offset, size or stride of " + NAME, v, Type.INDEX)) {
                    return;
                }
            }
            // What the op gives must be what the result type says; a number given may be ? in the type.
            Strides rs = Strides.of(res);
            if (!agrees(statics[0][0], rs.offset())) {
                ctx.error(op, "Invalid result type of " + NAME + " (must have the offset given, " + text(statics[0][0])
                        + "): " + res);
                return;
            }
            for (int i = 0; i < res.rank(); i++) {
                if (!agrees(statics[1][i], res.dim(i))) {
                    ctx.error(op, "Invalid result type of " + NAME + " (must have the size given along dimension " + i
                            + ", " + text(statics[1][i]) + "): " + res);
                    return;
                }
                if (!agrees(statics[2][i], rs.strides()[i])) {
                    ctx.error(op, "Invalid result type of " + NAME + " (must have the stride given along dimension "
                            + i + ", " + text(statics[2][i]) + "): " + res);
                    return;
                }
            }
        }

        /** Whether the type's {@code typed} can stand for the op's {@code given}: the same, or ? for a number. */
        private static boolean agrees(long given, long typed) {
            return given == typed || typed == Type.DYNAMIC;
        }

        private static String text(long v) {
            return v == Type.DYNAMIC ? "a value (? in the type)" : Long.toString(v);
        }
    }
}
