package dev.mgpu.codegen.internal.device.amdgpu;

import dev.mgpu.codegen.internal.llvm.ArtifactTools;
import dev.mgpu.codegen.internal.llvm.ExternalTools;
import dev.mgpu.codegen.internal.llvm.Targets;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.function.IntFunction;
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

/** AMD GPUs through LLVM's AMDGPU back end, code object version 5. */
public final class Amdgpu extends DeviceTarget {
    private final GpuTarget.ROCDLTarget r;

    public Amdgpu(GpuTarget.ROCDLTarget r) {
        super(r);
        this.r = r;
    }

    /**
     * An integer of fewer than 32 bits: LLVM's AMDGPU back end cannot select an {@code atomicrmw} on one whose
     * value leaves memory as it was (an add of 0, an or of 0, an and of -1; the optimiser makes them all an add
     * of 0, which no expansion then takes): it aborts ("Cannot select: i16,ch = AtomicLoadAdd"). A
     * compare-and-swap loop on the element is what LLVM expands the other values to anyway.
     */
    @Override
    public boolean atomicsByCompareAndSwap(dev.mgpu.ir.Type element) {
        return element instanceof dev.mgpu.ir.Type.IntegerType it && it.width() < 32;
    }

    @Override
    public String triple() {
        return r.triple();
    }

    @Override
    public String chip() {
        return r.chip();
    }

    @Override
    public String features() {
        return r.features();
    }

    @Override
    public int optLevel() {
        return r.optLevel();
    }

    @Override
    public int kernelCallingConvention() {
        return 91; // amdgpu_kernel
    }

    /**
     * The code-object version that {@code abi} names ("500" is 5, "600" is 6): versions 5 and 6 share the
     * hidden kernel arguments that block and grid sizes are read from; others are located errors.
     */
    @Override
    public void configureModule(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
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
    public int privateAddressSpace() {
        return 5;
    }

    @Override
    public boolean isKernelMarked(Operation op) {
        return op.hasAttr("rocdl.kernel");
    }

    @Override
    public void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
        super.markKernel(fn, op, ctx);
        // The block size the kernel promises (known_block_size) bounds the work-group size the
        // back end assumes; without it, up to 1024 threads.
        if (op.name().equals(GpuFuncOp.NAME) && op.attr(GpuFuncOp.KNOWN_BLOCK_SIZE) instanceof Attribute.DenseArrayAttr d) {
            long threads = d.get(0) * d.get(1) * d.get(2);
            String k = "amdgpu-flat-work-group-size";
            String v = threads + "," + threads;
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ctx, k, k.length(), v,
                    v.length()));
        }
    }

    @Override
    public LLVMValueRef threadId(ModuleTranslation t, int dim) {
        return call(t, "llvm.amdgcn.workitem.id." + XYZ.charAt(dim), i32Type(t));
    }

    @Override
    public LLVMValueRef blockId(ModuleTranslation t, int dim) {
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
    public LLVMValueRef blockDim(ModuleTranslation t, int dim) {
        return implicitArg(t, 12 + 2 * dim, 16); // hidden_group_size_{x,y,z}
    }

    @Override
    public LLVMValueRef gridDim(ModuleTranslation t, int dim) {
        return implicitArg(t, 4 * dim, 32); // hidden_block_count_{x,y,z}
    }

    @Override
    public LLVMValueRef laneId(ModuleTranslation t) {
        LLVMValueRef lo = call(t, "llvm.amdgcn.mbcnt.lo", i32Type(t), i32(t, -1), i32(t, 0));
        return call(t, "llvm.amdgcn.mbcnt.hi", i32Type(t), i32(t, -1), lo);
    }

    @Override
    public LLVMValueRef subgroupSize(ModuleTranslation t) {
        return call(t, "llvm.amdgcn.wavefrontsize", i32Type(t));
    }

    /** Whether the chip is an RDNA one (gfx10 and later), whose wavefronts of 64 run as two halves. */
    public boolean isRdna() {
        return r.chip().startsWith("gfx") && r.chip().length() == 7;
    }

    @Override
    public int subgroupLanes() {
        // GCN and CDNA (gfx9 and before) run wavefronts of 64; RDNA runs 32 unless asked for 64.
        String features = r.features() == null ? "" : r.features();
        return !isRdna() || features.contains("+wavefrontsize64") ? 64 : 32;
    }

    @Override
    public void barrier(ModuleTranslation t) {
        int wg;
        try (BytePointer s = new BytePointer("workgroup")) {
            wg = LLVMGetSyncScopeID(t.ctx, s, 9);
        }
        LLVMBuildFenceSyncScope(t.builder, LLVMAtomicOrderingRelease, wg, "");
        call(t, "llvm.amdgcn.s.barrier", LLVMVoidTypeInContext(t.ctx));
        LLVMBuildFenceSyncScope(t.builder, LLVMAtomicOrderingAcquire, wg, "");
    }

    @Override
    public LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
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
    public Set<String> nativeF32() {
        // pow (as exp2(y * log2 x), NaN for a negative base) and sin and cos (without range reduction)
        // would be wrong for some arguments: they need ocml.
        return Set.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign", "exp2", "log2", "exp",
                "log");
    }

    @Override
    public String libraryFunction(String kind, boolean f64) {
        return null;
    }

    @Override
    public String libraryName() {
        return "ROCm's device libraries (ocml)";
    }

    /**
     * On an RDNA chip (gfx10 and later) asked for wavefronts of 64, ds_bpermute reads only within each half of
     * 32 lanes, so an exchange across the halves would read the wrong lane: a located error rather than a
     * wrong result.
     */
    @Override
    public void checkExchange(Operation op) {
        if (generation() > 0 && generation() < 8 && dev.mgpu.codegen.internal.translate.CodeGeneration.checksOn()) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + name() + " (must be compiled for"
                    + " GFX8 or later: lanes exchange values through ds_bpermute, which earlier chips lack)");
        }
        if (subgroupLanes() == 64 && isRdna()) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + name() + " (must run in wavefronts"
                    + " of 32 on an RDNA chip: ds_bpermute does not read across the halves of a wavefront of 64):"
                    + " +wavefrontsize64");
        }
    }

    /** The generic space in global memory, or in constant memory when the global is constant. */
    @Override
    public int memrefGlobalSpace(ModuleTranslation t, Operation op, dev.mgpu.ir.Type.MemRefType m, boolean constant) {
        int as = t.types.addressSpace(m, op);
        return as == 0 ? (constant ? 4 : 1) : as;
    }

    /** AMD GPUs print through ROCm's device libraries (ockl), which are not here. */
    @Override
    public LLVMValueRef printfFormat(ModuleTranslation t, Operation op, LLVMValueRef text) {
        throw ModuleTranslation.error(op, "Invalid gpu.printf for " + name() + " (must have ROCm's device"
                + " libraries (ockl), through which AMD GPUs print)");
    }

    @Override
    public void printf(ModuleTranslation t, LLVMValueRef fmt, List<LLVMValueRef> args) {
        throw new IllegalStateException("printfFormat refuses gpu.printf for AMD GPUs");
    }

    /** A trap: the message would need ROCm's device library (ockl) to print, which is not here. */
    @Override
    public void assertFailed(ModuleTranslation t, Operation op, byte[] message) {
        call(t, "llvm.trap", LLVMVoidTypeInContext(t.ctx));
        LLVMBuildUnreachable(t.builder);
    }

    @Override
    public String loweredDialect() {
        return "rocdl";
    }

    @Override
    public void initBackend() {
        Targets.initDeviceTarget(false);
    }

    /** From the code object metadata that the assembly states ({@code .amdgpu_metadata}). */
    @Override
    public Map<String, String> resourceUsage(Operation module, String assembly) {
        return dev.mgpu.codegen.internal.llvm.ResourceUsage.amdgpu(assembly);
    }

    /** An object, linked by lld into a code object (HSACO). */
    @Override
    public ObjectAttr serialize(Operation module, ObjectFormat format, Map<String, Attribute> props, KernelOptions options,
            IntFunction<byte[]> emit) {
        byte[] obj = emit.apply(format == ObjectFormat.ASSEMBLY ? LLVMAssemblyFile : LLVMObjectFile);
        if (format == ObjectFormat.ASSEMBLY) {
            return object(format, props, obj);
        }
        return object(ObjectFormat.BINARY, props, hsaco(module, obj));
    }

    /** Links an AMDGPU object into a code object (HSACO) with the lld of the LLVM artifact. */
    private static byte[] hsaco(Operation module, byte[] obj) {
        ArtifactTools.Tool lld = lld(module);
        return ExternalTools.link(module, obj, "hsaco", (in, out) -> lld.command(List.of("-flavor", "gnu", "-shared",
                in.toString(), "-o", out.toString())), "lld");
    }

    private static ArtifactTools.Tool lld(Operation module) {
        try {
            return ArtifactTools.tool("lld");
        } catch (IOException e) {
            throw new MgpuException(module.knownLocation(), "Invalid LLVM artifact (must carry lld to link AMDGPU"
                    + " code objects): " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ what the back end cannot take

    /**
     * The most bytes of a kernel's parameters taken here, as many as CUDA's driver takes: the back end's time
     * grows steeply with a larger array passed by value, and a very large one ends the process.
     */
    static final long MAX_PARAMETER_BYTES = 32764;

    @Override
    public void checkDeclaration(ModuleTranslation t, Operation op, String name, List<LLVMTypeRef> params,
            boolean kernel, boolean declaration) {
        long bytes = kernel ? parameterBytes(t, params) : 0;
        if (bytes > MAX_PARAMETER_BYTES) {
            throw ModuleTranslation.error(op, "Invalid kernel parameters for " + name() + " (must be at most "
                    + MAX_PARAMETER_BYTES + " bytes): " + bytes + " bytes");
        }
    }

    /** The GCN generation of the chip ({@code gfx600} is 6, {@code gfx90a} 9, {@code gfx1030} 10), or 0. */
    int generation() {
        String chip = r.chip();
        if (!chip.startsWith("gfx") || chip.length() < 6) {
            return 0;
        }
        try {
            return Integer.parseInt(chip.substring(3, chip.length() - 2));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
