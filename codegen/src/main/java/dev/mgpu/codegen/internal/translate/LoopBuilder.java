package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A counted loop entered from the builder's block: opening it makes the header, body and exit blocks and
 * the induction variable's phi; values carried around it are phis of the header; closing it branches back
 * from the latch, wires every phi (its start from the block before the loop, its next value from the
 * latch) and leaves the builder at the exit.
 *
 * <p>The protocol: {@link #open}, then {@link #carry} any number of times while the builder is at the end
 * of the header, then either {@link #enterWhile} (a test at the header) or a branch of the caller's into
 * {@link #body()}, then the body, then {@link #close} or {@link #closeWhen} once.
 */
public final class LoopBuilder {
    private final ModuleTranslation t;
    private final LLVMBasicBlockRef pre;
    private final LLVMBasicBlockRef header;
    private final LLVMBasicBlockRef body;
    private final LLVMBasicBlockRef exit;
    private final LLVMValueRef iv;
    private final LLVMValueRef start;
    private final List<LLVMValueRef> carried = new ArrayList<>();
    private final List<LLVMValueRef> inits = new ArrayList<>();

    private LoopBuilder(ModuleTranslation t, LLVMValueRef start) {
        this.t = t;
        this.start = start;
        pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        header = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        body = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        exit = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildBr(t.builder, header);
        LLVMPositionBuilderAtEnd(t.builder, header);
        iv = LLVMBuildPhi(t.builder, LLVMTypeOf(start), "");
    }

    /** Opens a loop whose induction variable starts at {@code start}; the builder is at the end of its header. */
    public static LoopBuilder open(ModuleTranslation t, LLVMValueRef start) {
        return new LoopBuilder(t, start);
    }

    /** A value carried around the loop, starting at {@code init}: a phi of the header. */
    public LLVMValueRef carry(LLVMValueRef init) {
        LLVMValueRef phi = LLVMBuildPhi(t.builder, LLVMTypeOf(init), "");
        carried.add(phi);
        inits.add(init);
        return phi;
    }

    /** Enters the body while {@code condition} (computed in the header) holds, else leaves for the exit. */
    public void enterWhile(LLVMValueRef condition) {
        LLVMBuildCondBr(t.builder, condition, body, exit);
        LLVMPositionBuilderAtEnd(t.builder, body);
    }

    /** Branches back from the builder's block with the induction variable's and carried values' next values. */
    public void close(LLVMValueRef next, List<LLVMValueRef> nextCarried) {
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(t.builder);
        LLVMBuildBr(t.builder, header);
        wire(latch, next, nextCarried);
    }

    /** As {@link #close(LLVMValueRef, List)} with nothing carried. */
    public void close(LLVMValueRef next) {
        close(next, List.of());
    }

    /** Branches back to the header from the builder's block while {@code more} holds (a test at the latch). */
    public void closeWhen(LLVMValueRef next, LLVMValueRef more) {
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(t.builder);
        LLVMBuildCondBr(t.builder, more, header, exit);
        wire(latch, next, List.of());
    }

    private void wire(LLVMBasicBlockRef latch, LLVMValueRef next, List<LLVMValueRef> nextCarried) {
        addIncoming(iv, start, pre);
        addIncoming(iv, next, latch);
        for (int i = 0; i < carried.size(); i++) {
            addIncoming(carried.get(i), inits.get(i), pre);
            addIncoming(carried.get(i), nextCarried.get(i), latch);
        }
        LLVMPositionBuilderAtEnd(t.builder, exit);
    }

    /** Adds {@code v} from {@code from} to {@code phi}. */
    public static void addIncoming(LLVMValueRef phi, LLVMValueRef v, LLVMBasicBlockRef from) {
        try (PointerPointer<LLVMValueRef> vs = new PointerPointer<>(new LLVMValueRef[] {v});
                PointerPointer<LLVMBasicBlockRef> bs = new PointerPointer<>(new LLVMBasicBlockRef[] {from})) {
            LLVMAddIncoming(phi, vs, bs, 1);
        }
    }

    /** The induction variable. */
    public LLVMValueRef iv() {
        return iv;
    }

    /** The first block of the body. */
    public LLVMBasicBlockRef body() {
        return body;
    }

    /** The header, which tests and holds the phis. */
    public LLVMBasicBlockRef header() {
        return header;
    }

    /** The block after the loop. */
    public LLVMBasicBlockRef exit() {
        return exit;
    }
}
