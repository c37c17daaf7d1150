package dev.mgpu.tests;

import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.bytedeco.llvm.global.LLVM.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.BinaryDescription;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.codegen.KernelLaunch;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.NativeBuilder;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.codegen.SelectObjectHandler;
import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.Location;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMValueRef;
import org.junit.jupiter.api.Test;

/** A Java code generator drives a handler on its own LLVM module and builder, without any MLIR. */
class ForeignModuleTest {
    @Test
    void handlerOnACallersModule() {
        for (LoadStrategy s : LoadStrategy.values()) {
            try (NativeModule m = new NativeModule("mine"); NativeBuilder b = new NativeBuilder(m.context())) {
                LLVMValueRef fn = HandlerMisuseTest.runFunction(m);
                LLVMPositionBuilderAtEnd(b.get(), LLVMAppendBasicBlockInContext(m.context(), fn, "entry"));

                HandlerContext ctx = new HandlerContext(m.module(), b.get(), s);
                Location loc = Location.of("Gen.java", 7, 1);
                BinaryDescription bin = new BinaryDescription("mine", OffloadingHandlerAttr.DEFAULT,
                        List.of(ObjectAttr.of(GpuTarget.NVVMTarget.of("sm_90"), new byte[] {1, 2, 3})), loc);
                SelectObjectHandler h = new SelectObjectHandler();
                h.embedBinary(bin, ctx);
                LLVMValueRef one = ctx.intptr(1);
                LLVMValueRef[] dims = {one, one, one};
                h.launchKernel(new KernelLaunch("mine", "k", dims, dims, null, null, null, List.of(LLVMGetParam(fn, 0)),
                        loc), bin, ctx);
                LLVMBuildRetVoid(b.get());
                ctx.finish();

                BytePointer msg = new BytePointer((BytePointer) null);
                int broken = LLVMVerifyModule(m.module(), LLVMReturnStatusAction, msg);
                assertEquals(0, broken, msg.getString());
                String ir = m.toIR();
                assertTrue(ir.contains("@mine_bin_cst = internal constant [3 x i8] c\"\\01\\02\\03\", align 8"), ir);
                assertTrue(ir.contains("call void @mgpuLaunchKernel("), ir);
                assertEquals(s == LoadStrategy.CTOR, ir.contains("@llvm.global_ctors"), ir);
            }
        }
    }
}
