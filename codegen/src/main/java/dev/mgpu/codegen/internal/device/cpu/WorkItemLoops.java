package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.codegen.internal.kernel.KernelExchangeTranslators;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.LoopBuilder;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.BarrierOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A {@code #cpu.target} kernel whose threads work together (a {@code gpu.barrier}, a {@code gpu.shuffle} or
 * workgroup memory), translated into one function that runs a whole block.
 *
 * <p>The kernel's body is cut at its barriers and shuffles into pieces. Each piece runs in a loop over the
 * block's threads (x innermost), so that every thread has finished a piece before any thread starts the
 * next: a barrier holds by construction, and LLVM can vectorise each loop. An {@code scf.for} or
 * {@code scf.if} that holds a barrier or shuffle runs once for the block, around the loops of its own
 * pieces (as does an {@code scf.while}); its bounds or condition are read from the block's first thread (on a GPU, a barrier that not
 * every thread reaches is undefined, so they are the same in every thread). One that holds shuffles but no
 * barrier runs once for each subgroup instead, with its first thread's condition or bounds, since only a
 * subgroup's threads must agree there. What else holds a barrier or shuffle would diverge, and is a
 * located error.
 *
 * <p>A value that one piece computes and a later piece uses is kept in an array with one element per
 * thread (as are the iteration values and results of such loops and conditions); thread indices are
 * computed again where they are used; operations without side effects on values that every thread
 * shares (constants, block indices and sizes, the kernel's arguments) run once, outside the loops. A shuffle
 * reads the array of its operand at the source lane, where a subgroup is 32 consecutive threads of the
 * block, as on NVIDIA's GPUs. Workgroup memory is on the function's stack, so it is the block's own;
 * private memory that outlives a piece has one copy per thread; the per-thread arrays live in one heap
 * block per call.
 */
public final class WorkItemLoops {
    /** The lanes of a subgroup on the CPU. */
    public static final int SUBGROUP = 32;

    private final ModuleTranslation t;
    private final WorkItemPlan plan;
    private final Operation kernel;
    private final LLVMValueRef fn;
    private final Set<Value> shared = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The per-thread arrays of values that cross pieces. */
    private final Map<Value, LLVMValueRef> slots = new IdentityHashMap<>();
    /** Values whose array is the array of an iteration argument of the loop around them ({@link WorkItemPlan#updatesInPlace}). */
    private final Map<Value, LLVMValueRef> inPlace = new IdentityHashMap<>();
    /** Private attributions: the base of one copy per thread, and the bytes of one. */
    private final Map<Value, LLVMValueRef[]> privateCopies = new IdentityHashMap<>();
    /** The arrays with one element per thread, and what else the entry block holds. */
    private PerThreadMemory memory;
    private LLVMValueRef localGrid;
    private final LLVMValueRef[] dims = new LLVMValueRef[3];
    private LLVMValueRef threads;
    /** Inside a loop over the threads: the thread's indices (i64) and its index in the block. */
    private LLVMValueRef[] ivs;
    private LLVMValueRef linear;
    /** In a subgroup's own control flow: the index in the block of the subgroup's first thread (else null). */
    private LLVMValueRef subgroupFirst;

    private WorkItemLoops(ModuleTranslation t, WorkItemPlan plan, LLVMValueRef fn) {
        this.t = t;
        this.plan = plan;
        this.kernel = plan.kernel;
        this.fn = fn;
    }

    /**
     * Translates kernel {@code op} into its exported entry point {@code void name(void **params, const
     * mgpuCpuGrid *g)} with the marker {@code name.mgpu_block}, as {@link Cpu#finishKernel}
     * makes for other kernels; {@code collectiveFunctions} ({@link WorkItemInliner#collectiveFunctions})
     * are inlined first.
     */
    static void translate(ModuleTranslation t, Cpu cpu, Operation op, Map<String, Operation> functions,
            Set<String> collectiveFunctions) {
        Operation kernel = WorkItemInliner.inlined(op, functions, collectiveFunctions);
        Operation tail = TailOutliner.outline(kernel);
        if (tail != null) {
            t.translateFunction(tail);
        }
        WorkItemPlan plan = new WorkItemPlan(kernel);
        LLVMValueRef fn = Cpu.entryPoint(t, plan.kernel);
        WorkItemLoops w = new WorkItemLoops(t, plan, fn);
        cpu.workItems = w;
        try {
            w.run();
        } finally {
            cpu.workItems = null;
        }
    }

    // ------------------------------------------------------------------ the entry point

    private void run() {
        GpuFuncOp f = new GpuFuncOp(kernel);
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMPositionBuilderAtEnd(t.builder, entry);
        dev.mgpu.codegen.internal.translate.DebugInfo.begin(t.debugInfo(), fn, kernel, t.builder);
        Block body = kernel.region(0).entry();
        int inputs = f.type().inputs().size();
        List<LLVMTypeRef> types = new ArrayList<>();
        for (int i = 0, p = 0; i < inputs; i++) {
            Value a = body.argument(i);
            types.addAll(t.types.kernelParameters(a.type(), t.arguments.barePointers, kernel));
            p += t.bindKernelArgument(a, kernel, p, (k, type) -> Cpu.argument(t, fn, k, type));
            shared.add(a);
        }
        Cpu.exportParams(t, kernel.symbolName(), types.toArray(new LLVMTypeRef[0]));
        localGrid = Cpu.localGrid(t, fn);
        long[] known = new GpuFuncOp(kernel).knownBlockSize();
        if (known != null) {
            Cpu.exportBlockSize(t, kernel.symbolName(), known);
        }
        for (int d = 0; d < 3; d++) {
            dims[d] = known != null ? LLVMConstInt(i64, known[d], 0) : Cpu.blockSize(t, fn, d);
        }
        threads = LLVMBuildNUWMul(t.builder, LLVMBuildNUWMul(t.builder, dims[0], dims[1], ""), dims[2], "");
        memory = new PerThreadMemory(t, LLVMBuildBr(t.builder, start));
        LLVMPositionBuilderAtEnd(t.builder, start);
        for (int i = inputs; i < body.arguments().size(); i++) {
            Value.BlockArgument a = body.argument(i);
            if (i - inputs < f.workgroupCount()) {
                // Workgroup memory: the block's own, on the stack of the call that runs the block.
                Type.MemRefType m = (Type.MemRefType) a.type();
                LLVMTypeRef arr = t.types.arrayOf(m, kernel);
                t.map(a, memory.allocaAtEntry(arr, (int) Math.max(64, f.attributionAlignment(i - inputs))));
                shared.add(a);
            } else {
                Type.MemRefType m = (Type.MemRefType) a.type();
                LLVMTypeRef arr = t.types.arrayOf(m, kernel);
                long align = Math.max(16, f.attributionAlignment(i - inputs));
                memory.align(align);
                long stride = PerThreadMemory.alignUp(LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), arr), align);
                privateCopies.put(a, new LLVMValueRef[] {memory.perThread(stride), LLVMConstInt(LLVMInt64TypeInContext(t.ctx),
                        stride, 0)});
            }
        }
        for (Block b : plan.chain()) {
            block(b);
        }
        memory.place(kernel, known, threads);
        LLVMBuildRetVoid(t.builder);
        dev.mgpu.codegen.internal.translate.DebugInfo.end(t.debugInfo(), t.builder);
    }


    // ------------------------------------------------------------------ what runs once per block

    /** Translates the ops of {@code b} but its terminator, which it returns, where every thread of the block is. */
    private Operation block(Block b) {
        List<Operation> ops = b.operations();
        region(ops.subList(0, ops.size() - 1));
        return ops.get(ops.size() - 1);
    }

    /** Translates {@code ops}, the ops of one block but its terminator, where every thread of the block is. */
    private void region(List<Operation> ops) {
        List<Operation> piece = new ArrayList<>();
        for (Operation op : ops) {
            if (!plan.collective(op)) {
                piece.add(op);
                continue;
            }
            if (WorkItemPlan.exchanges(op)) {
                // Every thread has its operand before any thread reads another's.
                piece(piece);
                piece = new ArrayList<>();
                piece.add(op);
                continue;
            }
            piece(piece);
            piece = new ArrayList<>();
            switch (op.name()) {
                case BarrierOp.NAME -> {
                    // The end of the piece is the barrier.
                }
                case AllReduceOp.NAME -> allReduce(op);
                case Scf.ForOp.NAME -> inScope(op, () -> forLoop(op));
                case Scf.IfOp.NAME -> inScope(op, () -> ifThenElse(op));
                case Scf.WhileOp.NAME -> inScope(op, () -> whileLoop(op));
                default -> throw ModuleTranslation.error(op, "Invalid " + op.name() + " around a gpu.barrier or"
                        + " gpu.shuffle for #cpu.target (must be scf.for, scf.if or scf.while: the CPU runs the"
                        + " threads of a block in loops between barriers and shuffles)");
            }
        }
        piece(piece);
    }

    /**
     * Runs {@code control}, the translation of {@code op}, once for the block when {@code op} holds a barrier
     * (or the builder is already in a subgroup's control flow), else once for each subgroup: an op that holds
     * only shuffles needs only its subgroup's threads to agree ({@code if (warp == 0)} around a subgroup's
     * reduction), so its condition or bounds are each subgroup's first thread's.
     */
    private void inScope(Operation op, Runnable control) {
        if (plan.holdsBarrier(op) || subgroupFirst != null) {
            control.run();
            return;
        }
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMValueRef lb = LLVMConstInt(i64, 0, 0);
        LoopBuilder loop = LoopBuilder.open(t, lb);
        LLVMValueRef first = loop.iv();
        loop.enterWhile(LLVMBuildICmp(t.builder, LLVMIntULT, first, threads, ""));
        subgroupFirst = first;
        try {
            control.run();
        } finally {
            subgroupFirst = null;
        }
        loop.close(LLVMBuildNUWAdd(t.builder, first, LLVMConstInt(i64, SUBGROUP, 0), ""));
    }

    /**
     * gpu.all_reduce, once for the block between the loops over its threads: the threads' values (kept per
     * thread by the piece before) combined in the order of the threads, the result the same in every thread.
     */
    private void allReduce(Operation op) {
        AllReduceOp r = new AllReduceOp(op);
        Value v = r.value();
        v = plan.resolved(v);
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMTypeRef ty = t.types.of(v.type(), op);
        LLVMValueRef slot = slots.get(v);
        LLVMValueRef same = slot == null ? t.lookup(v, op) : null;
        LLVMValueRef first = slot == null ? same : LLVMBuildLoad2(t.builder, ty, gep(ty, slot, LLVMConstInt(i64, 0, 0)),
                "");

        LLVMValueRef one = LLVMConstInt(i64, 1, 0);
        LoopBuilder loop = LoopBuilder.open(t, one);
        LLVMValueRef i = loop.iv();
        LLVMValueRef acc = loop.carry(first);
        loop.enterWhile(LLVMBuildICmp(t.builder, LLVMIntULT, i, threads, ""));
        LLVMValueRef x = slot == null ? same : LLVMBuildLoad2(t.builder, ty, gep(ty, slot, i), "");
        LLVMValueRef next = KernelExchangeTranslators.combine(t, op, r, acc, x);
        loop.close(LLVMBuildNUWAdd(t.builder, i, one, ""), List.of(next));
        t.map(op.result(0), acc);
        shared.add(op.result(0));
    }

    /** Value {@code v}, which every thread has alike, where the builder is outside the loops over threads. */
    private LLVMValueRef uniform(Value v, Operation user) {
        if (plan.alias(v) != null) {
            return uniform(plan.alias(v), user);
        }
        LLVMValueRef slot = slots.get(v);
        if (slot != null) {
            LLVMTypeRef ty = t.types.of(v.type(), user);
            return LLVMBuildLoad2(t.builder, ty, subgroupFirst == null ? slot : gep(ty, slot, subgroupFirst), "");
        }
        if (shared.contains(v)) {
            return t.lookup(v, user);
        }
        throw ModuleTranslation.error(user, "Invalid operand of " + user.name() + " for #cpu.target (must be the same"
                + " value in every thread of the block, around a barrier or shuffle): " + v);
    }

    private void forLoop(Operation op) {
        Scf.ForOp f = new Scf.ForOp(op);
        LLVMValueRef lb = uniform(f.lowerBound(), op);
        LLVMValueRef ub = uniform(f.upperBound(), op);
        LLVMValueRef step = uniform(f.step(), op);
        Block b = f.body();
        List<LLVMValueRef> carried = newSlots(op.results(), op);
        storeAll(f.inits(), carried, op);
        LoopBuilder loop = LoopBuilder.open(t, lb);
        LLVMValueRef iv = loop.iv();
        loop.enterWhile(LLVMBuildICmp(t.builder, LLVMIntSLT, iv, ub, ""));
        t.map(b.argument(0), iv);
        shared.add(b.argument(0));
        for (int i = 0; i < carried.size(); i++) {
            slots.put(b.argument(i + 1), carried.get(i));
            if (plan.updatesInPlace(b, i)) {
                // The next iteration's value goes straight into the argument's array: no copy after the
                // body, and a thread's next iteration waits only for its own value, not for the whole block's.
                inPlace.put(b.terminator().operand(i), carried.get(i));
            }
        }
        Operation yield = block(b);
        List<Value> moved = new ArrayList<>();
        List<LLVMValueRef> into = new ArrayList<>();
        for (int i = 0; i < carried.size(); i++) {
            Value v = yield.operand(i);
            inPlace.remove(v);
            if (slots.get(v) != carried.get(i)) {
                moved.add(v);
                into.add(carried.get(i));
            }
        }
        storeAll(moved, into, yield);
        loop.close(LLVMBuildAdd(t.builder, iv, step, ""));
        for (int i = 0; i < carried.size(); i++) {
            slots.put(op.result(i), carried.get(i));
        }
    }

    /**
     * An {@code scf.while} around a barrier or shuffle, once for the block (or subgroup): its carried values
     * and the values its condition passes on are kept per thread; the condition is the first thread's.
     */
    private void whileLoop(Operation op) {
        Scf.WhileOp w = new Scf.WhileOp(op);
        if (w.before().blocks().size() != 1 || w.after().blocks().size() != 1) {
            throw ModuleTranslation.error(op, "Invalid scf.while for a kernel (must have one block per region)");
        }
        Block before = w.before().entry();
        Block after = w.after().entry();
        List<LLVMValueRef> carried = newSlots(before.arguments(), op);
        List<LLVMValueRef> passed = newSlots(after.arguments(), op);
        storeAll(op.operands(), carried, op);
        for (int i = 0; i < carried.size(); i++) {
            slots.put(before.argument(i), carried.get(i));
        }
        for (int i = 0; i < passed.size(); i++) {
            slots.put(after.argument(i), passed.get(i));
        }
        LLVMBasicBlockRef header = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef bodyBlock = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildBr(t.builder, header);
        LLVMPositionBuilderAtEnd(t.builder, header);
        Operation condition = block(before);
        storeAll(condition.operands().subList(1, condition.operandCount()), passed, condition);
        LLVMBuildCondBr(t.builder, uniform(condition.operand(0), condition), bodyBlock, exit);
        LLVMPositionBuilderAtEnd(t.builder, bodyBlock);
        Operation yield = block(after);
        storeAll(yield.operands(), carried, yield);
        LLVMBuildBr(t.builder, header);
        LLVMPositionBuilderAtEnd(t.builder, exit);
        for (int i = 0; i < op.resultCount(); i++) {
            slots.put(op.result(i), passed.get(i));
        }
    }

    private void ifThenElse(Operation op) {
        Scf.IfOp s = new Scf.IfOp(op);
        LLVMValueRef c = uniform(s.condition(), op);
        List<LLVMValueRef> results = newSlots(op.results(), op);
        LLVMBasicBlockRef thenBlock = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef elseBlock = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, c, thenBlock, elseBlock);
        for (Region r : List.of(s.thenRegion(), s.elseRegion())) {
            LLVMPositionBuilderAtEnd(t.builder, r == s.thenRegion() ? thenBlock : elseBlock);
            if (!r.isEmpty()) {
                Operation yield = block(r.entry());
                storeAll(yield.operands(), results, yield);
            }
            LLVMBuildBr(t.builder, merge);
        }
        LLVMPositionBuilderAtEnd(t.builder, merge);
        for (int i = 0; i < results.size(); i++) {
            slots.put(op.result(i), results.get(i));
        }
    }

    private List<LLVMValueRef> newSlots(List<? extends Value> values, Operation where) {
        List<LLVMValueRef> out = new ArrayList<>();
        for (Value v : values) {
            out.add(memory.perThread(t.types.of(v.type(), where)));
        }
        return out;
    }

    /** A loop over the threads that stores each thread's {@code values} into {@code into}. */
    private void storeAll(List<Value> values, List<LLVMValueRef> into, Operation user) {
        if (values.isEmpty()) {
            return;
        }
        threadLoop(new LinkedHashSet<>(values), () -> {
            List<LLVMValueRef> vs = t.lookup(values, user);
            for (int i = 0; i < vs.size(); i++) {
                LLVMBuildStore(t.builder, vs.get(i), gep(LLVMTypeOf(vs.get(i)), into.get(i), linear));
            }
        });
    }

    // ------------------------------------------------------------------ what runs once per thread

    /** Translates {@code ops}, a piece, in a loop over the threads, after what runs once for the block. */
    private void piece(List<Operation> ops) {
        List<Operation> perThread = new ArrayList<>();
        for (Operation op : ops) {
            if (op.regions().isEmpty() && op.resultCount() > 0 && shared.containsAll(op.operands())
                    && (op.dialect().equals("arith") || op.dialect().equals("math") || WorkItemPlan.SHARED.contains(op.name()))) {
                t.translateOp(op);
                shared.addAll(op.results());
            } else {
                perThread.add(op);
            }
        }
        if (perThread.isEmpty()) {
            return;
        }
        Set<Operation> inPiece = Collections.newSetFromMap(new IdentityHashMap<>());
        inPiece.addAll(perThread);
        Block block = perThread.get(0).parent();
        Set<Value> used = new LinkedHashSet<>();
        for (Operation op : perThread) {
            WorkItemPlan.collectUsed(op, inPiece, block, used);
        }
        threadLoop(used, () -> {
            for (Operation op : perThread) {
                t.translateOp(op);
                for (Value r : op.results()) {
                    if (plan.crosses(r, inPiece, block, shared::contains, slots::containsKey)) {
                        LLVMValueRef slot = inPlace.get(r);
                        if (slot == null) {
                            slot = memory.perThread(t.types.of(r.type(), op));
                        }
                        LLVMValueRef v = t.lookup(r, op);
                        LLVMBuildStore(t.builder, v, gep(LLVMTypeOf(v), slot, linear));
                        slots.put(r, slot);
                    }
                }
            }
        });
    }

    /**
     * A loop nest over the block's threads (z, y, x; x innermost) around {@code inside}, which first sees
     * {@code used} bound for the thread: a value of another piece loaded from its array, a thread index
     * computed again, a private attribution at the thread's copy.
     */
    private void threadLoop(Set<Value> used, Runnable inside) {
        if (subgroupFirst != null) {
            subgroupLoop(used, inside);
            return;
        }
        LLVMValueRef[] row = {LLVMConstInt(LLVMInt64TypeInContext(t.ctx), 0, 0)};
        ThreadNest nest = ThreadNest.open(t, localGrid, dims, (d, index) -> {
            // index in the block = (z * blockDim.y + y) * blockDim.x + x
            row[0] = LLVMBuildNUWAdd(t.builder, d == 2 ? row[0] : LLVMBuildNUWMul(t.builder, row[0], dims[d], ""),
                    index, "");
        });
        asThread(nest.indices(), row[0], used, inside);
        nest.close();
    }

    /** Runs {@code inside} as the thread of indices {@code idx} and index {@code index} in the block. */
    private void asThread(LLVMValueRef[] idx, LLVMValueRef index, Set<Value> used, Runnable inside) {
        ivs = idx;
        linear = index;
        t.inScope(() -> {
            Set<Value> bound = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Value v : used) {
                bind(v, bound);
            }
            inside.run();
            return null;
        });
        ivs = null;
        linear = null;
    }

    /** The loop over the threads of the current subgroup, by index in the block, around {@code inside}. */
    private void subgroupLoop(Set<Value> used, Runnable inside) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMValueRef end = LLVMBuildNUWAdd(t.builder, subgroupFirst, LLVMConstInt(i64, SUBGROUP, 0), "");
        end = LLVMBuildSelect(t.builder, LLVMBuildICmp(t.builder, LLVMIntULT, end, threads, ""), end, threads, "");
        LoopBuilder loop = LoopBuilder.open(t, subgroupFirst);
        LLVMValueRef i = loop.iv();
        LLVMBuildBr(t.builder, loop.body());
        LLVMPositionBuilderAtEnd(t.builder, loop.body());
        // x = i mod blockDim.x, y = (i / blockDim.x) mod blockDim.y, z = i / (blockDim.x * blockDim.y)
        LLVMValueRef rowIndex = LLVMBuildUDiv(t.builder, i, dims[0], "");
        LLVMValueRef[] idx = {LLVMBuildURem(t.builder, i, dims[0], ""), LLVMBuildURem(t.builder, rowIndex, dims[1], ""),
            LLVMBuildUDiv(t.builder, rowIndex, dims[1], "")};
        for (int d = 0; d < 3; d++) {
            LLVMBuildStore(t.builder, idx[d], gep(i64, localGrid, LLVMConstInt(i64, CpuGrid.word(CpuGrid.Array.THREAD_IDX, d), 0)));
        }
        asThread(idx, i, used, inside);
        LLVMValueRef next = LLVMBuildNUWAdd(t.builder, i, LLVMConstInt(i64, 1, 0), "");
        loop.closeWhen(next, LLVMBuildICmp(t.builder, LLVMIntULT, next, end, ""));
    }

    private void bind(Value v, Set<Value> bound) {
        if (shared.contains(v) || !bound.add(v)) {
            return;
        }
        Value operand = plan.alias(v);
        if (operand != null) {
            bind(operand, bound);
            t.map(v, t.lookup(operand, kernel));
            return;
        }
        LLVMValueRef slot = slots.get(v);
        if (slot != null) {
            LLVMTypeRef ty = t.types.of(v.type(), kernel);
            t.map(v, LLVMBuildLoad2(t.builder, ty, gep(ty, slot, linear), ""));
            return;
        }
        LLVMValueRef[] copies = privateCopies.get(v);
        if (copies != null) {
            LLVMValueRef offset = LLVMBuildMul(t.builder, linear, copies[1], "");
            t.map(v, gep(LLVMInt8TypeInContext(t.ctx), copies[0], offset));
            return;
        }
        if (v instanceof Value.OpResult r && plan.recomputable(v, shared::contains, slots::containsKey)) {
            // Computed again (recomputable): its operands first.
            for (Value o : r.owner().operands()) {
                bind(o, bound);
            }
            t.translateOp(r.owner());
        }
    }

    // ------------------------------------------------------------------ what the translators ask

    /** The grid that functions called from the kernel get: the block's, with the current thread's index. */
    public LLVMValueRef grid() {
        return localGrid;
    }

    /** Index {@code dim} of the current thread (i32). */
    public LLVMValueRef threadId(int dim) {
        if (ivs == null) {
            throw new IllegalStateException("a thread index outside the loops over threads");
        }
        return LLVMBuildTrunc(t.builder, ivs[dim], DeviceTarget.i32Type(t), "");
    }

    /** The current thread's lane in its subgroup (i32). */
    public LLVMValueRef laneId() {
        LLVMValueRef l = LLVMBuildAnd(t.builder, linear, LLVMConstInt(LLVMTypeOf(linear), SUBGROUP - 1, 0), "");
        return LLVMBuildTrunc(t.builder, l, DeviceTarget.i32Type(t), "");
    }

    /**
     * The value of {@code v} in lane {@code lane} (i32) of the current thread's subgroup; a lane past the
     * block's last thread gives the thread's own value.
     */
    public LLVMValueRef exchange(Value v, LLVMValueRef lane, Operation user) {
        v = plan.resolved(v);
        LLVMValueRef slot = slots.get(v);
        if (slot == null) {
            return t.lookup(v, user); // the same in every thread
        }
        LLVMTypeRef i64 = LLVMTypeOf(linear);
        LLVMValueRef first = LLVMBuildAnd(t.builder, linear, LLVMConstInt(i64, -SUBGROUP, 1), "");
        LLVMValueRef src = LLVMBuildOr(t.builder, first, LLVMBuildZExt(t.builder, lane, i64, ""), "");
        LLVMValueRef inBlock = LLVMBuildICmp(t.builder, LLVMIntULT, src, threads, "");
        src = LLVMBuildSelect(t.builder, inBlock, src, linear, "");
        LLVMTypeRef ty = t.types.of(v.type(), user);
        return LLVMBuildLoad2(t.builder, ty, gep(ty, slot, src), "");
    }

    /**
     * Memory for a {@code memref.alloca} of {@code type}: an alloca in the entry block when the memory is
     * only loaded and stored by the piece that allocates it, else the current thread's copy of one per
     * thread (a memref that reaches anything else, a select, a yield or a call, may outlive the piece).
     */
    public LLVMValueRef privateMemory(Operation alloca, LLVMTypeRef type, int align) {
        Block block = alloca.parent();
        boolean outlives = false;
        for (Operation u : plan.users(alloca.result(0))) {
            boolean access = u.name().equals(MemRef.LoadOp.NAME) && u.operand(0) == alloca.result(0)
                    || u.name().equals(MemRef.StoreOp.NAME) && u.operand(1) == alloca.result(0)
                    && u.operand(0) != alloca.result(0);
            Operation top = WorkItemPlan.topIn(u, block);
            outlives |= !access || top == null || plan.collective(top) || plan.pieceOf(top) != plan.pieceOf(alloca);
        }
        if (!outlives) {
            return memory.allocaAtEntry(type, align);
        }
        long stride = PerThreadMemory.alignUp(LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), type),
                Math.max(align, 1));
        memory.align(align);
        LLVMValueRef base = memory.perThread(stride);
        LLVMValueRef offset = LLVMBuildMul(t.builder, linear, LLVMConstInt(LLVMTypeOf(linear), stride, 0), "");
        return gep(LLVMInt8TypeInContext(t.ctx), base, offset);
    }

    private LLVMValueRef gep(LLVMTypeRef element, LLVMValueRef base, LLVMValueRef index) {
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(new LLVMValueRef[] {index})) {
            return LLVMBuildInBoundsGEP2(t.builder, element, base, pp, 1, "");
        }
    }
}
