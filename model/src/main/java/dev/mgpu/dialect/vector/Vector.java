package dev.mgpu.dialect.vector;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
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
            return op.attr("punctuation") instanceof Attribute.StringAttr s ? s.value() : "newline";
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
                    int at = p.offset();
                    String k = p.keyword();
                    if (!PUNCTUATION.contains(k)) {
                        throw p.errorAt(at, "Invalid punctuation of vector.print (must be one of "
                                + String.join(", ", PUNCTUATION) + "): " + k);
                    }
                    p.expectPunct('>');
                    attrs.put("punctuation", Attribute.StringAttr.of(k));
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
