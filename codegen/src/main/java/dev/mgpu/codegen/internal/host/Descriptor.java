package dev.mgpu.codegen.internal.host;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.dialect.memref.Views;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A ranked memref on the host, field by field, as upstream's lowering lays it out: {@code {allocated,
 * aligned, offset, sizes[rank], strides[rank]}}. Read from a descriptor value, a field the memref's type
 * knows (a static size, stride or offset) is that constant, so that LLVM folds what it can.
 */
record Descriptor(LLVMValueRef allocated, LLVMValueRef aligned, LLVMValueRef offset, LLVMValueRef[] sizes,
        LLVMValueRef[] strides) {

    /** The fields of {@code memref}'s descriptor, each a constant where {@code m} knows it. */
    static Descriptor of(ModuleTranslation t, Operation op, Value memref) {
        return of(t, (Type.MemRefType) memref.type(), t.lookup(memref, op));
    }

    /** The fields of descriptor {@code d} of type {@code m}, each a constant where {@code m} knows it. */
    static Descriptor of(ModuleTranslation t, Type.MemRefType m, LLVMValueRef d) {
        Views.Strides st = Views.Strides.of(m);
        LLVMValueRef[] sizes = new LLVMValueRef[m.rank()];
        LLVMValueRef[] strides = new LLVMValueRef[m.rank()];
        for (int i = 0; i < m.rank(); i++) {
            sizes[i] = m.dim(i) != Type.DYNAMIC ? index(t, m.dim(i)) : field(t, d, 3, i);
            strides[i] = st.strides()[i] != Type.DYNAMIC ? index(t, st.strides()[i]) : field(t, d, 4, i);
        }
        LLVMValueRef offset = st.offset() != Type.DYNAMIC ? index(t, st.offset())
                : LLVMBuildExtractValue(t.builder, d, 2, "");
        return new Descriptor(LLVMBuildExtractValue(t.builder, d, 0, ""), LLVMBuildExtractValue(t.builder, d, 1, ""),
                offset, sizes, strides);
    }

    private static LLVMValueRef field(ModuleTranslation t, LLVMValueRef d, int array, int i) {
        return LLVMBuildExtractValue(t.builder, LLVMBuildExtractValue(t.builder, d, array, ""), i, "");
    }

    /** The row-major strides of {@code sizes}: the last is 1, each other the next one's times its size. */
    static LLVMValueRef[] rowMajor(ModuleTranslation t, LLVMValueRef[] sizes) {
        LLVMValueRef[] strides = new LLVMValueRef[sizes.length];
        LLVMValueRef s = index(t, 1);
        for (int i = sizes.length - 1; i >= 0; i--) {
            strides[i] = s;
            s = LLVMBuildMul(t.builder, s, sizes[i], "");
        }
        return strides;
    }

    /** The descriptor value of type {@code m} that holds these fields. */
    LLVMValueRef pack(ModuleTranslation t, Type.MemRefType m, Operation op) {
        LLVMValueRef[] fields = new LLVMValueRef[3 + 2 * sizes.length];
        fields[0] = allocated;
        fields[1] = aligned;
        fields[2] = offset;
        System.arraycopy(sizes, 0, fields, 3, sizes.length);
        System.arraycopy(strides, 0, fields, 3 + sizes.length, strides.length);
        return t.types.packMemref(t.builder, m, fields, op);
    }

    /** The address of the element at {@code idx}: aligned, moved by the offset plus each index times its stride. */
    LLVMValueRef element(ModuleTranslation t, Type element, LLVMValueRef[] idx, Operation op) {
        LLVMValueRef lin = offset;
        for (int i = 0; i < idx.length; i++) {
            lin = LLVMBuildAdd(t.builder, lin, LLVMBuildMul(t.builder, idx[i], strides[i], ""), "");
        }
        return gep(t, t.types.of(element, op), aligned, lin);
    }

    /** The number of elements: the product of the sizes. */
    LLVMValueRef count(ModuleTranslation t) {
        LLVMValueRef n = index(t, 1);
        for (LLVMValueRef s : sizes) {
            n = LLVMBuildMul(t.builder, n, s, "");
        }
        return n;
    }

    static LLVMValueRef gep(ModuleTranslation t, LLVMTypeRef element, LLVMValueRef base, LLVMValueRef index) {
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(new LLVMValueRef[] {index})) {
            return LLVMBuildGEP2(t.builder, element, base, p, 1, "");
        }
    }

    static LLVMValueRef index(ModuleTranslation t, long v) {
        return LLVMConstInt(t.types.intptr, v, 1);
    }
}
