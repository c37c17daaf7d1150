package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.LLVMAssemblyFile;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a developer looks at in a kernel compilation: each target's files kept ({@code --save-temps}) and each
 * kernel's resource usage given as notes ({@code --resource-usage}). Emission works on the module's bitcode
 * and leaves the module as it was, so that the object the run embeds is made exactly as it is without these
 * options.
 */
public final class Inspection {
    private Inspection() {
    }

    /** Whether {@code options} ask for anything of this class. */
    public static boolean wanted(KernelOptions options) {
        return options.saveTemps() != null || options.resourceUsage();
    }

    /**
     * Keeps {@code bytes} as {@code <input>.<gpu.module>.<chip>.<ext>} in the directory of
     * {@code --save-temps}, if it was given.
     *
     * @param module the {@code gpu.module}
     * @param d its target
     * @param options the run's kernel options
     * @param ext the file's extension
     * @param bytes its contents
     */
    public static void keep(Operation module, DeviceTarget d, KernelOptions options, String ext, byte[] bytes) {
        if (options.saveTemps() == null) {
            return;
        }
        Path file = options.saveTemps().resolve(baseName(module, d) + "." + ext);
        try {
            Files.createDirectories(options.saveTemps());
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new MgpuException(module.knownLocation(), "Invalid --save-temps directory (must be writable): "
                    + file + ": " + e.getMessage());
        }
    }

    /** {@code <input>.<gpu.module>.<chip>}: the input file's name without {@code .mlir}, and the target's chip. */
    static String baseName(Operation module, DeviceTarget d) {
        Location.FileLineCol f = DebugInfo.fileLineCol(module.knownLocation());
        String input = f == null ? "stdin" : Path.of(f.file()).getFileName().toString().replaceFirst("\\.mlir$", "");
        String chip = d.chip() == null || d.chip().isEmpty() ? "host" : d.chip();
        return input + "." + module.symbolName() + "." + (d.triple().startsWith("nvptx") || d.triple()
                .startsWith("amdgcn") ? chip : "cpu-" + chip);
    }

    /**
     * Before the object is emitted: keeps the optimised LLVM IR and, for a target that does not keep or report
     * from its assembly itself (PTX's is emitted anyway), its assembly, and reports from it.
     */
    public static void beforeEmit(Operation module, DeviceTarget d, KernelOptions options, NativeModule nm,
            java.util.function.IntFunction<byte[]> emit) {
        keep(module, d, options, "ll", nm.toIRBytes());
        if (d.keepsItsAssembly()) {
            return;
        }
        // Emission leaves the module as it was (it works on the module's bitcode): the object is made after.
        byte[] asm = emit.apply(LLVMAssemblyFile);
        keep(module, d, options, "s", asm);
        if (options.resourceUsage()) {
            report(module, d, options, d.resourceUsage(module, new String(asm,
                    java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    /** After: keeps the object, named by what it is. */
    public static void afterEmit(Operation module, DeviceTarget d, KernelOptions options, ObjectAttr o) {
        if (o.format() == ObjectFormat.ASSEMBLY || o.format() == ObjectFormat.OFFLOAD) {
            // Kept before: the assembly (PTX by its target), and the IR that offload embeds.
            return;
        }
        boolean nvptx = d.triple().startsWith("nvptx");
        String ext = o.format() == ObjectFormat.FATBIN && nvptx ? "fatbin" : nvptx ? "cubin"
                : d.triple().startsWith("amdgcn") ? "hsaco" : "so";
        keep(module, d, options, ext, o.object().bytes());
    }

    /**
     * Gives each kernel's line of {@code usage} as a note at the kernel: {@code @k for CHIP: ...}.
     *
     * @param module the {@code gpu.module}
     * @param d its target
     * @param options the run's kernel options, whose notes receive the lines
     * @param usage a line per kernel symbol
     */
    public static void report(Operation module, DeviceTarget d, KernelOptions options, Map<String, String> usage) {
        for (Operation op : module.region(0).entry().operations()) {
            String line = op.name().equals(GpuFuncOp.NAME) ? usage.get(op.symbolName()) : null;
            if (line != null) {
                options.notes().accept(op.knownLocation() + ": note: @" + op.symbolName() + " for " + label(d) + ": "
                        + line);
            }
        }
    }

    private static String label(DeviceTarget d) {
        String chip = d.chip() == null || d.chip().isEmpty() ? "host" : d.chip();
        return d.triple().startsWith("nvptx") || d.triple().startsWith("amdgcn") ? chip : "cpu (" + chip + ")";
    }
}
