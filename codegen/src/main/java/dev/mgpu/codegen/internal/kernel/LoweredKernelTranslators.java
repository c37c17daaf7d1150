package dev.mgpu.codegen.internal.kernel;

import dev.mgpu.codegen.internal.host.HostTranslators;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.OpTable;
import dev.mgpu.codegen.internal.translate.Types;
import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.kernel.KernelChecks.*;
import static dev.mgpu.codegen.internal.kernel.KernelMemoryTranslators.*;

import dev.mgpu.dialect.llvm.LLVMKernelOps;
import dev.mgpu.dialect.nvvm.NVVM;
import dev.mgpu.dialect.rocdl.ROCDL;
import dev.mgpu.dialect.memref.Allocations;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.util.Map;
import java.util.Set;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of the llvm, nvvm and rocdl ops of kernels that upstream's {@code convert-gpu-to-nvvm} and
 * {@code -rocdl} have lowered, as {@code gpu-module-to-binary} takes them.
 */
public final class LoweredKernelTranslators {
    private LoweredKernelTranslators() {
    }

    /**
     * The llvm, nvvm and rocdl ops of kernels that upstream's {@code convert-gpu-to-nvvm} and {@code -rocdl}
     * have lowered, as {@code gpu-module-to-binary} takes them.
     */
    public static void registerLowLevel(Map<String, OpTable.OpTranslator<ModuleTranslation>> m) {
        m.put(LLVMKernelOps.POISON, (op, t) -> t.map(op.result(0), LLVMGetPoison(t.types.of(op.result(0).type(), op))));
        m.put(LLVMKernelOps.UNDEF, (op, t) -> t.map(op.result(0), LLVMGetUndef(t.types.of(op.result(0).type(), op))));
        m.put(LLVMKernelOps.INSERT_VALUE, (op, t) -> t.map(op.result(0), insert(t, t.lookup(op.operand(0), op),
                t.lookup(op.operand(1), op), LLVMKernelOps.position(op), 0)));
        m.put(LLVMKernelOps.EXTRACT_VALUE, (op, t) -> {
            LLVMValueRef v = t.lookup(op.operand(0), op);
            for (long i : LLVMKernelOps.position(op)) {
                v = LLVMBuildExtractValue(t.builder, v, (int) i, "");
            }
            t.map(op.result(0), v);
        });
        m.put(LLVMKernelOps.SELECT, (op, t) -> t.map(op.result(0), LLVMBuildSelect(t.builder, t.lookup(op.operand(0), op),
                t.lookup(op.operand(1), op), t.lookup(op.operand(2), op), "")));
        m.put(LLVMKernelOps.FCMP, (op, t) -> t.map(op.result(0), LLVMBuildFCmp(t.builder,
                HostTranslators.fcmpPredicate((int) ((Attribute.IntegerAttr) op.attr("predicate")).value()),
                t.lookup(op.operand(0), op), t.lookup(op.operand(1), op), "")));
        m.put(LLVMKernelOps.ATOMIC_RMW, LoweredKernelTranslators::atomicRmw);
        m.put(Allocations.GetGlobalOp.NAME, KernelMemoryTranslators::getGlobal);
        m.put(LLVMKernelOps.ADDRESS_OF, (op, t) -> {
            String name = ((Attribute.SymbolRefAttr) op.attr("global_name")).leaf();
            LLVMValueRef g = LLVMGetNamedGlobal(t.module, name);
            if (g == null || g.isNull()) {
                throw ModuleTranslation.error(op, "Invalid llvm.mlir.addressof (must name a global of the module): @"
                        + name);
            }
            t.map(op.result(0), g); // of the global's pointer type: the verifier has checked the address space
        });
        for (String k : LLVMKernelOps.INTRINSICS) {
            m.put("llvm.intr." + k, LoweredKernelTranslators::intrinsic);
        }
        for (String r : NVVM.REGISTERS) {
            m.put(NVVM.SREG + r, (op, t) -> {
                nvptx(op, t);
                t.map(op.result(0), DeviceTarget.call(t, "llvm.nvvm.read.ptx.sreg." + NVVM.register(op),
                        DeviceTarget.i32Type(t)));
            });
        }
        m.put(NVVM.BARRIER0, (op, t) -> nvptx(op, t).barrier(t));
        m.put(NVVM.SHFL_SYNC, (op, t) -> {
            nvptx(op, t);
            String kind = ((Attribute.StringAttr) op.attr("kind")).value();
            LLVMValueRef[] a = t.lookup(op.operands(), op).toArray(new LLVMValueRef[0]);
            boolean isFloat = LLVMGetTypeKind(LLVMTypeOf(a[1])) == LLVMFloatTypeKind;
            boolean withValid = op.hasAttr("return_value_and_is_valid");
            LLVMTypeRef rt = t.types.of(op.result(0).type(), op);
            t.map(op.result(0), DeviceTarget.call(t, "llvm.nvvm.shfl.sync." + kind + "." + (isFloat ? "f32" : "i32")
                    + (withValid ? "p" : ""), rt, a));
        });
        for (String i : ROCDL.INDICES) {
            m.put(ROCDL.name(i), (op, t) -> {
                DeviceTarget d = amdgpu(op, t);
                String[] parts = i.split("\\.");
                int dim = "xyz".indexOf(parts[2]);
                LLVMValueRef v = switch (parts[0] + "." + parts[1]) {
                    case "workitem.id" -> d.threadId(t, dim);
                    case "workgroup.id" -> d.blockId(t, dim);
                    case "workgroup.dim" -> d.blockDim(t, dim);
                    default -> d.gridDim(t, dim);
                };
                t.map(op.result(0), v);
            });
        }
        m.put(ROCDL.BARRIER, (op, t) -> amdgpu(op, t).barrier(t));
        m.put(ROCDL.MBCNT_LO, (op, t) -> t.map(op.result(0), DeviceTarget.call(t, "llvm.amdgcn.mbcnt.lo",
                amdgpuI32(op, t), t.lookup(op.operands(), op).toArray(new LLVMValueRef[0]))));
        m.put(ROCDL.MBCNT_HI, (op, t) -> t.map(op.result(0), DeviceTarget.call(t, "llvm.amdgcn.mbcnt.hi",
                amdgpuI32(op, t), t.lookup(op.operands(), op).toArray(new LLVMValueRef[0]))));
        m.put(ROCDL.DS_BPERMUTE, (op, t) -> t.map(op.result(0), DeviceTarget.call(t, "llvm.amdgcn.ds.bpermute",
                amdgpuI32(op, t), t.lookup(op.operands(), op).toArray(new LLVMValueRef[0]))));
    }

    public static DeviceTarget nvptx(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (!"nvvm".equals(d.loweredDialect())) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must be compiled for"
                    + " #nvvm.target)");
        }
        return d;
    }

    public static DeviceTarget amdgpu(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (!"rocdl".equals(d.loweredDialect())) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must be compiled for"
                    + " #rocdl.target)");
        }
        return d;
    }

    private static LLVMTypeRef amdgpuI32(Operation op, ModuleTranslation t) {
        amdgpu(op, t);
        return DeviceTarget.i32Type(t);
    }

    /** Inserts {@code v} at {@code position[from...]} of {@code agg}, rebuilding the aggregates on the way. */
    private static LLVMValueRef insert(ModuleTranslation t, LLVMValueRef agg, LLVMValueRef v, long[] position, int from) {
        int i = (int) position[from];
        if (from == position.length - 1) {
            return LLVMBuildInsertValue(t.builder, agg, v, i, "");
        }
        LLVMValueRef inner = LLVMBuildExtractValue(t.builder, agg, i, "");
        return LLVMBuildInsertValue(t.builder, agg, insert(t, inner, v, position, from + 1), i, "");
    }

    private static final int[] RMW_BY_NAME = {LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpSub,
        LLVMAtomicRMWBinOpAnd, LLVMAtomicRMWBinOpNand, LLVMAtomicRMWBinOpOr, LLVMAtomicRMWBinOpXor,
        LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpMin, LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpUMin,
        LLVMAtomicRMWBinOpFAdd, LLVMAtomicRMWBinOpFSub, LLVMAtomicRMWBinOpFMax, LLVMAtomicRMWBinOpFMin};

    private static final int[] ORDERING = {LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingAcquire,
        LLVMAtomicOrderingRelease, LLVMAtomicOrderingAcquireRelease, LLVMAtomicOrderingSequentiallyConsistent};

    private static void atomicRmw(Operation op, ModuleTranslation t) {
        int bin = RMW_BY_NAME[(int) ((Attribute.IntegerAttr) op.attr("bin_op")).value()];
        int ordering = ORDERING[LLVMKernelOps.ORDERINGS.indexOf(((Attribute.StringAttr) op.attr("ordering")).value())];
        LLVMValueRef p = t.lookup(op.operand(0), op);
        LLVMValueRef v = t.lookup(op.operand(1), op);
        LLVMValueRef r;
        if (op.attr("syncscope") instanceof Attribute.StringAttr s) {
            int scope;
            try (org.bytedeco.javacpp.BytePointer name = new org.bytedeco.javacpp.BytePointer(s.value())) {
                scope = LLVMGetSyncScopeID(t.ctx, name, s.length());
            }
            r = LLVMBuildAtomicRMWSyncScope(t.builder, bin, p, v, ordering, scope);
        } else {
            r = LLVMBuildAtomicRMW(t.builder, bin, p, v, ordering, 0);
        }
        if (op.hasAttr("volatile_")) {
            LLVMSetVolatile(r, 1);
        }
        t.map(op.result(0), r);
    }

    /** {@code llvm.intr.NAME}: LLVM's intrinsic, when the back end lowers it for the type (else a located error). */
    public static void intrinsic(Operation op, ModuleTranslation t) {
        String name = op.name().substring("llvm.intr.".length());
        Type rt = op.result(0).type();
        String suffix;
        if (rt instanceof Type.FloatType f) {
            boolean ok = DeviceTarget.EXACT.contains(name) || Set.of("fmuladd", "minnum", "maxnum", "minimum", "maximum")
                    .contains(name) || t.device == null || f.width() == 32 && t.device.nativeF32().contains(name);
            if (!ok) {
                throw new MgpuException(op.knownLocation(), "Invalid " + op.name() + " on " + rt + " for "
                        + t.device.name() + " (must be an intrinsic the target lowers natively): " + name);
            }
            suffix = Types.floatSuffix(rt);
        } else if (rt instanceof Type.IntegerType i && Set.of("smax", "smin", "umax", "umin").contains(name)) {
            suffix = "i" + i.width();
        } else {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " (must be on floats, or smax/smin/umax/umin on"
                    + " integers): " + rt);
        }
        t.map(op.result(0), DeviceTarget.call(t, "llvm." + name + "." + suffix, t.types.of(rt, op),
                t.lookup(op.operands(), op).toArray(new LLVMValueRef[0])));
    }
}
