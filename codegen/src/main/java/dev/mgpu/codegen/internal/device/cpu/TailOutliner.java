package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.gpu.GpuReturnOp;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * IR to IR, for a CPU kernel whose threads work together: the blocks after its last barrier or shuffle may
 * branch as they like (upstream's programs choose a value with cf.cond_br after a shuffle), but the loops
 * over threads are cut along a chain of blocks. The chain's last branch and every block after it become a
 * function of one thread, called where that branch was, so that the kernel is a chain again.
 */
final class TailOutliner {
    private TailOutliner() {
    }

    /**
     * Moves the tail of {@code kernel} (a detached copy, its calls of collective functions inlined) into a new
     * {@code func.func} of one thread, which it returns; null when the kernel is a chain already, or when a
     * barrier or shuffle comes after the chain (which the plan then reports).
     */
    static Operation outline(Operation kernel) {
        Region body = kernel.region(0);
        List<Block> chain = chainPrefix(body);
        if (chain.size() == body.blocks().size()) {
            return null;
        }
        Block last = chain.get(chain.size() - 1);
        List<Block> tail = new ArrayList<>();
        for (Block b : body.blocks()) {
            if (!chain.contains(b)) {
                tail.add(b);
            }
        }
        List<Operation> moved = new ArrayList<>();
        moved.add(last.terminator());
        for (Block b : tail) {
            moved.addAll(b.operations());
        }
        for (Operation op : moved) {
            if (collective(op)) {
                return null;
            }
        }
        Set<Value> inside = new HashSet<>();
        for (Block b : tail) {
            inside.addAll(b.arguments());
            for (Operation op : b.operations()) {
                defined(op, inside);
            }
        }
        Set<Value> liveIn = new LinkedHashSet<>();
        for (Operation op : moved) {
            used(op, inside, liveIn);
        }
        List<Type> types = new ArrayList<>();
        for (Value v : liveIn) {
            types.add(v.type());
        }
        String name = kernel.symbolName() + "_mgpu_tail";
        Operation f = Func.FuncOp.create(kernel.location(), name, new Type.FunctionType(types, List.of())).op();
        Block entry = f.region(0).entry();
        Map<Value, Value> map = new IdentityHashMap<>();
        int i = 0;
        for (Value v : liveIn) {
            map.put(v, entry.argument(i++));
        }
        List<Operation> kept = last.takeOperations();
        for (Operation op : kept.subList(0, kept.size() - 1)) {
            last.append(op);
        }
        Operation branch = kept.get(kept.size() - 1);
        entry.append(branch);
        for (Block b : body.takeBlocks()) {
            (chain.contains(b) ? body : f.region(0)).append(b);
        }
        for (Block b : f.region(0).blocks()) {
            for (Operation op : b.operations()) {
                remap(op, map);
            }
            Operation term = b.terminator();
            if (term != null && term.name().equals(GpuReturnOp.NAME)) {
                b.replace(term, Func.ReturnOp.create(term.location(), List.of()).op());
            }
        }
        last.append(Func.CallOp.create(branch.location(), name, new ArrayList<>(liveIn), List.of()).op());
        last.append(Operation.create(GpuReturnOp.NAME, branch.location(), List.of(), List.of(), Map.of()));
        return f;
    }

    /** The blocks from the entry that each end with a cf.br to the next, which nothing else branches to. */
    private static List<Block> chainPrefix(Region body) {
        List<Block> out = new ArrayList<>();
        Block b = body.entry();
        while (true) {
            out.add(b);
            Operation term = b.terminator();
            if (term == null || !term.name().equals(dev.mgpu.dialect.cf.Cf.BrOp.NAME)) {
                return out;
            }
            Block next = term.successors().get(0);
            long preds = body.blocks().stream().filter(x -> x.terminator() != null
                    && x.terminator().successors().contains(next)).count();
            if (preds != 1 || out.contains(next)) {
                return out;
            }
            b = next;
        }
    }

    private static boolean collective(Operation op) {
        if (WorkItemPlan.waitsForBlock(op) || WorkItemPlan.exchanges(op)) {
            return true;
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    if (collective(o)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static void defined(Operation op, Set<Value> out) {
        out.addAll(op.results());
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                out.addAll(b.arguments());
                for (Operation o : b.operations()) {
                    defined(o, out);
                }
            }
        }
    }

    private static void used(Operation op, Set<Value> inside, Set<Value> out) {
        for (Value v : op.operands()) {
            if (!inside.contains(v)) {
                out.add(v);
            }
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    used(o, inside, out);
                }
            }
        }
    }

    private static void remap(Operation op, Map<Value, Value> map) {
        for (int i = 0; i < op.operandCount(); i++) {
            Value v = map.get(op.operand(i));
            if (v != null) {
                op.setOperand(i, v);
            }
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    remap(o, map);
                }
            }
        }
    }
}
