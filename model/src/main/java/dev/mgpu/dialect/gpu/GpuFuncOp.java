package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.op.VerifyContext;
import java.util.List;
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

    static void verify(Operation op, VerifyContext ctx) {
        Syntax.verifyFunction(op, ctx);
        Operation parent = op.parentOp();
        if (parent == null || !parent.name().equals(GpuModuleOp.NAME)) {
            ctx.error(op, "Invalid gpu.func (must be inside a gpu.module): " + (parent == null ? "top level"
                    : parent.name()));
        }
        if (!op.regions().isEmpty() && op.region(0).isEmpty()) {
            // Unlike func.func, a gpu.func is never a declaration: its custom syntax always has a body.
            ctx.error(op, "Invalid gpu.func body (must have at least one block): empty region");
        }
        Type.FunctionType ft = Syntax.functionType(op);
        if (op.hasAttr(KERNEL_ATTR) && ft != null && !ft.results().isEmpty()) {
            ctx.error(op, "Invalid gpu.func kernel (must return nothing): (" + Syntax.join(ft.results()) + ")");
        }
        for (String hint : List.of("known_block_size", "known_grid_size")) {
            Attribute a = op.attr(hint);
            if (a != null && !(a instanceof Attribute.DenseArrayAttr d && d.elementType().equals(Type.I32) && d.size() == 3
                    && d.get(0) >= 1 && d.get(1) >= 1 && d.get(2) >= 1)) {
                ctx.error(op, "Invalid " + hint + " of gpu.func (must be array<i32: x, y, z> of sizes >= 1): " + a);
            }
        }
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
                })).verifier(GpuFuncOp::verify);
    }
}
