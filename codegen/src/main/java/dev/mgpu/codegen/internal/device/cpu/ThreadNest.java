package dev.mgpu.codegen.internal.device.cpu;

import dev.mgpu.codegen.internal.translate.LoopBuilder;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.*;

import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The loops over a block's threads on the CPU: z, y, x (x innermost, so that it can be vectorised), each
 * from 0 while below the block's size in that dimension, each storing its index into the thread index of a
 * local {@link CpuGrid}, which the functions a kernel calls read.
 */
public final class ThreadNest {
    private final ModuleTranslation t;
    private final LLVMValueRef fn;
    private final LLVMValueRef[] dims;
    private final LLVMBasicBlockRef[] heads = new LLVMBasicBlockRef[3];
    private final LLVMValueRef[] index = new LLVMValueRef[3];

    private ThreadNest(ModuleTranslation t, LLVMValueRef[] dims) {
        this.t = t;
        this.fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
        this.dims = dims;
    }

    /**
     * Opens the loops from the builder's block, with the block's sizes {@code dims} (i64) and the local grid
     * {@code grid}; {@code level} runs in each loop's header once its index is stored (z first).
     */
    public static ThreadNest open(ModuleTranslation t, LLVMValueRef grid, LLVMValueRef[] dims, Level level) {
        ThreadNest n = new ThreadNest(t, dims);
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        LLVMBasicBlockRef from = LLVMGetInsertBlock(t.builder);
        for (int d = 2; d >= 0; d--) {
            n.heads[d] = LLVMAppendBasicBlockInContext(t.ctx, n.fn, "");
            LLVMBuildBr(t.builder, n.heads[d]);
            LLVMPositionBuilderAtEnd(t.builder, n.heads[d]);
            n.index[d] = LLVMBuildPhi(t.builder, i64, "");
            LoopBuilder.addIncoming(n.index[d], LLVMConstInt(i64, 0, 0), from);
            LLVMValueRef[] idx = {LLVMConstInt(i64, CpuGrid.word(CpuGrid.Array.THREAD_IDX, d), 0)};
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
                LLVMBuildStore(t.builder, n.index[d], LLVMBuildInBoundsGEP2(t.builder, i64, grid, pp, 1, ""));
            }
            level.at(d, n.index[d]);
            from = n.heads[d];
        }
        return n;
    }

    /** What runs in the header of the loop along {@code dim}, whose index is {@code index}. */
    @FunctionalInterface
    public interface Level {
        void at(int dim, LLVMValueRef index);
    }

    /** The thread's indices (i64), x, y, z. */
    public LLVMValueRef[] indices() {
        return index.clone();
    }

    /** Closes the loops, x first, and leaves the builder after them. */
    public void close() {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        for (int d = 0; d < 3; d++) {
            LLVMValueRef next = LLVMBuildNUWAdd(t.builder, index[d], LLVMConstInt(i64, 1, 0), "");
            LoopBuilder.addIncoming(index[d], next, LLVMGetInsertBlock(t.builder));
            LLVMValueRef more = LLVMBuildICmp(t.builder, LLVMIntULT, next, dims[d], "");
            LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
            LLVMBuildCondBr(t.builder, more, heads[d], after);
            LLVMPositionBuilderAtEnd(t.builder, after);
        }
    }
}
