package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gpu op that takes {@code [async] [[%deps]]}: its dependencies come first among its operands (or in
 * operand segment 0), and it may return one {@code !gpu.async.token}. Holds the syntax and the rules the
 * async ops share.
 */
public abstract class AsyncOpView extends OpView {
    /**
     * Views {@code op}, which must be named {@code expectedName}.
     *
     * @param op the operation
     * @param expectedName the name the op must have
     * @throws IllegalArgumentException if {@code op} has another name
     */
    protected AsyncOpView(Operation op, String expectedName) {
        super(op, expectedName);
    }

    /**
     * The tokens this op waits for.
     *
     * @return the dependency operands, in order; empty when there are none
     */
    public List<Value> asyncDependencies() {
        return dependencies(op);
    }

    /**
     * The token result, or null for the synchronous form.
     *
     * @return the {@code !gpu.async.token} result, or null
     */
    public Value asyncToken() {
        for (Value v : op.results()) {
            if (v.type() instanceof Type.AsyncTokenType) {
                return v;
            }
        }
        return null;
    }

    /**
     * The operands after the dependencies.
     *
     * @return a view of the operands that follow the async dependencies
     */
    protected List<Value> nonTokenOperands() {
        List<Value> all = op.operands();
        return all.subList(asyncDependencies().size(), all.size());
    }

    static List<Value> dependencies(Operation op) {
        if (op.hasAttr("operandSegmentSizes")) {
            return op.segment(0);
        }
        List<Value> deps = new ArrayList<>();
        for (Value v : op.operands()) {
            if (!(v.type() instanceof Type.AsyncTokenType)) {
                break;
            }
            deps.add(v);
        }
        return deps;
    }

    /**
     * What {@code [async] [[%deps]]} parses to.
     *
     * @param async whether the op has the {@code async} keyword
     * @param deps the async tokens the op waits for
     */
    record Deps(boolean async, List<Value> deps) {
        List<Type> results(Type... before) {
            List<Type> r = new ArrayList<>(List.of(before));
            if (async) {
                r.add(Type.ASYNC_TOKEN);
            }
            return r;
        }
    }

    /** {@code results} is how many result names the op was given: an async token must be named. */
    static Deps parseDeps(OpAsmParser p, int results) {
        int at = p.offset();
        boolean async = p.optionalKeyword("async");
        if (async && results == 0) {
            // An unnamed token could never be waited for, so the async form would lose its only use.
            throw p.errorAt(at, "Invalid async op (must name its !gpu.async.token result): no result name");
        }
        List<Value> deps = new ArrayList<>();
        if (p.atPunct('[')) {
            p.expectPunct('[');
            if (!p.optionalPunct(']')) {
                deps.addAll(p.resolveAll(p.operandRefs(), Type.ASYNC_TOKEN));
                p.expectPunct(']');
            }
        }
        return new Deps(async, deps);
    }

    static void printDeps(OpAsmPrinter p, boolean async, List<Value> deps) {
        if (async) {
            p.write(" async");
        }
        if (!deps.isEmpty()) {
            p.write(" [").operands(deps).write(']');
        }
    }

    /**
     * The shape that {@code gpu.memcpy} and {@code gpu.memset} share:
     * {@code [async] [[%deps]] %a, %b [{attrs}] : A, B}.
     */
    static Operation parseOperandPair(OpAsmParser p, int results, Location loc, String name) {
        Deps deps = parseDeps(p, results);
        OpAsmParser.OperandRef a = p.operandRef();
        p.expectPunct(',');
        OpAsmParser.OperandRef b = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type ta = p.type();
        p.expectPunct(',');
        Type tb = p.type();
        List<Value> ops = new ArrayList<>(deps.deps());
        ops.add(p.resolve(a, ta));
        ops.add(p.resolve(b, tb));
        return Operation.create(name, loc, ops, deps.results(), attrs);
    }

    /** Prints what {@link #parseOperandPair} parses. */
    void printOperandPair(OpAsmPrinter p) {
        printDeps(p, asyncToken() != null, asyncDependencies());
        List<Value> rest = nonTokenOperands();
        p.write(' ').operands(rest);
        p.attrDict(op, Set.of());
        p.write(" : ").types(Syntax.types(rest));
    }

    /** Creates {@code name} on {@code deps} and {@code operands}, with a token result when {@code async}. */
    static Operation create(String name, Location loc, List<Value> deps, boolean async, Value... operands) {
        List<Value> ops = new ArrayList<>(deps);
        ops.addAll(List.of(operands));
        return Operation.create(name, loc, ops, async ? List.of(Type.ASYNC_TOKEN) : List.of(), Map.of());
    }

    /**
     * The rules every async op shares: dependencies are tokens, and the results are {@code otherResults}
     * non-token results and at most one token.
     */
    static void verifyAsync(Operation op, VerifyContext ctx, int otherResults) {
        verifyDependencies(op, ctx);
        verifyResults(op, ctx, otherResults);
    }

    static void verifyDependencies(Operation op, VerifyContext ctx) {
        for (Value v : dependencies(op)) {
            if (!(v.type() instanceof Type.AsyncTokenType)) {
                ctx.error(op, "Invalid async dependency (must be !gpu.async.token): " + v.type());
            }
        }
    }

    static void verifyResults(Operation op, VerifyContext ctx, int otherResults) {
        int tokens = 0;
        for (int i = 0; i < op.resultCount(); i++) {
            if (op.result(i).type() instanceof Type.AsyncTokenType) {
                tokens++;
            }
        }
        if (tokens > 1 || op.resultCount() - tokens != otherResults) {
            ctx.error(op, "Invalid results of " + op.name() + " (must be " + (otherResults == 1 ? "a memref and " : "")
                    + "at most one !gpu.async.token): " + Syntax.join(Syntax.types(op.results())));
        }
    }

    /**
     * Reports and returns false when the static part of {@code m}'s size in bytes does not fit in 63 bits:
     * the runtime takes sizes as 64-bit counts, and a product that wraps would allocate or copy the wrong
     * amount without a word.
     */
    static boolean verifyByteSize(Operation op, VerifyContext ctx, Type.MemRefType m) {
        Type e = m.elementType();
        long bytes = e instanceof Type.IntegerType i ? (i.width() + 7) / 8 : e instanceof Type.FloatType f ? f.width() / 8
                : 8;
        try {
            for (long d : m.shape()) {
                if (d != Type.DYNAMIC) {
                    bytes = Math.multiplyExact(bytes, d);
                }
            }
            return true;
        } catch (ArithmeticException overflow) {
            ctx.error(op, "Invalid " + op.name() + " memref (must have a size in bytes below 2^63): " + m);
            return false;
        }
    }

    /** Checks an {@code operandSegmentSizes} of {@code count} non-negative sizes that add up to the operands. */
    static boolean verifySegments(Operation op, VerifyContext ctx, int count) {
        if (!(op.attr("operandSegmentSizes") instanceof dev.mgpu.ir.Attribute.DenseArrayAttr seg)
                || seg.size() != count) {
            ctx.error(op, "Invalid operandSegmentSizes of " + op.name() + " (must be an array<i32> of " + count
                    + " sizes): " + op.attr("operandSegmentSizes"));
            return false;
        }
        long total = 0;
        for (int i = 0; i < seg.size(); i++) {
            long v = seg.get(i);
            if (v < 0) {
                ctx.error(op, "Invalid operandSegmentSizes of " + op.name() + " (must be >= 0): " + v);
                return false;
            }
            total += v;
        }
        if (total != op.operandCount()) {
            ctx.error(op, "Invalid operandSegmentSizes of " + op.name() + " (must add up to the "
                    + op.operandCount() + " operands): " + total);
            return false;
        }
        return true;
    }
}
