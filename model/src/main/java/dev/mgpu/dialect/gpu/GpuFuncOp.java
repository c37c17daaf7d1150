package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
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

    /** Each workgroup attribution's attributes (an array of dictionaries), when any has some. */
    public static final String WORKGROUP_ATTRS = "workgroup_attrib_attrs";

    /** Each private attribution's attributes (an array of dictionaries), when any has some. */
    public static final String PRIVATE_ATTRS = "private_attrib_attrs";

    /** The attribution attribute that gives its memory's alignment in bytes, as upstream's lowering reads it. */
    public static final String ALIGN = "llvm.align";

    /** The attribute that promises the block size, {@code array<i32: x, y, z>}. */
    public static final String KNOWN_BLOCK_SIZE = "known_block_size";

    /** The attribute that promises the grid size, {@code array<i32: x, y, z>}. */
    public static final String KNOWN_GRID_SIZE = "known_grid_size";

    /**
     * {@code [workgroup(%w : T [{attrs}], ...)] [private(%p : T [{attrs}], ...)]}: memory the body gets as block
     * arguments. A gpu.func keeps each attribution's attributes ({@code withAttrs}); a gpu.launch takes none.
     */
    static List<OpAsmParser.Argument> attributions(OpAsmParser p, Map<String, Attribute> attrs, boolean withAttrs) {
        List<OpAsmParser.Argument> out = new ArrayList<>();
        if (p.optionalKeyword("workgroup")) {
            List<OpAsmParser.Argument> w = p.argumentList(false);
            attrs.put(WORKGROUP_COUNT, Attribute.IntegerAttr.i64(w.size()));
            keepAttrs(w, attrs, WORKGROUP_ATTRS, withAttrs, "workgroup");
            out.addAll(w);
        }
        if (p.optionalKeyword("private")) {
            List<OpAsmParser.Argument> pr = p.argumentList(false);
            keepAttrs(pr, attrs, PRIVATE_ATTRS, withAttrs, "private");
            out.addAll(pr);
        }
        return out;
    }

    private static void keepAttrs(List<OpAsmParser.Argument> args, Map<String, Attribute> attrs, String name,
            boolean allowed, String keyword) {
        List<Attribute> dicts = new ArrayList<>();
        boolean any = false;
        for (OpAsmParser.Argument a : args) {
            if (a.attrs() != null && !allowed) {
                throw new MgpuException(a.loc(), "Invalid " + keyword + " attribution of gpu.launch (takes no"
                        + " attributes; an outlined kernel's gpu.func does): " + a.attrs());
            }
            dicts.add(a.attrs() == null ? Attribute.DictionaryAttr.EMPTY : a.attrs());
            any |= a.attrs() != null && !a.attrs().isEmpty();
        }
        if (any) {
            attrs.put(name, new Attribute.ArrayAttr(dicts));
        }
    }

    private static void printAttributions(OpAsmPrinter p, Operation op) {
        if (op.region(0).isEmpty()) {
            return;
        }
        GpuFuncOp f = new GpuFuncOp(op);
        List<Value> all = List.copyOf(op.region(0).entry().arguments());
        int n = f.type().inputs().size();
        int w = f.workgroupCount();
        printGroup(p, "workgroup", all.subList(n, Math.min(all.size(), n + w)), op.attr(WORKGROUP_ATTRS));
        printGroup(p, "private", all.subList(Math.min(all.size(), n + w), all.size()), op.attr(PRIVATE_ATTRS));
    }

    static void printGroup(OpAsmPrinter p, String keyword, List<Value> args, Attribute dicts) {
        if (args.isEmpty()) {
            return;
        }
        p.write(' ').write(keyword).write('(');
        for (int i = 0; i < args.size(); i++) {
            p.write(i > 0 ? ", " : "").operand(args.get(i)).write(" : ").type(args.get(i).type());
            if (dicts instanceof Attribute.ArrayAttr a && i < a.size() && a.get(i) instanceof Attribute.DictionaryAttr d
                    && !d.isEmpty()) {
                p.write(' ').attr(d);
            }
        }
        p.write(')');
    }

    /**
     * The attributes of an attribution.
     *
     * @param index the attribution's index among all of them: the workgroup ones first, then the private ones
     * @return its attributes; empty when it has none
     */
    public Attribute.DictionaryAttr attributionAttrs(int index) {
        int w = workgroupCount();
        Attribute all = op.attr(index < w ? WORKGROUP_ATTRS : PRIVATE_ATTRS);
        int i = index < w ? index : index - w;
        return all instanceof Attribute.ArrayAttr a && i < a.size() && a.get(i) instanceof Attribute.DictionaryAttr d ? d
                : Attribute.DictionaryAttr.EMPTY;
    }

    /**
     * Sets the attributes of an attribution, such as {@link #ALIGN}.
     *
     * @param index the attribution's index among all of them: the workgroup ones first, then the private ones
     * @param attrs its attributes
     */
    public void setAttributionAttrs(int index, Attribute.DictionaryAttr attrs) {
        int w = workgroupCount();
        int count = index < w ? w : op.region(0).entry().arguments().size() - type().inputs().size() - w;
        int i = index < w ? index : index - w;
        String name = index < w ? WORKGROUP_ATTRS : PRIVATE_ATTRS;
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("attribution " + index + " of " + op.symbolName());
        }
        List<Attribute> dicts = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            dicts.add(k == i ? attrs : attributionAttrs(index < w ? k : w + k));
        }
        op.setAttr(name, new Attribute.ArrayAttr(dicts));
    }

    /**
     * The alignment an attribution's memory must have.
     *
     * @param index the attribution's index among all of them: the workgroup ones first, then the private ones
     * @return its {@link #ALIGN} in bytes, or 0 when it gives none (its element type's own alignment then)
     */
    public long attributionAlignment(int index) {
        return attributionAttrs(index).get(ALIGN) instanceof Attribute.IntegerAttr a ? a.value() : 0;
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

    /**
     * The block size the function promises to run with, its {@code known_block_size}.
     *
     * @return the x, y and z sizes, or null when it promises none
     */
    public long[] knownBlockSize() {
        return knownSize(KNOWN_BLOCK_SIZE);
    }

    /**
     * The grid size the function promises to run with, its {@code known_grid_size}.
     *
     * @return the x, y and z sizes, or null when it promises none
     */
    public long[] knownGridSize() {
        return knownSize(KNOWN_GRID_SIZE);
    }

    /**
     * Promises the block size the function runs with ({@code known_block_size = array<i32: x, y, z>}): the
     * NVIDIA code gets it as {@code .maxntid}, the AMD code as its largest work-group size, and the CPU code
     * runs its loops over exactly these threads, so that the CPU runtime refuses a launch of another block
     * size.
     *
     * @param x the threads along x, at least 1
     * @param y the threads along y, at least 1
     * @param z the threads along z, at least 1
     * @return this function
     * @throws IllegalArgumentException if a size is below 1
     */
    public GpuFuncOp setKnownBlockSize(int x, int y, int z) {
        return setKnownSize(KNOWN_BLOCK_SIZE, x, y, z);
    }

    /**
     * Promises the grid size the function runs with ({@code known_grid_size = array<i32: x, y, z>}).
     *
     * @param x the blocks along x, at least 1
     * @param y the blocks along y, at least 1
     * @param z the blocks along z, at least 1
     * @return this function
     * @throws IllegalArgumentException if a size is below 1
     */
    public GpuFuncOp setKnownGridSize(int x, int y, int z) {
        return setKnownSize(KNOWN_GRID_SIZE, x, y, z);
    }

    private long[] knownSize(String name) {
        return op.attr(name) instanceof Attribute.DenseArrayAttr d && d.size() == 3 ? d.values() : null;
    }

    private GpuFuncOp setKnownSize(String name, int x, int y, int z) {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException("Invalid " + name + " of gpu.func @" + op.symbolName()
                    + " (must be sizes >= 1): " + x + ", " + y + ", " + z);
        }
        op.setAttr(name, Attribute.DenseArrayAttr.i32(x, y, z));
        return this;
    }

    /**
     * The memory of a workgroup attribution, as the body sees it.
     *
     * @param index the attribution's index among the workgroup ones
     * @return the entry block's argument for it
     * @throws IndexOutOfBoundsException if the function has no such attribution
     */
    public Value workgroupAttribution(int index) {
        if (index < 0 || index >= workgroupCount()) {
            throw new IndexOutOfBoundsException("workgroup attribution " + index + " of @" + op.symbolName()
                    + " (it has " + workgroupCount() + ")");
        }
        return body().argument(type().inputs().size() + index);
    }

    /**
     * The memory of a private attribution, as the body sees it.
     *
     * @param index the attribution's index among the private ones
     * @return the entry block's argument for it
     * @throws IndexOutOfBoundsException if the function has no such attribution
     */
    public Value privateAttribution(int index) {
        int first = type().inputs().size() + workgroupCount();
        int count = body().arguments().size() - first;
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("private attribution " + index + " of @" + op.symbolName()
                    + " (it has " + count + ")");
        }
        return body().argument(first + index);
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
        for (String name : List.of(WORKGROUP_ATTRS, PRIVATE_ATTRS)) {
            Attribute all = op.attr(name);
            if (all == null) {
                continue;
            }
            if (!(all instanceof Attribute.ArrayAttr a) || a.elements().stream()
                    .anyMatch(d -> !(d instanceof Attribute.DictionaryAttr))) {
                ctx.error(op, "Invalid " + name + " of gpu.func (must be an array of dictionaries, one per attribution): "
                        + all);
                continue;
            }
            for (int i = 0; i < a.size(); i++) {
                Attribute align = ((Attribute.DictionaryAttr) a.get(i)).get(ALIGN);
                if (align != null && !(align instanceof Attribute.IntegerAttr n && n.value() > 0
                        && n.value() <= 1L << 31 && Long.bitCount(n.value()) == 1)) {
                    ctx.error(op, "Invalid " + ALIGN + " of " + (name.equals(WORKGROUP_ATTRS) ? "workgroup" : "private")
                            + " attribution " + i + " of gpu.func (must be an integer power of 2, at most 2^31): "
                            + align);
                }
            }
        }
        for (String hint : List.of(KNOWN_BLOCK_SIZE, KNOWN_GRID_SIZE)) {
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
     * workgroup memory, the rest private) that are not memrefs, or are in another {@code #gpu.address_space};
     * for gpu.func and gpu.launch alike. As upstream, a memory space that is not a {@code #gpu.address_space}
     * (none, or a target's number such as 3 or 5) is taken as it is.
     */
    static void verifyAttributions(Operation op, VerifyContext ctx, List<Type> types, int workgroup) {
        for (int i = 0; i < types.size(); i++) {
            String space = i < workgroup ? "workgroup" : "private";
            Type t = types.get(i);
            if (!(t instanceof Type.MemRefType m) || m.memorySpace() instanceof AddressSpaceAttr a
                    && !a.space().equals(space)) {
                ctx.error(op, "Invalid " + space + " attribution (must be a memref, in no #gpu.address_space but <"
                        + space + ">): " + t);
            }
        }
    }

    static OpDef definition() {
        return OpDef.of(NAME).isolatedFromAbove().inherent("function_type", "arg_attrs", "res_attrs",
                "workgroup_attrib_attrs", "private_attrib_attrs", KNOWN_BLOCK_SIZE, KNOWN_GRID_SIZE)
                .syntax((p, n, loc) -> Syntax.function(p, loc, NAME, null, Set.of(), null,
                        attrs -> attributions(p, attrs, true), attrs -> {
                            if (p.optionalKeyword("kernel")) {
                                attrs.put(KERNEL_ATTR, Attribute.UNIT);
                            }
                        }, false, true), (p, op) -> Syntax.printFunction(p, op, null,
                                Set.of(KERNEL_ATTR, WORKGROUP_COUNT, WORKGROUP_ATTRS, PRIVATE_ATTRS),
                                null, pr -> {
                                    printAttributions(pr, op);
                                    if (op.hasAttr(KERNEL_ATTR)) {
                                        pr.write(" kernel");
                                    }
                                })).verifier(GpuFuncOp::verify);
    }
}
