package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.dialect.gpu.DimensionOp;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.BarrierOp;
import dev.mgpu.dialect.gpu.LaneOps;
import dev.mgpu.dialect.gpu.ShuffleOp;
import dev.mgpu.dialect.gpu.SubgroupReduceOp;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.scf.Scf;
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
import java.util.function.Predicate;
import dev.mgpu.ir.Type;

/**
 * What the loops over a CPU kernel's threads are cut by, found before any of them is emitted: the ops
 * that hold a barrier or a shuffle (where pieces end), the users of each value (what crosses a piece), and
 * the chain of blocks with the branch operands their arguments stand for. {@link WorkItemLoops} reads it.
 */
final class WorkItemPlan {
    /** Ops that compute a thread's index and are computed again in each piece that uses them. */
    static final Set<String> RECOMPUTED = Set.of(DimensionOp.name("thread_id"), DimensionOp.name("global_id"), LaneOps.LANE_ID);
    /** Ops without side effects that run once per block when their operands are the same in every thread. */
    static final Set<String> SHARED = Set.of(DimensionOp.name("block_id"), DimensionOp.name("block_dim"), DimensionOp.name("grid_dim"),
            LaneOps.SUBGROUP_SIZE, MemRef.DimOp.NAME);

    private final Map<Value, List<Operation>> users = new IdentityHashMap<>();
    private final Set<Operation> collective = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The ops that hold a barrier (the others of {@link #collective} hold only shuffles). */
    private final Set<Operation> barriers = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The arguments of a block that a straight {@code cf.br} enters, and the branch's operands they stand for. */
    private final Map<Value, Value> aliases = new IdentityHashMap<>();

    /** The kernel the plan is of: a detached copy, its calls of functions with barriers or shuffles inlined. */
    final Operation kernel;

    /** Plans {@code kernel}. */
    WorkItemPlan(Operation kernel) {
        this.kernel = kernel;
        index(kernel);
    }

    /** Whether {@code op}, an op of the kernel's body, holds a barrier or a shuffle. */
    boolean collective(Operation op) {
        return collective.contains(op);
    }

    /** Whether {@code op} holds a barrier (one that holds only shuffles runs once per subgroup). */
    boolean holdsBarrier(Operation op) {
        return barriers.contains(op);
    }

    /** The ops that use {@code v} itself. */
    List<Operation> users(Value v) {
        return users.getOrDefault(v, List.of());
    }

    /** The branch operand that block argument {@code v} stands for, or null. */
    Value alias(Value v) {
        return aliases.get(v);
    }

    /** {@code v}, or the branch operand it stands for, followed through every straight branch. */
    Value resolved(Value v) {
        while (aliases.containsKey(v)) {
            v = aliases.get(v);
        }
        return v;
    }

    /** Whether {@code op} reads other threads' values: a shuffle or a subgroup reduction. */
    static boolean exchanges(Operation op) {
        return op.name().equals(ShuffleOp.NAME) || op.name().equals(SubgroupReduceOp.NAME);
    }

    /** Whether {@code op} waits for every thread of the block: a barrier, or a reduction over the block. */
    static boolean waitsForBlock(Operation op) {
        return op.name().equals(BarrierOp.NAME) || op.name().equals(AllReduceOp.NAME);
    }

    private boolean index(Operation op) {
        boolean holds = waitsForBlock(op) || exchanges(op);
        boolean barrier = waitsForBlock(op);
        for (Value v : op.operands()) {
            users.computeIfAbsent(v, k -> new ArrayList<>()).add(op);
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    holds |= index(o);
                    barrier |= barriers.contains(o);
                }
            }
        }
        if (holds && op != kernel) {
            collective.add(op);
        }
        if (barrier) {
            barriers.add(op);
        }
        return holds;
    }

    /**
     * The kernel's blocks, when each but the last ends with a {@code cf.br} to the next, which nothing else
     * branches to (as an outlined {@code gpu.launch} is: an entry block of indices, then the body); each
     * next block's arguments stand for the branch's operands. Anything else is a located error.
     */
    List<Block> chain() {
        List<Block> blocks = kernel.region(0).blocks();
        List<Block> out = new ArrayList<>();
        Block b = kernel.region(0).entry();
        while (true) {
            out.add(b);
            Operation term = b.terminator();
            if (term != null && term.name().equals(dev.mgpu.dialect.cf.Cf.BrOp.NAME) && out.size() < blocks.size()) {
                Block next = term.successors().get(0);
                long preds = blocks.stream().filter(x -> x.terminator() != null
                        && x.terminator().successors().contains(next)).count();
                if (preds == 1 && !out.contains(next)) {
                    for (int i = 0; i < next.arguments().size(); i++) {
                        aliases.put(next.argument(i), term.operand(i));
                    }
                    b = next;
                    continue;
                }
            }
            if (out.size() == blocks.size()) {
                return out;
            }
            throw ModuleTranslation.error(kernel, "Invalid kernel for #cpu.target (must have one block, or blocks"
                    + " that each branch straight to the next, when it has barriers, shuffles or workgroup memory:"
                    + " the CPU runs its threads in loops between them)");
        }
    }

    /** Adds to {@code used} the operands of {@code op} and its nested ops that come from outside the piece. */
    static void collectUsed(Operation op, Set<Operation> inPiece, Block block, Set<Value> used) {
        for (Value v : op.operands()) {
            if (!definedIn(v, inPiece, block)) {
                used.add(v);
            }
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    collectUsed(o, inPiece, block, used);
                }
            }
        }
    }

    static boolean definedIn(Value v, Set<Operation> inPiece, Block block) {
        Operation def = v instanceof Value.OpResult r ? r.owner() : ((Value.BlockArgument) v).owner().parentOp();
        Operation top = topIn(def, block);
        return top != null && inPiece.contains(top);
    }

    /** The ancestor of {@code op} (or {@code op}) that is an op of {@code block}, or null. */
    static Operation topIn(Operation op, Block block) {
        for (Operation o = op; o != null; o = o.parentOp()) {
            if (o.parent() == block) {
                return o;
            }
        }
        return null;
    }

    /** The ops that use {@code v}, or a block argument that stands for it. */
    List<Operation> usersOf(Value v) {
        List<Operation> out = new ArrayList<>(users.getOrDefault(v, List.of()));
        aliases.forEach((arg, operand) -> {
            if (operand == v) {
                out.addAll(usersOf(arg));
            }
        });
        return out;
    }

    /**
     * Whether operand {@code i} of the yield of {@code body}, the body of an {@code scf.for} that holds a
     * barrier, may be kept per thread in the array of iteration argument {@code i} itself rather than in an
     * array of its own that the yield then copies: it is a result of an op of the body that holds no barrier
     * or shuffle, yielded once, and every use of the argument is in an op of the body at or before that op
     * that holds no barrier or shuffle. Each thread then reads its own element of the argument (at the start
     * of the loop over the threads that runs the op, or in an earlier loop) before it writes the same element,
     * and no thread reads another's: the element is the thread's own, as a register would be.
     */
    boolean updatesInPlace(Block body, int i) {
        Operation yield = body.terminator();
        Value v = yield.operand(i);
        if (!(v instanceof Value.OpResult r) || r.owner().parent() != body || collective(r.owner())) {
            return false;
        }
        for (int j = 0; j < yield.operandCount(); j++) {
            if (j != i && yield.operand(j) == v) {
                return false;
            }
        }
        List<Operation> ops = body.operations();
        int at = positionOf(ops, r.owner());
        for (Operation u : users(body.argument(i + 1))) {
            Operation top = topIn(u, body);
            if (top == null || collective(top) || positionOf(ops, top) > at) {
                return false;
            }
        }
        return true;
    }

    private static int positionOf(List<Operation> ops, Operation op) {
        for (int k = 0; k < ops.size(); k++) {
            if (ops.get(k) == op) {
                return k;
            }
        }
        return -1;
    }

    /** The index of the piece of {@code op} among the ops of its block: how many barriers and shuffles come before. */
    int pieceOf(Operation op) {
        int n = 0;
        for (Operation o : op.parent().operations()) {
            if (o == op) {
                return n;
            }
            if (collective.contains(o)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Whether {@code r}, a result of an op of the piece {@code inPiece} (ops of {@code block}), is used outside
     * it and must be kept per thread rather than computed again ({@link #recomputable}).
     */
    boolean crosses(Value r, Set<Operation> inPiece, Block block, Predicate<Value> shared, Predicate<Value> kept) {
        boolean outside = false;
        boolean byCollective = false;
        for (Operation u : usersOf(r)) {
            Operation top = topIn(u, block);
            outside |= top == null || !inPiece.contains(top);
            byCollective |= collective(u) || u.name().equals(Scf.ConditionOp.NAME)
                    && collective(u.parentOp());
        }
        if (!outside) {
            return false;
        }
        return byCollective || !recomputable(r, shared, kept);
    }

    /**
     * Whether {@code v} is computed again where another piece uses it rather than kept per thread: a thread
     * index, or integer arithmetic (an address, mostly) of at most a few steps on thread indices and values
     * that every thread shares. Kept per thread, an index would be loaded from memory, and LLVM would no
     * longer see that neighbouring threads touch neighbouring elements. {@code shared} says which values every
     * thread has alike, {@code kept} which are kept per thread already.
     */
    boolean recomputable(Value v, Predicate<Value> shared, Predicate<Value> kept) {
        return recomputable(v, 0, shared, kept);
    }

    private boolean recomputable(Value v, int depth, Predicate<Value> shared, Predicate<Value> kept) {
        if (shared.test(v)) {
            return true;
        }
        if (!(v instanceof Value.OpResult r) || depth > 8 || kept.test(v)) {
            return false;
        }
        Operation def = r.owner();
        if (RECOMPUTED.contains(def.name())) {
            return true;
        }
        if (!def.dialect().equals("arith") || !def.regions().isEmpty()
                || !(v.type() instanceof Type.IntegerType || v.type() instanceof Type.IndexType)) {
            return false;
        }
        for (Value o : def.operands()) {
            if (!recomputable(o, depth + 1, shared, kept)) {
                return false;
            }
        }
        return true;
    }
}
