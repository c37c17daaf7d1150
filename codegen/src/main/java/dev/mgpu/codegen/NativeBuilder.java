package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.LLVMCreateBuilderInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeBuilder;

import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;

/** Owns one LLVM IR builder and disposes it exactly once. */
public final class NativeBuilder implements AutoCloseable {
    private LLVMBuilderRef builder;

    /**
     * Creates a builder in {@code context}.
     *
     * @param context the LLVM context
     */
    public NativeBuilder(LLVMContextRef context) {
        builder = LLVMCreateBuilderInContext(context);
    }

    /**
     * Returns the builder.
     *
     * @return the LLVM builder
     * @throws IllegalStateException if this builder is closed
     */
    public LLVMBuilderRef get() {
        if (builder == null) {
            throw new IllegalStateException("NativeBuilder is closed");
        }
        return builder;
    }

    @Override
    public void close() {
        if (builder != null) {
            LLVMDisposeBuilder(builder);
            builder = null;
        }
    }
}
