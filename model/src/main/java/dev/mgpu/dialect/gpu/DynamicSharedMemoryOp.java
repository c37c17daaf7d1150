package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>}: the block's
 * workgroup memory whose size the launch gives ({@code dynamic_shared_memory_size}), as bytes.
 */
public final class DynamicSharedMemoryOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.dynamic_shared_memory";
    /** The one result type. */
    public static final Type.MemRefType TYPE = new Type.MemRefType(new long[] {Type.DYNAMIC}, Type.I8, null,
            new AddressSpaceAttr("workgroup"));

    /**
     * Views a {@code gpu.dynamic_shared_memory}.
     *
     * @param op the op
     */
    public DynamicSharedMemoryOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates the op.
     *
     * @param loc where the op comes from
     * @return the new op, detached
     */
    public static DynamicSharedMemoryOp create(Location loc) {
        return new DynamicSharedMemoryOp(Operation.create(NAME, loc, List.of(), List.of(TYPE), Map.of()));
    }

    static OpDef definition() {
        return OpDef.of(NAME).syntax(DynamicSharedMemoryOp::parse, (p, op) -> {
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.result(0).type());
        }).verifier(DynamicSharedMemoryOp::verify);
    }

    private static Operation parse(OpAsmParser p, int results, Location loc) {
        Map<String, dev.mgpu.ir.Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type t = p.type();
        return Operation.create(NAME, loc, List.of(), List.of(t), attrs);
    }

    private static void verify(Operation op, VerifyContext ctx) {
        if (!Syntax.verifyCounts(op, ctx, 0, 1)) {
            return;
        }
        if (!op.result(0).type().equals(TYPE)) {
            ctx.error(op, "Invalid type of gpu.dynamic_shared_memory (must be " + TYPE + "): " + op.result(0).type());
        }
        KernelOps.verifyInKernel(op, ctx);
    }
}
