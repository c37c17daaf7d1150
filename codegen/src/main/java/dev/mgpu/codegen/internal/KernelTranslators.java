package dev.mgpu.codegen.internal;

import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.KernelMemoryTranslators.*;
import static dev.mgpu.codegen.internal.KernelControlFlowTranslators.*;
import static dev.mgpu.codegen.internal.KernelExchangeTranslators.*;
import static dev.mgpu.codegen.internal.KernelMathTranslators.*;
import static dev.mgpu.codegen.internal.LoweredKernelTranslators.*;

import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.BarrierOp;
import dev.mgpu.dialect.gpu.DimensionOp;
import dev.mgpu.dialect.gpu.DynamicSharedMemoryOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuReturnOp;
import dev.mgpu.dialect.gpu.LaneOps;
import dev.mgpu.dialect.gpu.PrintfOp;
import dev.mgpu.dialect.gpu.ShuffleOp;
import dev.mgpu.dialect.gpu.SubgroupReduceOp;
import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.memref.Reshapes;
import dev.mgpu.dialect.memref.Views;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The op table of kernel bodies, with the gpu dialect's own ops (thread indices, barrier, printf, dynamic
 * shared memory, attributions) and the checks that the other kernel translators share: {@link
 * KernelMemoryTranslators} (memref), {@link KernelControlFlowTranslators} (scf), {@link
 * KernelExchangeTranslators} (shuffles and reductions), {@link KernelMathTranslators} (math) and {@link
 * LoweredKernelTranslators} (llvm, nvvm, rocdl). They run only in a kernel module ({@link
 * ModuleTranslation#device} set), where a memref is a pointer to its element 0.
 */
final class KernelTranslators {
    private KernelTranslators() {
    }

    static void register(Map<String, ModuleTranslation.OpTranslator> m) {
        for (String k : DimensionOp.KINDS) {
            m.put("gpu." + k, KernelTranslators::dimension);
        }
        m.put(LaneOps.LANE_ID, (op, t) -> t.map(op.result(0), index(t, device(op, t).laneId(t))));
        m.put(LaneOps.SUBGROUP_SIZE, (op, t) -> t.map(op.result(0), index(t, device(op, t).subgroupSize(t))));
        m.put(BarrierOp.NAME, (op, t) -> together(op, t).barrier(t));
        m.put(PrintfOp.NAME, KernelTranslators::printf);
        m.put(ShuffleOp.NAME, KernelExchangeTranslators::shuffle);
        m.put(SubgroupReduceOp.NAME, KernelExchangeTranslators::subgroupReduce);
        m.put(AllReduceOp.NAME, KernelExchangeTranslators::allReduce);
        m.put(DynamicSharedMemoryOp.NAME, KernelTranslators::dynamicSharedMemory);
        m.put(GpuReturnOp.NAME, HostTranslators::ret);
        m.put(MemRef.LoadOp.NAME, KernelMemoryTranslators::load);
        m.put(MemRef.StoreOp.NAME, KernelMemoryTranslators::store);
        m.put(MemRef.AllocaOp.NAME, KernelMemoryTranslators::alloca);
        m.put(MemRef.AtomicRMWOp.NAME, KernelMemoryTranslators::atomic);
        m.put(MemRef.DimOp.NAME, KernelMemoryTranslators::dim);
        m.put(Views.SubViewOp.NAME, KernelMemoryTranslators::subview);
        m.put(Views.ReinterpretCastOp.NAME, KernelMemoryTranslators::reinterpretCast);
        for (String view : List.of(Reshapes.CastOp.NAME, Reshapes.ReshapeOp.COLLAPSE, Reshapes.ReshapeOp.EXPAND)) {
            // The same memory: a row-major reshape or a cast keeps element 0 where it is.
            m.put(view, (op, t) -> {
                device(op, t);
                t.map(op.result(0), t.lookup(op.operand(0), op));
            });
        }
        m.put(Scf.ForOp.NAME, KernelControlFlowTranslators::forLoop);
        m.put(Scf.IfOp.NAME, KernelControlFlowTranslators::ifThenElse);
        m.put(Scf.WhileOp.NAME, KernelControlFlowTranslators::whileLoop);
        registerLowLevel(m);
        for (List<String> kinds : List.of(MathDialect.UNARY, MathDialect.BINARY, MathDialect.TERNARY)) {
            for (String k : kinds) {
                m.put("math." + k, KernelMathTranslators::math);
            }
        }
        for (String k : MathDialect.INTEGER) {
            m.put("math." + k, KernelMathTranslators::integerMath);
        }
        for (String k : MathDialect.CLASSES) {
            m.put("math." + k, KernelMathTranslators::floatClass);
        }
    }

    static DeviceTarget device(Operation op, ModuleTranslation t) {
        if (t.device == null) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " in host code (must be inside a kernel of a"
                    + " gpu.module)");
        }
        return t.device;
    }

    /**
     * The device, for an op that needs the threads of a block together. On the CPU, only a kernel's body
     * runs them together ({@link WorkItemLoops}), which cuts it at barriers and sends shuffles to
     * {@link KernelExchangeTranslators#shuffle}; anywhere else such an op is a located error.
     */
    static DeviceTarget together(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (!d.runsTogether(op)) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must be in a kernel's"
                    + " body, where only scf.for, scf.if and scf.while may be around it: the CPU runs the threads of"
                    + " a block in loops between barriers and shuffles)");
        }
        return d;
    }

    /**
     * The device, for an op that exchanges values between lanes. On an RDNA chip (gfx10 and later) asked for
     * wavefronts of 64, ds_bpermute reads only within each half of 32 lanes, so an exchange across the
     * halves would read the wrong lane: a located error rather than a wrong result.
     */
    static DeviceTarget exchanging(Operation op, ModuleTranslation t) {
        DeviceTarget d = together(op, t);
        d.checkExchange(op);
        return d;
    }

    static LLVMValueRef index(ModuleTranslation t, LLVMValueRef i32) {
        return LLVMBuildZExt(t.builder, i32, t.types.intptr, "");
    }

    static void dimension(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        DimensionOp v = new DimensionOp(op);
        int dim = v.dimension();
        LLVMValueRef r = switch (v.kind()) {
            case "thread_id" -> d.threadId(t, dim);
            case "block_id" -> d.blockId(t, dim);
            case "block_dim" -> d.blockDim(t, dim);
            case "grid_dim" -> d.gridDim(t, dim);
            default -> null;
        };
        if (r == null) {
            // global_id in index width, as upstream computes it: no wrap past 2^32 threads.
            LLVMValueRef g = LLVMBuildNUWMul(t.builder, index(t, d.blockId(t, dim)), index(t, d.blockDim(t, dim)), "");
            t.map(op.result(0), LLVMBuildNUWAdd(t.builder, g, index(t, d.threadId(t, dim)), ""));
            return;
        }
        t.map(op.result(0), index(t, r));
    }

    private static void dynamicSharedMemory(Operation op, ModuleTranslation t) {
        t.map(op.result(0), device(op, t).dynamicSharedMemory(t));
    }

    /**
     * The memory of a {@code gpu.func} attribution: workgroup memory is a global of the workgroup address
     * space, one per kernel and attribution; private memory is an alloca.
     */
    static LLVMValueRef attribution(ModuleTranslation t, Operation fnOp, Value.BlockArgument a) {
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

    static LLVMValueRef cast(ModuleTranslation t, LLVMValueRef p, int as) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == as) {
            return p;
        }
        return LLVMBuildAddrSpaceCast(t.builder, p, LLVMPointerTypeInContext(t.ctx, as), "");
    }

    /**
     * The LLVM array type of memref {@code m}'s elements, for memory in a kernel's frame (or workgroup
     * memory), where the target checks its size ({@link DeviceTarget#checkFrameArray}).
     */
    static LLVMTypeRef arrayOf(ModuleTranslation t, Type.MemRefType m, Operation where) {
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

    static String floatSuffix(Type t) {
        Type.FloatType f = (Type.FloatType) t;
        return switch (f.kind()) {
            case BF16 -> "bf16";
            case F16 -> "f16";
            case F32 -> "f32";
            default -> "f64";
        };
    }

    /**
     * gpu.printf: on NVIDIA, the CUDA driver's {@code vprintf} with the arguments in a buffer laid out as a C
     * struct; on the CPU, the C library's {@code printf}. Either way the arguments get C's promotions for a
     * variadic call: floats become doubles, integers narrower than {@code int} become {@code int}. AMD GPUs
     * print through ROCm's device libraries (ockl), which are not here: a located error.
     */
    static void printf(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        byte[] format = new PrintfOp(op).format();
        LLVMValueRef text;
        try (BytePointer bytes = new BytePointer(format.length + 1L)) {
            bytes.put(format, 0, format.length).put(format.length, (byte) 0);
            text = LLVMConstStringInContext2(t.ctx, bytes, format.length + 1L, 1);
        }
        LLVMValueRef fmt = d.printfFormat(t, op, text);
        List<LLVMValueRef> args = new ArrayList<>();
        for (Value v : op.operands()) {
            LLVMValueRef a = t.lookup(v, op);
            if (v.type() instanceof Type.FloatType f && f.width() < 64) {
                a = LLVMBuildFPExt(t.builder, a, LLVMDoubleTypeInContext(t.ctx), "");
            } else if (v.type() instanceof Type.IntegerType i && i.width() < 32) {
                a = i.width() == 1 ? LLVMBuildZExt(t.builder, a, LLVMInt32TypeInContext(t.ctx), "")
                        : LLVMBuildSExt(t.builder, a, LLVMInt32TypeInContext(t.ctx), "");
            }
            args.add(a);
        }
        d.printf(t, fmt, args);
    }
}
