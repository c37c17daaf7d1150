package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The pieces of a kernel launch that every offloading handler emits the same way: the embedded size and
 * JIT level of an object, module loading, the kernel-name constant, the argument array, the cached
 * kernel-handle getter, and the {@code mgpuLaunchKernel} call on its stream. A handler decides only where
 * its module comes from and when it is loaded.
 *
 * <p>Within one launch, call {@link #argumentArray} and {@link #kernelName} before getting the function
 * and launching it, so that every handler lays out its globals in the same order.
 */
public final class LaunchEmitter {
    private final HandlerContext ctx;

    /** An emitter that builds at {@code ctx}'s builder. */
    public LaunchEmitter(HandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The name of the global holding a kernel's name. */
    public static String kernelNameGlobal(String binary, String kernel) {
        return binary + "_" + kernel + "_kernel_name";
    }

    /** Whether an object's embedded blob ends in an added NUL: PTX does, because the driver's JIT needs one. */
    public static boolean appendsNul(ObjectAttr o) {
        return o.format() == ObjectFormat.ASSEMBLY;
    }

    /** The size in bytes of an object's embedded blob, its added NUL included. */
    public static long embeddedSize(ObjectAttr o) {
        return o.object().length() + (appendsNul(o) ? 1 : 0);
    }

    /**
     * The JIT optimisation level of an assembly object (its {@code O} property, else its target's), or -1
     * for an object the driver loads as it is.
     */
    public static int jitLevel(ObjectAttr o) {
        if (!appendsNul(o)) {
            return -1;
        }
        if (o.properties() != null && o.properties().get("O") instanceof Attribute.IntegerAttr i) {
            return (int) i.value();
        }
        return o.target() instanceof GpuTarget t ? t.optLevel() : 2;
    }

    /**
     * Builds {@code mgpuModuleLoad(blob, size)}, or {@code mgpuModuleLoadJIT(blob, O, size)} for PTX, with
     * {@code b}; {@code blob} is the global that embeds {@code o}.
     */
    public LLVMValueRef loadModule(LLVMBuilderRef b, LLVMValueRef blob, ObjectAttr o) {
        LLVMValueRef size = ctx.intptr(embeddedSize(o));
        if (appendsNul(o)) {
            return ctx.runtime().call(b, "mgpuModuleLoadJIT", blob, ctx.i32(jitLevel(o)), size);
        }
        return ctx.runtime().call(b, "mgpuModuleLoad", blob, size);
    }

    /** The constant C string naming {@code kernel}, shared by every launch of it. */
    public LLVMValueRef kernelName(String binary, String kernel) {
        return ctx.cString(kernelNameGlobal(binary, kernel), kernel);
    }

    /**
     * Stores the arguments into the function's argument struct for this signature and returns the array
     * of pointers to its fields (see {@link HandlerContext#launchArgs}).
     */
    public LLVMValueRef argumentArray(List<LLVMValueRef> args) {
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

    /**
     * Calls the kernel's handle getter: an internal, always-inline function {@code <binary>_<kernel>_get}
     * that reads the handle's cache slot with acquire ordering and, only while it is still null, calls the
     * runtime entry that loads the module once per device and fills the slot. One getter serves every
     * launch of the kernel, so a launch costs one call in the IR. The entry is called as
     * {@code entry(moduleCache, objectArgs..., name, slot)}.
     */
    public LLVMValueRef cachedFunction(String binary, String kernel, LLVMValueRef name, String entry,
            LLVMValueRef... objectArgs) {
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

    /**
     * Launches {@code fn} on the launch's stream. A synchronous launch uses the default (null) stream and
     * synchronises it, so no stream is created.
     */
    public void launch(KernelLaunch l, LLVMValueRef fn, LLVMValueRef params) {
        LLVMValueRef stream = l.stream() != null ? l.stream() : ctx.nullPtr();
        launchCall(l, fn, stream, params);
        if (l.stream() == null) {
            ctx.runtime().call(ctx.builder(), "mgpuStreamSynchronize", stream);
        }
    }

    /**
     * Launches {@code fn} on the launch's stream, or, for a synchronous launch, on a stream made for it and
     * synchronised and destroyed after it, as the source documents do.
     */
    public void launchOnOwnStream(KernelLaunch l, LLVMValueRef fn, LLVMValueRef params) {
        LLVMBuilderRef b = ctx.builder();
        LLVMValueRef stream = l.stream() != null ? l.stream() : ctx.runtime().call(b, "mgpuStreamCreate");
        launchCall(l, fn, stream, params);
        if (l.stream() == null) {
            ctx.runtime().call(b, "mgpuStreamSynchronize", stream);
            ctx.runtime().call(b, "mgpuStreamDestroy", stream);
        }
    }

    private void launchCall(KernelLaunch l, LLVMValueRef fn, LLVMValueRef stream, LLVMValueRef params) {
        LLVMValueRef smem = l.sharedMemory() != null ? l.sharedMemory() : ctx.i32(0);
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
}
