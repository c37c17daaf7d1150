package dev.mgpu.dialect.vector;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.AttrDef;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The vector dialect's {@code vector.print} (of scalars and 1-D vectors) and {@code vector.transfer_read}
 * (into a 1-D vector, along a memref's last dimension): what upstream's programs read and print values with
 * on the host.
 */
public final class Vector {
    private Vector() {
    }

    /** {@return every op of the dialect} */
    public static List<OpDef> ops() {
        return List.of(PrintOp.definition(), TransferReadOp.definition());
    }

    /** {@return the dialect's attributes: {@code #vector.punctuation<...>}} */
    public static List<AttrDef> attributes() {
        return List.of(new AttrDef("vector.punctuation", (p, at) -> {
            p.expectPunct('<');
            String k = punctuation(p);
            p.expectPunct('>');
            return new PunctuationAttr(k);
        }));
    }

    private static String punctuation(dev.mgpu.text.AsmParser p) {
        int at = p.offset();
        String k = p.keyword();
        if (!PrintOp.PUNCTUATION.contains(k)) {
            throw p.errorAt(at, "Invalid punctuation of vector.print (must be one of "
                    + String.join(", ", PrintOp.PUNCTUATION) + "): " + k);
        }
        return k;
    }

    /**
     * {@code #vector.punctuation<comma>}: what {@code vector.print} prints after its value.
     *
     * @param mark one of {@link PrintOp#PUNCTUATION}
     */
    public record PunctuationAttr(String mark) implements DialectAttribute {
        @Override
        public void print(AsmOutput out) {
            out.write("#vector.punctuation<").write(mark).write('>');
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PunctuationAttr other && Objects.equals(mark, other.mark);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(mark);
        }
    }

    /**
     * {@code vector.print [%x : T] [str "text"] [punctuation <p>]}: prints a scalar, a string or a punctuation
     * mark through the runner utilities, then a newline unless another punctuation is given.
     */
    public static final class PrintOp extends OpView {
        /** The op's name. */
        public static final String NAME = "vector.print";

        /** The punctuation marks, as upstream names them. */
        public static final List<String> PUNCTUATION = List.of("no_punctuation", "newline", "comma", "open", "close");

        /**
         * Views a {@code vector.print}.
         *
         * @param op the op
         */
        public PrintOp(Operation op) {
            super(op, NAME);
        }

        /** {@return the value printed, or null} */
        public Value source() {
            return op.operandCount() == 0 ? null : op.operand(0);
        }

        /** {@return the string printed, or null} */
        public Attribute.StringAttr string() {
            return op.attr("stringLiteral") instanceof Attribute.StringAttr s ? s : null;
        }

        /** {@return the punctuation that follows: {@code newline} unless given} */
        public String punctuation() {
            return op.attr("punctuation") instanceof PunctuationAttr a ? a.mark() : "newline";
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("punctuation", "stringLiteral").syntax(PrintOp::parse, PrintOp::print)
                    .verifier(PrintOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            List<Value> operands = new ArrayList<>();
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.atValue()) {
                OpAsmParser.OperandRef v = p.operandRef();
                p.expectPunct(':');
                operands.add(p.resolve(v, p.type()));
            }
            while (true) {
                if (p.optionalKeyword("str")) {
                    attrs.put("stringLiteral", new Attribute.StringAttr(p.stringBytes()));
                } else if (p.optionalKeyword("punctuation")) {
                    p.expectPunct('<');
                    attrs.put("punctuation", new PunctuationAttr(Vector.punctuation(p)));
                    p.expectPunct('>');
                } else {
                    break;
                }
            }
            attrs.putAll(p.optionalDictionary());
            return Operation.create(NAME, loc, operands, List.of(), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            PrintOp v = new PrintOp(op);
            if (v.source() != null) {
                p.write(' ').operand(v.source()).write(" : ").type(v.source().type());
            }
            if (v.string() != null) {
                p.write(" str ").attr(v.string());
            }
            if (op.attr("punctuation") != null) {
                p.write(" punctuation <").write(v.punctuation()).write('>');
            }
            p.attrDict(op, Set.of("punctuation", "stringLiteral"));
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.attr("punctuation") != null && !(op.attr("punctuation") instanceof PunctuationAttr)) {
                ctx.error(op, "Invalid punctuation of vector.print (must be a #vector.punctuation): "
                        + op.attr("punctuation"));
            }
            if (op.resultCount() != 0 || op.operandCount() > 1) {
                ctx.error(op, "Invalid vector.print (must have at most one operand and no results): "
                        + op.operandCount() + " operands");
                return;
            }
            if (op.operandCount() == 1) {
                Type t = op.operand(0).type();
                Type e = t instanceof Type.VectorType v && v.shape().length == 1 ? v.elementType() : t;
                if (!(e instanceof Type.IntegerType) && !(e instanceof Type.IndexType) && !(e instanceof Type.FloatType)) {
                    ctx.error(op, "Invalid operand of vector.print (must be an integer, index or float, or a 1-D vector"
                            + " of them): " + t);
                }
            }
        }
    }

    /**
     * {@code %v = vector.transfer_read %m[%i, ...], %pad [{in_bounds = [b]}] : memref<...>, vector<Nx T>}: N
     * elements along the memref's last dimension from the indices, {@code %pad} where they pass its end.
     */
    public static final class TransferReadOp extends OpView {
        /** The op's name. */
        public static final String NAME = "vector.transfer_read";

        /**
         * Views a {@code vector.transfer_read}.
         *
         * @param op the op
         */
        public TransferReadOp(Operation op) {
            super(op, NAME);
        }

        /** {@return the memref read} */
        public Value source() {
            return op.operand(0);
        }

        /** {@return the indices of the first element} */
        public List<Value> indices() {
            return op.operands().subList(1, op.operandCount() - 1);
        }

        /** {@return the value of the elements past the memref's end} */
        public Value padding() {
            return op.operand(op.operandCount() - 1);
        }

        /** {@return whether the elements are known to lie within the memref ({@code in_bounds = [true]})} */
        public boolean inBounds() {
            return op.attr("in_bounds") instanceof Attribute.ArrayAttr a && a.elements().size() == 1
                    && a.elements().get(0) instanceof Attribute.IntegerAttr b && b.value() != 0;
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("in_bounds", "operandSegmentSizes", "permutation_map").syntax(TransferReadOp::parse,
                    TransferReadOp::print).verifier(TransferReadOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef m = p.operandRef();
            p.expectPunct('[');
            List<OpAsmParser.OperandRef> idx = p.atPunct(']') ? List.of() : p.operandRefs();
            p.expectPunct(']');
            p.expectPunct(',');
            OpAsmParser.OperandRef pad = p.operandRef();
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            if (attrs.containsKey("permutation_map")) {
                throw p.error("Invalid vector.transfer_read (must read along the last dimension: a permutation_map is"
                        + " not in the subset)");
            }
            p.expectPunct(':');
            int at = p.offset();
            Type mt = p.type();
            p.expectPunct(',');
            Type vt = p.type();
            if (!(mt instanceof Type.MemRefType memref)) {
                throw p.errorAt(at, "Invalid vector.transfer_read source (must be a ranked memref): " + mt);
            }
            List<Value> operands = new ArrayList<>();
            operands.add(p.resolve(m, mt));
            operands.addAll(p.resolveAll(idx, Type.INDEX));
            operands.add(p.resolve(pad, memref.elementType()));
            attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(1, idx.size(), 1, 0));
            attrs.put("permutation_map", new MinorIdentityMap(memref.rank()));
            // Upstream's default, which its generic form needs: the read may pass the memref's end.
            attrs.putIfAbsent("in_bounds", new Attribute.ArrayAttr(List.of(new Attribute.IntegerAttr(0, Type.I1))));
            return Operation.create(NAME, loc, operands, List.of(vt), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            TransferReadOp r = new TransferReadOp(op);
            p.write(' ').operand(r.source()).write('[').operands(r.indices()).write("], ").operand(r.padding());
            p.attrDict(op, r.inBounds() ? Set.of("operandSegmentSizes", "permutation_map")
                    : Set.of("operandSegmentSizes", "permutation_map", "in_bounds"));
            p.write(" : ").type(r.source().type()).write(", ").type(op.result(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.operandCount() < 2 || op.resultCount() != 1 || !(op.operand(0).type() instanceof Type.MemRefType m)
                    || !(op.result(0).type() instanceof Type.VectorType v)) {
                ctx.error(op, "Invalid vector.transfer_read (must read a ranked memref into a vector)");
                return;
            }
            if (op.operandCount() - 2 != m.rank() || v.shape().length != 1 || !v.elementType().equals(m.elementType())
                    || !op.operand(op.operandCount() - 1).type().equals(m.elementType())) {
                ctx.error(op, "Invalid vector.transfer_read (must have one index per dimension, a 1-D vector and"
                        + " padding of the memref's element type): " + m + ", " + v);
            }
        }
    }

    /**
     * {@code affine_map<(d0, ..., dN) -> (dN)>}: a transfer along the last of a memref's dimensions, the one
     * permutation map of the subset, which the custom form leaves out and the generic form needs.
     *
     * @param rank the memref's rank
     */
    public record MinorIdentityMap(int rank) implements DialectAttribute {
        @Override
        public void print(AsmOutput out) {
            out.write("affine_map<(");
            for (int i = 0; i < rank; i++) {
                out.write(i > 0 ? ", d" : "d").write(Integer.toString(i));
            }
            out.write(") -> (d").write(Integer.toString(rank - 1)).write(")>");
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof MinorIdentityMap other && rank == other.rank;
        }

        @Override
        public int hashCode() {
            return rank;
        }
    }
}
