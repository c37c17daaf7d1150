package dev.mgpu.codegen.internal.kernel;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.Types;
import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.kernel.KernelChecks.*;
import static dev.mgpu.codegen.internal.kernel.LoweredKernelTranslators.*;
import static dev.mgpu.codegen.internal.kernel.KernelControlFlowTranslators.*;
import static dev.mgpu.codegen.internal.kernel.KernelMemoryTranslators.*;

import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.ShuffleOp;
import dev.mgpu.dialect.gpu.SubgroupReduceOp;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of the ops that exchange values between the threads of a subgroup or a block: gpu.shuffle,
 * gpu.subgroup_reduce and gpu.all_reduce, as butterflies of exchanges on GPUs, and through the work-item
 * loops on the CPU.
 */
public final class KernelExchangeTranslators {
    private KernelExchangeTranslators() {
    }

    public static void shuffle(Operation op, ModuleTranslation t) {
        DeviceTarget d = exchanging(op, t);
        ShuffleOp s = new ShuffleOp(op);
        LLVMValueRef value = t.lookup(s.value(), op);
        LLVMValueRef offset = t.lookup(s.offset(), op);
        LLVMValueRef width = t.lookup(s.width(), op);
        Type vt = s.value().type();
        LLVMValueRef lane = d.laneId(t);
        // The source lane and whether it is valid, as PTX's shfl.sync defines them for segments of `width`
        // lanes (segment = lane & -width, its last lane = segment | (width - 1)), with the offset's low five
        // bits: xor and down are valid up to the segment's last lane, up from its first, idx (counted from
        // the segment's first lane) always. NVPTX has the instruction; other targets compute the same. A width
        // that is not a power of two has no segments in PTX: the first `width` lanes are the one segment, as
        // upstream's NVVM lowering has it (lanes 9 to 11 of 13 find nothing with xor 4), and idx is valid
        // within it.
        LLVMValueRef one = DeviceTarget.i32(t, 1);
        LLVMValueRef b = LLVMBuildAnd(t.builder, offset, DeviceTarget.i32(t, 31), "");
        LLVMValueRef pow2 = LLVMBuildICmp(t.builder, LLVMIntEQ, LLVMBuildAnd(t.builder, width,
                LLVMBuildSub(t.builder, width, one, ""), ""), DeviceTarget.i32(t, 0), "");
        LLVMValueRef segStart = LLVMBuildSelect(t.builder, pow2, LLVMBuildAnd(t.builder, lane,
                LLVMBuildNeg(t.builder, width, ""), ""), DeviceTarget.i32(t, 0), "");
        LLVMValueRef segLast = LLVMBuildOr(t.builder, segStart, LLVMBuildSub(t.builder, width, one, ""), "");
        LLVMValueRef src;
        LLVMValueRef valid;
        switch (s.mode()) {
            case "xor" -> {
                src = LLVMBuildXor(t.builder, lane, b, "");
                valid = LLVMBuildICmp(t.builder, LLVMIntULE, src, segLast, "");
            }
            case "up" -> {
                src = LLVMBuildSub(t.builder, lane, b, "");
                valid = LLVMBuildICmp(t.builder, LLVMIntSGE, src, segStart, "");
            }
            case "down" -> {
                src = LLVMBuildAdd(t.builder, lane, b, "");
                valid = LLVMBuildICmp(t.builder, LLVMIntULE, src, segLast, "");
            }
            default -> {
                src = LLVMBuildSelect(t.builder, pow2, LLVMBuildOr(t.builder, segStart, LLVMBuildAnd(t.builder, b,
                        LLVMBuildSub(t.builder, width, one, ""), ""), ""), b, "");
                valid = LLVMBuildOr(t.builder, pow2, LLVMBuildICmp(t.builder, LLVMIntULE, src, segLast, ""), "");
            }
        }
        LLVMValueRef from = LLVMBuildSelect(t.builder, valid, src, lane, "");
        LLVMValueRef own = d.laneValue(t, s.value(), from, op);
        LLVMValueRef[] r = own != null ? new LLVMValueRef[] {own, null}
                : shuffleBits(t, d, s.mode(), value, offset, width, lane, from, null);
        t.map(op.result(0), r[0]);
        t.map(op.result(1), r[1] != null ? r[1] : valid);
    }

    /**
     * gpu.subgroup_reduce: on a GPU, a butterfly of xor exchanges over the cluster's lanes (stride, 2 stride,
     * ...), after which every lane holds the same value; on the CPU, the cluster's values read from its
     * threads and combined in the same order, a balanced tree in lane order.
     */
    public static void subgroupReduce(Operation op, ModuleTranslation t) {
        DeviceTarget d = exchanging(op, t);
        SubgroupReduceOp r = new SubgroupReduceOp(op);
        int lanes = d.subgroupLanes();
        int size = r.clusterSize() > 0 ? r.clusterSize() : lanes;
        int stride = r.clusterStride();
        if ((long) size * stride > lanes) {
            throw ModuleTranslation.error(op, "Invalid cluster of gpu.subgroup_reduce for " + d.name() + " (must fit"
                    + " in a subgroup of " + lanes + " lanes): size " + size + ", stride " + stride);
        }
        Type type = op.operand(0).type();
        LLVMValueRef lane = d.laneId(t);
        LLVMValueRef v;
        if (d.readsAnyLane()) {
            LLVMValueRef base = LLVMBuildAnd(t.builder, lane, DeviceTarget.i32(t, ~((size - 1) * stride)), "");
            List<LLVMValueRef> level = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                LLVMValueRef from = LLVMBuildOr(t.builder, base, DeviceTarget.i32(t, k * stride), "");
                level.add(d.laneValue(t, op.operand(0), from, op));
            }
            while (level.size() > 1) {
                List<LLVMValueRef> next = new ArrayList<>();
                for (int k = 0; k < level.size(); k += 2) {
                    next.add(combine(t, r.kind(), type, level.get(k), level.get(k + 1)));
                }
                level = next;
            }
            v = level.get(0);
        } else {
            v = t.lookup(op.operand(0), op);
            for (int off = stride; off < size * stride; off *= 2) {
                v = combine(t, r.kind(), type, v, xorExchange(t, d, v, off, lane));
            }
        }
        t.map(op.result(0), v);
    }

    /**
     * gpu.all_reduce on a GPU (the CPU target's work-item loops combine it themselves): each subgroup combines its lanes' values
     * by a butterfly of xor exchanges, its lane 0 keeps the result in workgroup memory, and after a barrier
     * the first subgroup combines those the same way; after a second barrier every thread reads the total.
     * Lanes past the block's last thread do not exist (a block of 48 threads has a second subgroup of 16):
     * an exchange with one is skipped, and on NVIDIA the shuffle names only the lanes that exist, so the
     * combination needs no identity value and a body's reduction works as a named one does. A block has at
     * most as many subgroups as a subgroup has lanes (1,024 threads), so one exchange suffices for the second.
     */
    public static void allReduce(Operation op, ModuleTranslation t) {
        DeviceTarget d = exchanging(op, t);
        AllReduceOp r = new AllReduceOp(op);
        Type type = r.value().type();
        LLVMTypeRef ty = t.types.of(type, op);
        int lanes = d.subgroupLanes();
        int log = Integer.numberOfTrailingZeros(lanes);
        LLVMValueRef x = t.lookup(r.value(), op);
        LLVMValueRef[] tid = {d.threadId(t, 0), d.threadId(t, 1), d.threadId(t, 2)};
        // A kernel's known_block_size is the only size it runs with: as constants, the sizes let LLVM drop
        // the masks and the checks of lanes past the block's end when the block is whole subgroups.
        long[] known = null;
        for (Operation p = op.parentOp(); p != null && known == null; p = p.parentOp()) {
            if (p.name().equals(GpuFuncOp.NAME)) {
                known = new GpuFuncOp(p).knownBlockSize();
            }
        }
        LLVMValueRef[] dim = new LLVMValueRef[3];
        for (int i = 0; i < 3; i++) {
            dim[i] = known != null ? DeviceTarget.i32(t, (int) known[i]) : d.blockDim(t, i);
        }
        // index in the block = (z * blockDim.y + y) * blockDim.x + x, the order in which subgroups are formed
        LLVMValueRef linear = LLVMBuildNUWAdd(t.builder, LLVMBuildNUWMul(t.builder, LLVMBuildNUWAdd(t.builder,
                LLVMBuildNUWMul(t.builder, tid[2], dim[1], ""), tid[1], ""), dim[0], ""), tid[0], "");
        LLVMValueRef threads = LLVMBuildNUWMul(t.builder, LLVMBuildNUWMul(t.builder, dim[0], dim[1], ""), dim[2], "");
        LLVMValueRef lane = LLVMBuildAnd(t.builder, linear, DeviceTarget.i32(t, lanes - 1), "");
        LLVMValueRef subgroup = LLVMBuildLShr(t.builder, linear, DeviceTarget.i32(t, log), "");
        LLVMValueRef first = LLVMBuildSub(t.builder, linear, lane, "");
        LLVMValueRef left = LLVMBuildSub(t.builder, threads, first, "");
        boolean whole = known != null && known[0] * known[1] * known[2] % lanes == 0;
        LLVMValueRef exist = whole ? DeviceTarget.i32(t, lanes) : LLVMBuildSelect(t.builder, LLVMBuildICmp(t.builder,
                LLVMIntULT, left, DeviceTarget.i32(t, lanes), ""), left, DeviceTarget.i32(t, lanes), "");
        // The lanes that exist, as a mask: all 32 but in a block's last, partial subgroup (NVIDIA only).
        LLVMValueRef mask = d.shuffleNamesLanes() && !whole ? LLVMBuildLShr(t.builder, DeviceTarget.i32(t,
                -1), LLVMBuildSub(t.builder, DeviceTarget.i32(t, 32), exist, ""), "") : null;
        LLVMValueRef scratch = LLVMAddGlobalInAddressSpace(t.module, LLVMArrayType2(ty, lanes + 1),
                "__mgpu_all_reduce", 3);
        LLVMSetInitializer(scratch, LLVMGetUndef(LLVMArrayType2(ty, lanes + 1)));
        LLVMSetLinkage(scratch, LLVMInternalLinkage);
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));

        LLVMValueRef v = butterfly(op, t, d, r, x, lane, exist, mask);
        LLVMValueRef isLane0 = LLVMBuildICmp(t.builder, LLVMIntEQ, lane, DeviceTarget.i32(t, 0), "");
        whenTrue(t, fn, isLane0, () -> LLVMBuildStore(t.builder, v, element(t, scratch, ty, lanes, subgroup)));
        d.barrier(t);
        LLVMValueRef isFirst = LLVMBuildICmp(t.builder, LLVMIntEQ, subgroup, DeviceTarget.i32(t, 0), "");
        whenTrue(t, fn, isFirst, () -> {
            LLVMValueRef count = LLVMBuildLShr(t.builder, LLVMBuildAdd(t.builder, threads, DeviceTarget.i32(t,
                    lanes - 1), ""), DeviceTarget.i32(t, log), "");
            // A lane past the last subgroup reads a slot no subgroup wrote; its value is never combined.
            LLVMValueRef w = LLVMBuildLoad2(t.builder, ty, element(t, scratch, ty, lanes, lane), "");
            LLVMValueRef total = butterfly(op, t, d, r, w, lane, count, mask);
            whenTrue(t, fn, LLVMBuildICmp(t.builder, LLVMIntEQ,
                    lane, DeviceTarget.i32(t, 0), ""), () -> LLVMBuildStore(t.builder, total, element(t, scratch, ty,
                    lanes, DeviceTarget.i32(t, lanes))));
        });
        d.barrier(t);
        t.map(op.result(0), LLVMBuildLoad2(t.builder, ty, element(t, scratch, ty, lanes, DeviceTarget.i32(t, lanes)),
                ""));
    }

    /**
     * {@code v} combined over the lanes below {@code count} of the subgroup, by xor exchanges with lanes 1,
     * 2, 4, ... apart: an exchange with a lane at or past {@code count} is skipped. Lane 0 ends with the whole.
     */
    private static LLVMValueRef butterfly(Operation op, ModuleTranslation t, DeviceTarget d, AllReduceOp r,
            LLVMValueRef v, LLVMValueRef lane, LLVMValueRef count, LLVMValueRef mask) {
        for (int off = 1; off < d.subgroupLanes(); off *= 2) {
            LLVMValueRef other = xorExchange(t, d, v, off, lane, mask);
            LLVMValueRef partner = LLVMBuildXor(t.builder, lane, DeviceTarget.i32(t, off), "");
            LLVMValueRef valid = LLVMBuildICmp(t.builder, LLVMIntULT, partner, count, "");
            v = LLVMBuildSelect(t.builder, valid, combine(t, op, r, v, other), v, "");
        }
        return v;
    }

    /** {@code a} and {@code b} combined as all_reduce {@code r} says: by its named way, or by its body. */
    public static LLVMValueRef combine(ModuleTranslation t, Operation op, AllReduceOp r, LLVMValueRef a, LLVMValueRef b) {
        if (r.kind() != null) {
            return combine(t, r.kind(), r.value().type(), a, b);
        }
        Block body = r.body();
        return t.inScope(() -> {
            t.map(body.argument(0), a);
            t.map(body.argument(1), b);
            List<Operation> ops = body.operations();
            for (Operation o : ops.subList(0, ops.size() - 1)) {
                t.translateOp(o);
            }
            return t.lookup(r.yielded(), op);
        });
    }

    /** Runs {@code then} where {@code cond} holds, and goes on after it. */
    private static void whenTrue(ModuleTranslation t, LLVMValueRef fn, LLVMValueRef cond, Runnable then) {
        LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, cond, yes, after);
        LLVMPositionBuilderAtEnd(t.builder, yes);
        then.run();
        LLVMBuildBr(t.builder, after);
        LLVMPositionBuilderAtEnd(t.builder, after);
    }

    /** Element {@code i} (i32) of {@code array}, a global of {@code n + 1} elements of {@code ty}. */
    public static LLVMValueRef element(ModuleTranslation t, LLVMValueRef array, LLVMTypeRef ty, int n, LLVMValueRef i) {
        LLVMValueRef[] idx = {DeviceTarget.i32(t, 0), i};
        try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(idx)) {
            return LLVMBuildInBoundsGEP2(t.builder, LLVMArrayType2(ty, n + 1), array, pp, 2, "");
        }
    }

    /** The value {@code v} of lane {@code lane ^ offset}, through the target's shuffle. */
    private static LLVMValueRef xorExchange(ModuleTranslation t, DeviceTarget d, LLVMValueRef v, int offset,
            LLVMValueRef lane) {
        return xorExchange(t, d, v, offset, lane, null);
    }

    /** As {@link #xorExchange(ModuleTranslation, DeviceTarget, LLVMValueRef, int, LLVMValueRef)}, among the lanes of {@code mask}. */
    private static LLVMValueRef xorExchange(ModuleTranslation t, DeviceTarget d, LLVMValueRef v, int offset,
            LLVMValueRef lane, LLVMValueRef mask) {
        LLVMValueRef off = DeviceTarget.i32(t, offset);
        return shuffleBits(t, d, "xor", v, off, DeviceTarget.i32(t, 32), lane, LLVMBuildXor(t.builder, lane, off, ""),
                mask)[0];
    }

    /**
     * The target's 32-bit shuffle ({@link DeviceTarget#shuffle32}) of a value of any width: a narrower one
     * widened and narrowed back, a wider one in 32-bit pieces shuffled alike. Returns {value, valid or null}.
     */
    private static LLVMValueRef[] shuffleBits(ModuleTranslation t, DeviceTarget d, String mode, LLVMValueRef v,
            LLVMValueRef offset, LLVMValueRef width, LLVMValueRef lane, LLVMValueRef src, LLVMValueRef mask) {
        LLVMTypeRef ty = LLVMTypeOf(v);
        LLVMTypeRef i32 = DeviceTarget.i32Type(t);
        int kind = LLVMGetTypeKind(ty);
        if (kind == LLVMFloatTypeKind || kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(ty) == 32) {
            return d.shuffle32(t, mode, v, offset, width, lane, src, mask);
        }
        int bits = kind == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(ty) : kind == LLVMDoubleTypeKind ? 64 : 16;
        LLVMTypeRef ity = LLVMIntTypeInContext(t.ctx, bits);
        LLVMValueRef x = kind == LLVMIntegerTypeKind ? v : LLVMBuildBitCast(t.builder, v, ity, "");
        LLVMValueRef out;
        LLVMValueRef valid = null;
        if (bits <= 32) {
            LLVMValueRef[] got = d.shuffle32(t, mode, LLVMBuildZExt(t.builder, x, i32, ""), offset, width, lane, src,
                    mask);
            out = LLVMBuildTrunc(t.builder, got[0], ity, "");
            valid = got[1];
        } else {
            // Piece k holds bits 32k and up; an i128 is four pieces, not two (the bits past 64 were lost).
            out = LLVMConstInt(ity, 0, 0);
            for (int k = 0; k * 32 < bits; k++) {
                LLVMValueRef shift = LLVMConstInt(ity, 32L * k, 0);
                LLVMValueRef piece = LLVMBuildTrunc(t.builder, k == 0 ? x : LLVMBuildLShr(t.builder, x, shift, ""),
                        i32, "");
                LLVMValueRef[] got = d.shuffle32(t, mode, piece, offset, width, lane, src, mask);
                LLVMValueRef wide = LLVMBuildZExt(t.builder, got[0], ity, "");
                out = LLVMBuildOr(t.builder, out, k == 0 ? wide : LLVMBuildShl(t.builder, wide, shift, ""), "");
                if (k == 0) {
                    valid = got[1];
                }
            }
        }
        return new LLVMValueRef[] {kind == LLVMIntegerTypeKind ? out : LLVMBuildBitCast(t.builder, out, ty, ""), valid};
    }

    /** {@code a} and {@code b} combined by the reduction {@code kind} of values of {@code type}. */
    public static LLVMValueRef combine(ModuleTranslation t, String kind, Type type, LLVMValueRef a, LLVMValueRef b) {
        boolean isFloat = type instanceof Type.FloatType;
        LLVMTypeRef ty = LLVMTypeOf(a);
        String suffix = isFloat ? Types.floatSuffix(type) : "i" + LLVMGetIntTypeWidth(ty);
        return switch (kind) {
            case "add" -> isFloat ? LLVMBuildFAdd(t.builder, a, b, "") : LLVMBuildAdd(t.builder, a, b, "");
            case "mul" -> isFloat ? LLVMBuildFMul(t.builder, a, b, "") : LLVMBuildMul(t.builder, a, b, "");
            case "and" -> LLVMBuildAnd(t.builder, a, b, "");
            case "or" -> LLVMBuildOr(t.builder, a, b, "");
            case "xor" -> LLVMBuildXor(t.builder, a, b, "");
            default -> {
                String intrinsic = switch (kind) {
                    case "minui" -> "umin";
                    case "minsi" -> "smin";
                    case "maxui" -> "umax";
                    case "maxsi" -> "smax";
                    case "minnumf" -> "minnum";
                    case "maxnumf" -> "maxnum";
                    case "minimumf" -> "minimum";
                    default -> "maximum";
                };
                yield DeviceTarget.call(t, "llvm." + intrinsic + "." + suffix, ty, a, b);
            }
        };
    }
}
