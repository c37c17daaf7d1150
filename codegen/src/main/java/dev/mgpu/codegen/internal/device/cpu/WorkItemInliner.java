package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.codegen.internal.translate.Ir;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The first pass of a CPU kernel whose threads work together, IR to IR: which kernels need their block's
 * threads together, which functions of the module hold barriers or shuffles, and a copy of such a kernel
 * with those functions inlined, so that the loops over threads are cut in the kernel's own body.
 */
final class WorkItemInliner {
    private WorkItemInliner() {
    }

    /**
     * A detached copy of kernel {@code op} with every call of {@code collectiveFunctions} (of
     * {@code functions}) inlined, until none is left.
     */
    static Operation inlined(Operation op, Map<String, Operation> functions, Set<String> collectiveFunctions) {
        Operation copy = Ir.copy(op, new IdentityHashMap<>());
        inline(copy, functions, collectiveFunctions);
        return copy;
    }

    /** The functions of {@code gpuModule}, by name. */
    public static Map<String, Operation> functions(Operation gpuModule) {
        Map<String, Operation> out = new java.util.HashMap<>();
        for (Operation op : gpuModule.region(0).entry().operations()) {
            if (op.symbolName() != null && !op.regions().isEmpty()) {
                out.put(op.symbolName(), op);
            }
        }
        return out;
    }

    /**
     * Whether kernel {@code op} needs its block's threads together: it holds a barrier or a shuffle (itself
     * or in a function it calls), or has workgroup attributions.
     */
    public static boolean needed(Operation op, Map<String, Operation> functions) {
        if (op.name().equals(GpuFuncOp.NAME) && new GpuFuncOp(op).workgroupCount() > 0) {
            return true;
        }
        return holdsCollective(op, functions, new java.util.HashSet<>());
    }

    /** The names of the functions of the module (not kernels) that hold a barrier or shuffle, or call one. */
    public static Set<String> collectiveFunctions(Map<String, Operation> functions) {
        Set<String> out = new java.util.HashSet<>();
        functions.forEach((name, f) -> {
            if (!f.hasAttr(GpuFuncOp.KERNEL_ATTR) && holdsCollective(f, functions, new java.util.HashSet<>())) {
                out.add(name);
            }
        });
        return out;
    }

    private static boolean holdsCollective(Operation op, Map<String, Operation> functions, Set<String> seen) {
        if (WorkItemPlan.waitsForBlock(op) || WorkItemPlan.exchanges(op)) {
            return true;
        }
        Operation callee = callee(op, functions);
        if (callee != null && seen.add(callee.symbolName()) && holdsCollective(callee, functions, seen)) {
            return true;
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    if (holdsCollective(o, functions, seen)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The function of the module that {@code op} calls, or null. */
    private static Operation callee(Operation op, Map<String, Operation> functions) {
        if (op.name().equals(Func.CallOp.NAME) && op.attr("callee") instanceof Attribute.SymbolRefAttr ref
                && ref.nested().isEmpty()) {
            return functions.get(ref.root());
        }
        return null;
    }

    /**
     * Inlines into {@code kernel} (a detached copy) every call of a function that holds a barrier or
     * shuffle, until none is left: the loops over threads are cut in the kernel's own body.
     */
    private static void inline(Operation kernel, Map<String, Operation> functions, Set<String> collectiveFunctions) {
        Map<String, Boolean> recursive = new java.util.HashMap<>();
        while (true) {
            List<Block> blocks = Ir.blocks(kernel.region(0));
            Map<Value, Value> results = new IdentityHashMap<>();
            boolean any = false;
            for (Block b : blocks) {
                for (Operation o : b.takeOperations()) {
                    Operation f = callee(o, functions);
                    if (f == null || !collectiveFunctions.contains(f.symbolName())) {
                        b.append(o);
                        continue;
                    }
                    if (recursive.computeIfAbsent(f.symbolName(), n -> reaches(f, n, functions,
                            new java.util.HashSet<>()))) {
                        throw ModuleTranslation.error(o, "Invalid call for #cpu.target (must not recurse into a"
                                + " function with a barrier or shuffle, which is inlined): @" + f.symbolName());
                    }
                    Block body = f.region(0).entry();
                    if (f.region(0).blocks().size() != 1 || body.arguments().size() != o.operandCount()) {
                        throw ModuleTranslation.error(o, "Invalid call for #cpu.target (a function with a barrier"
                                + " or shuffle is inlined, so it must have one block and no attributions): @"
                                + f.symbolName());
                    }
                    any = true;
                    Map<Value, Value> map = new IdentityHashMap<>();
                    for (int i = 0; i < o.operandCount(); i++) {
                        map.put(body.argument(i), o.operand(i));
                    }
                    List<Operation> ops = body.operations();
                    for (Operation x : ops.subList(0, ops.size() - 1)) {
                        b.append(Ir.copy(x, map));
                    }
                    Operation ret = ops.get(ops.size() - 1);
                    for (int i = 0; i < o.resultCount(); i++) {
                        results.put(o.result(i), map.getOrDefault(ret.operand(i), ret.operand(i)));
                    }
                }
            }
            if (!any) {
                return;
            }
            for (Block b : Ir.blocks(kernel.region(0))) {
                for (Operation o : b.operations()) {
                    replaceOperands(o, results);
                }
            }
        }
    }

    /** Whether {@code op} calls {@code name}, directly or through the functions it calls. */
    private static boolean reaches(Operation op, String name, Map<String, Operation> functions, Set<String> seen) {
        Operation callee = callee(op, functions);
        if (callee != null && (name.equals(callee.symbolName())
                || seen.add(callee.symbolName()) && reaches(callee, name, functions, seen))) {
            return true;
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    if (reaches(o, name, functions, seen)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static void replaceOperands(Operation op, Map<Value, Value> with) {
        for (int i = 0; i < op.operandCount(); i++) {
            Value v = with.get(op.operand(i));
            while (v != null && with.containsKey(v)) {
                v = with.get(v);
            }
            if (v != null) {
                op.setOperand(i, v);
            }
        }
    }
}
