package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code [%t =] gpu.wait [async] [%deps]}: the synchronous form blocks until every dependency is done
 * (and ends those streams); the async form returns a token that depends on all of them.
 */
public final class WaitOp extends AsyncOpView {
    /** The op's name. */
    public static final String NAME = "gpu.wait";

    /**
     * Views {@code op} as a {@code gpu.wait}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.wait}
     */
    public WaitOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a wait on {@code deps}; with {@code async} it returns a token instead of blocking.
     *
     * @param loc the op's location
     * @param deps the tokens to wait for
     * @param async whether to return a token instead of blocking
     * @return the new, detached op
     */
    public static WaitOp create(Location loc, List<Value> deps, boolean async) {
        return new WaitOp(Operation.create(NAME, loc, deps, async ? List.of(Type.ASYNC_TOKEN) : List.of(), Map.of()));
    }

    /**
     * Whether this is the blocking form.
     *
     * @return true when the op has no result
     */
    public boolean isSynchronous() {
        return op.resultCount() == 0;
    }

    static OpDef definition() {
        return OpDef.of(NAME).syntax(WaitOp::parse, WaitOp::print).verifier(WaitOp::verify);
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        Deps deps = parseDeps(p, results);
        return Operation.create(NAME, loc, deps.deps(), deps.results(), p.optionalDictionary());
    }

    static void print(OpAsmPrinter p, Operation op) {
        printDeps(p, op.resultCount() > 0, op.operands());
        p.attrDict(op, Set.of());
    }

    static void verify(Operation op, VerifyContext ctx) {
        verifyDependencies(op, ctx);
        for (Value v : op.operands()) {
            if (!(v.type() instanceof Type.AsyncTokenType)) {
                ctx.error(op, "Invalid gpu.wait operand (must be !gpu.async.token): " + v.type());
            }
        }
        verifyResults(op, ctx, 0);
    }
}
