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
    private final LLVMValueRef entryEnd;
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
    void place(long[] known, LLVMValueRef threads) {
        if (perThreadPlaceholders.isEmpty()) {
            return;
        }
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        long total = 0;
        for (long b : perThreadSizes) {
            total += alignUp(b, perThreadAlign);
        }
        long maxThreads = known != null ? known[0] * known[1] * known[2] : 1024;
        boolean onStack = maxThreads > 0 && total <= STACK_BYTES / maxThreads;
        LLVMBasicBlockRef here = LLVMGetInsertBlock(t.builder);
        LLVMPositionBuilderBefore(t.builder, entryEnd);
        LLVMValueRef heap = null;
        if (!onStack) {
            heap = DeviceTarget.callLibrary(t, "C library", "aligned_alloc", LLVMPointerTypeInContext(t.ctx, 0), LLVMConstInt(i64, perThreadAlign, 0),
                    LLVMBuildMul(t.builder, threads, LLVMConstInt(i64, total, 0), ""));
            t.device.libraryUsed("aligned_alloc"); // the C library's, as libm's functions
            t.device.libraryUsed("free");
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
        LLVMPositionBuilderAtEnd(t.builder, here);
        return p;
    }

    private LLVMValueRef gep(LLVMValueRef base, LLVMValueRef index) {
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(new LLVMValueRef[] {index})) {
            return LLVMBuildInBoundsGEP2(t.builder, LLVMInt8TypeInContext(t.ctx), base, pp, 1, "");
        }
    }
}
