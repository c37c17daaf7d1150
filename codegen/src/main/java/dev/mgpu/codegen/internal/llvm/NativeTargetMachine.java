package dev.mgpu.codegen.internal.llvm;

import static org.bytedeco.llvm.global.LLVM.LLVMDisposeTargetMachine;

import org.bytedeco.llvm.LLVM.LLVMTargetMachineRef;

/** Owns one LLVM target machine and disposes it exactly once. */
public final class NativeTargetMachine implements AutoCloseable {
    private LLVMTargetMachineRef machine;

    public NativeTargetMachine(LLVMTargetMachineRef machine) {
        this.machine = machine;
    }

    public LLVMTargetMachineRef get() {
        if (machine == null) {
            throw new IllegalStateException("NativeTargetMachine is closed");
        }
        return machine;
    }

    @Override
    public void close() {
        if (machine != null) {
            LLVMDisposeTargetMachine(machine);
            machine = null;
        }
    }
}
