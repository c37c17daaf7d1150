package dev.mgpu.codegen.internal.host;

import static dev.mgpu.codegen.internal.host.Descriptor.gep;
import static dev.mgpu.codegen.internal.host.Descriptor.index;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.LoopBuilder;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.OpTable;
import dev.mgpu.codegen.internal.translate.Types;
import dev.mgpu.dialect.memref.Allocations;
import dev.mgpu.dialect.memref.Buffers;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.memref.Reshapes;
import dev.mgpu.dialect.memref.Views;
import dev.mgpu.dialect.vector.Vector;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The memref ops of host code, as upstream's {@code finalize-memref-to-llvm} lowers them: a ranked memref
 * is its descriptor {@code {allocated, aligned, offset, sizes, strides}}, an unranked one {@code {rank,
 * pointer to a ranked descriptor}}; {@code alloc} takes the heap through {@code malloc}, {@code dealloc}
 * gives it back through {@code free}.
 */
public final class HostMemoryTranslators {
    private HostMemoryTranslators() {
    }

    /** The host translations, by op name; the same names in kernels have translations of their own. */
    public static void register(Map<String, OpTable.OpTranslator<ModuleTranslation>> m) {
        m.put(Buffers.AllocOp.NAME, HostMemoryTranslators::alloc);
        m.put(Allocations.AllocaOp.NAME, HostMemoryTranslators::alloca);
        m.put(Buffers.DeallocOp.NAME, HostMemoryTranslators::dealloc);
        m.put(Buffers.CopyOp.NAME, HostMemoryTranslators::copy);
        m.put(Buffers.RankOp.NAME, HostMemoryTranslators::rank);
        m.put(MemRef.LoadOp.NAME, HostMemoryTranslators::load);
        m.put(MemRef.StoreOp.NAME, HostMemoryTranslators::store);
        m.put(MemRef.DimOp.NAME, HostMemoryTranslators::dim);
        m.put(Reshapes.CastOp.NAME, HostMemoryTranslators::cast);
        m.put(Views.SubViewOp.NAME, HostMemoryTranslators::subview);
        m.put(Views.ReinterpretCastOp.NAME, HostMemoryTranslators::reinterpretCast);
        m.put(Reshapes.ReshapeOp.COLLAPSE, HostMemoryTranslators::collapse);
        m.put(Reshapes.ReshapeOp.EXPAND, HostMemoryTranslators::expand);
        m.put(Vector.TransferReadOp.NAME, HostMemoryTranslators::transferRead);
    }

    /**
     * vector.transfer_read along the last dimension: each element from the memref, or the padding where its
     * index passes the dimension's size (unless {@code in_bounds} says none does).
     */
    private static void transferRead(Operation op, ModuleTranslation t) {
        Vector.TransferReadOp r = new Vector.TransferReadOp(op);
        Type.MemRefType m = (Type.MemRefType) r.source().type();
        Type.VectorType vt = (Type.VectorType) op.result(0).type();
        Descriptor d = Descriptor.of(t, op, r.source());
        LLVMValueRef[] idx = indices(t, op, r.indices());
        LLVMValueRef first = idx[idx.length - 1];
        LLVMValueRef size = d.sizes()[idx.length - 1];
        LLVMValueRef pad = t.lookup(r.padding(), op);
        LLVMTypeRef element = t.types.of(m.elementType(), op);
        LLVMValueRef v = LLVMGetUndef(t.types.of(vt, op));
        for (int i = 0; i < vt.count(); i++) {
            LLVMValueRef at = LLVMBuildAdd(t.builder, first, index(t, i), "");
            LLVMValueRef[] here = idx.clone();
            here[here.length - 1] = at;
            LLVMValueRef x;
            if (r.inBounds()) {
                x = LLVMBuildLoad2(t.builder, element, d.element(t, m.elementType(), here, op), "");
            } else {
                // Only an element inside the memref is read; past its end, the padding.
                LLVMValueRef inside = LLVMBuildICmp(t.builder, LLVMIntSLT, at, size, "");
                LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
                var read = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
                var join = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
                var from = LLVMGetInsertBlock(t.builder);
                LLVMBuildCondBr(t.builder, inside, read, join);
                LLVMPositionBuilderAtEnd(t.builder, read);
                LLVMValueRef loaded = LLVMBuildLoad2(t.builder, element, d.element(t, m.elementType(), here, op), "");
                LLVMBuildBr(t.builder, join);
                LLVMPositionBuilderAtEnd(t.builder, join);
                x = LLVMBuildPhi(t.builder, element, "");
                LoopBuilder.addIncoming(x, loaded, read);
                LoopBuilder.addIncoming(x, pad, from);
            }
            v = LLVMBuildInsertElement(t.builder, v, x, LLVMConstInt(LLVMInt32TypeInContext(t.ctx), i, 0), "");
        }
        t.map(op.result(0), v);
    }

    private static Type.MemRefType identity(Operation op, Type.MemRefType m) {
        if (m.layout() != null && !(m.layout() instanceof Attribute.StridedLayoutAttr s && isRowMajor(m, s))) {
            throw ModuleTranslation.error(op, "Invalid memref for " + op.name() + " (must have the identity layout): "
                    + m);
        }
        return m;
    }

    private static boolean isRowMajor(Type.MemRefType m, Attribute.StridedLayoutAttr s) {
        long[] st = Views.Strides.of(new Type.MemRefType(m.shape(), m.elementType(), null, m.memorySpace())).strides();
        return s.offset() == 0 && java.util.Arrays.equals(st, s.strides());
    }

    private static void alloc(Operation op, ModuleTranslation t) {
        Buffers.AllocOp a = new Buffers.AllocOp(op);
        Type.MemRefType m = identity(op, a.type());
        LLVMValueRef[] sizes = mixed(t, op, m.shape(), a.dynamicSizes());
        LLVMValueRef[] strides = Descriptor.rowMajor(t, sizes);
        Descriptor shape = new Descriptor(null, null, index(t, 0), sizes, strides);
        LLVMValueRef bytes = LLVMBuildMul(t.builder, shape.count(t), index(t, Types.elementSize(m.elementType(), op)), "");
        long align = a.alignment();
        if (align > 1) {
            bytes = LLVMBuildAdd(t.builder, bytes, index(t, align - 1), "");
        }
        LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
        LLVMValueRef raw = DeviceTarget.call(t, "malloc", ptr, bytes);
        LLVMValueRef aligned = raw;
        if (align > 1) {
            // Up to the next multiple of the alignment, as a step from the allocation (its provenance kept).
            LLVMValueRef addr = LLVMBuildPtrToInt(t.builder, raw, t.types.intptr, "");
            LLVMValueRef mis = LLVMBuildAnd(t.builder, addr, index(t, align - 1), "");
            LLVMValueRef step = LLVMBuildAnd(t.builder, LLVMBuildSub(t.builder, index(t, align), mis, ""),
                    index(t, align - 1), "");
            aligned = gep(t, LLVMInt8TypeInContext(t.ctx), raw, step);
        }
        int as = t.types.addressSpace(m, op);
        t.map(op.result(0), new Descriptor(t.addressSpaceCast(raw, as), t.addressSpaceCast(aligned, as), index(t, 0),
                sizes, strides).pack(t, m, op));
    }

    private static void alloca(Operation op, ModuleTranslation t) {
        Allocations.AllocaOp a = new Allocations.AllocaOp(op);
        Type.MemRefType m = identity(op, a.type());
        LLVMValueRef[] sizes = mixed(t, op, m.shape(), a.dynamicSizes());
        LLVMValueRef p;
        if (m.dynamicDimCount() == 0) {
            p = t.entryAlloca(LLVMArrayType2(t.types.of(m.elementType(), op), Math.max(1, staticCount(m))));
        } else {
            p = LLVMBuildArrayAlloca(t.builder, t.types.of(m.elementType(), op),
                    new Descriptor(null, null, null, sizes, null).count(t), "");
        }
        if (a.alignment() > 0) {
            LLVMSetAlignment(p, Types.alignment(a.alignment(), op));
        }
        p = t.addressSpaceCast(p, t.types.addressSpace(m, op));
        t.map(op.result(0), new Descriptor(p, p, index(t, 0), sizes, Descriptor.rowMajor(t, sizes)).pack(t, m, op));
    }

    private static long staticCount(Type.MemRefType m) {
        long n = 1;
        for (long d : m.shape()) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    private static void dealloc(Operation op, ModuleTranslation t) {
        Value v = new Buffers.DeallocOp(op).memref();
        LLVMValueRef allocated;
        if (v.type() instanceof Type.MemRefType) {
            allocated = LLVMBuildExtractValue(t.builder, t.lookup(v, op), 0, "");
        } else {
            LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
            allocated = LLVMBuildLoad2(t.builder, ptr, LLVMBuildExtractValue(t.builder, t.lookup(v, op), 1, ""), "");
        }
        LLVMTypeRef ptr = LLVMPointerTypeInContext(t.ctx, 0);
        DeviceTarget.call(t, "free", LLVMVoidTypeInContext(t.ctx), t.types.generic(t.builder, allocated));
    }

    private static LLVMValueRef[] indices(ModuleTranslation t, Operation op, List<Value> indices) {
        LLVMValueRef[] idx = new LLVMValueRef[indices.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = t.lookup(indices.get(i), op);
        }
        return idx;
    }

    private static void load(Operation op, ModuleTranslation t) {
        MemRef.LoadOp l = new MemRef.LoadOp(op);
        Type.MemRefType m = (Type.MemRefType) l.memref().type();
        LLVMValueRef p = Descriptor.of(t, op, l.memref()).element(t, m.elementType(), indices(t, op, l.indices()), op);
        t.map(op.result(0), LLVMBuildLoad2(t.builder, t.types.of(op.result(0).type(), op), p, ""));
    }

    private static void store(Operation op, ModuleTranslation t) {
        MemRef.StoreOp s = new MemRef.StoreOp(op);
        Type.MemRefType m = (Type.MemRefType) s.memref().type();
        LLVMValueRef p = Descriptor.of(t, op, s.memref()).element(t, m.elementType(), indices(t, op, s.indices()), op);
        LLVMBuildStore(t.builder, t.lookup(s.value(), op), p);
    }

    private static void rank(Operation op, ModuleTranslation t) {
        Value v = new Buffers.RankOp(op).memref();
        t.map(op.result(0), v.type() instanceof Type.MemRefType m ? index(t, m.rank())
                : LLVMBuildExtractValue(t.builder, t.lookup(v, op), 0, ""));
    }

    private static void dim(Operation op, ModuleTranslation t) {
        MemRef.DimOp d = new MemRef.DimOp(op);
        LLVMValueRef i = t.lookup(d.index(), op);
        LLVMTypeRef intptr = t.types.intptr;
        if (d.memref().type() instanceof Type.MemRefType m) {
            if (LLVMIsAConstantInt(i) != null && !LLVMIsAConstantInt(i).isNull()) {
                long k = LLVMConstIntGetSExtValue(i);
                if (k >= 0 && k < m.rank()) {
                    t.map(op.result(0), Descriptor.of(t, op, d.memref()).sizes()[(int) k]);
                    return;
                }
            }
            // A dimension known only at run time: the sizes from memory, at that index.
            LLVMTypeRef arr = LLVMArrayType2(intptr, Math.max(1, m.rank()));
            LLVMValueRef slot = t.entryAlloca(arr);
            LLVMBuildStore(t.builder, m.rank() == 0 ? LLVMConstNull(arr)
                    : LLVMBuildExtractValue(t.builder, t.lookup(d.memref(), op), 3, ""), slot);
            t.map(op.result(0), LLVMBuildLoad2(t.builder, intptr, gep(t, intptr, slot, i), ""));
            return;
        }
        // Unranked: the sizes follow the two pointers and the offset in the ranked descriptor pointed to.
        LLVMValueRef desc = LLVMBuildExtractValue(t.builder, t.lookup(d.memref(), op), 1, "");
        LLVMValueRef sizes = gep(t, intptr, desc, index(t, 3));
        t.map(op.result(0), LLVMBuildLoad2(t.builder, intptr, gep(t, intptr, sizes, i), ""));
    }

    private static void cast(Operation op, ModuleTranslation t) {
        Type from = op.operand(0).type();
        Type to = op.result(0).type();
        LLVMValueRef v = t.lookup(op.operand(0), op);
        if (from instanceof Type.MemRefType f && to instanceof Type.UnrankedMemRefType) {
            // The ranked descriptor in the frame, and the unranked memref points to it.
            LLVMValueRef slot = t.entryAlloca(t.types.of(f, op));
            LLVMBuildStore(t.builder, v, slot);
            LLVMValueRef u = LLVMGetUndef(t.types.of(to, op));
            u = LLVMBuildInsertValue(t.builder, u, index(t, f.rank()), 0, "");
            t.map(op.result(0), LLVMBuildInsertValue(t.builder, u, slot, 1, ""));
        } else if (from instanceof Type.UnrankedMemRefType && to instanceof Type.MemRefType r) {
            LLVMValueRef desc = LLVMBuildExtractValue(t.builder, v, 1, "");
            t.map(op.result(0), LLVMBuildLoad2(t.builder, t.types.of(r, op), desc, ""));
        } else {
            // Ranked to ranked: the same descriptor, whose type knows more or fewer of its fields.
            t.map(op.result(0), v);
        }
    }

    /** The allocated and aligned pointers of a ranked or unranked memref. */
    private static LLVMValueRef[] base(ModuleTranslation t, Operation op, Value v, Type.MemRefType result) {
        LLVMValueRef d = t.lookup(v, op);
        if (v.type() instanceof Type.MemRefType) {
            return new LLVMValueRef[] {LLVMBuildExtractValue(t.builder, d, 0, ""), LLVMBuildExtractValue(t.builder, d, 1, "")};
        }
        LLVMValueRef desc = LLVMBuildExtractValue(t.builder, d, 1, "");
        LLVMTypeRef p = t.types.pointer(result, op);
        return new LLVMValueRef[] {LLVMBuildLoad2(t.builder, p, desc, ""),
            LLVMBuildLoad2(t.builder, p, gep(t, p, desc, index(t, 1)), "")};
    }

    /**
     * Static values as index constants, and the next of {@code values} for each {@link Type#DYNAMIC}: the
     * offsets, sizes and strides of views, the sizes of allocations (host code and kernels alike).
     */
    public static LLVMValueRef[] mixed(ModuleTranslation t, Operation op, long[] statics, List<Value> values) {
        LLVMValueRef[] out = new LLVMValueRef[statics.length];
        Iterator<Value> next = values.iterator();
        for (int i = 0; i < statics.length; i++) {
            out[i] = statics[i] != Type.DYNAMIC ? index(t, statics[i]) : t.lookup(next.next(), op);
        }
        return out;
    }

    private static void reinterpretCast(Operation op, ModuleTranslation t) {
        Views.ReinterpretCastOp r = new Views.ReinterpretCastOp(op);
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        LLVMValueRef[] b = base(t, op, r.source(), m);
        LLVMValueRef offset = mixed(t, op, new long[] {r.staticOffset()}, op.segment(1))[0];
        LLVMValueRef[] sizes = mixed(t, op, ((Attribute.DenseArrayAttr) op.attr("static_sizes")).values(), op.segment(2));
        LLVMValueRef[] strides = mixed(t, op, ((Attribute.DenseArrayAttr) op.attr("static_strides")).values(),
                op.segment(3));
        t.map(op.result(0), new Descriptor(b[0], b[1], offset, sizes, strides).pack(t, m, op));
    }

    private static void subview(Operation op, ModuleTranslation t) {
        Views.SubViewOp s = new Views.SubViewOp(op);
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        Descriptor src = Descriptor.of(t, op, s.source());
        LLVMValueRef[] offsets = mixed(t, op, s.staticOffsets(), s.offsets());
        LLVMValueRef[] sizes = mixed(t, op, s.staticSizes(), op.segment(2));
        LLVMValueRef[] steps = mixed(t, op, s.staticStrides(), op.segment(3));
        LLVMValueRef offset = src.offset();
        for (int i = 0; i < offsets.length; i++) {
            offset = LLVMBuildAdd(t.builder, offset, LLVMBuildMul(t.builder, offsets[i], src.strides()[i], ""), "");
        }
        // A rank-reducing view drops dimensions of static size 1 that the result does not keep.
        long[] given = s.staticSizes();
        List<LLVMValueRef> keptSizes = new ArrayList<>();
        List<LLVMValueRef> keptStrides = new ArrayList<>();
        int j = 0;
        for (int i = 0; i < given.length; i++) {
            int srcLeft = given.length - i;
            int dstLeft = m.rank() - j;
            if (given[i] == 1 && srcLeft > dstLeft) {
                continue;
            }
            keptSizes.add(sizes[i]);
            keptStrides.add(LLVMBuildMul(t.builder, src.strides()[i], steps[i], ""));
            j++;
        }
        t.map(op.result(0), new Descriptor(src.allocated(), src.aligned(), offset,
                keptSizes.toArray(new LLVMValueRef[0]), keptStrides.toArray(new LLVMValueRef[0])).pack(t, m, op));
    }

    private static List<int[]> groups(Operation op) {
        List<int[]> out = new ArrayList<>();
        for (Attribute g : ((Attribute.ArrayAttr) op.attr("reassociation")).elements()) {
            List<Attribute> dims = ((Attribute.ArrayAttr) g).elements();
            int[] ds = new int[dims.size()];
            for (int k = 0; k < ds.length; k++) {
                ds[k] = (int) ((Attribute.IntegerAttr) dims.get(k)).value();
            }
            out.add(ds);
        }
        return out;
    }

    private static void collapse(Operation op, ModuleTranslation t) {
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        Descriptor src = Descriptor.of(t, op, op.operand(0));
        List<int[]> groups = groups(op);
        LLVMValueRef[] sizes = new LLVMValueRef[groups.size()];
        LLVMValueRef[] strides = new LLVMValueRef[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            int[] ds = groups.get(g);
            LLVMValueRef n = index(t, 1);
            for (int d : ds) {
                n = LLVMBuildMul(t.builder, n, src.sizes()[d], "");
            }
            sizes[g] = n;
            // A merged group is contiguous within itself: its stride is its innermost dimension's.
            strides[g] = ds.length == 0 ? index(t, 1) : src.strides()[ds[ds.length - 1]];
        }
        t.map(op.result(0), new Descriptor(src.allocated(), src.aligned(), src.offset(), sizes, strides).pack(t, m, op));
    }

    private static void expand(Operation op, ModuleTranslation t) {
        Type.MemRefType m = (Type.MemRefType) op.result(0).type();
        Descriptor src = Descriptor.of(t, op, op.operand(0));
        long[] shape = ((Attribute.DenseArrayAttr) op.attr("static_output_shape")).values();
        LLVMValueRef[] sizes = mixed(t, op, shape, op.operands().subList(1, op.operandCount()));
        LLVMValueRef[] strides = new LLVMValueRef[sizes.length];
        List<int[]> groups = groups(op);
        for (int g = 0; g < groups.size(); g++) {
            int[] ds = groups.get(g);
            LLVMValueRef s = src.strides()[g];
            for (int k = ds.length - 1; k >= 0; k--) {
                strides[ds[k]] = s;
                s = LLVMBuildMul(t.builder, s, sizes[ds[k]], "");
            }
        }
        t.map(op.result(0), new Descriptor(src.allocated(), src.aligned(), src.offset(), sizes, strides).pack(t, m, op));
    }

    private static void copy(Operation op, ModuleTranslation t) {
        Buffers.CopyOp c = new Buffers.CopyOp(op);
        if (!(c.source().type() instanceof Type.MemRefType from) || !(c.target().type() instanceof Type.MemRefType)) {
            throw ModuleTranslation.error(op, "Invalid memref.copy on the host (must copy ranked memrefs): "
                    + c.source().type() + " to " + c.target().type());
        }
        Descriptor src = Descriptor.of(t, op, c.source());
        Descriptor dst = Descriptor.of(t, op, c.target());
        Type element = from.elementType();
        LLVMValueRef[] idx = new LLVMValueRef[from.rank()];
        if (from.layout() == null && ((Type.MemRefType) c.target().type()).layout() == null) {
            // Both row-major and dense: one block of bytes.
            long esz = Types.elementSize(element, op);
            java.util.Arrays.fill(idx, index(t, 0));
            LLVMBuildMemCpy(t.builder, dst.element(t, element, idx, op), (int) Math.min(esz, 8),
                    src.element(t, element, idx, op), (int) Math.min(esz, 8),
                    LLVMBuildMul(t.builder, src.count(t), index(t, esz), ""));
            return;
        }
        copyLoops(t, op, src, dst, element, idx, 0);
    }

    /** One loop per dimension from {@code dim} on, copying an element in the innermost. */
    private static void copyLoops(ModuleTranslation t, Operation op, Descriptor src, Descriptor dst, Type element,
            LLVMValueRef[] idx, int dim) {
        if (dim == idx.length) {
            LLVMValueRef v = LLVMBuildLoad2(t.builder, t.types.of(element, op), src.element(t, element, idx, op), "");
            LLVMBuildStore(t.builder, v, dst.element(t, element, idx, op));
            return;
        }
        LoopBuilder loop = LoopBuilder.open(t, index(t, 0));
        loop.enterWhile(LLVMBuildICmp(t.builder, LLVMIntSLT, loop.iv(), src.sizes()[dim], ""));
        idx[dim] = loop.iv();
        copyLoops(t, op, src, dst, element, idx, dim + 1);
        loop.close(LLVMBuildAdd(t.builder, loop.iv(), index(t, 1), ""));
    }
}
