package dev.mgpu.codegen.internal;

import dev.mgpu.codegen.internal.device.amdgpu.Amdgpu;
import dev.mgpu.codegen.internal.device.cpu.Cpu;
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
}
