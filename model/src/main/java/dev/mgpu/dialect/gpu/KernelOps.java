package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Operation;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.AsmParser;
import dev.mgpu.ir.Attribute;

/** What the ops of kernel bodies share: where they may appear, and the {@code #gpu<...>} enum attributes. */
final class KernelOps {
    private KernelOps() {
    }

    /** Reports an op that is not inside a function of a {@code gpu.module} or the body of a {@code gpu.launch}. */
    static void verifyInKernel(Operation op, VerifyContext ctx) {
        for (Operation p = op.parentOp(); p != null; p = p.parentOp()) {
            if (p.name().equals(GpuModuleOp.NAME) || p.name().equals(LaunchOp.NAME)) {
                return;
            }
        }
        ctx.error(op, "Invalid " + op.name() + " (must be inside a function of a gpu.module or a gpu.launch): host"
                + " code");
    }

    /** Parses {@code <dim x>}, {@code <shuffle_mode xor>} or {@code <all_reduce_op add>} after {@code #gpu}. */
    static Attribute parseEnum(AsmParser p, int nameOffset) {
        p.expectPunct('<');
        int off = p.offset();
        String kind = p.keyword();
        int valueOff = p.offset();
        String v = p.keyword();
        p.expectPunct('>');
        switch (kind) {
            case "dim":
                if (!DimensionOp.DIMENSIONS.contains(v)) {
                    throw p.errorAt(valueOff, "Invalid dimension (must be x, y or z): " + v);
                }
                return new DimensionAttr(DimensionOp.DIMENSIONS.indexOf(v));
            case "shuffle_mode":
                if (!ShuffleOp.MODES.contains(v)) {
                    throw p.errorAt(valueOff, "Invalid shuffle mode (must be xor, up, down or idx): " + v);
                }
                return new ShuffleModeAttr(v);
            case "all_reduce_op":
                if (!SubgroupReduceOp.OPS.contains(v)) {
                    throw p.errorAt(valueOff, "Invalid reduction (must be one of " + String.join(", ",
                            SubgroupReduceOp.OPS) + "): " + v);
                }
                return new AllReduceOpAttr(v);
            default:
                throw p.errorAt(off, "Invalid #gpu attribute (must be dim, shuffle_mode or all_reduce_op): " + kind);
        }
    }
}
