package dev.mgpu.codegen.internal;

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
abstract class DeviceTarget {
    /** The target attribute, as the {@code gpu.module} lists it. */
    final GpuTarget attr;
    /** The device library to link (libdevice), or null when there is none. */
    java.nio.file.Path library;
    /** The functions of {@link #library} that the translation called. */
    final Set<String> libraryCalls = new java.util.TreeSet<>();

    /** Whether a device library can be linked. */
    boolean libraryAvailable() {
        return library != null;
    }

    /** Notes that the translation called {@code function} of the device library. */
    void libraryUsed(String function) {
        libraryCalls.add(function);
    }

    private DeviceTarget(GpuTarget attr) {
        this.attr = attr;
    }

    /**
     * Parameters every function of the kernel module gets after its own: what the target's kernels reach
     * their place in the grid through (none on GPUs, which have special registers).
     */
    List<LLVMTypeRef> hiddenParameters(ModuleTranslation t) {
        return List.of();
    }

    /** The values a call passes for {@link #hiddenParameters}: the caller's own. */
    List<LLVMValueRef> hiddenArguments(ModuleTranslation t) {
        return List.of();
    }

    /** The LLVM name of the function {@code name} of the model. */
    String bodyName(String name, Operation op) {
        return name;
    }

    /**
     * Applies what the target attribute asks of the whole module once its functions are translated: NVVM's
     * {@code flags} ({@code ftz}, {@code fast}), ROCDL's code-object version ({@code abi}).
     */
    void configureModule(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
    }

    /** Sets the string attribute {@code key = value} on every function defined in {@code module}. */
    static void setOnDefinedFunctions(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, String key,
            String value) {
        for (LLVMValueRef f = LLVMGetFirstFunction(module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            if (LLVMIsDeclaration(f) == 0) {
                LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ctx, key, key.length(),
                        value, value.length()));
            }
        }
    }

    /** Completes a translated kernel, such as with the entry point of the target's kernel ABI. */
    void finishKernel(ModuleTranslation t, Operation op, LLVMValueRef fn) {
    }

    /** The device target for {@code attr}, or null when mgpu does not compile kernels for it. */
    static DeviceTarget of(GpuTarget attr) {
        if (attr instanceof GpuTarget.CpuTarget c) {
            return new Cpu(c);
        }
        if (attr instanceof GpuTarget.NVVMTarget n) {
            return new Nvptx(n);
        }
        if (attr instanceof GpuTarget.ROCDLTarget r) {
            return new Amdgpu(r);
        }
        return null;
    }

    /** The target's name in messages, such as {@code #nvvm.target<chip = "sm_90">}. */
    String name() {
        return attr.toString();
    }

    abstract String triple();

    abstract String chip();

    abstract String features();

    abstract int optLevel();

    /** The LLVM calling convention of kernels. */
    abstract int kernelCallingConvention();

    /** The address space of private memory (allocas). */
    abstract int privateAddressSpace();

    /** Whether an {@code llvm.func} carries the target's kernel marker ({@code nvvm.kernel}, {@code rocdl.kernel}). */
    abstract boolean isKernelMarked(Operation op);

    /** Makes {@code fn} a kernel: its calling convention and what the target reads of the op's hints. */
    void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
        LLVMSetFunctionCallConv(fn, kernelCallingConvention());
    }

    /**
     * The LLVM address space of a memref's memory space: none is the generic (flat) space, the symbolic
     * spaces are the target's global, workgroup and private spaces, an integer is taken as it is.
     */
    int addressSpace(Attribute space, Operation where) {
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
    abstract LLVMValueRef threadId(ModuleTranslation t, int dim);

    /** The i32 index of the block in the grid along {@code dim}. */
    abstract LLVMValueRef blockId(ModuleTranslation t, int dim);

    /** The i32 size of the block along {@code dim}. */
    abstract LLVMValueRef blockDim(ModuleTranslation t, int dim);

    /** The i32 number of blocks in the grid along {@code dim}. */
    abstract LLVMValueRef gridDim(ModuleTranslation t, int dim);

    /** The i32 lane of the thread in its subgroup. */
    abstract LLVMValueRef laneId(ModuleTranslation t);

    /** The i32 number of lanes of a subgroup. */
    abstract LLVMValueRef subgroupSize(ModuleTranslation t);

    /** Waits for every thread of the block, with workgroup memory made consistent. */
    abstract void barrier(ModuleTranslation t);

    /**
     * The 32-bit {@code value} of lane {@code src} of the subgroup, where {@code src} is computed and
     * checked by the caller; {@code mode} and the operands are the op's, for targets with a shuffle
     * instruction of their own. {@code mask} (i32) names the lanes that take part where not all of them
     * exist (the last subgroup of a block of 48 threads), for targets whose shuffle names them; null for the
     * whole subgroup. Returns {value, valid} where the target computes validity itself, else {value, null}.
     */
    abstract LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
            LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask);

    /** The lanes of a subgroup: 32 on NVIDIA and the CPU; an AMD wavefront's 64 or 32. */
    int subgroupLanes() {
        return 32;
    }

    // ------------------------------------------------------------------ math

    /** The math functions the back end lowers natively for f32, by intrinsic base name. */
    abstract Set<String> nativeF32();

    /**
     * The device-library function for {@code kind} on {@code f32} or {@code f64} when the target has such
     * a library, else null.
     */
    abstract String libraryFunction(String kind, boolean f64);

    /** The name of the device library in messages. */
    abstract String libraryName();

    // ------------------------------------------------------------------ helpers

    /** Calls the intrinsic {@code name} of type {@code ret (args...)}, declaring it once. */
    static LLVMValueRef call(ModuleTranslation t, String name, LLVMTypeRef ret, LLVMValueRef... args) {
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
    static LLVMValueRef callLibrary(ModuleTranslation t, String library, String name, LLVMTypeRef ret,
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

    static LLVMValueRef i32(ModuleTranslation t, long v) {
        return LLVMConstInt(LLVMInt32TypeInContext(t.ctx), v, 1);
    }

    static LLVMTypeRef i32Type(ModuleTranslation t) {
        return LLVMInt32TypeInContext(t.ctx);
    }

    private static final String XYZ = "xyz";

    /** NVIDIA GPUs through LLVM's NVPTX back end. */
    static final class Nvptx extends DeviceTarget {
        private final GpuTarget.NVVMTarget n;

        Nvptx(GpuTarget.NVVMTarget n) {
            super(n);
            this.n = n;
        }

        @Override
        String triple() {
            return n.triple();
        }

        @Override
        String chip() {
            return n.chip();
        }

        @Override
        String features() {
            return n.features();
        }

        @Override
        int optLevel() {
            return n.optLevel();
        }

        /** Whether {@code flags} asks for flush-to-zero of denormals ({@code ftz}). */
        boolean ftz() {
            return n.flags() != null && n.flags().entries().containsKey("ftz");
        }

        /** Whether {@code flags} asks for fast, approximate math ({@code fast}). */
        boolean fast() {
            return n.flags() != null && n.flags().entries().containsKey("fast");
        }

        /**
         * {@code ftz}: f32 denormals flush to zero (the back end then picks the {@code .ftz} forms);
         * {@code fast}: unsafe and approximate float math allowed (approximate division, square root).
         */
        @Override
        void configureModule(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
            if (ftz()) {
                setOnDefinedFunctions(module, ctx, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
            }
            if (fast()) {
                setOnDefinedFunctions(module, ctx, "unsafe-fp-math", "true");
                setOnDefinedFunctions(module, ctx, "approx-func-fp-math", "true");
            }
        }

        @Override
        int kernelCallingConvention() {
            return 71; // ptx_kernel
        }

        /**
         * The block size a kernel promises ({@code known_block_size}) is its {@code .maxntid}, as upstream's
         * lowering makes it: ptxas may then give each thread more registers, and the driver refuses a
         * launch of larger blocks instead of running it. A lowered function's {@code nvvm.maxntid} and
         * {@code nvvm.reqntid} become its {@code .maxntid} and {@code .reqntid}.
         */
        @Override
        void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
            super.markKernel(fn, op, ctx);
            annotate(fn, ctx, "maxntid", op.name().equals(GpuFuncOp.NAME) ? op.attr("known_block_size")
                    : op.attr("nvvm.maxntid"));
            annotate(fn, ctx, "reqntid", op.attr("nvvm.reqntid"));
        }

        /** {@code !nvvm.annotations} entries {@code key}x, y and z for each size of {@code sizes}, if any. */
        private static void annotate(LLVMValueRef fn, LLVMContextRef ctx, String key, Attribute sizes) {
            if (!(sizes instanceof Attribute.DenseArrayAttr d)) {
                return;
            }
            LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
            for (int dim = 0; dim < d.size(); dim++) {
                String name = key + XYZ.charAt(dim);
                LLVMMetadataRef[] entry = {LLVMValueAsMetadata(fn), LLVMMDStringInContext2(ctx, name, name.length()),
                    LLVMValueAsMetadata(LLVMConstInt(i32, d.get(dim), 0))};
                try (PointerPointer<LLVMMetadataRef> pp = new PointerPointer<>(entry)) {
                    LLVMAddNamedMetadataOperand(LLVMGetGlobalParent(fn), "nvvm.annotations",
                            LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, pp, entry.length)));
                }
            }
        }

        @Override
        int privateAddressSpace() {
            return 0; // allocas live in the generic space; the back end moves them to local memory
        }

        @Override
        boolean isKernelMarked(Operation op) {
            return op.hasAttr("nvvm.kernel");
        }

        private static LLVMValueRef sreg(ModuleTranslation t, String reg) {
            return call(t, "llvm.nvvm.read.ptx.sreg." + reg, i32Type(t));
        }

        @Override
        LLVMValueRef threadId(ModuleTranslation t, int dim) {
            return sreg(t, "tid." + XYZ.charAt(dim));
        }

        @Override
        LLVMValueRef blockId(ModuleTranslation t, int dim) {
            return sreg(t, "ctaid." + XYZ.charAt(dim));
        }

        @Override
        LLVMValueRef blockDim(ModuleTranslation t, int dim) {
            return sreg(t, "ntid." + XYZ.charAt(dim));
        }

        @Override
        LLVMValueRef gridDim(ModuleTranslation t, int dim) {
            return sreg(t, "nctaid." + XYZ.charAt(dim));
        }

        @Override
        LLVMValueRef laneId(ModuleTranslation t) {
            return sreg(t, "laneid");
        }

        @Override
        LLVMValueRef subgroupSize(ModuleTranslation t) {
            return i32(t, 32);
        }

        @Override
        void barrier(ModuleTranslation t) {
            call(t, "llvm.nvvm.barrier0", LLVMVoidTypeInContext(t.ctx));
        }

        @Override
        LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
                LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask) {
            // shfl.sync over segments of `width` lanes: c = (32 - width) << 8 | (up ? 0 : 31), as PTX defines
            // the segment. Every segment takes part, so the mask is the whole warp, which must run the shuffle
            // together (as nvcc's __shfl_xor_sync(0xffffffff, ...) and upstream's lowering assume), unless the
            // caller names the lanes that exist.
            LLVMValueRef seg = LLVMBuildShl(t.builder, LLVMBuildSub(t.builder, i32(t, 32), width, ""), i32(t, 8), "");
            LLVMValueRef clamp = mode.equals("up") ? seg : LLVMBuildOr(t.builder, seg, i32(t, 31), "");
            LLVMValueRef members = mask != null ? mask : i32(t, -1);
            String m = switch (mode) {
                case "xor" -> "bfly";
                case "up" -> "up";
                case "down" -> "down";
                default -> "idx";
            };
            LLVMTypeRef ty = LLVMTypeOf(value);
            boolean isFloat = LLVMGetTypeKind(ty) == LLVMFloatTypeKind;
            LLVMTypeRef[] fields = {ty, LLVMInt1TypeInContext(t.ctx)};
            LLVMTypeRef pair;
            try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(fields)) {
                pair = LLVMStructTypeInContext(t.ctx, p, 2, 0);
            }
            LLVMValueRef r = call(t, "llvm.nvvm.shfl.sync." + m + "." + (isFloat ? "f32p" : "i32p"), pair, members, value,
                    offset, clamp);
            return new LLVMValueRef[] {LLVMBuildExtractValue(t.builder, r, 0, ""), LLVMBuildExtractValue(t.builder, r,
                    1, "")};
        }

        @Override
        Set<String> nativeF32() {
            return Set.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign", "exp2");
        }

        @Override
        String libraryFunction(String kind, boolean f64) {
            String base = switch (kind) {
                case "exp", "exp2", "log", "log2", "sin", "cos", "tanh", "erf", "pow", "sqrt", "rsqrt" -> kind;
                default -> LIBM.contains(kind) ? kind : null;
            };
            return base == null ? null : "__nv_" + base + (f64 ? "" : "f");
        }

        @Override
        String libraryName() {
            return "libdevice";
        }
    }

    /** AMD GPUs through LLVM's AMDGPU back end, code object version 5. */
    static final class Amdgpu extends DeviceTarget {
        private final GpuTarget.ROCDLTarget r;

        Amdgpu(GpuTarget.ROCDLTarget r) {
            super(r);
            this.r = r;
        }

        @Override
        String triple() {
            return r.triple();
        }

        @Override
        String chip() {
            return r.chip();
        }

        @Override
        String features() {
            return r.features();
        }

        @Override
        int optLevel() {
            return r.optLevel();
        }

        @Override
        int kernelCallingConvention() {
            return 91; // amdgpu_kernel
        }

        /**
         * The code-object version that {@code abi} names ("500" is 5, "600" is 6): versions 5 and 6 share the
         * hidden kernel arguments that block and grid sizes are read from; others are located errors.
         */
        @Override
        void configureModule(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
            int version = switch (r.abi()) {
                case "500" -> 5;
                case "600" -> 6;
                default -> throw new MgpuException(where.knownLocation(), "Invalid abi of " + name() + " (must be"
                        + " \"500\" or \"600\", code object version 5 or 6): \"" + r.abi() + "\"");
            };
            String key = "amdhsa_code_object_version";
            LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorError, key, key.length(),
                    LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), version * 100L, 0)));
        }

        @Override
        int privateAddressSpace() {
            return 5;
        }

        @Override
        boolean isKernelMarked(Operation op) {
            return op.hasAttr("rocdl.kernel");
        }

        @Override
        void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
            super.markKernel(fn, op, ctx);
            // The block size the kernel promises (known_block_size) bounds the work-group size the
            // back end assumes; without it, up to 1024 threads.
            if (op.name().equals(GpuFuncOp.NAME) && op.attr("known_block_size") instanceof Attribute.DenseArrayAttr d) {
                long threads = d.get(0) * d.get(1) * d.get(2);
                String k = "amdgpu-flat-work-group-size";
                String v = threads + "," + threads;
                LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ctx, k, k.length(), v,
                        v.length()));
            }
        }

        @Override
        LLVMValueRef threadId(ModuleTranslation t, int dim) {
            return call(t, "llvm.amdgcn.workitem.id." + XYZ.charAt(dim), i32Type(t));
        }

        @Override
        LLVMValueRef blockId(ModuleTranslation t, int dim) {
            return call(t, "llvm.amdgcn.workgroup.id." + XYZ.charAt(dim), i32Type(t));
        }

        /** Reads a field of the hidden kernel arguments of code object version 5. */
        private LLVMValueRef implicitArg(ModuleTranslation t, int offset, int bits) {
            LLVMValueRef base = call(t, "llvm.amdgcn.implicitarg.ptr", LLVMPointerTypeInContext(t.ctx, 4));
            LLVMValueRef[] idx = {LLVMConstInt(LLVMInt64TypeInContext(t.ctx), offset, 0)};
            LLVMValueRef p;
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
                p = LLVMBuildInBoundsGEP2(t.builder, LLVMInt8TypeInContext(t.ctx), base, pp, 1, "");
            }
            LLVMTypeRef ty = LLVMIntTypeInContext(t.ctx, bits);
            LLVMValueRef v = LLVMBuildLoad2(t.builder, ty, p, "");
            LLVMSetAlignment(v, bits / 8);
            return bits == 32 ? v : LLVMBuildZExt(t.builder, v, i32Type(t), "");
        }

        @Override
        LLVMValueRef blockDim(ModuleTranslation t, int dim) {
            return implicitArg(t, 12 + 2 * dim, 16); // hidden_group_size_{x,y,z}
        }

        @Override
        LLVMValueRef gridDim(ModuleTranslation t, int dim) {
            return implicitArg(t, 4 * dim, 32); // hidden_block_count_{x,y,z}
        }

        @Override
        LLVMValueRef laneId(ModuleTranslation t) {
            LLVMValueRef lo = call(t, "llvm.amdgcn.mbcnt.lo", i32Type(t), i32(t, -1), i32(t, 0));
            return call(t, "llvm.amdgcn.mbcnt.hi", i32Type(t), i32(t, -1), lo);
        }

        @Override
        LLVMValueRef subgroupSize(ModuleTranslation t) {
            return call(t, "llvm.amdgcn.wavefrontsize", i32Type(t));
        }

        /** Whether the chip is an RDNA one (gfx10 and later), whose wavefronts of 64 run as two halves. */
        boolean isRdna() {
            return r.chip().startsWith("gfx") && r.chip().length() == 7;
        }

        @Override
        int subgroupLanes() {
            // GCN and CDNA (gfx9 and before) run wavefronts of 64; RDNA runs 32 unless asked for 64.
            String features = r.features() == null ? "" : r.features();
            return !isRdna() || features.contains("+wavefrontsize64") ? 64 : 32;
        }

        @Override
        void barrier(ModuleTranslation t) {
            int wg;
            try (BytePointer s = new BytePointer("workgroup")) {
                wg = LLVMGetSyncScopeID(t.ctx, s, 9);
            }
            LLVMBuildFenceSyncScope(t.builder, LLVMAtomicOrderingRelease, wg, "");
            call(t, "llvm.amdgcn.s.barrier", LLVMVoidTypeInContext(t.ctx));
            LLVMBuildFenceSyncScope(t.builder, LLVMAtomicOrderingAcquire, wg, "");
        }

        @Override
        LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
                LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask) {
            // ds_bpermute reads the 32 bits of the lane whose byte address (lane * 4) it is given.
            LLVMTypeRef ty = LLVMTypeOf(value);
            LLVMValueRef bits = LLVMGetTypeKind(ty) == LLVMFloatTypeKind ? LLVMBuildBitCast(t.builder, value,
                    i32Type(t), "") : value;
            LLVMValueRef addr = LLVMBuildShl(t.builder, src, i32(t, 2), "");
            LLVMValueRef got = call(t, "llvm.amdgcn.ds.bpermute", i32Type(t), addr, bits);
            return new LLVMValueRef[] {LLVMGetTypeKind(ty) == LLVMFloatTypeKind ? LLVMBuildBitCast(t.builder, got, ty, "")
                    : got, null};
        }

        @Override
        Set<String> nativeF32() {
            // pow (as exp2(y * log2 x), NaN for a negative base) and sin and cos (without range reduction)
            // would be wrong for some arguments: they need ocml.
            return Set.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign", "exp2", "log2", "exp",
                    "log");
        }

        @Override
        String libraryFunction(String kind, boolean f64) {
            return null;
        }

        @Override
        String libraryName() {
            return "ROCm's device libraries (ocml)";
        }
    }

    /**
     * The CPU, through the host's LLVM back end, into a shared object that follows the CPU kernel ABI of
     * {@code mgpu.h}: each kernel {@code k} is exported as {@code void k(void **params, const mgpuCpuGrid *g)},
     * which runs a whole block (the marker {@code k.mgpu_block} says so). A kernel whose threads work together
     * (barriers, shuffles, workgroup memory) becomes loops over the threads between its barriers
     * ({@link WorkItemLoops}); any other kernel's body is a function of one thread, which the entry point
     * calls in a loop over the block's threads. Every function gets the grid as a hidden last parameter, and
     * the indices are read from it. A subgroup is 32 consecutive threads of the block.
     */
    static final class Cpu extends DeviceTarget {
        private final GpuTarget.CpuTarget c;

        Cpu(GpuTarget.CpuTarget c) {
            super(c);
            this.c = c;
        }

        @Override
        String triple() {
            return c.triple().isEmpty() ? Targets.hostTriple() : Targets.normalize(c.triple());
        }

        @Override
        String chip() {
            return c.chip();
        }

        @Override
        String features() {
            return c.features();
        }

        @Override
        int optLevel() {
            return c.optLevel();
        }

        @Override
        int kernelCallingConvention() {
            return 0;
        }

        @Override
        int privateAddressSpace() {
            return 0;
        }

        @Override
        int addressSpace(Attribute space, Operation where) {
            return 0; // workgroup memory is on the stack of the call that runs the block
        }

        @Override
        boolean isKernelMarked(Operation op) {
            return false;
        }

        @Override
        void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
            LLVMSetLinkage(fn, LLVMInternalLinkage);
        }

        @Override
        String bodyName(String name, Operation op) {
            return op.hasAttr(GpuFuncOp.KERNEL_ATTR) ? name + ".body" : name;
        }

        @Override
        List<LLVMTypeRef> hiddenParameters(ModuleTranslation t) {
            return List.of(LLVMPointerTypeInContext(t.ctx, 0));
        }

        @Override
        List<LLVMValueRef> hiddenArguments(ModuleTranslation t) {
            return List.of(grid(t));
        }

        /**
         * The current function's {@code mgpuCpuGrid} pointer, its last parameter; in the loops over a block's
         * threads, the block's grid with the current thread's index.
         */
        private static LLVMValueRef grid(ModuleTranslation t) {
            if (t.workItems != null) {
                return t.workItems.grid();
            }
            LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
            return LLVMGetParam(fn, LLVMCountParams(fn) - 1);
        }

        /** Field {@code index} of {@code mgpuCpuGrid}'s int64_t arrays (gridDim, blockDim, blockIdx, threadIdx). */
        private static LLVMValueRef field(ModuleTranslation t, int array, int dim) {
            LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
            LLVMValueRef[] idx = {LLVMConstInt(i64, array * 3L + dim, 0)};
            LLVMValueRef p;
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
                p = LLVMBuildInBoundsGEP2(t.builder, i64, grid(t), pp, 1, "");
            }
            LLVMValueRef v = LLVMBuildLoad2(t.builder, i64, p, "");
            return LLVMBuildTrunc(t.builder, v, i32Type(t), "");
        }

        @Override
        LLVMValueRef threadId(ModuleTranslation t, int dim) {
            return t.workItems != null ? t.workItems.threadId(dim) : field(t, 3, dim);
        }

        @Override
        LLVMValueRef blockId(ModuleTranslation t, int dim) {
            return field(t, 2, dim);
        }

        @Override
        LLVMValueRef blockDim(ModuleTranslation t, int dim) {
            return field(t, 1, dim);
        }

        @Override
        LLVMValueRef gridDim(ModuleTranslation t, int dim) {
            return field(t, 0, dim);
        }

        @Override
        LLVMValueRef laneId(ModuleTranslation t) {
            if (t.workItems != null) {
                return t.workItems.laneId();
            }
            // (z * blockDim.y + y) * blockDim.x + x, modulo the subgroup's size.
            LLVMValueRef z = field(t, 3, 2);
            LLVMValueRef row = LLVMBuildAdd(t.builder, LLVMBuildMul(t.builder, z, field(t, 1, 1), ""), field(t, 3, 1), "");
            LLVMValueRef lin = LLVMBuildAdd(t.builder, LLVMBuildMul(t.builder, row, field(t, 1, 0), ""), field(t, 3, 0), "");
            return LLVMBuildAnd(t.builder, lin, i32(t, WorkItemLoops.SUBGROUP - 1), "");
        }

        @Override
        LLVMValueRef subgroupSize(ModuleTranslation t) {
            return i32(t, WorkItemLoops.SUBGROUP);
        }

        @Override
        void barrier(ModuleTranslation t) {
            throw new IllegalStateException("a barrier for the CPU ends a loop over threads and is not translated");
        }

        @Override
        LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
                LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask) {
            throw new IllegalStateException("a shuffle for the CPU reads another thread's value of its operand");
        }

        @Override
        Set<String> nativeF32() {
            return Set.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign", "exp2", "log2", "exp",
                    "log", "sin", "cos", "pow");
        }

        @Override
        String libraryFunction(String kind, boolean f64) {
            return switch (kind) {
                case "tanh", "erf" -> kind + (f64 ? "" : "f");
                default -> LIBM.contains(kind) ? kind + (f64 ? "" : "f") : null;
            };
        }

        @Override
        boolean libraryAvailable() {
            return true; // the C library's libm, which the shared object links
        }

        @Override
        String libraryName() {
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
        void finishKernel(ModuleTranslation t, Operation op, LLVMValueRef body) {
            LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
            LLVMValueRef entry = entryPoint(t, op);
            LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(t.ctx, entry, "");
            LLVMPositionBuilderAtEnd(t.builder, start);
            int n = LLVMCountParams(body) - 1;
            LLVMTypeRef bodyType = LLVMGlobalGetValueType(body);
            LLVMValueRef[] args = new LLVMValueRef[n + 1];
            for (int i = 0; i < n; i++) {
                args[i] = argument(t, entry, i, LLVMTypeOf(LLVMGetParam(body, i)));
            }
            LLVMValueRef local = localGrid(t, entry);
            args[n] = local;
            LLVMValueRef[] dims = new LLVMValueRef[3];
            for (int d = 0; d < 3; d++) {
                dims[d] = blockSize(t, entry, d);
            }
            LLVMValueRef fn = entry;
            LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
            // Nested loops z (2), y (1), x (0), each from 0 while below the block's size.
            LLVMBasicBlockRef[] heads = new LLVMBasicBlockRef[3];
            LLVMValueRef[] ivs = new LLVMValueRef[3];
            LLVMBasicBlockRef from = start;
            for (int d = 2; d >= 0; d--) {
                heads[d] = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
                LLVMBuildBr(t.builder, heads[d]);
                LLVMPositionBuilderAtEnd(t.builder, heads[d]);
                ivs[d] = LLVMBuildPhi(t.builder, i64, "");
                KernelTranslators.addIncoming(ivs[d], LLVMConstInt(i64, 0, 0), from);
                LLVMBuildStore(t.builder, ivs[d], gep(t, i64, local, 9 + d));
                from = heads[d];
            }
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(args)) {
                LLVMBuildCall2(t.builder, bodyType, body, pp, n + 1, "");
            }
            for (int d = 0; d < 3; d++) {
                LLVMValueRef next = LLVMBuildNUWAdd(t.builder, ivs[d], LLVMConstInt(i64, 1, 0), "");
                LLVMBasicBlockRef here = LLVMGetInsertBlock(t.builder);
                KernelTranslators.addIncoming(ivs[d], next, here);
                LLVMValueRef more = LLVMBuildICmp(t.builder, LLVMIntULT, next, dims[d], "");
                LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
                LLVMBuildCondBr(t.builder, more, heads[d], after);
                LLVMPositionBuilderAtEnd(t.builder, after);
            }
            LLVMBuildBr(t.builder, exit);
            LLVMPositionBuilderAtEnd(t.builder, exit);
            LLVMBuildRetVoid(t.builder);
        }

        /**
         * The exported entry point {@code void name(void **params, const mgpuCpuGrid *g)} of {@code kernel},
         * with the marker that tells the runtime it runs a whole block.
         */
        static LLVMValueRef entryPoint(ModuleTranslation t, Operation kernel) {
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
        static void exportBlockSize(ModuleTranslation t, String name, long[] size) {
            LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
            LLVMValueRef[] sizes = new LLVMValueRef[3];
            for (int d = 0; d < 3; d++) {
                sizes[d] = LLVMConstInt(i64, size[d], 0);
            }
            LLVMValueRef value;
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(sizes)) {
                value = LLVMConstArray2(i64, pp, 3);
            }
            LLVMValueRef g = LLVMAddGlobal(t.module, LLVMTypeOf(value), name + ".mgpu_block_size");
            LLVMSetInitializer(g, value);
            LLVMSetGlobalConstant(g, 1);
        }

        /** Argument {@code i} of an entry point's kernel, of {@code type}: {@code *(type *)params[i]}. */
        static LLVMValueRef argument(ModuleTranslation t, LLVMValueRef entry, int i, LLVMTypeRef type) {
            LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
            LLVMValueRef argPtr = LLVMBuildLoad2(t.builder, ptr, gep(t, ptr, LLVMGetParam(entry, 0), i), "");
            return LLVMBuildLoad2(t.builder, type, argPtr, "");
        }

        /** A copy of an entry point's grid on its stack, whose thread index the loops over threads set. */
        static LLVMValueRef localGrid(ModuleTranslation t, LLVMValueRef entry) {
            // mgpuCpuGrid: int64_t gridDim[3], blockDim[3], blockIdx[3], threadIdx[3]; void *sharedMemory.
            LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
            LLVMValueRef local = LLVMBuildAlloca(t.builder, LLVMArrayType2(i64, 13), "");
            LLVMSetAlignment(local, 8);
            LLVMBuildMemCpy(t.builder, local, 8, LLVMGetParam(entry, 1), 8, LLVMConstInt(i64, 104, 0));
            return local;
        }

        /** Size {@code dim} of the block an entry point runs, from its grid. */
        static LLVMValueRef blockSize(ModuleTranslation t, LLVMValueRef entry, int dim) {
            LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
            return LLVMBuildLoad2(t.builder, i64, gep(t, i64, LLVMGetParam(entry, 1), 3 + dim), "");
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

    }

    /** The math functions that are exact and lowered natively for every float type on both targets. */
    static final List<String> EXACT = List.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign",
            "roundeven");

    /**
     * Functions that no target computes natively: libdevice has them as {@code __nv_<name>[f]} and the C
     * library as {@code <name>[f]}; on AMD they need ocml.
     */
    static final Set<String> LIBM = Set.of("tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
            "log10", "log1p", "expm1", "cbrt", "erfc", "atan2");
}
