package dev.mgpu.codegen.internal.translate;

import java.util.Set;
import java.util.LinkedHashSet;
import java.util.Deque;
import java.util.ArrayDeque;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Value;
import dev.mgpu.op.Syntax;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Walks over and deep copies of ops, for the passes that move code between functions (outlining, inlining). */
public final class Ir {
    private Ir() {
    }

    /** Visits the ops of {@code r} and of the regions inside them, each before the ops nested in it. */
    public static void walk(Region r, Consumer<Operation> f) {
        for (Block b : r.blocks()) {
            for (Operation op : b.operations()) {
                f.accept(op);
                for (Region inner : op.regions()) {
                    walk(inner, f);
                }
            }
        }
    }

    /**
     * Visits the ops of {@code r}, each before the ops nested in it, entering an op's regions only when
     * {@code enter} returns true for it.
     */
    public static void visit(Region r, Predicate<Operation> enter) {
        for (Block b : r.blocks()) {
            for (Operation op : b.operations()) {
                if (enter.test(op)) {
                    for (Region inner : op.regions()) {
                        visit(inner, enter);
                    }
                }
            }
        }
    }

    /** Visits the ops of {@code r}, each after the ops nested in it, as MLIR's walk does. */
    public static void postOrder(Region r, Consumer<Operation> f) {
        for (Block b : r.blocks()) {
            for (Operation op : b.operations()) {
                for (Region inner : op.regions()) {
                    postOrder(inner, f);
                }
                f.accept(op);
            }
        }
    }

    /** The blocks of {@code r} and of the regions inside its ops, outer before inner. */
    public static List<Block> blocks(Region r) {
        List<Block> out = new ArrayList<>();
        for (Block b : r.blocks()) {
            out.add(b);
            for (Operation op : b.operations()) {
                for (Region inner : op.regions()) {
                    out.addAll(blocks(inner));
                }
            }
        }
        return out;
    }

    /**
     * A detached deep copy of {@code op} that shares no value, block or op with it, operands that refer to
     * values defined later in program order (a block that a branch enters from below) included.
     */
    public static Operation deepCopy(Operation op) {
        Map<Value, Value> map = new IdentityHashMap<>();
        Operation c = copy(op, map);
        c.setFileResources(op.fileResources());
        java.util.ArrayDeque<Operation> work = new java.util.ArrayDeque<>();
        work.push(c);
        while (!work.isEmpty()) {
            Operation o = work.pop();
            for (int i = 0; i < o.operandCount(); i++) {
                Value v = map.get(o.operand(i));
                if (v != null) {
                    o.setOperand(i, v);
                }
            }
            for (Region r : o.regions()) {
                for (Block b : r.blocks()) {
                    b.operations().forEach(work::push);
                }
            }
        }
        return c;
    }

    /**
     * A detached deep copy of {@code op}: its operands mapped through {@code map} (others kept), its regions'
     * blocks and values new; {@code map} gains every value of {@code op} and its regions.
     */
    public static Operation copy(Operation op, Map<Value, Value> map) {
        List<Value> operands = new ArrayList<>();
        for (Value v : op.operands()) {
            operands.add(map.getOrDefault(v, v));
        }
        List<Region> regions = new ArrayList<>();
        Map<Block, Block> blocks = new IdentityHashMap<>();
        for (Region r : op.regions()) {
            Region nr = new Region();
            for (Block b : r.blocks()) {
                Block nb = nr.append(new Block(b.location()));
                blocks.put(b, nb);
                for (Value.BlockArgument a : b.arguments()) {
                    map.put(a, nb.addArgument(a.type(), a.location()));
                }
            }
            regions.add(nr);
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation inner : b.operations()) {
                    Operation c = copy(inner, map);
                    for (int i = 0; i < c.successors().size(); i++) {
                        c.setSuccessor(i, blocks.getOrDefault(c.successors().get(i), c.successors().get(i)));
                    }
                    blocks.get(b).append(c);
                }
            }
        }
        Operation c = Operation.create(op.name(), op.location(), operands, Syntax.types(op.results()),
                new LinkedHashMap<>(op.attributes()), regions, op.successors());
        for (int i = 0; i < op.resultCount(); i++) {
            map.put(op.result(i), c.result(i));
        }
        return c;
    }

    /** Blocks in reverse post-order from the entry, then any unreachable ones in program order. */
    public static List<Block> dominanceOrder(Region r) {
        List<Block> post = new ArrayList<>();
        Set<Block> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object[]> stack = new ArrayDeque<>();
        Block entry = r.entry();
        seen.add(entry);
        stack.push(new Object[] {entry, 0});
        while (!stack.isEmpty()) {
            Object[] top = stack.peek();
            Block b = (Block) top[0];
            int i = (Integer) top[1];
            Operation term = b.terminator();
            List<Block> succ = term == null ? List.of() : term.successors();
            if (i < succ.size()) {
                top[1] = i + 1;
                Block s = succ.get(i);
                if (seen.add(s)) {
                    stack.push(new Object[] {s, 0});
                }
            } else {
                stack.pop();
                post.add(b);
            }
        }
        List<Block> order = new ArrayList<>(post.size());
        for (int i = post.size() - 1; i >= 0; i--) {
            order.add(post.get(i));
        }
        Set<Block> all = new LinkedHashSet<>(r.blocks());
        all.removeAll(order);
        order.addAll(all);
        return order;
    }
}
