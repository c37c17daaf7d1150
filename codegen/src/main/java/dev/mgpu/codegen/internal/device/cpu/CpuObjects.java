package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import dev.mgpu.codegen.internal.llvm.Targets;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * What a {@code #cpu.target} object must be, since the CPU backend loads it with {@code dlopen}: an ELF shared
 * object for the machine the program runs on, linked so that nothing it needs is left undefined; and the
 * machine a CPU target compiles for.
 */
public final class CpuObjects {
    private CpuObjects() {
    }

    /**
     * Why {@code blob}, embedded into an object of {@code c}, cannot be loaded by a program for
     * {@code programTriple} (the target's own triple comes first), or null.
     */
    public static String embeddedProblem(GpuTarget.CpuTarget c, byte[] blob, String programTriple) {
        String runsOn = c.triple().isEmpty() ? programTriple : tripleOf(c);
        String problem = problem(blob, runsOn);
        return problem == null ? null : "must be an ELF shared object for " + runsOn + ", which the CPU backend loads;"
                + " " + problem;
    }

    /**
     * {@code c}'s kernels, in {@code module}, would be compiled for another machine than the program's
     * {@code programTriple}: a located error, since the C compiler links them for this machine only.
     */
    public static void checkProgramTriple(GpuTarget.CpuTarget c, String programTriple, Operation module) {
        if (!arch(tripleOf(c)).equals(arch(programTriple))) {
            throw new MgpuException(module.knownLocation(), "Invalid #cpu.target for target triple "
                    + Targets.normalize(programTriple) + " (must compile for the program's machine; its kernels are"
                    + " compiled and linked for " + tripleOf(c) + "): " + c);
        }
    }

    /** The triple a CPU target's kernels are compiled for: its own, else the machine that compiles. */
    public static String tripleOf(GpuTarget.CpuTarget c) {
        return c.triple().isEmpty() ? Targets.hostTriple() : Targets.normalize(c.triple());
    }

    /** The architecture of {@code triple}, its first part. */
    public static String arch(String triple) {
        return Targets.normalize(triple).split("-", 2)[0];
    }

    /** The ELF machine number of {@code arch}, or -1 for one not known here. */
    private static int machine(String arch) {
        return switch (arch) {
            case "x86_64" -> 62;
            case "aarch64" -> 183;
            case "riscv64" -> 243;
            case "powerpc64le", "powerpc64" -> 21;
            default -> -1;
        };
    }

    /**
     * Why {@code data} is not a shared object that a program for {@code triple} can load, or null when it is
     * one (by its ELF header: 64-bit, little-endian, a shared object, for that machine).
     */
    public static String problem(byte[] data, String triple) {
        if (data.length < 4 || data[0] != 0x7f || data[1] != 'E' || data[2] != 'L' || data[3] != 'F') {
            return "it is not an ELF file";
        }
        if (data.length < 64) {
            return "it is cut short: " + data.length + " bytes, less than a 64-bit ELF header";
        }
        if (data[4] != 2) {
            return "it is a 32-bit ELF file";
        }
        if (data[5] != 1) {
            return "it is big-endian";
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int type = b.getShort(16) & 0xffff;
        if (type != 3) {
            return "it is not a shared object (ELF type " + type + ", not 3)";
        }
        int machine = b.getShort(18) & 0xffff;
        int want = machine(arch(triple));
        if (want >= 0 && machine != want) {
            return "it is for ELF machine " + machine + ", not " + arch(triple) + " (" + want + ")";
        }
        return null;
    }

    /**
     * Links a host object into the shared object of the CPU kernel ABI with the system's C compiler; a symbol
     * that neither the object nor the C library, libm and libgcc define is a located error, at the
     * gpu.module's declaration of it if there is one, since loading the object would fail.
     */
    static byte[] sharedObject(Operation module, byte[] obj) {
        try {
            return ExternalTools.link(module, obj, "so", (in, out) -> new ProcessBuilder("cc", "-shared", in.toString(),
                    "-o", out.toString(), "-lm", "-Wl,--no-undefined"), "cc");
        } catch (MgpuException e) {
            for (String name : CpuBuiltins.undefined(e.getMessage())) {
                Operation decl = module.region(0).entry().operations().stream()
                        .filter(op -> name.equals(op.symbolName())).findFirst().orElse(module);
                throw new MgpuException(decl.knownLocation(), "Invalid kernels for #cpu.target (must need only"
                        + " functions that the C library, libm or libgcc define, which the runtime binds when it"
                        + " loads them): @" + name + " is defined nowhere");
            }
            throw e;
        }
    }
}
