package dev.mgpu.codegen.internal;

import static org.bytedeco.llvm.global.LLVM.*;

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
import dev.mgpu.dialect.llvm.LLVMKernelOps;
import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.dialect.nvvm.NVVM;
import dev.mgpu.dialect.rocdl.ROCDL;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.memref.Views;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of the ops of kernel bodies: the gpu dialect's thread indices, barrier and shuffle, the
 * memref element ops, structured control flow (scf) and the math functions. They run only in a kernel
 * module ({@link ModuleTranslation#device} set), where a memref is a pointer to its element 0.
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
        m.put(ShuffleOp.NAME, KernelTranslators::shuffle);
        m.put(SubgroupReduceOp.NAME, KernelTranslators::subgroupReduce);
        m.put(AllReduceOp.NAME, KernelTranslators::allReduce);
        m.put(DynamicSharedMemoryOp.NAME, KernelTranslators::dynamicSharedMemory);
        m.put(GpuReturnOp.NAME, HostTranslators::ret);
        m.put(MemRef.LoadOp.NAME, KernelTranslators::load);
        m.put(MemRef.StoreOp.NAME, KernelTranslators::store);
        m.put(MemRef.AllocaOp.NAME, KernelTranslators::alloca);
        m.put(MemRef.AtomicRMWOp.NAME, KernelTranslators::atomic);
        m.put(MemRef.DimOp.NAME, KernelTranslators::dim);
        m.put(Views.SubViewOp.NAME, KernelTranslators::subview);
        m.put(Views.ReinterpretCastOp.NAME, KernelTranslators::reinterpretCast);
        for (String view : List.of(Views.CastOp.NAME, Views.ReshapeOp.COLLAPSE, Views.ReshapeOp.EXPAND)) {
            // The same memory: a row-major reshape or a cast keeps element 0 where it is.
            m.put(view, (op, t) -> {
                device(op, t);
                t.map(op.result(0), t.lookup(op.operand(0), op));
            });
        }
        m.put(Scf.ForOp.NAME, KernelTranslators::forLoop);
        m.put(Scf.IfOp.NAME, KernelTranslators::ifThenElse);
        m.put(Scf.WhileOp.NAME, KernelTranslators::whileLoop);
        registerLowLevel(m);
        for (List<String> kinds : List.of(MathDialect.UNARY, MathDialect.BINARY, MathDialect.TERNARY)) {
            for (String k : kinds) {
                m.put("math." + k, KernelTranslators::math);
            }
        }
        for (String k : MathDialect.INTEGER) {
            m.put("math." + k, KernelTranslators::integerMath);
        }
        for (String k : MathDialect.CLASSES) {
            m.put("math." + k, KernelTranslators::floatClass);
        }
    }

    private static DeviceTarget device(Operation op, ModuleTranslation t) {
        if (t.device == null) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " in host code (must be inside a kernel of a"
                    + " gpu.module)");
        }
        return t.device;
    }

    /**
     * The device, for an op that needs the threads of a block together. On the CPU, only a kernel's body
     * runs them together ({@link WorkItemLoops}), which cuts it at barriers and sends shuffles to
     * {@link #shuffle}; anywhere else such an op is a located error.
     */
    private static DeviceTarget together(Operation op, ModuleTranslation t) {
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
    private static DeviceTarget exchanging(Operation op, ModuleTranslation t) {
        DeviceTarget d = together(op, t);
        if (d instanceof DeviceTarget.Amdgpu a && a.subgroupLanes() == 64 && a.isRdna()) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must run in wavefronts"
                    + " of 32 on an RDNA chip: ds_bpermute does not read across the halves of a wavefront of 64):"
                    + " +wavefrontsize64");
        }
        return d;
    }

    private static LLVMValueRef index(ModuleTranslation t, LLVMValueRef i32) {
        return LLVMBuildZExt(t.builder, i32, t.types.intptr, "");
    }

    // ------------------------------------------------------------------ gpu

    private static void dimension(Operation op, ModuleTranslation t) {
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

    private static void shuffle(Operation op, ModuleTranslation t) {
        DeviceTarget d = exchanging(op, t);
        ShuffleOp s = new ShuffleOp(op);
        LLVMValueRef value = t.lookup(s.value(), op);
        LLVMValueRef offset = t.lookup(s.offset(), op);
        LLVMValueRef width = t.lookup(s.width(), op);
        Type vt = s.value().type();
        LLVMValueRef lane = d.laneId(t);
        // The source lane and whether it is valid, as PTX's shfl.sync defines them for segments of `width`
        // lanes (segment = lane & -width, its last lane = segment | (width - 1)), with the offset's low five
        // bits: xor and down are valid up to the segment's last lane, up from its first, idx (counted from
        // the segment's first lane) always. NVPTX has the instruction; other targets compute the same.
        LLVMValueRef b = LLVMBuildAnd(t.builder, offset, DeviceTarget.i32(t, 31), "");
        LLVMValueRef segStart = LLVMBuildAnd(t.builder, lane, LLVMBuildNeg(t.builder, width, ""), "");
        LLVMValueRef segLast = LLVMBuildOr(t.builder, segStart, LLVMBuildSub(t.builder, width, DeviceTarget.i32(t, 1),
                ""), "");
        LLVMValueRef src;
        LLVMValueRef valid;
        switch (s.mode()) {
            case "xor" -> {
                src = LLVMBuildXor(t.builder, lane, b, "");
                valid = LLVMBuildICmp(t.builder, LLVMIntULE, src, segLast, "");
            }
            case "up" -> {
                src = LLVMBuildSub(t.builder, lane, b, "");
                valid = LLVMBuildICmp(t.builder, LLVMIntSGE, src, segStart, "");
            }
            case "down" -> {
                src = LLVMBuildAdd(t.builder, lane, b, "");
                valid = LLVMBuildICmp(t.builder, LLVMIntULE, src, segLast, "");
            }
            default -> {
                src = LLVMBuildOr(t.builder, segStart, LLVMBuildAnd(t.builder, b, LLVMBuildSub(t.builder, width,
                        DeviceTarget.i32(t, 1), ""), ""), "");
                valid = LLVMConstInt(LLVMInt1TypeInContext(t.ctx), 1, 0);
            }
        }
        LLVMValueRef from = LLVMBuildSelect(t.builder, valid, src, lane, "");
        LLVMValueRef[] r;
        if (d instanceof DeviceTarget.Cpu) {
            r = new LLVMValueRef[] {t.workItems.exchange(s.value(), from, op), null};
        } else {
            r = shuffleBits(t, d, s.mode(), value, offset, width, lane, from, null);
        }
        t.map(op.result(0), r[0]);
        t.map(op.result(1), r[1] != null ? r[1] : valid);
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

    private static LLVMValueRef cast(ModuleTranslation t, LLVMValueRef p, int as) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == as) {
            return p;
        }
        return LLVMBuildAddrSpaceCast(t.builder, p, LLVMPointerTypeInContext(t.ctx, as), "");
    }

    /** The most bytes one array of a kernel's frame may have on the CPU: a worker's stack is 8 MiB. */
    static final long CPU_FRAME_ARRAY = 1L << 20;

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

    static long staticCount(Type.MemRefType m, Operation where) {
        long n = 1;
        for (long d : m.shape()) {
            if (d == Type.DYNAMIC) {
                throw ModuleTranslation.error(where, "Invalid memref for a kernel (must have a static shape here): " + m);
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    // ------------------------------------------------------------------ memref

    /**
     * The address of {@code memref[indices]}: element 0 plus the indices times the strides, which an
     * identity layout computes from the shape (row-major) and a strided layout gives. Under the
     * bare-pointer convention they must be static (the leading dimension of an identity layout may be
     * dynamic).
     */
    private static LLVMValueRef elementPointer(ModuleTranslation t, Operation op, Value memref, List<Value> indices) {
        Type.MemRefType m = (Type.MemRefType) memref.type();
        if (m.layout() != null && !(m.layout() instanceof Attribute.StridedLayoutAttr)) {
            throw ModuleTranslation.error(op, "Invalid memref layout for a kernel (must be the identity or strided): " + m);
        }
        long[] strides = Views.Strides.of(m).strides();
        if (m.layout() == null && m.rank() > 1 && strides[0] != Type.DYNAMIC) {
            // Row-major with static rows: one GEP over the nested array type, an index per dimension. LLVM 20
            // keeps that row offset apart from the column, so neighbouring elements share one address; from
            // one flat index it made an `or` that it did not fold (2-D stencil: 50 SASS instructions after
            // ptxas against 42; tiled matmul: its inner loop unrolled twice instead of in full).
            LLVMTypeRef row = t.types.of(m.elementType(), op);
            for (int i = m.rank() - 1; i > 0; i--) {
                row = LLVMArrayType2(row, m.dim(i));
            }
            LLVMValueRef[] all = new LLVMValueRef[m.rank()];
            for (int i = 0; i < m.rank(); i++) {
                all[i] = t.lookup(indices.get(i), op);
            }
            try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(all)) {
                return LLVMBuildGEPWithNoWrapFlags(t.builder, row, t.lookup(memref, op), p, all.length, "",
                        LLVMGEPFlagInBounds | LLVMGEPFlagNUW);
            }
        }
        LLVMValueRef[] idx = new LLVMValueRef[m.rank()];
        for (int i = 0; i < m.rank(); i++) {
            idx[i] = t.lookup(indices.get(i), op);
        }
        // The offset is already in the pointer: a kernel's memref is its element 0 (the host passes the
        // aligned pointer plus the offset), so a strided layout's offset is not added again.
        return advance(t, op, t.lookup(memref, op), m.elementType(), idx, strides,
                "Invalid memref for a kernel (must have static strides: a kernel gets a bare pointer): " + m);
    }

    /**
     * {@code base} moved by the sum of {@code idx[i] * strides[i]} elements of {@code element} (a null index
     * is 0), in bounds and not wrapping; {@code dynamic} is the error for a stride that is not known.
     */
    private static LLVMValueRef advance(ModuleTranslation t, Operation op, LLVMValueRef base, Type element,
            LLVMValueRef[] idx, long[] strides, String dynamic) {
        LLVMTypeRef i64 = t.types.intptr;
        LLVMValueRef lin = null;
        for (int i = 0; i < idx.length; i++) {
            if (idx[i] == null) {
                continue;
            }
            if (strides[i] == Type.DYNAMIC) {
                throw ModuleTranslation.error(op, dynamic);
            }
            LLVMValueRef term = strides[i] == 1 ? idx[i] : noWrap(LLVMBuildMul(t.builder, idx[i], LLVMConstInt(i64,
                    strides[i], 1), ""));
            lin = lin == null ? term : noWrap(LLVMBuildAdd(t.builder, lin, term, ""));
        }
        if (lin == null) {
            return base;
        }
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(new LLVMValueRef[] {lin})) {
            return LLVMBuildGEPWithNoWrapFlags(t.builder, t.types.of(element, op), base, p, 1, "",
                    LLVMGEPFlagInBounds | LLVMGEPFlagNUW);
        }
    }

    /**
     * Marks an offset's arithmetic as neither signed- nor unsigned-wrapping: a memref access is in bounds, so
     * each index lies in {@code [0, size)} and the offset in {@code [0, elements)}, as upstream's lowering
     * also states.
     */
    private static LLVMValueRef noWrap(LLVMValueRef v) {
        LLVMSetNSW(v, 1);
        LLVMSetNUW(v, 1);
        return v;
    }

    private static void load(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.LoadOp l = new MemRef.LoadOp(op);
        LLVMValueRef p = elementPointer(t, op, l.memref(), l.indices());
        t.map(op.result(0), LLVMBuildLoad2(t.builder, t.types.of(op.result(0).type(), op), p, ""));
    }

    private static void store(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.StoreOp s = new MemRef.StoreOp(op);
        LLVMValueRef p = elementPointer(t, op, s.memref(), s.indices());
        LLVMBuildStore(t.builder, t.lookup(s.value(), op), p);
    }

    private static void alloca(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.AllocaOp a = new MemRef.AllocaOp(op);
        Type.MemRefType m = a.type();
        LLVMTypeRef arr = arrayOf(t, m, op);
        if (t.workItems != null) {
            LLVMValueRef p = t.workItems.privateMemory(op, arr, a.alignment() > 0 ? (int) a.alignment() : 16);
            t.map(op.result(0), cast(t, p, t.types.addressSpace(m, op)));
            return;
        }
        LLVMValueRef p = entryAlloca(t, arr);
        LLVMSetAlignment(p, a.alignment() > 0 ? (int) a.alignment() : 16);
        t.map(op.result(0), cast(t, p, t.types.addressSpace(m, op)));
    }

    /**
     * memref.subview: the address of the view's element 0, the source's moved by each offset times the
     * source's stride (a kernel's memref is the address of its element 0, so the view's type keeps only its
     * strides for the accesses through it).
     */
    private static void subview(Operation op, ModuleTranslation t) {
        device(op, t);
        Views.SubViewOp s = new Views.SubViewOp(op);
        Type.MemRefType src = (Type.MemRefType) s.source().type();
        for (long st : s.staticStrides()) {
            if (st <= 0) {
                // A kernel's addresses are computed as not wrapping: a step back or none would break that.
                throw ModuleTranslation.error(op, "Invalid memref.subview in a kernel (must have positive strides or"
                        + " strides given as values): " + st);
            }
        }
        long[] offsets = s.staticOffsets();
        List<Value> given = s.offsets();
        LLVMValueRef[] idx = new LLVMValueRef[offsets.length];
        int next = 0;
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] != 0) {
                idx[i] = offsets[i] == Type.DYNAMIC ? t.lookup(given.get(next++), op)
                        : LLVMConstInt(t.types.intptr, offsets[i], 1);
            }
        }
        t.map(op.result(0), advance(t, op, t.lookup(s.source(), op), src.elementType(), idx,
                Views.Strides.of(src).strides(), "Invalid memref.subview in a kernel (must view a memref of static"
                        + " strides where it has an offset: a kernel gets a bare pointer): " + src));
    }

    /**
     * memref.reinterpret_cast: the source's base, which is its element 0 moved back by its own offset, moved
     * by the offset given; the result's type gives the strides of the accesses through it.
     */
    private static void reinterpretCast(Operation op, ModuleTranslation t) {
        device(op, t);
        Views.ReinterpretCastOp r = new Views.ReinterpretCastOp(op);
        if (!(r.source().type() instanceof Type.MemRefType src)) {
            throw ModuleTranslation.error(op, "Invalid memref.reinterpret_cast in a kernel (must view a ranked memref:"
                    + " a kernel gets a bare pointer, without the rank): " + r.source().type());
        }
        long srcOffset = Views.Strides.of(src).offset();
        if (srcOffset == Type.DYNAMIC) {
            throw ModuleTranslation.error(op, "Invalid memref.reinterpret_cast in a kernel (must view a memref whose"
                    + " offset is static, to find its base from a bare pointer): " + src);
        }
        for (long st : Views.Strides.of((Type.MemRefType) op.result(0).type()).strides()) {
            if (st != Type.DYNAMIC && st <= 0) {
                // As for subviews: a kernel's addresses are computed as not wrapping and not stepping back.
                throw ModuleTranslation.error(op, "Invalid memref.reinterpret_cast in a kernel (must have positive"
                        + " strides or strides given as values): " + st);
            }
        }
        LLVMTypeRef i64 = t.types.intptr;
        LLVMValueRef from = null;
        if (r.offset() != null) {
            from = srcOffset == 0 ? t.lookup(r.offset(), op)
                    : LLVMBuildSub(t.builder, t.lookup(r.offset(), op), LLVMConstInt(i64, srcOffset, 1), "");
        } else if (r.staticOffset() != srcOffset) {
            from = LLVMConstInt(i64, r.staticOffset() - srcOffset, 1);
        }
        LLVMValueRef p = t.lookup(r.source(), op);
        if (from != null) {
            // The view may start before the source's element 0, so the step is signed and may be negative.
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(new LLVMValueRef[] {from})) {
                p = LLVMBuildGEPWithNoWrapFlags(t.builder, t.types.of(src.elementType(), op), p, pp, 1, "",
                        LLVMGEPFlagInBounds);
            }
        }
        t.map(op.result(0), p);
    }

    private static void dim(Operation op, ModuleTranslation t) {
        MemRef.DimOp d = new MemRef.DimOp(op);
        Type.MemRefType m = (Type.MemRefType) d.memref().type();
        Operation def = d.index() instanceof Value.OpResult r ? r.owner() : null;
        if (def != null && def.attr("value") instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() < m.rank()
                && m.dim((int) i.value()) != Type.DYNAMIC) {
            t.map(op.result(0), LLVMConstInt(t.types.intptr, m.dim((int) i.value()), 1));
            return;
        }
        throw ModuleTranslation.error(op, "Invalid memref.dim in a kernel (must ask for a static dimension by a"
                + " constant: a kernel gets a bare pointer without sizes): " + m);
    }

    private static final String[] RMW_KINDS = {"addf", "addi", "assign", "maxs", "maxu", "mins", "minu", "ori", "andi",
        "maxnumf", "minnumf"};
    private static final int[] RMW_OPS = {LLVMAtomicRMWBinOpFAdd, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpXchg,
        LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpMin, LLVMAtomicRMWBinOpUMin,
        LLVMAtomicRMWBinOpOr, LLVMAtomicRMWBinOpAnd, LLVMAtomicRMWBinOpFMax, LLVMAtomicRMWBinOpFMin};

    private static void atomic(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.AtomicRMWOp a = new MemRef.AtomicRMWOp(op);
        LLVMValueRef p = elementPointer(t, op, a.memref(), a.indices());
        LLVMValueRef v = t.lookup(a.value(), op);
        String kind = a.kind();
        for (int i = 0; i < RMW_KINDS.length; i++) {
            if (RMW_KINDS[i].equals(kind)) {
                LLVMValueRef r = LLVMBuildAtomicRMW(t.builder, RMW_OPS[i], p, v, LLVMAtomicOrderingAcquireRelease, 0);
                t.map(op.result(0), r);
                return;
            }
        }
        // mulf, muli, maximumf, minimumf: a compare-and-swap loop on the element's bits.
        LLVMTypeRef vt = LLVMTypeOf(v);
        LLVMTypeRef bitsType = LLVMIntTypeInContext(t.ctx, (int) Types.elementSize(a.value().type(), op) * 8);
        boolean isFloat = a.value().type() instanceof Type.FloatType;
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMValueRef first = LLVMBuildLoad2(t.builder, vt, p, "");
        LLVMSetOrdering(first, LLVMAtomicOrderingMonotonic);
        LLVMSetAlignment(first, (int) Types.elementSize(a.value().type(), op));
        LLVMBuildBr(t.builder, loop);
        LLVMPositionBuilderAtEnd(t.builder, loop);
        LLVMValueRef old = LLVMBuildPhi(t.builder, vt, "");
        LLVMValueRef next = switch (kind) {
            case "mulf" -> LLVMBuildFMul(t.builder, old, v, "");
            case "muli" -> LLVMBuildMul(t.builder, old, v, "");
            case "maximumf" -> DeviceTarget.call(t, "llvm.maximum." + floatSuffix(a.value().type()), vt, old, v);
            default -> DeviceTarget.call(t, "llvm.minimum." + floatSuffix(a.value().type()), vt, old, v);
        };
        LLVMValueRef cmp = isFloat ? LLVMBuildBitCast(t.builder, old, bitsType, "") : old;
        LLVMValueRef nw = isFloat ? LLVMBuildBitCast(t.builder, next, bitsType, "") : next;
        LLVMValueRef pair = LLVMBuildAtomicCmpXchg(t.builder, p, cmp, nw, LLVMAtomicOrderingAcquireRelease,
                LLVMAtomicOrderingMonotonic, 0);
        LLVMValueRef seen = LLVMBuildExtractValue(t.builder, pair, 0, "");
        LLVMValueRef ok = LLVMBuildExtractValue(t.builder, pair, 1, "");
        LLVMValueRef seenValue = isFloat ? LLVMBuildBitCast(t.builder, seen, vt, "") : seen;
        LLVMBuildCondBr(t.builder, ok, done, loop);
        addIncoming(old, first, pre);
        addIncoming(old, seenValue, loop);
        LLVMPositionBuilderAtEnd(t.builder, done);
        t.map(op.result(0), old);
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

    // ------------------------------------------------------------------ scf

    /** Translates every op of {@code b} but its terminator ({@code scf.yield}, {@code scf.condition}), which it returns. */
    private static Operation body(ModuleTranslation t, Block b) {
        List<Operation> ops = b.operations();
        for (int i = 0; i < ops.size() - 1; i++) {
            t.translateOp(ops.get(i));
        }
        return ops.get(ops.size() - 1);
    }

    /**
     * The blocks of a counted loop that the builder's block enters: {@code header} holds the induction
     * variable's phi (from {@code pre}, its incoming values left to the caller) and the builder is at its
     * end; {@code body} and {@code exit} are empty.
     */
    record Loop(LLVMBasicBlockRef pre, LLVMBasicBlockRef header, LLVMBasicBlockRef body, LLVMBasicBlockRef exit,
            LLVMValueRef iv) {
        static Loop open(ModuleTranslation t, LLVMValueRef lb) {
            LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
            LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
            LLVMBasicBlockRef header = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
            LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
            LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
            LLVMBuildBr(t.builder, header);
            LLVMPositionBuilderAtEnd(t.builder, header);
            return new Loop(pre, header, body, exit, LLVMBuildPhi(t.builder, LLVMTypeOf(lb), ""));
        }
    }

    private static void forLoop(Operation op, ModuleTranslation t) {
        Scf.ForOp f = new Scf.ForOp(op);
        LLVMValueRef lb = t.lookup(f.lowerBound(), op);
        LLVMValueRef ub = t.lookup(f.upperBound(), op);
        LLVMValueRef step = t.lookup(f.step(), op);
        List<LLVMValueRef> inits = t.lookup(f.inits(), op);
        Loop loop = Loop.open(t, lb);
        LLVMBasicBlockRef pre = loop.pre();
        LLVMBasicBlockRef bodyBlock = loop.body();
        LLVMBasicBlockRef header = loop.header();
        LLVMBasicBlockRef exit = loop.exit();
        LLVMValueRef iv = loop.iv();
        List<LLVMValueRef> iters = new ArrayList<>();
        for (LLVMValueRef v : inits) {
            iters.add(LLVMBuildPhi(t.builder, LLVMTypeOf(v), ""));
        }
        LLVMBuildCondBr(t.builder, LLVMBuildICmp(t.builder, LLVMIntSLT, iv, ub, ""), bodyBlock, exit);
        LLVMPositionBuilderAtEnd(t.builder, bodyBlock);
        Block b = f.body();
        t.map(b.argument(0), iv);
        for (int i = 0; i < iters.size(); i++) {
            t.map(b.argument(i + 1), iters.get(i));
        }
        Operation yield = body(t, b);
        List<LLVMValueRef> next = t.lookup(yield.operands(), yield);
        LLVMValueRef ivNext = LLVMBuildAdd(t.builder, iv, step, "");
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(t.builder);
        LLVMBuildBr(t.builder, header);
        addIncoming(iv, lb, pre);
        addIncoming(iv, ivNext, latch);
        for (int i = 0; i < iters.size(); i++) {
            addIncoming(iters.get(i), inits.get(i), pre);
            addIncoming(iters.get(i), next.get(i), latch);
        }
        LLVMPositionBuilderAtEnd(t.builder, exit);
        for (int i = 0; i < iters.size(); i++) {
            t.map(op.result(i), iters.get(i));
        }
    }

    private static void ifThenElse(Operation op, ModuleTranslation t) {
        Scf.IfOp s = new Scf.IfOp(op);
        LLVMValueRef c = t.lookup(s.condition(), op);
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        LLVMBasicBlockRef thenBlock = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        boolean hasElse = !s.elseRegion().isEmpty();
        LLVMBasicBlockRef elseBlock = hasElse ? LLVMAppendBasicBlockInContext(t.ctx, fn, "") : null;
        LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, c, thenBlock, hasElse ? elseBlock : merge);
        List<LLVMValueRef[]> incoming = new ArrayList<>();
        List<LLVMBasicBlockRef> from = new ArrayList<>();
        for (Region r : hasElse ? List.of(s.thenRegion(), s.elseRegion()) : List.of(s.thenRegion())) {
            LLVMPositionBuilderAtEnd(t.builder, r == s.thenRegion() ? thenBlock : elseBlock);
            Operation yield = body(t, r.entry());
            incoming.add(t.lookup(yield.operands(), yield).toArray(new LLVMValueRef[0]));
            from.add(LLVMGetInsertBlock(t.builder));
            LLVMBuildBr(t.builder, merge);
        }
        LLVMPositionBuilderAtEnd(t.builder, merge);
        for (int i = 0; i < op.resultCount(); i++) {
            LLVMValueRef phi = LLVMBuildPhi(t.builder, t.types.of(op.result(i).type(), op), "");
            for (int k = 0; k < incoming.size(); k++) {
                addIncoming(phi, incoming.get(k)[i], from.get(k));
            }
            t.map(op.result(i), phi);
        }
    }

    private static void whileLoop(Operation op, ModuleTranslation t) {
        Scf.WhileOp w = new Scf.WhileOp(op);
        if (w.before().blocks().size() != 1 || w.after().blocks().size() != 1) {
            throw ModuleTranslation.error(op, "Invalid scf.while for a kernel (must have one block per region)");
        }
        List<LLVMValueRef> inits = t.lookup(op.operands(), op);
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        LLVMBasicBlockRef before = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildBr(t.builder, before);
        LLVMPositionBuilderAtEnd(t.builder, before);
        Block bb = w.before().entry();
        List<LLVMValueRef> phis = new ArrayList<>();
        for (int i = 0; i < inits.size(); i++) {
            LLVMValueRef phi = LLVMBuildPhi(t.builder, LLVMTypeOf(inits.get(i)), "");
            phis.add(phi);
            t.map(bb.argument(i), phi);
        }
        Operation cond = body(t, bb);
        LLVMValueRef c = t.lookup(cond.operand(0), cond);
        List<LLVMValueRef> passed = t.lookup(cond.operands().subList(1, cond.operandCount()), cond);
        LLVMBuildCondBr(t.builder, c, after, exit);
        LLVMPositionBuilderAtEnd(t.builder, after);
        Block ab = w.after().entry();
        for (int i = 0; i < passed.size(); i++) {
            t.map(ab.argument(i), passed.get(i));
        }
        Operation yield = body(t, ab);
        List<LLVMValueRef> next = t.lookup(yield.operands(), yield);
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(t.builder);
        LLVMBuildBr(t.builder, before);
        for (int i = 0; i < phis.size(); i++) {
            addIncoming(phis.get(i), inits.get(i), pre);
            addIncoming(phis.get(i), next.get(i), latch);
        }
        LLVMPositionBuilderAtEnd(t.builder, exit);
        for (int i = 0; i < op.resultCount(); i++) {
            t.map(op.result(i), passed.get(i));
        }
    }

    // ------------------------------------------------------------------ math

    /**
     * gpu.printf: on NVIDIA, the CUDA driver's {@code vprintf} with the arguments in a buffer laid out as a C
     * struct; on the CPU, the C library's {@code printf}. Either way the arguments get C's promotions for a
     * variadic call: floats become doubles, integers narrower than {@code int} become {@code int}. AMD GPUs
     * print through ROCm's device libraries (ockl), which are not here: a located error.
     */
    private static void printf(Operation op, ModuleTranslation t) {
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
    private static LLVMValueRef entryAlloca(ModuleTranslation t, LLVMTypeRef type) {
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

    /**
     * gpu.subgroup_reduce: on a GPU, a butterfly of xor exchanges over the cluster's lanes (stride, 2 stride,
     * ...), after which every lane holds the same value; on the CPU, the cluster's values read from its
     * threads and combined in the same order, a balanced tree in lane order.
     */
    private static void subgroupReduce(Operation op, ModuleTranslation t) {
        DeviceTarget d = exchanging(op, t);
        SubgroupReduceOp r = new SubgroupReduceOp(op);
        int lanes = d.subgroupLanes();
        int size = r.clusterSize() > 0 ? r.clusterSize() : lanes;
        int stride = r.clusterStride();
        if ((long) size * stride > lanes) {
            throw ModuleTranslation.error(op, "Invalid cluster of gpu.subgroup_reduce for " + d.name() + " (must fit"
                    + " in a subgroup of " + lanes + " lanes): size " + size + ", stride " + stride);
        }
        Type type = op.operand(0).type();
        LLVMValueRef lane = d.laneId(t);
        LLVMValueRef v;
        if (d instanceof DeviceTarget.Cpu) {
            LLVMValueRef base = LLVMBuildAnd(t.builder, lane, DeviceTarget.i32(t, ~((size - 1) * stride)), "");
            List<LLVMValueRef> level = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                LLVMValueRef from = LLVMBuildOr(t.builder, base, DeviceTarget.i32(t, k * stride), "");
                level.add(t.workItems.exchange(op.operand(0), from, op));
            }
            while (level.size() > 1) {
                List<LLVMValueRef> next = new ArrayList<>();
                for (int k = 0; k < level.size(); k += 2) {
                    next.add(combine(t, r.kind(), type, level.get(k), level.get(k + 1)));
                }
                level = next;
            }
            v = level.get(0);
        } else {
            v = t.lookup(op.operand(0), op);
            for (int off = stride; off < size * stride; off *= 2) {
                v = combine(t, r.kind(), type, v, xorExchange(t, d, v, off, lane));
            }
        }
        t.map(op.result(0), v);
    }

    /**
     * gpu.all_reduce on a GPU (the CPU's is {@link WorkItemLoops}'s): each subgroup combines its lanes' values
     * by a butterfly of xor exchanges, its lane 0 keeps the result in workgroup memory, and after a barrier
     * the first subgroup combines those the same way; after a second barrier every thread reads the total.
     * Lanes past the block's last thread do not exist (a block of 48 threads has a second subgroup of 16):
     * an exchange with one is skipped, and on NVIDIA the shuffle names only the lanes that exist, so the
     * combination needs no identity value and a body's reduction works as a named one does. A block has at
     * most as many subgroups as a subgroup has lanes (1,024 threads), so one exchange suffices for the second.
     */
    private static void allReduce(Operation op, ModuleTranslation t) {
        DeviceTarget d = exchanging(op, t);
        AllReduceOp r = new AllReduceOp(op);
        Type type = r.value().type();
        LLVMTypeRef ty = t.types.of(type, op);
        int lanes = d.subgroupLanes();
        int log = Integer.numberOfTrailingZeros(lanes);
        LLVMValueRef x = t.lookup(r.value(), op);
        LLVMValueRef[] tid = {d.threadId(t, 0), d.threadId(t, 1), d.threadId(t, 2)};
        // A kernel's known_block_size is the only size it runs with: as constants, the sizes let LLVM drop
        // the masks and the checks of lanes past the block's end when the block is whole subgroups.
        long[] known = null;
        for (Operation p = op.parentOp(); p != null && known == null; p = p.parentOp()) {
            if (p.name().equals(GpuFuncOp.NAME)) {
                known = new GpuFuncOp(p).knownBlockSize();
            }
        }
        LLVMValueRef[] dim = new LLVMValueRef[3];
        for (int i = 0; i < 3; i++) {
            dim[i] = known != null ? DeviceTarget.i32(t, (int) known[i]) : d.blockDim(t, i);
        }
        // index in the block = (z * blockDim.y + y) * blockDim.x + x, the order in which subgroups are formed
        LLVMValueRef linear = LLVMBuildNUWAdd(t.builder, LLVMBuildNUWMul(t.builder, LLVMBuildNUWAdd(t.builder,
                LLVMBuildNUWMul(t.builder, tid[2], dim[1], ""), tid[1], ""), dim[0], ""), tid[0], "");
        LLVMValueRef threads = LLVMBuildNUWMul(t.builder, LLVMBuildNUWMul(t.builder, dim[0], dim[1], ""), dim[2], "");
        LLVMValueRef lane = LLVMBuildAnd(t.builder, linear, DeviceTarget.i32(t, lanes - 1), "");
        LLVMValueRef subgroup = LLVMBuildLShr(t.builder, linear, DeviceTarget.i32(t, log), "");
        LLVMValueRef first = LLVMBuildSub(t.builder, linear, lane, "");
        LLVMValueRef left = LLVMBuildSub(t.builder, threads, first, "");
        boolean whole = known != null && known[0] * known[1] * known[2] % lanes == 0;
        LLVMValueRef exist = whole ? DeviceTarget.i32(t, lanes) : LLVMBuildSelect(t.builder, LLVMBuildICmp(t.builder,
                LLVMIntULT, left, DeviceTarget.i32(t, lanes), ""), left, DeviceTarget.i32(t, lanes), "");
        // The lanes that exist, as a mask: all 32 but in a block's last, partial subgroup (NVIDIA only).
        LLVMValueRef mask = d instanceof DeviceTarget.Nvptx && !whole ? LLVMBuildLShr(t.builder, DeviceTarget.i32(t,
                -1), LLVMBuildSub(t.builder, DeviceTarget.i32(t, 32), exist, ""), "") : null;
        LLVMValueRef scratch = LLVMAddGlobalInAddressSpace(t.module, LLVMArrayType2(ty, lanes + 1),
                "__mgpu_all_reduce", 3);
        LLVMSetInitializer(scratch, LLVMGetUndef(LLVMArrayType2(ty, lanes + 1)));
        LLVMSetLinkage(scratch, LLVMInternalLinkage);
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));

        LLVMValueRef v = butterfly(op, t, d, r, x, lane, exist, mask);
        LLVMValueRef isLane0 = LLVMBuildICmp(t.builder, LLVMIntEQ, lane, DeviceTarget.i32(t, 0), "");
        whenTrue(t, fn, isLane0, () -> LLVMBuildStore(t.builder, v, element(t, scratch, ty, lanes, subgroup)));
        d.barrier(t);
        LLVMValueRef isFirst = LLVMBuildICmp(t.builder, LLVMIntEQ, subgroup, DeviceTarget.i32(t, 0), "");
        whenTrue(t, fn, isFirst, () -> {
            LLVMValueRef count = LLVMBuildLShr(t.builder, LLVMBuildAdd(t.builder, threads, DeviceTarget.i32(t,
                    lanes - 1), ""), DeviceTarget.i32(t, log), "");
            // A lane past the last subgroup reads a slot no subgroup wrote; its value is never combined.
            LLVMValueRef w = LLVMBuildLoad2(t.builder, ty, element(t, scratch, ty, lanes, lane), "");
            LLVMValueRef total = butterfly(op, t, d, r, w, lane, count, mask);
            whenTrue(t, fn, LLVMBuildICmp(t.builder, LLVMIntEQ,
                    lane, DeviceTarget.i32(t, 0), ""), () -> LLVMBuildStore(t.builder, total, element(t, scratch, ty,
                    lanes, DeviceTarget.i32(t, lanes))));
        });
        d.barrier(t);
        t.map(op.result(0), LLVMBuildLoad2(t.builder, ty, element(t, scratch, ty, lanes, DeviceTarget.i32(t, lanes)),
                ""));
    }

    /**
     * {@code v} combined over the lanes below {@code count} of the subgroup, by xor exchanges with lanes 1,
     * 2, 4, ... apart: an exchange with a lane at or past {@code count} is skipped. Lane 0 ends with the whole.
     */
    private static LLVMValueRef butterfly(Operation op, ModuleTranslation t, DeviceTarget d, AllReduceOp r,
            LLVMValueRef v, LLVMValueRef lane, LLVMValueRef count, LLVMValueRef mask) {
        for (int off = 1; off < d.subgroupLanes(); off *= 2) {
            LLVMValueRef other = xorExchange(t, d, v, off, lane, mask);
            LLVMValueRef partner = LLVMBuildXor(t.builder, lane, DeviceTarget.i32(t, off), "");
            LLVMValueRef valid = LLVMBuildICmp(t.builder, LLVMIntULT, partner, count, "");
            v = LLVMBuildSelect(t.builder, valid, combine(t, op, r, v, other), v, "");
        }
        return v;
    }

    /** {@code a} and {@code b} combined as all_reduce {@code r} says: by its named way, or by its body. */
    static LLVMValueRef combine(ModuleTranslation t, Operation op, AllReduceOp r, LLVMValueRef a, LLVMValueRef b) {
        if (r.kind() != null) {
            return combine(t, r.kind(), r.value().type(), a, b);
        }
        Block body = r.body();
        t.rebind(body.argument(0), a);
        t.rebind(body.argument(1), b);
        List<Operation> ops = body.operations();
        for (Operation o : ops.subList(0, ops.size() - 1)) {
            forgetWithin(t, o);
            t.translateOp(o);
        }
        return t.lookup(r.yielded(), op);
    }

    /**
     * Forgets what {@code op} and the ops and blocks of its regions were translated to, so that it is
     * translated again at the next combination (a GPU's butterfly combines at several places).
     */
    private static void forgetWithin(ModuleTranslation t, Operation op) {
        for (Value res : op.results()) {
            t.forget(res);
        }
        for (Region region : op.regions()) {
            for (Block blk : region.blocks()) {
                for (Value arg : blk.arguments()) {
                    t.forget(arg);
                }
                for (Operation inner : blk.operations()) {
                    forgetWithin(t, inner);
                }
            }
        }
    }

    /** Runs {@code then} where {@code cond} holds, and goes on after it. */
    private static void whenTrue(ModuleTranslation t, LLVMValueRef fn, LLVMValueRef cond, Runnable then) {
        LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, cond, yes, after);
        LLVMPositionBuilderAtEnd(t.builder, yes);
        then.run();
        LLVMBuildBr(t.builder, after);
        LLVMPositionBuilderAtEnd(t.builder, after);
    }

    /** Element {@code i} (i32) of {@code array}, a global of {@code n + 1} elements of {@code ty}. */
    private static LLVMValueRef element(ModuleTranslation t, LLVMValueRef array, LLVMTypeRef ty, int n, LLVMValueRef i) {
        LLVMValueRef[] idx = {DeviceTarget.i32(t, 0), i};
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
            return LLVMBuildInBoundsGEP2(t.builder, LLVMArrayType2(ty, n + 1), array, pp, 2, "");
        }
    }

    /** The value {@code v} of lane {@code lane ^ offset}, through the target's shuffle. */
    private static LLVMValueRef xorExchange(ModuleTranslation t, DeviceTarget d, LLVMValueRef v, int offset,
            LLVMValueRef lane) {
        return xorExchange(t, d, v, offset, lane, null);
    }

    /** As {@link #xorExchange(ModuleTranslation, DeviceTarget, LLVMValueRef, int, LLVMValueRef)}, among the lanes of {@code mask}. */
    private static LLVMValueRef xorExchange(ModuleTranslation t, DeviceTarget d, LLVMValueRef v, int offset,
            LLVMValueRef lane, LLVMValueRef mask) {
        LLVMValueRef off = DeviceTarget.i32(t, offset);
        return shuffleBits(t, d, "xor", v, off, DeviceTarget.i32(t, 32), lane, LLVMBuildXor(t.builder, lane, off, ""),
                mask)[0];
    }

    /**
     * The target's 32-bit shuffle ({@link DeviceTarget#shuffle32}) of a value of any width: a narrower one
     * widened and narrowed back, a wider one in 32-bit pieces shuffled alike. Returns {value, valid or null}.
     */
    private static LLVMValueRef[] shuffleBits(ModuleTranslation t, DeviceTarget d, String mode, LLVMValueRef v,
            LLVMValueRef offset, LLVMValueRef width, LLVMValueRef lane, LLVMValueRef src, LLVMValueRef mask) {
        LLVMTypeRef ty = LLVMTypeOf(v);
        LLVMTypeRef i32 = DeviceTarget.i32Type(t);
        int kind = LLVMGetTypeKind(ty);
        if (kind == LLVMFloatTypeKind || kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(ty) == 32) {
            return d.shuffle32(t, mode, v, offset, width, lane, src, mask);
        }
        int bits = kind == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(ty) : kind == LLVMDoubleTypeKind ? 64 : 16;
        LLVMTypeRef ity = LLVMIntTypeInContext(t.ctx, bits);
        LLVMValueRef x = kind == LLVMIntegerTypeKind ? v : LLVMBuildBitCast(t.builder, v, ity, "");
        LLVMValueRef out;
        LLVMValueRef valid = null;
        if (bits <= 32) {
            LLVMValueRef[] got = d.shuffle32(t, mode, LLVMBuildZExt(t.builder, x, i32, ""), offset, width, lane, src,
                    mask);
            out = LLVMBuildTrunc(t.builder, got[0], ity, "");
            valid = got[1];
        } else {
            // Piece k holds bits 32k and up; an i128 is four pieces, not two (the bits past 64 were lost).
            out = LLVMConstInt(ity, 0, 0);
            for (int k = 0; k * 32 < bits; k++) {
                LLVMValueRef shift = LLVMConstInt(ity, 32L * k, 0);
                LLVMValueRef piece = LLVMBuildTrunc(t.builder, k == 0 ? x : LLVMBuildLShr(t.builder, x, shift, ""),
                        i32, "");
                LLVMValueRef[] got = d.shuffle32(t, mode, piece, offset, width, lane, src, mask);
                LLVMValueRef wide = LLVMBuildZExt(t.builder, got[0], ity, "");
                out = LLVMBuildOr(t.builder, out, k == 0 ? wide : LLVMBuildShl(t.builder, wide, shift, ""), "");
                if (k == 0) {
                    valid = got[1];
                }
            }
        }
        return new LLVMValueRef[] {kind == LLVMIntegerTypeKind ? out : LLVMBuildBitCast(t.builder, out, ty, ""), valid};
    }

    /** {@code a} and {@code b} combined by the reduction {@code kind} of values of {@code type}. */
    static LLVMValueRef combine(ModuleTranslation t, String kind, Type type, LLVMValueRef a, LLVMValueRef b) {
        boolean isFloat = type instanceof Type.FloatType;
        LLVMTypeRef ty = LLVMTypeOf(a);
        String suffix = isFloat ? floatSuffix(type) : "i" + LLVMGetIntTypeWidth(ty);
        return switch (kind) {
            case "add" -> isFloat ? LLVMBuildFAdd(t.builder, a, b, "") : LLVMBuildAdd(t.builder, a, b, "");
            case "mul" -> isFloat ? LLVMBuildFMul(t.builder, a, b, "") : LLVMBuildMul(t.builder, a, b, "");
            case "and" -> LLVMBuildAnd(t.builder, a, b, "");
            case "or" -> LLVMBuildOr(t.builder, a, b, "");
            case "xor" -> LLVMBuildXor(t.builder, a, b, "");
            default -> {
                String intrinsic = switch (kind) {
                    case "minui" -> "umin";
                    case "minsi" -> "smin";
                    case "maxui" -> "umax";
                    case "maxsi" -> "smax";
                    case "minnumf" -> "minnum";
                    case "maxnumf" -> "maxnum";
                    case "minimumf" -> "minimum";
                    default -> "maximum";
                };
                yield DeviceTarget.call(t, "llvm." + intrinsic + "." + suffix, ty, a, b);
            }
        };
    }

    /** absi, ctlz, cttz and ctpop: LLVM's intrinsics, defined for every value (zero included), as upstream's. */
    private static void integerMath(Operation op, ModuleTranslation t) {
        device(op, t);
        LLVMValueRef x = t.lookup(op.operand(0), op);
        LLVMTypeRef ty = LLVMTypeOf(x);
        String kind = new MathDialect.FunctionOp(op).kind();
        String name = "llvm." + (kind.equals("absi") ? "abs" : kind) + ".i" + LLVMGetIntTypeWidth(ty);
        LLVMValueRef r = kind.equals("ctpop") ? DeviceTarget.call(t, name, ty, x)
                : DeviceTarget.call(t, name, ty, x, LLVMConstInt(LLVMInt1TypeInContext(t.ctx), 0, 0));
        t.map(op.result(0), r);
    }

    /** isnan, isinf, isfinite and isnormal: LLVM's llvm.is.fpclass, with the IEEE classes of each. */
    private static void floatClass(Operation op, ModuleTranslation t) {
        device(op, t);
        LLVMValueRef x = t.lookup(op.operand(0), op);
        // LLVM's class bits: signalling and quiet NaN 0x3, infinities 0x4 and 0x200, normals 0x8 and 0x100;
        // finite is every class but NaNs and infinities.
        int mask = switch (new MathDialect.FunctionOp(op).kind()) {
            case "isnan" -> 0x3;
            case "isinf" -> 0x204;
            case "isnormal" -> 0x108;
            default -> 0x1f8;
        };
        t.map(op.result(0), DeviceTarget.call(t, "llvm.is.fpclass." + floatSuffix(op.operand(0).type()),
                LLVMInt1TypeInContext(t.ctx), x, LLVMConstInt(LLVMInt32TypeInContext(t.ctx), mask, 0)));
    }

    private static void math(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        MathDialect.FunctionOp f = new MathDialect.FunctionOp(op);
        Type.FloatType ft = (Type.FloatType) op.result(0).type();
        LLVMTypeRef ty = t.types.of(ft, op);
        List<LLVMValueRef> args = t.lookup(op.operands(), op);
        String intrinsic = switch (f.kind()) {
            case "absf" -> "fabs";
            case "powf" -> "pow";
            default -> f.kind();
        };
        if (ft.width() == 16 && !DeviceTarget.EXACT.contains(intrinsic)) {
            // f16 and bf16, as upstream's lowering has them: the f32 function of the operands extended, rounded
            // back (no target has these functions for 16-bit floats in its library).
            LLVMTypeRef f32 = LLVMFloatTypeInContext(t.ctx);
            List<LLVMValueRef> wide = args.stream().map(a -> LLVMBuildFPExt(t.builder, a, f32, "")).toList();
            LLVMValueRef r = function(op, t, d, Type.F32, f32, intrinsic, wide);
            t.map(op.result(0), LLVMBuildFPTrunc(t.builder, r, ty, ""));
            return;
        }
        t.map(op.result(0), function(op, t, d, ft, ty, intrinsic, args));
    }

    /** The math function {@code intrinsic} of {@code args}, computed in {@code ft} ({@code ty}). */
    private static LLVMValueRef function(Operation op, ModuleTranslation t, DeviceTarget d, Type.FloatType ft,
            LLVMTypeRef ty, String intrinsic, List<LLVMValueRef> args) {
        if (intrinsic.equals("rsqrt")) {
            LLVMValueRef s = DeviceTarget.call(t, "llvm.sqrt." + floatSuffix(ft), ty, args.get(0));
            return LLVMBuildFDiv(t.builder, LLVMConstReal(ty, 1.0), s, "");
        }
        if (DeviceTarget.EXACT.contains(intrinsic) || ft.width() == 32 && d.nativeF32().contains(intrinsic)) {
            if (d instanceof DeviceTarget.Cpu && !intrinsic.equals("fabs") && !intrinsic.equals("copysign")) {
                // The back end may compute it with libm's function of that name.
                t.reserveLibraryName(d.libraryName(), intrinsic + (ft.width() == 32 ? "f" : ""));
            }
            return DeviceTarget.call(t, "llvm." + intrinsic + "." + floatSuffix(ft), ty, args.toArray(new LLVMValueRef[0]));
        }
        String lib = ft.width() == 32 || ft.width() == 64 ? d.libraryFunction(intrinsic, ft.width() == 64) : null;
        if (lib == null || !t.device.libraryAvailable()) {
            throw new MgpuException(op.knownLocation(), "Invalid " + op.name() + " on " + op.result(0).type() + " for "
                    + d.name() + " (must be a function the target computes natively, or " + d.libraryName() + " must be"
                    + " linked" + (lib == null ? "" : ": it provides " + lib) + "): " + new MathDialect.FunctionOp(op).kind());
        }
        t.device.libraryUsed(lib);
        return DeviceTarget.callLibrary(t, d.libraryName(), lib, ty, args.toArray(new LLVMValueRef[0]));
    }

    // ------------------------------------------------------------------ lowered kernels (llvm, nvvm, rocdl)

    /**
     * The llvm, nvvm and rocdl ops of kernels that upstream's {@code convert-gpu-to-nvvm} and {@code -rocdl}
     * have lowered, as {@code gpu-module-to-binary} takes them.
     */
    private static void registerLowLevel(Map<String, ModuleTranslation.OpTranslator> m) {
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
        m.put(LLVMKernelOps.ATOMIC_RMW, KernelTranslators::atomicRmw);
        m.put(MemRef.GetGlobalOp.NAME, KernelTranslators::getGlobal);
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
            m.put("llvm.intr." + k, KernelTranslators::intrinsic);
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
            m.put("rocdl." + i, (op, t) -> {
                DeviceTarget d = amdgpu(op, t);
                String[] parts = op.name().substring("rocdl.".length()).split("\\.");
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

    private static DeviceTarget nvptx(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (!(d instanceof DeviceTarget.Nvptx)) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must be compiled for"
                    + " #nvvm.target)");
        }
        return d;
    }

    private static DeviceTarget amdgpu(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (!(d instanceof DeviceTarget.Amdgpu)) {
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
    private static void intrinsic(Operation op, ModuleTranslation t) {
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
            suffix = floatSuffix(rt);
        } else if (rt instanceof Type.IntegerType i && Set.of("smax", "smin", "umax", "umin").contains(name)) {
            suffix = "i" + i.width();
        } else {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " (must be on floats, or smax/smin/umax/umin on"
                    + " integers): " + rt);
        }
        t.map(op.result(0), DeviceTarget.call(t, "llvm." + name + "." + suffix, t.types.of(rt, op),
                t.lookup(op.operands(), op).toArray(new LLVMValueRef[0])));
    }

    /**
     * An {@code llvm.mlir.global} of a kernel module (workgroup memory and the like) or of the host: no
     * initializer region, and an initial value that is an integer or float.
     */
    static void global(ModuleTranslation t, Operation op) {
        LLVMKernelOps.GlobalOp g = new LLVMKernelOps.GlobalOp(op);
        if (t.device instanceof DeviceTarget.Cpu && g.addressSpace() == 3) {
            // One global would be shared by the blocks that run in parallel.
            throw ModuleTranslation.error(op, "Invalid llvm.mlir.global in workgroup memory (addr_space = 3) for "
                    + t.device.name() + " (must be a kernel's workgroup attribution, which is each block's own)");
        }
        checkGlobalSpace(t, op, g.addressSpace(), op.attr("value") != null);
        if (t.device != null) {
            t.noteGlobal(op);
        }
        LLVMTypeRef ty = t.types.of(g.type(), op);
        LLVMValueRef v = LLVMAddGlobalInAddressSpace(t.module, ty, op.symbolName(), g.addressSpace());
        String linkage = g.linkage();
        Attribute value = op.attr("value");
        if (value != null) {
            LLVMSetInitializer(v, initializer(op, ty, value));
        } else if (!linkage.equals("external")) {
            LLVMSetInitializer(v, LLVMGetUndef(ty));
        }
        if (!linkage.equals("external") || value != null) {
            LLVMSetLinkage(v, Types.linkage(linkage));
        }
        if (op.hasAttr("constant")) {
            LLVMSetGlobalConstant(v, 1);
        }
        LLVMSetAlignment(v, g.alignment() > 0 ? (int) g.alignment() : 16);
    }

    /** The initial value of a global: an integer or float of its type; anything else is a located error. */
    /**
     * A memref.global: an array of its elements, in its memref's address space; one of the generic space
     * is placed in global memory on a GPU (constant memory on AMD when it is constant), and reached through
     * a generic pointer. Private is internal to the module; uninitialized is undefined.
     */
    static void memrefGlobal(ModuleTranslation t, Operation op) {
        MemRef.GlobalOp g = new MemRef.GlobalOp(op);
        Type.MemRefType m = g.type();
        Attribute space = m.memorySpace();
        if (t.device instanceof DeviceTarget.Cpu && !(space == null || space instanceof Attribute.IntegerAttr i
                && i.value() == 0 || space instanceof dev.mgpu.dialect.gpu.AddressSpaceAttr a && a.space().equals("global"))) {
            throw ModuleTranslation.error(op, "Invalid memory space of memref.global for " + t.device.name() + " (must"
                    + " be the generic or global one: workgroup memory is each block's own): " + space);
        }
        int as = t.types.addressSpace(m, op);
        if (as == 0 && t.device instanceof DeviceTarget.Nvptx) {
            as = 1;
        } else if (as == 0 && t.device instanceof DeviceTarget.Amdgpu) {
            as = g.isConstant() ? 4 : 1;
        }
        checkGlobalSpace(t, op, as, g.value() != null);
        t.noteGlobal(op);
        LLVMTypeRef elem = t.types.of(m.elementType(), op);
        long n = 1;
        for (long d : m.shape()) {
            n *= d;
        }
        if (n > (1L << 40) / LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), elem)) {
            // An object file's sections hold no more (LLVM wrapped the size of larger arrays silently).
            throw ModuleTranslation.error(op, "Invalid memref.global (must be at most 2^40 bytes): " + n + " elements");
        }
        LLVMTypeRef arr = LLVMArrayType2(elem, n);
        LLVMValueRef v = LLVMAddGlobalInAddressSpace(t.module, arr, op.symbolName(), as);
        Attribute.DenseElementsAttr value = g.value();
        if (value != null && value.isSplat() && value.bitsOf(0) == 0) {
            LLVMSetInitializer(v, LLVMConstNull(arr));
        } else if (value != null) {
            if (n > Integer.MAX_VALUE - 8) {
                throw ModuleTranslation.error(op, "Invalid memref.global (must have at most 2^31 elements unless all"
                        + " are zero): " + n);
            }
            LLVMValueRef[] cs = new LLVMValueRef[(int) n];
            for (int k = 0; k < n; k++) {
                long bits = value.bitsOf(k);
                cs[k] = k > 0 && value.isSplat() ? cs[0] : m.elementType() instanceof Type.FloatType f
                        ? Types.floatConstant(elem, dev.mgpu.ir.FloatBits.fromBits(bits, f), f) : LLVMConstInt(elem, bits, 1);
            }
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(cs)) {
                LLVMSetInitializer(v, LLVMConstArray2(elem, pp, n));
            }
        } else if (g.isDefinition()) {
            LLVMSetInitializer(v, LLVMGetUndef(arr));
        }
        if (g.isDefinition() && g.isPrivate()) {
            LLVMSetLinkage(v, LLVMInternalLinkage);
        }
        if (g.isConstant()) {
            LLVMSetGlobalConstant(v, 1);
        }
        if (g.alignment() > 0) {
            LLVMSetAlignment(v, (int) g.alignment());
        }
    }

    /**
     * Reports a global of a GPU kernel module in an address space the back end cannot place a global in (it
     * would end the process), or an initialized one in workgroup memory, which every block gets undefined.
     */
    private static void checkGlobalSpace(ModuleTranslation t, Operation op, int as, boolean initialized) {
        if (!(t.device instanceof DeviceTarget.Nvptx || t.device instanceof DeviceTarget.Amdgpu)) {
            return;
        }
        if (as != 0 && as != 1 && as != 3 && as != 4) {
            throw ModuleTranslation.error(op, "Invalid address space of " + op.name() + " for " + t.device.name()
                    + " (must be generic, global, workgroup or constant memory: 0, 1, 3 or 4): " + as);
        }
        if (as == 3 && initialized) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " in workgroup memory for " + t.device.name()
                    + " (must have no initial value: every block's workgroup memory starts undefined)");
        }
    }

    /**
     * memref.get_global: in a kernel, the bare pointer to the global's first element (in the memref's address
     * space); on the host, a descriptor of it with offset 0 and row-major strides.
     */
    private static void getGlobal(Operation op, ModuleTranslation t) {
        String name = new MemRef.GetGlobalOp(op).name().leaf();
        LLVMValueRef g = LLVMGetNamedGlobal(t.module, name);
        if (g == null || g.isNull()) {
            throw ModuleTranslation.error(op, "Invalid memref.get_global (must name a memref.global of the module): @"
                    + name);
        }
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        LLVMTypeRef want = t.types.pointer(m, op);
        LLVMValueRef p = LLVMTypeOf(g).equals(want) ? g : LLVMBuildAddrSpaceCast(t.builder, g, want, "");
        if (t.device != null) {
            t.map(op.result(0), p);
            return;
        }
        LLVMTypeRef intptr = t.types.intptr;
        long[] shape = m.shape();
        LLVMValueRef[] fields = new LLVMValueRef[3 + 2 * shape.length];
        fields[0] = p;
        fields[1] = p;
        fields[2] = LLVMConstInt(intptr, 0, 0);
        long stride = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            fields[3 + i] = LLVMConstInt(intptr, shape[i], 0);
            fields[3 + shape.length + i] = LLVMConstInt(intptr, stride, 0);
            stride *= shape[i];
        }
        t.map(op.result(0), t.types.packMemref(t.builder, m, fields, op));
    }

    private static LLVMValueRef initializer(Operation op, LLVMTypeRef ty, Attribute value) {
        int kind = LLVMGetTypeKind(ty);
        if (value instanceof Attribute.IntegerAttr i && kind == LLVMIntegerTypeKind) {
            return LLVMConstInt(ty, i.value(), 1);
        }
        if (value instanceof Attribute.FloatAttr f && (kind == LLVMFloatTypeKind || kind == LLVMDoubleTypeKind
                || kind == LLVMHalfTypeKind || kind == LLVMBFloatTypeKind)) {
            return Types.floatConstant(ty, f.value(), (Type.FloatType) f.type());
        }
        throw ModuleTranslation.error(op, "Invalid initial value of llvm.mlir.global (must be an integer or float of"
                + " its type): " + value);
    }
}
