package dev.mgpu.codegen.internal.translate;

import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.WaitOp;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The life of the streams behind async tokens. Tokens are streams: an op runs on its first dependency's
 * stream and hands it on to its own token, or on a stream made for it. This class decides when a stream
 * ends and when events are recorded:
 * <ul>
 * <li>A stream the caller passed in ({@code <%s : !llvm.ptr>}) is the caller's: it is synchronised when
 * waited for, never destroyed.</li>
 * <li>A stream mgpu made is destroyed by the synchronous {@code gpu.wait} that waits for it, or else right
 * after the op that used the last token it carries, when all of the stream's tokens live in one block
 * that does not run again: work already queued on it still runs to completion, but nothing can wait for
 * it any more. A token that flows into a branch, a call or a return, or is used in several blocks or in a
 * loop, keeps its stream until a synchronous wait.</li>
 * <li>A token that another stream waits for (a second dependency, a dependency of {@code gpu.wait async}
 * or of a launch on the caller's stream) gets an event recorded where it is produced, so the waiter waits
 * for that point and not for work queued on the stream later; the event is destroyed after its last
 * wait.</li>
 * </ul>
 */
public final class Streams {
    private final Map<Value, Integer> uses = new IdentityHashMap<>();
    private final Map<Value, Integer> joins = new IdentityHashMap<>();
    private final Set<Value> escaping = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Long, Integer> remaining = new HashMap<>();
    private final Set<Long> kept = new HashSet<>();
    private final Set<Long> escaped = new HashSet<>();
    private final Map<Value, Object> origins = new IdentityHashMap<>();
    /** The blocks in which each stream's tokens were produced or used. */
    private final Map<Long, Set<Block>> blocksOf = new HashMap<>();
    /** Blocks that can run again after themselves: a stream ended there could be needed on the next pass. */
    private final Set<Block> cyclic = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Long> ended = new HashSet<>();
    private final Map<Value, LLVMValueRef> events = new IdentityHashMap<>();
    private final Map<Value, Integer> waitsLeft = new IdentityHashMap<>();

    public Streams(Operation root) {
        count(root);
    }

    /** Marks the blocks of {@code r} that can reach themselves through their terminators' successors. */
    private void findCycles(Region r) {
        for (Block b : r.blocks()) {
            java.util.Deque<Block> work = new java.util.ArrayDeque<>();
            Set<Block> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            work.push(b);
            while (!work.isEmpty()) {
                Operation term = work.pop().terminator();
                for (Block s : term == null ? List.<Block>of() : term.successors()) {
                    if (s == b) {
                        cyclic.add(b);
                        work.clear();
                        break;
                    }
                    if (seen.add(s)) {
                        work.push(s);
                    }
                }
            }
        }
    }

    private void count(Operation op) {
        boolean gpu = op.dialect().equals("gpu");
        List<Value> joined = joinedOperands(op);
        for (Value v : op.operands()) {
            if (v.type() instanceof Type.AsyncTokenType) {
                uses.merge(v, 1, Integer::sum);
                if (!gpu) {
                    escaping.add(v);
                }
            }
        }
        for (Value v : joined) {
            joins.merge(v, 1, Integer::sum);
        }
        for (Region r : op.regions()) {
            findCycles(r);
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    count(o);
                }
            }
        }
    }

    /** The dependencies of {@code op} that another stream waits for. */
    private List<Value> joinedOperands(Operation op) {
        List<Value> tokens = new ArrayList<>();
        for (Value v : op.operands()) {
            if (v.type() instanceof Type.AsyncTokenType) {
                tokens.add(v);
            }
        }
        if (!op.dialect().equals("gpu") || tokens.isEmpty()) {
            return List.of();
        }
        if (op.name().equals(WaitOp.NAME) && op.resultCount() == 0) {
            return List.of();
        }
        Object runsOn = runsOn(op, tokens);
        List<Value> joined = new ArrayList<>();
        for (Value v : tokens) {
            if (!origin(v).equals(runsOn)) {
                joined.add(v);
            }
        }
        return joined;
    }

    /** What stream {@code op} runs on, in the terms of {@link #origin}. */
    private Object runsOn(Operation op, List<Value> tokens) {
        if (op.name().equals(WaitOp.NAME)) {
            return op;
        }
        if (op.name().equals(LaunchFuncOp.NAME) && new LaunchFuncOp(op).asyncObject() != null) {
            return new LaunchFuncOp(op).asyncObject();
        }
        return origin(tokens.get(0));
    }

    /**
     * Where the stream of {@code token} comes from, as far as the IR tells: the op that made it, the
     * caller's stream value, or the block argument it came through. Two tokens of one origin are one
     * stream, and waiting for one from the other is no wait at all.
     */
    private Object origin(Value token) {
        Object o = origins.get(token);
        if (o != null) {
            return o;
        }
        if (!(token instanceof Value.OpResult r)) {
            o = token;
        } else {
            Operation producer = r.owner();
            List<Value> deps = new ArrayList<>();
            for (Value v : producer.operands()) {
                if (v.type() instanceof Type.AsyncTokenType) {
                    deps.add(v);
                }
            }
            if (producer.name().equals(WaitOp.NAME) || deps.isEmpty()) {
                o = producer;
            } else if (producer.name().equals(LaunchFuncOp.NAME) && new LaunchFuncOp(producer).asyncObject() != null) {
                o = new LaunchFuncOp(producer).asyncObject();
            } else {
                o = origin(deps.get(0));
            }
        }
        origins.put(token, o);
        return o;
    }

    /** How many ops use {@code token}. */
    public int uses(Value token) {
        return uses.getOrDefault(token, 0);
    }

    /** Marks {@code stream} as the caller's. */
    public void keep(LLVMValueRef stream) {
        kept.add(stream.address());
    }

    public boolean isKept(LLVMValueRef stream) {
        return kept.contains(stream.address());
    }

    /**
     * {@code token} now carries {@code stream}; true when another stream will wait for the token, so an
     * event must be recorded on the stream here.
     */
    public boolean produced(Value token, LLVMValueRef stream) {
        long s = stream.address();
        seenIn(s, ((Value.OpResult) token).owner().parent());
        if (escaping.contains(token)) {
            escaped.add(s);
        }
        remaining.merge(s, uses(token), Integer::sum);
        return joins.getOrDefault(token, 0) > 0;
    }

    /** Remembers the event recorded for {@code token} where it was produced. */
    public void recorded(Value token, LLVMValueRef event) {
        events.put(token, event);
        waitsLeft.put(token, joins.get(token));
    }

    /** The event recorded for {@code token} where it was produced, or null. */
    public LLVMValueRef event(Value token) {
        return events.get(token);
    }

    /** One wait on {@code token}'s event is done; true when it was the last, so the event can go. */
    public boolean waited(Value token) {
        return waitsLeft.merge(token, -1, Integer::sum) == 0;
    }

    /** A synchronous {@code gpu.wait} ended {@code stream}. */
    public void ended(LLVMValueRef stream) {
        ended.add(stream.address());
    }

    /**
     * After {@code op}: the streams whose last token it used, which mgpu made and nothing else can reach
     * any more, to destroy now.
     */
    public List<LLVMValueRef> released(Operation op, java.util.function.Function<Value, LLVMValueRef> streamOf) {
        List<LLVMValueRef> out = new ArrayList<>();
        for (Value v : op.operands()) {
            if (!(v.type() instanceof Type.AsyncTokenType)) {
                continue;
            }
            LLVMValueRef s = streamOf.apply(v);
            seenIn(s.address(), op.parent());
            Integer left = remaining.computeIfPresent(s.address(), (k, n) -> n - 1);
            if (left != null && left == 0 && local(s.address()) && !kept.contains(s.address())
                    && !escaped.contains(s.address()) && ended.add(s.address())) {
                out.add(s);
            }
        }
        return out;
    }

    /** Whether {@code stream} carries no token that anything uses: mgpu's own stream can then go at once. */
    public boolean idle(LLVMValueRef stream) {
        long s = stream.address();
        return remaining.getOrDefault(s, 0) == 0 && local(s) && !kept.contains(s) && !escaped.contains(s)
                && ended.add(s);
    }

    private void seenIn(long stream, Block b) {
        blocksOf.computeIfAbsent(stream, k -> java.util.Collections.newSetFromMap(new IdentityHashMap<>())).add(b);
    }

    /**
     * Whether a stream's whole life is in one block that does not run again: only then is its last use
     * in the IR also its last use at run time. Otherwise the stream waits for a synchronous gpu.wait.
     */
    private boolean local(long stream) {
        Set<Block> in = blocksOf.getOrDefault(stream, Set.of());
        return in.size() == 1 && !cyclic.contains(in.iterator().next());
    }
}
