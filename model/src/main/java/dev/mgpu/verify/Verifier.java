package dev.mgpu.verify;

import dev.mgpu.dialect.Dialects;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.WaitOp;
import dev.mgpu.op.OpDef;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Value;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a module and returns every problem found, not only the first. Structural rules (registration,
 * terminators, symbol uniqueness, definition before use, stream lifetimes) are checked here; each op's
 * own rules come from its dialect.
 */
public final class Verifier {
    private final Dominance dominance = new Dominance();
    private final VerifyContext ctx = new VerifyContext(Dialects::hasSymbolTable);

    private Verifier() {
    }

    /**
     * Verifies {@code root} and everything nested in it.
     *
     * @param root the operation to verify, usually a {@code builtin.module}
     * @return every problem found, in the order found; empty when the module is valid
     */
    public static List<Diagnostic> verify(Operation root) {
        Verifier v = new Verifier();
        v.op(root, false);
        return v.ctx.diagnostics();
    }

    private void op(Operation op, boolean inDeviceModule) {
        OpDef def = Dialects.lookup(op);
        if (def == null) {
            if (!inDeviceModule) {
                ctx.error(op, "Invalid operation (must be registered): " + op.name());
            }
        } else {
            try {
                def.verifier().verify(op, ctx);
            } catch (RuntimeException e) {
                ctx.error(op, "Invalid " + op.name() + " (must be well formed): " + e.getMessage());
            }
        }
        Dialects.verifyDiscardable(op, ctx);
        boolean device = inDeviceModule || op.name().equals(GpuModuleOp.NAME);
        if (Dialects.hasSymbolTable(op)) {
            checkSymbols(op);
        }
        for (Region r : op.regions()) {
            boolean needsTerminator = !Dialects.hasSymbolTable(op) && !(device && def == null);
            for (Block b : r.blocks()) {
                block(b, needsTerminator, device);
            }
        }
    }

    private void block(Block b, boolean needsTerminator, boolean device) {
        List<Operation> ops = b.operations();
        // The ops of the block before the one checked: a result of the block used by one not among them is
        // used before it is defined. Made to the block's size: growing it step by step rehashed it each time.
        Set<Operation> before = java.util.Collections.newSetFromMap(new IdentityHashMap<>(ops.size()));
        Set<Value> waited = new HashSet<>();
        for (int i = 0; i < ops.size(); i++) {
            Operation o = ops.get(i);
            operands(o, b, before, waited);
            if (o.name().equals(WaitOp.NAME) && new WaitOp(o).isSynchronous()) {
                waited.addAll(o.operands());
            }
            boolean isTerm = Dialects.isTerminator(o);
            if (isTerm && i != ops.size() - 1) {
                ctx.error(o, "Invalid terminator (must be the last op of its block): " + o.name());
            }
            op(o, device);
            before.add(o);
        }
        if (needsTerminator) {
            Operation last = b.terminator();
            if (last == null) {
                ctx.error(b.location(), "Invalid block (must end with a terminator): empty block");
            } else if (!Dialects.isTerminator(last) && Dialects.lookup(last) != null) {
                ctx.error(last, "Invalid block (must end with a terminator): ends with " + last.name());
            }
        }
    }

    /**
     * Checks the operands of {@code o}, an op of block {@code b} after the ops {@code before}: each defined
     * before its use and where the use sees it, and none a token of a stream a synchronous wait destroyed.
     * A method of its own, not the body of the block's loop: it is compiled once called a few hundred times,
     * where a loop's body waits for tens of thousands of turns (20,000 launches in one function).
     */
    private void operands(Operation o, Block b, Set<Operation> before, Set<Value> waited) {
        // A value an op uses twice is reported once; the set is made at the first such report.
        Set<Value> unseen = null;
        for (Value v : o.operands()) {
            if (v instanceof Value.OpResult r && r.owner().parent() == b && !before.contains(r.owner())) {
                ctx.error(o, "Invalid operand (must be defined before its use): result #" + r.index() + " of "
                        + r.owner().name());
            } else if (!visible(v, b)) {
                if (unseen == null) {
                    unseen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                }
                if (unseen.add(v)) {
                    Operation isolated = hiddenBy(v, b);
                    ctx.error(o, isolated != null ? "Invalid operand (must be defined inside the "
                            + isolated.name() + " that holds its use, which is isolated from above): " + describe(v)
                            : "Invalid operand (must be defined in a block that dominates its use): "
                            + describe(v));
                }
            }
            if (!waited.isEmpty() && waited.contains(v)) {
                ctx.error(o, "Invalid use of async token (must not follow the synchronous gpu.wait that"
                        + " destroyed its stream): operand of " + o.name());
            }
        }
    }

    /**
     * Whether {@code v}, used in block {@code use}, is defined where the use can see it: in a block of the
     * same region that dominates it, or in an enclosing region (the region of an op that holds the use).
     */
    private boolean visible(Value v, Block use) {
        Block def = v instanceof Value.OpResult r ? r.owner().parent() : ((Value.BlockArgument) v).owner();
        if (def == null || def == use) {
            return true;
        }
        for (Block b = use; b != null; ) {
            if (b.parent() == def.parent()) {
                return dominance.dominates(def.parent(), def, b);
            }
            Operation holder = b.parent() == null ? null : b.parent().parent();
            if (holder != null && Dialects.isIsolatedFromAbove(holder)) {
                return false; // nothing from outside an isolated op's regions is seen inside them
            }
            b = holder == null ? null : holder.parent();
        }
        return false;
    }

    /** The op isolated from above whose regions hide {@code v} from a use in {@code use}, or null. */
    private static Operation hiddenBy(Value v, Block use) {
        Block def = v instanceof Value.OpResult r ? r.owner().parent() : ((Value.BlockArgument) v).owner();
        for (Block b = use; b != null && b.parent() != def.parent(); ) {
            Operation holder = b.parent() == null ? null : b.parent().parent();
            if (holder != null && Dialects.isIsolatedFromAbove(holder)) {
                return holder;
            }
            b = holder == null ? null : holder.parent();
        }
        return null;
    }

    private static String describe(Value v) {
        return v instanceof Value.OpResult r ? "result #" + r.index() + " of " + r.owner().name()
                : "argument #" + ((Value.BlockArgument) v).index() + " of another block";
    }

    private void checkSymbols(Operation table) {
        Map<String, Operation> seen = new HashMap<>();
        for (Region r : table.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    String n = o.symbolName();
                    if (n != null && seen.putIfAbsent(n, o) != null) {
                        ctx.error(o, "Invalid symbol (must be unique in its symbol table): @" + n);
                    }
                }
            }
        }
    }
}
