package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Maps IR types to LLVM types. {@code index} is the target's {@code intptr_t}; a ranked memref is the
 * descriptor {@code {ptr allocated, ptr aligned, intptr offset, [r x intptr] sizes, [r x intptr] strides}};
 * an unranked memref is {@code {intptr rank, ptr descriptor}}; a token is a {@code ptr} (a stream).
 */
public final class Types {
    private final LLVMContextRef ctx;
    public final LLVMTypeRef intptr;
    public final int intptrWidth;
    public final LLVMTypeRef ptr;
    private final java.util.Map<Type, LLVMTypeRef> cache = new java.util.HashMap<>();
    /** The GPU target of a kernel module, whose memrefs are bare pointers; null for host code. */
    public final DeviceTarget device;

    public Types(LLVMContextRef ctx, LLVMTypeRef intptr) {
        this(ctx, intptr, null);
    }

    public Types(LLVMContextRef ctx, LLVMTypeRef intptr, DeviceTarget device) {
        this.ctx = ctx;
        this.intptr = intptr;
        this.intptrWidth = LLVMGetIntTypeWidth(intptr);
        this.ptr = LLVMPointerTypeInContext(ctx, 0);
        this.device = device;
    }

    /**
     * The constant {@code v} of {@code ty}, the LLVM form of {@code t}. A NaN is made from its bits, so that
     * its payload and its quiet bit are kept: a double handed to LLVM would be converted, and a signalling
     * NaN quieted.
     */
    public static LLVMValueRef floatConstant(LLVMTypeRef ty, double v, Type.FloatType t) {
        if (!Double.isNaN(v)) {
            return LLVMConstReal(ty, v);
        }
        LLVMTypeRef bits = LLVMIntTypeInContext(LLVMGetTypeContext(ty), t.width());
        return LLVMConstBitCast(LLVMConstInt(bits, dev.mgpu.ir.FloatBits.bits(v, t), 0), ty);
    }

    /** The LLVM type of {@code t}, created once per translation. */
    public LLVMTypeRef of(Type t, Operation where) {
        LLVMTypeRef l = cache.get(t);
        if (l == null) {
            l = create(t, where);
            cache.put(t, l);
        }
        return l;
    }

    /** The widest integer type LLVM has (MLIR's go to 2^24 - 1 bits): no wider one is asked of it. */
    private static final int LLVM_MAX_INT_WIDTH = 1 << 23;

    private LLVMTypeRef create(Type t, Operation where) {
        if (t instanceof Type.IntegerType i) {
            if (i.width() > LLVM_MAX_INT_WIDTH) {
                throw new MgpuException(where.knownLocation(), "Invalid type for translation (must be an integer of"
                        + " at most " + LLVM_MAX_INT_WIDTH + " bits, LLVM's widest): " + t);
            }
            return LLVMIntTypeInContext(ctx, i.width());
        } else if (t instanceof Type.IndexType) {
            return intptr;
        } else if (t instanceof Type.FloatType f) {
            switch (f.kind()) {
                case F16: return LLVMHalfTypeInContext(ctx);
                case BF16: return LLVMBFloatTypeInContext(ctx);
                case F32: return LLVMFloatTypeInContext(ctx);
                default: return LLVMDoubleTypeInContext(ctx);
            }
        } else if (t instanceof Type.AsyncTokenType) {
            return ptr;
        } else if (t instanceof Type.LLVMPointerType p) {
            return LLVMPointerTypeInContext(ctx, p.addressSpace());
        } else if (t instanceof Type.MemRefType m) {
            // In a kernel module a memref is a pointer to its element 0, as kernels get them (bare pointers).
            return device != null ? pointer(m, where) : struct(memrefFields(m, where));
        } else if (t instanceof Type.UnrankedMemRefType) {
            return struct(List.of(intptr, ptr));
        } else if (t instanceof Type.VectorType v) {
            return vector(v, where);
        } else if (t instanceof Type.LLVMStructType s) {
            List<LLVMTypeRef> fs = new ArrayList<>();
            for (Type f : s.body()) {
                fs.add(of(f, where));
            }
            try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(fs.toArray(new LLVMTypeRef[0]))) {
                return LLVMStructTypeInContext(ctx, p, fs.size(), s.packed() ? 1 : 0);
            }
        } else if (t instanceof Type.LLVMArrayType a) {
            return LLVMArrayType2(of(a.elementType(), where), a.size());
        } else if (t instanceof Type.LLVMVoidType) {
            return LLVMVoidTypeInContext(ctx);
        }
        throw new MgpuException(where.knownLocation(), "Invalid type for translation (must have an LLVM equivalent): " + t);
    }

    public LLVMTypeRef struct(List<LLVMTypeRef> fields) {
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(fields.toArray(new LLVMTypeRef[0]))) {
            return LLVMStructTypeInContext(ctx, p, fields.size(), 0);
        }
    }

    /**
     * The address space of a memref's pointers: its integer memory space, as upstream's host lowering
     * keeps it (0 when it has none). A symbolic space such as {@code #gpu.address_space<global>} names a
     * device's memory and has no meaning in host code.
     */
    public int addressSpace(Type.MemRefType m, Operation where) {
        Attribute s = m.memorySpace();
        if (device != null) {
            return device.addressSpace(s, where);
        }
        if (s == null) {
            return 0;
        }
        if (s instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() < (1 << 24)) {
            return (int) i.value();
        }
        throw new MgpuException(where.location(), "Invalid memory space of a host memref (must be an integer address"
                + " space): " + s);
    }

    /** The pointer type of a memref's data. */
    public LLVMTypeRef pointer(Type.MemRefType m, Operation where) {
        int as = addressSpace(m, where);
        return as == 0 ? ptr : LLVMPointerTypeInContext(ctx, as);
    }

    private List<LLVMTypeRef> memrefFields(Type.MemRefType m, Operation where) {
        LLVMTypeRef p = pointer(m, where);
        List<LLVMTypeRef> f = new ArrayList<>(List.of(p, p, intptr));
        if (m.rank() > 0) {
            LLVMTypeRef arr = LLVMArrayType2(intptr, m.rank());
            f.add(arr);
            f.add(arr);
        }
        return f;
    }

    /** The parameter types a memref function argument expands to: allocated, aligned, offset, sizes, strides. */
    public List<LLVMTypeRef> expandedMemref(Type.MemRefType m, Operation where) {
        LLVMTypeRef p = pointer(m, where);
        List<LLVMTypeRef> out = new ArrayList<>(List.of(p, p, intptr));
        for (int i = 0; i < 2 * m.rank(); i++) {
            out.add(intptr);
        }
        return out;
    }

    /**
     * The parameter types a kernel's argument of type {@code t} takes: a memref's descriptor fields, or with
     * {@code bare} pointers the pointer to its element 0.
     */
    public List<LLVMTypeRef> kernelParameters(Type t, boolean bare, Operation where) {
        return t instanceof Type.MemRefType m && !bare ? expandedMemref(m, where) : List.of(of(t, where));
    }

    /** The parameter types an unranked memref argument expands to, as upstream: rank ({@code i64}), descriptor. */
    public List<LLVMTypeRef> expandedUnranked() {
        return List.of(LLVMInt64TypeInContext(ctx), ptr);
    }

    /** A generic ({@code addrspace 0}) pointer to what {@code p} points to, for the runtime's {@code void *}. */
    public LLVMValueRef generic(LLVMBuilderRef b, LLVMValueRef p) {
        return LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 0 ? p : LLVMBuildAddrSpaceCast(b, p, ptr, "");
    }

    /** The fields of descriptor {@code d} of a memref of {@code rank}, in order: as a call or launch passes them. */
    public static List<LLVMValueRef> fields(LLVMBuilderRef b, LLVMValueRef d, int rank) {
        List<LLVMValueRef> out = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            out.add(LLVMBuildExtractValue(b, d, f, ""));
        }
        for (int f = 3; f <= 4; f++) {
            for (int i = 0; i < rank; i++) {
                out.add(LLVMBuildExtractValue(b, LLVMBuildExtractValue(b, d, f, ""), i, ""));
            }
        }
        return out;
    }

    /** Builds a descriptor value from expanded fields. */
    public LLVMValueRef packMemref(LLVMBuilderRef b, Type.MemRefType m, LLVMValueRef[] fields, Operation where) {
        LLVMTypeRef st = of(m, where);
        LLVMValueRef d = LLVMGetUndef(st);
        d = LLVMBuildInsertValue(b, d, fields[0], 0, "");
        d = LLVMBuildInsertValue(b, d, fields[1], 1, "");
        d = LLVMBuildInsertValue(b, d, fields[2], 2, "");
        for (int i = 0; i < m.rank(); i++) {
            LLVMValueRef sizes = LLVMBuildExtractValue(b, d, 3, "");
            d = LLVMBuildInsertValue(b, d, LLVMBuildInsertValue(b, sizes, fields[3 + i], i, ""), 3, "");
        }
        for (int i = 0; i < m.rank(); i++) {
            LLVMValueRef strides = LLVMBuildExtractValue(b, d, 4, "");
            d = LLVMBuildInsertValue(b, d, LLVMBuildInsertValue(b, strides, fields[3 + m.rank() + i], i, ""), 4, "");
        }
        return d;
    }

    /** {@code void}, the single result type, or a struct of several results. */
    public LLVMTypeRef results(List<Type> results, Operation where) {
        if (results.isEmpty()) {
            return LLVMVoidTypeInContext(ctx);
        }
        if (results.size() == 1) {
            return of(results.get(0), where);
        }
        List<LLVMTypeRef> fs = new ArrayList<>();
        for (Type t : results) {
            fs.add(of(t, where));
        }
        return struct(fs);
    }

    /**
     * The alignment {@code bytes} of {@code op} (an alloca's, say), for LLVM, whose C API takes an {@code
     * unsigned} and whose back ends stop at 2^32: more than 2^30 is a located error (an int of Java's would
     * wrap, and LLVM would be handed 0).
     */
    public static int alignment(long bytes, Operation op) {
        if (bytes > (1L << 30)) {
            throw new MgpuException(op.knownLocation(), "Invalid alignment of " + op.name() + " for translation (must be"
                    + " at most 2^30 bytes): " + bytes);
        }
        return (int) bytes;
    }

    /**
     * The LLVM vector type of {@code v}: one dimension of at most 2^16 elements (each is an element of the
     * translated code; a larger vector is a located error before LLVM is asked for it).
     */
    private LLVMTypeRef vector(Type.VectorType v, Operation where) {
        if (v.shape().length != 1 || v.shape()[0] > (1L << 16)) {
            throw new MgpuException(where.knownLocation(), "Invalid vector type for translation (must have one"
                    + " dimension of at most 65536 elements): " + v);
        }
        return LLVMVectorType(of(v.elementType(), where), (int) v.shape()[0]);
    }

    /** The size in bytes of a memref element type. */
    public static long elementSize(Type t, Operation where) {
        if (t instanceof Type.IntegerType i) {
            return (i.width() + 7) / 8;
        } else if (t instanceof Type.FloatType f) {
            return f.width() / 8;
        } else if (t instanceof Type.IndexType) {
            return 8;
        }
        throw new MgpuException(where.knownLocation(), "Invalid element type (must be an integer, index or float): " + t);
    }

    public static int linkage(String keyword) {
        switch (keyword) {
            case "internal": return LLVMInternalLinkage;
            case "private": return LLVMPrivateLinkage;
            case "linkonce": return LLVMLinkOnceAnyLinkage;
            case "linkonce_odr": return LLVMLinkOnceODRLinkage;
            case "weak": return LLVMWeakAnyLinkage;
            case "weak_odr": return LLVMWeakODRLinkage;
            case "available_externally": return LLVMAvailableExternallyLinkage;
            case "extern_weak": return LLVMExternalWeakLinkage;
            case "common": return LLVMCommonLinkage;
            default: return LLVMExternalLinkage;
        }
    }

    /** The suffix of LLVM's intrinsics for float type {@code t}: {@code bf16}, {@code f16}, {@code f32}, {@code f64}. */
    public static String floatSuffix(Type t) {
        Type.FloatType f = (Type.FloatType) t;
        return switch (f.kind()) {
            case BF16 -> "bf16";
            case F16 -> "f16";
            case F32 -> "f32";
            default -> "f64";
        };
    }

    /**
     * The LLVM array type of memref {@code m}'s elements, for memory in a kernel's frame (or workgroup
     * memory), where the target checks its size ({@link DeviceTarget#checkFrameArray}).
     */
    public LLVMTypeRef arrayOf(Type.MemRefType m, Operation where) {
        long count = staticCount(m, where);
        if (device != null) {
            device.checkFrameArray(m, count, where);
        }
        return LLVMArrayType2(of(m.elementType(), where), count);
    }

    private static long staticCount(Type.MemRefType m, Operation where) {
        long n = 1;
        for (long d : m.shape()) {
            if (d == Type.DYNAMIC) {
                throw new MgpuException(where.knownLocation(), "Invalid memref for a kernel (must have a static shape here): " + m);
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }
}
