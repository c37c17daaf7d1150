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
import java.util.Set;

/**
 * The vector dialect's {@code vector.print}, of scalars: what upstream's programs print a number with on the
 * host. Vector types are not part of the subset.
 */
public final class Vector {
    private Vector() {
    }

    /** {@return every op of the dialect} */
    public static List<OpDef> ops() {
        return List.of(PrintOp.definition());
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
                if (!(t instanceof Type.IntegerType) && !(t instanceof Type.IndexType) && !(t instanceof Type.FloatType)) {
                    ctx.error(op, "Invalid operand of vector.print (must be an integer, index or float scalar: vectors"
                            + " are not in the subset): " + t);
                }
            }
        }
    }
}
