package dev.mgpu.codegen.internal.llvm;

import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMessage;
import static org.bytedeco.llvm.global.LLVM.LLVMPrintTypeToString;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;

/** LLVM's text of a type, for messages. */
public final class LlvmText {
    private LlvmText() {
    }

    /** {@code t} as LLVM IR spells it, such as {@code i64} or {@code { ptr, i32 }}. */
    public static String type(LLVMTypeRef t) {
        BytePointer p = LLVMPrintTypeToString(t);
        try {
            return p.getString();
        } finally {
            LLVMDisposeMessage(p);
        }
    }
}
