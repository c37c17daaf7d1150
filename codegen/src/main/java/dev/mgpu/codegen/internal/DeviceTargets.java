package dev.mgpu.codegen.internal;

import dev.mgpu.codegen.internal.device.amdgpu.Amdgpu;
import dev.mgpu.codegen.internal.device.cpu.Cpu;
import dev.mgpu.codegen.internal.device.cpu.CpuObjects;
import dev.mgpu.ir.Operation;
import dev.mgpu.codegen.internal.device.nvptx.Nvptx;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.dialect.gpu.GpuTarget;

/**
 * The one place that names each target's class: everything else reaches a target through
 * {@link DeviceTarget}, which asks it what differs.
 */
final class DeviceTargets {
    private DeviceTargets() {
    }

    /** The device target for {@code attr}, or null when mgpu does not compile kernels for it. */
    static DeviceTarget of(GpuTarget attr) {
        if (attr instanceof GpuTarget.CpuTarget c) {
            return new Cpu(c);
        }
        if (attr instanceof GpuTarget.NVVMTarget n) {
            return new Nvptx(n);
        }
        if (attr instanceof GpuTarget.ROCDLTarget r) {
            return new Amdgpu(r);
        }
        return null;
    }

    /**
     * Why {@code blob} cannot be the object of {@code target} in a program for {@code programTriple}, or null:
     * a CPU object is loaded with dlopen, so it must be a shared object for that machine.
     */
    static String embeddedProblem(Object target, byte[] blob, String programTriple) {
        return target instanceof GpuTarget.CpuTarget c ? CpuObjects.embeddedProblem(c, blob, programTriple) : null;
    }

    /** A located error where {@code target}'s kernels in {@code module} cannot run in a program for that triple. */
    static void checkProgramTriple(GpuTarget target, String programTriple, Operation module) {
        if (target instanceof GpuTarget.CpuTarget c) {
            CpuObjects.checkProgramTriple(c, programTriple, module);
        }
    }
}
