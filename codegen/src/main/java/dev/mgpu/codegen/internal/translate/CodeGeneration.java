package dev.mgpu.codegen.internal.translate;

import dev.mgpu.ir.Operation;
import java.util.Map;

/**
 * What a kernel target says of the code LLVM generates for it, and of how one looks at that code: the CPU
 * and features its code generator is given, whether {@code -g} gives its kernels line tables, and what
 * {@code --resource-usage} and {@code --save-temps} read from its assembly.
 */
public interface CodeGeneration {
    /** {@return the chip (CPU) of the target, empty for the triple's default} */
    String chip();

    /** {@return the target's features, or null or empty for none} */
    String features();

    /**
     * {@return whether {@code -g} gives the target's kernels line tables: for a target whose kernels run in the
     * host process, where the host's debugger steps through them (the CPU)}
     */
    default boolean debuggedOnHost() {
        return false;
    }

    /** {@return the CPU or chip that the target's code generator is given, as its target machine is} */
    default String backendCpu() {
        return chip();
    }

    /** {@return the features that the target's code generator is given, as its target machine is} */
    default String backendFeatures() {
        return features() == null ? "" : features();
    }

    /**
     * {@return whether LLVM's back end for the target keeps what it reads of each module for the whole process,
     * by the module's address, until it generates that module's code in the process: such a module must have
     * its code generated here before it is disposed of, or a later module at its address reads its state}
     */
    default boolean remembersModules() {
        return false;
    }

    /**
     * Whether an atomic read-modify-write of {@code element} is made a compare-and-swap loop rather than
     * LLVM's {@code atomicrmw}, which the target's back end cannot take for every value.
     *
     * @param element the element type of the memref
     * @return true for a loop
     */
    default boolean atomicsByCompareAndSwap(dev.mgpu.ir.Type element) {
        return false;
    }

    /** {@return whether the target keeps its assembly and reports resource usage itself, when it serializes} */
    default boolean keepsItsAssembly() {
        return false;
    }

    /**
     * Each kernel's resource usage, read from the target's assembly.
     *
     * @param module the {@code gpu.module}
     * @param assembly the assembly of its kernel module
     * @return a line by kernel name; empty where the target reads none
     */
    default Map<String, String> resourceUsage(Operation module, String assembly) {
        return Map.of();
    }

    /**
     * {@return whether what LLVM's back ends are known to crash on is refused before them (the default). With
     * {@code MGPU_BACKEND_CHECKS=off} it reaches them instead, to see what LLVM itself does: the back end runs
     * in a process of its own ({@code MGPU_BACKEND_PROCESS=own}), where a crash is the run's located error}
     */
    static boolean checksOn() {
        return !"off".equals(System.getenv("MGPU_BACKEND_CHECKS"));
    }
}
