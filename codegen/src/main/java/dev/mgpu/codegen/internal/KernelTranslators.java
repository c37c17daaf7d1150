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
import dev.mgpu.dialect.memref.Allocations;
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
        m.put(Allocations.AllocaOp.NAME, KernelMemoryTranslators::alloca);
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
        if (d instanceof DeviceTarget.Cpu && (t.workItems == null || op.name().equals(BarrierOp.NAME))) {
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
        if (d instanceof DeviceTarget.Amdgpu a && a.subgroupLanes() == 64 && a.isRdna()) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must run in wavefronts"
                    + " of 32 on an RDNA chip: ds_bpermute does not read across the halves of a wavefront of 64):"
                    + " +wavefrontsize64");
        }
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
        if (device(op, t) instanceof DeviceTarget.Cpu) {
            // mgpuCpuGrid.sharedMemory: the block's own bytes, after four int64_t[3] arrays.
            LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
            LLVMValueRef grid = LLVMGetParam(fn, LLVMCountParams(fn) - 1);
            LLVMValueRef[] idx = {LLVMConstInt(LLVMInt64TypeInContext(t.ctx), 96, 0)};
            LLVMValueRef p;
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
                p = LLVMBuildInBoundsGEP2(t.builder, LLVMInt8TypeInContext(t.ctx), grid, pp, 1, "");
            }
            t.map(op.result(0), LLVMBuildLoad2(t.builder, LLVMPointerTypeInContext(t.ctx, 0), p, ""));
            return;
        }
        String name = "__mgpu_dynamic_shared_memory";
        LLVMValueRef g = LLVMGetNamedGlobal(t.module, name);
        if (g == null || g.isNull()) {
            g = LLVMAddGlobalInAddressSpace(t.module, LLVMArrayType2(LLVMInt8TypeInContext(t.ctx), 0), name, 3);
            LLVMSetAlignment(g, 16);
            LLVMSetLinkage(g, LLVMExternalLinkage);
        }
        t.map(op.result(0), g);
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
            if (t.device instanceof DeviceTarget.Cpu) {
                throw ModuleTranslation.error(fnOp, "Invalid workgroup attribution for " + t.device.name() + " (must be"
                        + " a kernel's: the CPU keeps workgroup memory for the call that runs a block)");
            }
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

    /** The most bytes one array of a kernel's frame may have on the CPU: a worker's stack is 8 MiB. */
    private static final long CPU_FRAME_ARRAY = 1L << 20;

    /**
     * The LLVM array type of memref {@code m}'s elements, for memory in a kernel's frame (or workgroup
     * memory). On the CPU, where it is on a worker's stack, more than {@link #CPU_FRAME_ARRAY} bytes is a
     * located error.
     */
    static LLVMTypeRef arrayOf(ModuleTranslation t, Type.MemRefType m, Operation where) {
        long count = staticCount(m, where);
        if (t.device instanceof DeviceTarget.Cpu) {
            long bytes = count > CPU_FRAME_ARRAY ? Long.MAX_VALUE : count * Types.elementSize(m.elementType(), where);
            if (bytes > CPU_FRAME_ARRAY) {
                throw ModuleTranslation.error(where, "Invalid memref for " + t.device.name() + " (must be at most "
                        + CPU_FRAME_ARRAY + " bytes: it is on a worker thread's stack): " + m);
            }
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

    static void addIncoming(LLVMValueRef phi, LLVMValueRef v, LLVMBasicBlockRef from) {
        try (PointerPointer<LLVMValueRef> vs = new PointerPointer<>(new LLVMValueRef[] {v});
                PointerPointer<LLVMBasicBlockRef> bs = new PointerPointer<>(new LLVMBasicBlockRef[] {from})) {
            LLVMAddIncoming(phi, vs, bs, 1);
        }
    }

    /**
     * gpu.printf: on NVIDIA, the CUDA driver's {@code vprintf} with the arguments in a buffer laid out as a C
     * struct; on the CPU, the C library's {@code printf}. Either way the arguments get C's promotions for a
     * variadic call: floats become doubles, integers narrower than {@code int} become {@code int}. AMD GPUs
     * print through ROCm's device libraries (ockl), which are not here: a located error.
     */
    static void printf(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (d instanceof DeviceTarget.Amdgpu) {
            throw ModuleTranslation.error(op, "Invalid gpu.printf for " + d.name() + " (must have ROCm's device"
                    + " libraries (ockl), through which AMD GPUs print)");
        }
        byte[] format = new PrintfOp(op).format();
        LLVMValueRef text;
        try (BytePointer bytes = new BytePointer(format.length + 1L)) {
            bytes.put(format, 0, format.length).put(format.length, (byte) 0);
            text = LLVMConstStringInContext2(t.ctx, bytes, format.length + 1L, 1);
        }
        boolean nvptx = d instanceof DeviceTarget.Nvptx;
        LLVMValueRef g = LLVMAddGlobalInAddressSpace(t.module, LLVMTypeOf(text), "__mgpu_printf_format", nvptx ? 4 : 0);
        LLVMSetInitializer(g, text);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
        LLVMSetAlignment(g, 1);
        LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
        LLVMValueRef fmt = nvptx ? LLVMBuildAddrSpaceCast(t.builder, g, ptr, "") : g;
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
        LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
        if (!nvptx) {
            LLVMTypeRef ft;
            try (PointerPointer<LLVMTypeRef> ps = new PointerPointer<>(new LLVMTypeRef[] {ptr})) {
                ft = LLVMFunctionType(i32, ps, 1, 1);
            }
            LLVMValueRef fn = t.libraryFunction("C library", "printf", ft);
            d.libraryUsed("printf");
            // LLVM may print a plain string with puts or a character with putchar.
            t.reserveLibraryName("C library", "puts");
            t.reserveLibraryName("C library", "putchar");
            args.add(0, fmt);
            try (PointerPointer<LLVMValueRef> as = new PointerPointer<>(args.toArray(new LLVMValueRef[0]))) {
                LLVMBuildCall2(t.builder, ft, fn, as, args.size(), "");
            }
            return;
        }
        LLVMValueRef buffer = LLVMConstNull(ptr);
        if (!args.isEmpty()) {
            LLVMTypeRef[] fields = args.stream().map(a -> LLVMTypeOf(a)).toArray(LLVMTypeRef[]::new);
            LLVMTypeRef struct;
            try (PointerPointer<LLVMTypeRef> fs = new PointerPointer<>(fields)) {
                struct = LLVMStructTypeInContext(t.ctx, fs, fields.length, 0);
            }
            buffer = entryAlloca(t, struct);
            for (int i = 0; i < args.size(); i++) {
                LLVMBuildStore(t.builder, args.get(i), LLVMBuildStructGEP2(t.builder, struct, buffer, i, ""));
            }
        }
        DeviceTarget.callLibrary(t, "CUDA driver", "vprintf", i32, fmt, buffer);
    }

    /**
     * An alloca of {@code type} in the entry block of the function being built, so that the back end places it
     * in the frame once, however often the code around it runs.
     */
    static LLVMValueRef entryAlloca(ModuleTranslation t, LLVMTypeRef type) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(t.builder);
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(here));
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        if (first != null && !first.isNull()) {
            LLVMPositionBuilderBefore(t.builder, first);
        } else {
            LLVMPositionBuilderAtEnd(t.builder, entry);
        }
        LLVMValueRef p = LLVMBuildAlloca(t.builder, type, "");
        LLVMPositionBuilderAtEnd(t.builder, here);
        return p;
    }
}
