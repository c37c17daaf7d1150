package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMTargetDataRef;
import org.bytedeco.llvm.LLVM.LLVMTargetMachineRef;
import org.bytedeco.llvm.LLVM.LLVMTargetRef;

/** Target machines: the module's triple and data layout, and object and assembly emission. */
final class Targets {
    private Targets() {
    }

    static String hostTriple() {
        BytePointer t = LLVMGetDefaultTargetTriple();
        try {
            return t.getString();
        } finally {
            LLVMDisposeMessage(t);
        }
    }

    /** A target machine for {@code triple}; the caller disposes it. */
    static LLVMTargetMachineRef machine(String triple, Operation where) {
        if (!Llvm.initTarget(triple)) {
            throw new MgpuException(where.location(), "Invalid target triple (must be an x86_64 or aarch64 triple): "
                    + triple);
        }
        LLVMTargetRef target = new LLVMTargetRef();
        BytePointer err = new BytePointer((Pointer) null);
        if (LLVMGetTargetFromTriple(new BytePointer(triple), target, err) != 0) {
            String m = err.getString();
            LLVMDisposeMessage(err);
            throw new MgpuException(where.location(), "Invalid target triple (must be known to LLVM): " + triple
                    + ": " + m);
        }
        return LLVMCreateTargetMachine(target, triple, "generic", "", LLVMCodeGenLevelDefault, LLVMRelocPIC,
                LLVMCodeModelDefault);
    }

    /** Sets the module's triple and data layout. */
    static void configure(NativeModule nm, String triple, Operation where) {
        String t = triple != null ? triple : hostTriple();
        LLVMTargetMachineRef tm = machine(t, where);
        try {
            LLVMSetTarget(nm.module(), t);
            LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
            LLVMSetModuleDataLayout(nm.module(), dl);
            LLVMDisposeTargetData(dl);
        } finally {
            LLVMDisposeTargetMachine(tm);
        }
    }

    static byte[] emit(NativeModule nm, EmitKind kind, String triple, Operation where) {
        switch (kind) {
            case LLVM:
                return nm.toIR().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            case BC: {
                LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(nm.module());
                return drain(buf);
            }
            case OBJ:
            case ASM: {
                LLVMTargetMachineRef tm = machine(triple != null ? triple : hostTriple(), where);
                try {
                    LLVMMemoryBufferRef buf = new LLVMMemoryBufferRef();
                    BytePointer err = new BytePointer((Pointer) null);
                    if (LLVMTargetMachineEmitToMemoryBuffer(tm, nm.module(),
                            kind == EmitKind.OBJ ? LLVMObjectFile : LLVMAssemblyFile, err, buf) != 0) {
                        String m = err.getString();
                        LLVMDisposeMessage(err);
                        throw new MgpuException(where.location(), "Invalid module for code generation (must be"
                                + " accepted by LLVM's back end): " + m);
                    }
                    return drain(buf);
                } finally {
                    LLVMDisposeTargetMachine(tm);
                }
            }
            default:
                throw new IllegalArgumentException("Invalid emit kind (must be llvm, bc, obj or asm): " + kind);
        }
    }

    private static byte[] drain(LLVMMemoryBufferRef buf) {
        try {
            long n = LLVMGetBufferSize(buf);
            byte[] out = new byte[(int) n];
            LLVMGetBufferStart(buf).capacity(n).get(out);
            return out;
        } finally {
            LLVMDisposeMemoryBuffer(buf);
        }
    }
}
