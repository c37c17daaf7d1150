package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * {@code #gpu.runtime_select}: embeds every object of a binary with a table of {@code mgpuObject} entries
 * (kind, format, chip, data, size, JIT level) and, on first use per device, lets the runtime pick the best
 * object for the device present ({@code mgpuModuleGetFunctionSelect}).
 */
public final class RuntimeSelectHandler implements LLVMOffloadingHandler {
    /** The shared instance. */
    public static final RuntimeSelectHandler INSTANCE = new RuntimeSelectHandler();

    @Override
    public String name() {
        return OffloadingHandlerAttr.RuntimeSelect.NAME;
    }

    /**
     * The name of the global holding a binary's object table.
     *
     * @param binary the {@code gpu.binary}'s symbol name
     * @return the global's name
     */
    public static String tableName(String binary) {
        return binary + "_objects";
    }

    private static LLVMTypeRef entryType(HandlerContext ctx) {
        LLVMTypeRef i32 = ctx.runtime().i32Type();
        try (PointerPointer<LLVMTypeRef> f = new PointerPointer<>(i32, i32, ctx.ptr(), ctx.ptr(),
                ctx.runtime().intptrType(), i32)) {
            return LLVMStructTypeInContext(ctx.context(), f, 6, 0);
        }
    }

    @Override
    public void embedBinary(BinaryDescription b, HandlerContext ctx) {
        ctx.claimEmbedding(b.name());
        LLVMTypeRef et = entryType(ctx);
        int n = b.objects().size();
        LLVMValueRef[] entries = new LLVMValueRef[n];
        for (int i = 0; i < n; i++) {
            ObjectAttr o = b.objects().get(i);
            LLVMValueRef blob = ctx.embedObject(b.name() + "_obj_" + i, o, LaunchEmitter.appendsNul(o), 8);
            GpuTarget t = (GpuTarget) o.target();
            LLVMValueRef chip = ctx.cString(b.name() + "_obj_" + i + "_chip", t.chip());
            try (PointerPointer<LLVMValueRef> v = new PointerPointer<>(ctx.i32(ObjectCodes.kind(t)),
                    ctx.i32(ObjectCodes.format(o.format())), chip, blob, ctx.intptr(LaunchEmitter.embeddedSize(o)),
                    ctx.i32(LaunchEmitter.jitLevel(o)))) {
                entries[i] = LLVMConstNamedStruct(et, v, 6);
            }
        }
        LLVMValueRef arr;
        try (PointerPointer<LLVMValueRef> v = new PointerPointer<>(entries)) {
            arr = LLVMConstArray2(et, v, n);
        }
        LLVMValueRef objects = LLVMAddGlobal(ctx.module(), LLVMTypeOf(arr), b.name() + "_object_list");
        LLVMSetInitializer(objects, arr);
        LLVMSetLinkage(objects, LLVMInternalLinkage);
        LLVMSetGlobalConstant(objects, 1);
        LLVMSetAlignment(objects, 8);
        LLVMValueRef name = ctx.cString(b.name() + "_binary_name", b.name());
        LLVMValueRef table;
        LLVMTypeRef tt;
        try (PointerPointer<LLVMTypeRef> f = new PointerPointer<>(ctx.runtime().intptrType(), ctx.ptr(), ctx.ptr())) {
            tt = LLVMStructTypeInContext(ctx.context(), f, 3, 0);
        }
        try (PointerPointer<LLVMValueRef> v = new PointerPointer<>(ctx.intptr(n), objects, name)) {
            table = LLVMConstNamedStruct(tt, v, 3);
        }
        LLVMValueRef g = LLVMAddGlobal(ctx.module(), tt, tableName(b.name()));
        LLVMSetInitializer(g, table);
        LLVMSetLinkage(g, LLVMInternalLinkage);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetAlignment(g, 8);
    }

    @Override
    public void launchKernel(KernelLaunch l, BinaryDescription b, HandlerContext ctx) {
        LLVMValueRef table = ctx.global(tableName(b.name()));
        if (table == null) {
            throw ctx.error(l.location(), "Invalid launch (must follow the embedding of its binary): "
                    + tableName(b.name()));
        }
        LaunchEmitter emitter = new LaunchEmitter(ctx);
        emitter.throughStub(l, in -> {
            LLVMValueRef params = emitter.argumentArray(in.args());
            LLVMValueRef name = emitter.kernelName(b.name(), in.kernel());
            LLVMValueRef fn = emitter.cachedFunction(b.name(), in.kernel(), name, "mgpuModuleGetFunctionSelect",
                    table);
            emitter.launch(in, fn, params);
        });
    }
}
