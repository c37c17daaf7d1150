package dev.mgpu.dialect.nvvm;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.RegisterSyntax;
import dev.mgpu.op.Syntax;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nvvm dialect ops that upstream's {@code convert-gpu-to-nvvm} writes: the special registers
 * ({@code nvvm.read.ptx.sreg.*}), {@code nvvm.barrier0} and {@code nvvm.shfl.sync}; they compile for
 * {@code #nvvm.target} only.
 */
public final class NVVM {
    private NVVM() {
    }

    /** The special registers of {@code nvvm.read.ptx.sreg.NAME}. */
    public static final List<String> REGISTERS = List.of("tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z",
            "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpsize");
    /** The prefix of the special-register ops. */
    public static final String SREG = "nvvm.read.ptx.sreg.";
    /** {@code nvvm.barrier0}. */
    public static final String BARRIER0 = "nvvm.barrier0";
    /** {@code nvvm.shfl.sync}. */
    public static final String SHFL_SYNC = "nvvm.shfl.sync";
    /** The shuffle kinds of {@code nvvm.shfl.sync}. */
    public static final List<String> SHFL_KINDS = List.of("bfly", "up", "down", "idx");

    /**
     * {@return every op of the dialect}
     */
    public static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        for (String r : REGISTERS) {
            String name = SREG + r;
            defs.add(OpDef.of(name).inherent("range").syntax((p, n, loc) -> RegisterSyntax.parseRegister(p, loc,
                    name), RegisterSyntax::printRegister).verifier((op, ctx) -> {
                        if (Syntax.verifyCounts(op, ctx, 0, 1)) {
                            ctx.expectType(op, "result of " + op.name(), op.result(0), Type.I32);
                        }
                    }));
        }
        defs.add(OpDef.of(BARRIER0).syntax((p, n, loc) -> Operation.create(BARRIER0, loc, List.of(), List.of(),
                p.optionalDictionary()), (p, op) -> p.attrDict(op, Set.of()))
                .verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 0, 0)));
        defs.add(OpDef.of(SHFL_SYNC).inherent("kind", "return_value_and_is_valid").syntax(NVVM::parseShfl,
                NVVM::printShfl).verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 4, 1)));
        return defs;
    }

    private static Operation parseShfl(OpAsmParser p, int results, Location loc) {
        int off = p.offset();
        String kind = p.keyword();
        if (!SHFL_KINDS.contains(kind)) {
            throw p.errorAt(off, "Invalid kind of nvvm.shfl.sync (must be bfly, up, down or idx): " + kind);
        }
        int refsOff = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        if (refs.size() != 4) {
            throw p.errorAt(refsOff, "Invalid operands of nvvm.shfl.sync (must be mask, value, offset, clamp): "
                    + refs.size());
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("kind", Attribute.StringAttr.of(kind));
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        Type vt = p.type();
        p.expectArrow();
        Type rt = p.type();
        List<Value> operands = List.of(p.resolve(refs.get(0), Type.I32), p.resolve(refs.get(1), vt),
                p.resolve(refs.get(2), Type.I32), p.resolve(refs.get(3), Type.I32));
        return Operation.create(SHFL_SYNC, loc, operands, List.of(rt), attrs);
    }

    private static void printShfl(OpAsmPrinter p, Operation op) {
        p.write(' ').write(((Attribute.StringAttr) op.attr("kind")).value()).write(' ').operands(op.operands());
        p.attrDict(op, Set.of("kind"));
        p.write(" : ").type(op.operand(1).type()).write(" -> ").type(op.result(0).type());
    }

    /**
     * {@return the register an {@code nvvm.read.ptx.sreg.*} op reads, such as {@code tid.x}}
     *
     * @param op the op
     */
    public static String register(Operation op) {
        return op.name().substring(SREG.length());
    }

    /**
     * Creates {@code nvvm.read.ptx.sreg.R : i32}.
     *
     * @param loc where the op comes from
     * @param register one of {@link #REGISTERS}
     * @return the new op, detached
     */
    public static Operation readRegister(Location loc, String register) {
        if (!REGISTERS.contains(register)) {
            throw new IllegalArgumentException("Invalid register (must be one of " + REGISTERS + "): " + register);
        }
        return Operation.create(SREG + register, loc, List.of(), List.of(Type.I32), Map.of());
    }
}
