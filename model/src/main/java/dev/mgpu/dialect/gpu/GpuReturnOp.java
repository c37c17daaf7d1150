package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Value;
import java.util.List;
import java.util.Map;

/** {@code gpu.return [values : types]}: ends a {@code gpu.func}. */
public final class GpuReturnOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.return";

    /**
     * Views {@code op} as a {@code gpu.return}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.return}
     */
    public GpuReturnOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates {@code gpu.return} of {@code values}; a kernel returns none.
     *
     * @param loc where the op comes from
     * @param values the values returned, of the function's result types
     * @return the new op, detached
     */
    public static GpuReturnOp create(Location loc, List<Value> values) {
        return new GpuReturnOp(Operation.create(NAME, loc, values, List.of(), Map.of()));
    }

    static OpDef definition() {
        return OpDef.of(NAME).terminator()
                .syntax((p, n, loc) -> Syntax.returnLike(p, loc, NAME), Syntax::printReturnLike)
                .verifier((op, ctx) -> Syntax.verifyReturn(op, ctx, GpuFuncOp.NAME));
    }
}
