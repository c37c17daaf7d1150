package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The launch argument structs of a {@link HandlerContext}: one named struct type per distinct field list,
 * and per function one struct and pointer array of each type, allocated and filled once in the entry block.
 */
final class LaunchScratch {
    /**
     * What a function's launch argument struct is kept under.
     *
     * @param function the native address of the function
     * @param type the native address of the struct type
     * @param count the number of fields
     */
    private record ScratchKey(long function, long type, long count) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ScratchKey other && function == other.function && type == other.type
                    && count == other.count;
        }

        @Override
        public int hashCode() {
            int h = Long.hashCode(function);
            h = 31 * h + Long.hashCode(type);
            return 31 * h + Long.hashCode(count);
        }
    }

    private final LLVMContextRef ctx;
    private PointerPointer<LLVMTypeRef> typeBuffer = new PointerPointer<>(16);
    private final Map<List<Long>, LLVMTypeRef> argumentStructs = new HashMap<>();
    private final Map<ScratchKey, HandlerContext.LaunchArgs> launchArgs = new HashMap<>();

    LaunchScratch(LLVMContextRef ctx) {
        this.ctx = ctx;
    }

    /** See {@link HandlerContext#structType}. */
    LLVMTypeRef structType(LLVMTypeRef[] fields) {
        List<Long> key = new ArrayList<>(fields.length);
        for (LLVMTypeRef f : fields) {
            key.add(f.address());
        }
        LLVMTypeRef named = argumentStructs.get(key);
        if (named != null) {
            return named;
        }
        if (fields.length > typeBuffer.capacity()) {
            typeBuffer.close();
            typeBuffer = new PointerPointer<>(fields.length);
        }
        for (int i = 0; i < fields.length; i++) {
            typeBuffer.put(i, fields[i]);
        }
        named = LLVMStructCreateNamed(ctx, "mgpu.args");
        LLVMStructSetBody(named, typeBuffer, fields.length, 0);
        argumentStructs.put(key, named);
        return named;
    }

    /**
     * See {@link HandlerContext#launchArgs}: in {@code fn}, with the pointer type {@code ptr} and the
     * field count {@code count} as an intptr_t constant.
     */
    HandlerContext.LaunchArgs launchArgs(LLVMValueRef fn, LLVMTypeRef st, int fields, LLVMTypeRef ptr,
            LLVMValueRef count) {
        ScratchKey key = new ScratchKey(fn.address(), st.address(), fields);
        HandlerContext.LaunchArgs a = launchArgs.get(key);
        if (a != null) {
            return a;
        }
        LLVMValueRef struct = entryAlloca(fn, st, null, "");
        LLVMValueRef array = entryAlloca(fn, ptr, count, "");
        List<LLVMValueRef> fieldPointers = new ArrayList<>(fields);
        try (NativeBuilder owner = entryBuilder(fn)) {
            LLVMBuilderRef b = owner.get();
            try (PointerPointer<LLVMValueRef> idx = new PointerPointer<>(1)) {
                for (int i = 0; i < fields; i++) {
                    LLVMValueRef field = LLVMBuildStructGEP2(b, st, struct, i, "");
                    fieldPointers.add(field);
                    idx.put(0, LLVMConstInt(LLVMInt32TypeInContext(ctx), i, 0));
                    LLVMBuildStore(b, field, LLVMBuildGEP2(b, ptr, array, idx, 1, ""));
                }
            }
        }
        a = new HandlerContext.LaunchArgs(array, fieldPointers);
        launchArgs.put(key, a);
        return a;
    }

    /** See {@link HandlerContext#entryAlloca}, in {@code fn}. */
    LLVMValueRef entryAlloca(LLVMValueRef fn, LLVMTypeRef t, LLVMValueRef count, String name) {
        try (NativeBuilder owner = entryBuilder(fn)) {
            LLVMBuilderRef b = owner.get();
            return count == null ? LLVMBuildAlloca(b, t, name) : LLVMBuildArrayAlloca(b, t, count, name);
        }
    }

    /** A builder positioned in {@code fn}'s entry block after its allocas, owned by the caller. */
    private NativeBuilder entryBuilder(LLVMValueRef fn) {
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
        NativeBuilder owner = new NativeBuilder(ctx);
        LLVMBuilderRef b = owner.get();
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        while (first != null && !first.isNull() && LLVMIsAAllocaInst(first) != null
                && !LLVMIsAAllocaInst(first).isNull()) {
            first = LLVMGetNextInstruction(first);
        }
        if (first == null || first.isNull()) {
            LLVMPositionBuilderAtEnd(b, entry);
        } else {
            LLVMPositionBuilderBefore(b, first);
        }
        return owner;
    }
}
