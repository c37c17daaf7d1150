package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The memory of a kernel's frame: the arrays of memrefs with a static shape, the attributions of a
 * {@code gpu.func}, and the casts between address spaces that reach them.
 */
public final class KernelMemory {
    private KernelMemory() {
    }

    /**
     * The memory of a {@code gpu.func} attribution: workgroup memory is a global of the workgroup address
     * space, one per kernel and attribution; private memory is an alloca.
     */
    public static LLVMValueRef attribution(ModuleTranslation t, Operation fnOp, Value.BlockArgument a) {
        GpuFuncOp f = new GpuFuncOp(fnOp);
        int index = fnOp.region(0).entry().arguments().indexOf(a) - f.type().inputs().size();
        Type.MemRefType m = (Type.MemRefType) a.type();
        LLVMTypeRef arr = arrayOf(t, m, fnOp);
        int as = t.types.addressSpace(m, fnOp);
        if (index < f.workgroupCount()) {
            t.device.checkWorkgroupAttribution(fnOp);
            LLVMValueRef g = LLVMAddGlobalInAddressSpace(t.module, arr, "__mgpu_wg_" + fnOp.symbolName() + "_" + index,
                    as);
            LLVMSetInitializer(g, LLVMGetUndef(arr));
            LLVMSetLinkage(g, LLVMInternalLinkage);
            // The element type's alignment unless the attribution asks for more, as upstream's lowering does. A
            // larger default let LLVM make vector loads of workgroup memory that nvcc and upstream do not make,
            // and ptxas then unrolled the loop around them four times (tiled matmul: 217 instructions, 95 now).
            // Stated, because LLVM takes a global of more than 16 bytes without one as aligned to 16.
            long align = f.attributionAlignment(index);
            LLVMSetAlignment(g, align > 0 ? (int) align : LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(t.module), arr));
            return g;
        }
        LLVMValueRef p = LLVMBuildAlloca(t.builder, arr, "");
        if (f.attributionAlignment(index) > 0) {
            LLVMSetAlignment(p, (int) f.attributionAlignment(index));
        }
        return cast(t, p, as);
    }

    public static LLVMValueRef cast(ModuleTranslation t, LLVMValueRef p, int as) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == as) {
            return p;
        }
        return LLVMBuildAddrSpaceCast(t.builder, p, LLVMPointerTypeInContext(t.ctx, as), "");
    }

    /**
     * The LLVM array type of memref {@code m}'s elements, for memory in a kernel's frame (or workgroup
     * memory), where the target checks its size ({@link DeviceTarget#checkFrameArray}).
     */
    public static LLVMTypeRef arrayOf(ModuleTranslation t, Type.MemRefType m, Operation where) {
        long count = staticCount(m, where);
        if (t.device != null) {
            t.device.checkFrameArray(m, count, where);
        }
        return LLVMArrayType2(t.types.of(m.elementType(), where), count);
    }

    private static long staticCount(Type.MemRefType m, Operation where) {
        long n = 1;
        for (long d : m.shape()) {
            if (d == Type.DYNAMIC) {
                throw ModuleTranslation.error(where, "Invalid memref for a kernel (must have a static shape here): " + m);
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }
}
