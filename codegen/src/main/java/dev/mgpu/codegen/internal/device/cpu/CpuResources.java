package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.ir.Operation;
import java.util.List;
import java.util.Map;

/** What {@code --resource-usage} says of a CPU kernel: its stack frame, read from the assembly, and its workgroup memory. */
final class CpuResources {
    private CpuResources() {
    }

    /**
     * Each kernel's stack: the frame of its entry point and of the per-thread body it calls, if that was not
     * inlined; and its workgroup memory, which the runtime gives each block.
     */
    static Map<String, String> usage(Operation module, String assembly) {
        Map<String, Long> frames = dev.mgpu.codegen.internal.llvm.ResourceUsage.hostFrames(assembly,
                s -> !s.startsWith(".") && !s.contains(".mgpu"));
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (Operation op : module.region(0).entry().operations()) {
            if (op.name().equals(GpuFuncOp.NAME) && op.hasAttr(GpuFuncOp.KERNEL_ATTR)) {
                String k = op.symbolName();
                long frame = frames.getOrDefault(k, 0L) + frames.getOrDefault(k + ".body", 0L);
                out.put(k, frame + " bytes stack frame, " + workgroupBytes(new GpuFuncOp(op))
                        + " bytes shared per block");
            }
        }
        return out;
    }

    /** The bytes of a kernel's workgroup attributions, each of a static shape. */
    private static long workgroupBytes(GpuFuncOp f) {
        List<? extends dev.mgpu.ir.Value> args = f.body().arguments();
        int first = f.type().inputs().size();
        long bytes = 0;
        for (int i = first; i < first + f.workgroupCount() && i < args.size(); i++) {
            if (args.get(i).type() instanceof dev.mgpu.ir.Type.MemRefType m) {
                long n = elementBytes(m.elementType());
                for (long d : m.shape()) {
                    n *= Math.max(d, 0);
                }
                bytes += n;
            }
        }
        return bytes;
    }

    private static long elementBytes(dev.mgpu.ir.Type t) {
        if (t instanceof dev.mgpu.ir.Type.IntegerType i) {
            return (i.width() + 7) / 8;
        }
        return t instanceof dev.mgpu.ir.Type.FloatType f ? f.width() / 8 : 8;
    }
}
