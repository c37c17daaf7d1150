package dev.mgpu.codegen.internal.device.cpu;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The memory of a CPU kernel that runs as loops over its block's threads, allocated once per block in the
 * entry block: arrays with one element per thread (values that cross pieces, private memory that outlives
 * one), asked for while the body is emitted and placed once all are known, and the block's own allocas.
 */
final class PerThreadMemory {
    private final ModuleTranslation t;
    /** The entry block's branch to the body: what is allocated once per block goes before it. */
    private LLVMValueRef entryEnd;
    /** The per-thread arrays asked for: a placeholder in the entry block each, and its bytes per thread. */
    private final List<LLVMValueRef> perThreadPlaceholders = new ArrayList<>();
    private final List<Long> perThreadSizes = new ArrayList<>();
    /** The alignment of each per-thread array: 64 bytes, or the largest an attribution or alloca asks for. */
    private long perThreadAlign = 64;

    /**
     * The most bytes of per-thread arrays, for all of a block's threads, kept on the stack of the worker that
     * runs the block (a worker's stack is 8 MiB) rather than in a heap block.
     */
    private static final long STACK_BYTES = 512 * 1024;

    /**
     * The most bytes a block's frame may keep on the stack of the thread that runs it (workgroup memory,
     * private memory allocated once per block, per-thread arrays on the stack): half of the 8 MiB that the
     * runtime's workers have (runtime-c/src/cpu_streams.c), the rest for what the thread already holds.
     */
    static final long BLOCK_STACK_BYTES = 4L << 20;

    /** The threads a block without known_block_size is sized for when its per-thread arrays are on the stack. */
    static final long SIZED_THREADS = 1024;

    /** The bytes of the allocas made once per block, in the entry block. */
    private long entryBytes;

    PerThreadMemory(ModuleTranslation t, LLVMValueRef entryEnd) {
        this.t = t;
        this.entryEnd = entryEnd;
    }

    /** Raises the alignment of every per-thread array to at least {@code align}. */
    void align(long align) {
        perThreadAlign = Math.max(perThreadAlign, align);
    }

    static long alignUp(long n, long align) {
        return (n + align - 1) / align * align;
    }

    /** An array of {@code bytes} per thread, aligned to {@link #perThreadAlign}: a placeholder until {@link #place}. */
    LLVMValueRef perThread(long bytes) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(t.builder);
        LLVMPositionBuilderBefore(t.builder, entryEnd);
        LLVMValueRef placeholder = LLVMBuildAlloca(t.builder, LLVMInt8TypeInContext(t.ctx), "");
        LLVMPositionBuilderAtEnd(t.builder, here);
        perThreadPlaceholders.add(placeholder);
        perThreadSizes.add(bytes);
        return placeholder;
    }

    /**
     * Places the per-thread arrays, now that all are known: on the stack (an alloca each, which LLVM knows
     * best) when they fit {@link #STACK_BYTES} for the block (its known size, else 1024 threads), else in one
     * heap block per call, freed at the end: private memory of 8 KiB per thread is legal on a GPU, and 1024
     * threads of it would overflow a worker's stack.
     */
    void place(dev.mgpu.ir.Operation kernel, long[] known, LLVMValueRef threads) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        long total = 0;
        for (long b : perThreadSizes) {
            total += alignUp(b, perThreadAlign);
        }
        long maxThreads = known != null ? known[0] * known[1] * known[2] : SIZED_THREADS;
        boolean onStack = maxThreads > 0 && total <= STACK_BYTES / maxThreads;
        long stack = entryBytes + (onStack ? total * maxThreads : 0);
        if (stack > BLOCK_STACK_BYTES) {
            throw dev.mgpu.codegen.internal.translate.ModuleTranslation.error(kernel, "Invalid kernel for #cpu.target"
                    + " (must keep at most " + BLOCK_STACK_BYTES + " bytes of workgroup and private memory on the stack"
                    + " of the thread that runs a block): it keeps " + stack + " bytes there");
        }
        if (perThreadPlaceholders.isEmpty()) {
            return;
        }
        // What the runtime checks at launch: the most threads a block may have (the stack's arrays are sized for
        // them), and the bytes per thread of the heap block.
        if (known == null || !onStack) {
            exportBlockMemory(kernel.symbolName(), onStack ? SIZED_THREADS : 0, onStack ? 0 : total);
        }
        LLVMBasicBlockRef here = LLVMGetInsertBlock(t.builder);
        LLVMPositionBuilderBefore(t.builder, entryEnd);
        LLVMValueRef heap = null;
        if (!onStack) {
            heap = DeviceTarget.callLibrary(t, "C library", "aligned_alloc", LLVMPointerTypeInContext(t.ctx, 0), LLVMConstInt(i64, perThreadAlign, 0),
                    LLVMBuildMul(t.builder, threads, LLVMConstInt(i64, total, 0), ""));
            t.device.libraryUsed("aligned_alloc"); // the C library's, as libm's functions
            t.device.libraryUsed("free");
            failWithoutMemory(kernel, heap, threads, total);
        }
        long offset = 0;
        for (int k = 0; k < perThreadPlaceholders.size(); k++) {
            long bytes = perThreadSizes.get(k);
            LLVMValueRef real;
            if (onStack) {
                real = LLVMBuildArrayAlloca(t.builder, LLVMArrayType2(LLVMInt8TypeInContext(t.ctx), bytes), threads, "");
                LLVMSetAlignment(real, (int) perThreadAlign);
            } else {
                real = gep(heap, LLVMBuildMul(t.builder, threads,
                        LLVMConstInt(i64, offset, 0), ""));
                offset += alignUp(bytes, perThreadAlign);
            }
            LLVMReplaceAllUsesWith(perThreadPlaceholders.get(k), real);
            LLVMInstructionEraseFromParent(perThreadPlaceholders.get(k));
        }
        LLVMPositionBuilderAtEnd(t.builder, here);
        if (heap != null) {
            DeviceTarget.callLibrary(t, "C library", "free", LLVMVoidTypeInContext(t.ctx), heap);
        }
    }

    /**
     * Where {@code heap} is null, says so on stderr, with the kernel, the bytes and the threads, and returns
     * without running the block (a launch the runtime let through: it refuses what this machine's memory
     * cannot hold). Leaves the builder after the check, before the entry block's branch.
     */
    private void failWithoutMemory(dev.mgpu.ir.Operation kernel, LLVMValueRef heap, LLVMValueRef threads, long total) {
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
        LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, LLVMBuildIsNull(t.builder, heap, ""), fail, go);
        LLVMPositionBuilderAtEnd(t.builder, fail);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        byte[] f = ("mgpu: cpu: kernel '" + kernel.symbolName().replace("%", "%%") + "': aligned_alloc failed: %lld"
                + " threads of " + total + " bytes of per-thread memory; the block did not run\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        LLVMTypeRef ft;
        try (PointerPointer<LLVMTypeRef> ps = new PointerPointer<>(i32, LLVMPointerTypeInContext(t.ctx, 0))) {
            ft = LLVMFunctionType(i32, ps, 2, 1);
        }
        LLVMValueRef dprintf = t.libraryFunction("C library", "dprintf", ft);
        t.device.libraryUsed("dprintf");
        LLVMValueRef[] args = {LLVMConstInt(i32, 2, 0), DeviceTarget.cString(t, java.util.Arrays.copyOf(f, f.length + 1),
                0), LLVMBuildIntCast2(t.builder, threads, i64, 0, "")};
        try (PointerPointer<LLVMValueRef> as = new PointerPointer<>(args)) {
            LLVMBuildCall2(t.builder, ft, dprintf, as, args.length, "");
        }
        abortUnlessContinuing(fn, dprintf, ft);
        LLVMBuildRetVoid(t.builder);
        // The entry block's branch moves to the block where the memory is there.
        LLVMPositionBuilderAtEnd(t.builder, go);
        LLVMValueRef br = LLVMBuildBr(t.builder, LLVMGetSuccessor(entryEnd, 0));
        LLVMInstructionEraseFromParent(entryEnd);
        entryEnd = br;
        LLVMPositionBuilderBefore(t.builder, entryEnd);
    }

    /**
     * As the runtime does after a failed launch: ends the process unless {@code MGPU_ON_ERROR} is
     * {@code continue}, saying so; with it, the builder is left where the block returns without running.
     * The kernel object calls the C library alone (getenv, strcmp, abort), as its link requires.
     */
    private void abortUnlessContinuing(LLVMValueRef fn, LLVMValueRef dprintf, LLVMTypeRef dprintfType) {
        LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
        LLVMValueRef setting = DeviceTarget.callLibrary(t, "C library", "getenv", ptr,
                DeviceTarget.cString(t, "MGPU_ON_ERROR\0".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0));
        t.device.libraryUsed("getenv");
        LLVMBasicBlockRef compare = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef goOn = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, LLVMBuildIsNull(t.builder, setting, ""), stop, compare);
        LLVMPositionBuilderAtEnd(t.builder, compare);
        LLVMValueRef cmp = DeviceTarget.callLibrary(t, "C library", "strcmp", i32, setting,
                DeviceTarget.cString(t, "continue\0".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0));
        t.device.libraryUsed("strcmp");
        LLVMBuildCondBr(t.builder, LLVMBuildICmp(t.builder, LLVMIntEQ, cmp, LLVMConstInt(i32, 0, 0), ""), goOn, stop);
        LLVMPositionBuilderAtEnd(t.builder, stop);
        LLVMValueRef[] says = {LLVMConstInt(i32, 2, 0), DeviceTarget.cString(t, ("mgpu: aborting (MGPU_ON_ERROR=continue"
                + " reports and goes on)\n\0").getBytes(java.nio.charset.StandardCharsets.UTF_8), 0)};
        try (PointerPointer<LLVMValueRef> as = new PointerPointer<>(says)) {
            LLVMBuildCall2(t.builder, dprintfType, dprintf, as, says.length, "");
        }
        DeviceTarget.callLibrary(t, "C library", "abort", LLVMVoidTypeInContext(t.ctx));
        t.device.libraryUsed("abort");
        LLVMBuildUnreachable(t.builder);
        LLVMPositionBuilderAtEnd(t.builder, goOn);
    }

    /** The symbol {@code name.mgpu_block_memory} (two {@code int64_t}: the most threads a block may have, 0 for
     * any; the bytes per thread of the heap block, 0 for none), which the runtime checks at launch (mgpu.h). */
    private void exportBlockMemory(String name, long maxThreads, long heapBytesPerThread) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMValueRef value;
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(LLVMConstInt(i64, maxThreads, 0),
                LLVMConstInt(i64, heapBytesPerThread, 0))) {
            value = LLVMConstArray2(i64, pp, 2);
        }
        LLVMValueRef g = LLVMAddGlobal(t.module, LLVMTypeOf(value), name + ".mgpu_block_memory");
        LLVMSetInitializer(g, value);
        LLVMSetGlobalConstant(g, 1);
    }

    /** An array of one {@code type} per thread. */
    LLVMValueRef perThread(LLVMTypeRef type) {
        return perThread(LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), type));
    }

    /** An alloca of {@code type} in the entry block, run once per block. */
    LLVMValueRef allocaAtEntry(LLVMTypeRef type, int align) {
        LLVMBasicBlockRef here = LLVMGetInsertBlock(t.builder);
        LLVMPositionBuilderBefore(t.builder, entryEnd);
        LLVMValueRef p = LLVMBuildAlloca(t.builder, type, "");
        LLVMSetAlignment(p, align);
        entryBytes += alignUp(LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), type), Math.max(align, 1));
        LLVMPositionBuilderAtEnd(t.builder, here);
        return p;
    }

    private LLVMValueRef gep(LLVMValueRef base, LLVMValueRef index) {
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(new LLVMValueRef[] {index})) {
            return LLVMBuildInBoundsGEP2(t.builder, LLVMInt8TypeInContext(t.ctx), base, pp, 1, "");
        }
    }
}
