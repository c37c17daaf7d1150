package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;

/**
 * The codes of the {@code mgpuObject} table in {@code runtime-c/include/mgpu.h} ({@code MGPU_KIND_*} and
 * {@code MGPU_FORMAT_*}): the only place in Java that states them, checked against the header by a test.
 */
public final class ObjectCodes {
    /** {@code MGPU_KIND_NVVM}: an NVIDIA object. */
    public static final int KIND_NVVM = 1;
    /** {@code MGPU_KIND_ROCDL}: an AMD object. */
    public static final int KIND_ROCDL = 2;
    /** {@code MGPU_KIND_CPU}: a host shared object following the CPU kernel ABI. */
    public static final int KIND_CPU = 3;

    /** {@code MGPU_FORMAT_OFFLOAD}. */
    public static final int FORMAT_OFFLOAD = 0;
    /** {@code MGPU_FORMAT_ASSEMBLY}: PTX, loaded through the driver's JIT. */
    public static final int FORMAT_ASSEMBLY = 1;
    /** {@code MGPU_FORMAT_BIN}: a cubin, HSACO or shared object. */
    public static final int FORMAT_BIN = 2;
    /** {@code MGPU_FORMAT_FATBIN}. */
    public static final int FORMAT_FATBIN = 3;

    private ObjectCodes() {
    }

    /**
     * The kind code of the objects built for {@code target}.
     *
     * @param target the target
     * @return the kind code that {@code mgpu.h} gives the target's objects
     */
    public static int kind(GpuTarget target) {
        if (target instanceof GpuTarget.NVVMTarget) {
            return KIND_NVVM;
        }
        if (target instanceof GpuTarget.ROCDLTarget) {
            return KIND_ROCDL;
        }
        if (target instanceof GpuTarget.CpuTarget) {
            return KIND_CPU;
        }
        throw new IllegalArgumentException("Invalid target (must be an NVVM, ROCDL or CPU target): " + target);
    }

    /**
     * The format code of {@code format}.
     *
     * @param format the object format
     * @return the format code that {@code mgpu.h} gives it
     */
    public static int format(ObjectFormat format) {
        switch (format) {
            case OFFLOAD: return FORMAT_OFFLOAD;
            case ASSEMBLY: return FORMAT_ASSEMBLY;
            case BINARY: return FORMAT_BIN;
            case FATBIN: return FORMAT_FATBIN;
            default: throw new IllegalArgumentException("Invalid object format (must be offload, assembly, bin or"
                    + " fatbin): " + format);
        }
    }
}
