package dev.mgpu.codegen.internal.kernel;

import dev.mgpu.codegen.internal.translate.LoopBuilder;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.translate.LoopBuilder.addIncoming;
import static dev.mgpu.codegen.internal.kernel.KernelChecks.*;

import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of structured control flow (scf.for, scf.if, scf.while) into blocks and phis, in kernel
 * bodies and host functions.
 */
public final class KernelControlFlowTranslators {
    private KernelControlFlowTranslators() {
    }

    /** Translates every op of {@code b} but its terminator ({@code scf.yield}, {@code scf.condition}), which it returns. */
    public static Operation body(ModuleTranslation t, Block b) {
        List<Operation> ops = b.operations();
        for (int i = 0; i < ops.size() - 1; i++) {
            t.translateOp(ops.get(i));
        }
        return ops.get(ops.size() - 1);
    }

    public static void forLoop(Operation op, ModuleTranslation t) {
        Scf.ForOp f = new Scf.ForOp(op);
        LLVMValueRef lb = t.lookup(f.lowerBound(), op);
        LLVMValueRef ub = t.lookup(f.upperBound(), op);
        LLVMValueRef step = t.lookup(f.step(), op);
        List<LLVMValueRef> inits = t.lookup(f.inits(), op);
        LoopBuilder loop = LoopBuilder.open(t, lb);
        LLVMValueRef iv = loop.iv();
        List<LLVMValueRef> iters = new ArrayList<>();
        for (LLVMValueRef v : inits) {
            iters.add(loop.carry(v));
        }
        loop.enterWhile(LLVMBuildICmp(t.builder, LLVMIntSLT, iv, ub, ""));
        Block b = f.body();
        t.map(b.argument(0), iv);
        for (int i = 0; i < iters.size(); i++) {
            t.map(b.argument(i + 1), iters.get(i));
        }
        Operation yield = body(t, b);
        List<LLVMValueRef> next = t.lookup(yield.operands(), yield);
        loop.close(LLVMBuildAdd(t.builder, iv, step, ""), next);
        for (int i = 0; i < iters.size(); i++) {
            t.map(op.result(i), iters.get(i));
        }
    }

    public static void ifThenElse(Operation op, ModuleTranslation t) {
        Scf.IfOp s = new Scf.IfOp(op);
        LLVMValueRef c = t.lookup(s.condition(), op);
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        LLVMBasicBlockRef thenBlock = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        boolean hasElse = !s.elseRegion().isEmpty();
        LLVMBasicBlockRef elseBlock = hasElse ? LLVMAppendBasicBlockInContext(t.ctx, fn, "") : null;
        LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, c, thenBlock, hasElse ? elseBlock : merge);
        List<LLVMValueRef[]> incoming = new ArrayList<>();
        List<LLVMBasicBlockRef> from = new ArrayList<>();
        for (Region r : hasElse ? List.of(s.thenRegion(), s.elseRegion()) : List.of(s.thenRegion())) {
            LLVMPositionBuilderAtEnd(t.builder, r == s.thenRegion() ? thenBlock : elseBlock);
            Operation yield = body(t, r.entry());
            incoming.add(t.lookup(yield.operands(), yield).toArray(new LLVMValueRef[0]));
            from.add(LLVMGetInsertBlock(t.builder));
            LLVMBuildBr(t.builder, merge);
        }
        LLVMPositionBuilderAtEnd(t.builder, merge);
        for (int i = 0; i < op.resultCount(); i++) {
            LLVMValueRef phi = LLVMBuildPhi(t.builder, t.types.of(op.result(i).type(), op), "");
            for (int k = 0; k < incoming.size(); k++) {
                addIncoming(phi, incoming.get(k)[i], from.get(k));
            }
            t.map(op.result(i), phi);
        }
    }

    public static void whileLoop(Operation op, ModuleTranslation t) {
        Scf.WhileOp w = new Scf.WhileOp(op);
        if (w.before().blocks().size() != 1 || w.after().blocks().size() != 1) {
            throw ModuleTranslation.error(op, "Invalid scf.while for a kernel (must have one block per region)");
        }
        List<LLVMValueRef> inits = t.lookup(op.operands(), op);
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        LLVMBasicBlockRef before = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildBr(t.builder, before);
        LLVMPositionBuilderAtEnd(t.builder, before);
        Block bb = w.before().entry();
        List<LLVMValueRef> phis = new ArrayList<>();
        for (int i = 0; i < inits.size(); i++) {
            LLVMValueRef phi = LLVMBuildPhi(t.builder, LLVMTypeOf(inits.get(i)), "");
            phis.add(phi);
            t.map(bb.argument(i), phi);
        }
        Operation cond = body(t, bb);
        LLVMValueRef c = t.lookup(cond.operand(0), cond);
        List<LLVMValueRef> passed = t.lookup(cond.operands().subList(1, cond.operandCount()), cond);
        LLVMBuildCondBr(t.builder, c, after, exit);
        LLVMPositionBuilderAtEnd(t.builder, after);
        Block ab = w.after().entry();
        for (int i = 0; i < passed.size(); i++) {
            t.map(ab.argument(i), passed.get(i));
        }
        Operation yield = body(t, ab);
        List<LLVMValueRef> next = t.lookup(yield.operands(), yield);
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(t.builder);
        LLVMBuildBr(t.builder, before);
        for (int i = 0; i < phis.size(); i++) {
            addIncoming(phis.get(i), inits.get(i), pre);
            addIncoming(phis.get(i), next.get(i), latch);
        }
        LLVMPositionBuilderAtEnd(t.builder, exit);
        for (int i = 0; i < op.resultCount(); i++) {
            t.map(op.result(i), passed.get(i));
        }
    }
}
