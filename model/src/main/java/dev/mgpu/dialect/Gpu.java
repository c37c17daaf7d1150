package dev.mgpu.dialect;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.GpuTarget;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.OffloadingHandler;
import dev.mgpu.ir.OffloadingHandlerAttr;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.internal.Parser;
import dev.mgpu.text.internal.Printer;
import dev.mgpu.verify.SymbolTables;
import dev.mgpu.verify.VerifyContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The gpu dialect subset: modules, binaries, launches, memory and synchronisation. */
public final class Gpu {
    private Gpu() {
    }

    public static final String MODULE = "gpu.module";
    public static final String FUNC = "gpu.func";
    public static final String RETURN = "gpu.return";
    public static final String BINARY = "gpu.binary";
    public static final String LAUNCH_FUNC = "gpu.launch_func";
    public static final String ALLOC = "gpu.alloc";
    public static final String DEALLOC = "gpu.dealloc";
    public static final String WAIT = "gpu.wait";
    public static final String HOST_REGISTER = "gpu.host_register";
    public static final String MEMCPY = "gpu.memcpy";
    public static final String MEMSET = "gpu.memset";

    /** The ops that take {@code [async] [deps]} and may return a token. */
    public static final Set<String> ASYNC_OPS = Set.of(LAUNCH_FUNC, ALLOC, DEALLOC, WAIT, MEMCPY, MEMSET);

    // ------------------------------------------------------------------ views

    /** {@code gpu.module @name [targets] { gpu.func ... }}: kernel signatures. */
    public static final class ModuleOp extends OpView {
        public ModuleOp(Operation op) {
            super(op, MODULE);
        }

        public String name() {
            return op.symbolName();
        }

        public Block body() {
            return op.region(0).entry();
        }
    }

    /** {@code gpu.binary @name [<handler>] [objects]}. */
    public static final class BinaryOp extends OpView {
        public BinaryOp(Operation op) {
            super(op, BINARY);
        }

        /** Creates a binary with the default handler when {@code handler} is null. */
        public static BinaryOp create(Location loc, String name, OffloadingHandlerAttr handler,
                List<Attribute.ObjectAttr> objects) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("sym_name", Attribute.StringAttr.of(name));
            attrs.put("offloadingHandler", handler == null ? OffloadingHandlerAttr.DEFAULT : handler);
            attrs.put("objects", new Attribute.ArrayAttr(new ArrayList<>(objects)));
            return new BinaryOp(Operation.create(BINARY, loc, List.of(), List.of(), attrs));
        }

        public String name() {
            return op.symbolName();
        }

        /** The handler attribute, which the verifier has checked is an offloading handler. */
        public Attribute handler() {
            Attribute h = op.attr("offloadingHandler");
            return h == null ? OffloadingHandlerAttr.DEFAULT : h;
        }

        public List<Attribute> objects() {
            return op.attr("objects") instanceof Attribute.ArrayAttr a ? a.elements() : List.of();
        }

        public Attribute.ObjectAttr object(int i) {
            return (Attribute.ObjectAttr) objects().get(i);
        }
    }

    /** {@code gpu.launch_func}; operand segments follow upstream's layout. */
    public static final class LaunchFuncOp extends OpView {
        public static final int SEG_DEPS = 0;
        public static final int SEG_GRID = 1;
        public static final int SEG_BLOCK = 4;
        public static final int SEG_CLUSTER = 7;
        public static final int SEG_SMEM = 10;
        public static final int SEG_ARGS = 11;
        public static final int SEG_OBJECT = 12;
        public static final int SEGMENTS = 13;

        public LaunchFuncOp(Operation op) {
            super(op, LAUNCH_FUNC);
        }

        /** Creates a launch; {@code cluster}, {@code smem} and {@code asyncObject} may be null. */
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
            return new LaunchFuncOp(Operation.create(LAUNCH_FUNC, loc, ops,
                    async ? List.of(Type.ASYNC_TOKEN) : List.of(), attrs));
        }

        public Attribute.SymbolRefAttr kernel() {
            return (Attribute.SymbolRefAttr) op.attr("kernel");
        }

        /** The name of the binary or module holding the kernel. */
        public String moduleName() {
            return kernel().root();
        }

        public String kernelName() {
            return kernel().leaf();
        }

        public List<Value> asyncDependencies() {
            return op.segment(SEG_DEPS);
        }

        public Value gridSize(int dim) {
            return op.segment(SEG_GRID + dim).get(0);
        }

        public Value blockSize(int dim) {
            return op.segment(SEG_BLOCK + dim).get(0);
        }

        /** The cluster size along {@code dim}, or null without clusters. */
        public Value clusterSize(int dim) {
            List<Value> s = op.segment(SEG_CLUSTER + dim);
            return s.isEmpty() ? null : s.get(0);
        }

        public boolean hasClusters() {
            return clusterSize(0) != null;
        }

        /** The dynamic shared memory size, or null. */
        public Value dynamicSharedMemorySize() {
            List<Value> s = op.segment(SEG_SMEM);
            return s.isEmpty() ? null : s.get(0);
        }

        public List<Value> kernelOperands() {
            return op.segment(SEG_ARGS);
        }

        /** The explicit stream ({@code <%s : !llvm.ptr>}), or null. */
        public Value asyncObject() {
            List<Value> s = op.segment(SEG_OBJECT);
            return s.isEmpty() ? null : s.get(0);
        }

        /** The token result, or null for a synchronous launch. */
        public Value asyncToken() {
            return op.resultCount() == 0 ? null : op.result(0);
        }
    }

    /** {@code gpu.alloc}: operand segments {@code [deps, dynamicSizes, symbolOperands]}. */
    public static final class AllocOp extends OpView {
        public AllocOp(Operation op) {
            super(op, ALLOC);
        }

        public List<Value> asyncDependencies() {
            return op.segment(0);
        }

        public List<Value> dynamicSizes() {
            return op.segment(1);
        }

        public boolean hostShared() {
            return op.hasAttr("hostShared");
        }

        public Value memref() {
            return op.result(0);
        }

        public Type.MemRefType type() {
            return (Type.MemRefType) op.result(0).type();
        }

        public Value asyncToken() {
            return op.resultCount() > 1 ? op.result(1) : null;
        }
    }

    /** The async dependencies of any async op: every token operand before the others. */
    public static List<Value> asyncDependencies(Operation op) {
        if (op.hasAttr("operandSegmentSizes")) {
            return op.segment(0);
        }
        List<Value> deps = new ArrayList<>();
        for (Value v : op.operands()) {
            if (!(v.type() instanceof Type.AsyncTokenType)) {
                break;
            }
            deps.add(v);
        }
        return deps;
    }

    /** The token result of an async op, or null. */
    public static Value asyncToken(Operation op) {
        for (Value v : op.results()) {
            if (v.type() instanceof Type.AsyncTokenType) {
                return v;
            }
        }
        return null;
    }

    /** The operands of an async op after its dependencies. */
    public static List<Value> nonTokenOperands(Operation op) {
        List<Value> all = op.operands();
        return all.subList(asyncDependencies(op).size(), all.size());
    }

    // ------------------------------------------------------------------ registration

    static List<OpDef> ops() {
        return List.of(
                OpDef.of(MODULE).isolatedFromAbove().symbolTable().defaultDialect("gpu")
                        .inherent("sym_name", "targets", "offloadingHandler")
                        .syntax(Gpu::parseModule, Gpu::printModule)
                        .verifier((op, ctx) -> Syntax.verifySymbolName(op, ctx)),
                OpDef.of(FUNC).isolatedFromAbove().inherent("sym_name", "function_type", "arg_attrs")
                        .syntax((p, n, loc) -> Syntax.function(p, loc, FUNC, null, Set.of(), attrs -> {
                            if (p.optionalKeyword("kernel")) {
                                attrs.put("gpu.kernel", Attribute.UNIT);
                            }
                        }, false), (p, op) -> Syntax.printFunction(p, op, null, Set.of("gpu.kernel"), pr -> {
                            if (op.hasAttr("gpu.kernel")) {
                                pr.write(" kernel");
                            }
                        })).verifier(Func::verifyFunc),
                OpDef.of(RETURN).terminator()
                        .syntax((p, n, loc) -> Syntax.returnLike(p, loc, RETURN), Syntax::printReturnLike)
                        .verifier((op, ctx) -> Syntax.verifyReturn(op, ctx, FUNC)),
                OpDef.of(BINARY).inherent("sym_name", "offloadingHandler", "objects")
                        .syntax(Gpu::parseBinary, Gpu::printBinary).verifier(Gpu::verifyBinary),
                OpDef.of(LAUNCH_FUNC).inherent("kernel", "operandSegmentSizes")
                        .syntax(Gpu::parseLaunch, Gpu::printLaunch).verifier(Gpu::verifyLaunch),
                OpDef.of(ALLOC).inherent("operandSegmentSizes", "hostShared")
                        .syntax(Gpu::parseAlloc, Gpu::printAlloc).verifier(Gpu::verifyAlloc),
                OpDef.of(DEALLOC).syntax(Gpu::parseDealloc, Gpu::printDealloc).verifier(Gpu::verifyDealloc),
                OpDef.of(WAIT).syntax(Gpu::parseWait, Gpu::printWait).verifier(Gpu::verifyAsync),
                OpDef.of(HOST_REGISTER).syntax(Gpu::parseHostRegister, (p, op) -> {
                    p.write(' ').operand(op.operand(0));
                    p.attrDict(op, Set.of());
                    p.write(" : ").type(op.operand(0).type());
                }).verifier((op, ctx) -> {
                    if (!(op.operand(0).type() instanceof Type.UnrankedMemRefType)) {
                        ctx.error(op, "Invalid gpu.host_register operand (must be an unranked memref): "
                                + op.operand(0).type());
                    }
                }),
                OpDef.of(MEMCPY).syntax((p, n, loc) -> parseCopyLike(p, loc, MEMCPY), Gpu::printCopyLike)
                        .verifier(Gpu::verifyMemcpy),
                OpDef.of(MEMSET).syntax((p, n, loc) -> parseCopyLike(p, loc, MEMSET), Gpu::printCopyLike)
                        .verifier(Gpu::verifyMemset));
    }

    // ------------------------------------------------------------------ gpu.module

    private static Operation parseModule(Parser p, int n, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
        if (p.optionalPunct('<')) {
            attrs.put("offloadingHandler", p.attribute());
            p.expectPunct('>');
        }
        if (p.atPunct('[')) {
            attrs.put("targets", p.attribute());
        }
        attrs.putAll(p.optionalAttributesKeyword());
        Operation op = Operation.create(MODULE, loc, List.of(), List.of(), attrs, 1, List.of());
        p.region(op.region(0), null, true);
        if (op.region(0).isEmpty()) {
            op.region(0).append(new Block(loc));
        }
        return op;
    }

    private static void printModule(Printer p, Operation op) {
        p.write(' ').symbol(op.symbolName());
        if (op.attr("offloadingHandler") != null) {
            p.write(" <").attr(op.attr("offloadingHandler")).write('>');
        }
        if (op.attr("targets") != null) {
            p.write(' ').attr(op.attr("targets"));
        }
        p.attrDict(op, Set.of("sym_name", "targets", "offloadingHandler"), true);
        p.write(' ').region(op.region(0), false);
    }

    // ------------------------------------------------------------------ gpu.binary

    private static Operation parseBinary(Parser p, int n, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
        Attribute handler = OffloadingHandlerAttr.DEFAULT;
        if (p.optionalPunct('<')) {
            handler = p.attribute();
            p.expectPunct('>');
        }
        attrs.put("offloadingHandler", handler);
        attrs.putAll(p.optionalDictionary());
        if (!p.atPunct('[')) {
            throw p.expected("the object list '[...]'");
        }
        attrs.put("objects", p.attribute());
        return Operation.create(BINARY, loc, List.of(), List.of(), attrs);
    }

    private static void printBinary(Printer p, Operation op) {
        p.write(' ').symbol(op.symbolName());
        Attribute h = op.attr("offloadingHandler");
        if (h != null && !h.equals(OffloadingHandlerAttr.DEFAULT)) {
            p.write(" <").attr(h).write('>');
        }
        p.attrDict(op, Set.of("sym_name", "offloadingHandler", "objects"));
        p.write(' ').attr(op.attr("objects"));
    }

    private static void verifyBinary(Operation op, VerifyContext ctx) {
        if (!Syntax.verifySymbolName(op, ctx)) {
            return;
        }
        Attribute objs = op.attr("objects");
        if (!(objs instanceof Attribute.ArrayAttr arr) || arr.size() == 0) {
            ctx.error(op, "Invalid gpu.binary objects (must be a non-empty array of #gpu.object): "
                    + (objs == null ? "none" : objs));
            return;
        }
        for (int i = 0; i < arr.size(); i++) {
            if (!(arr.get(i) instanceof Attribute.ObjectAttr o)) {
                ctx.error(op, "Invalid gpu.binary object #" + i + " (must be a #gpu.object): " + arr.get(i));
                return;
            }
            if (!(o.target() instanceof GpuTarget)) {
                ctx.error(op, "Invalid #gpu.object target (must be a GPU target attribute): " + o.target());
            }
        }
        Attribute h = op.attr("offloadingHandler");
        if (h == null) {
            return;
        }
        if (!(h instanceof OffloadingHandlerAttr handler)) {
            ctx.error(op, "Invalid offloading handler (must be an offloading handler attribute): " + h);
            return;
        }
        if (handler instanceof OffloadingHandlerAttr.SelectObject s) {
            verifySelectObject(op, s, arr, ctx);
        } else if (handler instanceof OffloadingHandlerAttr.External e) {
            OffloadingHandler impl = OffloadingHandler.lookup(e.name());
            if (impl == null) {
                ctx.error(op, "Invalid offloading handler (must be registered): #" + e.name());
            } else {
                for (String msg : impl.verify(e, arr.elements())) {
                    ctx.error(op, msg);
                }
            }
        }
    }

    private static void verifySelectObject(Operation op, OffloadingHandlerAttr.SelectObject s, Attribute.ArrayAttr arr,
            VerifyContext ctx) {
        Attribute t = s.target();
        if (t == null) {
            return;
        }
        if (t instanceof Attribute.IntegerAttr i) {
            if (i.value() < 0) {
                ctx.error(op, "Invalid object index (must be >= 0): " + i.value());
            } else if (i.value() >= arr.size()) {
                ctx.error(op, "Invalid object index (must be < " + arr.size() + ", the number of objects): "
                        + i.value());
            }
        } else if (t instanceof GpuTarget) {
            for (Attribute a : arr.elements()) {
                if (((Attribute.ObjectAttr) a).target().equals(t)) {
                    return;
                }
            }
            ctx.error(op, "Invalid select_object target (must match the target of an object): " + t);
        } else {
            ctx.error(op, "Invalid select_object target (must be an integer or a GPU target attribute): " + t);
        }
    }

    /**
     * The index of the object {@code #gpu.select_object} picks, or -1. As upstream, a target selects the
     * last object with an equal target.
     */
    public static int selectedObject(OffloadingHandlerAttr.SelectObject s, List<Attribute> objects) {
        return s.select(objects);
    }

    // ------------------------------------------------------------------ gpu.launch_func

    private static Value[] dims(Parser p, List<Parser.OperandRef> refs, Type t) {
        Value[] v = new Value[3];
        for (int i = 0; i < 3; i++) {
            v[i] = p.resolve(refs.get(i), t);
        }
        return v;
    }

    private static List<Parser.OperandRef> dimRefs(Parser p, String what) {
        p.expectKeyword("in");
        p.expectPunct('(');
        int off = p.offset();
        List<Parser.OperandRef> r = p.operandRefs();
        if (r.size() != 3) {
            throw p.errorAt(off, "Invalid " + what + " sizes (must be three values x, y, z): " + r.size());
        }
        p.expectPunct(')');
        return r;
    }

    private static Operation parseLaunch(Parser p, int n, Location loc) {
        Syntax.AsyncDeps deps = Syntax.asyncDeps(p);
        Value asyncObject = null;
        if (p.optionalPunct('<')) {
            Parser.OperandRef r = p.operandRef();
            p.expectPunct(':');
            asyncObject = p.resolve(r, p.type());
            p.expectPunct('>');
        }
        int kOff = p.offset();
        Attribute.SymbolRefAttr kernel = p.symbolRef();
        if (kernel.nested().size() != 1) {
            throw p.errorAt(kOff, "Invalid kernel (must be @module::@kernel): " + kernel);
        }
        List<Parser.OperandRef> cluster = null;
        if (p.optionalKeyword("clusters")) {
            cluster = dimRefs(p, "cluster");
        }
        p.expectKeyword("blocks");
        List<Parser.OperandRef> grid = dimRefs(p, "grid");
        p.expectKeyword("threads");
        List<Parser.OperandRef> block = dimRefs(p, "block");
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
                    Parser.OperandRef r = p.operandRef();
                    p.expectPunct(':');
                    args.add(p.resolve(r, p.type()));
                } while (p.optionalPunct(','));
                p.expectPunct(')');
            }
        }
        Map<String, Attribute> extra = p.optionalDictionary();
        Value[] c = cluster == null ? null : dims(p, cluster, dimType);
        LaunchFuncOp l = LaunchFuncOp.create(loc, kernel, deps.deps(), deps.async(), dims(p, grid, dimType),
                dims(p, block, dimType), c, smem, args, asyncObject);
        for (Map.Entry<String, Attribute> e : extra.entrySet()) {
            l.op().setAttr(e.getKey(), e.getValue());
        }
        return l.op();
    }

    private static void printLaunch(Printer p, Operation op) {
        LaunchFuncOp l = new LaunchFuncOp(op);
        Syntax.printAsyncDeps(p, l.asyncToken() != null, l.asyncDependencies());
        if (l.asyncObject() != null) {
            p.write(" <").operand(l.asyncObject()).write(" : ").type(l.asyncObject().type()).write('>');
        }
        p.write(' ').attr(l.kernel());
        if (l.hasClusters()) {
            p.write(" clusters in (").operands(op.segment(LaunchFuncOp.SEG_CLUSTER)).write(", ")
                    .operands(op.segment(LaunchFuncOp.SEG_CLUSTER + 1)).write(", ")
                    .operands(op.segment(LaunchFuncOp.SEG_CLUSTER + 2)).write(')');
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

    private static boolean verifySegments(Operation op, VerifyContext ctx, int count) {
        if (!(op.attr("operandSegmentSizes") instanceof Attribute.DenseArrayAttr seg) || seg.size() != count) {
            ctx.error(op, "Invalid operandSegmentSizes of " + op.name() + " (must be an array<i32> of " + count
                    + " sizes): " + op.attr("operandSegmentSizes"));
            return false;
        }
        long total = 0;
        for (long v : seg.values()) {
            if (v < 0) {
                ctx.error(op, "Invalid operandSegmentSizes of " + op.name() + " (must be >= 0): " + v);
                return false;
            }
            total += v;
        }
        if (total != op.operandCount()) {
            ctx.error(op, "Invalid operandSegmentSizes of " + op.name() + " (must add up to the "
                    + op.operandCount() + " operands): " + total);
            return false;
        }
        return true;
    }

    private static void verifyLaunch(Operation op, VerifyContext ctx) {
        if (!verifySegments(op, ctx, LaunchFuncOp.SEGMENTS)) {
            return;
        }
        Attribute.DenseArrayAttr seg = (Attribute.DenseArrayAttr) op.attr("operandSegmentSizes");
        for (int i = LaunchFuncOp.SEG_GRID; i < LaunchFuncOp.SEG_CLUSTER; i++) {
            if (seg.get(i) != 1) {
                ctx.error(op, "Invalid gpu.launch_func grid and block sizes (must be one value each): "
                        + seg.get(i));
                return;
            }
        }
        if (seg.get(LaunchFuncOp.SEG_SMEM) > 1 || seg.get(LaunchFuncOp.SEG_OBJECT) > 1
                || seg.get(7) != seg.get(8) || seg.get(8) != seg.get(9) || seg.get(7) > 1) {
            ctx.error(op, "Invalid operandSegmentSizes of gpu.launch_func (must have at most one cluster size per"
                    + " dimension, shared memory size and async object): " + seg);
            return;
        }
        verifyAsync(op, ctx);
        LaunchFuncOp l = new LaunchFuncOp(op);
        if (!(op.attr("kernel") instanceof Attribute.SymbolRefAttr k) || k.nested().size() != 1) {
            ctx.error(op, "Invalid kernel (must be @module::@kernel): " + op.attr("kernel"));
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
        Operation table = SymbolTables.enclosingTable(op);
        while (table != null && !table.name().equals(Builtin.ModuleOp.NAME)) {
            table = SymbolTables.enclosingTable(table);
        }
        if (table == null || !table.hasAttr("gpu.container_module")) {
            ctx.error(op, "Invalid gpu.launch_func (must be inside a module with the gpu.container_module"
                    + " attribute): " + (table == null ? "no module" : "module without it"));
        }
        Operation target = ctx.symbols().lookup(op, k.root());
        if (target == null || !(target.name().equals(BINARY) || target.name().equals(MODULE))) {
            ctx.error(op, "Invalid kernel module (must name a gpu.binary or gpu.module): @" + k.root());
            return;
        }
        if (target.name().equals(BINARY)) {
            return;
        }
        Operation fn = ctx.symbols().of(target).get(k.leaf());
        if (fn == null || !fn.name().equals(FUNC) || !fn.hasAttr("gpu.kernel")) {
            ctx.error(op, "Invalid kernel (must name a gpu.func kernel in @" + k.root() + "): " + k);
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
            if (!args.get(i).type().equals(ft.inputs().get(i))) {
                ctx.error(op, "Invalid kernel operand #" + i + " (must have type " + ft.inputs().get(i) + "): "
                        + args.get(i).type());
            }
        }
    }

    /** Rules shared by every async op: dependencies and result are tokens, at most one result token. */
    private static void verifyAsync(Operation op, VerifyContext ctx) {
        List<Value> deps = asyncDependencies(op);
        for (Value v : deps) {
            if (!(v.type() instanceof Type.AsyncTokenType)) {
                ctx.error(op, "Invalid async dependency (must be !gpu.async.token): " + v.type());
            }
        }
        if (op.name().equals(WAIT)) {
            for (Value v : op.operands()) {
                if (!(v.type() instanceof Type.AsyncTokenType)) {
                    ctx.error(op, "Invalid gpu.wait operand (must be !gpu.async.token): " + v.type());
                }
            }
        }
        int tokens = 0;
        for (Value r : op.results()) {
            if (r.type() instanceof Type.AsyncTokenType) {
                tokens++;
            }
        }
        int expectedOther = op.name().equals(ALLOC) ? 1 : 0;
        if (tokens > 1 || op.resultCount() - tokens != expectedOther) {
            ctx.error(op, "Invalid results of " + op.name() + " (must be " + (expectedOther == 1 ? "a memref and " : "")
                    + "at most one !gpu.async.token): " + Syntax.join(Syntax.types(op.results())));
        }
    }

    // ------------------------------------------------------------------ memory ops

    private static Operation parseAlloc(Parser p, int n, Location loc) {
        Syntax.AsyncDeps deps = Syntax.asyncDeps(p);
        boolean hostShared = p.optionalKeyword("host_shared");
        p.expectPunct('(');
        List<Parser.OperandRef> sizes = p.operandRefs();
        p.expectPunct(')');
        List<Parser.OperandRef> syms = new ArrayList<>();
        if (p.optionalPunct('[')) {
            syms = p.operandRefs();
            p.expectPunct(']');
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        p.expectPunct(':');
        int off = p.offset();
        Type t = p.type();
        if (!(t instanceof Type.MemRefType)) {
            throw p.errorAt(off, "Invalid gpu.alloc type (must be a ranked memref): " + t);
        }
        List<Value> ops = new ArrayList<>(deps.deps());
        ops.addAll(p.resolveAll(sizes, Type.INDEX));
        ops.addAll(p.resolveAll(syms, Type.INDEX));
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(deps.deps().size(), sizes.size(), syms.size()));
        if (hostShared) {
            attrs.put("hostShared", Attribute.UNIT);
        }
        List<Type> results = deps.async() ? List.of(t, Type.ASYNC_TOKEN) : List.of(t);
        return Operation.create(ALLOC, loc, ops, results, attrs);
    }

    private static void printAlloc(Printer p, Operation op) {
        AllocOp a = new AllocOp(op);
        Syntax.printAsyncDeps(p, a.asyncToken() != null, a.asyncDependencies());
        if (a.hostShared()) {
            p.write(" host_shared");
        }
        p.write(" (").operands(a.dynamicSizes()).write(')');
        List<Value> syms = op.segment(2);
        if (!syms.isEmpty()) {
            p.write('[').operands(syms).write(']');
        }
        p.attrDict(op, Set.of("operandSegmentSizes", "hostShared"));
        p.write(" : ").type(op.result(0).type());
    }

    private static void verifyAlloc(Operation op, VerifyContext ctx) {
        if (!verifySegments(op, ctx, 3)) {
            return;
        }
        verifyAsync(op, ctx);
        if (!(op.result(0).type() instanceof Type.MemRefType m)) {
            ctx.error(op, "Invalid gpu.alloc result (must be a ranked memref): " + op.result(0).type());
            return;
        }
        int dyn = m.dynamicDimCount();
        List<Value> sizes = op.segment(1);
        if (sizes.size() != dyn) {
            ctx.error(op, "Invalid gpu.alloc sizes (must give one index per dynamic dimension, " + dyn + "): "
                    + sizes.size() + " sizes");
        }
        for (Value v : sizes) {
            ctx.expectType(op, "gpu.alloc size", v, Type.INDEX);
        }
        if (!(m.elementType() instanceof Type.IntegerType || m.elementType() instanceof Type.FloatType
                || m.elementType() instanceof Type.IndexType)) {
            ctx.error(op, "Invalid gpu.alloc element type (must be an integer, index or float): " + m.elementType());
        }
        if (m.layout() != null) {
            ctx.error(op, "Invalid gpu.alloc layout (must be the identity layout): " + m.layout());
        }
    }

    private static Operation parseDealloc(Parser p, int n, Location loc) {
        Syntax.AsyncDeps deps = Syntax.asyncDeps(p);
        Parser.OperandRef m = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type t = p.type();
        List<Value> ops = new ArrayList<>(deps.deps());
        ops.add(p.resolve(m, t));
        return Operation.create(DEALLOC, loc, ops, deps.async() ? List.of(Type.ASYNC_TOKEN) : List.of(), attrs);
    }

    private static void printDealloc(Printer p, Operation op) {
        Syntax.printAsyncDeps(p, op.resultCount() > 0, asyncDependencies(op));
        Value m = op.operand(op.operandCount() - 1);
        p.write(' ').operand(m);
        p.attrDict(op, Set.of());
        p.write(" : ").type(m.type());
    }

    private static void verifyDealloc(Operation op, VerifyContext ctx) {
        verifyAsync(op, ctx);
        List<Value> rest = nonTokenOperands(op);
        if (rest.size() != 1 || !(rest.get(0).type() instanceof Type.MemRefType)) {
            ctx.error(op, "Invalid gpu.dealloc operand (must be one ranked memref): "
                    + Syntax.join(Syntax.types(rest)));
        }
    }

    private static Operation parseWait(Parser p, int n, Location loc) {
        Syntax.AsyncDeps deps = Syntax.asyncDeps(p);
        Map<String, Attribute> attrs = p.optionalDictionary();
        return Operation.create(WAIT, loc, deps.deps(), deps.async() ? List.of(Type.ASYNC_TOKEN) : List.of(), attrs);
    }

    private static void printWait(Printer p, Operation op) {
        Syntax.printAsyncDeps(p, op.resultCount() > 0, op.operands());
        p.attrDict(op, Set.of());
    }

    private static Operation parseHostRegister(Parser p, int n, Location loc) {
        Parser.OperandRef m = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        return Operation.create(HOST_REGISTER, loc, List.of(p.resolve(m, p.type())), List.of(), attrs);
    }

    private static Operation parseCopyLike(Parser p, Location loc, String name) {
        Syntax.AsyncDeps deps = Syntax.asyncDeps(p);
        Parser.OperandRef a = p.operandRef();
        p.expectPunct(',');
        Parser.OperandRef b = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type ta = p.type();
        p.expectPunct(',');
        Type tb = p.type();
        List<Value> ops = new ArrayList<>(deps.deps());
        ops.add(p.resolve(a, ta));
        ops.add(p.resolve(b, tb));
        return Operation.create(name, loc, ops, deps.async() ? List.of(Type.ASYNC_TOKEN) : List.of(), attrs);
    }

    private static void printCopyLike(Printer p, Operation op) {
        Syntax.printAsyncDeps(p, op.resultCount() > 0, asyncDependencies(op));
        List<Value> rest = nonTokenOperands(op);
        p.write(' ').operands(rest);
        p.attrDict(op, Set.of());
        p.write(" : ").types(Syntax.types(rest));
    }

    private static void verifyMemcpy(Operation op, VerifyContext ctx) {
        verifyAsync(op, ctx);
        List<Value> rest = nonTokenOperands(op);
        if (rest.size() != 2 || !(rest.get(0).type() instanceof Type.MemRefType d)
                || !(rest.get(1).type() instanceof Type.MemRefType s)) {
            ctx.error(op, "Invalid gpu.memcpy operands (must be two ranked memrefs): "
                    + Syntax.join(Syntax.types(rest)));
            return;
        }
        if (!d.elementType().equals(s.elementType()) || !java.util.Arrays.equals(d.shape(), s.shape())) {
            ctx.error(op, "Invalid gpu.memcpy operands (must have the same shape and element type): " + d + " and "
                    + s);
        }
    }

    private static void verifyMemset(Operation op, VerifyContext ctx) {
        verifyAsync(op, ctx);
        List<Value> rest = nonTokenOperands(op);
        if (rest.size() != 2 || !(rest.get(0).type() instanceof Type.MemRefType d)) {
            ctx.error(op, "Invalid gpu.memset operands (must be a ranked memref and a value): "
                    + Syntax.join(Syntax.types(rest)));
            return;
        }
        if (!rest.get(1).type().equals(d.elementType())) {
            ctx.error(op, "Invalid gpu.memset value (must have the element type " + d.elementType() + "): "
                    + rest.get(1).type());
        }
        Type e = d.elementType();
        int w = e instanceof Type.IntegerType i ? i.width() : e instanceof Type.FloatType f ? f.width() : 0;
        if (w != 16 && w != 32) {
            ctx.error(op, "Invalid gpu.memset element type (must be 16 or 32 bits wide): " + e);
        }
    }
}
