package dev.mgpu.codegen.internal.kernel;

import dev.mgpu.codegen.internal.host.HostMemoryTranslators;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.Types;
import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.translate.LoopBuilder.addIncoming;
import static dev.mgpu.codegen.internal.kernel.KernelChecks.*;
import static dev.mgpu.codegen.internal.kernel.KernelExchangeTranslators.*;

import dev.mgpu.dialect.llvm.LLVMKernelOps;
import dev.mgpu.dialect.gpu.AddressSpaceAttr;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.memref.Allocations;
import dev.mgpu.dialect.memref.Views;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of the memref ops of kernel bodies: element access, views, atomics, and the globals of
 * kernel modules and of the host. A kernel's memref is the address of its element 0, so a view is that
 * address moved by the view's offset.
 */
public final class KernelMemoryTranslators {
    private KernelMemoryTranslators() {
    }

    /**
     * The address of {@code memref[indices]}: element 0 plus the indices times the strides, which an
     * identity layout computes from the shape (row-major) and a strided layout gives. Under the
     * bare-pointer convention they must be static (the leading dimension of an identity layout may be
     * dynamic).
     */
    private static LLVMValueRef elementPointer(ModuleTranslation t, Operation op, Value memref, List<Value> indices) {
        Type.MemRefType m = (Type.MemRefType) memref.type();
        if (m.layout() != null && !(m.layout() instanceof Attribute.StridedLayoutAttr)) {
            throw ModuleTranslation.error(op, "Invalid memref layout for a kernel (must be the identity or strided): " + m);
        }
        long[] strides = Views.Strides.of(m).strides();
        if (m.layout() == null && m.rank() > 1 && strides[0] != Type.DYNAMIC) {
            // Row-major with static rows: one GEP over the nested array type, an index per dimension. LLVM 20
            // keeps that row offset apart from the column, so neighbouring elements share one address; from
            // one flat index it made an `or` that it did not fold (2-D stencil: 50 SASS instructions after
            // ptxas against 42; tiled matmul: its inner loop unrolled twice instead of in full).
            LLVMTypeRef row = t.types.of(m.elementType(), op);
            for (int i = m.rank() - 1; i > 0; i--) {
                row = LLVMArrayType2(row, m.dim(i));
            }
            LLVMValueRef[] all = new LLVMValueRef[m.rank()];
            for (int i = 0; i < m.rank(); i++) {
                all[i] = t.lookup(indices.get(i), op);
            }
            try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(all)) {
                return LLVMBuildGEPWithNoWrapFlags(t.builder, row, t.lookup(memref, op), p, all.length, "",
                        LLVMGEPFlagInBounds | LLVMGEPFlagNUW);
            }
        }
        LLVMValueRef[] idx = new LLVMValueRef[m.rank()];
        for (int i = 0; i < m.rank(); i++) {
            idx[i] = t.lookup(indices.get(i), op);
        }
        // The offset is already in the pointer: a kernel's memref is its element 0 (the host passes the
        // aligned pointer plus the offset), so a strided layout's offset is not added again.
        return advance(t, op, t.lookup(memref, op), m.elementType(), idx, strides, memref,
                "Invalid memref for a kernel (must have static strides, or strides the kernel was given: with bare"
                        + " pointers a kernel gets none): " + m);
    }

    /**
     * {@code base} moved by the sum of {@code idx[i] * strides[i]} elements of {@code element} (a null index
     * is 0), in bounds and not wrapping; a dynamic stride is {@code memref}'s value of it, and {@code dynamic}
     * the error when the kernel has none.
     */
    private static LLVMValueRef advance(ModuleTranslation t, Operation op, LLVMValueRef base, Type element,
            LLVMValueRef[] idx, long[] strides, Value memref, String dynamic) {
        LLVMTypeRef i64 = t.types.intptr;
        LLVMValueRef lin = null;
        for (int i = 0; i < idx.length; i++) {
            if (idx[i] == null) {
                continue;
            }
            LLVMValueRef stride = strides[i] != Type.DYNAMIC ? LLVMConstInt(i64, strides[i], 1)
                    : t.arguments.stride(t.types.intptr, memref, i);
            if (stride == null) {
                throw ModuleTranslation.error(op, dynamic);
            }
            LLVMValueRef term = strides[i] == 1 ? idx[i] : noWrap(LLVMBuildMul(t.builder, idx[i], stride, ""));
            lin = lin == null ? term : noWrap(LLVMBuildAdd(t.builder, lin, term, ""));
        }
        if (lin == null) {
            return base;
        }
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(new LLVMValueRef[] {lin})) {
            return LLVMBuildGEPWithNoWrapFlags(t.builder, t.types.of(element, op), base, p, 1, "",
                    LLVMGEPFlagInBounds | LLVMGEPFlagNUW);
        }
    }

    /**
     * Marks an offset's arithmetic as neither signed- nor unsigned-wrapping: a memref access is in bounds, so
     * each index lies in {@code [0, size)} and the offset in {@code [0, elements)}, as upstream's lowering
     * also states.
     */
    private static LLVMValueRef noWrap(LLVMValueRef v) {
        LLVMSetNSW(v, 1);
        LLVMSetNUW(v, 1);
        return v;
    }

    public static void load(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.LoadOp l = new MemRef.LoadOp(op);
        LLVMValueRef p = elementPointer(t, op, l.memref(), l.indices());
        t.map(op.result(0), LLVMBuildLoad2(t.builder, t.types.of(op.result(0).type(), op), p, ""));
    }

    public static void store(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.StoreOp s = new MemRef.StoreOp(op);
        LLVMValueRef p = elementPointer(t, op, s.memref(), s.indices());
        LLVMBuildStore(t.builder, t.lookup(s.value(), op), p);
    }

    public static void alloca(Operation op, ModuleTranslation t) {
        device(op, t);
        Allocations.AllocaOp a = new Allocations.AllocaOp(op);
        Type.MemRefType m = a.type();
        LLVMTypeRef arr = t.types.arrayOf(m, op);
        int align = a.alignment() > 0 ? Types.alignment(a.alignment(), op) : 16;
        LLVMValueRef own = t.device.privateMemory(t, op, arr, align);
        if (own != null) {
            t.map(op.result(0), t.addressSpaceCast(own, t.types.addressSpace(m, op)));
            return;
        }
        LLVMValueRef p = t.entryAlloca(arr);
        LLVMSetAlignment(p, align);
        t.map(op.result(0), t.addressSpaceCast(p, t.types.addressSpace(m, op)));
    }

    /**
     * memref.subview: the address of the view's element 0, the source's moved by each offset times the
     * source's stride (a kernel's memref is the address of its element 0, so the view's type keeps only its
     * strides for the accesses through it).
     */
    public static void subview(Operation op, ModuleTranslation t) {
        device(op, t);
        Views.SubViewOp s = new Views.SubViewOp(op);
        Type.MemRefType src = (Type.MemRefType) s.source().type();
        for (long st : s.staticStrides()) {
            if (st != Type.DYNAMIC && st <= 0) {
                // A kernel's addresses are computed as not wrapping: a step back or none would break that.
                throw ModuleTranslation.error(op, "Invalid memref.subview in a kernel (must have positive strides or"
                        + " strides given as values): " + st);
            }
        }
        long[] offsets = s.staticOffsets();
        List<Value> given = s.offsets();
        LLVMValueRef[] idx = new LLVMValueRef[offsets.length];
        int next = 0;
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] != 0) {
                idx[i] = offsets[i] == Type.DYNAMIC ? t.lookup(given.get(next++), op)
                        : LLVMConstInt(t.types.intptr, offsets[i], 1);
            }
        }
        t.map(op.result(0), advance(t, op, t.lookup(s.source(), op), src.elementType(), idx,
                Views.Strides.of(src).strides(), s.source(), "Invalid memref.subview in a kernel (must view a memref"
                        + " of static strides where it has an offset, or strides the kernel was given: with bare"
                        + " pointers a kernel gets none): " + src));
        recordView(t, op, s.source(), HostMemoryTranslators.mixed(t, op, s.staticSizes(), op.segment(2)),
                HostMemoryTranslators.mixed(t, op, s.staticStrides(), op.segment(3)));
    }

    /**
     * Records the sizes and strides of the view {@code op} makes of {@code source}, where its type leaves them
     * dynamic: the sizes given, each stride the source's times the step given (null where the source's is
     * unknown). A rank-reducing view drops dimensions of size 1.
     */
    private static void recordView(ModuleTranslation t, Operation op, Value source, LLVMValueRef[] sizes,
            LLVMValueRef[] steps) {
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        if (m.dynamicDimCount() == 0 && !hasDynamicStride(m)) {
            return;
        }
        int r = m.rank();
        LLVMValueRef[] outSizes = new LLVMValueRef[r];
        LLVMValueRef[] outStrides = new LLVMValueRef[r];
        for (int i = 0, j = 0; i < sizes.length && j < r; i++) {
            boolean one = LLVMIsAConstantInt(sizes[i]) != null && !LLVMIsAConstantInt(sizes[i]).isNull()
                    && LLVMConstIntGetSExtValue(sizes[i]) == 1;
            if (one && sizes.length - i > r - j) {
                continue;
            }
            LLVMValueRef st = steps == null ? null : t.arguments.stride(t.types.intptr, source, i);
            outSizes[j] = sizes[i];
            outStrides[j] = st == null ? null : LLVMBuildMul(t.builder, st, steps[i], "");
            j++;
        }
        t.arguments.record(op.result(0), outSizes, outStrides);
    }

    private static boolean hasDynamicStride(Type.MemRefType m) {
        for (long s : Views.Strides.of(m).strides()) {
            if (s == Type.DYNAMIC) {
                return true;
            }
        }
        return false;
    }

    /**
     * memref.reinterpret_cast: the source's base, which is its element 0 moved back by its own offset, moved
     * by the offset given; the result's type gives the strides of the accesses through it.
     */
    public static void reinterpretCast(Operation op, ModuleTranslation t) {
        device(op, t);
        Views.ReinterpretCastOp r = new Views.ReinterpretCastOp(op);
        if (!(r.source().type() instanceof Type.MemRefType src)) {
            throw ModuleTranslation.error(op, "Invalid memref.reinterpret_cast in a kernel (must view a ranked memref:"
                    + " a kernel gets a bare pointer, without the rank): " + r.source().type());
        }
        long srcOffset = Views.Strides.of(src).offset();
        if (srcOffset == Type.DYNAMIC) {
            throw ModuleTranslation.error(op, "Invalid memref.reinterpret_cast in a kernel (must view a memref whose"
                    + " offset is static, to find its base from a bare pointer): " + src);
        }
        for (long st : Views.Strides.of((Type.MemRefType) op.result(0).type()).strides()) {
            if (st != Type.DYNAMIC && st <= 0) {
                // As for subviews: a kernel's addresses are computed as not wrapping and not stepping back.
                throw ModuleTranslation.error(op, "Invalid memref.reinterpret_cast in a kernel (must have positive"
                        + " strides or strides given as values): " + st);
            }
        }
        LLVMTypeRef i64 = t.types.intptr;
        LLVMValueRef from = null;
        if (r.offset() != null) {
            from = srcOffset == 0 ? t.lookup(r.offset(), op)
                    : LLVMBuildSub(t.builder, t.lookup(r.offset(), op), LLVMConstInt(i64, srcOffset, 1), "");
        } else if (r.staticOffset() != srcOffset) {
            from = LLVMConstInt(i64, r.staticOffset() - srcOffset, 1);
        }
        LLVMValueRef p = t.lookup(r.source(), op);
        long[] sizes = ((Attribute.DenseArrayAttr) op.attr("static_sizes")).values();
        long[] strides = ((Attribute.DenseArrayAttr) op.attr("static_strides")).values();
        t.arguments.record(op.result(0), HostMemoryTranslators.mixed(t, op, sizes, op.segment(2)),
                HostMemoryTranslators.mixed(t, op, strides, op.segment(3)));
        if (from != null) {
            // The view may start before the source's element 0, so the step is signed and may be negative.
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(new LLVMValueRef[] {from})) {
                p = LLVMBuildGEPWithNoWrapFlags(t.builder, t.types.of(src.elementType(), op), p, pp, 1, "",
                        LLVMGEPFlagInBounds);
            }
        }
        t.map(op.result(0), p);
    }

    /**
     * memref.cast, collapse_shape and expand_shape: the same element 0; a cast keeps the sizes and strides the
     * source has, for a type that no longer knows them.
     */
    public static void sameMemory(Operation op, ModuleTranslation t) {
        device(op, t);
        t.map(op.result(0), t.lookup(op.operand(0), op));
        if (op.name().equals(dev.mgpu.dialect.memref.Reshapes.CastOp.NAME)
                && op.operand(0).type() instanceof Type.MemRefType src && op.result(0).type() instanceof Type.MemRefType) {
            LLVMValueRef[] sizes = new LLVMValueRef[src.rank()];
            LLVMValueRef[] strides = new LLVMValueRef[src.rank()];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = t.arguments.size(t.types.intptr, op.operand(0), i);
                strides[i] = t.arguments.stride(t.types.intptr, op.operand(0), i);
            }
            t.arguments.record(op.result(0), sizes, strides);
        }
    }

    public static void dim(Operation op, ModuleTranslation t) {
        MemRef.DimOp d = new MemRef.DimOp(op);
        if (!(d.memref().type() instanceof Type.MemRefType m)) {
            throw ModuleTranslation.error(op, "Invalid memref.dim (must ask a ranked memref: one of unknown rank is not"
                    + " translated): " + d.memref().type());
        }
        Operation def = d.index() instanceof Value.OpResult r ? r.owner() : null;
        if (def != null && def.attr("value") instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() < m.rank()
                && t.arguments.size(t.types.intptr, d.memref(), (int) i.value()) != null) {
            t.map(op.result(0), t.arguments.size(t.types.intptr, d.memref(), (int) i.value()));
            return;
        }
        throw ModuleTranslation.error(op, "Invalid memref.dim in a kernel (must ask by a constant for a static"
                + " dimension or one the kernel was given: with bare pointers a kernel gets no sizes): " + m);
    }

    private static final String[] RMW_KINDS = {"addf", "addi", "assign", "maxs", "maxu", "mins", "minu", "ori", "andi",
        "maxnumf", "minnumf", "xori"};

    private static final int[] RMW_OPS = {LLVMAtomicRMWBinOpFAdd, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpXchg,
        LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpMin, LLVMAtomicRMWBinOpUMin,
        LLVMAtomicRMWBinOpOr, LLVMAtomicRMWBinOpAnd, LLVMAtomicRMWBinOpFMax, LLVMAtomicRMWBinOpFMin,
        LLVMAtomicRMWBinOpXor};

    public static void atomic(Operation op, ModuleTranslation t) {
        device(op, t);
        MemRef.AtomicRMWOp a = new MemRef.AtomicRMWOp(op);
        // LLVM's verifier takes atomics on whole bytes only: an i1 (or i7) would be the module's error, not the op's.
        if (a.value().type() instanceof Type.IntegerType it && it.width() % 8 != 0) {
            throw ModuleTranslation.error(op, "Invalid memref.atomic_rmw for translation (must be on an integer of"
                    + " whole bytes, as LLVM's atomics are): " + it);
        }
        LLVMValueRef p = elementPointer(t, op, a.memref(), a.indices());
        LLVMValueRef v = t.lookup(a.value(), op);
        String kind = a.kind();
        if (privateMemory(a.memref())) {
            // A thread's own memory: no other thread reads it, so a load and a store are the atomic, and the
            // NVPTX back end, which has no atomics on local memory, ends the process on one.
            LLVMTypeRef vt = LLVMTypeOf(v);
            LLVMValueRef old = LLVMBuildLoad2(t.builder, vt, p, "");
            LLVMBuildStore(t.builder, combine(t, kind, old, v, a.value().type()), p);
            t.map(op.result(0), old);
            return;
        }
        if (Types.elementSize(a.value().type(), op) > 8 && t.device != null
                && dev.mgpu.codegen.internal.translate.CodeGeneration.checksOn()) {
            // NVPTX makes calls of __atomic_fetch_add_16 and the like, which nothing defines; AMDGPU aborts ("Do
            // not know how to expand the result of this operator!").
            throw ModuleTranslation.error(op, "Invalid memref.atomic_rmw for " + t.device.name() + " (must be on at"
                    + " most 64 bits: LLVM's back ends have no wider atomics for kernels): " + a.value().type());
        }
        boolean bySwap = t.device != null && t.device.atomicsByCompareAndSwap(a.value().type());
        for (int i = 0; i < RMW_KINDS.length && !bySwap; i++) {
            if (RMW_KINDS[i].equals(kind)) {
                LLVMValueRef r = LLVMBuildAtomicRMW(t.builder, RMW_OPS[i], p, v, LLVMAtomicOrderingAcquireRelease, 0);
                t.map(op.result(0), r);
                return;
            }
        }
        // mulf, muli, maximumf, minimumf, and what the target takes only so: a compare-and-swap loop on the
        // element's bits.
        LLVMTypeRef vt = LLVMTypeOf(v);
        LLVMTypeRef bitsType = LLVMIntTypeInContext(t.ctx, (int) Types.elementSize(a.value().type(), op) * 8);
        boolean isFloat = a.value().type() instanceof Type.FloatType;
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(t.builder);
        LLVMValueRef fn = LLVMGetBasicBlockParent(pre);
        LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMValueRef first = LLVMBuildLoad2(t.builder, vt, p, "");
        LLVMSetOrdering(first, LLVMAtomicOrderingMonotonic);
        LLVMSetAlignment(first, (int) Types.elementSize(a.value().type(), op));
        LLVMBuildBr(t.builder, loop);
        LLVMPositionBuilderAtEnd(t.builder, loop);
        LLVMValueRef old = LLVMBuildPhi(t.builder, vt, "");
        LLVMValueRef next = combine(t, kind, old, v, a.value().type());
        LLVMValueRef cmp = isFloat ? LLVMBuildBitCast(t.builder, old, bitsType, "") : old;
        LLVMValueRef nw = isFloat ? LLVMBuildBitCast(t.builder, next, bitsType, "") : next;
        LLVMValueRef pair = LLVMBuildAtomicCmpXchg(t.builder, p, cmp, nw, LLVMAtomicOrderingAcquireRelease,
                LLVMAtomicOrderingMonotonic, 0);
        LLVMValueRef seen = LLVMBuildExtractValue(t.builder, pair, 0, "");
        LLVMValueRef ok = LLVMBuildExtractValue(t.builder, pair, 1, "");
        LLVMValueRef seenValue = isFloat ? LLVMBuildBitCast(t.builder, seen, vt, "") : seen;
        LLVMBuildCondBr(t.builder, ok, done, loop);
        addIncoming(old, first, pre);
        addIncoming(old, seenValue, loop);
        LLVMPositionBuilderAtEnd(t.builder, done);
        t.map(op.result(0), old);
    }

    /** Whether {@code memref} is a thread's own: made by memref.alloca, or in the private address space. */
    private static boolean privateMemory(Value memref) {
        if (memref.type() instanceof Type.MemRefType m && m.memorySpace() instanceof AddressSpaceAttr s
                && s.space().equals("private")) {
            return true;
        }
        return memref instanceof Value.OpResult r && r.owner().name().equals(dev.mgpu.dialect.memref.Allocations.AllocaOp.NAME);
    }

    /** What {@code memref.atomic_rmw} of {@code kind} stores, given the value {@code old} it found and its operand. */
    private static LLVMValueRef combine(ModuleTranslation t, String kind, LLVMValueRef old, LLVMValueRef v, Type type) {
        LLVMTypeRef vt = LLVMTypeOf(v);
        return switch (kind) {
            case "addf" -> LLVMBuildFAdd(t.builder, old, v, "");
            case "addi" -> LLVMBuildAdd(t.builder, old, v, "");
            case "assign" -> v;
            case "ori" -> LLVMBuildOr(t.builder, old, v, "");
            case "andi" -> LLVMBuildAnd(t.builder, old, v, "");
            case "xori" -> LLVMBuildXor(t.builder, old, v, "");
            case "maxs", "maxu", "mins", "minu" -> DeviceTarget.call(t, "llvm." + (kind.endsWith("s") ? "s" : "u")
                    + kind.substring(0, 3) + ".i" + ((Type.IntegerType) type).width(), vt, old, v);
            case "maxnumf", "minnumf" -> DeviceTarget.call(t, "llvm." + kind.substring(0, 6) + "."
                    + Types.floatSuffix(type), vt, old, v);
            case "mulf" -> LLVMBuildFMul(t.builder, old, v, "");
            case "muli" -> LLVMBuildMul(t.builder, old, v, "");
            case "maximumf" -> DeviceTarget.call(t, "llvm.maximum." + Types.floatSuffix(type), vt, old, v);
            default -> DeviceTarget.call(t, "llvm.minimum." + Types.floatSuffix(type), vt, old, v);
        };
    }

    /**
     * An {@code llvm.mlir.global} of a kernel module (workgroup memory and the like) or of the host: no
     * initializer region, and an initial value that is an integer or float.
     */
    public static void global(Operation op, ModuleTranslation t) {
        LLVMKernelOps.GlobalOp g = new LLVMKernelOps.GlobalOp(op);
        if (t.device != null) {
            t.device.checkGlobalSpace(op, g.addressSpace(), op.attr("value") != null);
            t.device.checkSymbolName(op, op.symbolName(), g.linkage().equals("internal")
                    || g.linkage().equals("private"));
            t.noteGlobal(op);
        }
        LLVMTypeRef ty = t.types.of(g.type(), op);
        LLVMValueRef v = LLVMAddGlobalInAddressSpace(t.module, ty, op.symbolName(), g.addressSpace());
        String linkage = g.linkage();
        Attribute value = op.attr("value");
        if (value != null) {
            LLVMSetInitializer(v, initializer(op, ty, value));
        } else if (!linkage.equals("external")) {
            LLVMSetInitializer(v, LLVMGetUndef(ty));
        }
        if (!linkage.equals("external") || value != null) {
            LLVMSetLinkage(v, Types.linkage(linkage));
        }
        if (op.hasAttr("constant")) {
            LLVMSetGlobalConstant(v, 1);
        }
        LLVMSetAlignment(v, g.alignment() > 0 ? (int) g.alignment() : 16);
    }

    /**
     * A memref.global: an array of its elements, in its memref's address space; one of the generic space
     * is placed in global memory on a GPU (constant memory on AMD when it is constant), and reached through
     * a generic pointer. Private is internal to the module; uninitialized is undefined.
     */
    public static void memrefGlobal(Operation op, ModuleTranslation t) {
        Allocations.GlobalOp g = new Allocations.GlobalOp(op);
        Type.MemRefType m = g.type();
        int as;
        if (t.device != null) {
            as = t.device.memrefGlobalSpace(t, op, m, g.isConstant());
            t.device.checkGlobalSpace(op, as, g.value() != null);
        } else {
            as = t.types.addressSpace(m, op);
        }
        t.noteGlobal(op);
        LLVMTypeRef elem = t.types.of(m.elementType(), op);
        long n = 1;
        for (long d : m.shape()) {
            n *= d;
        }
        if (n > (1L << 40) / LLVMABISizeOfType(LLVMGetModuleDataLayout(t.module), elem)) {
            // An object file's sections hold no more (LLVM wrapped the size of larger arrays silently).
            throw ModuleTranslation.error(op, "Invalid memref.global (must be at most 2^40 bytes): " + n + " elements");
        }
        LLVMTypeRef arr = LLVMArrayType2(elem, n);
        LLVMValueRef v = LLVMAddGlobalInAddressSpace(t.module, arr, op.symbolName(), as);
        Attribute.DenseElementsAttr value = g.value();
        if (value != null && value.isSplat() && value.bitsOf(0) == 0) {
            LLVMSetInitializer(v, LLVMConstNull(arr));
        } else if (value != null) {
            if (n > Integer.MAX_VALUE - 8) {
                throw ModuleTranslation.error(op, "Invalid memref.global (must have at most 2^31 elements unless all"
                        + " are zero): " + n);
            }
            LLVMValueRef[] cs = new LLVMValueRef[(int) n];
            for (int k = 0; k < n; k++) {
                long bits = value.bitsOf(k);
                cs[k] = k > 0 && value.isSplat() ? cs[0] : m.elementType() instanceof Type.FloatType f
                        ? Types.floatConstant(elem, dev.mgpu.ir.FloatBits.fromBits(bits, f), f) : LLVMConstInt(elem, bits, 1);
            }
            try (PointerPointer<LLVMValueRef> pp = new PointerPointer<>(cs)) {
                LLVMSetInitializer(v, LLVMConstArray2(elem, pp, n));
            }
        } else if (g.isDefinition()) {
            LLVMSetInitializer(v, LLVMGetUndef(arr));
        }
        if (g.isDefinition() && g.isPrivate()) {
            LLVMSetLinkage(v, LLVMInternalLinkage);
        }
        if (g.isConstant()) {
            LLVMSetGlobalConstant(v, 1);
        }
        if (g.alignment() > 0) {
            LLVMSetAlignment(v, (int) g.alignment());
        }
    }

    /**
     * memref.get_global: in a kernel, the bare pointer to the global's first element (in the memref's address
     * space); on the host, a descriptor of it with offset 0 and row-major strides.
     */
    public static void getGlobal(Operation op, ModuleTranslation t) {
        String name = new Allocations.GetGlobalOp(op).name().leaf();
        LLVMValueRef g = LLVMGetNamedGlobal(t.module, name);
        if (g == null || g.isNull()) {
            throw ModuleTranslation.error(op, "Invalid memref.get_global (must name a memref.global of the module): @"
                    + name);
        }
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        LLVMTypeRef want = t.types.pointer(m, op);
        LLVMValueRef p = LLVMTypeOf(g).equals(want) ? g : LLVMBuildAddrSpaceCast(t.builder, g, want, "");
        if (t.device != null) {
            t.map(op.result(0), p);
            return;
        }
        LLVMTypeRef intptr = t.types.intptr;
        long[] shape = m.shape();
        LLVMValueRef[] fields = new LLVMValueRef[3 + 2 * shape.length];
        fields[0] = p;
        fields[1] = p;
        fields[2] = LLVMConstInt(intptr, 0, 0);
        long stride = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            fields[3 + i] = LLVMConstInt(intptr, shape[i], 0);
            fields[3 + shape.length + i] = LLVMConstInt(intptr, stride, 0);
            stride *= shape[i];
        }
        t.map(op.result(0), t.types.packMemref(t.builder, m, fields, op));
    }

    /** The initial value of a global: an integer or float of its type; anything else is a located error. */
    public static LLVMValueRef initializer(Operation op, LLVMTypeRef ty, Attribute value) {
        int kind = LLVMGetTypeKind(ty);
        if (value instanceof Attribute.IntegerAttr i && kind == LLVMIntegerTypeKind) {
            return LLVMConstInt(ty, i.value(), 1);
        }
        if (value instanceof Attribute.FloatAttr f && (kind == LLVMFloatTypeKind || kind == LLVMDoubleTypeKind
                || kind == LLVMHalfTypeKind || kind == LLVMBFloatTypeKind)) {
            return Types.floatConstant(ty, f.value(), (Type.FloatType) f.type());
        }
        throw ModuleTranslation.error(op, "Invalid initial value of llvm.mlir.global (must be an integer or float of"
                + " its type): " + value);
    }
}
