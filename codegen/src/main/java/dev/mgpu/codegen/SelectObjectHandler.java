package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * {@code #gpu.select_object}: embeds one object of a binary as {@code <binary>_bin_cst} and launches its
 * kernels through {@code mgpuLaunchKernel}, loading the module per launch, in a constructor, or lazily.
 */
public final class SelectObjectHandler implements LLVMOffloadingHandler {
    @Override
    public String name() {
        return OffloadingHandlerAttr.SelectObject.NAME;
    }

    /** The name of the global holding a binary's selected object. */
    public static String blobName(String binary) {
        return binary + "_bin_cst";
    }

    /** The name of the global holding a kernel's name. */
    public static String kernelNameGlobal(String binary, String kernel) {
        return binary + "_" + kernel + "_kernel_name";
    }

    private static ObjectAttr selected(BinaryDescription b, HandlerContext ctx) {
        OffloadingHandlerAttr.SelectObject s = b.handler() instanceof OffloadingHandlerAttr.SelectObject so ? so
                : OffloadingHandlerAttr.DEFAULT;
        List<Attribute> objs = new ArrayList<>(b.objects());
        int i = s.select(objs);
        if (i < 0) {
            throw ctx.error(b.location(), "Invalid select_object target (must match an object of @" + b.name()
                    + "): " + (s.target() == null ? "none" : s.target()));
        }
        return b.objects().get(i);
    }

    /** The JIT optimisation level of an assembly object: its {@code O} property, else its target's. */
    static int jitOptLevel(ObjectAttr o) {
        if (o.properties() != null && o.properties().get("O") instanceof Attribute.IntegerAttr i) {
            return (int) i.value();
        }
        return o.target() instanceof GpuTarget t ? t.optLevel() : 2;
    }

    @Override
    public void embedBinary(BinaryDescription b, HandlerContext ctx) {
        ObjectAttr o = selected(b, ctx);
        boolean ptx = o.format() == ObjectFormat.ASSEMBLY;
        ctx.embedBytes(blobName(b.name()), o.object().bytes(), ptx, 8);
        if (ctx.loadStrategy() == LoadStrategy.CTOR) {
            LLVMValueRef module = ctx.zeroGlobal(b.name() + "_module", ctx.ptr(), 8);
            try (NativeBuilder owner = new NativeBuilder(ctx.context())) {
                LLVMBuilderRef bb = owner.get();
                LLVMValueRef load = ctx.internalFunction(b.name() + "_load");
                LLVMPositionBuilderAtEnd(bb, LLVMAppendBasicBlockInContext(ctx.context(), load, "entry"));
                LLVMValueRef m = loadModule(ctx, bb, b.name(), o);
                LLVMBuildStore(bb, m, module);
                LLVMBuildRetVoid(bb);
                ctx.addConstructor(load);
                LLVMValueRef unload = ctx.internalFunction(b.name() + "_unload");
                LLVMPositionBuilderAtEnd(bb, LLVMAppendBasicBlockInContext(ctx.context(), unload, "entry"));
                LLVMValueRef cur = LLVMBuildLoad2(bb, ctx.ptr(), module, "");
                ctx.runtime().call(bb, "mgpuModuleUnload", cur);
                LLVMBuildRetVoid(bb);
                ctx.addDestructor(unload);
            }
        }
    }

    private static LLVMValueRef blobSize(HandlerContext ctx, String binary) {
        LLVMValueRef g = ctx.global(blobName(binary));
        return ctx.intptr(LLVMGetArrayLength2(LLVMGlobalGetValueType(g)));
    }

    /** {@code mgpuModuleLoad(blob, size)}, or {@code mgpuModuleLoadJIT(blob, O, size)} for PTX. */
    static LLVMValueRef loadModule(HandlerContext ctx, LLVMBuilderRef b, String binary, ObjectAttr o) {
        LLVMValueRef blob = ctx.global(blobName(binary));
        if (o.format() == ObjectFormat.ASSEMBLY) {
            return ctx.runtime().call(b, "mgpuModuleLoadJIT", blob, ctx.i32(jitOptLevel(o)), blobSize(ctx, binary));
        }
        return ctx.runtime().call(b, "mgpuModuleLoad", blob, blobSize(ctx, binary));
    }

    @Override
    public void launchKernel(KernelLaunch l, BinaryDescription b, HandlerContext ctx) {
        ObjectAttr o = selected(b, ctx);
        LLVMBuilderRef bld = ctx.builder();
        if (ctx.global(blobName(b.name())) == null) {
            throw ctx.error(l.location(), "Invalid launch (must follow the embedding of its binary): "
                    + blobName(b.name()));
        }
        LLVMValueRef smem = l.sharedMemory() != null ? l.sharedMemory() : ctx.i32(0);
        LLVMValueRef params = argumentArray(ctx, l.args());
        LLVMValueRef name = ctx.cString(kernelNameGlobal(b.name(), l.kernel()), l.kernel());
        switch (ctx.loadStrategy()) {
            case PER_LAUNCH: {
                LLVMValueRef module = loadModule(ctx, bld, b.name(), o);
                LLVMValueRef fn = ctx.runtime().call(bld, "mgpuModuleGetFunction", module, name);
                LLVMValueRef stream = l.stream() != null ? l.stream() : ctx.runtime().call(bld, "mgpuStreamCreate");
                launchCall(ctx, l, fn, smem, stream, params);
                if (l.stream() == null) {
                    ctx.runtime().call(bld, "mgpuStreamSynchronize", stream);
                    ctx.runtime().call(bld, "mgpuStreamDestroy", stream);
                }
                ctx.runtime().call(bld, "mgpuModuleUnload", module);
                return;
            }
            case CTOR: {
                LLVMValueRef module = LLVMBuildLoad2(bld, ctx.ptr(), ctx.global(b.name() + "_module"), "");
                LLVMValueRef fn = ctx.runtime().call(bld, "mgpuModuleGetFunction", module, name);
                syncOrAsyncLaunch(ctx, l, fn, smem, params);
                return;
            }
            default: {
                int jit = o.format() == ObjectFormat.ASSEMBLY ? jitOptLevel(o) : -1;
                LLVMValueRef fn = lazyFunction(ctx, b.name(), l.kernel(), name, "mgpuModuleGetFunctionLazy",
                        ctx.global(blobName(b.name())), blobSize(ctx, b.name()), ctx.i32(jit));
                syncOrAsyncLaunch(ctx, l, fn, smem, params);
                return;
            }
        }
    }

    /**
     * Calls the kernel's handle getter: an internal, always-inline function {@code <binary>_<kernel>_get}
     * that reads the handle's cache slot with acquire ordering and, only while it is still null, calls the
     * runtime entry that loads the module once per device and fills the slot. One getter serves every
     * launch of the kernel, so a launch costs one call in the IR. The entry is called as
     * {@code entry(moduleCache, objectArgs..., name, slot)}.
     */
    static LLVMValueRef lazyFunction(HandlerContext ctx, String binary, String kernel, LLVMValueRef name,
            String entry, LLVMValueRef... objectArgs) {
        String getterName = binary + "_" + kernel + "_get";
        LLVMTypeRef getterType = LLVMFunctionType(ctx.ptr(), (PointerPointer<?>) null, 0, 0);
        LLVMValueRef getter = ctx.function(getterName);
        if (getter == null) {
            getter = ctx.internalFunction(getterName, getterType);
            LLVMAddAttributeAtIndex(getter, LLVMAttributeFunctionIndex, ctx.enumAttribute("alwaysinline"));
            LLVMAddAttributeAtIndex(getter, LLVMAttributeFunctionIndex, ctx.enumAttribute("nounwind"));
            LLVMValueRef cache = ctx.zeroGlobal(binary + "_module_cache", ctx.ptr(), 8);
            LLVMValueRef slot = ctx.zeroGlobal(binary + "_" + kernel + "_function", ctx.ptr(), 8);
            try (NativeBuilder owner = new NativeBuilder(ctx.context())) {
                LLVMBuilderRef b = owner.get();
                LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(ctx.context(), getter, "entry");
                LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(ctx.context(), getter, "load");
                LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx.context(), getter, "cached");
                LLVMPositionBuilderAtEnd(b, start);
                LLVMValueRef cached = LLVMBuildLoad2(b, ctx.ptr(), slot, "");
                LLVMSetOrdering(cached, LLVMAtomicOrderingAcquire);
                LLVMSetAlignment(cached, 8);
                LLVMValueRef isNull = LLVMBuildICmp(b, LLVMIntEQ, cached, ctx.nullPtr(), "");
                ctx.setUnlikely(LLVMBuildCondBr(b, isNull, slow, done));
                LLVMPositionBuilderAtEnd(b, done);
                LLVMBuildRet(b, cached);
                LLVMPositionBuilderAtEnd(b, slow);
                LLVMValueRef[] args = new LLVMValueRef[objectArgs.length + 3];
                args[0] = cache;
                System.arraycopy(objectArgs, 0, args, 1, objectArgs.length);
                args[args.length - 2] = name;
                args[args.length - 1] = slot;
                LLVMValueRef loaded = ctx.runtime().call(b, entry, args);
                LLVMBuildRet(b, loaded);
            }
        }
        return LLVMBuildCall2(ctx.builder(), getterType, getter, (PointerPointer<?>) null, 0, "");
    }

    /** A synchronous launch uses the default (null) stream and synchronises it; no stream is created. */
    static void syncOrAsyncLaunch(HandlerContext ctx, KernelLaunch l, LLVMValueRef fn, LLVMValueRef smem,
            LLVMValueRef params) {
        LLVMValueRef stream = l.stream() != null ? l.stream() : ctx.nullPtr();
        launchCall(ctx, l, fn, smem, stream, params);
        if (l.stream() == null) {
            ctx.runtime().call(ctx.builder(), "mgpuStreamSynchronize", stream);
        }
    }

    static void launchCall(HandlerContext ctx, KernelLaunch l, LLVMValueRef fn, LLVMValueRef smem,
            LLVMValueRef stream, LLVMValueRef params) {
        LLVMValueRef count = ctx.intptr(l.args().size());
        if (l.cluster() != null) {
            ctx.runtime().call(ctx.builder(), "mgpuLaunchClusterKernel", fn, l.cluster()[0], l.cluster()[1],
                    l.cluster()[2], l.grid()[0], l.grid()[1], l.grid()[2], l.block()[0], l.block()[1], l.block()[2],
                    smem, stream, params, ctx.nullPtr(), count);
        } else {
            ctx.runtime().call(ctx.builder(), "mgpuLaunchKernel", fn, l.grid()[0], l.grid()[1], l.grid()[2],
                    l.block()[0], l.block()[1], l.block()[2], smem, stream, params, ctx.nullPtr(), count);
        }
    }

    /**
     * Stores the arguments into the function's argument struct for this signature and returns the array
     * of pointers to its fields (see {@link HandlerContext#launchArgs}).
     */
    static LLVMValueRef argumentArray(HandlerContext ctx, List<LLVMValueRef> args) {
        LLVMBuilderRef b = ctx.builder();
        LLVMTypeRef[] fields = new LLVMTypeRef[args.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = LLVMTypeOf(args.get(i));
        }
        LLVMTypeRef st = ctx.structType(fields);
        HandlerContext.LaunchArgs a = ctx.launchArgs(st, fields.length);
        for (int i = 0; i < fields.length; i++) {
            LLVMBuildStore(b, args.get(i), a.fields().get(i));
        }
        return a.pointers();
    }
}
