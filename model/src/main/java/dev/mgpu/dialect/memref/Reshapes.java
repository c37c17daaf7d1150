package dev.mgpu.dialect.memref;

import static dev.mgpu.dialect.memref.Views.*;

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
 * The memref ops that view the same memory as another type: {@code cast} (more or fewer sizes known) and
 * {@code collapse_shape} and {@code expand_shape} (dimensions joined or split). Element 0 stays where it is.
 */
public final class Reshapes {
    private Reshapes() {
    }

    /** {@code %v = memref.cast %m : T to R}: the same memory as a type with more or fewer sizes known. */
    public static final class CastOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.cast";

        /**
         * Views a {@code memref.cast}.
         *
         * @param op the op
         */
        public CastOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a cast.
         *
         * @param loc where the op comes from
         * @param source the memref
         * @param result a type of the same rank and element type whose sizes, strides and offset are the
         *     source's where both know them
         * @return the new op, detached
         */
        public static CastOp create(Location loc, Value source, Type.MemRefType result) {
            return new CastOp(Operation.create(NAME, loc, List.of(source), List.of(result), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(CastOp::parse, CastOp::print).verifier(CastOp::verify).resultNames("cast");
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef src = p.operandRef();
            // Either side may be unranked: the verifier says which pairs are casts.
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type from = p.type();
            p.expectKeyword("to");
            Type to = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(src, from)), List.of(to), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0));
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type()).write(" to ").type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
                return;
            }
            Type from = op.operand(0).type();
            Type to = op.result(0).type();
            if (from instanceof Type.UnrankedMemRefType || to instanceof Type.UnrankedMemRefType) {
                // To or from an unranked memref: the other side ranked, both of one element type and space.
                Type fe = Buffers.elementOf(from);
                Type te = Buffers.elementOf(to);
                boolean oneRanked = from instanceof Type.MemRefType || to instanceof Type.MemRefType;
                if (!oneRanked || fe == null || te == null || !fe.equals(te)
                        || !java.util.Objects.equals(spaceOf(from), spaceOf(to))) {
                    ctx.error(op, "Invalid types of " + NAME + " (must be memrefs of one element type and memory space,"
                            + " ranked on at least one side): " + from + " to " + to);
                }
                return;
            }
            if (!(from instanceof Type.MemRefType a) || !(to instanceof Type.MemRefType b)) {
                ctx.error(op, "Invalid types of " + NAME + " (must be memrefs): " + from + " to " + to);
                return;
            }
            boolean ok = a.rank() == b.rank() && a.elementType().equals(b.elementType())
                    && java.util.Objects.equals(a.memorySpace(), b.memorySpace());
            if (ok) {
                Strides sa = Strides.of(a);
                Strides sb = Strides.of(b);
                ok = compatible(sa.offset(), sb.offset());
                for (int i = 0; ok && i < a.rank(); i++) {
                    ok = compatible(a.dim(i), b.dim(i)) && compatible(sa.strides()[i], sb.strides()[i]);
                }
            }
            if (!ok) {
                ctx.error(op, "Invalid types of " + NAME + " (must have the same rank, element type and memory space,"
                        + " and sizes, strides and offset that agree where both are known): " + a + " to " + b);
            }
        }
    }

    /**
     * {@code %v = memref.collapse_shape %m [[0, 1], ...] : T into R} and
     * {@code %v = memref.expand_shape %m [[0, 1], ...] output_shape [...] : T into R}: the same row-major
     * memory with groups of dimensions merged into one, or one dimension split into a group.
     */
    public static final class ReshapeOp extends OpView {
        /** The collapsing op's name. */
        public static final String COLLAPSE = "memref.collapse_shape";
        /** The expanding op's name. */
        public static final String EXPAND = "memref.expand_shape";

        /**
         * Views a {@code memref.collapse_shape} or {@code memref.expand_shape}.
         *
         * @param op the op
         */
        public ReshapeOp(Operation op) {
            super(op, op.name().equals(EXPAND) ? EXPAND : COLLAPSE);
        }

        /**
         * Creates a collapse of {@code source}'s dimension groups, each group a list of consecutive dimensions.
         *
         * @param loc where the op comes from
         * @param source a memref of the identity layout
         * @param groups the source's dimensions, in groups
         * @param result the collapsed type
         * @return the new op, detached
         */
        public static ReshapeOp collapse(Location loc, Value source, List<List<Long>> groups, Type.MemRefType result) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("reassociation", reassociation(groups));
            return new ReshapeOp(Operation.create(COLLAPSE, loc, List.of(source), List.of(result), attrs));
        }

        /**
         * Creates an expansion of {@code source}'s dimensions into groups of static sizes.
         *
         * @param loc where the op comes from
         * @param source a memref of the identity layout
         * @param groups the result's dimensions, in groups, one per dimension of the source
         * @param result the expanded type, of static sizes
         * @return the new op, detached
         */
        public static ReshapeOp expand(Location loc, Value source, List<List<Long>> groups, Type.MemRefType result) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("reassociation", reassociation(groups));
            attrs.put("static_output_shape", new Attribute.DenseArrayAttr(Type.I64, result.shape()));
            return new ReshapeOp(Operation.create(EXPAND, loc, List.of(source), List.of(result), attrs));
        }

        private static Attribute.ArrayAttr reassociation(List<List<Long>> groups) {
            List<Attribute> out = new ArrayList<>();
            for (List<Long> g : groups) {
                List<Attribute> dims = new ArrayList<>();
                for (long d : g) {
                    dims.add(Attribute.IntegerAttr.i64(d));
                }
                out.add(new Attribute.ArrayAttr(dims));
            }
            return new Attribute.ArrayAttr(out);
        }

        static OpDef definition(String name) {
            OpDef d = OpDef.of(name).syntax((p, n, loc) -> parseReshape(p, name, loc), ReshapeOp::print)
                    .verifier(ReshapeOp::verify).resultNames(name.substring("memref.".length()));
            return name.equals(EXPAND) ? d.inherent("reassociation", "static_output_shape") : d.inherent("reassociation");
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0)).write(" [");
            List<Attribute> groups = ((Attribute.ArrayAttr) op.attr("reassociation")).elements();
            for (int i = 0; i < groups.size(); i++) {
                p.write(i > 0 ? ", [" : "[");
                List<Attribute> dims = ((Attribute.ArrayAttr) groups.get(i)).elements();
                for (int k = 0; k < dims.size(); k++) {
                    p.write(k > 0 ? ", " : "").write(Long.toString(((Attribute.IntegerAttr) dims.get(k)).value()));
                }
                p.write(']');
            }
            p.write(']');
            if (op.name().equals(EXPAND)) {
                p.write(" output_shape ");
                printMixed(p, ((Attribute.DenseArrayAttr) op.attr("static_output_shape")).values(),
                        op.operands().subList(1, op.operandCount()));
            }
            p.attrDict(op, Set.of("reassociation", "static_output_shape"));
            p.write(" : ").type(op.operand(0).type()).write(" into ").type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            boolean expand = op.name().equals(EXPAND);
            if (op.resultCount() != 1 || op.operandCount() < 1 || !expand && op.operandCount() != 1) {
                Syntax.verifyCounts(op, ctx, 1, 1);
                return;
            }
            if (!(op.operand(0).type() instanceof Type.MemRefType src) || !(op.result(0).type() instanceof Type.MemRefType res)) {
                ctx.error(op, "Invalid types of " + op.name() + " (must be ranked memrefs): " + op.operand(0).type()
                        + " into " + op.result(0).type());
                return;
            }
            Type.MemRefType big = expand ? res : src;
            Type.MemRefType small = expand ? src : res;
            if (!(op.attr("reassociation") instanceof Attribute.ArrayAttr groups) || groups.elements().size()
                    != small.rank()) {
                ctx.error(op, "Invalid reassociation of " + op.name() + " (must be one group per dimension of "
                        + small + "): " + op.attr("reassociation"));
                return;
            }
            long next = 0;
            long[] merged = new long[small.rank()];
            for (int g = 0; g < small.rank(); g++) {
                List<Attribute> dims = groups.elements().get(g) instanceof Attribute.ArrayAttr a ? a.elements()
                        : List.of();
                long product = 1;
                for (Attribute d : dims) {
                    if (!(d instanceof Attribute.IntegerAttr i) || !i.type().equals(Type.I64) || i.value() != next
                            || next >= big.rank()) {
                        ctx.error(op, "Invalid reassociation of " + op.name() + " (must be groups of consecutive"
                                + " dimensions of " + big + " from 0, as i64): " + op.attr("reassociation"));
                        return;
                    }
                    long size = big.dim((int) next++);
                    product = product == Type.DYNAMIC || size == Type.DYNAMIC ? Type.DYNAMIC : product * size;
                }
                if (dims.isEmpty()) {
                    ctx.error(op, "Invalid reassociation of " + op.name() + " (must have no empty group): "
                            + op.attr("reassociation"));
                    return;
                }
                merged[g] = product;
            }
            // Without groups (a rank-0 side), every dimension of the other side has size 1.
            for (; small.rank() == 0 && next < big.rank(); next++) {
                if (big.dim((int) next) != 1) {
                    ctx.error(op, "Invalid types of " + op.name() + " (must have only dimensions of size 1 against a"
                            + " memref of rank 0): " + src + " into " + res);
                    return;
                }
            }
            if (next != big.rank()) {
                ctx.error(op, "Invalid reassociation of " + op.name() + " (must name every dimension of " + big
                        + "): " + op.attr("reassociation"));
                return;
            }
            boolean ok = src.elementType().equals(res.elementType()) && java.util.Objects.equals(src.memorySpace(),
                    res.memorySpace());
            for (int g = 0; ok && g < small.rank(); g++) {
                // A group's size is unknown exactly where the merged dimension's is.
                ok = merged[g] == small.dim(g);
            }
            if (!ok) {
                ctx.error(op, "Invalid types of " + op.name() + " (must be memrefs of one element type and memory"
                        + " space, each dimension of the smaller rank the product of its group): " + src + " into "
                        + res);
                return;
            }
            // As upstream, a source whose layout is the identity map (strided<[1]> of rank 1) gives a result of
            // the identity layout, written without one.
            boolean identity = src.layout() == null || src.layout() instanceof Attribute.StridedLayoutAttr l
                    && l.offset() == 0 && src.rank() == 1 && l.strides()[0] == 1;
            Attribute layout = identity ? null : reshapedLayout(src, res, groups, expand);
            if (!identity && layout == null) {
                ctx.error(op, "Invalid " + op.name() + " of " + src + " (must collapse only dimensions that are"
                        + " contiguous in memory)");
                return;
            }
            if (!java.util.Objects.equals(layout, res.layout())) {
                ctx.error(op, "Invalid result layout of " + op.name() + " (must be " + (layout == null ? "the identity"
                        : layout) + ", from the source's): " + res);
                return;
            }
            if (expand) {
                long[] shape = op.attr("static_output_shape") instanceof Attribute.DenseArrayAttr a ? a.values() : null;
                if (shape == null || shape.length != res.rank() || countDynamic(shape) != op.operandCount() - 1) {
                    ctx.error(op, "Invalid output_shape of " + op.name() + " (must have one entry per dimension of the"
                            + " result, a value for each ?): " + op.attr("static_output_shape"));
                    return;
                }
                for (int i = 0; i < shape.length; i++) {
                    if (shape[i] != res.dim(i)) {
                        ctx.error(op, "Invalid output_shape of " + op.name() + " (must be the result's sizes, a value"
                                + " where a size is ?): " + op.attr("static_output_shape"));
                        return;
                    }
                }
                for (Value v : op.operands().subList(1, op.operandCount())) {
                    if (!ctx.expectType(op, "output_shape of " + op.name(), v, Type.INDEX)) {
                        return;
                    }
                }
            }
        }
    }

    /** {@code a * b}, unknown where either is. */
    private static long times(long a, long b) {
        return a == Type.DYNAMIC || b == Type.DYNAMIC ? Type.DYNAMIC : a * b;
    }

    /**
     * The strided layout of a reshape of {@code src}, a memref with a strided layout, into {@code res}; null
     * when a collapsed group is not contiguous. Collapsing, a group takes the stride of its last dimension of
     * more than one element (unknown when that size is), and each of its other dimensions must step by the
     * elements after it (where both are known; a dimension of one element steps as it likes). Expanding, a
     * dimension's stride is the stride of the group times the sizes after it. The offset is the source's.
     */
    static Attribute.StridedLayoutAttr reshapedLayout(Type.MemRefType src, Type.MemRefType res,
            Attribute.ArrayAttr groups, boolean expand) {
        Strides s = Strides.of(src);
        List<long[]> dims = new ArrayList<>();
        for (Attribute g : groups.elements()) {
            List<Attribute> e = ((Attribute.ArrayAttr) g).elements();
            long[] d = new long[e.size()];
            for (int i = 0; i < d.length; i++) {
                d[i] = ((Attribute.IntegerAttr) e.get(i)).value();
            }
            dims.add(d);
        }
        long[] out = new long[res.rank()];
        if (expand) {
            for (int g = 0; g < dims.size(); g++) {
                long stride = s.strides()[g];
                long[] d = dims.get(g);
                for (int k = d.length - 1; k >= 0; k--) {
                    out[(int) d[k]] = stride;
                    stride = times(stride, res.dim((int) d[k]));
                }
            }
            return new Attribute.StridedLayoutAttr(s.offset(), out);
        }
        for (int g = 0; g < dims.size(); g++) {
            long[] d = dims.get(g);
            int last = d.length - 1;
            while (last > 0 && src.dim((int) d[last]) == 1) {
                last--;
            }
            out[g] = src.dim((int) d[last]) != Type.DYNAMIC || last == 0 ? s.strides()[(int) d[last]] : Type.DYNAMIC;
            long stride = out[g];
            for (int k = d.length - 1; k > 0; k--) {
                stride = times(stride, src.dim((int) d[k]));
                long before = s.strides()[(int) d[k - 1]];
                if (src.dim((int) d[k - 1]) != 1 && stride != Type.DYNAMIC && before != Type.DYNAMIC && stride != before) {
                    return null;
                }
            }
        }
        return new Attribute.StridedLayoutAttr(s.offset(), out);
    }

    /** Parses collapse_shape and expand_shape, whose name decides the syntax. */
    static Operation parseReshape(OpAsmParser p, String name, Location loc) {
        OpAsmParser.OperandRef src = p.operandRef();
        p.expectPunct('[');
        List<Attribute> groups = new ArrayList<>();
        while (!p.atPunct(']')) {
            p.expectPunct('[');
            List<Attribute> dims = new ArrayList<>();
            if (!p.atPunct(']')) {
                do {
                    dims.add(Attribute.IntegerAttr.i64(p.integer()));
                } while (p.optionalPunct(','));
            }
            p.expectPunct(']');
            groups.add(new Attribute.ArrayAttr(dims));
            if (!p.optionalPunct(',')) {
                break;
            }
        }
        p.expectPunct(']');
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("reassociation", new Attribute.ArrayAttr(groups));
        List<Long> statics = new ArrayList<>();
        List<OpAsmParser.OperandRef> dynamics = new ArrayList<>();
        if (name.equals(ReshapeOp.EXPAND)) {
            p.expectKeyword("output_shape");
            mixedList(p, statics, dynamics);
            attrs.put("static_output_shape", new Attribute.DenseArrayAttr(Type.I64, longs(statics)));
        }
        Type.MemRefType[] ft = types(p, attrs, "into");
        List<Value> operands = new ArrayList<>(List.of(p.resolve(src, ft[0])));
        operands.addAll(p.resolveAll(dynamics, Type.INDEX));
        return Operation.create(name, loc, operands, List.of(ft[1]), attrs);
    }

    private static Attribute spaceOf(Type t) {
        return t instanceof Type.MemRefType m ? m.memorySpace() : ((Type.UnrankedMemRefType) t).memorySpace();
    }
}
