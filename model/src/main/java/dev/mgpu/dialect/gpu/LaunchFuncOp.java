package dev.mgpu.dialect.gpu;

import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gpu.launch_func [async] [deps] [<%stream : !llvm.ptr>] @module::@kernel [clusters in (x, y, z)]
 * blocks in (x, y, z) threads in (x, y, z) [: T] [dynamic_shared_memory_size %s] [args(%a : A, ...)]}.
 * Its operand segments follow upstream's layout: dependencies, grid x y z, block x y z, cluster x y z,
 * shared memory size, kernel operands, async object.
 */
public final class LaunchFuncOp extends AsyncOpView {
    /** The op's name. */
    public static final String NAME = "gpu.launch_func";

    /** An llvm.func in a gpu.module is a kernel when it carries one of these unit attributes, as lowered code does. */
    public static final List<String> KERNEL_MARKERS = List.of(GpuFuncOp.KERNEL_ATTR, "nvvm.kernel", "rocdl.kernel");

    private static final String LLVM_FUNC = "llvm.func";

    /** The index of the async dependencies' operand segment. */
    public static final int SEG_DEPS = 0;
    /** The index of the grid size x segment; y and z follow. */
    public static final int SEG_GRID = 1;
    /** The index of the block size x segment; y and z follow. */
    public static final int SEG_BLOCK = 4;
    /** The index of the cluster size x segment; y and z follow. */
    public static final int SEG_CLUSTER = 7;
    /** The index of the dynamic shared memory size segment. */
    public static final int SEG_SMEM = 10;
    /** The index of the kernel operands' segment. */
    public static final int SEG_ARGS = 11;
    /** The index of the async object (stream) segment. */
    public static final int SEG_OBJECT = 12;
    /** The number of operand segments. */
    public static final int SEGMENTS = 13;

    /**
     * Wraps {@code op}.
     *
     * @param op a {@code gpu.launch_func} op
     * @throws IllegalArgumentException if {@code op} has another name
     */
    public LaunchFuncOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a launch; {@code cluster}, {@code smem} and {@code asyncObject} may be null.
     *
     * @param loc the op's location
     * @param kernel the kernel, {@code @module::@kernel}
     * @param asyncDeps the async tokens to wait for
     * @param async whether the op returns an async token
     * @param grid the grid size, x, y and z
     * @param block the block size, x, y and z
     * @param cluster the cluster size, x, y and z, or null
     * @param smem the dynamic shared memory size, an {@code i32}, or null
     * @param args the kernel operands
     * @param asyncObject the stream to launch on, or null
     * @return the new, detached op
     */
    public static LaunchFuncOp create(Location loc, Attribute.SymbolRefAttr kernel, List<Value> asyncDeps,
            boolean async, Value[] grid, Value[] block, Value[] cluster, Value smem, List<Value> args,
            Value asyncObject) {
        List<Value> ops = new ArrayList<>(asyncDeps);
        Collections.addAll(ops, grid);
        Collections.addAll(ops, block);
        if (cluster != null) {
            Collections.addAll(ops, cluster);
        }
        if (smem != null) {
            ops.add(smem);
        }
        ops.addAll(args);
        if (asyncObject != null) {
            ops.add(asyncObject);
        }
        int c = cluster == null ? 0 : 1;
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("kernel", kernel);
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(asyncDeps.size(), 1, 1, 1, 1, 1, 1, c, c, c,
                smem == null ? 0 : 1, args.size(), asyncObject == null ? 0 : 1));
        return new LaunchFuncOp(Operation.create(NAME, loc, ops, async ? List.of(Type.ASYNC_TOKEN) : List.of(),
                attrs));
    }

    /**
     * {@code @module::@kernel}.
     *
     * @return the {@code kernel} attribute
     */
    public Attribute.SymbolRefAttr kernel() {
        return (Attribute.SymbolRefAttr) op.attr("kernel");
    }

    /**
     * The name of the binary or module holding the kernel.
     *
     * @return the reference's root name
     */
    public String moduleName() {
        return kernel().root();
    }

    /**
     * The kernel's name inside its module.
     *
     * @return the reference's leaf name
     */
    public String kernelName() {
        return kernel().leaf();
    }

    @Override
    public List<Value> asyncDependencies() {
        return op.segment(SEG_DEPS);
    }

    /**
     * The grid size along {@code dim} (0 to 2).
     *
     * @param dim 0 for x, 1 for y, 2 for z
     * @return the size
     */
    public Value gridSize(int dim) {
        return op.segmentOperand(SEG_GRID + dim, 0);
    }

    /**
     * The block size along {@code dim} (0 to 2).
     *
     * @param dim 0 for x, 1 for y, 2 for z
     * @return the size
     */
    public Value blockSize(int dim) {
        return op.segmentOperand(SEG_BLOCK + dim, 0);
    }

    /**
     * The cluster size along {@code dim}, or null without clusters.
     *
     * @param dim 0 for x, 1 for y, 2 for z
     * @return the size, or null
     */
    public Value clusterSize(int dim) {
        return optional(SEG_CLUSTER + dim);
    }

    /**
     * Whether the launch gives cluster sizes.
     *
     * @return true if it does
     */
    public boolean hasClusters() {
        return clusterSize(0) != null;
    }

    /**
     * The dynamic shared memory size, or null.
     *
     * @return the size, or null
     */
    public Value dynamicSharedMemorySize() {
        return optional(SEG_SMEM);
    }

    /**
     * The operands passed to the kernel.
     *
     * @return the kernel operands, in order
     */
    public List<Value> kernelOperands() {
        return op.segment(SEG_ARGS);
    }

    /**
     * The explicit stream ({@code <%s : !llvm.ptr>}), or null.
     *
     * @return the stream, or null
     */
    public Value asyncObject() {
        return optional(SEG_OBJECT);
    }

    /** The operand of a segment of at most one, or null when it is empty. */
    private Value optional(int segment) {
        return op.segmentSize(segment) == 0 ? null : op.segmentOperand(segment, 0);
    }

    static OpDef definition() {
        return OpDef.of(NAME).inherent("kernel", "operandSegmentSizes").syntax(LaunchFuncOp::parse,
                LaunchFuncOp::print).verifier(LaunchFuncOp::verify);
    }

    // ------------------------------------------------------------------ syntax

    private static List<OpAsmParser.OperandRef> dimRefs(OpAsmParser p, String what) {
        p.expectKeyword("in");
        p.expectPunct('(');
        int off = p.offset();
        List<OpAsmParser.OperandRef> r = p.operandRefs();
        if (r.size() != 3) {
            throw p.errorAt(off, "Invalid " + what + " sizes (must be three values x, y, z): " + r.size());
        }
        p.expectPunct(')');
        return r;
    }

    private static Value[] dims(OpAsmParser p, List<OpAsmParser.OperandRef> refs, Type t) {
        Value[] v = new Value[3];
        for (int i = 0; i < 3; i++) {
            v[i] = p.resolve(refs.get(i), t);
        }
        return v;
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        Deps deps = parseDeps(p, results);
        Value asyncObject = null;
        if (p.optionalPunct('<')) {
            OpAsmParser.OperandRef r = p.operandRef();
            p.expectPunct(':');
            asyncObject = p.resolve(r, p.type());
            p.expectPunct('>');
        }
        int kOff = p.offset();
        Attribute.SymbolRefAttr kernel = p.symbolRef();
        if (kernel.nested().size() != 1) {
            throw p.errorAt(kOff, "Invalid kernel (must be @module::@kernel): " + kernel);
        }
        List<OpAsmParser.OperandRef> cluster = null;
        if (p.optionalKeyword("clusters")) {
            cluster = dimRefs(p, "cluster");
        }
        p.expectKeyword("blocks");
        List<OpAsmParser.OperandRef> grid = dimRefs(p, "grid");
        p.expectKeyword("threads");
        List<OpAsmParser.OperandRef> block = dimRefs(p, "block");
        Type dimType = Type.INDEX;
        if (p.optionalPunct(':')) {
            dimType = p.type();
        }
        Value smem = null;
        if (p.optionalKeyword("dynamic_shared_memory_size")) {
            smem = p.resolve(p.operandRef(), Type.I32);
        }
        List<Value> args = new ArrayList<>();
        if (p.optionalKeyword("args")) {
            p.expectPunct('(');
            if (!p.optionalPunct(')')) {
                do {
                    OpAsmParser.OperandRef r = p.operandRef();
                    p.expectPunct(':');
                    args.add(p.resolve(r, p.type()));
                } while (p.optionalPunct(','));
                p.expectPunct(')');
            }
        }
        Map<String, Attribute> extra = p.optionalDictionary();
        Value[] c = cluster == null ? null : dims(p, cluster, dimType);
        LaunchFuncOp l = create(loc, kernel, deps.deps(), deps.async(), dims(p, grid, dimType),
                dims(p, block, dimType), c, smem, args, asyncObject);
        for (Map.Entry<String, Attribute> e : extra.entrySet()) {
            l.op().setAttr(e.getKey(), e.getValue());
        }
        return l.op();
    }

    static void print(OpAsmPrinter p, Operation op) {
        LaunchFuncOp l = new LaunchFuncOp(op);
        printDeps(p, l.asyncToken() != null, l.asyncDependencies());
        if (l.asyncObject() != null) {
            p.write(" <").operand(l.asyncObject()).write(" : ").type(l.asyncObject().type()).write('>');
        }
        p.write(' ').attr(l.kernel());
        if (l.hasClusters()) {
            p.write(" clusters in (").operand(l.clusterSize(0)).write(", ").operand(l.clusterSize(1)).write(", ")
                    .operand(l.clusterSize(2)).write(')');
        }
        p.write(" blocks in (").operand(l.gridSize(0)).write(", ").operand(l.gridSize(1)).write(", ")
                .operand(l.gridSize(2)).write(')');
        p.write(" threads in (").operand(l.blockSize(0)).write(", ").operand(l.blockSize(1)).write(", ")
                .operand(l.blockSize(2)).write(')');
        Type dt = l.gridSize(0).type();
        if (!dt.equals(Type.INDEX)) {
            p.write(" : ").type(dt);
        }
        if (l.dynamicSharedMemorySize() != null) {
            p.write(" dynamic_shared_memory_size ").operand(l.dynamicSharedMemorySize());
        }
        if (!l.kernelOperands().isEmpty()) {
            p.write(" args(").operandsWithTypes(l.kernelOperands()).write(')');
        }
        p.attrDict(op, Set.of("kernel", "operandSegmentSizes"));
    }

    // ------------------------------------------------------------------ rules

    static void verify(Operation op, VerifyContext ctx) {
        if (!verifySegments(op, ctx, SEGMENTS)) {
            return;
        }
        Attribute.DenseArrayAttr seg = (Attribute.DenseArrayAttr) op.attr("operandSegmentSizes");
        for (int i = SEG_GRID; i < SEG_CLUSTER; i++) {
            if (seg.get(i) != 1) {
                ctx.error(op, "Invalid gpu.launch_func grid and block sizes (must be one value each): "
                        + seg.get(i));
                return;
            }
        }
        long clusters = seg.get(SEG_CLUSTER);
        if (seg.get(SEG_SMEM) > 1 || seg.get(SEG_OBJECT) > 1 || seg.get(SEG_CLUSTER + 1) != clusters
                || seg.get(SEG_CLUSTER + 2) != clusters || clusters > 1) {
            ctx.error(op, "Invalid operandSegmentSizes of gpu.launch_func (must have at most one cluster size per"
                    + " dimension, shared memory size and async object): " + seg);
            return;
        }
        verifyAsync(op, ctx, 0);
        LaunchFuncOp l = new LaunchFuncOp(op);
        if (!(op.attr("kernel") instanceof Attribute.SymbolRefAttr k) || k.nested().size() != 1) {
            ctx.error(op, "Invalid kernel (must be @module::@kernel): "
                    + (op.attr("kernel") == null ? "none" : op.attr("kernel")));
            return;
        }
        Type dimType = l.gridSize(0).type();
        if (!dimType.isIntegerOrIndex()) {
            ctx.error(op, "Invalid launch size (must be an integer or index): " + dimType);
            return;
        }
        for (int d = 0; d < 3; d++) {
            for (Value v : new Value[] {l.gridSize(d), l.blockSize(d), l.clusterSize(d)}) {
                if (v != null && !(v.type().isIntegerOrIndex() && v.type().equals(dimType))) {
                    ctx.error(op, "Invalid launch size (must be an integer or index, all of one type "
                            + dimType + "): " + v.type());
                    return;
                }
            }
        }
        if (l.dynamicSharedMemorySize() != null) {
            ctx.expectType(op, "dynamic shared memory size", l.dynamicSharedMemorySize(), Type.I32);
        }
        if (l.asyncObject() != null && !(l.asyncObject().type() instanceof Type.LLVMPointerType)) {
            ctx.error(op, "Invalid async object (must be !llvm.ptr): " + l.asyncObject().type());
        }
        Operation table = ctx.symbols().enclosingTable(op);
        while (table != null && !table.name().equals(Builtin.ModuleOp.NAME)) {
            table = ctx.symbols().enclosingTable(table);
        }
        if (table == null || !table.hasAttr("gpu.container_module")) {
            ctx.error(op, "Invalid gpu.launch_func (must be inside a module with the gpu.container_module"
                    + " attribute): " + (table == null ? "no module" : "module without it"));
            // Without the attribute the module holds no kernel containers, so a lookup would only add noise.
            return;
        }
        verifyKernel(op, l, k, ctx);
    }

    /** The kernel must name a binary, or a kernel of a gpu.module whose signature the operands match. */
    private static void verifyKernel(Operation op, LaunchFuncOp l, Attribute.SymbolRefAttr k, VerifyContext ctx) {
        Operation target = ctx.symbols().lookup(op, k.root());
        if (target == null || !(target.name().equals(BinaryOp.NAME) || target.name().equals(GpuModuleOp.NAME))) {
            ctx.error(op, "Invalid kernel module (must name a gpu.binary or gpu.module): @" + k.root());
            return;
        }
        if (target.name().equals(BinaryOp.NAME)) {
            return;
        }
        Operation fn = ctx.symbols().of(target).get(k.leaf());
        boolean gpuKernel = fn != null && fn.name().equals(GpuFuncOp.NAME) && new GpuFuncOp(fn).isKernel();
        boolean llvmKernel = fn != null && fn.name().equals(LLVM_FUNC) && KERNEL_MARKERS.stream().anyMatch(fn::hasAttr);
        if (!gpuKernel && !llvmKernel) {
            ctx.error(op, "Invalid kernel (must name a gpu.func kernel, or an llvm.func marked gpu.kernel, in @"
                    + k.root() + "): " + k);
            return;
        }
        Type.FunctionType ft = Syntax.functionType(fn);
        List<Value> args = l.kernelOperands();
        if (ft.inputs().size() != args.size()) {
            ctx.error(op, "Invalid kernel operands (must match the " + ft.inputs().size() + " parameters of " + k
                    + "): " + args.size() + " operands");
            return;
        }
        for (int i = 0; i < args.size(); i++) {
            // A lowered kernel takes a memref as the pointer to its first element (the bare-pointer convention).
            boolean barePointer = llvmKernel && args.get(i).type() instanceof Type.MemRefType
                    && ft.inputs().get(i) instanceof Type.LLVMPointerType;
            if (!barePointer && !args.get(i).type().equals(ft.inputs().get(i))) {
                ctx.error(op, "Invalid kernel operand #" + i + " (must have type " + ft.inputs().get(i) + "): "
                        + args.get(i).type());
            }
        }
    }
}
