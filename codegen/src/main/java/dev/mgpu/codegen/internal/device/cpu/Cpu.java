package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.codegen.internal.llvm.NativeTargetMachine;
import dev.mgpu.codegen.internal.llvm.TargetCpus;
import dev.mgpu.codegen.internal.llvm.Targets;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.Types;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import java.util.ArrayList;
import java.util.Map;
import java.util.function.IntFunction;
import dev.mgpu.dialect.gpu.AddressSpaceAttr;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import java.util.List;
import java.util.Set;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMetadataRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The CPU, through the host's LLVM back end, into a shared object that follows the CPU kernel ABI of
 * {@code mgpu.h}: each kernel {@code k} is exported as {@code void k(void **params, const mgpuCpuGrid *g)},
 * which runs a whole block (the marker {@code k.mgpu_block} says so). A kernel whose threads work together
 * (barriers, shuffles, workgroup memory) becomes loops over the threads between its barriers
 * ({@link WorkItemLoops}); any other kernel's body is a function of one thread, which the entry point
 * calls in a loop over the block's threads. Every function gets the grid as a hidden last parameter, and
 * the indices are read from it. A subgroup is 32 consecutive threads of the block.
 */
public final class Cpu extends DeviceTarget {
    private final GpuTarget.CpuTarget c;

    public Cpu(GpuTarget.CpuTarget c) {
        super(c);
        this.c = c;
    }

    @Override
    public String triple() {
        return CpuObjects.tripleOf(c);
    }

    @Override
    public String chip() {
        return c.chip();
    }

    @Override
    public String features() {
        return c.features();
    }

    @Override
    public int optLevel() {
        return c.optLevel();
    }

    @Override
    public int kernelCallingConvention() {
        return 0;
    }

    @Override
    public int privateAddressSpace() {
        return 0;
    }

    @Override
    public int addressSpace(Attribute space, Operation where) {
        return 0; // workgroup memory is on the stack of the call that runs the block
    }

    @Override
    public boolean isKernelMarked(Operation op) {
        return false;
    }

    @Override
    public void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
        LLVMSetLinkage(fn, LLVMInternalLinkage);
    }

    @Override
    public String bodyName(String name, Operation op) {
        return op.hasAttr(GpuFuncOp.KERNEL_ATTR) ? name + ".body" : name;
    }

    @Override
    public List<LLVMTypeRef> hiddenParameters(ModuleTranslation t) {
        return List.of(LLVMPointerTypeInContext(t.ctx, 0));
    }

    @Override
    public List<LLVMValueRef> hiddenArguments(ModuleTranslation t) {
        return List.of(grid(t));
    }

    /**
     * The current function's {@code mgpuCpuGrid} pointer, its last parameter; in the loops over a block's
     * threads, the block's grid with the current thread's index.
     */
    private LLVMValueRef grid(ModuleTranslation t) {
        if (workItems != null) {
            return workItems.grid();
        }
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
        return LLVMGetParam(fn, LLVMCountParams(fn) - 1);
    }

    /** Field {@code index} of {@code mgpuCpuGrid}'s int64_t arrays (gridDim, blockDim, blockIdx, threadIdx). */
    private LLVMValueRef field(ModuleTranslation t, CpuGrid.Array array, int dim) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMValueRef[] idx = {LLVMConstInt(i64, CpuGrid.word(array, dim), 0)};
        LLVMValueRef p;
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
            p = LLVMBuildInBoundsGEP2(t.builder, i64, grid(t), pp, 1, "");
        }
        LLVMValueRef v = LLVMBuildLoad2(t.builder, i64, p, "");
        return LLVMBuildTrunc(t.builder, v, i32Type(t), "");
    }

    @Override
    public LLVMValueRef threadId(ModuleTranslation t, int dim) {
        return workItems != null ? workItems.threadId(dim) : field(t, CpuGrid.Array.THREAD_IDX, dim);
    }

    @Override
    public LLVMValueRef blockId(ModuleTranslation t, int dim) {
        return field(t, CpuGrid.Array.BLOCK_IDX, dim);
    }

    @Override
    public LLVMValueRef blockDim(ModuleTranslation t, int dim) {
        return field(t, CpuGrid.Array.BLOCK_DIM, dim);
    }

    @Override
    public LLVMValueRef gridDim(ModuleTranslation t, int dim) {
        return field(t, CpuGrid.Array.GRID_DIM, dim);
    }

    @Override
    public LLVMValueRef laneId(ModuleTranslation t) {
        if (workItems != null) {
            return workItems.laneId();
        }
        // (z * blockDim.y + y) * blockDim.x + x, modulo the subgroup's size.
        LLVMValueRef z = field(t, CpuGrid.Array.THREAD_IDX, 2);
        LLVMValueRef row = LLVMBuildAdd(t.builder, LLVMBuildMul(t.builder, z, field(t, CpuGrid.Array.BLOCK_DIM, 1), ""), field(t, CpuGrid.Array.THREAD_IDX, 1), "");
        LLVMValueRef lin = LLVMBuildAdd(t.builder, LLVMBuildMul(t.builder, row, field(t, CpuGrid.Array.BLOCK_DIM, 0), ""), field(t, CpuGrid.Array.THREAD_IDX, 0), "");
        return LLVMBuildAnd(t.builder, lin, i32(t, WorkItemLoops.SUBGROUP - 1), "");
    }

    @Override
    public LLVMValueRef subgroupSize(ModuleTranslation t) {
        return i32(t, WorkItemLoops.SUBGROUP);
    }

    @Override
    public void barrier(ModuleTranslation t) {
        throw new IllegalStateException("a barrier for the CPU ends a loop over threads and is not translated");
    }

    @Override
    public LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
            LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask) {
        throw new IllegalStateException("a shuffle for the CPU reads another thread's value of its operand");
    }

    @Override
    public Set<String> nativeF32() {
        return Set.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign", "exp2", "log2", "exp",
                "log", "sin", "cos", "pow");
    }

    @Override
    public String libraryFunction(String kind, boolean f64) {
        return switch (kind) {
            case "tanh", "erf" -> kind + (f64 ? "" : "f");
            default -> LIBM.contains(kind) ? kind + (f64 ? "" : "f") : null;
        };
    }

    @Override
    public boolean libraryAvailable() {
        return true; // the C library's libm, which the shared object links
    }

    @Override
    public String libraryName() {
        return "libm";
    }

    /**
     * The exported entry point {@code void name(void **params, const mgpuCpuGrid *g)}, which runs a whole
     * block (mgpu.h; the marker {@code name.mgpu_block} says so): it reads each argument from
     * {@code params[i]} once, copies the grid into a local one, and loops over the threads of the block
     * (z, y, x; x innermost), setting the local grid's thread index and calling the body, which LLVM
     * inlines, so that the loop over x can be vectorised.
     */
    @Override
    public void finishKernel(ModuleTranslation t, Operation op, LLVMValueRef body) {
        if (blockKernels.contains(op)) {
            return;
        }
        LLVMValueRef entry = entryPoint(t, op);
        LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(t.ctx, entry, "");
        LLVMPositionBuilderAtEnd(t.builder, start);
        int n = LLVMCountParams(body) - 1;
        LLVMTypeRef bodyType = LLVMGlobalGetValueType(body);
        LLVMValueRef[] args = new LLVMValueRef[n + 1];
        LLVMTypeRef[] types = new LLVMTypeRef[n];
        for (int i = 0; i < n; i++) {
            types[i] = LLVMTypeOf(LLVMGetParam(body, i));
            args[i] = argument(t, entry, i, types[i]);
        }
        exportParams(t, op.symbolName(), types);
        LLVMValueRef local = localGrid(t, entry);
        args[n] = local;
        LLVMValueRef[] dims = new LLVMValueRef[3];
        for (int d = 0; d < 3; d++) {
            dims[d] = blockSize(t, entry, d);
        }
        LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(t.ctx, entry, "");
        ThreadNest nest = ThreadNest.open(t, local, dims, (d, index) -> { });
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(args)) {
            LLVMBuildCall2(t.builder, bodyType, body, pp, n + 1, "");
        }
        nest.close();
        LLVMBuildBr(t.builder, exit);
        LLVMPositionBuilderAtEnd(t.builder, exit);
        LLVMBuildRetVoid(t.builder);
    }

    /**
     * The exported entry point {@code void name(void **params, const mgpuCpuGrid *g)} of {@code kernel},
     * with the marker that tells the runtime it runs a whole block.
     */
    public static LLVMValueRef entryPoint(ModuleTranslation t, Operation kernel) {
        String name = kernel.symbolName();
        LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
        LLVMTypeRef ft;
        try (PointerPointer<LLVMTypeRef> pp = new PointerPointer<>(new LLVMTypeRef[] {ptr, ptr})) {
            ft = LLVMFunctionType(LLVMVoidTypeInContext(t.ctx), pp, 2, 0);
        }
        LLVMValueRef entry = LLVMAddFunction(t.module, name, ft);
        addMarker(t, name);
        return entry;
    }

    /**
     * The symbol {@code name.mgpu_block_size} (three {@code int64_t}): the only block size the entry point
     * runs, whatever the launch says (its loops run the kernel's {@code known_block_size}), so that the
     * runtime refuses any other (mgpu.h).
     */
    public static void exportBlockSize(ModuleTranslation t, String name, long[] size) {
        exportWords(t, name + ".mgpu_block_size", new long[] {size[0], size[1], size[2]});
    }

    /**
     * The symbol {@code name.mgpu_params} ({@code int64_t}: the count, then each argument's size in bytes, as the
     * entry point loads it from {@code params[i]}), so that the runtime can copy the arguments of a launch
     * that runs after the launch call has returned (mgpu.h).
     */
    public static void exportParams(ModuleTranslation t, String name, LLVMTypeRef[] types) {
        long[] words = new long[types.length + 1];
        words[0] = types.length;
        for (int i = 0; i < types.length; i++) {
            words[i + 1] = LLVMStoreSizeOfType(LLVMGetModuleDataLayout(t.module), types[i]);
        }
        exportWords(t, name + ".mgpu_params", words);
    }

    /** A constant array of {@code int64_t} exported as {@code symbol}. */
    private static void exportWords(ModuleTranslation t, String symbol, long[] words) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMValueRef[] values = new LLVMValueRef[words.length];
        for (int i = 0; i < words.length; i++) {
            values[i] = LLVMConstInt(i64, words[i], 0);
        }
        LLVMValueRef value;
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(values)) {
            value = LLVMConstArray2(i64, pp, values.length);
        }
        LLVMValueRef g = LLVMAddGlobal(t.module, LLVMTypeOf(value), symbol);
        LLVMSetInitializer(g, value);
        LLVMSetGlobalConstant(g, 1);
    }

    /** Argument {@code i} of an entry point's kernel, of {@code type}: {@code *(type *)params[i]}. */
    public static LLVMValueRef argument(ModuleTranslation t, LLVMValueRef entry, int i, LLVMTypeRef type) {
        LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
        LLVMValueRef argPtr = LLVMBuildLoad2(t.builder, ptr, gep(t, ptr, LLVMGetParam(entry, 0), i), "");
        return LLVMBuildLoad2(t.builder, type, argPtr, "");
    }

    /** A copy of an entry point's grid on its stack, whose thread index the loops over threads set. */
    public static LLVMValueRef localGrid(ModuleTranslation t, LLVMValueRef entry) {
        // mgpuCpuGrid: int64_t gridDim[3], blockDim[3], blockIdx[3], threadIdx[3]; void *sharedMemory.
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMValueRef local = LLVMBuildAlloca(t.builder, LLVMArrayType2(i64, CpuGrid.WORDS), "");
        LLVMSetAlignment(local, 8);
        LLVMBuildMemCpy(t.builder, local, 8, LLVMGetParam(entry, 1), 8, LLVMConstInt(i64, CpuGrid.BYTES, 0));
        return local;
    }

    /** Size {@code dim} of the block an entry point runs, from its grid. */
    public static LLVMValueRef blockSize(ModuleTranslation t, LLVMValueRef entry, int dim) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        return LLVMBuildLoad2(t.builder, i64, gep(t, i64, LLVMGetParam(entry, 1), CpuGrid.word(CpuGrid.Array.BLOCK_DIM, dim)), "");
    }

    /** The symbol {@code kernel.mgpu_block}, which tells the runtime that {@code kernel} runs a whole block. */
    private static void addMarker(ModuleTranslation t, String kernel) {
        LLVMValueRef marker = LLVMAddGlobal(t.module, LLVMInt8TypeInContext(t.ctx), kernel + ".mgpu_block");
        LLVMSetInitializer(marker, LLVMConstInt(LLVMInt8TypeInContext(t.ctx), 1, 0));
        LLVMSetGlobalConstant(marker, 1);
    }

    private static LLVMValueRef gep(ModuleTranslation t, LLVMTypeRef element, LLVMValueRef base, long index) {
        LLVMValueRef[] idx = {LLVMConstInt(LLVMInt64TypeInContext(t.ctx), index, 0)};
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
            return LLVMBuildInBoundsGEP2(t.builder, element, base, pp, 1, "");
        }
    }

    /** The functions of the module, by name. */
    private java.util.Map<String, Operation> functions = java.util.Map.of();
    /** The functions that hold barriers or shuffles: inlined into the kernels, not translated on their own. */
    private Set<String> inlined = Set.of();
    /** The kernels whose threads work together, which run as loops over threads ({@link WorkItemLoops}). */
    private final Set<Operation> blockKernels = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    /**
     * Kernels whose threads work together run as loops over threads, with the functions that hold barriers or
     * shuffles inlined; those functions are not translated on their own.
     */
    @Override
    public void planFunctions(ModuleTranslation t, Operation gpuModule) {
        functions = WorkItemInliner.functions(gpuModule);
        inlined = WorkItemInliner.collectiveFunctions(functions);
        for (Operation op : gpuModule.region(0).entry().operations()) {
            if (op.name().equals(GpuFuncOp.NAME) && op.hasAttr(GpuFuncOp.KERNEL_ATTR)
                    && WorkItemInliner.needed(op, functions)) {
                blockKernels.add(op);
                t.deleteFunction(op.symbolName());
            } else if (inlined.contains(op.symbolName())) {
                t.deleteFunction(op.symbolName());
            }
        }
    }

    @Override
    public boolean translatesItself(ModuleTranslation t, Operation op) {
        if (blockKernels.contains(op)) {
            WorkItemLoops.translate(t, this, op, functions, inlined);
            return true;
        }
        return inlined.contains(op.symbolName());
    }

    // ------------------------------------------------------------------ what the kernel translators ask

    /** While a kernel runs as loops over its block's threads: those loops (else null). */
    public WorkItemLoops workItems;

    /** The most bytes one array of a kernel's frame may have on the CPU: a worker's stack is 8 MiB. */
    private static final long FRAME_ARRAY = 1L << 20;

    /** Barriers end the loops over threads, and shuffles read other threads' values from memory, there alone. */
    @Override
    public boolean runsTogether(Operation op) {
        return workItems != null && !op.name().equals(dev.mgpu.dialect.gpu.BarrierOp.NAME);
    }

    @Override
    public boolean readsAnyLane() {
        return true;
    }

    @Override
    public LLVMValueRef laneValue(ModuleTranslation t, dev.mgpu.ir.Value operand, LLVMValueRef lane, Operation user) {
        return workItems.exchange(operand, lane, user);
    }

    @Override
    public LLVMValueRef privateMemory(ModuleTranslation t, Operation alloca, LLVMTypeRef type, int align) {
        return workItems == null ? null : workItems.privateMemory(alloca, type, align);
    }

    /** mgpuCpuGrid.sharedMemory: the block's own bytes. */
    @Override
    public LLVMValueRef dynamicSharedMemory(ModuleTranslation t) {
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
        LLVMValueRef grid = LLVMGetParam(fn, LLVMCountParams(fn) - 1);
        LLVMValueRef[] idx = {LLVMConstInt(LLVMInt64TypeInContext(t.ctx), CpuGrid.SHARED_MEMORY_OFFSET, 0)};
        LLVMValueRef p;
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
            p = LLVMBuildInBoundsGEP2(t.builder, LLVMInt8TypeInContext(t.ctx), grid, pp, 1, "");
        }
        return LLVMBuildLoad2(t.builder, LLVMPointerTypeInContext(t.ctx, 0), p, "");
    }

    @Override
    public void checkWorkgroupAttribution(Operation fnOp) {
        throw ModuleTranslation.error(fnOp, "Invalid workgroup attribution for " + name() + " (must be"
                + " a kernel's: the CPU keeps workgroup memory for the call that runs a block)");
    }

    /** An array in a kernel's frame is on a worker's stack: more than {@link #FRAME_ARRAY} bytes is a located error. */
    @Override
    public void checkFrameArray(dev.mgpu.ir.Type.MemRefType m, long count, Operation where) {
        long bytes = count > FRAME_ARRAY ? Long.MAX_VALUE : count * Types.elementSize(m.elementType(), where);
        if (bytes > FRAME_ARRAY) {
            throw ModuleTranslation.error(where, "Invalid memref for " + name() + " (must be at most "
                    + FRAME_ARRAY + " bytes: it is on a worker thread's stack): " + m);
        }
    }

    /** A global in workgroup memory would be shared by the blocks that run in parallel. */
    @Override
    public void checkGlobalSpace(Operation op, int as, boolean initialized) {
        if (as == 3) {
            throw ModuleTranslation.error(op, "Invalid llvm.mlir.global in workgroup memory (addr_space = 3) for "
                    + name() + " (must be a kernel's workgroup attribution, which is each block's own)");
        }
    }

    @Override
    public int memrefGlobalSpace(ModuleTranslation t, Operation op, dev.mgpu.ir.Type.MemRefType m, boolean constant) {
        Attribute space = m.memorySpace();
        if (!(space == null || space instanceof Attribute.IntegerAttr i && i.value() == 0
                || space instanceof AddressSpaceAttr a && a.space().equals("global"))) {
            throw ModuleTranslation.error(op, "Invalid memory space of memref.global for " + name() + " (must"
                    + " be the generic or global one: workgroup memory is each block's own): " + space);
        }
        return t.types.addressSpace(m, op);
    }

    /** The C library's {@code printf}. */
    /** As CUDA's device assertions report: see {@link CpuAssertions}. */
    @Override
    public void assertFailed(ModuleTranslation t, Operation op, byte[] message) {
        CpuAssertions.failed(this, t, op, message);
    }

    @Override
    public void printf(ModuleTranslation t, LLVMValueRef fmt, List<LLVMValueRef> args) {
        LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
        LLVMTypeRef ft;
        try (PointerPointer<LLVMTypeRef> ps = new PointerPointer<>(new LLVMTypeRef[] {LLVMPointerTypeInContext(t.ctx,
                0)})) {
            ft = LLVMFunctionType(i32, ps, 1, 1);
        }
        LLVMValueRef fn = t.libraryFunction("C library", "printf", ft);
        libraryUsed("printf");
        // LLVM may print a plain string with puts or a character with putchar.
        t.reserveLibraryName("C library", "puts");
        t.reserveLibraryName("C library", "putchar");
        args.add(0, fmt);
        try (PointerPointer<LLVMValueRef> as = new PointerPointer<>(args.toArray(new LLVMValueRef[0]))) {
            LLVMBuildCall2(t.builder, ft, fn, as, args.size(), "");
        }
    }

    /** The back end may compute it with libm's function of that name. */
    @Override
    public void nativeMathUsed(ModuleTranslation t, String intrinsic, int width) {
        if (!intrinsic.equals("fabs") && !intrinsic.equals("copysign")) {
            t.reserveLibraryName(libraryName(), intrinsic + (width == 32 ? "f" : ""));
        }
    }

    // ------------------------------------------------------------------ compiling and serialising

    @Override
    public void initBackend() {
        Targets.initDeviceTarget(false);
    }

    @Override
    public void checkChip(String chip, String features, dev.mgpu.ir.Location where) {
        TargetCpus.check(triple(), chip, features, where);
    }

    @Override
    public NativeTargetMachine machine(Operation module, String chip, String features, dev.mgpu.ir.Location where) {
        return Targets.machine(triple(), codegenOptions(), module);
    }

    /** As {@link #machine} resolves it: {@code native} is this machine's CPU. */
    @Override
    public String backendCpu() {
        return Targets.cpu(codegenOptions());
    }

    /** As {@link #machine} resolves them: {@code native}'s are this machine's. */
    @Override
    public String backendFeatures() {
        return Targets.features(codegenOptions());
    }

    private dev.mgpu.codegen.CodegenOptions codegenOptions() {
        return new dev.mgpu.codegen.CodegenOptions(Math.max(0, Math.min(3, optLevel())),
                chip() == null || chip().isEmpty() ? null : chip(), features() == null || features().isEmpty() ? null
                : features());
    }

    /** libm and the C library are linked by the shared object, not into the module. */
    @Override
    public boolean linksLibrary() {
        return false;
    }

    /** From libm or the C library, which the shared object links. */
    @Override
    public boolean providesUndefined(String name) {
        return libraryCalls.contains(name);
    }

    /**
     * Bound when the runtime loads the kernels, from the C library or libm; the link of the shared object
     * refuses what they lack ({@link #sharedObject}).
     */
    @Override
    public boolean bindsAtLoad(String name, Operation decl, KernelOptions options) {
        return decl != null;
    }

    /** The conversion helpers that the back end calls and the C compiler's library may lack. */
    @Override
    public void beforeEmit(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
        CpuBuiltins.add(module, ctx, where);
    }

    /** Kernels run in the host process: -g gives them line tables too, and gdb stops in them. */
    @Override
    public boolean debuggedOnHost() {
        return true;
    }

    /** The frames of a kernel's entry point and body, and its workgroup memory ({@link CpuResources}). */
    @Override
    public Map<String, String> resourceUsage(Operation module, String assembly) {
        return CpuResources.usage(module, assembly);
    }

    /** A host object, linked into a shared object of the CPU kernel ABI; or its assembly. */
    @Override
    public ObjectAttr serialize(Operation module, ObjectFormat format, Map<String, Attribute> props, KernelOptions options,
            IntFunction<byte[]> emit) {
        byte[] obj = emit.apply(format == ObjectFormat.ASSEMBLY ? LLVMAssemblyFile : LLVMObjectFile);
        return format == ObjectFormat.ASSEMBLY ? object(format, props, obj)
                : object(ObjectFormat.BINARY, props, CpuObjects.sharedObject(module, obj));
    }
}
