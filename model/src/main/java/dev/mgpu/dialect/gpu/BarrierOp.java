package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gpu.barrier}: every thread of the block waits here until all have arrived, and their writes to
 * workgroup and global memory before it are visible to all after it.
 */
public final class BarrierOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.barrier";

    /**
     * Views a {@code gpu.barrier}.
     *
     * @param op the op
     */
    public BarrierOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a barrier.
     *
     * @param loc where the op comes from
     * @return the new op, detached
     */
    public static BarrierOp create(Location loc) {
        return new BarrierOp(Operation.create(NAME, loc, List.of(), List.of(), Map.of()));
    }

    static OpDef definition() {
        return OpDef.of(NAME).syntax((p, n, loc) -> Operation.create(NAME, loc, List.of(), List.of(),
                p.optionalDictionary()), (p, op) -> p.attrDict(op, Set.of())).verifier((op, ctx) -> {
                    Syntax.verifyCounts(op, ctx, 0, 0);
                    KernelOps.verifyInKernel(op, ctx);
                });
    }
}
