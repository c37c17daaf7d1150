package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import java.util.Set;

/** {@code gpu.func @name(args) [kernel] [attributes {...}] [{ body }]}: a kernel or device function. */
public final class GpuFuncOp extends FunctionOpView {
    public static final String NAME = "gpu.func";

    /** The unit attribute that marks a kernel. */
    public static final String KERNEL_ATTR = "gpu.kernel";

    public GpuFuncOp(Operation op) {
        super(op, NAME);
    }

    /** Whether it is a kernel, launchable from the host. */
    public boolean isKernel() {
        return op.hasAttr(KERNEL_ATTR);
    }

    static OpDef definition() {
        return OpDef.of(NAME).isolatedFromAbove().inherent("function_type", "arg_attrs", "res_attrs",
                "workgroup_attrib_attrs", "private_attrib_attrs", "known_block_size", "known_grid_size")
                .syntax((p, n, loc) -> Syntax.function(p, loc, NAME, null, Set.of(), null, attrs -> {
                    if (p.optionalKeyword("kernel")) {
                        attrs.put(KERNEL_ATTR, Attribute.UNIT);
                    }
                }, false, true), (p, op) -> Syntax.printFunction(p, op, null, Set.of(KERNEL_ATTR), pr -> {
                    if (op.hasAttr(KERNEL_ATTR)) {
                        pr.write(" kernel");
                    }
                })).verifier(Syntax::verifyFunction);
    }
}
