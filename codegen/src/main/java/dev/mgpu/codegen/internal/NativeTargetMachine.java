package dev.mgpu.codegen.internal;

import static org.bytedeco.llvm.global.LLVM.LLVMDisposeTargetMachine;

import org.bytedeco.llvm.LLVM.LLVMTargetMachineRef;

/** Owns one LLVM target machine and disposes it exactly once. */
final class NativeTargetMachine implements AutoCloseable {
    private LLVMTargetMachineRef machine;

    NativeTargetMachine(LLVMTargetMachineRef machine) {
        this.machine = machine;
    }

    LLVMTargetMachineRef get() {
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
