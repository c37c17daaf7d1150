package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.Map;
import dev.mgpu.ir.Type;
import dev.mgpu.op.VerifyContext;
import java.util.List;
import java.util.Set;

/** {@code gpu.func @name(args) [kernel] [attributes {...}] [{ body }]}: a kernel or device function. */
public final class GpuFuncOp extends FunctionOpView {
    /** The op's name. */
    public static final String NAME = "gpu.func";

    /** How many entry-block arguments after the function's own are workgroup attributions (the rest are private). */
    public static final String WORKGROUP_COUNT = "workgroup_attributions";

    /** {@code [workgroup(%w : T, ...)] [private(%p : T, ...)]}: memory the kernel's body gets as block arguments. */
    static List<OpAsmParser.Argument> attributions(OpAsmParser p, Map<String, Attribute> attrs) {
        List<OpAsmParser.Argument> out = new ArrayList<>();
        if (p.optionalKeyword("workgroup")) {
            out.addAll(p.argumentList(false));
            attrs.put(WORKGROUP_COUNT, Attribute.IntegerAttr.i64(out.size()));
        }
        if (p.optionalKeyword("private")) {
            out.addAll(p.argumentList(false));
        }
        return out;
    }

    private static void printAttributions(OpAsmPrinter p, Operation op) {
        if (op.region(0).isEmpty()) {
            return;
        }
        GpuFuncOp f = new GpuFuncOp(op);
        List<Value> all = List.copyOf(op.region(0).entry().arguments());
        int n = f.type().inputs().size();
        int w = f.workgroupCount();
        printGroup(p, "workgroup", all.subList(n, Math.min(all.size(), n + w)));
        printGroup(p, "private", all.subList(Math.min(all.size(), n + w), all.size()));
    }

    static void printGroup(OpAsmPrinter p, String keyword, List<Value> args) {
        if (args.isEmpty()) {
            return;
        }
        p.write(' ').write(keyword).write('(');
        for (int i = 0; i < args.size(); i++) {
            p.write(i > 0 ? ", " : "").operand(args.get(i)).write(" : ").type(args.get(i).type());
        }
        p.write(')');
    }

    /**
     * The number of workgroup attributions.
     *
     * @return the {@link #WORKGROUP_COUNT} attribute's value, or 0 when it is absent
     */
    public int workgroupCount() {
        return op.attr(WORKGROUP_COUNT) instanceof Attribute.IntegerAttr i ? (int) i.value() : 0;
    }

    /**
     * Creates a function of a {@code gpu.module} with an entry block whose arguments are the inputs, then
     * one per workgroup attribution, then one per private attribution; the caller fills the block and ends
     * it with {@code gpu.return}.
     *
     * @param loc the op's location
     * @param name the function's symbol name
     * @param type the function's type; a kernel returns nothing
     * @param kernel whether it is a kernel, launchable from the host
     * @param workgroup memref types in {@code #gpu.address_space<workgroup>}, one per workgroup attribution
     * @param privates memref types in {@code #gpu.address_space<private>}, one per private attribution
     * @return the new, detached op
     */
    public static GpuFuncOp create(Location loc, String name, Type.FunctionType type, boolean kernel,
            List<Type.MemRefType> workgroup, List<Type.MemRefType> privates) {
        Operation op = create(NAME, loc, name, type, true);
        if (kernel) {
            op.setAttr(KERNEL_ATTR, Attribute.UNIT);
        }
        if (!workgroup.isEmpty()) {
            op.setAttr(WORKGROUP_COUNT, Attribute.IntegerAttr.i64(workgroup.size()));
        }
        for (Type.MemRefType t : workgroup) {
            op.region(0).entry().addArgument(t, loc);
        }
        for (Type.MemRefType t : privates) {
            op.region(0).entry().addArgument(t, loc);
        }
        return new GpuFuncOp(op);
    }

    /**
     * The entry block, whose arguments are the inputs, then the attributions.
     *
     * @return the body's entry block
     */
    public Block body() {
        return op.region(0).entry();
    }

    /** The unit attribute that marks a kernel. */
    public static final String KERNEL_ATTR = "gpu.kernel";

    /**
     * Views {@code op} as a {@code gpu.func}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.func}
     */
    public GpuFuncOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Whether it is a kernel, launchable from the host.
     *
     * @return whether the op has the {@link #KERNEL_ATTR} attribute
     */
    public boolean isKernel() {
        return op.hasAttr(KERNEL_ATTR);
    }

    static void verify(Operation op, VerifyContext ctx) {
        verifySignature(op, ctx);
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

    /** As every function's, except that attributions follow the function's own arguments in the entry block. */
    private static void verifySignature(Operation op, VerifyContext ctx) {
        if (!Syntax.verifySymbolName(op, ctx)) {
            return;
        }
        Type.FunctionType ft = Syntax.functionType(op);
        if (ft == null) {
            ctx.error(op, "Invalid " + op.name() + " (must have a function_type): "
                    + (op.attr("function_type") == null ? "none" : op.attr("function_type")));
            return;
        }
        if (op.region(0).isEmpty()) {
            return;
        }
        List<Type> argTypes = Syntax.types(op.region(0).entry().arguments());
        int n = ft.inputs().size();
        int w = new GpuFuncOp(op).workgroupCount();
        if (argTypes.size() < n + w || !argTypes.subList(0, n).equals(ft.inputs())) {
            ctx.error(op, "Invalid entry block arguments (must start with the function type's inputs ("
                    + Syntax.join(ft.inputs()) + ") and its " + w + " workgroup attributions): (" + Syntax.join(argTypes)
                    + ")");
            return;
        }
        verifyAttributions(op, ctx, argTypes.subList(n, argTypes.size()), w);
    }

    /**
     * Reports attributions (the entry block arguments {@code types}, the first {@code workgroup} of them
     * workgroup memory, the rest private) that are not memrefs in their address space; for gpu.func and
     * gpu.launch alike.
     */
    static void verifyAttributions(Operation op, VerifyContext ctx, List<Type> types, int workgroup) {
        for (int i = 0; i < types.size(); i++) {
            String space = i < workgroup ? "workgroup" : "private";
            Type t = types.get(i);
            if (!(t instanceof Type.MemRefType m && new AddressSpaceAttr(space).equals(m.memorySpace()))) {
                ctx.error(op, "Invalid " + space + " attribution (must be a memref in #gpu.address_space<" + space
                        + ">): " + t);
            }
        }
    }

    static OpDef definition() {
        return OpDef.of(NAME).isolatedFromAbove().inherent("function_type", "arg_attrs", "res_attrs",
                "workgroup_attrib_attrs", "private_attrib_attrs", "known_block_size", "known_grid_size")
                .syntax((p, n, loc) -> Syntax.function(p, loc, NAME, null, Set.of(), null,
                        attrs -> attributions(p, attrs), attrs -> {
                            if (p.optionalKeyword("kernel")) {
                                attrs.put(KERNEL_ATTR, Attribute.UNIT);
                            }
                        }, false, true), (p, op) -> Syntax.printFunction(p, op, null, Set.of(KERNEL_ATTR, WORKGROUP_COUNT),
                                null, pr -> {
                                    printAttributions(pr, op);
                                    if (op.hasAttr(KERNEL_ATTR)) {
                                        pr.write(" kernel");
                                    }
                                })).verifier(GpuFuncOp::verify);
    }
}
