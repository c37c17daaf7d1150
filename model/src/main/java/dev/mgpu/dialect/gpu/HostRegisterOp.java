package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpView;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code gpu.host_register %m : memref<*xT>}: makes host memory reachable from the device. */
public final class HostRegisterOp extends dev.mgpu.op.OpView {
    /** The op's name. */
    public static final String NAME = "gpu.host_register";

    /** The name of the op that undoes it, {@code gpu.host_unregister}, which this class views too. */
    public static final String UNREGISTER = "gpu.host_unregister";

    /**
     * Views {@code op} as a {@code gpu.host_register}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.host_register}
     */
    public HostRegisterOp(Operation op) {
        super(op, op.name().equals(UNREGISTER) ? UNREGISTER : NAME);
    }

    /**
     * Creates a registration of an unranked memref.
     *
     * @param loc the op's location
     * @param memref the unranked memref to register
     * @return the new, detached op
     */
    public static HostRegisterOp create(Location loc, Value memref) {
        return new HostRegisterOp(Operation.create(NAME, loc, List.of(memref), List.of(), Map.of()));
    }

    /**
     * The unranked memref to register.
     *
     * @return operand 0
     */
    public Value memref() {
        return op.operand(0);
    }

    static OpDef definition() {
        return definition(NAME);
    }

    /** The definition of {@code gpu.host_register} or {@code gpu.host_unregister}: one syntax, one rule. */
    static OpDef definition(String name) {
        return OpDef.of(name).syntax((p, n, loc) -> parse(p, name, loc), HostRegisterOp::print)
                .verifier(HostRegisterOp::verify);
    }

    static Operation parse(OpAsmParser p, String name, Location loc) {
        OpAsmParser.OperandRef m = p.operandRef();
        Map<String, dev.mgpu.ir.Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        return Operation.create(name, loc, List.of(p.resolve(m, p.type())), List.of(), attrs);
    }

    static void print(OpAsmPrinter p, Operation op) {
        p.write(' ').operand(op.operand(0));
        p.attrDict(op, Set.of());
        p.write(" : ").type(op.operand(0).type());
    }

    static void verify(Operation op, VerifyContext ctx) {
        if (!(op.operand(0).type() instanceof Type.UnrankedMemRefType)) {
            ctx.error(op, "Invalid " + op.name() + " operand (must be an unranked memref): " + op.operand(0).type());
        }
    }
}
