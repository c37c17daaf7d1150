package dev.mgpu.tests.handler;

import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.bytedeco.llvm.global.LLVM.LLVMAddGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMSetInitializer;

import dev.mgpu.codegen.BinaryDescription;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.codegen.KernelLaunch;
import dev.mgpu.codegen.LLVMOffloadingHandler;
import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A handler plugged in through ServiceLoader: {@code #test.last_object<N>} embeds the last object of a
 * binary under {@code <binary>_last} and launches through {@code mgpuModuleLoad} + {@code mgpuLaunchKernel}
 * on the launch's stream, N times.
 */
public final class CountingHandler implements LLVMOffloadingHandler {
    @Override
    public String name() {
        return "test.last_object";
    }

    @Override
    public List<String> verify(OffloadingHandlerAttr.External attr, List<Attribute> objects) {
        if (!(attr.parameter() instanceof Attribute.IntegerAttr i) || i.value() < 1) {
            return List.of("Invalid #test.last_object count (must be an integer >= 1): " + attr.parameter());
        }
        return List.of();
    }

    @Override
    public void embedBinary(BinaryDescription binary, HandlerContext ctx) {
        ObjectAttr last = binary.objects().get(binary.objects().size() - 1);
        ctx.embedBytes(binary.name() + "_last", last.object().bytes(), false, 16);
    }

    @Override
    public void launchKernel(KernelLaunch l, BinaryDescription binary, HandlerContext ctx) {
        long n = ((Attribute.IntegerAttr) ((OffloadingHandlerAttr.External) binary.handler()).parameter()).value();
        LLVMValueRef blob = ctx.global(binary.name() + "_last");
        LLVMValueRef module = ctx.runtime().call(ctx.builder(), "mgpuModuleLoad", blob, ctx.intptr(3));
        LLVMValueRef fn = ctx.runtime().call(ctx.builder(), "mgpuModuleGetFunction", module,
                ctx.cString(binary.name() + "_name_" + l.kernel(), l.kernel()));
        for (long i = 0; i < n; i++) {
            ctx.runtime().call(ctx.builder(), "mgpuLaunchKernel", fn, l.grid()[0], l.grid()[1], l.grid()[2],
                    l.block()[0], l.block()[1], l.block()[2], ctx.i32(0),
                    l.stream() == null ? ctx.nullPtr() : l.stream(), ctx.nullPtr(), ctx.nullPtr(), ctx.intptr(0));
        }
        LLVMAddGlobal(ctx.module(), org.bytedeco.llvm.global.LLVM.LLVMInt8TypeInContext(ctx.context()),
                "test_handler_was_here");
        LLVMSetInitializer(ctx.global("test_handler_was_here"), org.bytedeco.llvm.global.LLVM.LLVMConstInt(
                org.bytedeco.llvm.global.LLVM.LLVMInt8TypeInContext(ctx.context()), 0, 0));
    }
}
