package dev.mgpu.tests;

import static org.bytedeco.llvm.global.LLVM.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.BinaryDescription;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.codegen.KernelLaunch;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.codegen.NativeBuilder;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.codegen.SelectObjectHandler;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Consumer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;
import org.junit.jupiter.api.Test;

/**
 * Every misuse of the handler API that once crashed the JVM in LLVM or built wrong IR without a word is a
 * clear Java exception, and a caller's own module can be emitted through mgpu, verified first.
 */
class HandlerMisuseTest {
    private static final Location LOC = Location.of("Gen.java", 3, 1);
    private static final BinaryDescription BIN = new BinaryDescription("mine", OffloadingHandlerAttr.DEFAULT,
            List.of(ObjectAttr.of(GpuTarget.NVVMTarget.of("sm_90"), new byte[] {1, 2, 3})), LOC);

    /** A module with {@code void @run(ptr)}, a builder, and a context; the builder at run's entry if asked. */
    private static void withModule(LoadStrategy s, boolean positioned, Consumer<Parts> body) {
        try (NativeModule m = new NativeModule("mine"); NativeBuilder b = new NativeBuilder(m.context())) {
            LLVMValueRef fn = runFunction(m);
            if (positioned) {
                LLVMPositionBuilderAtEnd(b.get(), LLVMAppendBasicBlockInContext(m.context(), fn, "entry"));
            }
            body.accept(new Parts(m, b, fn, new HandlerContext(m.module(), b.get(), s)));
        }
    }

    /** Adds {@code void @run(ptr)}, without a body, to {@code m}. */
    static LLVMValueRef runFunction(NativeModule m) {
        LLVMTypeRef ptr = LLVMPointerTypeInContext(m.context(), 0);
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(new LLVMTypeRef[] {ptr})) {
            return LLVMAddFunction(m.module(), "run", LLVMFunctionType(LLVMVoidTypeInContext(m.context()), p, 1, 0));
        }
    }

    private record Parts(NativeModule m, NativeBuilder b, LLVMValueRef fn, HandlerContext ctx) {
        KernelLaunch launch(LLVMValueRef size) {
            LLVMValueRef[] dims = {size, size, size};
            return new KernelLaunch("mine", "k", dims, dims, null, null, null, List.of(LLVMGetParam(fn, 0)), LOC);
        }
    }

    @Test
    void unpositionedBuilderIsAnException() {
        withModule(LoadStrategy.LAZY, false, p -> {
            new SelectObjectHandler().embedBinary(BIN, p.ctx());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new SelectObjectHandler().launchKernel(p.launch(p.ctx().intptr(1)), BIN, p.ctx()));
            assertEquals("Invalid builder (must be positioned in a basic block of a function): not positioned",
                    e.getMessage());
        });
    }

    @Test
    void sizesNarrowerThanIntptrAreAnException() {
        withModule(LoadStrategy.LAZY, true, p -> {
            new SelectObjectHandler().embedBinary(BIN, p.ctx());
            LLVMValueRef i32 = p.ctx().i32(4);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new SelectObjectHandler().launchKernel(p.launch(i32), BIN, p.ctx()));
            assertEquals("Invalid grid size x of k (must be an intptr_t value, i64): i32", e.getMessage());
        });
    }

    @Test
    void embeddingTwiceIsAnException() {
        withModule(LoadStrategy.LAZY, true, p -> {
            new SelectObjectHandler().embedBinary(BIN, p.ctx());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new SelectObjectHandler().embedBinary(BIN, p.ctx()));
            assertEquals("Invalid embedding (must be once per binary): @mine is embedded already", e.getMessage());
            assertTrue(!p.m().toIR().contains("mine_bin_cst.1"), p.m().toIR());
        });
    }

    /** Closing the context writes the constructor tables; adding a constructor after that is refused. */
    @Test
    void closingTheContextWritesConstructors() {
        withModule(LoadStrategy.CTOR, true, p -> {
            try (HandlerContext ctx = p.ctx()) {
                new SelectObjectHandler().embedBinary(BIN, ctx);
                new SelectObjectHandler().launchKernel(p.launch(ctx.intptr(1)), BIN, ctx);
                LLVMBuildRetVoid(p.b().get());
            }
            assertTrue(p.ctx().isFinished());
            String ir = p.m().toIR();
            assertTrue(ir.contains("@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }]"), ir);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new SelectObjectHandler().embedBinary(new BinaryDescription("other", BIN.handler(),
                            BIN.objects(), LOC), p.ctx()));
            assertEquals("Invalid embedding of @other (must be added before the context is finished): finished"
                    + " already", e.getMessage());
            assertThrows(IllegalStateException.class, () -> p.ctx().addConstructor(p.fn()));
            p.ctx().finish();
            assertEquals(ir, p.m().toIR(), "a second finish() changed the module");
        });
    }

    /** A caller's own module, and one translate() returned, are emitted through mgpu; a broken one is refused. */
    @Test
    void emitsACallersModuleAfterVerifyingIt() throws Exception {
        withModule(LoadStrategy.LAZY, true, p -> {
            try (HandlerContext ctx = p.ctx()) {
                new SelectObjectHandler().embedBinary(BIN, ctx);
                new SelectObjectHandler().launchKernel(p.launch(ctx.intptr(1)), BIN, ctx);
                LLVMBuildRetVoid(p.b().get());
            }
            byte[] obj = Mgpu.emit(p.m().module(), EmitKind.OBJ, Mgpu.Options.DEFAULT);
            assertTrue(obj.length > 64 && obj[0] == 0x7f && obj[1] == 'E', "not an ELF object");
            String ll = new String(Mgpu.emit(p.m(), EmitKind.LLVM, Mgpu.Options.DEFAULT), StandardCharsets.UTF_8);
            assertTrue(ll.contains("target triple = \""), ll);
            assertTrue(ll.contains("call void @mine_k_launch(ptr %0)"), ll);
        });
        withModule(LoadStrategy.LAZY, true, p -> {
            // A block without a terminator: LLVM's code generator would crash on it.
            MgpuException e = assertThrows(MgpuException.class,
                    () -> Mgpu.emit(p.m(), EmitKind.OBJ, Mgpu.Options.DEFAULT));
            assertTrue(e.getMessage().contains("Invalid LLVM module (must pass LLVM's verifier)"), e.getMessage());
        });
        // The host program of the own-object axpy with a cubin's slot (a #cpu.target slot takes only a host
        // shared object, and this byte is none): what is checked is the host code.
        dev.mgpu.ir.Operation module = Mgpu.parse(Files.readString(TestPaths.root().resolve(
                "examples/own-objects/axpy/axpy.mlir")).replace("#gpu.object<#cpu.target,", "#gpu.object<#nvvm.target,")
                .getBytes(StandardCharsets.UTF_8), "axpy.mlir");
        try (NativeModule nm = Mgpu.translate(module, new Mgpu.Options(LoadStrategy.LAZY, null,
                java.util.Map.of("axpy", new byte[] {9})))) {
            byte[] asm = Mgpu.emit(nm, EmitKind.ASM, Mgpu.Options.DEFAULT);
            assertTrue(new String(asm, StandardCharsets.UTF_8).contains("mgpuLaunchKernel"), "no launch in the asm");
        }
    }
}
