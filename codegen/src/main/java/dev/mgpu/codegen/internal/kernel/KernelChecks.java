package dev.mgpu.codegen.internal.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.ir.Operation;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What the kernel translators ask before they translate an op: that it is in a kernel, that the target can
 * run it where it is (ops that need a block's threads together, ops that exchange values between lanes).
 */
public final class KernelChecks {
    private KernelChecks() {
    }

    public static DeviceTarget device(Operation op, ModuleTranslation t) {
        if (t.device == null) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " in host code (must be inside a kernel of a"
                    + " gpu.module)");
        }
        return t.device;
    }

    /**
     * The device, for an op that needs the threads of a block together. On the CPU, only a kernel's body
     * runs them together (the CPU target's work-item loops), which cuts it at barriers and sends shuffles to
     * {@link KernelExchangeTranslators#shuffle}; anywhere else such an op is a located error.
     */
    public static DeviceTarget together(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        if (!d.runsTogether(op)) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + d.name() + " (must be in a kernel's"
                    + " body, where only scf.for, scf.if and scf.while may be around it: the CPU runs the threads of"
                    + " a block in loops between barriers and shuffles)");
        }
        return d;
    }

    /**
     * The device, for an op that exchanges values between lanes. On an RDNA chip (gfx10 and later) asked for
     * wavefronts of 64, ds_bpermute reads only within each half of 32 lanes, so an exchange across the
     * halves would read the wrong lane: a located error rather than a wrong result.
     */
    public static DeviceTarget exchanging(Operation op, ModuleTranslation t) {
        DeviceTarget d = together(op, t);
        d.checkExchange(op);
        return d;
    }

    public static LLVMValueRef index(ModuleTranslation t, LLVMValueRef i32) {
        return LLVMBuildZExt(t.builder, i32, t.types.intptr, "");
    }
}
