package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.dialect.memref.Views;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * How a kernel receives a memref, on both sides of a launch: upstream's default, the descriptor's fields as
 * separate parameters {@code (allocated, aligned, offset, sizes..., strides...)}, or with the bare-pointer
 * convention ({@code kernel-bare-ptr-calling-convention}) the address of its element 0 alone.
 *
 * <p>Inside a kernel a memref is the address of its element 0 either way. Under the descriptor convention
 * its sizes and strides that the type does not know are kept here, by value, for {@code memref.dim} and
 * for the addresses of elements; views made in the kernel keep theirs too.
 */
public final class KernelArguments {
    /** Whether a kernel's memref is one pointer, its element 0. */
    public final boolean barePointers;

    /** The sizes and strides of a kernel's memref values that their types leave dynamic; null where static. */
    public record Extents(LLVMValueRef[] sizes, LLVMValueRef[] strides) {
    }

    private final Map<Value, Extents> extents = new IdentityHashMap<>();

    /** Where a kernel's parameter {@code index}, of {@code type}, comes from. */
    @FunctionalInterface
    public interface Parameters {
        LLVMValueRef get(int index, LLVMTypeRef type);
    }

    KernelArguments(boolean barePointers) {
        this.barePointers = barePointers;
    }

    /**
     * Kernel argument {@code a}, from its parameters of {@code types} (as {@link Types#kernelParameters}
     * gives them), the first at {@code first}: for a memref, the address of its element 0 (elements of
     * {@code element}), its sizes and strides kept.
     */
    public LLVMValueRef bind(LLVMBuilderRef b, LLVMTypeRef intptr, LLVMTypeRef element, Value a, List<LLVMTypeRef> types,
            int first, Parameters from) {
        if (!(a.type() instanceof Type.MemRefType m) || barePointers) {
            return from.get(first, types.get(0));
        }
        Views.Strides st = Views.Strides.of(m);
        LLVMValueRef aligned = from.get(first + 1, types.get(1));
        LLVMValueRef element0 = aligned;
        if (st.offset() == Type.DYNAMIC || st.offset() != 0) {
            LLVMValueRef offset = st.offset() == Type.DYNAMIC ? from.get(first + 2, types.get(2))
                    : LLVMConstInt(intptr, st.offset(), 1);
            try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(new LLVMValueRef[] {offset})) {
                element0 = LLVMBuildInBoundsGEP2(b, element, aligned, p, 1, "");
            }
        }
        int r = m.rank();
        LLVMValueRef[] sizes = new LLVMValueRef[r];
        LLVMValueRef[] strides = new LLVMValueRef[r];
        for (int i = 0; i < r; i++) {
            if (m.dim(i) == Type.DYNAMIC) {
                sizes[i] = from.get(first + 3 + i, types.get(3 + i));
            }
            if (st.strides()[i] == Type.DYNAMIC) {
                strides[i] = from.get(first + 3 + r + i, types.get(3 + r + i));
            }
        }
        extents.put(a, new Extents(sizes, strides));
        return element0;
    }

    /** Size {@code i} of kernel memref {@code v}: a constant where its type knows it, else its value, else null. */
    public LLVMValueRef size(LLVMTypeRef intptr, Value v, int i) {
        Type.MemRefType m = (Type.MemRefType) v.type();
        if (m.dim(i) != Type.DYNAMIC) {
            return LLVMConstInt(intptr, m.dim(i), 1);
        }
        Extents e = extents.get(v);
        return e == null ? null : e.sizes()[i];
    }

    /** Stride {@code i} of kernel memref {@code v}: a constant where its type knows it, else its value, else null. */
    public LLVMValueRef stride(LLVMTypeRef intptr, Value v, int i) {
        long s = Views.Strides.of((Type.MemRefType) v.type()).strides()[i];
        if (s != Type.DYNAMIC) {
            return LLVMConstInt(intptr, s, 1);
        }
        Extents e = extents.get(v);
        return e == null ? null : e.strides()[i];
    }

    /** Records the sizes and strides of a view made in a kernel (null where unknown). */
    public void record(Value v, LLVMValueRef[] sizes, LLVMValueRef[] strides) {
        extents.put(v, new Extents(sizes, strides));
    }
}
