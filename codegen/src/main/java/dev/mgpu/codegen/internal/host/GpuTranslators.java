package dev.mgpu.codegen.internal.host;

import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.OpTable;
import dev.mgpu.codegen.internal.translate.Types;
import dev.mgpu.dialect.gpu.AllocOp;
import dev.mgpu.dialect.gpu.AsyncOpView;
import dev.mgpu.dialect.gpu.DeallocOp;
import dev.mgpu.dialect.gpu.HostRegisterOp;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.MemcpyOp;
import dev.mgpu.dialect.gpu.MemsetOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.WaitOp;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.BinaryDescription;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.codegen.KernelLaunch;
import dev.mgpu.codegen.RuntimeCalls;
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
public final class GpuTranslators {
    private GpuTranslators() {
    }

    /** After any gpu op: destroys the streams of mgpu's whose last token in use it was. */
    public static void release(Operation op, ModuleTranslation t) {
        for (LLVMValueRef s : t.streams.released(op, v -> t.lookup(v, op))) {
            rt(t).call(t.builder, "mgpuStreamDestroy", s);
        }
    }

    public static void register(Map<String, OpTable.OpTranslator<ModuleTranslation>> m) {
        m.put(LaunchFuncOp.NAME, GpuTranslators::launch);
        m.put(AllocOp.NAME, GpuTranslators::alloc);
        m.put(DeallocOp.NAME, GpuTranslators::dealloc);
        m.put(WaitOp.NAME, GpuTranslators::waitOp);
        m.put(MemcpyOp.NAME, GpuTranslators::memcpy);
        m.put(MemsetOp.NAME, GpuTranslators::memset);
        m.put(HostRegisterOp.NAME, GpuTranslators::hostRegister);
        m.put(HostRegisterOp.UNREGISTER, GpuTranslators::hostRegister);
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

    /**
     * Makes {@code stream} wait for each of {@code deps} on another stream: on the event recorded where
     * the token was produced, or, for a token that came through a block argument, on one recorded now.
     */
    private static void join(ModuleTranslation t, Operation op, LLVMValueRef stream, List<Value> deps) {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        seen.add(stream.address());
        for (Value d : deps) {
            LLVMValueRef ds = t.lookup(d, op);
            boolean other = seen.add(ds.address());
            LLVMValueRef e = t.streams.event(d);
            if (e != null) {
                if (other) {
                    rt(t).call(t.builder, "mgpuStreamWaitEvent", stream, e);
                }
                if (t.streams.waited(d)) {
                    rt(t).call(t.builder, "mgpuEventDestroy", e);
                }
            } else if (other) {
                LLVMValueRef now = rt(t).call(t.builder, "mgpuEventCreate");
                rt(t).call(t.builder, "mgpuEventRecord", now, ds);
                rt(t).call(t.builder, "mgpuStreamWaitEvent", stream, now);
                rt(t).call(t.builder, "mgpuEventDestroy", now);
            }
        }
    }

    /** The stream an async-capable op runs on; null means the default stream. */
    private static LLVMValueRef stream(ModuleTranslation t, Operation op, List<Value> deps, boolean async) {
        if (deps.isEmpty()) {
            return async ? rt(t).call(t.builder, "mgpuStreamCreate") : null;
        }
        LLVMValueRef first = t.lookup(deps.get(0), op);
        join(t, op, first, deps.subList(1, deps.size()));
        return first;
    }

    private static LLVMValueRef orNull(ModuleTranslation t, LLVMValueRef s) {
        return s != null ? s : t.handlers.nullPtr();
    }

    /** After a synchronous op: wait for its stream. An async op's token becomes its stream. */
    private static void finish(ModuleTranslation t, AsyncOpView op, LLVMValueRef stream) {
        Value token = op.asyncToken();
        if (token != null) {
            produce(t, token, stream);
        } else {
            rt(t).call(t.builder, "mgpuStreamSynchronize", orNull(t, stream));
        }
    }

    /**
     * {@code token} carries {@code stream} from here: an event is recorded when another stream will wait
     * for it, and a stream of mgpu's that no token in use carries is destroyed at once.
     */
    private static void produce(ModuleTranslation t, Value token, LLVMValueRef stream) {
        t.map(token, stream);
        if (t.streams.produced(token, stream)) {
            LLVMValueRef e = rt(t).call(t.builder, "mgpuEventCreate");
            rt(t).call(t.builder, "mgpuEventRecord", e, stream);
            t.streams.recorded(token, e);
        }
        if (t.streams.idle(stream)) {
            rt(t).call(t.builder, "mgpuStreamDestroy", stream);
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

    /**
     * Launch sizes as {@code intptr_t}; {@code converted} holds the conversions made for this launch, so a
     * value used for several sizes, as in {@code (%n, %n, %n)}, is converted once.
     */
    private static LLVMValueRef[] dims(ModuleTranslation t, Operation op, Map<Value, LLVMValueRef> converted,
            Value x, Value y, Value z) {
        if (x == null) {
            return null;
        }
        LLVMValueRef[] d = new LLVMValueRef[3];
        Value[] v = {x, y, z};
        for (int i = 0; i < 3; i++) {
            d[i] = converted.computeIfAbsent(v[i], k -> toIntptr(t, op, k));
        }
        return d;
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

    /**
     * Whether a launch of {@code bin}'s kernels passes memrefs as bare pointers: when asked for, or when its
     * objects say that their kernels take them so ({@link ObjectAttr#BARE_POINTERS}); objects that disagree
     * are a located error, since one launch serves them all.
     */
    private static boolean barePointers(ModuleTranslation t, Operation op, BinaryDescription bin) {
        long bare = bin.objects().stream().filter(ObjectAttr::barePointers).count();
        if (bare != 0 && bare != bin.objects().size()) {
            throw ModuleTranslation.error(op, "Invalid kernel module for a launch (must have objects that all take"
                    + " memrefs one way, bare pointers or descriptors): @" + bin.name() + " has " + bare + " of "
                    + bin.objects().size() + " with " + ObjectAttr.BARE_POINTERS);
        }
        return t.arguments.barePointers || bare != 0;
    }

    private static void launch(Operation op, ModuleTranslation t) {
        LaunchFuncOp l = new LaunchFuncOp(op);
        BinaryDescription bin = t.binary(l.moduleName());
        if (bin == null) {
            throw ModuleTranslation.error(op, "Invalid kernel module for translation (must be a gpu.binary): @"
                    + l.moduleName());
        }
        boolean async = l.asyncToken() != null;
        LLVMValueRef stream;
        if (l.asyncObject() != null) {
            stream = t.lookup(l.asyncObject(), op);
            t.streams.keep(stream);
            join(t, op, stream, l.asyncDependencies());
        } else {
            stream = stream(t, op, l.asyncDependencies(), async);
        }
        List<LLVMValueRef> args = new ArrayList<>();
        boolean bare = barePointers(t, op, bin);
        for (Value v : l.kernelOperands()) {
            if (!(v.type() instanceof Type.MemRefType m)) {
                args.add(t.lookup(v, op));
            } else if (bare) {
                // The bare-pointer convention: the kernel receives the address of element 0.
                args.add(dataPointer(t, op, v));
            } else {
                // Upstream's default: each field of the descriptor, one kernel parameter each.
                args.addAll(Types.fields(t.builder, t.lookup(v, op), m.rank()));
            }
        }
        LLVMValueRef smem = l.dynamicSharedMemorySize() == null ? null : t.lookup(l.dynamicSharedMemorySize(), op);
        Map<Value, LLVMValueRef> converted = new java.util.IdentityHashMap<>(4);
        KernelLaunch k = new KernelLaunch(l.moduleName(), l.kernelName(),
                dims(t, op, converted, l.gridSize(0), l.gridSize(1), l.gridSize(2)),
                dims(t, op, converted, l.blockSize(0), l.blockSize(1), l.blockSize(2)),
                dims(t, op, converted, l.clusterSize(0), l.clusterSize(1), l.clusterSize(2)), smem,
                stream, args, op.knownLocation());
        HandlerContext hc = t.handlers;
        t.handlerOf(l.moduleName()).launchKernel(k, bin, hc);
        t.launches.launchDone(t.builder, t.ctx);
        if (async) {
            produce(t, l.asyncToken(), stream);
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

    /** The sizes of a memref value, read from its descriptor. */
    private static LLVMValueRef[] dynamicSizes(ModuleTranslation t, Operation op, Value memref) {
        Type.MemRefType m = (Type.MemRefType) memref.type();
        LLVMValueRef sizes = LLVMBuildExtractValue(t.builder, t.lookup(memref, op), 3, "");
        LLVMValueRef[] out = new LLVMValueRef[m.rank()];
        for (int i = 0; i < out.length; i++) {
            out[i] = LLVMBuildExtractValue(t.builder, sizes, i, "");
        }
        return out;
    }

    /**
     * The product of {@code factors} and {@code last} as a byte count for the runtime, all ones when it
     * wraps: sizes known only at run time can overflow, and the runtime then refuses the all-ones size by
     * name instead of allocating or copying a wrapped, small one.
     */
    private static LLVMValueRef checkedProduct(ModuleTranslation t, LLVMValueRef[] factors, LLVMValueRef last) {
        LLVMBuilderRef b = t.builder;
        LLVMTypeRef ip = t.types.intptr;
        String name = "llvm.umul.with.overflow";
        int id = LLVMLookupIntrinsicID(name, name.length());
        LLVMValueRef fn;
        LLVMTypeRef fnType;
        // One element: PointerPointer's one-pointer constructor would take ip itself as the array.
        try (PointerPointer<LLVMTypeRef> types = new PointerPointer<LLVMTypeRef>(1).put(0, ip)) {
            fn = LLVMGetIntrinsicDeclaration(t.module, id, types, 1);
            fnType = LLVMIntrinsicGetType(t.ctx, id, types, 1);
        }
        List<LLVMValueRef> all = new ArrayList<>(List.of(factors));
        all.add(last);
        LLVMValueRef product = all.get(0);
        LLVMValueRef wrapped = null;
        for (LLVMValueRef f : all.subList(1, all.size())) {
            LLVMValueRef r;
            try (PointerPointer<LLVMValueRef> args = new PointerPointer<>(product, f)) {
                r = LLVMBuildCall2(b, fnType, fn, args, 2, "");
            }
            product = LLVMBuildExtractValue(b, r, 0, "");
            LLVMValueRef w = LLVMBuildExtractValue(b, r, 1, "");
            wrapped = wrapped == null ? w : LLVMBuildOr(b, wrapped, w, "");
        }
        return LLVMBuildSelect(b, wrapped, LLVMConstAllOnes(ip), product, "");
    }

    private static void alloc(Operation op, ModuleTranslation t) {
        AllocOp a = new AllocOp(op);
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
        LLVMValueRef bytes = m.dynamicDimCount() == 0 ? LLVMBuildMul(b, running, LLVMConstInt(ip, elem, 0), "")
                : checkedProduct(t, sizes, LLVMConstInt(ip, elem, 0));
        LLVMValueRef stream = stream(t, op, a.asyncDependencies(), a.asyncToken() != null);
        LLVMValueRef bytes64 = LLVMGetIntTypeWidth(ip) == 64 ? bytes : LLVMBuildZExt(b, bytes, rt(t).i64Type(), "");
        LLVMValueRef p = rt(t).call(b, "mgpuMemAlloc", bytes64, orNull(t, stream),
                LLVMConstInt(rt(t).i8Type(), a.hostShared() ? 1 : 0, 0));
        LLVMTypeRef pointer = t.types.pointer(m, op);
        if (t.types.addressSpace(m, op) != 0) {
            // The runtime returns a generic pointer; the memref's pointers live in its own address space.
            p = LLVMBuildAddrSpaceCast(b, p, pointer, "");
        }
        LLVMValueRef[] fields = new LLVMValueRef[3 + 2 * m.rank()];
        fields[0] = p;
        fields[1] = p;
        fields[2] = LLVMConstInt(ip, 0, 0);
        System.arraycopy(sizes, 0, fields, 3, m.rank());
        System.arraycopy(strides, 0, fields, 3 + m.rank(), m.rank());
        t.map(a.memref(), t.types.packMemref(b, m, fields, op));
        finish(t, a, stream);
    }

    private static void dealloc(Operation op, ModuleTranslation t) {
        DeallocOp d = new DeallocOp(op);
        LLVMValueRef stream = stream(t, op, d.asyncDependencies(), d.asyncToken() != null);
        LLVMValueRef allocated = LLVMBuildExtractValue(t.builder, t.lookup(d.memref(), op), 0, "");
        rt(t).call(t.builder, "mgpuMemFree", t.types.generic(t.builder, allocated), orNull(t, stream));
        finish(t, d, stream);
    }

    private static void waitOp(Operation op, ModuleTranslation t) {
        WaitOp w = new WaitOp(op);
        if (!w.isSynchronous()) {
            if (t.streams.uses(w.asyncToken()) == 0) {
                // Nothing waits for the new token, so there is nothing to make a stream for.
                return;
            }
            LLVMValueRef s = rt(t).call(t.builder, "mgpuStreamCreate");
            join(t, op, s, w.asyncDependencies());
            produce(t, w.asyncToken(), s);
            return;
        }
        List<LLVMValueRef> deps = t.lookup(w.asyncDependencies(), op);
        if (deps.isEmpty()) {
            rt(t).call(t.builder, "mgpuStreamSynchronize", t.handlers.nullPtr());
            return;
        }
        for (LLVMValueRef d : distinct(deps)) {
            rt(t).call(t.builder, "mgpuStreamSynchronize", d);
            if (!t.streams.isKept(d)) {
                rt(t).call(t.builder, "mgpuStreamDestroy", d);
            }
            t.streams.ended(d);
        }
    }

    private static void memcpy(Operation op, ModuleTranslation t) {
        MemcpyOp c = new MemcpyOp(op);
        Value dst = c.destination();
        Value src = c.source();
        LLVMValueRef stream = stream(t, op, c.asyncDependencies(), c.asyncToken() != null);
        long elem = Types.elementSize(((Type.MemRefType) dst.type()).elementType(), op);
        LLVMValueRef bytes = ((Type.MemRefType) dst.type()).dynamicDimCount() == 0
                ? LLVMBuildMul(t.builder, elementCount(t, op, dst), LLVMConstInt(t.types.intptr, elem, 0), "")
                : checkedProduct(t, dynamicSizes(t, op, dst), LLVMConstInt(t.types.intptr, elem, 0));
        rt(t).call(t.builder, "mgpuMemcpy", t.types.generic(t.builder, dataPointer(t, op, dst)),
                t.types.generic(t.builder, dataPointer(t, op, src)), bytes, orNull(t, stream));
        finish(t, c, stream);
    }

    private static void memset(Operation op, ModuleTranslation t) {
        MemsetOp m = new MemsetOp(op);
        Value dst = m.destination();
        Type elem = ((Type.MemRefType) dst.type()).elementType();
        LLVMValueRef stream = stream(t, op, m.asyncDependencies(), m.asyncToken() != null);
        LLVMValueRef v = t.lookup(m.value(), op);
        int width = elem instanceof Type.FloatType f ? f.width() : ((Type.IntegerType) elem).width();
        if (elem instanceof Type.FloatType) {
            v = LLVMBuildBitCast(t.builder, v, LLVMIntTypeInContext(t.ctx, width), "");
        }
        rt(t).call(t.builder, width == 16 ? "mgpuMemset16" : "mgpuMemset32", t.types.generic(t.builder,
                dataPointer(t, op, dst)), v,
                elementCount(t, op, dst), orNull(t, stream));
        finish(t, m, stream);
    }

    private static void hostRegister(Operation op, ModuleTranslation t) {
        Value m = new HostRegisterOp(op).memref();
        Type elem = ((Type.UnrankedMemRefType) m.type()).elementType();
        LLVMValueRef d = t.lookup(m, op);
        LLVMValueRef rank = LLVMBuildExtractValue(t.builder, d, 0, "");
        LLVMValueRef desc = LLVMBuildExtractValue(t.builder, d, 1, "");
        if (LLVMGetIntTypeWidth(t.types.intptr) != 64) {
            rank = LLVMBuildSExt(t.builder, rank, rt(t).i64Type(), "");
        }
        String fn = op.name().equals(HostRegisterOp.UNREGISTER) ? "mgpuMemHostUnregisterMemRef" : "mgpuMemHostRegisterMemRef";
        rt(t).call(t.builder, fn, rank, desc,
                LLVMConstInt(rt(t).i64Type(), Types.elementSize(elem, op), 0));
    }
}
