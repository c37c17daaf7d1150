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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The memref ops that set memory aside: {@code alloca} in a function's frame, and {@code global} with
 * {@code get_global}, a module's buffer and its address. Each op is a nested class with its name,
 * accessors, creation, syntax and rules.
 */
public final class Allocations {
    private Allocations() {
    }

    /**
     * An allocation of a memref whose dynamic sizes are its operands: {@code memref.alloca} and
     * {@code memref.alloc}.
     */
    public abstract static class SizedAllocation extends OpView {
        SizedAllocation(Operation op, String name) {
            super(op, name);
        }

        /** {@return the memref type allocated} */
        public Type.MemRefType type() {
            return (Type.MemRefType) op.result(0).type();
        }

        /** {@return the sizes of the dynamic dimensions} */
        public List<Value> dynamicSizes() {
            return op.operands();
        }

        /** {@return the alignment in bytes, or 0 for the default} */
        public long alignment() {
            return op.attr("alignment") instanceof Attribute.IntegerAttr i ? i.value() : 0;
        }

        static Operation create(String name, Location loc, Type.MemRefType type, List<Value> dynamicSizes) {
            return Operation.create(name, loc, dynamicSizes, List.of(type),
                    Map.of("operandSegmentSizes", Attribute.DenseArrayAttr.i32(dynamicSizes.size(), 0)));
        }
    }

    /**
     * {@code %m = memref.alloca(%d, ...) : memref<...>}: memory on the stack of the function (private
     * memory in a kernel), one size operand per dynamic dimension.
     */
    public static final class AllocaOp extends SizedAllocation {
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
            return new AllocaOp(create(NAME, loc, type, dynamicSizes));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "operandSegmentSizes").syntax(AllocaOp::parse, Allocations::printSized)
                    .verifier(AllocaOp::verify).resultNames("alloca");
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            return parseSized(p, loc, NAME);
        }

        private static void verify(Operation op, VerifyContext ctx) {
            verifySized(op, ctx, NAME);
            MemRef.verifyAlignment(op, ctx);
        }
    }

    /** {@code NAME(%d, ...) [{attrs}] : memref<...>}: an allocation with one size per dynamic dimension. */
    static Operation parseSized(OpAsmParser p, Location loc, String name) {
        p.expectPunct('(');
        List<OpAsmParser.OperandRef> sizes = p.atPunct(')') ? List.of() : p.operandRefs();
        p.expectPunct(')');
        if (p.optionalPunct('[')) {
            throw p.errorAt(p.offset(), "Invalid " + name + " (must have no symbol operands): [");
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        Type.MemRefType t = MemRef.memrefType(p);
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(sizes.size(), 0));
        return Operation.create(name, loc, p.resolveAll(sizes, Type.INDEX), List.of(t), attrs);
    }

    static void printSized(OpAsmPrinter p, Operation op) {
        p.write('(').operands(op.operands()).write(')');
        p.attrDict(op, Set.of("operandSegmentSizes"));
        p.write(" : ").type(op.result(0).type());
    }

    /** One ranked memref result, and one index size operand per dynamic dimension. */
    static void verifySized(Operation op, VerifyContext ctx, String name) {
        if (op.resultCount() != 1 || !(op.result(0).type() instanceof Type.MemRefType m)) {
            ctx.error(op, "Invalid result of " + name + " (must be one ranked memref): " + op.resultCount());
            return;
        }
        if (op.operandCount() != m.dynamicDimCount()) {
            ctx.error(op, "Invalid sizes of " + name + " (must be one per dynamic dimension, " + m.dynamicDimCount()
                    + "): " + op.operandCount());
        }
        for (Value v : op.operands()) {
            ctx.expectType(op, "size of " + name, v, Type.INDEX);
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
            Type.MemRefType t = MemRef.memrefType(p);
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
