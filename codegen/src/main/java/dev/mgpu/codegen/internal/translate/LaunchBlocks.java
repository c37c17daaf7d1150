package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;

/**
 * Counts the launches of a host function's basic blocks, and continues in a new block after every
 * {@link #PER_BLOCK} of them. LLVM selects instructions one block at a time, at a cost that grows faster than
 * the block: 20,000 launches of one host function took 1.4 s in {@code llc-22 -O2} in one block and 1.0 s in
 * blocks of 64.
 */
public final class LaunchBlocks {
    /** The most launches one basic block holds before the translation continues in a new block. */
    public static final int PER_BLOCK = 64;

    private LLVMBasicBlockRef block;
    private int count;

    /** Counts a launch in {@code b}'s block; every {@link #PER_BLOCK} launches, continues in a new block. */
    public void launchDone(LLVMBuilderRef b, LLVMContextRef ctx) {
        LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
        if (block == null || !cur.equals(block)) {
            block = cur;
            count = 0;
        }
        if (++count < PER_BLOCK) {
            return;
        }
        LLVMBasicBlockRef next = LLVMGetNextBasicBlock(cur);
        LLVMBasicBlockRef rest = next == null || next.isNull()
                ? LLVMAppendBasicBlockInContext(ctx, LLVMGetBasicBlockParent(cur), "")
                : LLVMInsertBasicBlockInContext(ctx, next, "");
        LLVMBuildBr(b, rest);
        LLVMPositionBuilderAtEnd(b, rest);
        block = rest;
        count = 0;
    }
}
