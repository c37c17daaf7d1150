package dev.mgpu.codegen.internal;

import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.host.GpuTranslators;
import dev.mgpu.codegen.internal.host.HostMemoryTranslators;
import dev.mgpu.codegen.internal.host.HostTranslators;
import dev.mgpu.codegen.internal.kernel.KernelMemoryTranslators;
import dev.mgpu.codegen.internal.kernel.KernelTranslators;
import dev.mgpu.codegen.internal.translate.OpTable;
import dev.mgpu.dialect.llvm.LLVMKernelOps;
import dev.mgpu.dialect.memref.Allocations;
import java.util.HashMap;
import java.util.Map;

/** The op table of every translation, host and kernel: each dialect's translators, registered once. */
public final class Translators {
    private Translators() {
    }

    /** The one table, shared by every translation (read-only). */
    public static final OpTable<ModuleTranslation> TABLE = assemble();

    private static OpTable<ModuleTranslation> assemble() {
        OpTable<ModuleTranslation> table = OpTable.builder();
        HostTranslators.register(table.ops());
        Map<String, OpTable.OpTranslator<ModuleTranslation>> runtime = new HashMap<>();
        GpuTranslators.register(runtime);
        table.ops().putAll(runtime);
        KernelTranslators.register(table.ops());
        // The memref ops mean the same in host code and in kernels, lowered to a descriptor on the host and to
        // the address of element 0 in a kernel: each translation where it belongs.
        Map<String, OpTable.OpTranslator<ModuleTranslation>> host = new HashMap<>();
        HostMemoryTranslators.register(host);
        host.forEach((name, onHost) -> {
            OpTable.OpTranslator<ModuleTranslation> inKernel = table.ops().get(name);
            table.ops().put(name, (op, t) -> {
                if (t.device == null) {
                    onHost.translate(op, t);
                } else if (inKernel != null) {
                    inKernel.translate(op, t);
                } else {
                    throw ModuleTranslation.error(op, "Invalid " + name + " in a kernel (must be in host code)");
                }
            });
        });
        table.globals().put(LLVMKernelOps.GLOBAL, KernelMemoryTranslators::global);
        table.globals().put(Allocations.GlobalOp.NAME, KernelMemoryTranslators::memrefGlobal);
        return table.freeze(runtime.keySet(), GpuTranslators::release);
    }
}
