package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A read of a special register, {@code [range <i32, lo, hi>] [attrs] : i32} after the op's name, as the
 * nvvm special-register ops and the rocdl index ops write it; the range, a hint, is kept as a
 * {@link ConstantRangeAttr}.
 */
public final class RegisterSyntax {
    private RegisterSyntax() {
    }

    /**
     * Parses a register read after the op's name.
     *
     * @param p the parser
     * @param loc the op's location
     * @param name the op's name
     * @return the op
     */
    public static Operation parseRegister(OpAsmParser p, Location loc, String name) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        if (p.optionalKeyword("range")) {
            attrs.put("range", ConstantRangeAttr.parseBody(p));
        }
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        return Operation.create(name, loc, List.of(), List.of(p.type()), attrs);
    }

    /**
     * Prints what {@link #parseRegister} parses.
     *
     * @param p the printer
     * @param op the op
     */
    public static void printRegister(OpAsmPrinter p, Operation op) {
        if (op.attr("range") instanceof ConstantRangeAttr r) {
            p.write(" range ").write(r.body());
        }
        p.attrDict(op, Set.of("range"));
        p.write(" : ").type(op.result(0).type());
    }
}
