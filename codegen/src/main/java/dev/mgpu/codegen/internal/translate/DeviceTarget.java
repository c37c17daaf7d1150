package dev.mgpu.codegen.internal.translate;

import dev.mgpu.codegen.internal.llvm.NativeTargetMachine;
import dev.mgpu.codegen.internal.llvm.TargetCpus;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.dialect.gpu.AddressSpaceAttr;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.util.List;
import java.util.Set;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.llvm.LLVM.LLVMTargetRef;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMetadataRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What differs between the GPU targets when kernels are translated: the triple, the kernel calling
 * convention, the address spaces, and how the special registers, barriers, shuffles and math functions are
 * reached. One instance per {@code #nvvm.target} or {@code #rocdl.target} of a {@code gpu.module}.
 *
 * <p>Every intrinsic used here is one the target's LLVM back end lowers: an intrinsic it cannot lower
 * aborts the process inside LLVM, so anything else is refused with a located error before LLVM sees it.
 */
public abstract class DeviceTarget implements CodeGeneration {
    /** The target attribute, as the {@code gpu.module} lists it. */
    public final GpuTarget attr;
    /** The device library to link (libdevice), or null when there is none. */
    public java.nio.file.Path library;
    /** The functions of {@link #library} that the translation called. */
    public final Set<String> libraryCalls = new java.util.TreeSet<>();

    /** Whether a device library can be linked. */
    public boolean libraryAvailable() {
        return library != null;
    }

    /** Notes that the translation called {@code function} of the device library. */
    public void libraryUsed(String function) {
        libraryCalls.add(function);
    }

    public DeviceTarget(GpuTarget attr) {
        this.attr = attr;
    }

    /**
     * Parameters every function of the kernel module gets after its own: what the target's kernels reach
     * their place in the grid through (none on GPUs, which have special registers).
     */
    public List<LLVMTypeRef> hiddenParameters(ModuleTranslation t) {
        return List.of();
    }

    /** The values a call passes for {@link #hiddenParameters}: the caller's own. */
    public List<LLVMValueRef> hiddenArguments(ModuleTranslation t) {
        return List.of();
    }

    /** The LLVM name of the function {@code name} of the model. */
    public String bodyName(String name, Operation op) {
        return name;
    }

    /**
     * Applies what the target attribute asks of the whole module once its functions are translated: NVVM's
     * {@code flags} ({@code ftz}, {@code fast}), ROCDL's code-object version ({@code abi}).
     */
    public void configureModule(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
    }

    /** What the target adds to the optimised {@code module} before the back end compiles it. */
    public void beforeEmit(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
    }

    /** Sets the string attribute {@code key = value} on every function defined in {@code module}. */
    public static void setOnDefinedFunctions(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, String key,
            String value) {
        for (LLVMValueRef f = LLVMGetFirstFunction(module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            if (LLVMIsDeclaration(f) == 0) {
                LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ctx, key, key.length(),
                        value, value.length()));
            }
        }
    }

    /**
     * Decides, once the functions of {@code gpuModule} are declared, which of them the target translates its
     * own way ({@link #translatesItself}).
     */
    public void planFunctions(ModuleTranslation t, Operation gpuModule) {
    }

    /** Translates {@code op} of the kernel module its own way, or leaves it out, and says so; false for the rest. */
    public boolean translatesItself(ModuleTranslation t, Operation op) {
        return false;
    }

    /** Completes a translated kernel, such as with the entry point of the target's kernel ABI. */
    public void finishKernel(ModuleTranslation t, Operation op, LLVMValueRef fn) {
    }

    /** The target's name in messages, such as {@code #nvvm.target<chip = "sm_90">}. */
    public String name() {
        return attr.toString();
    }

    public abstract String triple();

    public abstract String chip();

    public abstract String features();

    public abstract int optLevel();

    /** The LLVM calling convention of kernels. */
    public abstract int kernelCallingConvention();

    /** The address space of private memory (allocas). */
    public abstract int privateAddressSpace();

    /** Whether an {@code llvm.func} carries the target's kernel marker ({@code nvvm.kernel}, {@code rocdl.kernel}). */
    public abstract boolean isKernelMarked(Operation op);

    /** Makes {@code fn} a kernel: its calling convention and what the target reads of the op's hints. */
    public void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
        LLVMSetFunctionCallConv(fn, kernelCallingConvention());
    }

    /**
     * The LLVM address space of a memref's memory space: none is the generic (flat) space, the symbolic
     * spaces are the target's global, workgroup and private spaces, an integer is taken as it is.
     */
    public int addressSpace(Attribute space, Operation where) {
        if (space == null) {
            return 0;
        }
        if (space instanceof AddressSpaceAttr a) {
            switch (a.space()) {
                case "global": return 1;
                case "workgroup": return 3;
                default: return privateAddressSpace();
            }
        }
        if (space instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() < (1 << 24)) {
            return (int) i.value();
        }
        throw new MgpuException(where.knownLocation(), "Invalid memory space for " + name()
                + " (must be #gpu.address_space<...> or an integer): " + space);
    }

    // ------------------------------------------------------------------ the thread's place

    /** The i32 index of the thread in its block along {@code dim} (0, 1, 2). */
    public abstract LLVMValueRef threadId(ModuleTranslation t, int dim);

    /** The i32 index of the block in the grid along {@code dim}. */
    public abstract LLVMValueRef blockId(ModuleTranslation t, int dim);

    /** The i32 size of the block along {@code dim}. */
    public abstract LLVMValueRef blockDim(ModuleTranslation t, int dim);

    /** The i32 number of blocks in the grid along {@code dim}. */
    public abstract LLVMValueRef gridDim(ModuleTranslation t, int dim);

    /** The i32 lane of the thread in its subgroup. */
    public abstract LLVMValueRef laneId(ModuleTranslation t);

    /** The i32 number of lanes of a subgroup. */
    public abstract LLVMValueRef subgroupSize(ModuleTranslation t);

    /** Waits for every thread of the block, with workgroup memory made consistent. */
    public abstract void barrier(ModuleTranslation t);

    /**
     * The 32-bit {@code value} of lane {@code src} of the subgroup, where {@code src} is computed and
     * checked by the caller; {@code mode} and the operands are the op's, for targets with a shuffle
     * instruction of their own. {@code mask} (i32) names the lanes that take part where not all of them
     * exist (the last subgroup of a block of 48 threads), for targets whose shuffle names them; null for the
     * whole subgroup. Returns {value, valid} where the target computes validity itself, else {value, null}.
     */
    public abstract LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
            LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask);

    /** The lanes of a subgroup: 32 on NVIDIA and the CPU; an AMD wavefront's 64 or 32. */
    public int subgroupLanes() {
        return 32;
    }

    // ------------------------------------------------------------------ compiling and serialising

    /** Reports a chip or features that the target's back end does not know (located at {@code where}). */
    public void checkChip(String chip, String features, dev.mgpu.ir.Location where) {
        TargetCpus.checkKnown(triple(), chip, features, where);
    }

    /** Finds the device library to link, if the target has one ({@link #library}). */
    public void findLibrary() {
    }

    /** Initialises the LLVM back end of the target, once per process. */
    public abstract void initBackend();

    /** The target machine the kernel module is compiled with. */
    public NativeTargetMachine machine(Operation module, String chip, String features, dev.mgpu.ir.Location where) {
        initBackend();
        LLVMTargetRef target = new LLVMTargetRef();
        BytePointer err = new BytePointer((Pointer) null);
        try (BytePointer triple = new BytePointer(triple())) {
            if (LLVMGetTargetFromTriple(triple, target, err) != 0) {
                String m = err.getString();
                LLVMDisposeMessage(err);
                throw new MgpuException(where, "Invalid target triple of " + name() + " (must be known to LLVM): "
                        + triple() + ": " + m);
            }
        }
        int level = switch (optLevel()) {
            case 0 -> LLVMCodeGenLevelNone;
            case 1 -> LLVMCodeGenLevelLess;
            case 2 -> LLVMCodeGenLevelDefault;
            default -> LLVMCodeGenLevelAggressive;
        };
        return new NativeTargetMachine(LLVMCreateTargetMachine(target, triple(), chip(),
                features() == null ? "" : features(), level, LLVMRelocPIC, LLVMCodeModelDefault));
    }

    /** An object of this target in {@code format}, with the object properties {@code props}. */
    public dev.mgpu.dialect.gpu.ObjectAttr object(dev.mgpu.dialect.gpu.ObjectFormat format, java.util.Map<String, Attribute> props,
            byte[] blob) {
        return new dev.mgpu.dialect.gpu.ObjectAttr(attr, format, new Attribute.DictionaryAttr(props),
                new Attribute.StringAttr(blob));
    }

    /** Whether the device library is linked into the kernel module: when it has been called. */
    public boolean linksLibrary() {
        return !libraryCalls.isEmpty();
    }

    /** Whether the device library takes f32 denormals as flushed to zero. */
    public boolean flushesF32Denormals() {
        return false;
    }

    /**
     * Whether the undefined function {@code name} of the kernel module is provided where it runs (the
     * driver's {@code vprintf}, a device library's or the C library's function the translation called).
     */
    public boolean providesUndefined(String name) {
        return false;
    }

    /**
     * Whether the function {@code name} that the gpu.module declares ({@code decl}, or null) is bound when the
     * kernels are loaded, as the CPU's are; noted through {@code options} where this process lacks it.
     */
    public boolean bindsAtLoad(String name, Operation decl, dev.mgpu.codegen.KernelOptions options) {
        return false;
    }

    /** What the message of an undefined function {@code name} adds: where else it could come from. */
    public String undefinedHint(String name) {
        return "";
    }

    /**
     * The object of {@code module}'s translated and optimised kernel module in {@code format} (not
     * offload), with the object properties {@code props}: what {@code emit} makes of it for an LLVM file type
     * ({@code LLVMAssemblyFile}, {@code LLVMObjectFile}), finished by the target's tools.
     */
    public abstract dev.mgpu.dialect.gpu.ObjectAttr serialize(Operation module, dev.mgpu.dialect.gpu.ObjectFormat format,
            java.util.Map<String, Attribute> props, dev.mgpu.codegen.KernelOptions options,
            java.util.function.IntFunction<byte[]> emit);

    // ------------------------------------------------------------------ what the back end cannot take

    /**
     * Reports, as a located error, what the target's back end cannot take in the declaration of function
     * {@code op} (a kernel when {@code kernel}, a declaration when {@code declaration}) named {@code name},
     * with LLVM parameter types {@code params}: such input would end the process inside LLVM.
     */
    public void checkDeclaration(ModuleTranslation t, Operation op, String name, List<LLVMTypeRef> params,
            boolean kernel, boolean declaration) {
    }

    /**
     * Reports a symbol named {@code name} (of a global, {@code local} when only the module sees it) that the
     * target's back end cannot name.
     */
    public void checkSymbolName(Operation op, String name, boolean local) {
    }

    /**
     * Reports a cast {@code kind} (its op's name without the dialect) from {@code from} to {@code to} that the
     * target's back end cannot lower.
     */
    public void checkCast(Operation op, String kind, dev.mgpu.ir.Type from, dev.mgpu.ir.Type to) {
    }

    /** The bytes of {@code params} as a struct of them, aligned as the module's data layout aligns them. */
    public static long parameterBytes(ModuleTranslation t, List<LLVMTypeRef> params) {
        LLVMTypeRef struct;
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(params.toArray(new LLVMTypeRef[0]))) {
            struct = LLVMStructTypeInContext(t.ctx, p, params.size(), 0);
        }
        return LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), struct);
    }

    // ------------------------------------------------------------------ what the kernel translators ask

    /**
     * Whether {@code op}, which needs the threads of a block together (a barrier, a shuffle, a reduction),
     * can be translated where it is: on a GPU always; on the CPU only inside the loops over a kernel's threads.
     */
    public boolean runsTogether(Operation op) {
        return true;
    }

    /** Reports an op that exchanges values between lanes where the target cannot (a located error). */
    public void checkExchange(Operation op) {
    }

    /**
     * The value of {@code operand} in lane {@code lane} (i32) of the current thread's subgroup, where the
     * target keeps every thread's values in memory (the CPU); null where lanes exchange values through
     * {@link #shuffle32}.
     */
    public LLVMValueRef laneValue(ModuleTranslation t, dev.mgpu.ir.Value operand, LLVMValueRef lane, Operation user) {
        return null;
    }

    /**
     * Whether {@link #laneValue} reads any lane's value directly (the CPU keeps every thread's values in
     * memory), so that a reduction reads its cluster's values rather than exchanging them in a butterfly.
     */
    public boolean readsAnyLane() {
        return false;
    }

    /** Whether a shuffle names the lanes that take part ({@code mask} of {@link #shuffle32}). */
    public boolean shuffleNamesLanes() {
        return false;
    }

    /**
     * Memory for a {@code memref.alloca} of {@code type} that the target places itself (the CPU's per-thread
     * copies in the loops over threads), or null for an alloca in the function's entry block.
     */
    public LLVMValueRef privateMemory(ModuleTranslation t, Operation alloca, LLVMTypeRef type, int align) {
        return null;
    }

    /** The pointer to the block's dynamic shared memory: a zero-sized external workgroup global. */
    public LLVMValueRef dynamicSharedMemory(ModuleTranslation t) {
        String name = "__mgpu_dynamic_shared_memory";
        LLVMValueRef g = LLVMGetNamedGlobal(t.module, name);
        if (g == null || g.isNull()) {
            g = LLVMAddGlobalInAddressSpace(t.module, LLVMArrayType2(LLVMInt8TypeInContext(t.ctx), 0), name, 3);
            LLVMSetAlignment(g, 16);
            LLVMSetLinkage(g, LLVMExternalLinkage);
        }
        return g;
    }

    /**
     * The memory of a {@code gpu.func} attribution: workgroup memory is a global of the workgroup address
     * space, one per kernel and attribution; private memory is an alloca.
     */
    public LLVMValueRef attribution(ModuleTranslation t, Operation fnOp, dev.mgpu.ir.Value.BlockArgument a) {
        GpuFuncOp f = new GpuFuncOp(fnOp);
        int index = fnOp.region(0).entry().arguments().indexOf(a) - f.type().inputs().size();
        dev.mgpu.ir.Type.MemRefType m = (dev.mgpu.ir.Type.MemRefType) a.type();
        LLVMTypeRef arr = t.types.arrayOf(m, fnOp);
        int as = t.types.addressSpace(m, fnOp);
        boolean workgroup = index < f.workgroupCount();
        LLVMValueRef memory;
        if (workgroup) {
            checkWorkgroupAttribution(fnOp);
            memory = LLVMAddGlobalInAddressSpace(t.module, arr, "__mgpu_wg_" + fnOp.symbolName() + "_" + index,
                    addressSpace(new AddressSpaceAttr("workgroup"), fnOp));
            LLVMSetInitializer(memory, LLVMGetUndef(arr));
            LLVMSetLinkage(memory, LLVMInternalLinkage);
            // The element type's alignment unless the attribution asks for more, as upstream's lowering does. A
            // larger default let LLVM make vector loads of workgroup memory that nvcc and upstream do not make,
            // and ptxas then unrolled the loop around them four times (tiled matmul: 217 instructions, 95 now).
            // Stated, because LLVM takes a global of more than 16 bytes without one as aligned to 16.
            long align = f.attributionAlignment(index);
            LLVMSetAlignment(memory, align > 0 ? (int) align
                    : LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(t.module), arr));
        } else {
            memory = LLVMBuildAlloca(t.builder, arr, "");
            if (f.attributionAlignment(index) > 0) {
                LLVMSetAlignment(memory, (int) f.attributionAlignment(index));
            }
        }
        // The memory is the kind's own whatever space the type names (none, or a number, as upstream takes): seen
        // through the generic space, or through any from the generic space it was made in (NVPTX's allocas);
        // a cast between two other spaces is one the back ends cannot make.
        int made = LLVMGetPointerAddressSpace(LLVMTypeOf(memory));
        if (made != 0 && as != made && as != 0) {
            throw ModuleTranslation.error(fnOp, "Invalid " + (workgroup ? "workgroup" : "private") + " attribution for "
                    + name() + " (must be in address space " + made + " or the generic one, 0): " + m);
        }
        return t.addressSpaceCast(memory, as);
    }

    /** Reports a workgroup attribution of a function that is not a kernel, where the target cannot place one. */
    public void checkWorkgroupAttribution(Operation fnOp) {
    }

    /** Reports an array of {@code count} elements of {@code m} in a function's frame that the target cannot hold. */
    public void checkFrameArray(dev.mgpu.ir.Type.MemRefType m, long count, Operation where) {
    }

    /**
     * Reports a global of the kernel module in an address space the back end cannot place a global in (it
     * would end the process), or an initialized one in workgroup memory, which every block gets undefined.
     */
    public void checkGlobalSpace(Operation op, int as, boolean initialized) {
        if (as != 0 && as != 1 && as != 3 && as != 4) {
            throw ModuleTranslation.error(op, "Invalid address space of " + op.name() + " for " + name()
                    + " (must be generic, global, workgroup or constant memory: 0, 1, 3 or 4): " + as);
        }
        if (as == 3 && initialized) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " in workgroup memory for " + name()
                    + " (must have no initial value: every block's workgroup memory starts undefined)");
        }
    }

    /**
     * The LLVM address space of a {@code memref.global} of {@code m}: the memref's, where the generic space is
     * placed in global memory on a GPU (constant memory on AMD when {@code constant}).
     */
    public int memrefGlobalSpace(ModuleTranslation t, Operation op, dev.mgpu.ir.Type.MemRefType m, boolean constant) {
        int as = t.types.addressSpace(m, op);
        return as == 0 ? 1 : as;
    }

    /**
     * The format string of {@code gpu.printf}, {@code text} (NUL-terminated), as a private constant global,
     * reached through a generic pointer; a target that cannot print reports a located error.
     */
    public LLVMValueRef printfFormat(ModuleTranslation t, Operation op, LLVMValueRef text) {
        return formatGlobal(t, text, 0);
    }

    /** A private constant global holding {@code text}, in address space {@code as}. */
    public static LLVMValueRef formatGlobal(ModuleTranslation t, LLVMValueRef text, int as) {
        LLVMValueRef g = LLVMAddGlobalInAddressSpace(t.module, LLVMTypeOf(text), "__mgpu_printf_format", as);
        LLVMSetInitializer(g, text);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
        LLVMSetAlignment(g, 1);
        return g;
    }

    /**
     * The failing side of {@code cf.assert} {@code op}, with its {@code message}: the target reports it as its
     * own assertions do, and ends the block, the thread stopped.
     */
    public abstract void assertFailed(ModuleTranslation t, Operation op, byte[] message);

    /** A private constant C string of {@code bytes} in address space {@code as}, reached through a generic pointer. */
    public static LLVMValueRef cString(ModuleTranslation t, byte[] bytes, int as) {
        LLVMValueRef text;
        try (org.bytedeco.javacpp.BytePointer b = new org.bytedeco.javacpp.BytePointer(bytes)) {
            text = LLVMConstStringInContext2(t.ctx, b, bytes.length, 0);
        }
        LLVMValueRef g = formatGlobal(t, text, as);
        return as == 0 ? g : LLVMBuildAddrSpaceCast(t.builder, g, LLVMPointerTypeInContext(t.ctx, 0), "");
    }

    /**
     * Where {@code op} is, for an assertion's message, as upstream's lowering finds it: its file and line, and
     * the name its location gives (a call site's callee, {@code "f"(file:line:col)}) or else its function's
     * (empty where unknown).
     */
    public static Object[] place(Operation op) {
        String file = "";
        int line = 0;
        String function = null;
        dev.mgpu.ir.Location at = op.location();
        if (at instanceof dev.mgpu.ir.Location.Named n) {
            function = n.name();
            at = n.child();
        }
        if (!(at instanceof dev.mgpu.ir.Location.FileLineCol)) {
            at = op.knownLocation();
        }
        if (at instanceof dev.mgpu.ir.Location.FileLineCol f) {
            file = f.file();
            line = f.line();
        }
        for (Operation o = op.parentOp(); function == null && o != null; o = o.parentOp()) {
            function = o.symbolName();
        }
        return new Object[] {file, line, function == null ? "" : function};
    }

    /** Prints {@code args} (promoted as for a C variadic call) with the format {@code fmt} of {@link #printfFormat}. */
    public abstract void printf(ModuleTranslation t, LLVMValueRef fmt, java.util.List<LLVMValueRef> args);

    /**
     * Notes that the math intrinsic {@code intrinsic} of {@code width}-bit floats is used, which the back end
     * may compute with a library function of the same name (the CPU's libm).
     */
    public void nativeMathUsed(ModuleTranslation t, String intrinsic, int width) {
    }

    /** The dialect of lowered ops that the target takes ({@code nvvm}, {@code rocdl}), or null. */
    public String loweredDialect() {
        return null;
    }

    // ------------------------------------------------------------------ math

    /** The math functions the back end lowers natively for f32, by intrinsic base name. */
    public abstract Set<String> nativeF32();

    /**
     * The device-library function for {@code kind} on {@code f32} or {@code f64} when the target has such
     * a library, else null.
     */
    public abstract String libraryFunction(String kind, boolean f64);

    /** The name of the device library in messages. */
    public abstract String libraryName();

    // ------------------------------------------------------------------ helpers

    /** Calls the intrinsic {@code name} of type {@code ret (args...)}, declaring it once. */
    public static LLVMValueRef call(ModuleTranslation t, String name, LLVMTypeRef ret, LLVMValueRef... args) {
        LLVMTypeRef ft = functionType(ret, args);
        LLVMValueRef fn = LLVMGetNamedFunction(t.module, name);
        if (fn == null || fn.isNull()) {
            fn = LLVMAddFunction(t.module, name, ft);
        }
        return call(t, fn, ft, args);
    }

    /**
     * Calls the function {@code name} of the target's library ({@link #libraryName}, or the C library's
     * {@code aligned_alloc} and {@code free} on the CPU), of type {@code ret (args...)}; a function of the
     * gpu.module by that name is a located error.
     */
    public static LLVMValueRef callLibrary(ModuleTranslation t, String library, String name, LLVMTypeRef ret,
            LLVMValueRef... args) {
        LLVMTypeRef ft = functionType(ret, args);
        return call(t, t.libraryFunction(library, name, ft), ft, args);
    }

    private static LLVMTypeRef functionType(LLVMTypeRef ret, LLVMValueRef... args) {
        LLVMTypeRef[] ps = new LLVMTypeRef[args.length];
        for (int i = 0; i < args.length; i++) {
            ps[i] = LLVMTypeOf(args[i]);
        }
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(ps)) {
            return LLVMFunctionType(ret, p, ps.length, 0);
        }
    }

    private static LLVMValueRef call(ModuleTranslation t, LLVMValueRef fn, LLVMTypeRef ft, LLVMValueRef... args) {
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(args)) {
            return LLVMBuildCall2(t.builder, ft, fn, p, args.length, "");
        }
    }

    public static LLVMValueRef i32(ModuleTranslation t, long v) {
        return LLVMConstInt(LLVMInt32TypeInContext(t.ctx), v, 1);
    }

    public static LLVMTypeRef i32Type(ModuleTranslation t) {
        return LLVMInt32TypeInContext(t.ctx);
    }

    public static final String XYZ = "xyz";

    /** The math functions that are exact and lowered natively for every float type on both targets. */
    public static final List<String> EXACT = List.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign",
            "roundeven");

    /**
     * Functions that no target computes natively: libdevice has them as {@code __nv_<name>[f]} and the C
     * library as {@code <name>[f]}; on AMD they need ocml.
     */
    public static final Set<String> LIBM = Set.of("tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
            "log10", "log1p", "expm1", "cbrt", "erfc", "atan2");
}
