package dev.mgpu.codegen.internal.device.cpu;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.ir.Operation;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/** The failing side of {@code cf.assert} in a CPU kernel. */
final class CpuAssertions {
    private CpuAssertions() {
    }

    /**
     * The message on stderr with where it failed, the block and the thread, as CUDA's device assertions print
     * theirs; then the thread stops, as a GPU thread does, and the others go on (upstream's programs expect
     * every failing thread's message): the kernel's body returns. Where the thread cannot stop alone (in a
     * function the kernel calls, or in the loops of a block whose threads work together), the process aborts.
     */
    static void failed(Cpu cpu, ModuleTranslation t, Operation op, byte[] message) {
        Object[] at = DeviceTarget.place(op);
        String where = (at[0] + ":" + at[1] + ": " + at[2]).replace("%", "%%");
        byte[] f = (where + ": block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] Assertion `%s` failed.\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMTypeRef ft;
        try (PointerPointer<LLVMTypeRef> ps = new PointerPointer<>(i32, LLVMPointerTypeInContext(t.ctx, 0))) {
            ft = LLVMFunctionType(i32, ps, 2, 1);
        }
        LLVMValueRef dprintf = t.libraryFunction("C library", "dprintf", ft);
        cpu.libraryUsed("dprintf");
        List<LLVMValueRef> args = new java.util.ArrayList<>(List.of(LLVMConstInt(i32, 2, 0),
                DeviceTarget.cString(t, java.util.Arrays.copyOf(f, f.length + 1), 0)));
        for (int d = 0; d < 3; d++) {
            args.add(LLVMBuildIntCast2(t.builder, cpu.blockId(t, d), i64, 0, ""));
        }
        for (int d = 0; d < 3; d++) {
            args.add(LLVMBuildIntCast2(t.builder, cpu.threadId(t, d), i64, 0, ""));
        }
        args.add(DeviceTarget.cString(t, java.util.Arrays.copyOf(message, message.length + 1), 0));
        try (PointerPointer<LLVMValueRef> as = new PointerPointer<>(args.toArray(new LLVMValueRef[0]))) {
            LLVMBuildCall2(t.builder, ft, dprintf, as, args.size(), "");
        }
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
        if (cpu.workItems == null && LLVMGetValueName(fn).getString().endsWith(".body")
                && LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) == LLVMVoidTypeKind) {
            LLVMBuildRetVoid(t.builder);
            return;
        }
        DeviceTarget.callLibrary(t, "C library", "abort", LLVMVoidTypeInContext(t.ctx));
        cpu.libraryUsed("abort");
        LLVMBuildUnreachable(t.builder);
    }
}
