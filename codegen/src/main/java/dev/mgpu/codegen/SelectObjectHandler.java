package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
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

    /**
     * The name of the global holding a binary's selected object.
     *
     * @param binary the {@code gpu.binary}'s symbol name
     * @return the global's name
     */
    public static String blobName(String binary) {
        return binary + "_bin_cst";
    }

    /**
     * The object the binary's handler selects; a binary without a {@code #gpu.select_object} handler
     * gets the default, its first object.
     */
    private static ObjectAttr selected(BinaryDescription b, HandlerContext ctx) {
        OffloadingHandlerAttr.SelectObject s = b.handler() instanceof OffloadingHandlerAttr.SelectObject so ? so
                : OffloadingHandlerAttr.DEFAULT;
        int i = s.select(b.objects());
        if (i < 0) {
            throw ctx.error(b.location(), "Invalid select_object target (must match an object of @" + b.name()
                    + "): " + (s.target() == null ? "none" : s.target()));
        }
        return b.objects().get(i);
    }

    @Override
    public void embedBinary(BinaryDescription b, HandlerContext ctx) {
        ObjectAttr o = selected(b, ctx);
        ctx.claimEmbedding(b.name());
        LLVMValueRef blob = ctx.embedObject(blobName(b.name()), o, LaunchEmitter.appendsNul(o), 8);
        if (ctx.loadStrategy() == LoadStrategy.CTOR) {
            LLVMValueRef module = ctx.zeroGlobal(b.name() + "_module", ctx.ptr(), 8);
            LaunchEmitter emitter = new LaunchEmitter(ctx);
            try (NativeBuilder owner = new NativeBuilder(ctx.context())) {
                LLVMBuilderRef bb = owner.get();
                LLVMValueRef load = ctx.internalFunction(b.name() + "_load");
                LLVMPositionBuilderAtEnd(bb, LLVMAppendBasicBlockInContext(ctx.context(), load, "entry"));
                LLVMBuildStore(bb, emitter.loadModule(bb, blob, o), module);
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

    @Override
    public void launchKernel(KernelLaunch l, BinaryDescription b, HandlerContext ctx) {
        ObjectAttr o = selected(b, ctx);
        LLVMValueRef blob = ctx.global(blobName(b.name()));
        if (blob == null) {
            throw ctx.error(l.location(), "Invalid launch (must follow the embedding of its binary): "
                    + blobName(b.name()));
        }
        LaunchEmitter emitter = new LaunchEmitter(ctx);
        emitter.throughStub(l, in -> {
            LLVMBuilderRef bld = ctx.builder();
            LLVMValueRef params = emitter.argumentArray(in.args());
            LLVMValueRef name = emitter.kernelName(b.name(), in.kernel());
            switch (ctx.loadStrategy()) {
                case PER_LAUNCH: {
                    LLVMValueRef module = emitter.loadModule(bld, blob, o);
                    LLVMValueRef fn = ctx.runtime().call(bld, "mgpuModuleGetFunction", module, name);
                    emitter.launchOnOwnStream(in, fn, params);
                    ctx.runtime().call(bld, "mgpuModuleUnload", module);
                    return;
                }
                case CTOR: {
                    LLVMValueRef module = LLVMBuildLoad2(bld, ctx.ptr(), ctx.global(b.name() + "_module"), "");
                    LLVMValueRef fn = ctx.runtime().call(bld, "mgpuModuleGetFunction", module, name);
                    emitter.launch(in, fn, params);
                    return;
                }
                default: {
                    LLVMValueRef fn = emitter.cachedFunction(b.name(), in.kernel(), name,
                            "mgpuModuleGetFunctionLazy", blob, ctx.intptr(LaunchEmitter.embeddedSize(o)),
                            ctx.i32(LaunchEmitter.jitLevel(o)));
                    emitter.launch(in, fn, params);
                    return;
                }
            }
        });
    }
}
