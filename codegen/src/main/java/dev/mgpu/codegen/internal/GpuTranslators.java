package dev.mgpu.codegen.internal;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.BinaryDescription;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.codegen.KernelLaunch;
import dev.mgpu.codegen.RuntimeCalls;
import dev.mgpu.dialect.Gpu;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of the gpu ops. Tokens are streams. An async op runs on the stream of its first dependency
 * (other dependencies are joined through events), or on a new stream when it has none; a synchronous op
 * runs on that stream, or the default (null) stream, and synchronises it.
 */
final class GpuTranslators {
    private GpuTranslators() {
    }

    static void register(Map<String, ModuleTranslation.OpTranslator> m) {
        m.put(Gpu.LAUNCH_FUNC, GpuTranslators::launch);
        m.put(Gpu.ALLOC, GpuTranslators::alloc);
        m.put(Gpu.DEALLOC, GpuTranslators::dealloc);
        m.put(Gpu.WAIT, GpuTranslators::waitOp);
        m.put(Gpu.MEMCPY, GpuTranslators::memcpy);
        m.put(Gpu.MEMSET, GpuTranslators::memset);
        m.put(Gpu.HOST_REGISTER, GpuTranslators::hostRegister);
    }

    private static RuntimeCalls rt(ModuleTranslation t) {
        return t.handlers.runtime();
    }

    /**
     * The distinct streams among {@code tokens}, in order. Tokens are streams, and an op that depends on
     * one token and yields another hands the same stream on, so two tokens are often one stream; waiting
     * for a stream's own event is wasted work, and destroying a stream twice is an error.
     */
    private static List<LLVMValueRef> distinct(List<LLVMValueRef> tokens) {
        List<LLVMValueRef> out = new ArrayList<>(tokens.size());
        for (LLVMValueRef v : tokens) {
            if (out.stream().noneMatch(o -> o.address() == v.address())) {
                out.add(v);
            }
        }
        return out;
    }

    /** Makes {@code stream} wait for each of {@code others} that is another stream, through an event. */
    private static void join(ModuleTranslation t, LLVMValueRef stream, List<LLVMValueRef> others) {
        for (LLVMValueRef o : distinct(others)) {
            if (o.address() == stream.address()) {
                continue;
            }
            LLVMValueRef e = rt(t).call(t.builder, "mgpuEventCreate");
            rt(t).call(t.builder, "mgpuEventRecord", e, o);
            rt(t).call(t.builder, "mgpuStreamWaitEvent", stream, e);
            rt(t).call(t.builder, "mgpuEventDestroy", e);
        }
    }

    /** The stream an async-capable op runs on; null means the default stream. */
    private static LLVMValueRef stream(ModuleTranslation t, Operation op, List<Value> deps, boolean async) {
        if (deps.isEmpty()) {
            return async ? rt(t).call(t.builder, "mgpuStreamCreate") : null;
        }
        List<LLVMValueRef> ds = t.lookup(deps, op);
        join(t, ds.get(0), ds.subList(1, ds.size()));
        return ds.get(0);
    }

    private static LLVMValueRef orNull(ModuleTranslation t, LLVMValueRef s) {
        return s != null ? s : t.handlers.nullPtr();
    }

    /** After a synchronous op: wait for its stream. An async op's token becomes its stream. */
    private static void finish(ModuleTranslation t, Operation op, LLVMValueRef stream) {
        Value token = Gpu.asyncToken(op);
        if (token != null) {
            t.map(token, stream);
        } else {
            rt(t).call(t.builder, "mgpuStreamSynchronize", orNull(t, stream));
        }
    }

    /** A launch size as {@code intptr_t}; the IR type says whether a conversion is needed at all. */
    private static LLVMValueRef toIntptr(ModuleTranslation t, Operation op, Value v) {
        LLVMValueRef l = t.lookup(v, op);
        int w = v.type() instanceof Type.IntegerType i ? i.width() : t.types.intptrWidth;
        if (w == t.types.intptrWidth) {
            return l;
        }
        LLVMTypeRef ip = t.types.intptr;
        return w < t.types.intptrWidth ? LLVMBuildZExt(t.builder, l, ip, "") : LLVMBuildTrunc(t.builder, l, ip, "");
    }

    private static LLVMValueRef[] dims(ModuleTranslation t, Operation op, Value x, Value y, Value z) {
        if (x == null) {
            return null;
        }
        return new LLVMValueRef[] {toIntptr(t, op, x), toIntptr(t, op, y), toIntptr(t, op, z)};
    }

    /** The address of a memref's first element: the aligned pointer advanced by the offset. */
    private static LLVMValueRef dataPointer(ModuleTranslation t, Operation op, Value memref) {
        Type.MemRefType m = (Type.MemRefType) memref.type();
        LLVMValueRef d = t.lookup(memref, op);
        LLVMValueRef aligned = LLVMBuildExtractValue(t.builder, d, 1, "");
        LLVMValueRef offset = LLVMBuildExtractValue(t.builder, d, 2, "");
        LLVMTypeRef elem = t.types.of(m.elementType(), op);
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(new LLVMValueRef[] {offset})) {
            return LLVMBuildGEP2(t.builder, elem, aligned, p, 1, "");
        }
    }

    private static void launch(Operation op, ModuleTranslation t) {
        Gpu.LaunchFuncOp l = new Gpu.LaunchFuncOp(op);
        BinaryDescription bin = t.binary(l.moduleName());
        if (bin == null) {
            throw ModuleTranslation.error(op, "Invalid kernel module for translation (must be a gpu.binary): @"
                    + l.moduleName());
        }
        boolean async = l.asyncToken() != null;
        LLVMValueRef stream;
        if (l.asyncObject() != null) {
            stream = t.lookup(l.asyncObject(), op);
            join(t, stream, t.lookup(l.asyncDependencies(), op));
        } else {
            stream = stream(t, op, l.asyncDependencies(), async);
        }
        List<LLVMValueRef> args = new ArrayList<>();
        for (Value v : l.kernelOperands()) {
            // Memrefs follow the bare-pointer convention: the kernel receives the address of element 0.
            args.add(v.type() instanceof Type.MemRefType ? dataPointer(t, op, v) : t.lookup(v, op));
        }
        LLVMValueRef smem = l.dynamicSharedMemorySize() == null ? null : t.lookup(l.dynamicSharedMemorySize(), op);
        KernelLaunch k = new KernelLaunch(l.moduleName(), l.kernelName(),
                dims(t, op, l.gridSize(0), l.gridSize(1), l.gridSize(2)),
                dims(t, op, l.blockSize(0), l.blockSize(1), l.blockSize(2)),
                dims(t, op, l.clusterSize(0), l.clusterSize(1), l.clusterSize(2)), smem,
                stream, args, op.location());
        HandlerContext hc = t.handlers;
        t.handlerOf(l.moduleName()).launchKernel(k, bin, hc);
        if (async) {
            t.map(l.asyncToken(), stream);
        }
    }

    /** The element count of a memref value: a constant for static shapes, else the product of its sizes. */
    private static LLVMValueRef elementCount(ModuleTranslation t, Operation op, Value memref) {
        Type.MemRefType m = (Type.MemRefType) memref.type();
        if (m.dynamicDimCount() == 0) {
            long n = 1;
            for (int i = 0; i < m.rank(); i++) {
                n *= m.dim(i);
            }
            return LLVMConstInt(t.types.intptr, n, 0);
        }
        LLVMValueRef d = t.lookup(memref, op);
        LLVMValueRef sizes = LLVMBuildExtractValue(t.builder, d, 3, "");
        LLVMValueRef n = LLVMConstInt(t.types.intptr, 1, 0);
        for (int i = 0; i < m.rank(); i++) {
            n = LLVMBuildMul(t.builder, n, LLVMBuildExtractValue(t.builder, sizes, i, ""), "");
        }
        return n;
    }

    private static void alloc(Operation op, ModuleTranslation t) {
        Gpu.AllocOp a = new Gpu.AllocOp(op);
        Type.MemRefType m = a.type();
        LLVMBuilderRef b = t.builder;
        LLVMTypeRef ip = t.types.intptr;
        LLVMValueRef[] sizes = new LLVMValueRef[m.rank()];
        List<Value> dyn = a.dynamicSizes();
        int d = 0;
        for (int i = 0; i < m.rank(); i++) {
            sizes[i] = m.dim(i) == Type.DYNAMIC ? t.lookup(dyn.get(d++), op) : LLVMConstInt(ip, m.dim(i), 0);
        }
        LLVMValueRef[] strides = new LLVMValueRef[m.rank()];
        LLVMValueRef running = LLVMConstInt(ip, 1, 0);
        for (int i = m.rank() - 1; i >= 0; i--) {
            strides[i] = running;
            running = LLVMBuildMul(b, running, sizes[i], "");
        }
        long elem = Types.elementSize(m.elementType(), op);
        LLVMValueRef bytes = LLVMBuildMul(b, running, LLVMConstInt(ip, elem, 0), "");
        LLVMValueRef stream = stream(t, op, a.asyncDependencies(), a.asyncToken() != null);
        LLVMValueRef bytes64 = LLVMGetIntTypeWidth(ip) == 64 ? bytes : LLVMBuildZExt(b, bytes, rt(t).i64Type(), "");
        LLVMValueRef p = rt(t).call(b, "mgpuMemAlloc", bytes64, orNull(t, stream),
                LLVMConstInt(rt(t).i8Type(), a.hostShared() ? 1 : 0, 0));
        LLVMValueRef[] fields = new LLVMValueRef[3 + 2 * m.rank()];
        fields[0] = p;
        fields[1] = p;
        fields[2] = LLVMConstInt(ip, 0, 0);
        System.arraycopy(sizes, 0, fields, 3, m.rank());
        System.arraycopy(strides, 0, fields, 3 + m.rank(), m.rank());
        t.map(a.memref(), t.types.packMemref(b, m, fields, op));
        finish(t, op, stream);
    }

    private static void dealloc(Operation op, ModuleTranslation t) {
        List<Value> deps = Gpu.asyncDependencies(op);
        Value memref = op.operand(op.operandCount() - 1);
        LLVMValueRef stream = stream(t, op, deps, Gpu.asyncToken(op) != null);
        LLVMValueRef allocated = LLVMBuildExtractValue(t.builder, t.lookup(memref, op), 0, "");
        rt(t).call(t.builder, "mgpuMemFree", allocated, orNull(t, stream));
        finish(t, op, stream);
    }

    private static void waitOp(Operation op, ModuleTranslation t) {
        List<LLVMValueRef> deps = t.lookup(op.operands(), op);
        if (op.resultCount() > 0) {
            LLVMValueRef s = rt(t).call(t.builder, "mgpuStreamCreate");
            join(t, s, deps);
            t.map(op.result(0), s);
            return;
        }
        if (deps.isEmpty()) {
            rt(t).call(t.builder, "mgpuStreamSynchronize", t.handlers.nullPtr());
            return;
        }
        for (LLVMValueRef d : distinct(deps)) {
            rt(t).call(t.builder, "mgpuStreamSynchronize", d);
            rt(t).call(t.builder, "mgpuStreamDestroy", d);
        }
    }

    private static void memcpy(Operation op, ModuleTranslation t) {
        List<Value> rest = Gpu.nonTokenOperands(op);
        Value dst = rest.get(0);
        Value src = rest.get(1);
        LLVMValueRef stream = stream(t, op, Gpu.asyncDependencies(op), Gpu.asyncToken(op) != null);
        long elem = Types.elementSize(((Type.MemRefType) dst.type()).elementType(), op);
        LLVMValueRef bytes = LLVMBuildMul(t.builder, elementCount(t, op, dst), LLVMConstInt(t.types.intptr, elem, 0), "");
        rt(t).call(t.builder, "mgpuMemcpy", dataPointer(t, op, dst), dataPointer(t, op, src), bytes, orNull(t, stream));
        finish(t, op, stream);
    }

    private static void memset(Operation op, ModuleTranslation t) {
        List<Value> rest = Gpu.nonTokenOperands(op);
        Value dst = rest.get(0);
        Type elem = ((Type.MemRefType) dst.type()).elementType();
        LLVMValueRef stream = stream(t, op, Gpu.asyncDependencies(op), Gpu.asyncToken(op) != null);
        LLVMValueRef v = t.lookup(rest.get(1), op);
        int width = elem instanceof Type.FloatType f ? f.width() : ((Type.IntegerType) elem).width();
        if (elem instanceof Type.FloatType) {
            v = LLVMBuildBitCast(t.builder, v, LLVMIntTypeInContext(t.ctx, width), "");
        }
        if (width == 16) {
            v = LLVMBuildZExt(t.builder, v, rt(t).i32Type(), "");
        }
        rt(t).call(t.builder, width == 16 ? "mgpuMemset16" : "mgpuMemset32", dataPointer(t, op, dst), v,
                elementCount(t, op, dst), orNull(t, stream));
        finish(t, op, stream);
    }

    private static void hostRegister(Operation op, ModuleTranslation t) {
        Value m = op.operand(0);
        Type elem = ((Type.UnrankedMemRefType) m.type()).elementType();
        LLVMValueRef d = t.lookup(m, op);
        LLVMValueRef rank = LLVMBuildExtractValue(t.builder, d, 0, "");
        LLVMValueRef desc = LLVMBuildExtractValue(t.builder, d, 1, "");
        if (LLVMGetIntTypeWidth(t.types.intptr) != 64) {
            rank = LLVMBuildSExt(t.builder, rank, rt(t).i64Type(), "");
        }
        rt(t).call(t.builder, "mgpuMemHostRegisterMemRef", rank, desc,
                LLVMConstInt(rt(t).i64Type(), Types.elementSize(elem, op), 0));
    }
}
