package dev.mgpu.codegen.internal.translate;

import dev.mgpu.codegen.internal.llvm.LlvmText;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.BinaryDescription;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.codegen.LLVMOffloadingHandler;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.NativeBuilder;
import dev.mgpu.codegen.NativeModule;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.llvm.LLVM.LLVMMetadataRef;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.llvm.LLVM;
import dev.mgpu.dialect.llvm.LLVMFunctionOps;
import dev.mgpu.dialect.llvm.LLVMKernelOps;
import dev.mgpu.dialect.memref.Allocations;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Supplier;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translates a verified model into an LLVM module, in fixed phases: declare every function, embed every
 * binary (the globals), then translate the bodies. Within a body, every block and its phis are created
 * first, then blocks are filled in dominance order, and branches add their phi operands. Value and block
 * maps are write-once.
 */
public final class ModuleTranslation {
    /** The translators of ops and globals. */
    private final OpTable<ModuleTranslation> table;
    public final LLVMContextRef ctx;
    public final LLVMModuleRef module;
    public final LLVMBuilderRef builder;
    public final Types types;
    public final HandlerContext handlers;
    public Streams streams;
    private final Map<Value, LLVMValueRef> values = new IdentityHashMap<>();
    /**
     * The values that stand for one place of the code alone, innermost first: a loop over a block's threads
     * on the CPU, one combination of a reduction's body. Each is write-once; an inner one may shadow.
     */
    private final Deque<Map<Value, LLVMValueRef>> scopes = new ArrayDeque<>();
    private final Map<Block, LLVMBasicBlockRef> blocks = new IdentityHashMap<>();
    private final Map<Block, List<LLVMValueRef>> phis = new IdentityHashMap<>();
    private final Map<String, LLVMValueRef> functions = new HashMap<>();
    /** A kernel module's functions, by name, as the gpu.module holds them. */
    private final Map<String, Operation> deviceFunctions = new HashMap<>();
    /** A kernel module's globals, by name. */
    private final Map<String, Operation> deviceGlobals = new HashMap<>();
    private final Map<String, BinaryDescription> binaries = new HashMap<>();
    private final Map<String, LLVMOffloadingHandler> binaryHandlers = new HashMap<>();

    /** The GPU target of a kernel module; null for host code. */
    public final DeviceTarget device;
    /** How kernels take their memrefs: what a kernel module's kernels expect, what the host's launches pass. */
    public final KernelArguments arguments;
    /** Where a host function's launches go: a new basic block every {@link LaunchBlocks#PER_BLOCK} of them. */
    public final LaunchBlocks launches = new LaunchBlocks();

    private ModuleTranslation(LLVMModuleRef module, LLVMBuilderRef builder, HandlerContext handlers, Types types,
            DeviceTarget device, OpTable<ModuleTranslation> table, boolean barePointers) {
        this.table = table;
        this.arguments = new KernelArguments(barePointers);
        this.module = module;
        this.ctx = LLVMGetModuleContext(module);
        this.builder = builder;
        this.handlers = handlers;
        this.types = types;
        this.device = device;
    }

    /** A translation of host code, whose handlers load and launch with {@code strategy}. */
    private static ModuleTranslation host(LLVMModuleRef module, LLVMBuilderRef builder, LoadStrategy strategy,
            OpTable<ModuleTranslation> table, boolean barePointers) {
        HandlerContext handlers = new HandlerContext(module, builder, strategy);
        return new ModuleTranslation(module, builder, handlers, new Types(LLVMGetModuleContext(module),
                handlers.runtime().intptrType()), null, table, barePointers);
    }

    /** A translation of kernels for {@code device}: no runtime, no handlers, memrefs as bare pointers. */
    private static ModuleTranslation device(LLVMModuleRef module, LLVMBuilderRef builder, DeviceTarget device,
            OpTable<ModuleTranslation> table, boolean barePointers) {
        LLVMContextRef ctx = LLVMGetModuleContext(module);
        return new ModuleTranslation(module, builder, null, new Types(ctx, LLVMInt64TypeInContext(ctx), device),
                device, table, barePointers);
    }

    /**
     * Translates the functions of {@code gpuModule}, a verified {@code gpu.module}, into {@code nm}'s
     * module, which has the device's triple and data layout. Kernels get the device's kernel calling
     * convention and their memrefs as {@link KernelArguments} says; memrefs are pointers to their element 0
     * in the device's address spaces.
     */
    public static void translateDevice(Operation gpuModule, NativeModule nm, DeviceTarget device,
            OpTable<ModuleTranslation> table, boolean barePointers, boolean debugInfo) {
        try (NativeBuilder b = new NativeBuilder(nm.context()); PointerScope scope = new PointerScope()) {
            ModuleTranslation t = device(nm.module(), b.get(), device, table, barePointers);
            t.withDebugInfo(debugInfo, gpuModule, () -> {
                t.translateDevice(gpuModule);
                if (t.debug != null) {
                    t.debug.describeTheRest(gpuModule);
                }
            });
        }
    }

    /** Declares, translates and finishes the functions of {@code gpuModule}. */
    private void translateDevice(Operation gpuModule) {
        List<Operation> ops = gpuModule.region(0).entry().operations();
        for (Operation op : ops) {
            if (isFunction(op)) {
                declareFunction(op);
            } else if (table.globals().containsKey(op.name())) {
                table.globals().get(op.name()).translate(op, this);
            }
        }
        device.planFunctions(this, gpuModule);
        for (Operation op : ops) {
            if (device.translatesItself(this, op)) {
                continue;
            } else if (isFunction(op) && !op.region(0).isEmpty()) {
                translateBody(op);
            } else if (!isFunction(op) && !op.name().equals(LLVMKernelOps.GLOBAL)
                    && !op.name().equals(Allocations.GlobalOp.NAME)) {
                throw error(op, "Invalid op in a gpu.module for " + device.name() + " (must be a function): "
                        + op.name());
            }
        }
        for (Operation op : ops) {
            if (isFunction(op) && isKernel(op)) {
                device.finishKernel(this, op, functions.get(op.symbolName()));
            }
        }
    }

    private boolean isKernel(Operation op) {
        return device != null && (op.hasAttr(GpuFuncOp.KERNEL_ATTR) || device.isKernelMarked(op));
    }

    private static boolean isFunction(Operation op) {
        String n = op.name();
        return n.equals(Func.FuncOp.NAME) || n.equals(LLVMFunctionOps.FuncOp.NAME) || n.equals(GpuFuncOp.NAME);
    }

    /**
     * Reports a function or kernel of the gpu.module named {@code name}, a function of {@code library} that the
     * compiled code calls, itself or through the back end (libm's {@code expf} for {@code llvm.exp.f32} on the
     * CPU): the call would reach the module's own.
     */
    public void reserveLibraryName(String library, String name) {
        Operation own = deviceFunctions.get(name);
        if (own != null && own.region(0).isEmpty()) {
            own = null; // a declaration of the library's function
        }
        if (own == null) {
            own = deviceGlobals.get(name);
        }
        if (own != null) {
            String what = deviceGlobals.get(name) == own ? "global" : "function";
            throw error(own, "Invalid " + what + " name for " + device.name() + " (must not be that of a " + library
                    + " function the compiled code calls): @" + name);
        }
    }

    /** Notes a global of a kernel module ({@code llvm.mlir.global} or {@code memref.global}), by its name. */
    public void noteGlobal(Operation global) {
        if (device != null) {
            deviceGlobals.put(global.symbolName(), global);
        }
    }

    /** Whether a call to the kernel module's function {@code callee} passes the target's hidden arguments. */
    public boolean takesHiddenArguments(String callee) {
        Operation f = deviceFunctions.get(callee);
        return device != null && f != null && !f.region(0).isEmpty();
    }

    /**
     * The function {@code name} of {@code library} (libdevice, ocml, the C library), which the compiled code
     * calls with type {@code type}: declared once. The gpu.module may declare it with that type, as a lowered
     * kernel declares libdevice's; a function of its own by that name is a located error, for calls meant for
     * the library would reach it, or the library's would replace it.
     */
    public LLVMValueRef libraryFunction(String library, String name, LLVMTypeRef type) {
        reserveLibraryName(library, name);
        LLVMValueRef fn = LLVMGetNamedFunction(module, name);
        if (fn == null || fn.isNull()) {
            return LLVMAddFunction(module, name, type);
        }
        Operation own = deviceFunctions.get(name);
        if (own != null && LLVMGlobalGetValueType(fn).address() != type.address()) {
            throw error(own, "Invalid declaration of @" + name + " for " + device.name()
                    + " (must have the type of " + library + "'s function, " + LlvmText.type(type) + "): "
                    + LlvmText.type(LLVMGlobalGetValueType(fn)));
        }
        return fn;
    }

    /** Maps kernel argument {@code a} from its parameters, the first at {@code first}; returns how many it took. */
    public int bindKernelArgument(Value a, Operation where, int first, KernelArguments.Parameters from) {
        List<LLVMTypeRef> ps = types.kernelParameters(a.type(), arguments.barePointers, where);
        LLVMTypeRef element = a.type() instanceof Type.MemRefType m ? types.of(m.elementType(), where) : null;
        map(a, arguments.bind(builder, types.intptr, element, a, ps, first, from));
        return ps.size();
    }

    public static MgpuException error(Operation op, String message) {
        return new MgpuException(op.knownLocation(), message);
    }

    /**
     * Translates {@code root}, which the verifier has passed, into {@code nm}'s module, which has its
     * target set. The pipeline is the only caller: it owns the steps around this one.
     */
    public static void translate(Operation root, NativeModule nm, LoadStrategy strategy, boolean debugInfo,
            OpTable<ModuleTranslation> table, boolean barePointers) {
        try (NativeBuilder b = new NativeBuilder(nm.context()); PointerScope scope = new PointerScope()) {
            ModuleTranslation t = host(nm.module(), b.get(), strategy, table, barePointers);
            t.withDebugInfo(debugInfo, root, () -> t.translate(root));
        }
    }

    /** Runs {@code body}, with DWARF line tables for what it translates when {@code on}, finished after it. */
    private void withDebugInfo(boolean on, Operation root, Runnable body) {
        DebugInfo.during(on, module, root, di -> debug = di, body);
    }

    /** DWARF line tables, with -g; else null. */
    private DebugInfo debug;

    /** {@return the line tables being built, with -g (a target that builds a kernel itself starts its own); else null} */
    public DebugInfo debugInfo() {
        return debug;
    }

    /** Runs every phase on {@code root}, a verified {@code builtin.module}. */
    private void translate(Operation root) {
        if (!root.name().equals(Builtin.ModuleOp.NAME)) {
            throw error(root, "Invalid translation root (must be a builtin.module): " + root.name());
        }
        streams = new Streams(root);
        Handlers.expectLaunchSites(root, handlers);
        List<Operation> top = root.region(0).entry().operations();
        for (Operation op : top) {
            boolean global = op.name().equals(LLVMKernelOps.GLOBAL) || op.name().equals(Allocations.GlobalOp.NAME);
            if (global && handlers.runtime().names().contains(op.symbolName())) {
                throw error(op, "Invalid global name (must not clash with a runtime function): @" + op.symbolName());
            }
            if (op.name().equals(Func.FuncOp.NAME) || op.name().equals(LLVMFunctionOps.FuncOp.NAME)) {
                declareFunction(op);
            } else if (table.globals().containsKey(op.name())) {
                // A global of the host; outlining copies the ones a kernel uses into its module.
                table.globals().get(op.name()).translate(op, this);
            }
        }
        for (Operation op : top) {
            if (op.name().equals(BinaryOp.NAME)) {
                embedBinary(new BinaryOp(op));
            }
        }
        for (Operation op : top) {
            String n = op.name();
            if (n.equals(Func.FuncOp.NAME) || n.equals(LLVMFunctionOps.FuncOp.NAME)) {
                if (!op.region(0).isEmpty()) {
                    translateBody(op);
                }
            } else if (!n.equals(BinaryOp.NAME) && !n.equals(GpuModuleOp.NAME) && !n.equals(LLVMKernelOps.GLOBAL)
                    && !n.equals(Allocations.GlobalOp.NAME)) {
                throw error(op, "Invalid top-level op for translation (must be a function, llvm.mlir.global,"
                        + " memref.global, gpu.binary or gpu.module): " + n);
            }
        }
        handlers.finish();
    }

    // ------------------------------------------------------------------ phase 1: functions

    private void declareFunction(Operation op) {
        Type.FunctionType ft = (Type.FunctionType) ((Attribute.TypeAttr) op.attr("function_type")).type();
        boolean isFunc = op.name().equals(Func.FuncOp.NAME) && device == null;
        boolean kernel = isKernel(op);
        List<LLVMTypeRef> params = new ArrayList<>();
        for (Type t : ft.inputs()) {
            if (kernel) {
                params.addAll(types.kernelParameters(t, arguments.barePointers, op));
            } else if (isFunc && t instanceof Type.MemRefType m) {
                params.addAll(types.expandedMemref(m, op));
            } else if (isFunc && t instanceof Type.UnrankedMemRefType) {
                params.addAll(types.expandedUnranked());
            } else {
                params.add(types.of(t, op));
            }
        }
        if (device != null && !op.region(0).isEmpty()) {
            // Not a declaration's: it is the library's (libm's on the CPU), which knows nothing of them.
            params.addAll(device.hiddenParameters(this));
        }
        LLVMTypeRef ret = types.results(ft.results(), op);
        LLVMTypeRef fnType;
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(params.toArray(new LLVMTypeRef[0]))) {
            fnType = LLVMFunctionType(ret, p, params.size(), 0);
        }
        String name = op.symbolName();
        if (device != null) {
            device.checkDeclaration(this, op, name, params,
                    kernel, op.region(0).isEmpty());
            LLVMValueRef fn = LLVMAddFunction(module, device.bodyName(name, op), fnType);
            deviceFunctions.put(name, op);
            if (kernel) {
                device.markKernel(fn, op, ctx);
            } else if (op.region(0).isEmpty()) {
                // A declaration: a device library's function (libdevice's __nv_*), linked later.
                LLVMSetLinkage(fn, LLVMExternalLinkage);
            } else {
                // Device functions are internal: only kernels are entry points of the object.
                LLVMSetLinkage(fn, LLVMInternalLinkage);
            }
            functions.put(name, fn);
            return;
        }
        if (handlers.runtime().names().contains(name)) {
            String want = LlvmText.type(handlers.runtime().type(name));
            String have = LlvmText.type(fnType);
            if (!want.equals(have)) {
                throw error(op, "Invalid function @" + name + " (must have the signature mgpu.h gives it, " + want
                        + "): " + have);
            }
        }
        LLVMValueRef existing = LLVMGetNamedFunction(module, name);
        if (existing != null && !existing.isNull()) {
            throw error(op, "Invalid function name (must not clash with a runtime function): @" + name);
        }
        LLVMValueRef fn = LLVMAddFunction(module, name, fnType);
        if (!op.region(0).isEmpty()) {
            if (isFunc) {
                if (op.attr("sym_visibility") instanceof Attribute.StringAttr v && v.value().equals("private")) {
                    LLVMSetLinkage(fn, LLVMInternalLinkage);
                }
            } else if (op.attr("linkage") instanceof Attribute.StringAttr l) {
                LLVMSetLinkage(fn, Types.linkage(l.value()));
            }
        }
        FunctionAttributes.apply(op, fn, ctx);
        functions.put(name, fn);
    }

    public LLVMValueRef function(String name, Operation user) {
        LLVMValueRef f = functions.get(name);
        if (f == null) {
            throw error(user, "Invalid callee (must be a function of this module): @" + name);
        }
        return f;
    }

    // ------------------------------------------------------------------ phase 2: binaries

    private void embedBinary(BinaryOp b) {
        List<ObjectAttr> objs = new ArrayList<>();
        for (Attribute a : b.objects()) {
            objs.add((ObjectAttr) a);
        }
        BinaryDescription d = new BinaryDescription(b.name(), b.handler(), objs, b.location());
        LLVMOffloadingHandler h = Handlers.forAttribute(b.handler(), b.op());
        h.embedBinary(d, handlers);
        binaries.put(b.name(), d);
        binaryHandlers.put(b.name(), h);
    }

    public BinaryDescription binary(String name) {
        return binaries.get(name);
    }

    public LLVMOffloadingHandler handlerOf(String binary) {
        return binaryHandlers.get(binary);
    }

    // ------------------------------------------------------------------ phase 3: bodies

    /** Declares and translates {@code fnOp}, a function of the kernel module made during its translation. */
    public void translateFunction(Operation fnOp) {
        declareFunction(fnOp);
        translateBody(fnOp);
    }

    private void translateBody(Operation fnOp) {
        LLVMValueRef fn = functions.get(fnOp.symbolName());
        Region body = fnOp.region(0);
        for (Block b : body.blocks()) {
            mapBlock(b, LLVMAppendBasicBlockInContext(ctx, fn, ""));
        }
        Block entry = body.entry();
        LLVMPositionBuilderAtEnd(builder, blocks.get(entry));
        if (debug != null) {
            debug.beginFunction(fn, fnOp, builder);
        }
        int p = 0;
        int declared = LLVMCountParams(fn) - (device == null ? 0 : device.hiddenParameters(this).size());
        boolean kernel = isKernel(fnOp);
        for (Value.BlockArgument a : entry.arguments()) {
            if (device != null) {
                if (kernel && p < declared) {
                    p += bindKernelArgument(a, fnOp, p, (i, type) -> LLVMGetParam(fn, i));
                } else if (p < declared) {
                    map(a, LLVMGetParam(fn, p++));
                } else {
                    // gpu.func attributions: workgroup memory and private memory of the kernel.
                    map(a, device.attribution(this, fnOp, a));
                }
            } else if (fnOp.name().equals(Func.FuncOp.NAME) && a.type() instanceof Type.MemRefType m) {
                int n = 3 + 2 * m.rank();
                LLVMValueRef[] fields = new LLVMValueRef[n];
                for (int i = 0; i < n; i++) {
                    fields[i] = LLVMGetParam(fn, p++);
                }
                map(a, types.packMemref(builder, m, fields, fnOp));
            } else if (fnOp.name().equals(Func.FuncOp.NAME) && a.type() instanceof Type.UnrankedMemRefType) {
                LLVMValueRef d = LLVMGetUndef(types.of(a.type(), fnOp));
                LLVMValueRef rank = LLVMGetParam(fn, p++);
                if (types.intptrWidth != 64) {
                    rank = LLVMBuildTrunc(builder, rank, types.intptr, "");
                }
                d = LLVMBuildInsertValue(builder, d, rank, 0, "");
                map(a, LLVMBuildInsertValue(builder, d, LLVMGetParam(fn, p++), 1, ""));
            } else {
                map(a, LLVMGetParam(fn, p++));
            }
        }
        for (Block b : body.blocks()) {
            if (b == entry) {
                continue;
            }
            LLVMPositionBuilderAtEnd(builder, blocks.get(b));
            List<LLVMValueRef> ps = new ArrayList<>();
            for (Value.BlockArgument a : b.arguments()) {
                LLVMValueRef phi = LLVMBuildPhi(builder, types.of(a.type(), fnOp), "");
                ps.add(phi);
                map(a, phi);
            }
            phis.put(b, ps);
        }
        for (Block b : Ir.dominanceOrder(body)) {
            LLVMPositionBuilderAtEnd(builder, blocks.get(b));
            for (Operation op : b.operations()) {
                translateOp(op);
            }
        }
        if (debug != null) {
            debug.endFunction(builder);
        }
    }

    public void translateOp(Operation op) {
        OpTable.OpTranslator<ModuleTranslation> t = table.ops().get(op.name());
        if (device != null && table.hostOnly().contains(op.name())) {
            throw error(op, "Invalid " + op.name() + " for " + device.name() + " (must be in host code: it calls the"
                    + " mgpu runtime, which device code has not)");
        }
        if (t == null) {
            throw error(op, device == null ? "Invalid op for translation (must have an LLVM translation): " + op.name()
                    : "Invalid op for " + device.name() + " (must have a translation for the target): " + op.name());
        }
        // Each op's instructions carry its line, an op in a region (a loop's body) included; the op around it
        // gets its own line back for what it builds after its region.
        LLVMMetadataRef outer = debug != null ? debug.at(op, builder) : null;
        t.translate(op, this);
        if (device == null && op.dialect().equals("gpu")) {
            table.afterGpuOp().translate(op, this);
        }
        if (debug != null) {
            LLVMSetCurrentDebugLocation2(builder, outer);
        }
    }

    // ------------------------------------------------------------------ maps

    /** Maps an IR value to its LLVM value; mapping a value twice is a bug. */
    public void map(Value v, LLVMValueRef llvm) {
        if ((scopes.isEmpty() ? values : scopes.peek()).putIfAbsent(v, llvm) != null) {
            throw new IllegalStateException("value mapped twice: " + v);
        }
    }

    /**
     * Runs {@code body} in a scope of its own: what it maps is forgotten afterwards, and may stand for values
     * mapped outside it (a value kept per thread, loaded anew in each loop over a block's threads).
     */
    public <T> T inScope(Supplier<T> body) {
        scopes.push(new IdentityHashMap<>());
        try {
            return body.get();
        } finally {
            scopes.pop();
        }
    }

    public LLVMValueRef lookup(Value v, Operation user) {
        for (Map<Value, LLVMValueRef> scope : scopes) {
            LLVMValueRef l = scope.get(v);
            if (l != null) {
                return l;
            }
        }
        LLVMValueRef l = values.get(v);
        if (l == null) {
            throw error(user, "Invalid operand of " + user.name() + " (must be translated before its use): " + v);
        }
        return l;
    }

    public List<LLVMValueRef> lookup(List<Value> vs, Operation user) {
        List<LLVMValueRef> out = new ArrayList<>(vs.size());
        for (Value v : vs) {
            out.add(lookup(v, user));
        }
        return out;
    }

    private void mapBlock(Block b, LLVMBasicBlockRef bb) {
        if (blocks.putIfAbsent(b, bb) != null) {
            throw new IllegalStateException("block mapped twice");
        }
    }

    public LLVMBasicBlockRef block(Block b) {
        return blocks.get(b);
    }

    /** Adds the incoming values of a branch from the builder's current block to {@code dest}'s phis. */
    public void addIncoming(Block dest, List<Value> args, Operation user) {
        List<LLVMValueRef> ps = phis.get(dest);
        if (ps == null) {
            if (!args.isEmpty()) {
                throw error(user, "Invalid branch (must not pass values to the entry block)");
            }
            return;
        }
        LLVMBasicBlockRef from = LLVMGetInsertBlock(builder);
        for (int i = 0; i < ps.size(); i++) {
            LLVMAddIncoming(ps.get(i), lookup(args.get(i), user), from, 1);
        }
    }

    /** Deletes the declared function {@code name}, which the target translates its own way or not at all. */
    public void deleteFunction(String name) {
        LLVMDeleteFunction(functions.remove(name));
    }

    /**
     * An alloca of {@code type} in the entry block of the function being built, so that the back end places it
     * in the frame once, however often the code around it runs.
     */
    public LLVMValueRef entryAlloca(LLVMTypeRef type) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(builder);
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(here));
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        if (first != null && !first.isNull()) {
            LLVMPositionBuilderBefore(builder, first);
        } else {
            LLVMPositionBuilderAtEnd(builder, entry);
        }
        LLVMValueRef p = LLVMBuildAlloca(builder, type, "");
        LLVMPositionBuilderAtEnd(builder, here);
        return p;
    }

    /** {@code p} in address space {@code as}: itself, or an {@code addrspacecast} of it. */
    public LLVMValueRef addressSpaceCast(LLVMValueRef p, int as) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == as) {
            return p;
        }
        return LLVMBuildAddrSpaceCast(builder, p, LLVMPointerTypeInContext(ctx, as), "");
    }
}
