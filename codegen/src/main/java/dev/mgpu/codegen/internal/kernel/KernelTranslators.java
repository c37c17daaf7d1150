package dev.mgpu.codegen.internal.kernel;

import dev.mgpu.codegen.internal.host.HostTranslators;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.OpTable;
import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.kernel.KernelChecks.*;
import static dev.mgpu.codegen.internal.kernel.KernelMemoryTranslators.*;
import static dev.mgpu.codegen.internal.kernel.KernelControlFlowTranslators.*;
import static dev.mgpu.codegen.internal.kernel.KernelExchangeTranslators.*;
import static dev.mgpu.codegen.internal.kernel.KernelMathTranslators.*;
import static dev.mgpu.codegen.internal.kernel.LoweredKernelTranslators.*;

import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.BarrierOp;
import dev.mgpu.dialect.gpu.DimensionOp;
import dev.mgpu.dialect.gpu.DynamicSharedMemoryOp;
import dev.mgpu.dialect.gpu.GpuReturnOp;
import dev.mgpu.dialect.gpu.LaneOps;
import dev.mgpu.dialect.gpu.PrintfOp;
import dev.mgpu.dialect.gpu.ShuffleOp;
import dev.mgpu.dialect.gpu.SubgroupReduceOp;
import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.dialect.memref.Allocations;
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
 * shared memory) and the registration of the other kernel translators, which share {@link KernelChecks}: {@link
 * KernelMemoryTranslators} (memref), {@link KernelControlFlowTranslators} (scf), {@link
 * KernelExchangeTranslators} (shuffles and reductions), {@link KernelMathTranslators} (math) and {@link
 * LoweredKernelTranslators} (llvm, nvvm, rocdl). They run only in a kernel module ({@link
 * ModuleTranslation#device} set), where a memref is a pointer to its element 0.
 */
public final class KernelTranslators {
    private KernelTranslators() {
    }

    public static void register(Map<String, OpTable.OpTranslator<ModuleTranslation>> m) {
        for (String k : DimensionOp.KINDS) {
            m.put(DimensionOp.name(k), KernelTranslators::dimension);
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
        m.put(Allocations.AllocaOp.NAME, KernelMemoryTranslators::alloca);
        m.put(MemRef.AtomicRMWOp.NAME, KernelMemoryTranslators::atomic);
        m.put(MemRef.DimOp.NAME, KernelMemoryTranslators::dim);
        m.put(Views.SubViewOp.NAME, KernelMemoryTranslators::subview);
        m.put(Views.ReinterpretCastOp.NAME, KernelMemoryTranslators::reinterpretCast);
        for (String view : List.of(Reshapes.CastOp.NAME, Reshapes.ReshapeOp.COLLAPSE, Reshapes.ReshapeOp.EXPAND)) {
            // The same memory: a row-major reshape or a cast keeps element 0 where it is.
            m.put(view, KernelMemoryTranslators::sameMemory);
        }
        m.put(Scf.ForOp.NAME, KernelControlFlowTranslators::forLoop);
        m.put(Scf.IfOp.NAME, KernelControlFlowTranslators::ifThenElse);
        m.put(Scf.WhileOp.NAME, KernelControlFlowTranslators::whileLoop);
        registerLowLevel(m);
        for (List<String> kinds : List.of(MathDialect.UNARY, MathDialect.BINARY, MathDialect.TERNARY)) {
            for (String k : kinds) {
                m.put(MathDialect.name(k), KernelMathTranslators::math);
            }
        }
        for (String k : MathDialect.INTEGER) {
            m.put(MathDialect.name(k), KernelMathTranslators::integerMath);
        }
        for (String k : MathDialect.CLASSES) {
            m.put(MathDialect.name(k), KernelMathTranslators::floatClass);
        }
    }

    public static void dimension(Operation op, ModuleTranslation t) {
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
     * gpu.printf: on NVIDIA, the CUDA driver's {@code vprintf} with the arguments in a buffer laid out as a C
     * struct; on the CPU, the C library's {@code printf}. Either way the arguments get C's promotions for a
     * variadic call: floats become doubles, integers narrower than {@code int} become {@code int}. AMD GPUs
     * print through ROCm's device libraries (ockl), which are not here: a located error.
     */
    public static void printf(Operation op, ModuleTranslation t) {
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
